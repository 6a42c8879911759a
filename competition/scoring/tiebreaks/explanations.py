"""The explanation of a participant's tie-breaks: one line per opponent, dummy or round.

Lines dropped by a cut have ``counted=False`` and a note saying which cut and why; the counted
amounts of a code add up to its value (averages: ARO, TPR and AOB list the inputs of the
average; PS lists the running score after each round, which add up to PS).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from competition.scoring.model import Contribution, SeasonInput
from competition.scoring.records import RoundRecord, ScoringInputError
from competition.scoring.text import gettext_noop
from competition.scoring.tiebreaks.codes import BUCHHOLZ_CUTS, KASHDAN, MEDIAN, figure_codes
from competition.scoring.tiebreaks.contributions import (
    Context,
    Item,
    buchholz_cuts,
    buchholz_total,
    koya_opponents,
    played_games,
    read_context,
    sonneborn_berger_cut,
    type_b_games,
)
from competition.scoring.unplayed import CATEGORY_NOTES, Category, halves

Explainer = Callable[[Context, int, str], list[Contribution]]


def explain_tiebreaks(
    season: SeasonInput, *, participant_id: int, upto_round: int, codes: Sequence[str]
) -> tuple[Contribution, ...]:
    """One line per opponent (or dummy, or round) for each requested code, in code order.

    Example: BH/C1 of a participant with contributions 2, ½ (voluntary) and ½ (voluntary)
    gives three lines, one of the ½ lines with ``counted=False`` and the note
    "cut: lowest voluntary unplayed round (C.07 16.5.1)"; the counted amounts add up to 2½.
    """
    wanted = figure_codes(codes)
    ctx = read_context(season, upto_round, lazy=True)
    if participant_id not in ctx.ratings:  # every participant of the season
        raise ScoringInputError(f"unknown participant {participant_id}")
    lines: list[Contribution] = []
    for code in wanted:
        lines.extend(EXPLAINERS[code](ctx, participant_id, code))
    return tuple(lines)


def _item_parts(ctx: Context, item: Item) -> dict[str, Fraction | str]:
    parts: dict[str, Fraction | str] = {
        "opponent_score": Fraction(item.basis, 4),
        "result": Fraction(item.result, 2),
    }
    if item.opponent is not None:
        parts["opponent_points"] = Fraction(ctx.points[item.opponent], 2)
    return parts


def _joined(*notes: str) -> str:
    return "; ".join(note for note in notes if note)


def buchholz_lines(ctx: Context, pid: int, code: str) -> list[Contribution]:
    """BH and its cut variants: each contribution (opponent's score), cut ones not counted."""
    items = ctx.items[pid]
    cuts = buchholz_cuts(items, code, ctx.fide) if code != "BH" else {}
    return [
        Contribution(
            code,
            item.round_number,
            Fraction(item.basis, 4),
            item.opponent,
            _item_parts(ctx, item),
            i not in cuts,
            _joined(item.note, cuts.get(i, "")),
        )
        for i, item in enumerate(items)
    ]


def sonneborn_berger_lines(ctx: Context, pid: int, code: str) -> list[Contribution]:
    """SB and SB/C1: opponent's score × own result per contribution."""
    items = ctx.items[pid]
    cut = sonneborn_berger_cut(items, ctx.fide) if code == "SB/C1" else None
    lines = []
    for i, item in enumerate(items):
        dropped = cut is not None and cut[0] == i
        reason = cut[1] if cut is not None and dropped else ""
        lines.append(
            Contribution(
                code,
                item.round_number,
                Fraction(item.sonneborn_berger, 8),
                item.opponent,
                _item_parts(ctx, item),
                not dropped,
                _joined(item.note, reason),
            )
        )
    return lines


def koya_lines(ctx: Context, pid: int, code: str) -> list[Contribution]:
    """KS (own points) and BH/KS (opponent's score) per regular game; weak opponents not counted."""
    lines = []
    for record, strong in koya_opponents(ctx, pid):
        assert record.opponent is not None
        opponent_points = Fraction(ctx.points[record.opponent], 2)
        amount = Fraction(halves(record), 2) if code == "KS" else opponent_points
        lines.append(
            Contribution(
                code,
                record.round_number,
                amount,
                record.opponent,
                {"opponent_points": opponent_points},
                strong,
                "" if strong else gettext_noop("opponent scored less than half the maximum"),
            )
        )
    return lines


def progressive_lines(ctx: Context, pid: int, code: str) -> list[Contribution]:
    """PS: the running score after each round."""
    lines = []
    running = 0
    for record in ctx.records[pid]:
        running += halves(record)
        lines.append(
            Contribution(
                code,
                record.round_number,
                Fraction(running, 2),
                record.opponent,
                {"round_points": record.points},
                True,
                gettext_noop("score after this round"),
            )
        )
    return lines


def _counted_rounds(ctx: Context, pid: int, code: str) -> list[tuple[RoundRecord, Category]]:
    """The rounds a counting code (WIN, WON, BPG, BWG, KASH) counts."""
    if code == "WIN":
        return [(r, c) for r, c in ctx.rounds_of(pid) if halves(r) == 2]
    if code == "KASH":
        return played_games(ctx, pid)
    games = type_b_games(ctx, pid)
    if code == "WON":
        return [(r, c) for r, c in games if halves(r) == 2]
    if code == "BPG":
        return [(r, c) for r, c in games if r.colour == "b"]
    return [(r, c) for r, c in games if r.colour == "b" and halves(r) == 2]


def count_lines(ctx: Context, pid: int, code: str) -> list[Contribution]:
    """WIN, WON, BPG, BWG (1 per counted round) and KASH (4, 2 or 1 per game)."""
    return [
        Contribution(
            code,
            record.round_number,
            Fraction(KASHDAN[halves(record)] if code == "KASH" else 1),
            record.opponent,
            {"result": record.points},
            True,
            CATEGORY_NOTES[category],
        )
        for record, category in _counted_rounds(ctx, pid, code)
    ]


def rating_lines(ctx: Context, pid: int, code: str) -> list[Contribution]:
    """ARO and TPR: each opponent's rating over the board; unrated ones left out."""
    lines = []
    for record, _ in played_games(ctx, pid):
        rating = ctx.ratings.get(record.opponent) if record.opponent is not None else None
        lines.append(
            Contribution(
                code,
                record.round_number,
                Fraction(rating or 0),
                record.opponent,
                {"result": record.points},
                bool(rating),
                gettext_noop("rating, averaged")
                if rating
                else gettext_noop("unrated opponent, left out"),
            )
        )
    return lines


def opponents_buchholz_lines(ctx: Context, pid: int, code: str) -> list[Contribution]:
    """AOB: each opponent's Buchholz over the board."""
    return [
        Contribution(
            code,
            record.round_number,
            Fraction(buchholz_total(ctx, record.opponent), 4),
            record.opponent,
            {},
            True,
            gettext_noop("opponent's Buchholz, averaged"),
        )
        for record, _ in played_games(ctx, pid)
        if record.opponent is not None
    ]


EXPLAINERS: dict[str, Explainer] = {
    **dict.fromkeys((*BUCHHOLZ_CUTS, MEDIAN), buchholz_lines),
    "SB": sonneborn_berger_lines,
    "SB/C1": sonneborn_berger_lines,
    "KS": koya_lines,
    "BH/KS": koya_lines,
    "PS": progressive_lines,
    **dict.fromkeys(("WIN", "WON", "BPG", "BWG", "KASH"), count_lines),
    "ARO": rating_lines,
    "TPR": rating_lines,
    "AOB": opponents_buchholz_lines,
}
