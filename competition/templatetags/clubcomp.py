"""Template filters: exact numbers in the reader's style (58,25 and 7½ in Dutch) and the words for
codes the pure packages emit. Each is a thin wrapper: the rules are in the presentation package
(competition/presentation/numbers.py and labels.py), which Python code calls directly."""

from __future__ import annotations

from django import template

from clubcomp import addresses
from competition import clubs
from competition.presentation import labels, numbers
from competition.scoring.model import Contribution

register = template.Library()


@register.filter
def exact_number(value: object, places: int | str | None = None) -> str:
    """A value (a Fraction, or its text as cached) in the active language's style
    (:func:`competition.presentation.numbers.number_text`): 58.25 is "58,25" in Dutch; ``places``
    fixes the decimals (a table column's), else the fewest that show it, at most 2. ``½`` stays a
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
    other figure as a value (:mod:`competition.presentation.numbers`)."""
    return numbers.figure_text(value, str(code))


@register.filter
def system_score(value: object, system_key: str) -> str:
    """A participant's primary score in the season's system (``"points"``: 7½)."""
    return numbers.system_score_text(value, system_key)


@register.filter
def styled_number(value: object, style: str) -> str:
    """A value in its table column's style: ``"points"`` (7½) or a number of decimals, as
    :func:`competition.presentation.numbers.column_style` decided it for the whole column."""
    return numbers.styled_text(value, str(style))


@register.filter
def fraction_text(value: object) -> str:
    """A fraction as a rule states it: "0,5" and "1" as numbers, "1/3" as numerator/denominator
    (:func:`competition.presentation.numbers.fraction_text`)."""
    return numbers.fraction_text(value)


# Words for the codes the pure packages emit (competition/presentation/labels.py) -----------


@register.filter
def entry_short(kind: str) -> str:
    """A round without a game as the wallchart abbreviates it ("bye", "abs.")."""
    return labels.entry_short(kind)


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
    return labels.result_label(code)


@register.filter
def colour_name(code: str) -> str:
    return labels.colour_label(code)


@register.filter
def note_text(note: str | Contribution) -> str:
    """An explanation line's note (pass the line itself when its note has values) in the
    reader's language; see :func:`competition.presentation.labels.note_label`."""
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


@register.filter
def part_name(name: str) -> str:
    """The name of an input of an explanation line ("opponent_score") in the reader's words."""
    return labels.part_label(name)


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
