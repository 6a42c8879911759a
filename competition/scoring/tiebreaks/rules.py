"""The readable rules: one function per tie-break code, held in :data:`RULES`.

Each rule reads a participant's contributions from a :class:`~.contributions.Context` exactly as
its source states it (FIDE C.07 article or seed 002) and returns the exact value. They are the
reference: the packed fast path (:class:`~.packed.TiebreakSheet`) must give the same figures,
and tests/scoring/test_tiebreak_fast_path.py checks that it does on random events. ``DE`` is no
rule here: it exists only within a tied group (:mod:`.direct_encounter`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from competition.scoring.model import SeasonInput
from competition.scoring.tiebreaks.codes import KASHDAN, MEDIAN, figure_codes
from competition.scoring.tiebreaks.contributions import (
    Context,
    average_rating,
    buchholz_total,
    koya_opponents,
    performance_rating,
    played_games,
    rated_games,
    read_context,
    sonneborn_berger_cut,
    type_b_games,
)
from competition.scoring.unplayed import halves

Rule = Callable[[Context, int], Fraction]


def buchholz(ctx: Context, pid: int) -> Fraction:
    """BH (C.07 Art. 8.1): the sum of the opponents' scores, plus FIDE dummies (Art. 16.4).

    Example (seed 002 "Voorbeeld"): 13.5 + 3×11.5 + 8 + 7.5 + 7 + 2×6.5 + 5 + 4.5 + 4 + 2.5
    + 2 + 0 = 101.5.
    """
    return Fraction(buchholz_total(ctx, pid), 4)


def buchholz_cut_1(ctx: Context, pid: int) -> Fraction:
    """BH/C1 (Art. 14.1): BH without the least significant contribution (16.5.1 exception).

    Example (the Arbiters' Manual's Laxman): 57 − 7 = 50.
    """
    return Fraction(buchholz_total(ctx, pid, "BH/C1"), 4)


def buchholz_cut_2(ctx: Context, pid: int) -> Fraction:
    """BH/C2 (Art. 14.2): BH without the two least significant contributions.

    Example: contributions 2, ½, ½ where both ½ are voluntary unplayed rounds: 3 − ½ − ½ = 2.
    """
    return Fraction(buchholz_total(ctx, pid, "BH/C2"), 4)


def median_buchholz_1(ctx: Context, pid: int) -> Fraction:
    """BH/M1 (Art. 14.3): BH without the lowest and the highest contribution.

    Example: contributions 1, 1½, 2, 3: 7½ − 1 − 3 = 3½.
    """
    return Fraction(buchholz_total(ctx, pid, "BH/M1"), 4)


def median_buchholz_2(ctx: Context, pid: int) -> Fraction:
    """BH/M2 (Art. 14.4): BH without the two lowest and the two highest contributions.

    Example: contributions 1, 1½, 2, 2½, 3: 10 − 1 − 1½ − 2½ − 3 = 2.
    """
    return Fraction(buchholz_total(ctx, pid, "BH/M2"), 4)


def club_median_buchholz(ctx: Context, pid: int) -> Fraction:
    """BH/MED (seed 002): BH/M1 up to 8 contributions, BH/M2 from 9.

    Example (Voorbeeld, 15 games): 101.5 − 13.5 − 11.5 − 0 − 2 = 74.5.
    """
    return Fraction(buchholz_total(ctx, pid, MEDIAN), 4)


def sonneborn_berger(ctx: Context, pid: int) -> Fraction:
    """SB (Art. 9.1): Σ opponent's score × own points in that game, plus FIDE dummies.

    Example (seed 003): C drew A (5), B (4½), D (4), E (2½) and beat F (1) and G (0):
    2½ + 2¼ + 2 + 1¼ + 1 + 0 = 9.
    """
    return Fraction(sum(item.sonneborn_berger for item in ctx.items[pid]), 8)


def sonneborn_berger_cut_1(ctx: Context, pid: int) -> Fraction:
    """SB/C1 (Art. 14.1.1.d): SB without the lowest-scored opponent's contribution (16.5.1).

    Example (Laxman, 2024 edition): 37.25 − 4.5 = 32.75.
    """
    items = ctx.items[pid]
    total = sum(item.sonneborn_berger for item in items)
    cut = sonneborn_berger_cut(items, ctx.fide)
    if cut is not None:
        total -= items[cut[0]].sonneborn_berger
    return Fraction(total, 8)


def progressive_score(ctx: Context, pid: int) -> Fraction:
    """PS (Art. 7.5): the sum of the running scores after each round.

    Example (seed 002): results 0, 1, 1, 0 give running scores 0, 1, 2, 2: PS 5.
    """
    running = total = 0
    for record in ctx.records[pid]:
        running += halves(record)
        total += running
    return Fraction(total, 2)


def koya(ctx: Context, pid: int) -> Fraction:
    """KS (Art. 9.2): points scored against opponents with at least half the maximum.

    Example (Voorbeeld): two draws against such opponents: ½ + ½ = 1.
    """
    return Fraction(sum(halves(r) for r, strong in koya_opponents(ctx, pid) if strong), 2)


def koya_sum_of_scores(ctx: Context, pid: int) -> Fraction:
    """BH/KS (seed 002's "Koya"): the sum of those opponents' scores.

    Example (Voorbeeld): 13.5 + 3×11.5 + 8 + 7.5 = 63.5.
    """
    strong = [r.opponent for r, is_strong in koya_opponents(ctx, pid) if is_strong]
    return Fraction(sum(ctx.points[o] for o in strong if o is not None), 2)


def wins(ctx: Context, pid: int) -> Fraction:
    """WIN (Art. 7.1): rounds with a win's points, played or not (forfeit wins, full-point byes).

    Example: a win, a full-point bye and a draw: 2.
    """
    return Fraction(sum(1 for r in ctx.records[pid] if halves(r) == 2))


def games_won(ctx: Context, pid: int) -> Fraction:
    """WON (Art. 7.2): wins in games over the board (in a round robin forfeits too, 15.2).

    Example: a win, a forfeit win and a draw in a Swiss: 1.
    """
    return Fraction(sum(1 for r, _ in type_b_games(ctx, pid) if halves(r) == 2))


def games_with_black(ctx: Context, pid: int) -> Fraction:
    """BPG (Art. 7.3): games played with black.

    Example: white win, black draw, black loss: 2.
    """
    return Fraction(sum(1 for r, _ in type_b_games(ctx, pid) if r.colour == "b"))


def wins_with_black(ctx: Context, pid: int) -> Fraction:
    """BWG (Art. 7.4): games won with black.

    Example: white win, black win, black loss: 1.
    """
    games = type_b_games(ctx, pid)
    return Fraction(sum(1 for r, _ in games if r.colour == "b" and halves(r) == 2))


def average_rating_of_opponents(ctx: Context, pid: int) -> Fraction:
    """ARO (Art. 10.1): the mean rating of rated opponents met over the board, .5 rounded up.

    Example (Voorbeeld): 22245 / 15 = 1483.
    """
    return Fraction(average_rating(rated_games(ctx, pid)))


def tournament_performance(ctx: Context, pid: int) -> Fraction:
    """TPR (Art. 10.2): ARO + dp(p), p = points / games rounded to hundredths.

    Example (Voorbeeld): p = 0.50, dp 0: 1483 + 0 = 1483.
    """
    return Fraction(performance_rating(rated_games(ctx, pid)))


def average_opponents_buchholz(ctx: Context, pid: int) -> Fraction:
    """AOB (Art. 8.2): the mean BH (same policy) of the opponents met over the board, exact.

    Example: opponents with BH 5 and 6½: (5 + 6½) / 2 = 5¾.
    """
    opponents = [r.opponent for r, _ in played_games(ctx, pid) if r.opponent is not None]
    if not opponents:
        return Fraction(0)
    return Fraction(sum(buchholz_total(ctx, o) for o in opponents), 4 * len(opponents))


def kashdan(ctx: Context, pid: int) -> Fraction:
    """KASH (seed 002): 4 per win, 2 per draw, 1 per loss over the board; 0 when unplayed.

    Example (Voorbeeld): 4×4 + 7×2 + 4×1 = 34.
    """
    return Fraction(sum(KASHDAN[halves(r)] for r, _ in played_games(ctx, pid)))


RULES: dict[str, Rule] = {
    "BH": buchholz,
    "BH/C1": buchholz_cut_1,
    "BH/C2": buchholz_cut_2,
    "BH/M1": median_buchholz_1,
    "BH/M2": median_buchholz_2,
    "BH/MED": club_median_buchholz,
    "BH/KS": koya_sum_of_scores,
    "SB": sonneborn_berger,
    "SB/C1": sonneborn_berger_cut_1,
    "PS": progressive_score,
    "KS": koya,
    "WIN": wins,
    "WON": games_won,
    "BPG": games_with_black,
    "BWG": wins_with_black,
    "ARO": average_rating_of_opponents,
    "TPR": tournament_performance,
    "AOB": average_opponents_buchholz,
    "KASH": kashdan,
}


def compute_tiebreaks_by_rules(
    season: SeasonInput, *, upto_round: int, codes: Sequence[str]
) -> dict[int, dict[str, Fraction]]:
    """:func:`~.packed.compute_tiebreaks` by the readable rules, one contribution at a time.

    The reference the fast path is tested against; ``DE`` is skipped as there.
    """
    wanted = figure_codes(codes)
    ctx = read_context(season, upto_round)
    return {pid: {code: RULES[code](ctx, pid) for code in wanted} for pid in ctx.records}
