"""Closing a round writes only what changed: the standings snapshots of the earlier rounds keep
their rows (their versions and fingerprint follow), and what is stored afterwards is exactly
what a rebuild of every round from scratch stores. The same after a correction of an earlier
round, a rules change, a withdrawal and a game played on another date; and the number of
queries a close takes does not grow with the rounds played."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from competition.models import (
    Game,
    Participant,
    ParticipantExplanation,
    RoundEntry,
    Season,
    StandingsSnapshot,
)
from competition.models.seasons import RuleChanges
from competition.permissions import td_group
from competition.services import evening
from competition.services.evening import entry_correct
from competition.services.participants import participant_withdraw
from competition.services.postponed import game_play_later
from competition.services.rounds import game_create, result_record, round_complete, round_create
from competition.services.rules import rules_save, rules_validate
from competition.services.standings import standings_recompute, standings_verify
from tests.factories import ParticipantFactory, SeasonFactory

pytestmark = pytest.mark.django_db

FIRST_EVENING = datetime.date(2026, 9, 10)
RESULTS = ("1-0", "1/2", "0-1", "1-0", "0-1", "1/2", "0-1")
SYSTEMS = {
    "internal-sb": {"tiebreaks": ["BH", "WIN"]},
    "keizer": {"tiebreaks": []},
    "van-den-brink": {"tiebreaks": ["BH"]},
    "points": {"tiebreaks": ["WIN"]},
}


@pytest.fixture(autouse=True)
def _english_messages():
    with translation.override("en"):
        yield


def new_season(system: str, td_user, players: int = 8) -> tuple[Season, list[Participant]]:
    season = SeasonFactory(system=system, pending_days=14, **SYSTEMS[system])
    td_user.groups.add(td_group(season.club))
    people = [ParticipantFactory(season=season, start_rank=i + 1) for i in range(players)]
    return season, people


def publish_round(season: Season, people: list[Participant], td_user, *, results: bool = True):
    """The next round, everybody but one absent player paired in a rotating order, published;
    every board with its result (``results``) or none."""
    number = season.rounds.count() + 1
    date = FIRST_EVENING + datetime.timedelta(days=7 * (number - 1))
    (rnd,) = round_create(seasons=[season], date=date)
    shift = (number * 3) % len(people)
    order = [p for p in people[shift:] + people[:shift] if p.withdrawn_from_round is None]
    if len(order) % 2:
        absent = order.pop()
        evening.attendance_record(round=rnd, marks={absent.pk: "absent_notice"}, user=td_user)
    for board, i in enumerate(range(0, len(order) - 1, 2), start=1):
        result = RESULTS[(board * 5 + number) % len(RESULTS)] if results else ""
        game_create(round=rnd, board=board, white=order[i], black=order[i + 1], result=result)
    evening.round_publish(round=rnd, user=td_user)
    return rnd


def play_round(season: Season, people: list[Participant], td_user):
    rnd = publish_round(season, people, td_user)
    round_complete(round=rnd, user=td_user)
    return rnd


def stored(season: Season) -> dict[int, tuple]:
    return {
        s.round_number: (s.rows, s.data_version, s.rules_version, s.fingerprint)
        for s in StandingsSnapshot.objects.filter(season=season)
    }


def ids(season: Season) -> dict[int, int]:
    return dict(StandingsSnapshot.objects.filter(season=season).values_list("round_number", "pk"))


def assert_as_rebuilt(season: Season) -> None:
    """The stored snapshots are those a rebuild of every round from scratch writes (but for the
    data version the rebuild moves on by one), and standings_verify finds no difference."""
    season.refresh_from_db()
    kept = stored(season)
    assert kept, "no standings stored"
    assert {v[1] for v in kept.values()} == {season.data_version}
    assert standings_verify(season=season).difference is None
    standings_recompute(season=season)  # every round anew
    season.refresh_from_db()
    rebuilt = stored(season)
    assert sorted(rebuilt) == sorted(kept) == list(range(1, len(kept) + 1))
    for number, (rows, data_version, rules_version, fingerprint) in rebuilt.items():
        assert kept[number] == (rows, data_version - 1, rules_version, fingerprint), number


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_close_writes_the_new_round_and_keeps_the_earlier_ones(system, td_user) -> None:
    season, people = new_season(system, td_user)
    for _ in range(4):
        play_round(season, people, td_user)
    before = ids(season)
    play_round(season, people, td_user)
    after = ids(season)
    # rounds 1-3 kept (the same rows), round 4 (the latest until now) and 5 written anew
    assert {n: after[n] for n in (1, 2, 3)} == {n: before[n] for n in (1, 2, 3)}
    assert after[4] != before[4] and 5 in after
    assert_as_rebuilt(season)


def test_the_pages_stored_with_the_latest_snapshot_go_when_the_next_round_closes(
    td_user,
) -> None:
    """The worker stores the participants' pages beside the latest snapshot only; the close
    writes that snapshot anew, so its pages go with it (and the next page is computed)."""
    season, people = new_season("internal-sb", td_user)
    for _ in range(3):
        play_round(season, people, td_user)
    latest = StandingsSnapshot.objects.get(season=season, round_number=3)
    ParticipantExplanation.objects.create(
        snapshot=latest, participant=people[0], layout="x", payload="{}"
    )
    play_round(season, people, td_user)
    assert not ParticipantExplanation.objects.filter(snapshot__season=season).exists()
    assert_as_rebuilt(season)


def test_a_correction_of_an_earlier_round_rewrites_from_that_round(td_user) -> None:
    season, people = new_season("internal-sb", td_user)
    for _ in range(6):
        play_round(season, people, td_user)
    before = ids(season)
    game = Game.objects.get(round__season=season, round__number=4, board=1)
    new = "0-1" if game.result != "0-1" else "1-0"
    result_record(
        game_id=game.pk, result=new, expected_version=game.version, user=td_user, reason="typo"
    )
    after = ids(season)
    assert {n: after[n] for n in (1, 2)} == {n: before[n] for n in (1, 2)}
    assert all(after[n] != before[n] for n in (3, 4, 5, 6))
    assert_as_rebuilt(season)
    # a correction of round 1 rewrites every round
    game = Game.objects.get(round__season=season, round__number=1, board=2)
    result_record(
        game_id=game.pk, result="1/2" if game.result != "1/2" else "1-0",
        expected_version=game.version, user=td_user, reason="typo",
    )  # fmt: skip
    assert_as_rebuilt(season)


def test_a_correction_of_an_absence_rewrites_from_its_round(td_user) -> None:
    season, people = new_season("keizer", td_user, players=9)
    for _ in range(5):
        play_round(season, people, td_user)
    before = ids(season)
    entry = RoundEntry.objects.get(round__season=season, round__number=3)
    entry_correct(
        entry_id=entry.pk, kind=RoundEntry.Kind.ABSENT_NO_NOTICE, points=None,
        reason="he had not called", user=td_user, expected_version=entry.version,
    )  # fmt: skip
    after = ids(season)
    assert after[1] == before[1]
    assert all(after[n] != before[n] for n in (2, 3, 4, 5))
    assert_as_rebuilt(season)


@pytest.mark.parametrize("changes", [RuleChanges.NEXT_ROUND, RuleChanges.WHOLE_SEASON])
def test_a_rules_change_then_a_close(changes, td_user) -> None:
    season, people = new_season("points", td_user)
    for _ in range(3):
        play_round(season, people, td_user)
    football = rules_validate(
        system="points", parameters={"win": "3", "draw": "1"}, tiebreaks=["WIN"],
        unplayed_policy="unplayed-as-draw", min_games=0,
    )  # fmt: skip
    before = ids(season)
    season = rules_save(season=season, rules=football, rule_changes=changes)
    assert not set(ids(season).values()) & set(before.values())  # every round anew
    assert_as_rebuilt(season)
    for _ in range(2):
        play_round(season, people, td_user)
        assert_as_rebuilt(season)


def test_a_withdrawal_then_closes(td_user) -> None:
    season, people = new_season("keizer", td_user, players=9)
    for _ in range(3):
        play_round(season, people, td_user)
    participant_withdraw(participant=people[2], from_round=4, user=td_user)
    people[2].refresh_from_db()
    assert_as_rebuilt(season)
    for _ in range(2):
        play_round(season, people, td_user)
        assert_as_rebuilt(season)


def test_a_game_played_on_another_date(td_user) -> None:
    season, people = new_season("internal-sb", td_user)
    for _ in range(2):
        play_round(season, people, td_user)
    rnd = publish_round(season, people, td_user, results=False)
    games = list(Game.objects.filter(round=rnd).order_by("board"))
    game_play_later(game_id=games[0].pk, played_on=FIRST_EVENING, user=td_user)
    for game in games[1:]:
        result_record(game_id=game.pk, result="1-0", expected_version=game.version, user=td_user)
    round_complete(round=rnd, user=td_user)  # closed with board 1 pending
    assert_as_rebuilt(season)
    play_round(season, people, td_user)
    assert_as_rebuilt(season)
    pending = Game.objects.get(pk=games[0].pk)
    result_record(game_id=pending.pk, result="1/2", expected_version=pending.version, user=td_user)
    assert_as_rebuilt(season)


def test_a_snapshot_missing_before_the_round_rewrites_every_round(td_user) -> None:
    season, people = new_season("internal-sb", td_user)
    for _ in range(4):
        play_round(season, people, td_user)
    StandingsSnapshot.objects.filter(season=season, round_number=2).delete()
    play_round(season, people, td_user)
    assert_as_rebuilt(season)


@pytest.mark.parametrize("system", ["internal-sb", "keizer"])
def test_a_close_takes_as_many_queries_after_3_rounds_as_after_12(system, td_user) -> None:
    counts = []
    for rounds in (3, 12):
        season, people = new_season(system, td_user)
        for _ in range(rounds):
            play_round(season, people, td_user)
        rnd = publish_round(season, people, td_user)
        with CaptureQueriesContext(connection) as queries:
            round_complete(round=rnd, user=td_user)
        counts.append(len(queries.captured_queries))
        assert_as_rebuilt(season)
    assert counts[0] == counts[1], counts
