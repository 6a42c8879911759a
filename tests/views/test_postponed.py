"""Games on another date on the pages: the TD marks a board as played later on the results
page, closes the round with it pending, enters its result a week later; the public standings
and round pages show the pending game."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from competition.models import Club, Game, Round, StandingsSnapshot
from competition.permissions import td_group
from competition.services import evening
from competition.services.postponed import game_play_later
from competition.services.rounds import game_create, round_complete, round_create
from competition.services.standings import standings_recompute
from tests.addresses import club_reverse
from tests.factories import MemberFactory, ParticipantFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_one(td_user):
    """Points season; round 1 published: board 1 Anna-Bert 1-0, board 2 Cor-Dirk open."""
    season = SeasonFactory(system="points", slug="najaar", pending_days=14)
    td_user.groups.add(td_group(season.club))
    players = [
        ParticipantFactory(season=season, member=MemberFactory(club=season.club, name=name))
        for name in ("Anna Aap", "Bert Beer", "Cor Cavia", "Dirk Das")
    ]
    (r1,) = round_create(seasons=[season], date=datetime.date(2026, 12, 3))
    game_create(round=r1, board=1, white=players[0], black=players[1], result="1-0")
    g2 = game_create(round=r1, board=2, white=players[2], black=players[3])
    evening.round_publish(round=r1, user=td_user)
    return season, players, r1, g2


@pytest.fixture
def td(client: Client, td_user: User) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(td_user)
    return client


def later_url(season, rnd, game) -> str:
    return club_reverse("competition:td_game_play_later", args=[season.slug, rnd.number, game.id])


def results_url(season, rnd) -> str:
    return club_reverse("competition:td_results", args=[season.slug, rnd.number])


def test_the_results_page_offers_a_date_for_an_open_board(td, round_one):
    season, _players, r1, g2 = round_one
    html = td.get(results_url(season, r1)).content.decode()
    assert html.count("data-play-later") == 1  # board 2 only: board 1 has a result
    assert f'action="{later_url(season, r1, g2)}"' in html
    assert 'type="date" name="played_on"' in html


def test_the_td_marks_a_board_closes_the_round_and_enters_the_result_later(td, round_one):
    season, (anna, bert, cor, dirk), r1, g2 = round_one
    response = td.post(later_url(season, r1, g2), {"played_on": "2026-12-10"})
    assert response.status_code == 302
    assert response["Location"].endswith("#board-2")
    g2.refresh_from_db()
    assert g2.played_on == datetime.date(2026, 12, 10)
    html = td.get(results_url(season, r1)).content.decode()
    assert "Played on 10 December 2026" in html
    assert "Played tonight after all" in html
    close = club_reverse("competition:td_round_close", args=[season.slug, r1.number])
    td.post(close)
    r1.refresh_from_db()
    assert r1.is_completed
    rows = StandingsSnapshot.objects.get(season=season, round_number=1).rows
    assert {r["participant_id"]: r["game_points"] for r in rows} == {
        anna.id: "1",
        bert.id: "0",
        cor.id: "0",
        dirk.id: "0",
    }
    # The closed round's page takes the pending result without a reason.
    html = td.get(results_url(season, r1)).content.decode()
    save = club_reverse("competition:td_result_save", args=[season.slug, r1.number, g2.id])
    assert f'action="{save}"' in html
    td.post(save, {"result": "1/2", "version": "2"})
    g2.refresh_from_db()
    assert (g2.result, g2.version) == ("1/2", 3)
    rows = StandingsSnapshot.objects.get(season=season, round_number=1).rows
    assert {r["participant_id"]: r["game_points"] for r in rows} == {
        anna.id: "1",
        bert.id: "0",
        cor.id: "0.5",
        dirk.id: "0.5",
    }
    html = td.get(results_url(season, r1)).content.decode()
    assert "data-play-later" not in html


def test_a_bad_date_is_refused_and_changes_nothing(td, round_one):
    season, _players, r1, g2 = round_one
    for data, message in (
        ({"played_on": "morgen"}, "Give the date the game is played on."),
        ({}, "Give the date the game is played on."),
        ({"played_on": "2026-12-03"}, "Round 1 is played on that date: choose another date."),
    ):
        response = td.post(later_url(season, r1, g2), data, follow=True)
        assert response.status_code == 200
        assert message in response.content.decode()
    g2.refresh_from_db()
    assert (g2.played_on, g2.version) == (None, 1)


def test_a_td_of_another_club_cannot_mark_a_board(client, round_one):
    season, _players, r1, g2 = round_one
    other = Club.objects.create(name="Andere club", slug="andere")
    stranger = User.objects.create_user("other-td", password="x-pass-12345")
    stranger.groups.add(td_group(other))
    client.force_login(stranger)
    response = client.post(later_url(season, r1, g2), {"played_on": "2026-12-10"})
    assert response.status_code in (403, 404)
    g2.refresh_from_db()
    assert g2.played_on is None


def test_public_pages_show_the_pending_game(client, round_one, td_user):
    season, _players, r1, g2 = round_one
    game_play_later(game_id=g2.id, played_on=datetime.date(2026, 12, 12), user=td_user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    round_page = club_reverse("competition:round", args=[season.slug, 1])
    html = client.get(round_page).content.decode()
    assert "Played later: Cor Cavia – Dirk Das, round 1, played on 12 December" in html
    round_complete(round=Round.objects.get(pk=r1.pk), user=td_user)
    standings = club_reverse("competition:standings", args=[season.slug])
    html = client.get(standings).content.decode()
    assert "Played later: Cor Cavia – Dirk Das, round 1, played on 12 December" in html
    Game.objects.filter(pk=g2.pk).update(result="0-1")
    standings_recompute(season=season)
    html = client.get(standings).content.decode()
    assert "Played later" not in html


def rules_url(season) -> str:
    return club_reverse("competition:td_pairing_rules", kwargs={"season_slug": season.slug})


def test_the_pairing_rules_page_sets_the_deadline(td, round_one):
    season = round_one[0]
    data = {"action": "settings", "rematch_window": "3", "player_leaves": "repair"}
    html = td.get(rules_url(season)).content.decode()
    assert 'name="pending_days"' in html and 'value="14"' in html
    td.post(rules_url(season), {**data, "pending_days": "21"})
    season.refresh_from_db()
    assert season.pending_days == 21
    td.post(rules_url(season), {**data, "pending_days": ""})
    season.refresh_from_db()
    assert season.pending_days is None
    response = td.post(rules_url(season), {**data, "pending_days": "-2"})
    assert response.status_code == 200  # the form again, with its error
    season.refresh_from_db()
    assert season.pending_days is None
