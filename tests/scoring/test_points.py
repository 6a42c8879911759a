"""The game points system: win/draw/loss values, forfeits and entries."""

from __future__ import annotations

from fractions import Fraction

import pytest

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
from competition.scoring.parameters import ParameterError

F = Fraction


def season_of(**parameters: object) -> SeasonInput:
    """Round 1: Anna beats Bert, Cor draws Dirk. Round 2: Anna wins by forfeit against Cor,
    Bert has a full-point bye, Dirk half-point bye. Round 3: Dirk beats Bert, Anna on club duty,
    Cor absent without notice."""
    return SeasonInput(
        participants=tuple(
            Participant(i, name, start_rank=i)
            for i, name in enumerate(["Anna", "Bert", "Cor", "Dirk"], 1)
        ),
        rounds=(
            Round(1, games=(Game(1, 2, Result.WHITE_WINS), Game(3, 4, Result.DRAW))),
            Round(
                2,
                games=(Game(1, 3, Result.WHITE_WINS_FORFEIT),),
                entries=(Entry(2, EntryKind.BYE, F(1)), Entry(4, EntryKind.ABSENT_NOTICE, F(1, 2))),
            ),
            Round(
                3,
                games=(Game(2, 4, Result.BLACK_WINS),),
                entries=(Entry(1, EntryKind.CLUB_DUTY), Entry(3, EntryKind.ABSENT_NO_NOTICE)),
            ),
        ),
        system="points",
        parameters=parameters,
    )


@pytest.mark.parametrize(
    ("parameters", "expected"),
    [
        # defaults = game points: Anna 1 + 1 + 0, Bert 0 + 1 + 0, Cor ½ + 0 + 0, Dirk ½ + ½ + 1
        ({}, {1: F(2), 2: F(1), 3: F(1, 2), 4: F(2)}),
        # 3/1/0: Anna 3 + 3 (forfeit win) + 0 (club duty), Bert 0 + 3 (full bye = win) + 0,
        # Cor 1 + 0 (forfeit loss) + 0, Dirk 1 + 1 (half bye = draw) + 3
        ({"win": F(3), "draw": F(1)}, {1: F(6), 2: F(3), 3: F(1), 4: F(5)}),
        # 2/1/−1: Anna 2 + 2 + 0, Bert −1 + 2 − 1, Cor 1 − 1 (forfeit loss) + 0 (absence costs
        # nothing), Dirk 1 + 1 + 2
        ({"win": F(2), "draw": F(1), "loss": F(-1)}, {1: F(4), 2: F(0), 3: F(0), 4: F(4)}),
    ],
)
def test_points(parameters: dict[str, object], expected: dict[int, Fraction]) -> None:
    standings = standings_after(season_of(**parameters), 3)
    assert {row.participant_id: row.score for row in standings.rows} == expected
    assert {row.participant_id: row.values["PTS"] for row in standings.rows} == expected
    # game points do not depend on the system's values
    assert {row.participant_id: row.game_points for row in standings.rows} == {
        1: 2,
        2: 1,
        3: F(1, 2),
        4: 2,
    }


def test_ranks_and_shared_rank() -> None:
    standings = standings_after(season_of(), 3)
    # Anna and Dirk both 2: shared rank 1, listed by start rank; Bert 3rd, Cor 4th.
    assert [(row.participant_id, row.rank) for row in standings.rows] == [
        (1, 1),
        (4, 1),
        (2, 3),
        (3, 4),
    ]


def test_entry_other_than_whole_or_half_scales_with_win() -> None:
    season = SeasonInput(
        (Participant(1, "Anna"),),
        (Round(1, entries=(Entry(1, EntryKind.BYE, F(2, 3)),)),),
        system="points",
        parameters={"win": F(3)},
    )
    assert standings_after(season, 1).rows[0].score == F(2)  # 2/3 × 3


def test_explanation_lines_sum_to_the_total() -> None:
    explanation = explain(season_of(win=F(3), draw=F(1)), participant_id=4, after_round=3)
    assert [line.amount for line in explanation.lines] == [F(1), F(1), F(3)]
    assert explanation.totals["PTS"] == F(5)


def test_draw_outside_win_and_loss_is_refused() -> None:
    with pytest.raises(ParameterError, match="draw"):
        standings_after(season_of(win=F(1), draw=F(2)), 1)
