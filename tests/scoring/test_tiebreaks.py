"""Each tie-break code and unplayed-round policy on small hand-made seasons."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.scoring.records import records_by_participant
from competition.scoring.tiebreaks import (
    TIEBREAK_CODES,
    TIEBREAK_LABELS,
    UNPLAYED_POLICIES,
    compute_tiebreaks,
    direct_encounter,
    explain_tiebreaks,
    validate_tiebreaks,
)
from tests.profiles import examples
from tests.scoring.seasons import season_from_rounds

F = Fraction

# Four players, three rounds.
# R1: 1-2 1-0, 3-4 ½-½      R2: 1-3 ½-½, 2 bye (1 point), 4 absent with notice (0)
# R3: 1-4 forfeit win for 1 (+-), 2-3 0-1
# Game points: 1: 1+½+1 = 2½, 2: 0+1+0 = 1, 3: ½+½+1 = 2, 4: ½+0+0 = ½
ROUNDS = [
    [(1, 2, "1-0"), (3, 4, "1/2")],
    [(1, 3, "1/2"), (2, "bye", 1), (4, "absent_notice", 0)],
    [(1, 4, "+-"), (2, 3, "0-1")],
]
RATINGS = {1: 2000, 2: 1800, 3: 1700, 4: 1500}


def figures(policy: str, codes: tuple[str, ...], rounds=ROUNDS, **kw) -> dict:
    season = season_from_rounds([1, 2, 3, 4], rounds, policy=policy, ratings=RATINGS, **kw)
    return compute_tiebreaks(season, upto_round=len(rounds), codes=codes)


@pytest.mark.parametrize(
    ("policy", "pid", "code", "expected"),
    [
        # --- fide-2024. Scores for opponents (16.3): 4's R2 requested bye is followed by a
        # forfeit loss only (voluntary), so 16.2.5: counts ½ -> 4 is worth 1. Others: actual.
        # 1: opponents 2 (1) + 3 (2) = 3, R3 forfeit win -> dummy = own 2½: BH 5½
        ("fide-2024", 1, "BH", F(11, 2)),
        # C1: no voluntary rounds; lowest 1 cut: 4½
        ("fide-2024", 1, "BH/C1", F(9, 2)),
        # SB: 1×1 + ½×2 + 1×2½ (dummy) = 4½
        ("fide-2024", 1, "SB", F(9, 2)),
        # 4: opponents 3 (2) in R1; R2 requested bye dummy ½ (own score), R3 forfeit loss
        # dummy ½: BH = 2 + ½ + ½ = 3; both unplayed rounds voluntary
        ("fide-2024", 4, "BH", F(3)),
        # C1 with voluntary rounds: the lowest voluntary one (½) is cut: 2½
        ("fide-2024", 4, "BH/C1", F(5, 2)),
        # C2 reapplies the exception: both ½ cut: 2
        ("fide-2024", 4, "BH/C2", F(2)),
        # SB 4: ½ × 2 = 1 (dummies × 0)
        ("fide-2024", 4, "SB", F(1)),
        # SB/C1 of 4: lowest-scored "opponent" is a dummy (½) with 0; voluntary 0 >= 0: cut 0
        ("fide-2024", 4, "SB/C1", F(1)),
        # 2: opponents 1 (2½) + 3 (2), bye dummy 1: BH 5½; M1 cuts 1 and 2½: 2
        ("fide-2024", 2, "BH", F(11, 2)),
        ("fide-2024", 2, "BH/M1", F(2)),
        # --- fide-2026: 1's forfeit-win dummy capped at opponent 4's adjusted score (1):
        # 1 + 2 + 1 = 4 ; 2's bye dummy capped at ½ × 3 = 1½ (own is 1, no cap): 5½
        ("fide-2026", 1, "BH", F(4)),
        ("fide-2026", 2, "BH", F(11, 2)),
        # SB 1: 1×1 + ½×2 + 1×1 = 3
        ("fide-2026", 1, "SB", F(3)),
        # --- unplayed-as-draw: every unplayed round counts ½ in the opponent's score:
        # 2 = 0 + ½ + 0 = ½ ; 3 = 2 ; 4 = ½ + ½ + ½ = 1½. Own unplayed rounds ignored.
        # 1: 2 (½) + 3 (2) = 2½ ; 1's R3 forfeit is not a game: no contribution
        ("unplayed-as-draw", 1, "BH", F(5, 2)),
        # 3: 4 (1½) + 1 (2½... 1 = 1 + ½ + ½ = 2) + 2 (½) = 1½ + 2 + ½ = 4
        ("unplayed-as-draw", 3, "BH", F(4)),
        # --- half-value: unplayed points count half: 1 = 1 + ½ + ½ = 2, 2 = 0 + ½ + 0 = ½
        # 3: 4 (½) + 1 (2) + 2 (½) = 3
        ("half-value", 3, "BH", F(3)),
        # SB 3: ½×½ + ½×2 + 1×½ = ¼ + 1 + ½ = 1¾
        ("half-value", 3, "SB", F(7, 4)),
        # --- plain: actual points, own unplayed rounds ignored: 3: ½ + 2½ + 1 = 4
        ("plain", 3, "BH", F(4)),
        ("plain", 4, "BH", F(2)),
        # PS 1: running 1, 1½, 2½ -> 5
        ("plain", 1, "PS", F(5)),
        # WIN counts the forfeit win and the bye: 1 -> R1, R3 = 2; 2 -> bye = 1
        ("plain", 1, "WIN", F(2)),
        ("plain", 2, "WIN", F(1)),
        # WON only over the board: 1 -> 1
        ("plain", 1, "WON", F(1)),
        # BPG / BWG: 3 had black in R2 (1-3, drew) and R3 (2-3, won): 2 / 1 ; 4 black in R1 (drew)
        ("plain", 3, "BPG", F(2)),
        ("plain", 3, "BWG", F(1)),
        ("plain", 4, "BWG", F(0)),
        # ARO 1: opponents over the board 1800, 1700 -> 1750 ; forfeit (4) left out
        ("plain", 1, "ARO", F(1750)),
        # TPR 1: p = 1½ / 2 = 0.75 -> dp 193: 1943
        ("plain", 1, "TPR", F(1943)),
        # ARO 4: 1700 ; TPR p = 0.50: 1700
        ("plain", 4, "TPR", F(1700)),
        # KASH 1: win 4 + draw 2 (the forfeit counts 0) = 6
        ("plain", 1, "KASH", F(6)),
        # KS: max 3, half 1½: 1's opponents 2 (1) no, 3 (2) yes: ½
        ("plain", 1, "KS", F(1, 2)),
        ("plain", 1, "BH/KS", F(2)),
        # AOB 4 (plain): opponent 3's BH = 4: 4
        ("plain", 4, "AOB", F(4)),
    ],
)
def test_table(policy: str, pid: int, code: str, expected: Fraction) -> None:
    assert figures(policy, (code,))[pid][code] == expected


def test_round_robin_counts_forfeits_as_games_except_for_ratings() -> None:
    # plain, round robin: 1's forfeit win over 4 (worth ½) counts: BH 1 + 2 + ½ = 3½
    result = figures("plain", ("BH", "ARO", "WON"), round_robin=True)[1]
    assert result == {"BH": F(7, 2), "ARO": F(1750), "WON": F(2)}


def test_rounds_before_joining_are_voluntary_unplayed_rounds() -> None:
    # 4 joins in round 2: round 1 is not_paired (voluntary); the R2 requested bye is then
    # followed only by R3's forfeit loss: all voluntary. Under fide-2024, 4's BH
    # = dummies ½ + ½ + ½ (own score 0... 4 has 0 points now) -> 0.
    rounds = [
        [(1, 2, "1-0"), (3, "absent_no_notice", 0)],
        [(1, 3, "1/2"), (2, "bye", 1), (4, "absent_notice", 0)],
        [(1, 4, "+-"), (2, 3, "0-1")],
    ]
    result = figures("fide-2024", ("BH", "BH/C1", "PS"), rounds=rounds, joined={4: 2})
    # 4 scored 0: three dummies of 0 -> BH 0
    assert result[4] == {"BH": F(0), "BH/C1": F(0), "PS": F(0)}
    # 3: R1 absent without notice (voluntary, face value 0), then games: 3's score 1½;
    # opponent 1 (2½), 2 (1) + dummy 1½ = 5 ; C1 cuts the voluntary dummy 1½: 3½
    assert result[3]["BH"] == F(5)
    assert result[3]["BH/C1"] == F(7, 2)


def test_validate_tiebreaks_normalises_and_rejects() -> None:
    assert validate_tiebreaks(["bh / c1", "sb-c1", " ks "]) == ("BH/C1", "SB/C1", "KS")
    with pytest.raises(ValueError, match="XYZ"):
        validate_tiebreaks(["BH", "XYZ"])


def test_labels_cover_every_code_and_policies_are_listed() -> None:
    assert set(TIEBREAK_LABELS) == set(TIEBREAK_CODES)
    assert UNPLAYED_POLICIES == (
        "fide-2024",
        "fide-2026",
        "unplayed-as-draw",
        "half-value",
        "plain",
    )


def test_direct_encounter_all_met() -> None:
    # 1 beat 2, 2 beat 3, 1 drew 3: 1 → 1½, 2 → 1, 3 → ½
    rounds = [[(1, 2, "1-0")], [(2, 3, "1-0")], [(1, 3, "1/2")]]
    season = season_from_rounds([1, 2, 3], rounds, policy="plain")
    assert direct_encounter(season, upto_round=3, group=[1, 2, 3]) == {
        1: F(3, 2),
        2: F(1),
        3: F(1, 2),
    }


def test_direct_encounter_not_all_met_only_separates_the_certain() -> None:
    # 1 beat 2 and 3; 2 and 3 never met: 1 has 2, the others at most 0 + 1: 1 is first;
    # 2 and 3 stay equal.
    rounds = [[(1, 2, "1-0")], [(1, 3, "1-0")]]
    season = season_from_rounds([1, 2, 3], rounds, policy="plain")
    values = direct_encounter(season, upto_round=2, group=[1, 2, 3])
    assert values[1] > values[2] == values[3]


def test_explain_marks_the_cut_line_and_sums_to_the_figure() -> None:
    season = season_from_rounds([1, 2, 3, 4], ROUNDS, policy="fide-2024", ratings=RATINGS)
    lines = explain_tiebreaks(season, participant_id=4, upto_round=3, codes=("BH/C1",))
    assert sum(line.amount for line in lines if line.counted) == F(5, 2)
    cut = [line for line in lines if not line.counted]
    assert len(cut) == 1 and "16.5.1" in cut[0].note and cut[0].opponent_id is None
    assert any("dummy" in line.note for line in lines)


# --- properties -----------------------------------------------------------------------------

_RESULTS = ("1-0", "1/2", "0-1", "+-", "-+", "--")


@st.composite
def small_seasons(draw: st.DrawFn):
    players = draw(st.integers(min_value=2, max_value=7))
    ids = list(range(1, players + 1))
    rounds = []
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        order = draw(st.permutations(ids))
        absent = draw(st.integers(min_value=0, max_value=len(ids)))
        items: list[tuple] = []
        for pid in order[:absent]:
            kind = draw(st.sampled_from(("absent_notice", "absent_no_notice", "club_duty")))
            items.append((pid, kind, 0))
        present = list(order[absent:])
        if len(present) % 2:
            items.append((present.pop(), "bye", 1))
        for i in range(0, len(present), 2):
            items.append((present[i], present[i + 1], draw(st.sampled_from(_RESULTS))))
        rounds.append(items)
    policy = draw(st.sampled_from(UNPLAYED_POLICIES))
    return ids, rounds, policy


@settings(max_examples=examples(150), deadline=None)
@given(small_seasons())
def test_progressive_score_is_the_sum_of_running_scores(data) -> None:
    ids, rounds, policy = data
    season = season_from_rounds(ids, rounds, policy=policy)
    ps = compute_tiebreaks(season, upto_round=len(rounds), codes=("PS",))
    for pid in ids:
        running, total = F(0), F(0)
        for items in rounds:
            for item in items:
                if isinstance(item[1], int) and pid in item[:2]:
                    white = {"1-0": 1, "1/2": F(1, 2), "+-": 1}.get(item[2], 0)
                    black = {"0-1": 1, "1/2": F(1, 2), "-+": 1}.get(item[2], 0)
                    running += white if item[0] == pid else black
                elif item[0] == pid and not isinstance(item[1], int):
                    running += item[2]
            total += running
        assert ps[pid]["PS"] == total


@settings(max_examples=examples(150), deadline=None)
@given(small_seasons())
def test_plain_sonneborn_berger_is_bounded(data) -> None:
    ids, rounds, _ = data
    season = season_from_rounds(ids, rounds, policy="plain")
    result = compute_tiebreaks(season, upto_round=len(rounds), codes=("SB", "BH"))
    points = {
        pid: sum(r.points for r in rows) for pid, rows in records_by_participant(season).items()
    }
    highest = max(points.values())
    for pid in ids:
        assert 0 <= result[pid]["SB"] <= points[pid] * highest
        assert result[pid]["SB"] <= result[pid]["BH"]


@settings(max_examples=examples(100), deadline=None)
@given(small_seasons(), st.randoms(use_true_random=False))
def test_results_do_not_depend_on_input_order(data, rnd) -> None:
    ids, rounds, policy = data
    shuffled_rounds = [rnd.sample(items, len(items)) for items in rounds]
    shuffled_ids = rnd.sample(ids, len(ids))
    a = season_from_rounds(ids, rounds, policy=policy)
    b = season_from_rounds(shuffled_ids, shuffled_rounds, policy=policy)
    codes = tuple(c for c in TIEBREAK_CODES if c != "DE")
    assert compute_tiebreaks(a, upto_round=len(rounds), codes=codes) == compute_tiebreaks(
        b, upto_round=len(rounds), codes=codes
    )


@settings(max_examples=examples(100), deadline=None)
@given(small_seasons(), st.data())
def test_direct_encounter_only_covers_the_group(data, picker) -> None:
    ids, rounds, policy = data
    season = season_from_rounds(ids, rounds, policy=policy)
    group = picker.draw(st.lists(st.sampled_from(ids), min_size=1, unique=True))
    values = direct_encounter(season, upto_round=len(rounds), group=group)
    assert set(values) == set(group)
    assert all(value >= 0 for value in values.values())
