"""The group competition's pages (issue 14): the public page in Dutch and English with the
figures of tests/groups_data.py, its constant number of queries, the links to it, the TD's
promotion page (preview, refusal, the step itself, rights) and "how it works"."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competition.clubs import club_url
from competition.models import GroupCompetition
from competition.permissions import td_group
from competition.services.groups import groups_promote
from tests.addresses import club_reverse
from tests.groups_data import (
    both_periods_played,
    evenings_play,
    group_competition_built,
    period_seasons,
)

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def _td(client, competition: GroupCompetition):
    user = User.objects.create_user("wl", password="x-pass-12345")
    user.groups.add(td_group(competition.club))
    client.force_login(user)
    return client


def test_the_page_in_dutch_shows_groups_moves_and_champion(client) -> None:
    competition = both_periods_played()
    html = client.get(
        club_reverse("competition:group_competition", args=["groepen"])
    ).content.decode()
    assert '<h1 class="h3 mb-2">Groepencompetitie</h1>' in html
    assert "Periode 1" in html and "Periode 2" in html and "Groep B" in html
    # Eva went up from B, Dirk down from A after period 1: one mark each, none in period 2
    assert html.count("▲ omhoog") == 1 and html.count("▼ omlaag") == 1
    assert "<strong>Clubkampioen:</strong>" in html and ">Cor</a>" in html
    assert "2 periodes van elk 3 ronden." in html
    final_a = period_seasons(competition, 2)[0]
    cor = final_a.participants.get(member__name="Cor")
    assert club_reverse("competition:participant", args=[final_a.slug, cor.pk]) in html


def test_the_page_in_english_with_the_most_points_rule(client) -> None:
    both_periods_played(champion_rule=GroupCompetition.ChampionRule.MOST_POINTS)
    client.cookies[COOKIE] = "en"
    html = client.get(
        club_reverse("competition:group_competition", args=["groepen"])
    ).content.decode()
    assert "Period 2" in html and "Group A" in html
    assert "the most game points over all periods" in html
    assert ">Ada</a> (5 game points)" in html
    assert "After a period the top player of each group goes up one group" in html


def test_the_page_costs_the_same_queries_after_more_periods(client) -> None:
    competition = group_competition_built()
    evenings_play(period_seasons(competition, 1), 1, 3)
    url = club_reverse("competition:group_competition", args=["groepen"])
    with CaptureQueriesContext(connection) as one_period:
        assert client.get(url).status_code == 200
    groups_promote(competition=competition)
    evenings_play(period_seasons(competition, 2), 2, 3)
    with CaptureQueriesContext(connection) as two_periods:
        assert client.get(url).status_code == 200
    # the club from the address, the competition, its seasons, their latest standings, the
    # participants, their names
    assert len(one_period) == len(two_periods) == 6


def test_an_unknown_competition_is_404(client) -> None:
    assert (
        client.get(club_reverse("competition:group_competition", args=["geen"])).status_code == 404
    )


def test_home_season_header_and_how_it_works_link_to_the_page(client) -> None:
    competition = group_competition_built()
    a1 = period_seasons(competition, 1)[0]
    page = club_reverse("competition:group_competition", args=["groepen"])
    assert page in client.get(club_url(competition.club.slug, "competition:home")).content.decode()
    standings = client.get(club_reverse("competition:standings", args=[a1.slug])).content.decode()
    assert page in standings and "groep A, periode 1" in standings
    how = client.get(club_reverse("competition:how_it_works", args=[a1.slug])).content.decode()
    assert "Groepen met promotie en degradatie" in how
    assert "Dit is groep A van periode 1 van Groepencompetitie" in how
    # the competition's own values: 2 periods of 3 rounds, 1 up, 1 down
    assert "2 periodes van elk 3 ronden." in how
    assert "Na een periode gaat 1 speler per groep, de bovenste, een groep omhoog" in how
    assert "Clubkampioen: de winnaar van de hoogste groep van de laatste periode." in how


def test_the_participant_page_says_where_he_went(client) -> None:
    competition = group_competition_built()
    evenings_play(period_seasons(competition, 1), 1, 3)
    _td(client, competition).post(club_reverse("competition:td_groups", args=["groepen"]), {})
    client.logout()
    b1 = period_seasons(competition, 1)[1]
    eva = b1.participants.get(member__name="Eva")
    html = client.get(
        club_reverse("competition:participant", args=[b1.slug, eva.pk])
    ).content.decode()
    assert "Groep B, periode 1: 1e, gepromoveerd naar groep A" in html
    client.cookies[COOKIE] = "en"
    html = client.get(
        club_reverse("competition:participant", args=[b1.slug, eva.pk])
    ).content.decode()
    assert "Group B, period 1: 1st, promoted to group A" in html


def test_the_td_sees_the_refusal_until_the_period_is_played(client) -> None:
    competition = group_competition_built()
    _td(client, competition)
    client.cookies[COOKIE] = "en"
    url = club_reverse("competition:td_groups", args=["groepen"])
    html = client.get(url).content.decode()
    assert "Group A has completed 0 of the 3 rounds of period 1" in html
    client.post(url, {})
    assert competition.group_seasons.count() == 2


def test_the_td_previews_and_starts_the_next_period(client) -> None:
    competition = group_competition_built()
    evenings_play(period_seasons(competition, 1), 1, 3)
    _td(client, competition)
    client.cookies[COOKIE] = "en"
    url = club_reverse("competition:td_groups", args=["groepen"])
    html = client.get(url).content.decode()
    assert 'Dirk <span class="move-down">▼ down</span>' in html
    assert 'Eva <span class="move-up">▲ up</span>' in html
    assert "Ada, Bob, Cor, Eva" in html and "Dirk, Fer, Gus, Hans" in html
    response = client.post(url, {"start_date": "2026-11-19"})
    assert response.status_code == 302
    a2, b2 = period_seasons(competition, 2)
    assert a2.start_date.isoformat() == "2026-11-19"
    assert list(a2.participants.order_by("start_rank").values_list("member__name", flat=True)) == [
        "Ada",
        "Bob",
        "Cor",
        "Eva",
    ]
    # the TD's desk offers both new groups and the promotion page
    desk = client.get(club_reverse("competition:td_home")).content.decode()
    assert a2.name in desk and b2.name in desk and url in desk


def test_only_the_clubs_td_may_promote(client) -> None:
    competition = group_competition_built()
    evenings_play(period_seasons(competition, 1), 1, 3)
    url = club_reverse("competition:td_groups", args=["groepen"])
    assert client.post(url, {}).status_code == 302  # to the login page
    # a logged-in user who is not the club's TD
    client.force_login(User.objects.create_user("lid", password="x-pass-12345"))
    assert client.post(url, {}).status_code == 403
    assert competition.group_seasons.count() == 2


def test_the_demo_competition_in_groups_is_reachable_from_the_home_page(client, demo_club) -> None:
    page = club_reverse("competition:group_competition", args=["wintergroepen-2027"])
    assert page in client.get(club_url("sc-de-toren", "competition:home")).content.decode()
    html = client.get(page).content.decode()
    # two periods played, one up and one down after the first: two marks, and a champion
    assert "Periode 2" in html and html.count("▲ omhoog") == 1 and html.count("▼ omlaag") == 1
    assert "<strong>Clubkampioen:</strong>" in html
