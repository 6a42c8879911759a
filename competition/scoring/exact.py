"""Exact numbers as text: the one way fractions are written and read, in the database (rule
parameters, start points, cached standings), archives, the standings fingerprint and the files.

A fraction whose decimal expansion ends is written as that exact decimal (``58.25``, ``-2.3``,
``10``); any other as ``numerator/denominator`` (``1/3``). :func:`fraction_from_text` reads
both, and nothing else; :func:`fraction_from_typed` reads what a person types in a form (a
decimal comma, the pages' minus sign, spaces) by first writing it in that form.

The files people read (the standings JSON, CSV and spreadsheet) want a decimal for every
figure: :func:`written_decimal` gives the exact one where the expansion ends and rounds the
others to :data:`DECIMAL_PLACES` decimals; :func:`exact_json` writes such decimals verbatim.
How a figure is *shown* on a page, in the reader's language, is
:mod:`competition.presentation.numbers`.

>>> fraction_to_text(Fraction(233, 4))
'58.25'
>>> fraction_to_text(Fraction(1, 3))
'1/3'
>>> fraction_from_text("-2.3")
Fraction(-23, 10)
>>> fraction_from_typed("0,07") == fraction_from_text("7/100") == Fraction(7, 100)
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

# A figure without a finite decimal expansion (1/3) is written rounded half away from zero to
# this many decimals in the standings JSON/CSV/XLSX/table; everything else is written exactly.
DECIMAL_PLACES = 10

# The written form: an optional sign, digits, then a decimal part or a denominator (never zero).
_EXACT_TEXT = re.compile(r"[+-]?[0-9]+(/0*[1-9][0-9]*|\.[0-9]+)?")


def is_terminating(value: Fraction) -> bool:
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    return denominator == 1


def fraction_to_decimal(value: Fraction) -> Decimal:
    """The exact Decimal of a terminating fraction (raises ValueError for 1/3 and the like)."""
    if not is_terminating(value):
        raise ValueError(f"{value} has no finite decimal expansion")
    if value.denominator == 1:
        return Decimal(value.numerator)
    digits = 0
    scaled = value
    while scaled.denominator != 1:
        scaled *= 10
        digits += 1
    # Built from text, which is exact: scaleb would round to the context's 28 digits.
    return Decimal(f"{scaled.numerator}e-{digits}")


def fraction_to_text(value: Fraction | int) -> str:
    value = Fraction(value)
    if is_terminating(value):
        return format(fraction_to_decimal(value), "f")
    return f"{value.numerator}/{value.denominator}"


def is_fraction_text(text: str) -> bool:
    """Whether ``text`` is an exact number as written here (``"0.07"``, ``"7/100"``, ``"-3"``):
    words such as a parameter's choices never are."""
    return _EXACT_TEXT.fullmatch(text) is not None


def fraction_from_text(text: str) -> Fraction:
    """The fraction written as ``text`` (surrounding blanks aside); ValueError for anything
    else: ``"1/0"``, ``"1e3"``, ``"0,07"``, ``"inf"``."""
    text = text.strip()
    if not is_fraction_text(text):
        raise ValueError(f"not an exact number: {text!r}")
    return Fraction(text)


def fraction_from_typed(text: str) -> Fraction:
    """A number as a person types it: ``"0,07"``, ``"0.07"``, ``"7 / 100"`` and ``"−3"`` (the
    minus sign the pages show) are read; ValueError for anything else.

    >>> fraction_from_typed("−3"), fraction_from_typed(" 7 / 100 ")
    (Fraction(-3, 1), Fraction(7, 100))
    """
    written = re.sub(r"\s*/\s*", "/", text.replace("\N{MINUS SIGN}", "-").replace(",", "."))
    return fraction_from_text(written)


def written_decimal(value: Fraction | int | Decimal) -> Decimal:
    """The decimal to write for ``value``: exact when it terminates, else rounded.

    >>> written_decimal(Fraction(233, 4))
    Decimal('58.25')
    >>> written_decimal(Fraction(1, 3))
    Decimal('0.3333333333')
    >>> written_decimal(Fraction(2, 3))
    Decimal('0.6666666667')
    """
    value = Fraction(value)
    if is_terminating(value):
        return fraction_to_decimal(value)
    quantum = Decimal(1).scaleb(-DECIMAL_PLACES)
    rounded = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        quantum, rounding=ROUND_HALF_UP
    )
    # Decimal division carries 28 significant digits, enough for 10 decimals below 10^17.
    return rounded.normalize()


def decimal_text(value: Decimal) -> str:
    """A Decimal as plain digits, never in exponent form: ``Decimal("1E+1")`` is ``10``."""
    return format(value, "f")


def exact_json(value: Any, indent: int = 2, _level: int = 0) -> str:
    """JSON text in which every :class:`~decimal.Decimal` is written verbatim as a number.

    ``json`` would turn 58.25 into a float first; here ``Decimal("58.25")`` becomes ``58.25``
    and ``Decimal("10")`` becomes ``10``.

    >>> exact_json({"score": Decimal("58.25"), "ok": True}, indent=0)
    '{"score": 58.25, "ok": true}'
    """
    pad = "\n" + " " * (indent * (_level + 1)) if indent else ""
    end = "\n" + " " * (indent * _level) if indent else ""
    sep = "," if indent else ", "
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        items = [
            f"{pad}{json.dumps(str(key), ensure_ascii=False)}: "
            f"{exact_json(item, indent, _level + 1)}"
            for key, item in value.items()
        ]
        return "{" + sep.join(items) + end + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        items = [f"{pad}{exact_json(item, indent, _level + 1)}" for item in value]
        return "[" + sep.join(items) + end + "]"
    if isinstance(value, Fraction):
        return decimal_text(written_decimal(value))
    if isinstance(value, float):
        raise TypeError("floats are not exact; pass a Decimal or Fraction")
    return json.dumps(value, ensure_ascii=False)
