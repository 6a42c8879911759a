"""A late joiner's rounds before he joined (issue 14), as the season's parameter says.

Keizer with the defaults (4 participants: top value round(1.5 × 4) = 6, step 1, places worth
6, 5, 4, 3; own value in the score; bye ⅔, absent with notice ⅓). Round 1: Anna beats Bart,
Cor has the bye; Dirk joins in round 2. Round 2: Anna draws Cor, Dirk beats Bart.
"""

from __future__ import annotations

from fractions import Fraction

from competition.scoring.engine import explain, standings_after
from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)

F = Fraction
ANNA, BART, COR, DIRK = 1, 2, 3, 4


def keizer(before_joining: str | None = None) -> SeasonInput:
    return SeasonInput(
        participants=(
            Participant(ANNA, "Anna", start_rank=1),
            Participant(BART, "Bart", start_rank=2),
            Participant(COR, "Cor", start_rank=3),
            Participant(DIRK, "Dirk", start_rank=4, joined_round=2),
        ),
        rounds=(
            Round(
                1,
                games=(Game(ANNA, BART, Result.WHITE_WINS),),
                entries=(Entry(COR, EntryKind.BYE),),
            ),
            Round(2, games=(Game(ANNA, COR, Result.DRAW), Game(DIRK, BART, Result.WHITE_WINS))),
        ),
        system="keizer",
        parameters={} if before_joining is None else {"before_joining": before_joining},
    )


def scores(season: SeasonInput) -> list[tuple[int, Fraction]]:
    return [(row.participant_id, row.score) for row in standings_after(season, 2).rows]


def test_keizer_rounds_before_joining_count_nothing_by_default() -> None:
    """Anna 6 + 1 × Bart 3 + ½ × Cor 5 = 11½; Cor 5 + ⅔ × 5 + ½ × Anna 6 = 11⅓; Dirk 4 + 0 +
    1 × Bart 3 = 7; Bart 3."""
    assert scores(keizer()) == scores(keizer("nothing"))
    assert scores(keizer()) == [(ANNA, F(23, 2)), (COR, F(34, 3)), (DIRK, 7), (BART, 3)]


def test_keizer_rounds_before_joining_as_absent_with_notice() -> None:
    """Dirk's round 1 is worth ⅓ × his own value 4: 7 + 4/3 = 8⅓; nobody else moves."""
    assert scores(keizer("absent_with_notice")) == [
        (ANNA, F(23, 2)),
        (COR, F(34, 3)),
        (DIRK, F(25, 3)),
        (BART, 3),
    ]
    lines = explain(keizer("absent_with_notice"), participant_id=DIRK, after_round=2).lines
    first = [line for line in lines if line.round_number == 1]
    assert [(line.amount, line.parts["fraction"], line.note) for line in first] == [
        (F(4, 3), F(1, 3), "before joining")
    ]
