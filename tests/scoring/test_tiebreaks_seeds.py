"""Every worked tie-break figure in seeds 002 and 003, and the Arbiters' Manual's Laxman example."""

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
from competition.scoring.records import records_by_participant
from competition.scoring.tiebreaks import compute_tiebreaks
from tests.scoring.seasons import season_from_crosstable, season_from_rounds

# Seed 002: 16 players, 15 rounds, "Voorbeeld" is number 7 (Elo 1406, 7.5 points).
SEED_002_ELO = {
    1: 1823, 2: 1776, 3: 1639, 4: 1646, 5: 1729, 6: 1363, 7: 1406, 8: 1404,
    9: 1599, 10: 1506, 11: 1373, 12: 1372, 13: 1250, 14: 1150, 15: 1150, 16: 1465,
}  # fmt: skip
# A round robin reproducing the seed's final scores (13.5, 11.5 ×3, 8, 7.5, 7.5, 7, 6.5, 6.5,
# 5, 4.5, 4, 2.5, 2, 0: 109 points of 120, so 11 games are double forfeits "-").
# Voorbeeld loses to 1-4, draws 5-12, beats 13-16 (the seed's own assumption).


def _seed_002_rows() -> dict[int, str]:
    """Expand the table above: column order is 1..16."""
    others = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    among = {  # results among the 15 others (solved once so every final score matches)
        1: "x=11=11=1111111",
        2: "=x10111=1=11==1",
        3: "00x-11=11111111",
        4: "01-x111=1111-11",
        5: "=000x1=1==11-=1",
        6: "00000x0111==111",
        8: "00=0=1x0=111-1-",
        9: "==0=001x0===101",
        10: "0000=0=1x11==-1",
        11: "0=00=00=0x==1-1",
        12: "00000=0=0=x-=11",
        13: "00000=0===-x1-1",
        14: "0=0--0-0=0=0x-1",
        15: "0=00=001--0--x-",
        16: "000000-000000-x",
    }
    voorbeeld = {p: "0" if p <= 4 else "=" if p <= 12 else "1" for p in others}
    flip = {"0": "1", "1": "0", "=": "=", "-": "-"}
    rows: dict[int, str] = {}
    for pid in range(1, 17):
        cells = []
        for col in range(1, 17):
            if col == pid:
                cells.append("x")
            elif pid == 7:
                cells.append(voorbeeld[col])
            elif col == 7:
                cells.append(flip[voorbeeld[pid]])
            else:
                cells.append(among[pid][others.index(col)])
        rows[pid] = "".join(cells)
    return rows


@pytest.fixture(scope="module")
def seed_002() -> dict[int, dict[str, Fraction]]:
    season = season_from_crosstable(
        _seed_002_rows(), ratings=SEED_002_ELO, policy="half-value", round_robin=False
    )
    codes = ("BH", "SB", "BH/MED", "TPR", "ARO", "KASH", "BH/KS", "KS")
    return compute_tiebreaks(season, upto_round=15, codes=codes)


def test_seed_002_final_scores_match_the_table() -> None:
    season = season_from_crosstable(_seed_002_rows(), round_robin=False)
    scores = {
        pid: sum(r.points for r in rows) for pid, rows in records_by_participant(season, 15).items()
    }
    expected = [13.5, 11.5, 11.5, 11.5, 8, 7.5, 7.5, 7, 6.5, 6.5, 5, 4.5, 4, 2.5, 2, 0]
    assert [scores[pid] for pid in range(1, 17)] == [Fraction(x) for x in expected]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # 13.5 + 3 × 11.5 + 8 + 7.5 + 7 + 2 × 6.5 + 5 + 4.5 + 4 + 2.5 + 2 + 0 = 101.5
        ("BH", Fraction(203, 2)),
        # ½ × (8 + 7.5 + 7 + 6.5 + 6.5 + 5 + 4.5) + (4 + 2.5 + 2 + 0) = 22.5 + 8.5 = 31
        ("SB", Fraction(31)),
        # 15 games: drop 13.5 and 11.5 (highest two), 0 and 2 (lowest two):
        # 101.5 - 13.5 - 11.5 - 0 - 2 = 74.5 (the seed prints 88: a slip, see docs/tiebreaks.md)
        ("BH/MED", Fraction(149, 2)),
        # Elos of the 15 opponents sum to 22245; 22245 / 15 = 1483 (the seed prints 1438)
        ("ARO", Fraction(1483)),
        # p = 7.5 / 15 = 0.50, dp = 0: 1483 + 0
        ("TPR", Fraction(1483)),
        # 4 wins × 4 + 7 draws × 2 + 4 losses × 1 = 34
        ("KASH", Fraction(34)),
        # opponents with at least 7.5 of 15: 13.5 + 3 × 11.5 + 8 + 7.5 = 63.5
        ("BH/KS", Fraction(127, 2)),
        # FIDE Koya: points against those six: 0 × 4 + ½ + ½ = 1
        ("KS", Fraction(1)),
    ],
)
def test_seed_002_voorbeeld(
    seed_002: dict[int, dict[str, Fraction]], code: str, expected: Fraction
) -> None:
    assert seed_002[7][code] == expected


def test_seed_002_progressive_example() -> None:
    # The seed's table: running scores 0, 1, 2, 2 (lost, won, won, lost); the third column
    # 0, 1, 3, 5 is the running total of those, so PS after 4 rounds = 0 + 1 + 2 + 2 = 5.
    season = season_from_rounds(
        [1, 2, 3, 4, 5],
        [
            [(1, 2, "0-1")],
            [(1, 3, "1-0")],
            [(4, 1, "0-1")],
            [(5, 1, "1-0")],
        ],
        policy="plain",
    )
    assert compute_tiebreaks(season, upto_round=4, codes=("PS",))[1]["PS"] == 5


SEED_003 = {  # A..G = 1..7, seed 003's crosstable
    1: "x==1111",
    2: "=x==111",
    3: "==x==11",
    4: "0==x111",
    5: "00=0x11",
    6: "00000x1",
    7: "000000x",
}


@pytest.mark.parametrize(
    ("pid", "expected"),
    [
        # C: ½×5 + ½×4.5 + ½×4 + ½×2.5 + 1×1 + 1×0 = 2.5 + 2.25 + 2 + 1.25 + 1 + 0 = 9
        (3, Fraction(9)),
        # D: 0×5 + ½×4.5 + ½×4 + 1×2.5 + 1×1 + 1×0 = 2.25 + 2 + 2.5 + 1 = 7.75
        (4, Fraction(31, 4)),
        # A: ½×4.5 + ½×4 + 4 + 2.5 + 1 + 0 = 2.25 + 2 + 7.5 = 11.75
        (1, Fraction(47, 4)),
        # G lost every game: 0
        (7, Fraction(0)),
    ],
)
def test_seed_003_round_robin_sonneborn_berger(pid: int, expected: Fraction) -> None:
    season = season_from_crosstable(SEED_003, policy="plain")
    assert compute_tiebreaks(season, upto_round=7, codes=("SB",))[pid]["SB"] == expected


# --- FIDE Arbiters' Manual 2026, C.07 unplayed-rounds example "Laxman" ---------------------
# Laxman 7/10: R1 1 (opp 5), R2 1 (5), R3 0 (6.5), R4 zero-point requested bye, R5 1 (4.5),
# R6 ½ (6), R7 1 (5), R8 ½ (6.5), R9 1 (5.5), R10 1 (6). Opponents' final scores in brackets.
LAXMAN_GAMES = [
    (11, 1, 5), (12, 1, 5), (13, 0, 6.5), None, (15, 1, 4.5),
    (16, 0.5, 6), (17, 1, 5), (18, 0.5, 6.5), (19, 1, 5.5), (20, 1, 6),
]  # fmt: skip


def _laxman_season(policy: str) -> SeasonInput:
    rounds: list[tuple[list[Game], list[Entry]]] = [([], []) for _ in range(10)]
    participants = [Participant(1, "Laxman")]
    filler = 100
    for laxman_round, game in enumerate(LAXMAN_GAMES):
        if game is None:
            rounds[laxman_round][1].append(Entry(1, EntryKind.ABSENT_NOTICE))
            continue
        opponent, laxman_points, final = game
        participants.append(Participant(opponent, f"O{opponent}"))
        result = {1: Result.WHITE_WINS, 0.5: Result.DRAW, 0: Result.BLACK_WINS}[laxman_points]
        rounds[laxman_round][0].append(Game(1, opponent, result))
        # the opponent's other nine rounds against fresh fillers: wins first, then a draw
        needed = Fraction(final) - (1 - Fraction(laxman_points))
        for other_round in range(10):
            if other_round == laxman_round:
                continue
            filler += 1
            participants.append(Participant(filler, f"F{filler}"))
            if needed >= 1:
                outcome, needed = Result.WHITE_WINS, needed - 1
            elif needed == Fraction(1, 2):
                outcome, needed = Result.DRAW, Fraction(0)
            else:
                outcome = Result.BLACK_WINS
            rounds[other_round][0].append(Game(opponent, filler, outcome))
    built = tuple(Round(i + 1, tuple(g), tuple(e)) for i, (g, e) in enumerate(rounds))
    return SeasonInput(tuple(participants), built, unplayed_policy=policy)


@pytest.mark.parametrize(
    ("policy", "code", "expected"),
    [
        # 2024: opponents 5+5+6.5+4.5+6+5+6.5+5.5+6 = 50, dummy = own 7: 57
        ("fide-2024", "BH", Fraction(57)),
        # C1: the voluntary round's 7 is not lower than the least (4.5): cut 7, 50
        ("fide-2024", "BH/C1", Fraction(50)),
        # SB: 5+5+0+0+4.5+3+5+3.25+5.5+6 = 37.25 (dummy 7 × 0 = 0)
        ("fide-2024", "SB", Fraction(149, 4)),
        # 2026: dummy capped by 16.4.2 at ½ × 10 = 5: 50 + 5 = 55
        ("fide-2026", "BH", Fraction(55)),
        # C1: lowest voluntary 5 is not lower than 4.5: cut 5, 50
        ("fide-2026", "BH/C1", Fraction(50)),
        ("fide-2026", "SB", Fraction(149, 4)),
        # SB/C1 2024: least significant = lowest-scored opponent 4.5 × 1 = 4.5; the voluntary
        # round's 7 × 0 = 0 is lower, so 4.5 is cut: 37.25 - 4.5 = 32.75
        ("fide-2024", "SB/C1", Fraction(131, 4)),
    ],
)
def test_arbiters_manual_laxman(policy: str, code: str, expected: Fraction) -> None:
    figures = compute_tiebreaks(_laxman_season(policy), upto_round=10, codes=(code,))
    assert figures[1][code] == expected
