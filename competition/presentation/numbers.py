"""One number style per language: how every figure is written on a page and in a spreadsheet.

Display only; the exact values (and their stored text, :mod:`competition.scoring.exact`) never
change.
Two kinds of figure, decided here and nowhere else (docs/decisions.md, "Numbers"):

- **points** (game points, internal points, a game's score): halves the chess way, the same in
  both languages: ``7½``, ``½``, ``0``, ``3``. A column of points with a value that is not a
  multiple of ½ (a quarter from half-value unplayed games) is written as values instead.
- **values** (SB, Van den Brink points and rank values, Keizer scores, tie-breaks, parameters):
  a decimal with the language's separator (Dutch ``58,25``, English ``58.25``), no thousands
  separator. A table column shows all its values with the same number of decimals, the fewest
  that show every value of the column exactly, at most :data:`MAX_PLACES` (values without a
  finite decimal expansion, 2/3, are rounded half away from zero to that).

The minus sign is the real minus (U+2212, ``−2,3``) on pages and the ASCII hyphen in files a
program reads (CSV): pass ``minus="-"``.

>>> number_text(Fraction(233, 4), language="nl"), number_text(Fraction(233, 4), language="en")
('58,25', '58.25')
>>> points_text(Fraction(15, 2)), points_text(Fraction(1, 2)), points_text(3)
('7½', '½', '3')
>>> column_places([Fraction(97, 2), Fraction(39)])
1
>>> number_text(Fraction(39), places=1, language="nl")
'39,0'
>>> number_text(-Fraction(23, 10), language="nl"), number_text(-Fraction(23, 10), minus="-")
('−2,3', '-2,3')
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.translation import get_language

from competition.scoring.exact import is_terminating
from competition.scoring.registry import SYSTEMS

MINUS = "\N{MINUS SIGN}"
MAX_PLACES = 2
# Figures that are points (counted in games and halves): shown with ½ like game points.
POINT_CODES = frozenset({"PTS", "IP", "points", "game_points"})
_SEPARATORS = {"nl": ",", "en": "."}

Number = Fraction | int | Decimal


def as_fraction(value: object) -> Fraction | None:
    """A Fraction from a Fraction, int, Decimal or exact text (``"58.25"``, ``"1/3"``); None
    for None and ``""``."""
    if isinstance(value, Fraction):  # first: comparing a Fraction with "" is slow
        return value
    if value is None or value == "":
        return None
    if isinstance(value, int | Decimal):
        return Fraction(value)
    return Fraction(str(value).strip())


def decimal_separator(language: str | None = None) -> str:
    """``","`` for Dutch (the default language), ``"."`` for English."""
    language = (language or get_language() or "nl").split("-")[0]
    return _SEPARATORS.get(language, ",")


def decimal_places(value: Number, *, most: int | None = MAX_PLACES) -> int:
    """The decimals that show ``value`` exactly, at most ``most`` (None: no limit; a value
    without a finite decimal expansion, or one of more than 30 decimals, then gets
    :data:`MAX_PLACES`).

    A fraction in lowest terms ends after as many decimals as its denominator has factors 2
    or 5, whichever it has more of, and never when the denominator has another prime factor.

    >>> decimal_places(Fraction(233, 4)), decimal_places(7), decimal_places(Fraction(1, 3))
    (2, 0, 2)
    >>> decimal_places(Fraction(3, 8), most=None), decimal_places(Fraction(1, 3), most=None)
    (3, 2)
    """
    rest = value.denominator if isinstance(value, Fraction) else Fraction(value).denominator
    twos = fives = 0
    while rest % 2 == 0:
        rest //= 2
        twos += 1
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    places = max(twos, fives) if rest == 1 else None  # None: it never ends
    limit = most if most is not None and most <= 30 else 30
    if places is None or places > limit:
        return most if most is not None and most <= 30 else MAX_PLACES
    return places


def column_places(values: Iterable[object]) -> int:
    """The decimals of a column: the most any of its values needs, at most :data:`MAX_PLACES`."""
    places = 0
    for value in values:
        number = as_fraction(value)
        if number is not None:
            places = max(places, decimal_places(number))
            if places == MAX_PLACES:
                break
    return places


def in_halves(values: Iterable[object]) -> bool:
    """Whether every value is a whole number or a half (so ½ can write it)."""
    return all(
        number is None or number.denominator <= 2  # in lowest terms: 1 or 2
        for number in (as_fraction(value) for value in values)
    )


def number_text(
    value: object,
    *,
    places: int | None = None,
    language: str | None = None,
    minus: str = MINUS,
    exact: bool = False,
) -> str:
    """A value as a decimal in the language's style: ``places`` decimals (None: the fewest that
    show it, at most :data:`MAX_PLACES`, or all of them with ``exact`` for a rule's parameter),
    rounded half away from zero for display only; ``""`` for None.

    >>> number_text(Fraction(2, 3), language="en"), number_text(Fraction(3, 8), exact=True)
    ('0.67', '0,375')
    """
    number = as_fraction(value)
    if number is None:
        return ""
    if places is None:
        places = decimal_places(number, most=None if exact else MAX_PLACES)
    magnitude = abs(number)
    quantum = Decimal(1).scaleb(-places)
    rounded = (Decimal(magnitude.numerator) / Decimal(magnitude.denominator)).quantize(
        quantum, rounding=ROUND_HALF_UP
    )
    text = format(rounded, "f")
    if places:
        text = text.replace(".", decimal_separator(language))
    return f"{minus}{text}" if number < 0 and rounded != 0 else text


def points_text(value: object, *, language: str | None = None, minus: str = MINUS) -> str:
    """Points the chess way: ``7½``, ``½``, ``−½``, ``3``; a value that is no multiple of ½
    as a value (``7,25``)."""
    number = as_fraction(value)
    if number is None:
        return ""
    if (number * 2).denominator != 1:
        return number_text(number, language=language, minus=minus)
    whole, rest = divmod(abs(number), 1)
    sign = minus if number < 0 else ""
    if rest == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}½" if whole else f"{sign}½"


def signed_text(value: object, *, places: int | None = None, language: str | None = None) -> str:
    """A change with its sign: ``+3,7``, ``−2,3``, ``0``."""
    number = as_fraction(value)
    if number is None:
        return ""
    text = number_text(number, places=places, language=language)
    return f"+{text}" if number > 0 else text


def is_points(code: str) -> bool:
    """Whether the figure with this code is points (written with ½)."""
    return code in POINT_CODES


def figure_text(value: object, code: str, *, language: str | None = None) -> str:
    """A figure by its code: points (game points ``PTS``, internal points ``IP``) with ½, every
    other figure as a value.

    >>> figure_text(Fraction(15, 2), "PTS", language="nl")
    '7½'
    >>> figure_text(Fraction(233, 4), "SB", language="nl")
    '58,25'
    """
    if is_points(code):
        return points_text(value, language=language)
    return number_text(value, language=language)


def system_score_text(value: object, system_key: str, *, language: str | None = None) -> str:
    """A participant's primary score in the season's system (``"points"``: 7½)."""
    system = SYSTEMS.get(str(system_key))
    return figure_text(value, system.primary if system else "", language=language)


def fraction_text(value: object, *, language: str | None = None) -> str:
    """A fraction as a rule states it: "0,5" and "1" as numbers (every digit), "1/3" and
    "−2/3" (which no decimal shows exactly) as numerator/denominator.
    """
    number = as_fraction(value)
    if number is None:
        return ""
    if is_terminating(number):
        return number_text(number, exact=True, language=language)
    sign = MINUS if number < 0 else ""
    return f"{sign}{abs(number.numerator)}/{number.denominator}"


def column_style(values: Iterable[object], *, points: bool = False) -> str:
    """A column's style as text for a template (``{{ value|styled_number:style }}``):
    ``"points"`` or its number of decimals (``"2"``); see :func:`column_format`.

    >>> column_style([Fraction(15, 2), 3], points=True), column_style([Fraction(191, 2), 48])
    ('points', '1')
    """
    values = list(values)
    if points and in_halves(values):
        return "points"
    return str(column_places(values))


def styled_text(value: object, style: str, *, language: str | None = None) -> str:
    """``value`` in a column's style (:func:`column_style`)."""
    if style == "points":
        return points_text(value, language=language)
    return number_text(value, places=int(style) if style else None, language=language)


def column_format(
    values: Iterable[object],
    *,
    points: bool = False,
    language: str | None = None,
    signed: bool = False,
) -> Callable[[object], str]:
    """How one column of a table writes its values: points with ½ when ``points`` and every
    value is a whole or a half; else values with the column's decimals. ``signed``: a change,
    written with its sign (``+½``, ``+3,70``, ``−2,30``, ``0``).

    >>> write = column_format([Fraction(97, 2), 39], language="nl")
    >>> write(39), write(Fraction(97, 2))
    ('39,0', '48,5')
    >>> column_format([Fraction(15, 2), 3], points=True)(Fraction(15, 2))
    '7½'
    >>> change = column_format([Fraction(1, 2), -1], points=True, signed=True)
    >>> change(Fraction(1, 2)), change(-1), change(0)
    ('+½', '−1', '0')
    """
    values = list(values)
    write: Callable[[object], str]
    if points and in_halves(values):
        write = functools.partial(points_text, language=language)
    else:
        write = functools.partial(number_text, places=column_places(values), language=language)
    if not signed:
        return write

    def with_sign(value: object) -> str:
        number = as_fraction(value)
        return f"+{write(value)}" if number is not None and number > 0 else write(value)

    return with_sign


NO_BREAK_SPACE = "\N{NO-BREAK SPACE}"


def chance_text(
    count: Number | float,
    simulations: int,
    *,
    impossible: bool = False,
    certain: bool = False,
    language: str | None = None,
) -> str:
    """An estimated chance, ``count`` of ``simulations``, as a percentage with one decimal:
    written 0 % or 100 % only when that is certain (``impossible``, ``certain``), else a
    share too small to show is "< 0,1 %" and one too close to all "> 99,9 %".

    >>> chance_text(1, 3, language="nl"), chance_text(0, 1000, language="en")
    ('33,3\\xa0%', '<\\xa00.1\\xa0%')
    >>> chance_text(0, 1000, impossible=True), chance_text(1000, 1000)
    ('0\\xa0%', '>\\xa099,9\\xa0%')
    """
    space = NO_BREAK_SPACE

    def percent(value: Fraction) -> str:
        return f"{number_text(value, places=1, language=language)}{space}%"

    if impossible:
        return f"0{space}%"
    if certain:
        return f"100{space}%"
    share = 100 * Fraction(count) / simulations if simulations else Fraction(0)
    if share < Fraction(1, 20):  # it would be written 0,0 %
        return f"<{space}{percent(Fraction(1, 10))}"
    if share >= Fraction(1999, 20):  # it would be written 100,0 %
        return f">{space}{percent(Fraction(999, 10))}"
    return percent(share)
