"""A participant's rank and score per round as inline SVG, drawn on the server.

Pure Python (no Django): the caller passes the points, the words and a number formatter for the
reader's language, and gets back SVG markup to put into the page. The chart needs no JavaScript;
it carries a ``<title>`` and ``<desc>`` for screen readers, every point has its own ``<title>``
(shown as a tooltip), and the page shows the same figures as a table beside it.

Two panels share the round axis: the rank on top (1 at the top, the field size at the bottom, so
"up" means better) and the score below (from its lowest to its highest value).

>>> svg = rank_score_svg([ChartPoint(1, 3, Fraction(2)), ChartPoint(2, 1, Fraction(5))],
...                      field_size=4, labels=ChartLabels("X", "rank and score"))
>>> svg.startswith("<svg") and "<title" in svg
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape

WIDTH = 640
PANEL_HEIGHT = 150
RIGHT = 16
# Room for the y-axis labels: enough units per character at the phone's larger label size.
LABEL_CHAR_WIDTH = 10
LABEL_PADDING = 14
TOP = 28
GAP = 44
BOTTOM = 34


@dataclass(frozen=True, slots=True)
class ChartPoint:
    round_number: int
    rank: int
    score: Fraction


@dataclass(frozen=True, slots=True)
class ChartLabels:
    title: str
    description: str
    rank: str = "Rank"
    score: str = "Score"
    round: str = "Round"


def _x(round_number: int, first: int, last: int, left: float) -> float:
    span = max(last - first, 1)
    return left + (WIDTH - left - RIGHT) * (round_number - first) / span


def _y(value: float, low: float, high: float, top: float, *, inverted: bool) -> float:
    """Place ``value`` between ``low`` and ``high`` in a panel starting at ``top``."""
    span = (high - low) or 1.0
    share = (value - low) / span
    if not inverted:
        share = 1 - share
    return top + PANEL_HEIGHT * share


def _ticks(low: int, high: int, most: int = 6) -> list[int]:
    """Whole-number ticks from ``low`` to ``high`` with at most about ``most`` of them; round
    multiples of the step in between, none crowding the two ends.

    >>> _ticks(1, 40)
    [1, 10, 20, 30, 40]
    >>> _ticks(1, 4)
    [1, 2, 3, 4]
    >>> _ticks(1, 13)
    [1, 4, 6, 8, 10, 13]
    """
    if high <= low:
        return [low]
    span = high - low
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        step = candidate
        if span / candidate <= most:
            break
    inner = [
        t
        for t in range((low // step + 1) * step, high, step)
        if t - low > step / 2 and high - t > step / 2
    ]
    return [low, *inner, high]


def _panel(parts: list[str], left: float, top: float, heading: str) -> None:
    """A panel's heading and frame."""
    parts.append(
        f'<text x="{left}" y="{top - 10:.1f}" class="chart-heading">{escape(heading)}</text>'
    )
    parts.append(
        f'<rect x="{left}" y="{top}" width="{WIDTH - left - RIGHT}" height="{PANEL_HEIGHT}" '
        'class="chart-frame"/>'
    )


def _y_tick(parts: list[str], left: float, y: float, shown: str) -> None:
    """A grid line across the panels at ``y`` with its label left of the frame."""
    parts.append(
        f'<line x1="{left}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" class="chart-grid"/>'
        f'<text x="{left - 6}" y="{y + 4:.1f}" class="chart-tick" text-anchor="end">'
        f"{escape(shown)}</text>"
    )


def _line(parts: list[str], values: list[tuple[float, float]], css: str, tips: list[str]) -> None:
    """A line through ``values`` with a dot at each, its tooltip the matching ``tips``."""
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in values)
    parts.append(f'<polyline points="{path}" class="chart-line {css}"/>')
    for (x, y), tip in zip(values, tips, strict=True):
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" class="chart-dot {css}">'
            f"<title>{escape(tip)}</title></circle>"
        )


def rank_score_svg(
    points: Sequence[ChartPoint],
    *,
    field_size: int,
    labels: ChartLabels,
    format_number: Callable[[Fraction], str] = lambda value: str(value),
    element_id: str = "chart",
) -> str:
    """The chart as an ``<svg>`` element; an empty string when there is nothing to draw."""
    if not points:
        return ""
    first = points[0].round_number
    last = points[-1].round_number
    rank_top = TOP
    score_top = TOP + PANEL_HEIGHT + GAP
    height = score_top + PANEL_HEIGHT + BOTTOM
    scores = [float(p.score) for p in points]
    low_score, high_score = min(scores), max(scores)
    if low_score == high_score:
        low_score, high_score = low_score - 1, high_score + 1
    worst = max(field_size, max(p.rank for p in points), 2)
    rank_ticks = _ticks(1, worst)
    score_ticks = [
        (value, format_number(Fraction(value).limit_denominator(100)))
        for value in sorted({low_score, (low_score + high_score) / 2, high_score})
    ]
    longest = max(len(str(worst)), *(len(shown) for _value, shown in score_ticks))
    left = LABEL_PADDING + LABEL_CHAR_WIDTH * longest
    title_id, desc_id = f"{element_id}-title", f"{element_id}-desc"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'class="rank-chart" role="img" aria-labelledby="{title_id} {desc_id}" '
        f'id="{escape(element_id)}" preserveAspectRatio="xMidYMid meet">',
        f'<title id="{title_id}">{escape(labels.title)}</title>',
        f'<desc id="{desc_id}">{escape(labels.description)}</desc>',
    ]

    _panel(parts, left, rank_top, labels.rank)
    for tick in rank_ticks:
        _y_tick(parts, left, _y(tick, 1, worst, rank_top, inverted=True), str(tick))
    _panel(parts, left, score_top, labels.score)
    for value, shown in score_ticks:
        _y_tick(parts, left, _y(value, low_score, high_score, score_top, inverted=False), shown)
    for tick in _ticks(first, last, most=10):
        x = _x(tick, first, last, left)
        parts.append(
            f'<text x="{x:.1f}" y="{height - BOTTOM + 18}" class="chart-tick" '
            f'text-anchor="middle">{tick}</text>'
        )
    parts.append(
        f'<text x="{(left + WIDTH - RIGHT) / 2:.1f}" y="{height - 2}" class="chart-tick" '
        f'text-anchor="middle">{escape(labels.round)}</text>'
    )

    _line(
        parts,
        [
            (_x(p.round_number, first, last, left), _y(p.rank, 1, worst, rank_top, inverted=True))
            for p in points
        ],
        "chart-rank",
        [f"{labels.round} {p.round_number}: {labels.rank} {p.rank}" for p in points],
    )
    _line(
        parts,
        [
            (
                _x(p.round_number, first, last, left),
                _y(float(p.score), low_score, high_score, score_top, inverted=False),
            )
            for p in points
        ],
        "chart-score",
        [
            f"{labels.round} {p.round_number}: {labels.score} {format_number(p.score)}"
            for p in points
        ],
    )
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A club rating after one club evening; ``day`` is the evening's date as an ordinal
    (``date.toordinal()``) and ``label`` the date as the page writes it."""

    day: int
    label: str
    rating: int


@dataclass(frozen=True, slots=True)
class RatingChartLabels:
    title: str
    description: str
    rating: str = "Rating"


def rating_svg(
    points: Sequence[RatingPoint],
    *,
    labels: RatingChartLabels,
    year_ticks: Sequence[tuple[int, str]] = (),
    element_id: str = "rating-chart",
) -> str:
    """A member's club rating across the evenings (and seasons) as an ``<svg>`` line: the date
    along the bottom (``year_ticks``: ordinal and text of each 1 January in the range), the
    rating up the side; an empty string when there is nothing to draw.

    >>> svg = rating_svg([RatingPoint(738000, "1-1", 1500), RatingPoint(738007, "8-1", 1512)],
    ...                  labels=RatingChartLabels("X", "club rating"))
    >>> svg.count("<circle"), "1512" in svg
    (2, True)
    """
    if not points:
        return ""
    first, last = points[0].day, points[-1].day
    low = min(p.rating for p in points)
    high = max(p.rating for p in points)
    if high - low < 20:
        low, high = low - 10, high + 10
    ticks = _ticks(low, high)
    left = LABEL_PADDING + LABEL_CHAR_WIDTH * max(len(str(t)) for t in ticks)
    height = TOP + PANEL_HEIGHT + BOTTOM
    title_id, desc_id = f"{element_id}-title", f"{element_id}-desc"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'class="rank-chart rating-chart" role="img" aria-labelledby="{title_id} {desc_id}" '
        f'id="{escape(element_id)}" preserveAspectRatio="xMidYMid meet">',
        f'<title id="{title_id}">{escape(labels.title)}</title>',
        f'<desc id="{desc_id}">{escape(labels.description)}</desc>',
        f'<text x="{left}" y="{TOP - 10:.1f}" class="chart-heading">{escape(labels.rating)}</text>',
        f'<rect x="{left}" y="{TOP}" width="{WIDTH - left - RIGHT}" height="{PANEL_HEIGHT}" '
        'class="chart-frame"/>',
    ]
    for tick in ticks:
        y = _y(tick, low, high, TOP, inverted=False)
        parts.append(
            f'<line x1="{left}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" class="chart-grid"/>'
            f'<text x="{left - 6}" y="{y + 4:.1f}" class="chart-tick" text-anchor="end">'
            f"{tick}</text>"
        )
    for day, text in year_ticks:
        if first <= day <= last:
            x = _x(day, first, last, left)
            parts.append(
                f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{TOP + PANEL_HEIGHT}" '
                f'class="chart-grid"/><text x="{x:.1f}" y="{height - BOTTOM + 18}" '
                f'class="chart-tick" text-anchor="middle">{escape(text)}</text>'
            )
    placed = [
        (_x(p.day, first, last, left), _y(p.rating, low, high, TOP, inverted=False)) for p in points
    ]
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in placed)
    parts.append(f'<polyline points="{path}" class="chart-line chart-score"/>')
    for (x, y), point in zip(placed, points, strict=True):
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" class="chart-dot chart-score">'
            f"<title>{escape(point.label)}: {point.rating}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)
