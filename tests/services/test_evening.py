"""The club evening's services: attendance, pairing and its overrides, publishing, closing.

Expected pairings are worked out by hand from DOMAIN.md's rules (see docs/sources.md): present
players sorted by the standing (before round 1: start order), paired 1-2, 3-4; the bye to the
lowest-ranked with the fewest byes; colours: fewer whites, else reversed previous game, else the
lower-ranked white.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import translation

from competition.models import Game, Round, RoundEntry, Season, StandingsSnapshot
from competition.permissions import td_group
from competition.selectors import evening as evening_selectors
from competition.selectors import rounds as rounds_selectors
from competition.services import evening
from competition.services.errors import ServiceError
from competition.services.rounds import result_record, round_complete, round_create
from tests.factories import ParticipantFactory, RoundFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_messages():
    """The messages are asserted in the source language; the app's default is Dutch."""
    with translation.override("en"):
        yield


@pytest.fixture
def five(td_user):
    """A ladder season with five players P1..P5 (start order = standing before round 1)."""
    season = SeasonFactory(system="points", bye_points=Decimal("1"))
    players = [ParticipantFactory(season=season, start_rank=i) for i in range(1, 6)]
    rnd = round_create(seasons=[season], date=datetime.date(2026, 9, 10))[0]
    return rnd, players, td_user


def pairing(rnd: Round) -> tuple[list[tuple[int, int]], int | None]:
    games = Game.objects.filter(round=rnd).order_by("board")
    bye = RoundEntry.objects.filter(round=rnd, kind=RoundEntry.Kind.BYE).first()
    return [(g.white_id, g.black_id) for g in games], bye.participant_id if bye else None


def ids(players, *numbers: int) -> tuple[int, ...]:
    return tuple(players[n - 1].id for n in numbers)


def test_first_round_proposal_by_start_order(five) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    boards, bye = pairing(rnd)
    # 1-2 and 3-4; nobody has white yet and they never met: the lower-ranked has white (2, 4);
    # the odd one out, P5, is the lowest ranked with the fewest (0) byes.
    assert boards == [ids(p, 2, 1), ids(p, 4, 3)]
    assert bye == p[4].id
    assert RoundEntry.objects.get(round=rnd, kind="bye").points == Decimal("1")


def test_absence_changes_who_is_paired(five) -> None:
    rnd, p, user = five
    outcome = evening.attendance_record(
        round=rnd, marks={p[0].id: RoundEntry.Kind.ABSENT_NOTICE}, user=user
    )
    assert outcome.changed == 1
    evening.pairing_propose(round=rnd, user=user)
    boards, bye = pairing(rnd)
    # P2..P5 present: 2-3 and 4-5, lower-ranked white; an even number, so no bye.
    assert boards == [ids(p, 3, 2), ids(p, 5, 4)]
    assert bye is None


def test_attendance_change_discards_the_draft(five) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    outcome = evening.attendance_record(
        round=rnd, marks={p[1].id: RoundEntry.Kind.CLUB_DUTY}, user=user
    )
    assert outcome.draft_discarded
    assert not Game.objects.filter(round=rnd).exists()
    # Marking the same again changes nothing and keeps a new draft.
    evening.pairing_propose(round=rnd, user=user)
    again = evening.attendance_record(
        round=rnd, marks={p[1].id: RoundEntry.Kind.CLUB_DUTY, p[0].id: "present"}, user=user
    )
    assert (again.changed, again.draft_discarded) == (0, False)
    assert Game.objects.filter(round=rnd).count() == 2


def test_attendance_then_pair_is_all_or_nothing(five) -> None:
    rnd, p, user = five
    # Four of five absent leaves one player: the pairing is refused, so no absence is saved.
    absent = {player.id: RoundEntry.Kind.ABSENT_NOTICE for player in p[1:]}
    with pytest.raises(ServiceError, match="At least two players must be present"):
        evening.attendance_record(round=rnd, marks=absent, user=user, then_pair=True)
    assert not RoundEntry.objects.filter(round=rnd).exists()
    # P5 absent: P1..P4 pair 1-2, 3-4 with the lower-ranked white, and nobody has the bye.
    evening.attendance_record(
        round=rnd, marks={p[4].id: RoundEntry.Kind.CLUB_DUTY}, user=user, then_pair=True
    )
    assert pairing(rnd) == ([ids(p, 2, 1), ids(p, 4, 3)], None)


def test_swap_between_boards_keeps_colours_of_the_places(five) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    evening.pairing_swap(round=rnd, first=p[0], second=p[2], user=user)
    boards, bye = pairing(rnd)
    # P1 (black, board 1) and P3 (black, board 2) exchange places.
    assert boards == [ids(p, 2, 3), ids(p, 4, 1)]
    assert bye == p[4].id
    assert all(evening_selectors.draft_of(round=rnd).boards[i].fixed for i in (0, 1))


@pytest.mark.parametrize(
    ("first", "second", "expected_boards", "expected_bye"),
    [
        (5, 2, [(5, 1), (4, 3)], 2),  # with the bye player: P5 takes P2's place, P2 the bye
        (2, 1, [(1, 2), (4, 3)], 5),  # two players of one board: colours reversed
    ],
)
def test_swap_special_cases(five, first, second, expected_boards, expected_bye) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    evening.pairing_swap(round=rnd, first=p[first - 1], second=p[second - 1], user=user)
    boards, bye = pairing(rnd)
    assert boards == [ids(p, *pair) for pair in expected_boards]
    assert bye == p[expected_bye - 1].id


def test_fix_a_pairing_and_rerun_on_the_rest(five) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    evening.pairing_fix(round=rnd, white=p[0], black=p[3], user=user)
    boards, bye = pairing(rnd)
    # Fixed P1-P4; left P2, P3, P5: the bye to P5, then P2-P3 with the lower-ranked P3 white.
    assert boards == [ids(p, 1, 4), ids(p, 3, 2)]
    assert bye == p[4].id
    # A re-run keeps the fixed board; starting over drops it.
    evening.pairing_propose(round=rnd, user=user, keep_fixed=True)
    assert pairing(rnd)[0] == [ids(p, 1, 4), ids(p, 3, 2)]
    evening.pairing_propose(round=rnd, user=user, keep_fixed=False)
    assert pairing(rnd)[0] == [ids(p, 2, 1), ids(p, 4, 3)]


def test_move_the_bye(five) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    evening.pairing_move_bye(round=rnd, to=p[0], user=user)
    boards, bye = pairing(rnd)
    # P1 sits out; P2..P5 pair 2-3, 4-5 with the lower-ranked white.
    assert boards == [ids(p, 3, 2), ids(p, 5, 4)]
    assert bye == p[0].id
    assert evening_selectors.draft_of(round=rnd).bye_fixed


def test_fixed_marks_live_on_the_rows_and_survive_a_rerun(five) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    evening.pairing_fix(round=rnd, white=p[0], black=p[3], user=user)
    evening.pairing_move_bye(round=rnd, to=p[1], user=user)
    evening.pairing_propose(round=rnd, user=user, keep_fixed=True)
    # Fixed P1-P4 and the bye to P2; left P3 and P5: P3-P5 with the lower-ranked P5 white.
    marks = list(Game.objects.filter(round=rnd).values_list("white_id", "black_id", "fixed_by_td"))
    assert marks == [(*ids(p, 1, 4), True), (*ids(p, 5, 3), False)]
    bye = RoundEntry.objects.get(round=rnd, kind=RoundEntry.Kind.BYE)
    assert (bye.participant_id, bye.fixed_by_td) == (p[1].id, True)
    # The history keeps reasons for people: the draft's own writes leave none.
    reasons = {*Game.history.values_list("history_change_reason", flat=True)}
    reasons |= {*RoundEntry.history.values_list("history_change_reason", flat=True)}
    assert reasons == {None}


def test_latecomer_is_added_and_paired(five) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    late = evening.latecomer_add(round=rnd, name="Laat Komer", user=user)
    assert late.joined_round == rnd.number
    boards, bye = pairing(rnd)
    # Six present: nobody has a standing, start order 1..6, the late-comer last.
    assert boards == [ids(p, 2, 1), ids(p, 4, 3), (late.id, p[4].id)]
    assert bye is None


def test_publish_results_and_close(five) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    with pytest.raises(ServiceError, match="Publish"):
        result_record(
            game_id=Game.objects.filter(round=rnd).first().id,
            result="1-0",
            expected_version=1,
            user=user,
        )
    evening.round_publish(round=rnd, user=user)
    with pytest.raises(ServiceError, match="Boards without a result"):
        round_complete(round=rnd, user=user)
    for game, result in zip(
        Game.objects.filter(round=rnd).order_by("board"), ["1-0", "+-"], strict=True
    ):
        result_record(game_id=game.id, result=result, expected_version=game.version, user=user)
    round_complete(round=rnd, user=user)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    rows = {r["participant_id"]: r for r in StandingsSnapshot.objects.get(round_number=1).rows}
    # Points system: P2 beat P1 (1), P4 won by forfeit against P3 (1), P5 had a 1-point bye.
    assert [rows[pid]["game_points"] for pid in ids(p, 1, 2, 3, 4, 5)] == ["0", "1", "0", "1", "1"]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda r, p, u: evening.pairing_fix(round=r, white=p[0], black=p[0], user=u), "himself"),
        (lambda r, p, u: evening.pairing_swap(round=r, first=p[1], second=p[1], user=u), "two"),
        (lambda r, p, u: evening.pairing_fix(round=r, white=p[0], black=p[4], user=u), "present"),
        (lambda r, p, u: evening.pairing_swap(round=r, first=p[0], second=p[4], user=u), "absent"),
        (lambda r, p, u: evening.pairing_move_bye(round=r, to=p[4], user=u), "present"),
        (
            lambda r, p, u: result_record(game_id=987654, result="1-0", expected_version=1, user=u),
            "no longer exists",
        ),
    ],
)
def test_impossible_actions_change_nothing(five, action, message) -> None:
    rnd, p, user = five
    evening.attendance_record(round=rnd, marks={p[4].id: RoundEntry.Kind.ABSENT_NOTICE}, user=user)
    evening.pairing_propose(round=rnd, user=user)
    before = pairing(rnd)
    with pytest.raises(ServiceError, match=message):
        action(rnd, p, user)
    assert pairing(rnd) == before


def test_published_round_refuses_attendance_and_pairing_changes(five) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    evening.round_publish(round=rnd, user=user)
    with pytest.raises(ServiceError, match="published"):
        evening.attendance_record(round=rnd, marks={p[0].id: "club_duty"}, user=user)
    with pytest.raises(ServiceError, match="published"):
        evening.pairing_swap(round=rnd, first=p[0], second=p[1], user=user)
    evening.round_unpublish(round=rnd, user=user)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PLANNED


def test_evening_start_opens_one_round_per_season_and_reuses_open_ones(td_user) -> None:
    first, second = SeasonFactory(), SeasonFactory()
    rounds = round_create(seasons=[first, second], date=datetime.date(2026, 9, 17))
    assert [(r.season_id, r.number) for r in rounds] == [(first.id, 1), (second.id, 1)]
    again = round_create(seasons=[first], date=datetime.date(2026, 9, 17))
    assert again[0].pk == rounds[0].pk


def test_second_round_pairs_by_standing_and_avoids_the_rematch(five) -> None:
    rnd, p, user = five
    evening.pairing_propose(round=rnd, user=user)
    evening.round_publish(round=rnd, user=user)
    for game in Game.objects.filter(round=rnd):
        result_record(game_id=game.id, result="1-0", expected_version=1, user=user)
    round_complete(round=rnd, user=user)
    # After round 1 (points): P2 1, P4 1, P5 1 (bye), P1 0, P3 0. Ranks come from the engine's
    # standings; whatever their order, nobody meets his round-1 opponent again and P5, who had
    # the bye, does not get it twice in a row.
    rnd2 = round_create(seasons=[rnd.season], date=datetime.date(2026, 9, 17))[0]
    evening.pairing_propose(round=rnd2, user=user)
    boards, bye = pairing(rnd2)
    met = {frozenset(ids(p, 2, 1)), frozenset(ids(p, 4, 3))}
    assert not any(frozenset(b) in met for b in boards)
    assert bye != p[4].id


def test_round_robin_uses_the_berger_table(td_user) -> None:
    season = SeasonFactory(kind="round_robin", system="points")
    p = [ParticipantFactory(season=season, start_rank=i) for i in range(1, 5)]
    rnd = round_create(seasons=[season], date=datetime.date(2026, 9, 10))[0]
    assert evening.pairing_propose(round=rnd, user=td_user) is None
    # FIDE C.05 Annex 1, 4 players, round 1: 4 meets i with 2i ≡ 2 (mod 3), i = 1, and has
    # black in an odd round: 1-4; then 2 + 3 ≡ 2 (mod 3), (3 - 2) mod 3 = 1 is odd: 2-3.
    assert pairing(rnd) == ([ids(p, 1, 4), ids(p, 2, 3)], None)
    with pytest.raises(ServiceError, match="Berger"):
        evening.attendance_record(round=rnd, marks={p[0].id: "absent_notice"}, user=td_user)


# --- the round's current step and the next round's number (selectors.rounds) ----------------


@pytest.mark.parametrize(
    ("kind", "status", "has_games", "step"),
    [
        # A planned ladder round starts with attendance; once a draft exists, with the pairing.
        ("ladder", Round.Status.PLANNED, False, rounds_selectors.Step.ATTENDANCE),
        ("ladder", Round.Status.PLANNED, True, rounds_selectors.Step.PAIRING),
        # A round robin takes no attendance: the Berger table pairs everyone.
        ("round_robin", Round.Status.PLANNED, False, rounds_selectors.Step.PAIRING),
        ("round_robin", Round.Status.PLANNED, True, rounds_selectors.Step.PAIRING),
        # Published: results; completed: the closed round, whatever the kind.
        ("ladder", Round.Status.PAIRED, True, rounds_selectors.Step.RESULTS),
        ("round_robin", Round.Status.PAIRED, True, rounds_selectors.Step.RESULTS),
        ("ladder", Round.Status.COMPLETED, True, rounds_selectors.Step.CLOSED),
        ("round_robin", Round.Status.COMPLETED, False, rounds_selectors.Step.CLOSED),
    ],
)
def test_round_step(kind: str, status: str, has_games: bool, step: str) -> None:
    rnd = Round(season=Season(kind=kind), number=1, status=status)
    assert rounds_selectors.round_step(round=rnd, has_games=has_games) == step


def test_current_step_looks_up_the_draft(five) -> None:
    rnd, _players, user = five
    assert rounds_selectors.current_step(round=rnd) == rounds_selectors.Step.ATTENDANCE
    evening.pairing_propose(round=rnd, user=user)
    assert rounds_selectors.current_step(round=rnd) == rounds_selectors.Step.PAIRING


def test_desk_shows_a_fresh_round_robin_round_at_the_pairing(td_user) -> None:
    season = SeasonFactory(kind="round_robin", system="points")
    td_group(season.club).user_set.add(td_user)
    for i in range(1, 5):
        ParticipantFactory(season=season, start_rank=i)
    round_create(seasons=[season], date=datetime.date(2026, 9, 10))
    (desk,) = [d for d in evening_selectors.td_desk(user=td_user) if d.season == season]
    assert desk.step == rounds_selectors.Step.PAIRING


@pytest.mark.parametrize(
    ("existing", "expected"),
    [
        ((), 1),  # the first round
        ((1, 2, 3), 4),
        ((1, 3), 4),  # one more than the highest, not than the count (2 + 1 = 3)
    ],
)
def test_new_round_number(existing: tuple[int, ...], expected: int) -> None:
    season = SeasonFactory()
    for number in existing:
        RoundFactory(season=season, number=number, status=Round.Status.COMPLETED)
    assert rounds_selectors.new_round_number(season=season) == expected
    # round_create gives the round that number (no round is open).
    assert round_create(seasons=[season])[0].number == expected
