"""The explanation tables' rows built in Python (``competition.views.participant_rows``) are
what the template's loops wrote: ``explanations_before.html`` is ``_explanations.html`` as it was,
with a loop per table, and both are rendered here from the same page, in both languages.

A column of figures now shares one number style (the same decimals, points with ½:
``competition/presentation/numbers.py``, tested in tests/test_numbers.py), which the old per-cell
loops cannot express: the markup, words and escaping are compared here with every number replaced by
``#``.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation

from competition.models import Season
from competition.scoring.model import Contribution
from competition.selectors.participants import ExplanationSection, participant_detail
from competition.views.participant_rows import CellTexts, sections_with_rows
from competition.views.participants import _participant_context

BEFORE = Template(Path(__file__).with_name("explanations_before.html").read_text())
LANGUAGES = ("nl", "en")


NUMBER = re.compile(r"[−+-]?(?:\d[\d.,]*½?|½)")


def without_numbers(html: str) -> str:
    """``html`` with every number (58,25, −2.3, +3, 7½, ½) replaced by ``#``."""
    return NUMBER.sub("#", html)


def _both(context: dict[str, Any], before_data: Any) -> tuple[str, str]:
    new = render_to_string("competition/_explanations.html", context)
    old = BEFORE.render(Context({**context, "data": before_data}))
    return without_numbers(new), without_numbers(old)


def test_rows_equal_the_template_loops_on_the_demo_seasons(demo_club) -> None:
    systems = set()
    checked = 0
    for season in Season.objects.order_by("pk"):
        last = season.snapshots.count()
        for participant_id in season.participants.values_list("pk", flat=True):
            for after_round in sorted({1, (last + 1) // 2, last}):
                page = participant_detail(
                    season=season, participant_id=participant_id, after_round=after_round
                )
                for language in LANGUAGES:
                    with translation.override(language):
                        new, old = _both(_participant_context(season, page), page)
                    assert new == old, (season.slug, participant_id, after_round, language)
                    checked += 1
        systems.add(season.system)
    assert systems == {"internal-sb", "van-den-brink", "keizer", "points"}
    assert checked > 100


def _line(**fields: Any) -> Contribution:
    defaults: dict[str, Any] = {"figure": "BH", "round_number": 3, "amount": Fraction(7, 2)}
    return Contribution(**(defaults | fields))


# Lines the demo seasons do not have: cut lines, notes with values, names to escape, missing
# or textual parts, thirds, negative numbers.
NAMES = {1: "Jan <b>de</b> Vries & Zn.", 2: 'Piet "P" O\'Neil'}
SECTIONS = [
    ExplanationSection(
        "SB",
        Fraction(17, 4),
        [
            _line(
                figure="SB",
                opponent_id=1,
                parts={
                    "opponent_game_points": Fraction(5, 2),
                    "opponent_unplayed_rounds": Fraction(1),
                    "opponent_internal_points": Fraction(3),
                    "score": Fraction(1, 2),
                },
            ),
            _line(figure="SB", opponent_id=99, round_number=12, amount=Fraction(1, 3), parts={}),
        ],
    ),
    ExplanationSection(
        "VDB",
        Fraction(-7, 3),
        [
            _line(figure="VDB", round_number=0, amount=Fraction(12), note="start points"),
            _line(
                figure="VDB",
                opponent_id=2,
                amount=Fraction(-23, 10),
                note="rank value set to the points after game %(n)s",
                note_values={"n": 14},
                parts={
                    "result_part": Fraction(0),
                    "own_rank_value": Fraction(1234567, 100),
                    "opponent_rank_value": Fraction(2, 3),
                    "compensation": Fraction(-23, 10),
                },
            ),
            _line(figure="VDB", opponent_id=1, amount=Fraction(5), parts={"result_part": 5}),
        ],
    ),
    ExplanationSection(
        "KEIZER",
        None,
        [
            _line(
                figure="KEIZER",
                opponent_id=1,
                note="forfeit",
                parts={
                    "opponent_value": Fraction(40),
                    "opponent_value_then": Fraction(39),
                    "own_value": Fraction(35),
                    "fraction": Fraction(-2, 3),
                },
            ),
            _line(figure="KEIZER", round_number=4, note="absent_notice", parts={"fraction": "1/3"}),
            _line(figure="KEIZER", round_number=0, note="club_duty", parts={}),
        ],
    ),
    ExplanationSection(
        "BH",
        Fraction(9),
        [
            _line(opponent_id=1, parts={"opponent_score": Fraction(9, 2)}),
            _line(
                opponent_id=2,
                counted=False,
                note="cut: lowest",
                parts={"opponent_score": Fraction(1, 2), "unplayed_value": Fraction(1, 3)},
            ),
            _line(
                round_number=0,
                counted=False,
                note="cut: lowest; forfeit",
                parts={"some_new_part": "2.50"},
            ),
            _line(opponent_id=2, amount=Fraction(0), parts={}),
        ],
    ),
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("system_key", ["internal-sb", "van-den-brink", "keizer", "points"])
def test_rows_equal_the_template_loops_on_unusual_lines(language: str, system_key: str) -> None:
    data = SimpleNamespace(sections=SECTIONS, names=NAMES)
    labels = {"SB": "SB <label>", "VDB": "VDB", "KEIZER": "Keizer", "BH": "Buchholz"}
    with translation.override(language):
        fast = SimpleNamespace(
            sections=sections_with_rows(SECTIONS, names=NAMES, system_key=system_key),
            names=NAMES,
        )
        context = {"data": fast, "labels": labels, "system_key": system_key}
        new, old = _both(context, data)
    assert new == old
    assert "Jan &lt;b&gt;de&lt;/b&gt; Vries &amp; Zn." in new
    assert new.count("<del>") == 2 or system_key != "points"


def test_each_value_is_formatted_once_per_kind() -> None:
    with translation.override("nl"):
        cells = CellTexts({1: "A & B"})
        assert cells.number(Fraction(1, 2)) == "0,5"
        assert cells.number(Fraction(1, 2)) is cells.number(Fraction(1, 2))
        assert cells.signed(Fraction(1, 2)) == "+0,5"
        assert cells.fraction(Fraction(-1, 3)) == "−1/3"
        assert cells.number(Fraction(1, 3)) == "0,33"
        assert cells.name(1) == "A &amp; B"
        assert cells.name(None) == cells.name(7) == ""
    with translation.override("en"):
        assert CellTexts({}).number(Fraction(1, 2)) == "0.5"
