"""A player leaves after the pairing was published, before his game: his opponent is paired
again on the same board (a waiting late-comer, else the bye's player, else the bye), or wins by
forfeit, as the season's rule says; every other board stays exactly as it was."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import translation

from competition.models import Game, Participant, Round, RoundEntry, Season
from competition.permissions import td_group
from competition.services import evening
from competition.services.errors import ServiceError
from competition.services.leaving import player_leaves
from competition.services.rounds import result_record, round_complete, round_create
from tests.addresses import club_reverse
from tests.factories import ParticipantFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_messages():
    with translation.override("en"):
        yield


def published(
    td_user: User, players: int, **season_fields: object
) -> tuple[Round, list[Participant]]:
    """A published first round of ``players`` players; board 1 has a result."""
    season = SeasonFactory(system="points", bye_points=Decimal("1"), **season_fields)
    people = [ParticipantFactory(season=season, start_rank=i) for i in range(1, players + 1)]
    (rnd,) = round_create(seasons=[season], date=datetime.date(2026, 9, 10))
    evening.pairing_propose(round=rnd, user=td_user)
    evening.round_publish(round=rnd, user=td_user)
    board_1 = Game.objects.get(round=rnd, board=1)
    result_record(game_id=board_1.pk, result="1-0", expected_version=1, user=td_user)
    return rnd, people


def boards(rnd: Round) -> dict[int, tuple[object, ...]]:
    return {
        board: rest
        for board, *rest in Game.objects.filter(round=rnd).values_list(
            "board", "white_id", "black_id", "result", "version", "updated_at"
        )
    }


def bye_of(rnd: Round) -> int | None:
    entry = RoundEntry.objects.filter(round=rnd, kind=RoundEntry.Kind.BYE).first()
    return entry.participant_id if entry else None


def entry_of(rnd: Round, pid: int) -> RoundEntry | None:
    return RoundEntry.objects.filter(round=rnd, participant_id=pid).first()


def test_the_opponent_plays_the_bye_player_on_the_same_board(td_user) -> None:
    rnd, _people = published(td_user, 7)  # boards 1-3 and a bye
    before, had_bye = boards(rnd), bye_of(rnd)
    white, black = before[2][0], before[2][1]
    departure = player_leaves(round=rnd, participant=black, user=td_user)
    after = boards(rnd)
    assert {1: after[1], 3: after[3]} == {1: before[1], 3: before[3]}  # untouched
    assert after[2][:3] == [white, had_bye, Game.Result.NOT_PLAYED]  # white keeps his colour
    assert bye_of(rnd) is None
    left = entry_of(rnd, black)
    assert left is not None and left.kind == RoundEntry.Kind.ABSENT_NOTICE
    assert left.left_board == 2
    assert (departure.board, departure.opponent_id, departure.new_opponent_id) == (
        2,
        white,
        had_bye,
    )
    assert "now plays" in departure.said and "board 2" in departure.said


def test_a_waiting_player_comes_before_the_bye_player(td_user) -> None:
    rnd, _people = published(td_user, 5)  # boards 1-2 and a bye
    had_bye = bye_of(rnd)
    white, black = boards(rnd)[2][0], boards(rnd)[2][1]
    waiting = ParticipantFactory(season=rnd.season, start_rank=9)  # came, not paired yet
    departure = player_leaves(round=rnd, participant=white, user=td_user)
    assert boards(rnd)[2][:2] == [waiting.pk, black]  # the waiting one takes white's seat
    assert bye_of(rnd) == had_bye  # the bye stays
    assert departure.new_opponent_id == waiting.pk


def test_with_nobody_free_the_opponent_gets_the_bye(td_user) -> None:
    rnd, _people = published(td_user, 6)  # boards 1-3, no bye
    before = boards(rnd)
    white, black = before[3][0], before[3][1]
    departure = player_leaves(round=rnd, participant=white, user=td_user)
    after = boards(rnd)
    assert set(after) == {1, 2}  # board 3 is gone; 1 and 2 untouched
    assert after == {1: before[1], 2: before[2]}
    assert bye_of(rnd) == black
    assert entry_of(rnd, black).points == Decimal("1")  # the season's bye points
    assert departure.opponent_has_bye and "gets the bye" in departure.said
    # the TD's pairing page numbers the boards as they stand: 1 and 2
    from competition.selectors.pairing_page import pairing_page

    page = pairing_page(round=rnd)
    assert [row.number for row in page.boards] == [1, 2]
    assert page.departures == [(entry_of(rnd, white).participant.member.name, 3)]


def test_the_forfeit_rule_gives_the_opponent_the_board(td_user) -> None:
    rnd, _people = published(td_user, 6, player_leaves=Season.PlayerLeaves.FORFEIT)
    before = boards(rnd)
    white, black = before[2][0], before[2][1]
    departure = player_leaves(round=rnd, participant=black, user=td_user)
    after = boards(rnd)
    assert after[2][:4] == [white, black, Game.Result.WHITE_WINS_FORFEIT, 2]
    assert {1: after[1], 3: after[3]} == {1: before[1], 3: before[3]}
    assert entry_of(rnd, black) is None  # the forfeit is his record of the round
    assert departure.forfeit and "wins board 2 by forfeit" in departure.said


def test_a_round_robin_always_forfeits(td_user) -> None:
    season = SeasonFactory(system="points", kind=Season.Kind.ROUND_ROBIN)
    people = [ParticipantFactory(season=season, start_rank=i) for i in range(1, 5)]
    (rnd,) = round_create(seasons=[season], date=datetime.date(2026, 9, 10))
    evening.pairing_propose(round=rnd, user=td_user)
    evening.round_publish(round=rnd, user=td_user)
    game = Game.objects.get(round=rnd, board=1)
    player_leaves(round=rnd, participant=game.white_id, user=td_user)
    game.refresh_from_db()
    assert game.result == Game.Result.BLACK_WINS_FORFEIT
    assert len(people) == 4


def test_the_bye_player_leaves_and_loses_the_bye(td_user) -> None:
    rnd, _people = published(td_user, 5)
    before, had_bye = boards(rnd), bye_of(rnd)
    departure = player_leaves(round=rnd, participant=had_bye, user=td_user)
    assert boards(rnd) == before
    assert entry_of(rnd, had_bye).kind == RoundEntry.Kind.ABSENT_NOTICE
    assert departure.board is None and "bye is taken back" in departure.said


@pytest.mark.parametrize("case", ["played", "draft", "closed", "stranger", "absent"])
def test_refusals_change_nothing(td_user, case: str) -> None:
    rnd, _people = published(td_user, 6)
    board_1 = Game.objects.get(round=rnd, board=1)
    who = board_1.white_id
    if case == "draft":
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PLANNED)
        who = Game.objects.get(round=rnd, board=2).white_id
    elif case == "closed":
        for game in Game.objects.filter(round=rnd, result=Game.Result.NOT_PLAYED):
            result_record(game_id=game.pk, result="1/2", expected_version=1, user=td_user)
        round_complete(round=rnd, user=td_user)
        who = Game.objects.get(round=rnd, board=2).white_id
    elif case == "stranger":
        who = ParticipantFactory().pk  # another season's
    elif case == "absent":
        absent = ParticipantFactory(season=rnd.season, start_rank=20)
        RoundEntry.objects.create(round=rnd, participant=absent, kind=RoundEntry.Kind.ABSENT_NOTICE)
        who = absent.pk
    before = (boards(rnd), list(RoundEntry.objects.filter(round=rnd).values()))
    expected = {
        "played": "already has a result",
        "draft": "not published yet",
        "closed": "is closed",
        "stranger": "does not take part",
        "absent": "has no board",
    }[case]
    with pytest.raises(ServiceError, match=expected):
        player_leaves(round=rnd, participant=who, user=td_user)
    assert (boards(rnd), list(RoundEntry.objects.filter(round=rnd).values())) == before


def test_the_pairing_page_offers_the_tap_and_says_what_happened(client: Client) -> None:
    td = User.objects.create_user("td-leaves", password="td-pass-12345")
    td.groups.add(td_group())
    rnd, _people = published(td, 7)
    td.groups.add(td_group(rnd.season.club))
    client.force_login(td)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = club_reverse("competition:td_pairing", args=[rnd.season.slug, rnd.number])
    page = client.get(url).content.decode()
    assert 'id="leaves-form"' in page
    game = Game.objects.get(round=rnd, board=3)
    leave_url = club_reverse("competition:td_pairing_leaves", args=[rnd.season.slug, rnd.number])
    response = client.post(leave_url, {"player": game.black_id})
    assert response.status_code == 302 and response["Location"].endswith(url)
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("now plays" in message for message in said)
    page = client.get(url).content.decode()
    assert "left board 3 after the pairing was published" in page
    # a player who already played may simply go: not offered, and refused when posted
    played = Game.objects.get(round=rnd, board=1)
    assert f'value="{played.white_id}"' not in page.split('id="leaves-form"', 1)[1]
    response = client.post(leave_url, {"player": played.white_id})
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("already has a result" in message for message in said)
    assert Game.objects.get(pk=played.pk).result == "1-0"
