"""The one written form of exact numbers, and the one way to read it (pure, no database)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.scoring.exact import (
    fraction_from_text,
    fraction_from_typed,
    fraction_to_text,
    is_fraction_text,
    written_decimal,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(7, 100), "0.07"),
        (Fraction(233, 4), "58.25"),
        (Fraction(-23, 10), "-2.3"),
        (Fraction(-1, 2), "-0.5"),
        (Fraction(399, 2), "199.5"),
        (10, "10"),
        (0, "0"),
        (Fraction(1, 3), "1/3"),
        (Fraction(-2, 3), "-2/3"),
        (Fraction(1356, 7), "1356/7"),
        (Fraction(1, 2**20), "0.00000095367431640625"),
    ],
)
def test_the_written_form(value: Fraction | int, text: str) -> None:
    assert fraction_to_text(value) == text
    assert fraction_from_text(text) == value


@pytest.mark.parametrize("text", ["7/100", "0.070", "+3", " 0.07 ", "1/03"])
def test_other_exact_spellings_read_too(text: str) -> None:
    assert fraction_from_text(text) == Fraction(text.strip())


@pytest.mark.parametrize(
    "text",
    ["", "1/0", "1e3", "0,07", "inf", "nan", ".5", "5.", "1/2/3", "1.5/2", "٣", "1_000", "−3"],
)
def test_anything_else_is_refused(text: str) -> None:
    assert not is_fraction_text(text.strip())
    with pytest.raises(ValueError):
        fraction_from_text(text)


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("0,07", Fraction(7, 100)),
        ("0.07", Fraction(7, 100)),
        ("7/100", Fraction(7, 100)),
        (" 7 / 100 ", Fraction(7, 100)),
        ("\N{MINUS SIGN}3", Fraction(-3)),
        ("-2,5", Fraction(-5, 2)),
    ],
)
def test_what_a_person_types(typed: str, value: Fraction) -> None:
    assert fraction_from_typed(typed) == value


@pytest.mark.parametrize("typed", ["1 2", "1/0", "zeven", "0,0,7", "1,5/2", ""])
def test_what_a_person_types_that_is_no_number(typed: str) -> None:
    with pytest.raises(ValueError):
        fraction_from_typed(typed)


@given(st.fractions())
def test_every_fraction_reads_back_as_itself(value: Fraction) -> None:
    text = fraction_to_text(value)
    assert is_fraction_text(text)
    assert fraction_from_text(text) == value


@pytest.mark.parametrize(
    ("value", "decimal"),
    [
        (Fraction(233, 4), Decimal("58.25")),
        (Fraction(1, 3), Decimal("0.3333333333")),
        (Fraction(2, 3), Decimal("0.6666666667")),
        (Fraction(-2, 3), Decimal("-0.6666666667")),
    ],
)
def test_the_decimal_files_are_written_with(value: Fraction, decimal: Decimal) -> None:
    assert written_decimal(value) == decimal
