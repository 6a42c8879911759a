"""The rapid series' public pages (issue 14): the series ranking, each evening's ranking, the
series in "how it works" and on the participant page, in Dutch and English; reachable from the
season's header; a constant number of queries whatever the size; and the TD's *next round*.

The season of ``tests/views/rapid_data.py`` (four players, 10-8-6-5, 3 rounds an evening) plays
the same evening twice: round 1 1-2 (board 1: a draw) and 3-4 (3 wins); then 1-3 and 2-4 (the
lower start number wins); then 1-4 and 2-3 (the same). Evening: P1 ½ + 1 + 1 = 2½, P2 ½ + 1 + 1
= 2½, P3 1 + 0 + 0 = 1, P4 0. P1 and P2 share place 1: (10 + 8) / 2 = 9 each; P3 6, P4 5.
Series (sum of both evenings): P1 and P2 18 (shared 1st), P3 12, P4 10. Best one evening:
P1 and P2 9, P3 6, P4 5.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from competition.models import Round, Season
from competition.permissions import td_group
from tests.addresses import club_reverse
from tests.views.rapid_data import rapid_season

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    main = html.split('id="main"')[1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def series_rows(html: str) -> list[list[str]]:
    body = html.split("series-table")[1].split("<tbody>")[1].split("</tbody>")[0]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in body.split("</tr>")[:-1]
    ]


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()  # a season made by another test may have had the same id and versions


def names(season: Season) -> list[str]:
    """P1 … P4's public names, by start number."""
    return [p.member.name for p in season.participants.order_by("start_rank")]


@pytest.fixture
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_series_ranking_in_english(english) -> None:
    season = rapid_season()
    html = english.get(club_reverse("competition:series", args=[season.slug])).content.decode()
    p1, p2, p3, p4 = names(season)
    assert series_rows(html) == [
        ["1", p1, "9", "9", "18"],
        ["1", p2, "9", "9", "18"],
        ["3", p3, "6", "6", "12"],
        ["4", p4, "5", "5", "10"],
    ]
    page = text(html)
    assert "Evening points by place: 10-8-6-5" in page
    assert "two players on place 2 get (8 + 6) / 2 = 7 each" in page
    assert "The series ranking adds up the points of every evening." in page
    assert f"Evening 1 : {p1} · {p2}" in page


def test_best_evening_marks_the_one_that_does_not_count(english) -> None:
    season = rapid_season(best_evenings=1)
    html = english.get(club_reverse("competition:series", args=[season.slug])).content.decode()
    # Equal evenings: the earlier one counts, the later one is shown in brackets.
    assert series_rows(html)[2] == ["3", names(season)[2], "6", "(6)", "6"]
    assert "adds up the points of each player's best 1 evening." in text(html)


def test_series_ranking_in_dutch(client) -> None:
    season = rapid_season(best_evenings=1)
    page = text(client.get(club_reverse("competition:series", args=[season.slug])).content.decode())
    assert "Serieklassement" in page
    assert "Avondpunten per plaats: 10-8-6-5" in page
    assert "telt de punten van de beste 1 avond van elke speler op" in page


def test_evening_ranking(english) -> None:
    season = rapid_season()
    url = club_reverse("competition:evening", args=[season.slug, 2])
    page = text(english.get(url).content.decode())
    assert "Evening 2: rounds 4 to 6" in page
    p1, p2, p3, p4 = names(season)
    assert f"1= {p1} 9 1= {p2} 9 3 {p3} 6 4 {p4} 5" in page
    dutch = text(Client().get(url).content.decode())
    assert "Avond 2: ronde 4 tot en met 6" in dutch
    assert (
        english.get(club_reverse("competition:evening", args=[season.slug, 3])).status_code == 404
    )


def test_series_pages_are_reachable_and_only_for_a_series(english) -> None:
    season = rapid_season(evenings=1)
    standings = english.get(club_reverse("competition:standings", args=[season.slug])).content
    assert club_reverse("competition:series", args=[season.slug]).encode() in standings
    series = english.get(club_reverse("competition:series", args=[season.slug])).content
    assert club_reverse("competition:evening", args=[season.slug, 1]).encode() in series
    other = rapid_season(rounds=0, evenings=0)
    assert english.get(club_reverse("competition:series", args=[other.slug])).status_code == 404
    standings = english.get(club_reverse("competition:standings", args=[other.slug])).content
    assert club_reverse("competition:series", args=[other.slug]).encode() not in standings


def test_how_it_works_and_participant_page(english) -> None:
    season = rapid_season(best_evenings=1)
    how = text(
        english.get(club_reverse("competition:how_it_works", args=[season.slug])).content.decode()
    )
    assert "3 rounds per evening" in how and "10-8-6-5" in how
    third = season.participants.get(start_rank=3)
    url = club_reverse("competition:participant", args=[season.slug, third.pk])
    page = text(english.get(url).content.decode())
    # Evening 1: place 3, 6 points, counts; evening 2: the same, does not count (best 1).
    assert "Rapid series: his evenings" in page
    assert "1 3 6 yes 2 3 6 no" in page
    assert "His best 1 evening counts. Series total 6: place 3." in page


def _queries(client, url: str) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_query_count_does_not_grow_with_the_series(english) -> None:
    small = rapid_season(players=4, evenings=1)
    large = rapid_season(players=8, evenings=3)
    for name, args in (("series", []), ("evening", [1])):
        counts = {
            _queries(english, club_reverse(f"competition:{name}", args=[s.slug, *args]))
            for s in (small, large)
        }
        assert len(counts) == 1, (name, counts)


def test_td_next_round_from_the_results_page(client, td_user) -> None:
    season = rapid_season(evenings=0)
    from competition.services import evening
    from competition.services.rounds import round_create

    (rnd,) = round_create(seasons=[season])
    evening.pairing_propose(round=rnd, user=td_user)
    evening.round_publish(round=rnd, user=td_user)
    td_user.groups.add(td_group(season.club))
    client.force_login(td_user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    results = club_reverse("competition:td_results", args=[season.slug, 1])
    page = client.get(results).content.decode()
    assert "Close and pair round 2" in page
    next_url = club_reverse("competition:td_rapid_next", args=[season.slug, 1])
    # Results are missing: refused, nothing changes.
    response = client.post(next_url, follow=True)
    assert response.redirect_chain[-1][0] == results
    assert not Round.objects.filter(season=season, number=2).exists()
    for game in rnd.games.all():
        game.result = "1-0"
        game.save()
    response = client.post(next_url)
    assert response.url == club_reverse("competition:td_results", args=[season.slug, 2])
    assert Round.objects.get(season=season, number=2).status == Round.Status.PAIRED


@pytest.mark.parametrize(
    ("points", "valid"),
    [([10, 8, 6, 5], True), ([], True), ([10, -1], False), ([10, 7.5], False), ("10-8", False)],
)
def test_the_admin_takes_evening_points_as_whole_numbers(points, valid) -> None:
    from django import forms

    from competition.admin import SeasonAdminForm

    form = SeasonAdminForm()
    form.cleaned_data = {"evening_points": points}
    if valid:
        assert form.clean_evening_points() == points
    else:
        with pytest.raises(forms.ValidationError):
            form.clean_evening_points()


def _with_halves(season: Season) -> Season:
    """The evening points 10-7-6-5: P1 and P2 share place 1 of each evening, (10 + 7) / 2 = 8½
    each; P3 6, P4 5. Series: P1 and P2 17, P3 12, P4 10."""
    Season.objects.filter(pk=season.pk).update(evening_points=[10, 7, 6, 5])
    cache.clear()
    return Season.objects.get(pk=season.pk)


def test_a_shared_place_writes_the_series_points_in_one_style(english) -> None:
    season = _with_halves(rapid_season())
    html = english.get(club_reverse("competition:series", args=[season.slug])).content.decode()
    p1, p2, p3, p4 = names(season)
    # one style for the evenings' points (8.5 beside 6.0, not 6); the totals are whole
    assert series_rows(html) == [
        ["1", p1, "8.5", "8.5", "17"],
        ["1", p2, "8.5", "8.5", "17"],
        ["3", p3, "6.0", "6.0", "12"],
        ["4", p4, "5.0", "5.0", "10"],
    ]


def test_a_shared_place_writes_the_evenings_points_in_one_style(english) -> None:
    season = _with_halves(rapid_season())
    p1, p2, p3, p4 = names(season)
    evening = club_reverse("competition:evening", args=[season.slug, 1])
    assert f"1= {p1} 8.5 1= {p2} 8.5 3 {p3} 6.0 4 {p4} 5.0" in text(
        english.get(evening).content.decode()
    )
    dutch = text(Client().get(evening).content.decode())
    assert f"1= {p1} 8,5 1= {p2} 8,5 3 {p3} 6,0 4 {p4} 5,0" in dutch


def test_a_participants_evenings_in_one_style(english) -> None:
    season = _with_halves(rapid_season(best_evenings=1))
    first = season.participants.get(start_rank=1)
    url = club_reverse("competition:participant", args=[season.slug, first.pk])
    assert "1 1 8.5 yes 2 1 8.5 no" in text(english.get(url).content.decode())
    third = season.participants.get(start_rank=3)
    url = club_reverse("competition:participant", args=[season.slug, third.pk])
    assert "1 3 6 yes 2 3 6 no" in text(english.get(url).content.decode())  # his own column


def test_whole_evening_points_stay_whole(english) -> None:
    season = rapid_season()
    evening = club_reverse("competition:evening", args=[season.slug, 1])
    p1, p2, p3, p4 = names(season)
    assert f"1= {p1} 9 1= {p2} 9 3 {p3} 6 4 {p4} 5" in text(english.get(evening).content.decode())
