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

from competition.scoring.model import Result
from competition.scoring.records import RoundRecord


def common_denominator(values: Iterable[Fraction]) -> int:
    """The least common multiple of the denominators of ``values`` (1 for none).

    >>> common_denominator([Fraction(1, 2), Fraction(1, 3), Fraction(2)])
    6
    """
    denominator = 1
    for value in values:
        denominator = lcm(denominator, value.denominator)
    return denominator


def record_points_denominator(records: Mapping[int, tuple[RoundRecord, ...]]) -> int:
    """The common denominator of every record's game points (2 for ordinary results)."""
    return lcm(2, *{record.points.denominator for rows in records.values() for record in rows})


def to_units(value: Fraction, unit_denominator: int) -> int:
    """``value`` as a whole number of 1/``unit_denominator``; the denominator must divide it."""
    scaled = value * unit_denominator
    if scaled.denominator != 1:
        raise ValueError(f"{value} is not a whole number of 1/{unit_denominator}")
    return scaled.numerator


_PLAYED_RESULTS = frozenset(result for result in Result if result.is_played)


@dataclass(frozen=True, slots=True)
class RecordDigest:
    """The records reduced to plain integers, computed once per engine call.

    ``points[pid][i]`` is the game points of round i + 1 in units of 1/``unit``; ``played`` is
    True for a game over the board; ``opponent`` is the opponent's id (or None).
    """

    unit: int
    points: Mapping[int, list[int]]
    played: Mapping[int, list[bool]]
    opponent: Mapping[int, list[int | None]]


def digest_records(records: Mapping[int, tuple[RoundRecord, ...]]) -> RecordDigest:
    """The :class:`RecordDigest` of ``records`` (one Fraction conversion per distinct value)."""
    unit = record_points_denominator(records)
    units_of: dict[tuple[int, int], int] = {}
    points: dict[int, list[int]] = {}
    played: dict[int, list[bool]] = {}
    opponent: dict[int, list[int | None]] = {}
    for pid, rows in records.items():
        row_points = []
        for record in rows:
            value = record.points
            key = (value.numerator, value.denominator)
            amount = units_of.get(key)
            if amount is None:
                amount = units_of[key] = to_units(value, unit)
            row_points.append(amount)
        points[pid] = row_points
        played[pid] = [record.result in _PLAYED_RESULTS for record in rows]
        opponent[pid] = [record.opponent for record in rows]
    return RecordDigest(unit, points, played, opponent)
