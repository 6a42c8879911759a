"""Labels for what the pure packages emit, in the reader's language.

The pure packages speak in codes (``"BH/C1"``, ``"IP"``, ``"absent_notice"``) and in English
texts marked with ``gettext_noop`` (system names and descriptions, parameter descriptions, the
notes of explanation lines, the format readers' error messages). This module is the one place
that turns them into words with Django's gettext; the Dutch texts are in
``locale/nl/LC_MESSAGES/django.po``. Each function takes an optional ``language`` ("nl", "en");
without it the active language is used.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from django.utils.translation import gettext, gettext_lazy, override

from competition.formats.errors import LINE, LINE_COLUMN, FormatError, Term
from competition.scoring.model import Contribution
from competition.scoring.parameters import ParameterSpec
from competition.scoring.registry import FIGURE_NAMES
from competition.scoring.systems.base import RankingSystem
from competition.scoring.text import Text, TextError
from competition.scoring.tiebreaks import TIEBREAK_LABELS

# The kinds of a round without a game (also the notes the systems give such a round).
ENTRY_NAMES = {
    "bye": gettext_lazy("bye"),
    "absent_notice": gettext_lazy("absent with notice"),
    "absent_no_notice": gettext_lazy("absent without notice"),
    "club_duty": gettext_lazy("club duty"),
    "not_paired": gettext_lazy("not paired"),
}

# The values of a system's choice parameters (and its words), as the reader reads them; the
# code stays what is stored and typed in files.
CHOICE_NAMES = {
    "every_n": gettext_lazy("after every N games"),
    "once": gettext_lazy("only after the first N games"),
    "fixed_point": gettext_lazy("until the standings no longer change"),
    "previous_values": gettext_lazy("once, with the values after the previous round"),
    "frozen": gettext_lazy("with the start list's values all season"),
    "result": gettext_lazy("the result"),
    # Van den Brink's external_game
    "none": gettext_lazy("changes nothing"),
    "equal_opponent": gettext_lazy("counts as a game against an opponent of equal rank value"),
    # the internal SB competition's external_game
    "unplayed": gettext_lazy("counts as a round without a game"),
    # Keizer's before_joining
    "nothing": gettext_lazy("count nothing"),
    "absent_with_notice": gettext_lazy("count as absent with notice"),
}

NOTE_SEPARATOR = "; "  # the engine joins the notes of one line with it

# The wallchart's abbreviations of a round without a game.
ENTRY_SHORT = {
    "bye": gettext_lazy("bye"),
    "absent_notice": gettext_lazy("abs."),
    "absent_no_notice": gettext_lazy("abs.!"),
    "club_duty": gettext_lazy("club"),
    "not_paired": "–",
}
# A stored result code as a reader writes it ("r": decided without play).
RESULTS = {
    "1-0": "1-0",
    "1/2": "½-½",
    "0-1": "0-1",
    "+-": "1-0 r",
    "-+": "0-1 r",
    "--": "0-0 r",
    "": "",
}
COLOURS = {"w": gettext_lazy("white"), "b": gettext_lazy("black")}
# The inputs of an explanation line, by the name the systems give them.
PARTS = {
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


@contextmanager
def _language(language: str | None) -> Iterator[None]:
    if language is None:
        yield
    else:
        with override(language):
            yield


def _translated(message: str, language: str | None) -> str:
    if not message:
        return ""  # gettext("") is the catalogue's header
    with _language(language):
        return gettext(message)


def figure_label(code: str, language: str | None = None) -> str:
    """The name of a system's figure or a tie-break code; an unknown code stays as it is.

    Example: "IP" is "Interne punten" in Dutch, "Internal points" in English.
    """
    name = FIGURE_NAMES.get(code) or TIEBREAK_LABELS.get(code)
    return _translated(name, language) if name else code


def system_name(system: RankingSystem, language: str | None = None) -> str:
    return _translated(system.name, language)


def system_description(system: RankingSystem, language: str | None = None) -> str:
    return _translated(system.description, language)


def parameter_label(spec: ParameterSpec, language: str | None = None) -> str:
    """What a system's parameter means, for forms and the how-it-works page."""
    return _translated(spec.description, language)


def choice_label(value: object, language: str | None = None) -> str:
    """A choice parameter's value in words ("every_n": "after every N games"); any other value
    as it is."""
    with _language(language):
        text = str(value)
        return str(CHOICE_NAMES[text]) if text in CHOICE_NAMES else text


def entry_label(kind: str, language: str | None = None) -> str:
    """The name of a kind of round without a game ("absent_notice": "absent with notice")."""
    with _language(language):
        return str(ENTRY_NAMES[kind]) if kind in ENTRY_NAMES else kind


def entry_short(kind: str, language: str | None = None) -> str:
    """A round without a game as the wallchart abbreviates it ("bye", "abs.")."""
    with _language(language):
        return str(ENTRY_SHORT.get(kind, kind))


def result_label(code: str) -> str:
    """A stored result code as a reader writes it: "1/2" is "½-½", "+-" is "1-0 r" (forfeit)."""
    return RESULTS.get(str(code), str(code))


def colour_label(code: str, language: str | None = None) -> str:
    """A colour code ("w", "b") in words; "" for any other."""
    with _language(language):
        return str(COLOURS.get(code, ""))


def part_label(name: str, language: str | None = None) -> str:
    """The name of an input of an explanation line ("opponent_score") in the reader's words."""
    with _language(language):
        return str(PARTS.get(str(name), str(name).replace("_", " ")))


def note_label(
    note: str | Contribution, values: Mapping[str, int] | None = None, language: str | None = None
) -> str:
    """An explanation line's note (or the line itself) in the reader's language.

    A note joins parts with "; " ("forfeit loss (C.07 16.2.4); cut: lowest"): each part is
    translated on its own. Placeholders are filled from ``values`` (a line's ``note_values``):
    "rank value set to the points after game %(n)s" with {"n": 14}. An entry kind gets its name;
    a note nobody translated stays as written.
    """
    if isinstance(note, Contribution):
        values = note.note_values
        text = note.note
    else:
        text = note
    if not text:
        return ""
    with _language(language):
        parts = []
        for part in text.split(NOTE_SEPARATOR):
            if part in ENTRY_NAMES:
                parts.append(str(ENTRY_NAMES[part]))
            else:
                translated = _translated(part, None)
                parts.append(translated % values if values else translated)
        return NOTE_SEPARATOR.join(parts)


def _filled(template: str, values: Mapping[str, object]) -> str:
    """``template`` translated in the active language and filled with ``values``, a
    :class:`Term` or :class:`Text` among them translated too."""
    translated = {
        name: _value_text(value) if isinstance(value, Term | Text) else value
        for name, value in values.items()
    }
    return FormatError.fill(gettext(template) if template else "", translated)


def _value_text(value: Term | Text) -> str:
    if isinstance(value, Text):
        return _filled(value.template, value.values)
    return gettext(value) if value else ""


def text_label(text: Text | str, language: str | None = None) -> str:
    """A text of the pure packages (a warning, an error message) in the reader's language; a
    plain string (already in the reader's language) as it is.

    Example: ``Text("unknown tie-break %(code)s; known codes: %(known)s", {...})`` reads
    "onbekende tiebreak 'XYZ'; bekende codes: ..." in Dutch.
    """
    if not isinstance(text, Text):
        return str(text)
    with _language(language):
        return _filled(text.template, text.values)


def format_error_text(error: FormatError, language: str | None = None) -> str:
    """A format reader's error in the reader's language, its location first.

    Example: ``FormatError("unknown record %(code)s", {"code": "'XXX'"}, line=12, column=1)``
    reads "regel 12, kolom 1: onbekend record 'XXX'" in Dutch. A :class:`Term` or
    :class:`Text` among the values is translated too; a reason nobody translated stays as
    written.
    """
    with _language(language):
        return error.location(gettext(LINE), gettext(LINE_COLUMN)) + _filled(
            error.reason, error.values
        )


def error_text(error: Exception, language: str | None = None) -> str:
    """What a refused import or rule set says to the user: a :class:`FormatError` or a pure
    package's :class:`TextError` (an unknown system, a bad parameter, an unknown tie-break, a
    season the engine cannot score) translated, any other error (a ``ServiceError``, already
    in the reader's language) as it is."""
    if isinstance(error, FormatError):
        return format_error_text(error, language)
    if isinstance(error, TextError):
        return text_label(error.text, language)
    return str(error)
