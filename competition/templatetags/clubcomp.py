"""Template filters for exact numbers: shown as users expect in their language (58,25 in Dutch)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy

from competition import labels
from competition.exact import fraction_from_text, fraction_to_decimal, is_terminating
from competition.scoring.model import Contribution

register = template.Library()


def _as_fraction(value: object) -> Fraction | None:
    if value is None or value == "":
        return None
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int | Decimal):
        return Fraction(value)
    return fraction_from_text(str(value))


@register.filter
def exact_number(value: object, places: int | str | None = None) -> str:
    """An exact number (a Fraction, or its text as cached) in the active language's format.

    Terminating values show all their digits (58.25 → "58,25" in Dutch); others are rounded
    to ``places`` (default 2) for display only. ``½`` stays a decimal here; see ``half``.
    """
    number = _as_fraction(value)
    if number is None:
        return ""
    if places is None and is_terminating(number):
        decimal = fraction_to_decimal(number)
        digits = max(0, -decimal.as_tuple().exponent)  # type: ignore[operator]
        return number_format(decimal, decimal_pos=digits, use_l10n=True)
    places = 2 if places is None else int(places)
    rounded = Decimal(number.numerator) / Decimal(number.denominator)
    return number_format(round(rounded, places), decimal_pos=places, use_l10n=True)


@register.filter
def half(value: object) -> str:
    """Game points with ½ as the chess world writes them: 7½, ½, 0, 3."""
    number = _as_fraction(value)
    if number is None:
        return ""
    whole, rest = divmod(number, 1)
    if rest == Fraction(1, 2):
        return "½" if whole == 0 else f"{int(whole)}½"
    if rest == 0:
        return str(int(whole))
    return exact_number(number)


@register.filter
def fraction_text(value: object) -> str:
    """A fraction as a rule states it: "0,5" and "1" as numbers, "1/3" and "−2/3" (which no
    decimal shows exactly) as numerator/denominator.
    """
    number = _as_fraction(value)
    if number is None:
        return ""
    if is_terminating(number):
        return exact_number(number)
    sign = "−" if number < 0 else ""
    return f"{sign}{abs(number.numerator)}/{number.denominator}"


# Words and symbols for the public pages -------------------------------------------------------

_ENTRY_SHORT = {
    "bye": gettext_lazy("bye"),
    "absent_notice": gettext_lazy("abs."),
    "absent_no_notice": gettext_lazy("abs.!"),
    "club_duty": gettext_lazy("club"),
    "not_paired": "–",
}
_RESULTS = {
    "1-0": "1-0",
    "1/2": "½-½",
    "0-1": "0-1",
    "+-": "1-0 r",
    "-+": "0-1 r",
    "--": "0-0 r",
    "": "",
}
_COLOURS = {"w": gettext_lazy("white"), "b": gettext_lazy("black")}


@register.filter
def entry_short(kind: str) -> str:
    """A round without a game as the wallchart abbreviates it ("bye", "abs.")."""
    return str(_ENTRY_SHORT.get(kind, kind))


@register.filter
def entry_name(kind: str) -> str:
    return labels.entry_label(str(kind))


@register.filter
def result_text(code: str) -> str:
    """A stored result code as a reader writes it: "1/2" is "½-½", "+-" is "1-0 r" (forfeit)."""
    return _RESULTS.get(str(code), str(code))


@register.filter
def colour_name(code: str) -> str:
    return str(_COLOURS.get(code, ""))


@register.filter
def note_text(note: str | Contribution) -> str:
    """An explanation line's note (pass the line itself when its note has values) in the
    reader's language; see :func:`competition.labels.note_label`."""
    return labels.note_label(note)


@register.filter
def get_item(mapping: object, key: object) -> object:
    """``mapping[key]`` in a template, or "" when missing."""
    try:
        return mapping[key]  # type: ignore[index]
    except (KeyError, TypeError, IndexError):
        return ""


@register.filter
def signed_number(value: object) -> str:
    """An exact number with its sign: "+3,7", "−2,3", "0"."""
    number = _as_fraction(value)
    if number is None:
        return ""
    text = exact_number(abs(number))
    if number > 0:
        return f"+{text}"
    if number < 0:
        return f"−{text}"
    return text


@register.filter
def figure_name(code: str) -> str:
    """The name of a figure or tie-break code in the active language."""
    return labels.figure_label(str(code))


_PARTS = {
    "game_points": gettext_lazy("game points"),
    "unplayed_value": gettext_lazy("for a round without a game"),
    "opponent_score": gettext_lazy("opponent's score"),
    "opponent_points": gettext_lazy("opponent's points"),
    "result": gettext_lazy("result"),
    "round_points": gettext_lazy("points this round"),
    "own_value": gettext_lazy("own value"),
    "opponent_value": gettext_lazy("opponent's value now"),
    "opponent_value_then": gettext_lazy("opponent's value when played"),
    "fraction": gettext_lazy("fraction"),
    "place": gettext_lazy("place"),
}


@register.filter
def part_name(name: str) -> str:
    """The name of an input of an explanation line ("opponent_score") in the reader's words."""
    return str(_PARTS.get(str(name), str(name).replace("_", " ")))
