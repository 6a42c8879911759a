"""Reading a season once: row classes and opponents (``records.read_rows``), and its checks."""

from __future__ import annotations

from fractions import Fraction

import pytest

from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from competition.scoring.records import (
    ScoringInputError,
    participant_records,
    read_rows,
    records_by_participant,
)
from competition.scoring.tiebreaks.packed import _picker

F = Fraction
A, B, C, D = 1, 2, 3, 4


def two_rounds() -> SeasonInput:
    """A beats B and C has a bye; A draws C and B has a bye; D is never in a round.

    The two byes carry equal points in distinct Fraction objects (as a service builds them).
    """
    return SeasonInput(
        participants=tuple(Participant(pid, f"P{pid}", start_rank=pid) for pid in (A, B, C, D)),
        rounds=(
            Round(
                1,
                games=(Game(A, B, Result.WHITE_WINS),),
                entries=(Entry(C, EntryKind.BYE, Fraction(1)),),
            ),
            Round(
                2,
                games=(Game(C, A, Result.DRAW),),
                entries=(Entry(B, EntryKind.BYE, Fraction(1)),),
            ),
        ),
    )


def test_rows_are_the_rounds_with_their_opponents() -> None:
    rows = read_rows(two_rounds())
    assert rows.round_numbers == (1, 2)
    assert rows.rows[A] == [
        (F(1), B, "w", Result.WHITE_WINS, None),
        (F(1, 2), C, "b", Result.DRAW, None),
    ]
    assert rows.rows[B] == [
        (F(0), A, "b", Result.WHITE_WINS, None),
        (F(1), None, "", None, EntryKind.BYE),
    ]
    assert rows.rows[D] == [(F(0), None, "", None, EntryKind.NOT_PAIRED)] * 2
    assert rows.opponents == {A: [B, C], B: [A, None], C: [None, A], D: [None, None]}
    assert list(rows.rows) == [A, B, C, D]


def test_equal_rows_share_a_class_whatever_their_objects() -> None:
    rows = read_rows(two_rounds())
    # classes: not paired, A's win (white), B's loss (black), the bye, the draw as black and as
    # white: the two byes (distinct Fraction objects, equal points) are one class
    assert len(rows.class_rows) == 6
    assert rows.classes[B][1] == rows.classes[C][0]
    assert rows.classes[D] == [0, 0]
    assert rows.class_rows[rows.classes[C][0]] == (F(1), None, "", None, EntryKind.BYE)


def test_records_equal_the_records_read_one_participant_at_a_time() -> None:
    season = two_rounds()
    for upto in (None, 0, 1, 2):
        everybody = records_by_participant(season, upto)
        assert everybody == {pid: participant_records(season, pid, upto) for pid in everybody}
    assert everybody[A][1].opponent == C and everybody[A][1].points == F(1, 2)


@pytest.mark.parametrize(
    ("rnd", "message"),
    [
        (Round(1, games=(Game(A, A, Result.DRAW),)), "participant 1 cannot play himself"),
        (
            Round(1, games=(Game(A, B, Result.DRAW),), entries=(Entry(A, EntryKind.BYE),)),
            "participant P1 appears twice",
        ),
        (Round(1, games=(Game(A, 9, Result.DRAW),)), "round 1: unknown participant 9"),
        (Round(1, entries=(Entry(9, EntryKind.BYE),)), "round 1: unknown participant 9"),
    ],
)
def test_an_inconsistent_round_is_refused(rnd: Round, message: str) -> None:
    season = SeasonInput(
        participants=tuple(Participant(pid, f"P{pid}") for pid in (A, B)), rounds=(rnd,)
    )
    with pytest.raises(ScoringInputError, match=message):
        read_rows(season)


def test_picker_takes_the_values_at_the_positions() -> None:
    values = [10, 11, 12]
    assert _picker([2, 0, 2])(values) == (12, 10, 12)
    assert _picker([1])(values) == (11,)
    assert _picker([])(values) == ()
