"""External games (issue 14): a club duty that was a team match, with its result, counts per
system as the parameter ``external_game`` says.

Round 1: Anna beats Bart, Cor draws Dirk. Round 2: Anna draws Cor; Bart plays a team match for
the club (a club duty) and wins it; Dirk is absent with notice.
"""

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

F = Fraction
ANNA, BART, COR, DIRK = 1, 2, 3, 4


WON = F(1)


def season(system: str, result: Fraction = WON, **parameters: object) -> SeasonInput:
    return SeasonInput(
        participants=tuple(
            Participant(pid, name, start_rank=pid, start_points=F(200))
            for pid, name in enumerate(["Anna", "Bart", "Cor", "Dirk"], 1)
        ),
        rounds=(
            Round(1, games=(Game(ANNA, BART, Result.WHITE_WINS), Game(COR, DIRK, Result.DRAW))),
            Round(
                2,
                games=(Game(ANNA, COR, Result.DRAW),),
                entries=(
                    Entry(BART, EntryKind.CLUB_DUTY, external_result=result),
                    Entry(DIRK, EntryKind.ABSENT_NOTICE),
                ),
            ),
        ),
        system=system,
        parameters=parameters,
    )


def figures(season_in: SeasonInput, code: str) -> dict[int, Fraction]:
    return {row.participant_id: row.values[code] for row in standings_after(season_in, 2).rows}


def test_internal_sb_counts_an_external_game_as_unplayed_by_default() -> None:
    """Bart: 0 game points, round 2 without a game: IP 0 + ½ = ½ (as any club duty)."""
    assert figures(season("internal-sb"), "IP")[BART] == F(1, 2)


@pytest.mark.parametrize(("result", "ip"), [(F(1), F(1)), (F(1, 2), F(1, 2)), (F(0), F(0))])
def test_internal_sb_counts_an_external_game_with_its_result(
    result: Fraction, ip: Fraction
) -> None:
    """With external_game "result" the team match adds its result instead of ½: a win gives
    Bart IP 1, so Anna's SB gets 1 × 1 for beating him (and ½ × Cor's IP 1 for the draw)."""
    season_in = season("internal-sb", result, external_game="result")
    assert figures(season_in, "IP")[BART] == ip
    assert figures(season_in, "SB")[ANNA] == ip + F(1, 2)
    lines = explain(season_in, participant_id=BART, after_round=2).lines
    external = [line for line in lines if line.figure == "IP" and line.round_number == 2]
    assert [(line.amount, line.note, line.parts.get("external_result")) for line in external] == [
        (ip, "external game", result)
    ]


def test_van_den_brink_leaves_an_external_game_out_by_default() -> None:
    """Start 200 each; round 1: Anna 203, Bart 197, Cor and Dirk 200; round 2: Anna–Cor draw
    at equal rank value: no change. Bart's team match changes nothing: 197."""
    assert figures(season("van-den-brink"), "VDB") == {ANNA: 203, BART: 197, COR: 200, DIRK: 200}


def test_van_den_brink_counts_an_external_game_against_an_equal_opponent() -> None:
    """With external_game "equal_opponent" the team match is a game against an opponent of his
    own rank value: the result part only (+3 for the win, no compensation): Bart 200."""
    season_in = season("van-den-brink", external_game="equal_opponent")
    assert figures(season_in, "VDB")[BART] == 200
    lines = explain(season_in, participant_id=BART, after_round=2).lines
    assert [(line.round_number, line.amount, line.note) for line in lines if line.figure == "VDB"][
        -1
    ] == (2, 3, "external game")


def test_keizer_counts_an_external_game_as_its_result_times_the_own_value() -> None:
    """Keizer with the defaults: top value round(1.5 × 4) = 6, step 1 (places worth 6, 5, 4,
    3), own value in the score, absent with notice ⅓. Bart's team match, won, counts 1 × his
    own value. The fixed point: Anna 6 + 1 × Bart 5 + ½ × Cor 4 = 13; Bart 5 + 0 + 1 × 5 = 10;
    Cor 4 + ½ × Dirk 3 + ½ × Anna 6 = 8½; Dirk 3 + ½ × Cor 4 + ⅓ × 3 = 6."""
    rows = standings_after(season("keizer"), 2).rows
    assert [(row.participant_id, row.score, row.values["VALUE"]) for row in rows] == [
        (ANNA, 13, 6),
        (BART, 10, 5),
        (COR, F(17, 2), 4),
        (DIRK, 6, 3),
    ]
    lines = explain(season("keizer"), participant_id=BART, after_round=2).lines
    external = [line for line in lines if line.round_number == 2 and line.figure == "KEIZER"]
    assert [(line.amount, line.parts["fraction"], line.note) for line in external] == [
        (5, 1, "external game")
    ]


def test_keizer_counts_an_external_game_as_a_fixed_fraction() -> None:
    """external_game ½: Bart's team match is worth ½ × his own value whatever its result. The
    fixed point: Anna 6 + 1 × Bart 3 + ½ × Cor 5 = 11½; Cor 5 + ½ × Dirk 4 + ½ × Anna 6 = 10;
    Dirk 4 + ½ × Cor 5 + ⅓ × 4 = 7⅚; Bart 3 + 0 + ½ × 3 = 4½."""
    rows = standings_after(season("keizer", external_game=F(1, 2)), 2).rows
    assert [(row.participant_id, row.score) for row in rows] == [
        (ANNA, F(23, 2)),
        (COR, 10),
        (DIRK, F(47, 6)),
        (BART, F(9, 2)),
    ]


def test_why_did_i_move_counts_the_external_game_as_his_own_result() -> None:
    """Bart's round 2 in the Keizer season: the team match, won, is his own result: 1 × his own
    value 5; the parts add up to the change of his score."""
    from competition.scoring.movement import season_movements

    moves = season_movements(season("keizer"), BART)
    round_two = moves[1].score
    assert round_two.own_result == 5 and round_two.after == 10
    assert (
        round_two.own_result + round_two.revaluation + round_two.own_value
        == round_two.after - round_two.before
    )
