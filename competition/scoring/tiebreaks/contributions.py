"""The records read one contribution at a time, as C.07 states the rules and explanations show.

A :class:`Context` holds, per participant, his records up to the round, their Art. 16.2
categories, his points and the score his opponents' Buchholz and SB use (the season's
``unplayed_policy``, see :mod:`competition.scoring.unplayed`), and his Buchholz/SB
contributions (:class:`Item`): one per regular game and, under FIDE policies, one dummy per own
unplayed round. The cut helpers say which contributions a variant drops and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from competition.scoring.fide_tables import rating_difference
from competition.scoring.model import SeasonInput
from competition.scoring.records import RoundRecord, ScoringInputError, read_rows
from competition.scoring.text import gettext_noop
from competition.scoring.tiebreaks.codes import BUCHHOLZ_CUTS, MEDIAN, MEDIAN_SWITCH, round_half_up
from competition.scoring.unplayed import (
    CATEGORY_NOTES,
    FIDE_POLICIES,
    UNPLAYED_POLICIES,
    Category,
    categorise,
    dummy_score,
    halves,
    is_regular_game,
    score_for_opponents,
)

_V = TypeVar("_V")

FORFEIT_AS_GAME_NOTE = gettext_noop("forfeit, counted as a game (15.2)")
CUT_LOWEST_VOLUNTARY_NOTE = gettext_noop("cut: lowest voluntary unplayed round (C.07 16.5.1)")
CUT_LOWEST_NOTE = gettext_noop("cut: lowest")
CUT_HIGHEST_NOTE = gettext_noop("cut: highest")
CUT_LOWEST_SCORED_NOTE = gettext_noop("cut: lowest-scored opponent")


@dataclass(frozen=True, slots=True)
class Item:
    """One Buchholz/SB contribution: a regular game or (FIDE) a dummy for an unplayed round."""

    round_number: int
    opponent: int | None  # None for a dummy opponent
    basis: int  # the opponent's (or dummy's) score, quarters
    result: int  # own points in the round, halves
    voluntary: bool  # C.07 16.1.2: counts for the 16.5 cut exception
    note: str = ""

    @property
    def sonneborn_berger(self) -> int:  # eighths
        return self.basis * self.result


@dataclass(frozen=True, slots=True)
class Context:
    """Every participant's tie-break inputs after ``upto_round``, under the season's policy."""

    season: SeasonInput
    rounds: int
    policy: str
    records: dict[int, tuple[RoundRecord, ...]]
    categories: dict[int, tuple[Category, ...]]
    points: dict[int, int]  # game points, halves
    opponent_scores: dict[int, int]  # score used by opponents' BH/SB, quarters
    items: dict[int, tuple[Item, ...]]
    ratings: dict[int, int | None]
    buchholz_totals: dict[int, int] = field(default_factory=dict)  # filled by buchholz_total

    @property
    def fide(self) -> bool:
        return self.policy in FIDE_POLICIES

    def rounds_of(self, pid: int) -> list[tuple[RoundRecord, Category]]:
        """The participant's records with their categories, in round order."""
        return list(zip(self.records[pid], self.categories[pid], strict=True))


def read_context(season: SeasonInput, upto_round: int, *, lazy: bool = False) -> Context:
    """The season's records up to ``upto_round`` as a :class:`Context`.

    With ``lazy`` every per-participant figure is computed when first read (one participant's
    explanation reads his opponents' figures, not everybody's); the values are the same.
    """
    policy = season.unplayed_policy
    if policy not in UNPLAYED_POLICIES:
        raise ScoringInputError(f"unknown unplayed-round policy {policy!r}")
    season_rows = read_rows(season, upto_round)
    records: dict[int, tuple[RoundRecord, ...]]
    records = _Lazy(season_rows.records_of) if lazy else {}
    if not lazy:
        for pid in season_rows.rows:
            records[pid] = season_rows.records_of(pid)
    rounds = len(season_rows.round_numbers) if season_rows.rows else 0
    round_robin = season.round_robin
    fide = policy in FIDE_POLICIES
    categories: dict[int, tuple[Category, ...]] = _Lazy(lambda pid: categorise(records[pid]))
    points: dict[int, int] = _Lazy(lambda pid: sum(halves(r) for r in records[pid]))
    opponent_scores: dict[int, int] = _Lazy(
        lambda pid: score_for_opponents(
            records[pid], categories[pid], policy=policy, round_robin=round_robin
        )
    )

    def items_of(pid: int) -> tuple[Item, ...]:
        own_score = 2 * points[pid]
        own: list[Item] = []
        for record, category in zip(records[pid], categories[pid], strict=True):
            if is_regular_game(category, record, round_robin=round_robin):
                assert record.opponent is not None
                note = "" if category is Category.PLAYED else FORFEIT_AS_GAME_NOTE
                own.append(
                    Item(
                        record.round_number,
                        record.opponent,
                        opponent_scores[record.opponent],
                        halves(record),
                        False,
                        note,
                    )
                )
            elif fide:
                basis, note = dummy_score(
                    category,
                    record,
                    own_score=own_score,
                    policy=policy,
                    rounds=rounds,
                    scores_for_opponents=opponent_scores,
                )
                own.append(
                    Item(
                        record.round_number,
                        None,
                        basis,
                        halves(record),
                        category.voluntary,
                        f"{CATEGORY_NOTES[category]}; {note}",
                    )
                )
        return tuple(own)

    items: dict[int, tuple[Item, ...]] = _Lazy(items_of)
    if not lazy:
        items.update((pid, items_of(pid)) for pid in records)
    ratings = {p.id: p.rating for p in season.participants}
    return Context(
        season, rounds, policy, records, categories, points, opponent_scores, items, ratings
    )


class _Lazy(dict[int, _V]):
    """A dict that computes a missing participant's value on first read (``__missing__``)."""

    def __init__(self, compute: Callable[[int], _V]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, pid: int) -> _V:
        value = self[pid] = self._compute(pid)
        return value


# --- cuts (C.07 Art. 14 with the Art. 16.5 exception) --------------------------------------


def _cut_lowest(items: Sequence[Item], alive: list[bool], fide: bool) -> tuple[int, str]:
    """Index of the least significant Buchholz contribution still counted (Art. 14.1, 16.5.1).

    Under FIDE, a participant with voluntary unplayed rounds loses the lowest of those instead,
    as it is never lower than the least significant value. Ties go to the earliest round.
    """
    candidates = [i for i, on in enumerate(alive) if on]
    voluntary = [i for i in candidates if items[i].voluntary] if fide else []
    if voluntary:
        return min(voluntary, key=lambda i: items[i].basis), CUT_LOWEST_VOLUNTARY_NOTE
    return min(candidates, key=lambda i: items[i].basis), CUT_LOWEST_NOTE


def _cut_highest(items: Sequence[Item], alive: list[bool]) -> int:
    candidates = [i for i, on in enumerate(alive) if on]
    return max(candidates, key=lambda i: (items[i].basis, -i))


def buchholz_cuts(items: Sequence[Item], code: str, fide: bool) -> dict[int, str]:
    """The contributions a Buchholz variant drops, by index, with the reason.

    Example: bases 4, 6, 9 (no voluntary rounds) under BH/M1 drop 4 ("cut: lowest") and 9
    ("cut: highest").
    """
    if code == MEDIAN:
        lowest = highest = 1 if len(items) <= MEDIAN_SWITCH else 2
    else:
        lowest, highest = BUCHHOLZ_CUTS[code]
    alive = [True] * len(items)
    cuts: dict[int, str] = {}
    # Never drop the last contribution: a cut is meant to discount extremes, not everything.
    for _ in range(lowest):
        if sum(alive) <= 1:
            break
        index, reason = _cut_lowest(items, alive, fide)
        alive[index] = False
        cuts[index] = reason
    for _ in range(highest):
        if sum(alive) <= 1:
            break
        index = _cut_highest(items, alive)
        alive[index] = False
        cuts[index] = CUT_HIGHEST_NOTE
    return cuts


def sonneborn_berger_cut(items: Sequence[Item], fide: bool) -> tuple[int, str] | None:
    """SB/C1 (Art. 14.1.1.d with 16.5.1): drop the contribution of the lowest-scored opponent.

    Under FIDE, when the lowest contribution of a voluntary unplayed round is not lower than
    that, it is dropped instead. Example: dummy 5 × 0 = 0 against lowest opponent 4.5 × 1 = 4.5:
    0 < 4.5, so the 4.5 is dropped.
    """
    if len(items) < 2:
        return None
    lowest_basis = min(item.basis for item in items)
    least = min(
        (i for i, item in enumerate(items) if item.basis == lowest_basis),
        key=lambda i: items[i].sonneborn_berger,
    )
    if fide:
        voluntary = [i for i, item in enumerate(items) if item.voluntary]
        if voluntary:
            lowest_voluntary = min(voluntary, key=lambda i: items[i].sonneborn_berger)
            if items[lowest_voluntary].sonneborn_berger >= items[least].sonneborn_berger:
                return lowest_voluntary, CUT_LOWEST_VOLUNTARY_NOTE
    return least, CUT_LOWEST_SCORED_NOTE


def buchholz_total(ctx: Context, pid: int, code: str = "BH") -> int:
    """A Buchholz variant's value in quarters: the contributions its cuts leave."""
    if code == "BH" and pid in ctx.buchholz_totals:
        return ctx.buchholz_totals[pid]
    items = ctx.items[pid]
    cuts = buchholz_cuts(items, code, ctx.fide) if code != "BH" else {}
    total = sum(item.basis for i, item in enumerate(items) if i not in cuts)
    if code == "BH":
        ctx.buchholz_totals[pid] = total
    return total


# --- which games count for which code ------------------------------------------------------


def type_b_games(ctx: Context, pid: int) -> list[tuple[RoundRecord, Category]]:
    """Games for WON/BPG/BWG: over the board; in a round robin forfeits too (Art. 15.2),
    except forfeit losses under the March 2026 edition."""
    games: list[tuple[RoundRecord, Category]] = []
    for record, category in ctx.rounds_of(pid):
        if category is Category.PLAYED:
            games.append((record, category))
        elif is_regular_game(category, record, round_robin=ctx.season.round_robin):
            if category is Category.FORFEIT_LOSS and ctx.policy == "fide-2026":
                continue
            games.append((record, category))
    return games


def played_games(ctx: Context, pid: int) -> list[tuple[RoundRecord, Category]]:
    """Games over the board (ARO, TPR, AOB, KASH)."""
    return [
        (record, category)
        for record, category in ctx.rounds_of(pid)
        if category is Category.PLAYED and record.opponent is not None
    ]


def koya_opponents(ctx: Context, pid: int) -> list[tuple[RoundRecord, bool]]:
    """Regular-game opponents with whether they scored at least half the maximum (Art. 9.2)."""
    out = []
    for record, category in ctx.rounds_of(pid):
        if is_regular_game(category, record, round_robin=ctx.season.round_robin):
            assert record.opponent is not None
            # points in halves >= rounds / 2 points  <=>  halves >= rounds
            out.append((record, ctx.points[record.opponent] >= ctx.rounds))
    return out


def rated_games(ctx: Context, pid: int) -> list[tuple[int, int]]:
    """(own points in halves, opponent rating) for rated games over the board (Art. 10)."""
    games: list[tuple[int, int]] = []
    for record, _ in played_games(ctx, pid):
        assert record.opponent is not None
        rating = ctx.ratings.get(record.opponent)
        if rating:
            games.append((halves(record), rating))
    return games


def average_rating(games: Sequence[tuple[int, int]]) -> int:
    """ARO (Art. 10.1): the mean rating, rounded to the nearest integer, 0.5 up."""
    if not games:
        return 0
    return round_half_up(sum(rating for _, rating in games), len(games))


def performance_rating(games: Sequence[tuple[int, int]]) -> int:
    """TPR (Art. 10.2): ARO + dp(p), p = points / games rounded to hundredths (0.005 up)."""
    if not games:
        return 0
    scored = sum(points for points, _ in games)  # halves
    hundredths = round_half_up(50 * scored, len(games))
    return average_rating(games) + rating_difference(hundredths)
