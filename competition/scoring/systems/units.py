"""Exact integer arithmetic for inner loops.

Fractions are exact but slow. The systems choose one common denominator for a season (the least
common multiple of every denominator that can occur) and add whole numbers of that unit; the
result is turned back into a :class:`~fractions.Fraction` at the boundary. Nothing is rounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from competition.scoring.model import EntryKind, Result
from competition.scoring.records import SeasonRows


def common_denominator(values: Iterable[Fraction]) -> int:
    """The least common multiple of the denominators of ``values`` (1 for none).

    >>> common_denominator([Fraction(1, 2), Fraction(1, 3), Fraction(2)])
    6
    """
    denominator = 1
    for value in values:
        denominator = lcm(denominator, value.denominator)
    return denominator


def to_units(value: Fraction, unit_denominator: int) -> int:
    """``value`` as a whole number of 1/``unit_denominator``; the denominator must divide it."""
    scaled = value * unit_denominator
    if scaled.denominator != 1:
        raise ValueError(f"{value} is not a whole number of 1/{unit_denominator}")
    return scaled.numerator


_PLAYED_RESULTS = frozenset(result for result in Result if result.is_played)


class FractionCache(dict[int, Fraction]):
    """``cache[n]`` is ``Fraction(n, denominator)``, built once per distinct ``n``.

    Standings repeat the same few values round after round; a dictionary lookup is far cheaper
    than normalising a new Fraction each time, and the value is the same exact Fraction.

    ``block`` (for a long-lived cache): a miss builds the values of the ``block`` numerators
    around ``n`` at once (``n // block * block`` onwards), so that neighbouring values (and
    their dictionary slots: an int hashes to itself) lie together in memory whenever they were
    first asked for. Values one computation reads are close to each other (the Buchholz of a
    group of participants), so it touches a few compact blocks instead of objects scattered
    over everything the process computed before. ``limit``: the cache starts afresh when it
    holds that many values, so that it stays bounded in a long-running process.
    Example: ``FractionCache(4, block=8)[13]`` builds 8/4 .. 15/4 and gives ``Fraction(13, 4)``.
    """

    __slots__ = ("block", "denominator", "limit")

    def __init__(self, denominator: int, limit: int | None = None, block: int = 1) -> None:
        super().__init__()
        self.denominator = denominator
        self.limit = limit  # a long-lived cache starts afresh when it holds this many values
        self.block = block

    def __missing__(self, numerator: int) -> Fraction:
        if self.limit is not None and len(self) + self.block > self.limit:
            self.clear()
        denominator, block = self.denominator, self.block
        if block > 1:
            first = numerator - numerator % block
            for other in range(first, first + block):
                self[other] = Fraction(other, denominator)
            return self[numerator]
        value = self[numerator] = Fraction(numerator, denominator)
        return value


@dataclass(frozen=True, slots=True)
class RecordDigest:
    """The season's rows reduced to plain values, computed once per engine call.

    ``points[pid][i]`` is the game points of round i + 1 in units of 1/``unit``; ``played`` is
    True for a game over the board; ``opponent`` is the opponent's id (or None); ``result`` the
    game's result (None for an entry); ``entry`` the kind of entry (None for a game).
    """

    unit: int
    points: Mapping[int, list[int]]
    played: Mapping[int, list[bool]]
    opponent: Mapping[int, list[int | None]]
    result: Mapping[int, list[Result | None]]
    entry: Mapping[int, list[EntryKind | None]]


def digest_rows(season_rows: SeasonRows) -> RecordDigest:
    """The :class:`RecordDigest` of ``season_rows``: each figure decided once per row class
    (:class:`~competition.scoring.records.SeasonRows`), then looked up per round."""
    class_rows = season_rows.class_rows
    unit = lcm(2, *(row[0].denominator for row in class_rows))
    units_of = [to_units(row[0], unit) for row in class_rows]
    result_of = [row[3] for row in class_rows]
    played_of = [outcome in _PLAYED_RESULTS for outcome in result_of]
    entry_of = [row[4] for row in class_rows]
    points: dict[int, list[int]] = {}
    played: dict[int, list[bool]] = {}
    opponent: dict[int, list[int | None]] = {}
    result: dict[int, list[Result | None]] = {}
    entry: dict[int, list[EntryKind | None]] = {}
    opponents = season_rows.opponents
    for pid, classes in season_rows.classes.items():
        points[pid] = list(map(units_of.__getitem__, classes))
        result[pid] = list(map(result_of.__getitem__, classes))
        played[pid] = list(map(played_of.__getitem__, classes))
        opponent[pid] = opponents[pid]  # shared: nobody changes it
        entry[pid] = list(map(entry_of.__getitem__, classes))
    return RecordDigest(unit, points, played, opponent, result, entry)
