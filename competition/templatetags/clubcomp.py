"""Template filters: exact numbers in the reader's style (58,25 and 7½ in Dutch; the rules are in
competition/numbers.py) and the words for codes the pure packages emit."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy

from clubcomp import addresses
from competition import clubs, labels, numbers
from competition.exact import is_terminating
from competition.scoring.model import Contribution
from competition.scoring.registry import SYSTEMS

register = template.Library()


@register.filter
def exact_number(value: object, places: int | str | None = None) -> str:
    """A value (a Fraction, or its text as cached) in the active language's style
    (:func:`competition.numbers.number_text`): 58.25 is "58,25" in Dutch; ``places`` fixes the
    decimals (a table column's), else the fewest that show it, at most 2. ``½`` stays a
    decimal here; see ``half`` and ``figure_number``.
    """
    return numbers.number_text(
        value, places=None if places is None or places == "" else int(places)
    )


@register.filter
def half(value: object) -> str:
    """Game points with ½ as the chess world writes them: 7½, ½, 0, 3."""
    return numbers.points_text(value)


@register.filter
def figure_number(value: object, code: str) -> str:
    """A figure by its code: points (game points ``PTS``, internal points ``IP``) with ½, every
    other figure as a value (:mod:`competition.numbers`)."""
    return numbers.figure_text(value, str(code))


@register.filter
def system_score(value: object, system_key: str) -> str:
    """A participant's primary score in the season's system (``"points"``: 7½)."""
    system = SYSTEMS.get(str(system_key))
    return figure_number(value, system.primary if system else "")


@register.filter
def styled_number(value: object, style: str) -> str:
    """A value in its table column's style: ``"points"`` (7½) or a number of decimals, as
    :func:`competition.numbers.column_style` decided it for the whole column."""
    return numbers.styled_text(value, str(style))


@register.filter
def fraction_text(value: object) -> str:
    """A fraction as a rule states it: "0,5" and "1" as numbers (every digit), "1/3" and
    "−2/3" (which no decimal shows exactly) as numerator/denominator.
    """
    number = numbers.as_fraction(value)
    if number is None:
        return ""
    if is_terminating(number):
        return numbers.number_text(number, exact=True)
    sign = numbers.MINUS if number < 0 else ""
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
def choice_name(value: object) -> str:
    """A choice parameter's value in words ("every_n": "after every N games")."""
    return labels.choice_label(value)


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
    return numbers.signed_text(value)


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


@register.simple_tag
def site_url(viewname: str, *args: object) -> str:
    """``{% url %}`` for the site's own pages (the directory of clubs, the API) without the
    club's part of the address, even on a club's page (clubcomp.addresses.site_url)."""
    return addresses.site_url(viewname, args=list(args))


@register.simple_tag
def club_url(club_slug: str, viewname: str, *args: object) -> str:
    """``{% url %}`` of a page of the club ``club_slug`` from any page (a member's own page lists
    the seasons of his clubs): competition.clubs.club_url."""
    return clubs.club_url(club_slug, viewname, args=list(args))
