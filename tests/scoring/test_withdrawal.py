"""Rounds after a withdrawal (issue 14): no system awards anything for them.

Internal SB, unplayed value ½. Round 1: Anna beats Bart, Cor draws Dirk, Eva absent with
notice. Round 2: Anna draws Cor, Dirk beats Bart; Eva has no record.
"""

from __future__ import annotations

from dataclasses import replace
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
ANNA, BART, COR, DIRK, EVA = 1, 2, 3, 4, 5


def season(eva_withdrawn_round: int | None, system: str = "internal-sb") -> SeasonInput:
    names = ["Anna", "Bart", "Cor", "Dirk", "Eva"]
    return SeasonInput(
        participants=tuple(
            Participant(
                pid,
                name,
                start_rank=pid,
                start_points=F(200 - pid),
                withdrawn_round=eva_withdrawn_round if pid == EVA else None,
            )
            for pid, name in enumerate(names, 1)
        ),
        rounds=(
            Round(
                1,
                games=(Game(ANNA, BART, Result.WHITE_WINS), Game(COR, DIRK, Result.DRAW)),
                entries=(Entry(EVA, EntryKind.ABSENT_NOTICE),),
            ),
            Round(2, games=(Game(ANNA, COR, Result.DRAW), Game(DIRK, BART, Result.WHITE_WINS))),
        ),
        system=system,
    )


def values(season_in: SeasonInput, code: str) -> dict[int, Fraction]:
    return {row.participant_id: row.values[code] for row in standings_after(season_in, 2).rows}


def test_internal_points_stop_at_the_withdrawal() -> None:
    """Eva: ½ for her absence in round 1; round 2 without a record is worth ½ more to someone
    who takes part (IP 1), nothing after her withdrawal from round 2 (IP ½)."""
    assert values(season(None), "IP")[EVA] == 1
    assert values(season(2), "IP")[EVA] == F(1, 2)
    # the others are untouched: game points only (everybody played both rounds)
    assert {pid: ip for pid, ip in values(season(2), "IP").items() if pid != EVA} == {
        ANNA: F(3, 2),
        BART: 0,
        COR: 1,
        DIRK: F(3, 2),
    }


def test_the_explanation_shows_no_unplayed_value_after_the_withdrawal() -> None:
    explanation = explain(season(2), participant_id=EVA, after_round=2)
    ip_lines = [line for line in explanation.lines if line.figure == "IP"]
    assert [(line.round_number, line.amount) for line in ip_lines] == [(1, F(1, 2)), (2, 0)]
    assert explanation.totals["IP"] == F(1, 2)


def test_her_opponents_keep_what_her_games_gave_them() -> None:
    """Withdrawn from round 3 after playing: Eva beat Bart in round 2 instead (Bart's draw
    with Dirk moved): her games stay in everybody's figures."""
    base = season(None, "points")
    played = replace(
        base,
        rounds=(
            base.rounds[0],
            Round(2, games=(Game(ANNA, COR, Result.DRAW), Game(EVA, BART, Result.WHITE_WINS))),
            Round(3, games=(Game(ANNA, BART, Result.WHITE_WINS),)),
        ),
    )
    withdrawn = replace(
        played,
        participants=tuple(
            replace(p, withdrawn_round=3) if p.id == EVA else p for p in played.participants
        ),
    )
    before = {row.participant_id: row.score for row in standings_after(played, 3).rows}
    after = {row.participant_id: row.score for row in standings_after(withdrawn, 3).rows}
    assert before == after == {ANNA: F(5, 2), BART: 0, COR: 1, DIRK: F(1, 2), EVA: 1}
