"""Exact numbers as text: the one way fractions are written to JSON, caches and archives.

A fraction whose decimal expansion ends is written as that exact decimal (``58.25``, ``-2.3``,
``10``); any other as ``numerator/denominator`` (``1/3``). Reading accepts both.

>>> fraction_to_text(Fraction(233, 4))
'58.25'
>>> fraction_to_text(Fraction(1, 3))
'1/3'
>>> fraction_from_text("-2.3")
Fraction(-23, 10)
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction


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


def fraction_from_text(text: str) -> Fraction:
    return Fraction(text.strip())
