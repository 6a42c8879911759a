"""One number style per language, so a reader sees the same figure written one way everywhere:
``competition/presentation/numbers.py`` decides how every figure is written, the filters and the
standings exports use it.

Worked figures: seed 000's SB example is 58,25 (a value: decimal comma in Dutch, point in
English); game points 7½ (points: ½ in both languages); Van den Brink's compensation −0,07
(0,07 × (199 − 200), the real minus on pages); an SB column holding 48½ and 39 writes both with
one decimal (48,5 and 39,0).
"""

from __future__ import annotations

import csv
import doctest
import io
from decimal import Decimal
from fractions import Fraction

import openpyxl
import pytest
from django.utils import translation

from competition.presentation import numbers
from competition.services.transfer.exports import standings_csv, standings_export
from competition.templatetags.clubcomp import (
    exact_number,
    figure_number,
    fraction_text,
    half,
    signed_number,
    styled_number,
)


def test_the_doctests() -> None:
    # Examples without a language are in the site's default, Dutch, whatever an earlier test
    # in this process left active.
    with translation.override("nl"):
        assert doctest.testmod(numbers).failed == 0


@pytest.mark.parametrize(
    ("value", "places", "dutch", "english"),
    [
        (Fraction(233, 4), None, "58,25", "58.25"),  # seed 000's SB
        (Fraction(97, 2), None, "48,5", "48.5"),
        (Fraction(39), 1, "39,0", "39.0"),  # in a column of tenths
        (Fraction(1913, 10), 2, "191,30", "191.30"),  # in a column of hundredths
        (Fraction(-7, 100), None, "−0,07", "−0.07"),  # 0,07 × (199 − 200)
        (Fraction(2, 3), None, "0,67", "0.67"),  # rounded for display only
        (Fraction(-1, 300), 2, "0,00", "0.00"),  # no minus before a rounded zero
        (Fraction(1234567, 100), None, "12345,67", "12345.67"),  # no thousands separator
        (Fraction(5, 8), None, "0,63", "0.63"),  # half away from zero
    ],
)
def test_values(value: Fraction, places: int | None, dutch: str, english: str) -> None:
    assert numbers.number_text(value, places=places, language="nl") == dutch
    assert numbers.number_text(value, places=places, language="en") == english


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(15, 2), "7½"),
        (Fraction(1, 2), "½"),
        (Fraction(0), "0"),
        (Fraction(3), "3"),
        (Fraction(-1, 2), "−½"),
        (Fraction(29, 4), "7,25"),  # no multiple of ½: a value
    ],
)
def test_points(value: Fraction, text: str) -> None:
    assert numbers.points_text(value, language="nl") == text


def test_a_column_has_one_number_of_decimals() -> None:
    sb = [Fraction(97, 2), Fraction(39), Fraction(0)]
    assert [numbers.column_format(sb, language="nl")(v) for v in sb] == ["48,5", "39,0", "0,0"]
    vdb = [Fraction(1913, 10), Fraction(5237, 25)]  # 191,3 and 209,48
    assert [numbers.column_format(vdb, language="nl")(v) for v in vdb] == ["191,30", "209,48"]
    game_points = [Fraction(15, 2), Fraction(7)]
    write = numbers.column_format(game_points, points=True)
    assert [write(v) for v in game_points] == ["7½", "7"]
    # A quarter among points (half-value unplayed games): the whole column as values.
    quarters = [Fraction(15, 2), Fraction(29, 4)]
    write = numbers.column_format(quarters, points=True, language="nl")
    assert [write(v) for v in quarters] == ["7,50", "7,25"]
    assert numbers.column_style(quarters, points=True) == "2"
    assert numbers.column_style(game_points, points=True) == "points"


def test_the_filters_follow_the_active_language() -> None:
    with translation.override("nl"):
        assert exact_number(Fraction(233, 4)) == "58,25"
        assert exact_number("58.25", "3") == "58,250"
        assert half(Fraction(15, 2)) == "7½"
        assert signed_number(Fraction(37, 10)) == "+3,7"
        assert signed_number(Fraction(-23, 10)) == "−2,3"
        assert fraction_text(Fraction(1, 14)) == "1/14"
        assert fraction_text(Fraction(-3, 8)) == "−0,375"  # a rule's value: every digit
        assert figure_number(Fraction(15, 2), "IP") == "7½"  # internal points are points
        assert figure_number(Fraction(15, 2), "SB") == "7,5"
        assert styled_number(Fraction(39), "1") == "39,0"
        assert styled_number(Fraction(15, 2), "points") == "7½"
    with translation.override("en"):
        assert exact_number(Fraction(233, 4)) == "58.25"
        assert signed_number(Fraction(-23, 10)) == "−2.3"


# --- the exports -------------------------------------------------------------------------------


def _document() -> dict:
    """Two rows: seed 000's SB 58,25 with 7½ game points, and a Van den Brink-like −2,3."""
    row = {"start_number": 1, "games": 10, "eligible": True}
    return {
        "season": "interne",
        "system": "internal-sb",
        "unplayed": "plain",
        "after_round": 10,
        "tiebreaks": [],
        "standings": [
            {
                **row,
                "rank": 1,
                "name": "Anna Ångström",
                "points": Decimal("7.5"),
                "score": Decimal("58.25"),
                "values": {"SB": Decimal("58.25")},
            },
            {
                **row,
                "rank": 2,
                "start_number": 2,
                "name": "=Kees",
                "points": Decimal("7"),
                "score": Decimal("-2.3"),
                "values": {"SB": Decimal("-2.3")},
                "eligible": False,
            },
        ],
    }


def test_the_dutch_csv_opens_in_dutch_excel() -> None:
    content = standings_export(_document(), "csv", language="nl")
    assert content.startswith(b"\xef\xbb\xbf")  # the UTF-8 byte order mark
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["rank", "start_number", "name", "points", "score", "SB", "games", "eligible"]
    assert rows[1] == ["1", "1", "Anna Ångström", "7,5", "58,25", "58,25", "10", "ja"]
    # The minus a spreadsheet reads as a number; the name that looks like a formula neutralised.
    assert rows[2] == ["2", "2", "'=Kees", "7", "-2,3", "-2,3", "10", "nee"]


def test_the_english_csv_and_the_programs_csv() -> None:
    english = standings_export(_document(), "csv", language="en").decode("utf-8")
    assert english.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(english.removeprefix("\ufeff"))))
    assert rows[1] == ["1", "1", "Anna Ångström", "7.5", "58.25", "58.25", "10", "yes"]
    # Without a language: the form docs/commands.md documents for programs (no mark).
    assert standings_csv(_document()).splitlines()[1] == "1,1,Anna Ångström,7.5,58.25,58.25,10,yes"
    dutch = standings_csv(_document(), language="nl")
    assert dutch.startswith("\ufeffrank;") and dutch.splitlines()[1] == (
        "1;1;Anna Ångström;7,5;58,25;58,25;10;ja"
    )


def test_the_xlsx_holds_numbers_as_numbers() -> None:
    content = standings_export(_document(), "xlsx", language="nl")
    sheet = openpyxl.load_workbook(io.BytesIO(content)).active
    score = sheet.cell(row=2, column=5)
    assert score.data_type == "n" and score.value == 58.25
    assert score.number_format == "0.00"  # the column's decimals (58,25 and −2,30)
    assert sheet.cell(row=3, column=5).value == -2.3
    points = sheet.cell(row=2, column=4)
    assert points.data_type == "n" and points.value == 7.5 and points.number_format == "0.0"
    assert sheet.cell(row=2, column=1).data_type == "n"  # the rank
    assert sheet.cell(row=3, column=3).value == "'=Kees"  # text, never a formula
    assert sheet.cell(row=2, column=8).value == "ja"


def _decimal_places_by_multiplying(value, most):
    """The loop ``decimal_places`` replaced: multiply by 10 until the value is whole."""
    number, places = Fraction(value), 0
    while number.denominator != 1:
        if most is not None and places >= most:
            return most
        if places >= 30:
            return numbers.MAX_PLACES
        number *= 10
        places += 1
    return places


def test_decimal_places_from_the_denominator_equal_the_loop_it_replaced() -> None:
    denominators = [1, 2, 3, 4, 5, 7, 8, 10, 16, 20, 25, 40, 64, 100, 125, 1000, 96]
    denominators += [2**29, 2**30, 2**31, 5**31, 10**31, 3 * 2**35]
    values = [Fraction(n, d) for d in denominators for n in (-7, 0, 1, 3, 233, 10**6 + 1)]
    values += [7, Decimal("58.25"), Decimal("1.005")]
    for value in values:
        for most in (None, 0, 1, 2, 3, 5, 29, 30, 31, 40):
            expected = _decimal_places_by_multiplying(value, most)
            assert numbers.decimal_places(value, most=most) == expected, (value, most)
    assert numbers.decimal_places(Fraction(3, 8), most=None) == 3
