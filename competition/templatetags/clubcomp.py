"""Template filters for exact numbers: shown as users expect in their language (58,25 in Dutch)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy

from competition.exact import fraction_from_text, fraction_to_decimal, is_terminating

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


# Words and symbols for the public pages -------------------------------------------------------

_ENTRY_SHORT = {
    "bye": gettext_lazy("bye"),
    "absent_notice": gettext_lazy("abs."),
    "absent_no_notice": gettext_lazy("abs.!"),
    "club_duty": gettext_lazy("club"),
    "not_paired": "–",
}
_ENTRY_LONG = {
    "bye": gettext_lazy("bye"),
    "absent_notice": gettext_lazy("absent with notice"),
    "absent_no_notice": gettext_lazy("absent without notice"),
    "club_duty": gettext_lazy("club duty"),
    "not_paired": gettext_lazy("not paired"),
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
_NOTES = {
    "start points": gettext_lazy("start points"),
    "forfeit": gettext_lazy("forfeit"),
    "dummy opponent": gettext_lazy("dummy opponent"),
    "score after this round": gettext_lazy("score after this round"),
    "opponent scored less than half the maximum": gettext_lazy(
        "opponent scored less than half the maximum"
    ),
    "rating, averaged": gettext_lazy("rating, averaged"),
    "unrated opponent, left out": gettext_lazy("unrated opponent, left out"),
    "opponent's Buchholz, averaged": gettext_lazy("opponent's Buchholz, averaged"),
    # The tie-breaks' notes on unplayed rounds and cuts (scoring.unplayed, scoring.tiebreaks).
    "pairing-allocated bye (C.07 16.2.1)": gettext_lazy("pairing-allocated bye (C.07 16.2.1)"),
    "forfeit win (C.07 16.2.2)": gettext_lazy("forfeit win (C.07 16.2.2)"),
    "requested bye (C.07 16.2.3)": gettext_lazy("requested bye (C.07 16.2.3)"),
    "forfeit loss (C.07 16.2.4)": gettext_lazy("forfeit loss (C.07 16.2.4)"),
    "requested bye, not followed by a game (C.07 16.2.5)": gettext_lazy(
        "requested bye, not followed by a game (C.07 16.2.5)"
    ),
    "absent without a request (voluntary unplayed round)": gettext_lazy(
        "absent without a request (voluntary unplayed round)"
    ),
    "game without a result": gettext_lazy("game without a result"),
    "dummy opponent, capped at the scheduled opponent's score (16.4.1)": gettext_lazy(
        "dummy opponent, capped at the scheduled opponent's score (16.4.1)"
    ),
    "dummy opponent, capped at a draw per round (16.4.2)": gettext_lazy(
        "dummy opponent, capped at a draw per round (16.4.2)"
    ),
    "dummy opponent with the participant's own score (16.4)": gettext_lazy(
        "dummy opponent with the participant's own score (16.4)"
    ),
    "cut: lowest": gettext_lazy("cut: lowest"),
    "cut: highest": gettext_lazy("cut: highest"),
    "cut: lowest-scored opponent": gettext_lazy("cut: lowest-scored opponent"),
    "cut: lowest voluntary unplayed round (C.07 16.5.1)": gettext_lazy(
        "cut: lowest voluntary unplayed round (C.07 16.5.1)"
    ),
}


@register.filter
def entry_short(kind: str) -> str:
    """A round without a game as the wallchart abbreviates it ("bye", "abs.")."""
    return str(_ENTRY_SHORT.get(kind, kind))


@register.filter
def entry_name(kind: str) -> str:
    return str(_ENTRY_LONG.get(str(kind), kind))


@register.filter
def result_text(code: str) -> str:
    """A stored result code as a reader writes it: "1/2" is "½-½", "+-" is "1-0 r" (forfeit)."""
    return _RESULTS.get(str(code), str(code))


@register.filter
def colour_name(code: str) -> str:
    return str(_COLOURS.get(code, ""))


@register.filter
def note_text(note: str) -> str:
    """An engine note in the reader's language where we know it; unknown notes stay as written.

    The engine joins notes with "; " ("forfeit loss (C.07 16.2.4); cut: lowest"), so each
    part is looked up on its own.
    """
    if not note:
        return ""
    if "; " in note:
        return "; ".join(_note_part(part) for part in note.split("; "))
    return _note_part(note)


def _note_part(note: str) -> str:
    known = _NOTES.get(note)
    if known is not None:
        return str(known)
    if note.startswith("rank value set to the points after game "):
        count = note.rsplit(" ", 1)[-1]
        return gettext("rank value set to the points after game %(n)s") % {"n": count}
    return (_ENTRY_LONG.get(note) and str(_ENTRY_LONG[note])) or note


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
    from django.utils.translation import get_language

    from competition.selectors import figure_label

    return figure_label(str(code), get_language() or "nl")


_PARTS = {
    "game_points": gettext_lazy("game points"),
    "unplayed_value": gettext_lazy("for a round without a game"),
    "opponent_score": gettext_lazy("opponent's score"),
    "opponent_points": gettext_lazy("opponent's points"),
    "result": gettext_lazy("result"),
    "round_points": gettext_lazy("points this round"),
}


@register.filter
def part_name(name: str) -> str:
    """The name of an input of an explanation line ("opponent_score") in the reader's words."""
    return str(_PARTS.get(str(name), str(name).replace("_", " ")))
