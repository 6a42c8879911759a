"""The rank-and-score chart: valid SVG, accessible, points where the rule puts them."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from competition.presentation.charts import (
    PANEL_HEIGHT,
    TOP,
    ChartLabels,
    ChartPoint,
    _ticks,
    rank_score_svg,
)

NS = {"svg": "http://www.w3.org/2000/svg"}
LABELS = ChartLabels("Rank of X", "Upper panel rank", "Rank", "SB", "Round")


def _svg(points, field_size=10):
    return ET.fromstring(rank_score_svg(points, field_size=field_size, labels=LABELS))


def test_empty_history_draws_nothing() -> None:
    assert rank_score_svg([], field_size=5, labels=LABELS) == ""


def test_chart_has_a_title_a_description_and_a_tooltip_per_point() -> None:
    points = [ChartPoint(1, 5, Fraction(1)), ChartPoint(2, 3, Fraction(9, 4))]
    root = _svg(points)
    assert root.get("role") == "img"
    assert root.find("svg:title", NS).text == "Rank of X"
    assert root.find("svg:desc", NS).text == "Upper panel rank"
    tips = [c.find("svg:title", NS).text for c in root.iter("{http://www.w3.org/2000/svg}circle")]
    assert tips == ["Round 1: Rank 5", "Round 2: Rank 3", "Round 1: SB 1", "Round 2: SB 9/4"]


@pytest.mark.parametrize(
    ("rank", "expected_y"),
    [
        (1, TOP),  # first place at the top of the rank panel
        (10, TOP + PANEL_HEIGHT),  # last of ten at its bottom
        (4, TOP + PANEL_HEIGHT * 3 / 9),  # (4 - 1) / (10 - 1) of the way down
    ],
)
def test_rank_one_is_at_the_top(rank: int, expected_y: float) -> None:
    root = _svg([ChartPoint(1, rank, Fraction(0)), ChartPoint(2, rank, Fraction(1))])
    circles = list(root.iter("{http://www.w3.org/2000/svg}circle"))
    assert float(circles[0].get("cy")) == pytest.approx(expected_y, abs=0.05)


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    # Ticks in between are multiples of the step more than half a step from either end, so
    # 2 does not crowd 1 (step 2 for 1..12) and 12 does not crowd 13.
    [(1, 4, [1, 2, 3, 4]), (1, 40, [1, 10, 20, 30, 40]), (1, 12, [1, 4, 6, 8, 10, 12]),
     (1, 13, [1, 4, 6, 8, 10, 13]), (3, 3, [3])],
)  # fmt: skip
def test_ticks(low: int, high: int, ticks: list[int]) -> None:
    assert _ticks(low, high) == ticks


def test_the_label_column_fits_the_widest_score() -> None:
    """Scores such as 209,48 need more room than ranks: the panels start after the widest
    label (6 characters × 10 units + 14 = 74 units)."""
    svg = rank_score_svg(
        [ChartPoint(1, 2, Fraction(20948, 100)), ChartPoint(2, 1, Fraction(19965, 100))],
        field_size=13,
        labels=ChartLabels("X", "rank and score"),
        format_number=lambda value: f"{float(value):.2f}".replace(".", ","),
    )
    assert '<rect x="74"' in svg


def test_names_are_escaped() -> None:
    labels = ChartLabels("<b>Jan & Piet</b>", "d")
    svg = rank_score_svg([ChartPoint(1, 1, Fraction(1))], field_size=2, labels=labels)
    assert "&lt;b&gt;Jan &amp; Piet&lt;/b&gt;" in svg
    ET.fromstring(svg)
