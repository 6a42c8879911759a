"""Equal scores explained: which tie-break separated two neighbours in the standings, and
whether two rankings really disagree on a participant's place.

Pure functions on plain values (no Django), so that the pages can compute them from the stored
snapshot rows without a query and the tests can work them by hand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

# The reason for a row equal to the one above on every criterion but still placed below it
# (Keizer's ranking is strict: its last word is the standings after the round before).
EARLIER_STANDINGS = "earlier standings"

Key = TypeVar("Key", bound=Hashable)  # whatever identifies a participant


@dataclass(frozen=True)
class StandingRow:
    """What the separation needs of a standings row: rank, primary score, figures by code."""

    rank: int
    score: Fraction
    values: Mapping[str, Fraction]


def tiebreak_separations(rows: Sequence[StandingRow], criteria: Sequence[str]) -> list[str | None]:
    """For each row (in rank order), what placed it below the row above when both have the
    same score: the first of ``criteria`` (the system's secondary figures, then the season's
    tie-breaks, in that order) on which they differ; :data:`EARLIER_STANDINGS` when they differ
    on none but have different ranks; None for the first row, a row with a different score
    than the one above, and a row sharing the place of the one above.

    Worked example (criteria IP, then BH, then SB):

    ====  =====  ==  ==  ==  ======================================
    rank  score  IP  BH  SB  separation
    ====  =====  ==  ==  ==  ======================================
    1     5      9   20  18  None (first row)
    2     4      8   21  17  None (score 4, not 5)
    3     4      7   21  17  "IP" (8 ≠ 7)
    4     4      7   19  17  "BH" (IP equal, 21 ≠ 19)
    4     4      7   19  17  None (equal on all: shared place)
    6     4      7   18  16  "BH"
    ====  =====  ==  ==  ==  ======================================

    A figure missing from a row (``DE`` is stored only for tied groups) counts as different
    from a figure that is present.
    """
    reasons: list[str | None] = []
    for index, row in enumerate(rows):
        if index == 0:
            reasons.append(None)
            continue
        above = rows[index - 1]
        if row.score != above.score or row.rank == above.rank:
            reasons.append(None)
            continue
        reason = next(
            (code for code in criteria if row.values.get(code) != above.values.get(code)),
            EARLIER_STANDINGS,
        )
        reasons.append(reason)
    return reasons


def place_ranges(
    ranks: Mapping[Key, int], scores: Mapping[Key, Fraction]
) -> dict[Key, tuple[int, int]]:
    """The places each participant may be said to hold in one ranking: participants with the
    same score hold the places from the best rank among them for as many places as they are.

    Example: ranks A 1, B 2, C 3, D 4 with scores 5, 4, 4, 3 give A (1, 1), B and C (2, 3),
    D (4, 4); shared ranks 1, 2, 2, 4 with the same scores give the same ranges.
    """
    groups: dict[Fraction, list[Key]] = defaultdict(list)
    for participant, score in scores.items():
        groups[score].append(participant)
    ranges: dict[Key, tuple[int, int]] = {}
    for members in groups.values():
        best = min(ranks[p] for p in members)
        for participant in members:
            ranges[participant] = (best, best + len(members) - 1)
    return ranges


def ranges_overlap(first: tuple[int, int], second: tuple[int, int]) -> bool:
    """Whether two place ranges share a place: (2, 3) and (3, 3) do, (2, 3) and (4, 4) not."""
    return first[0] <= second[1] and second[0] <= first[1]


def places_agree(ranges: Sequence[tuple[int, int]]) -> bool:
    """Whether one place lies in every ranking's range: (2, 3), (3, 3), (1, 3) agree on 3;
    (2, 2) and (3, 3) do not."""
    if not ranges:
        return True
    return max(low for low, _high in ranges) <= min(high for _low, high in ranges)
