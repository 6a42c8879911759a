"""Equal scores explained (``competition.presentation.ties``): which criterion separated two
neighbours in the standings, and when two rankings really disagree on a place. Worked by hand."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from competition.presentation.ties import (
    EARLIER_STANDINGS,
    StandingRow,
    place_ranges,
    places_agree,
    ranges_overlap,
    tiebreak_separations,
)


def _row(rank: int, score: int, **values: int) -> StandingRow:
    return StandingRow(rank, F(score), {code: F(v) for code, v in values.items()})


def test_the_docstring_example() -> None:
    """Criteria IP, BH, SB (an internal-SB season with tie-breaks BH and SB)."""
    rows = [
        _row(1, 5, IP=9, BH=20, SB=18),
        _row(2, 4, IP=8, BH=21, SB=17),  # score 4 after 5: no tie
        _row(3, 4, IP=7, BH=21, SB=17),  # IP 8 vs 7
        _row(4, 4, IP=7, BH=19, SB=17),  # IP equal, BH 21 vs 19
        _row(4, 4, IP=7, BH=19, SB=17),  # equal on all: shares place 4
        _row(6, 4, IP=7, BH=18, SB=16),  # BH 19 vs 18 (SB differs too, but BH comes first)
    ]
    assert tiebreak_separations(rows, ["IP", "BH", "SB"]) == [None, None, "IP", "BH", None, "BH"]


def test_the_order_of_the_criteria_decides_which_is_named() -> None:
    rows = [_row(1, 3, BH=10, SB=8), _row(2, 3, BH=9, SB=7)]
    assert tiebreak_separations(rows, ["SB", "BH"]) == [None, "SB"]
    assert tiebreak_separations(rows, ["BH", "SB"]) == [None, "BH"]


def test_direct_encounter_present_for_one_only_counts_as_different() -> None:
    rows = [_row(1, 3, BH=10, DE=1), _row(2, 3, BH=10)]
    assert tiebreak_separations(rows, ["BH", "DE"]) == [None, "DE"]


def test_a_strict_ranking_equal_on_everything_names_the_earlier_standings() -> None:
    """Keizer ranks everyone apart: equal score and tie-breaks, ranks 1 and 2."""
    rows = [_row(1, 30, KEIZER=30, VALUE=10), _row(2, 30, KEIZER=30, VALUE=9)]
    assert tiebreak_separations(rows, []) == [None, EARLIER_STANDINGS]


def test_no_rows() -> None:
    assert tiebreak_separations([], ["BH"]) == []


def test_place_ranges_strict_and_shared_ranks_agree() -> None:
    scores = {"A": F(5), "B": F(4), "C": F(4), "D": F(3)}
    strict = place_ranges({"A": 1, "B": 2, "C": 3, "D": 4}, scores)
    shared = place_ranges({"A": 1, "B": 2, "C": 2, "D": 4}, scores)
    assert strict == shared == {"A": (1, 1), "B": (2, 3), "C": (2, 3), "D": (4, 4)}


@pytest.mark.parametrize(
    ("first", "second", "overlap"),
    [((2, 3), (3, 3), True), ((2, 3), (4, 4), False), ((1, 1), (1, 1), True)],
)
def test_ranges_overlap(first, second, overlap) -> None:
    assert ranges_overlap(first, second) is overlap
    assert ranges_overlap(second, first) is overlap


@pytest.mark.parametrize(
    ("ranges", "agree"),
    [
        ([(2, 3), (3, 3), (1, 3)], True),  # place 3 is in all
        ([(2, 2), (3, 3)], False),
        ([(2, 3), (3, 4), (2, 2)], False),  # pairwise some overlap, but no common place
        ([], True),
    ],
)
def test_places_agree(ranges, agree) -> None:
    assert places_agree(ranges) is agree
