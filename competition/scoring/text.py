"""Marking English texts for translation without importing Django.

The pure packages write their user-facing texts (names, descriptions, notes, error messages,
warnings) in English only and mark each with :func:`gettext_noop`; Django's ``makemessages``
treats that name as a keyword wherever it is defined, so the texts land in the catalogue, and
:mod:`competition.presentation.labels` translates them for the reader.

A text with values is a :class:`Text`: the marked template plus the values that fill it, so it
is translated when it is shown, not when it is made. An error that says such a text is a
:class:`TextError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


def gettext_noop(message: str) -> str:
    """``message`` unchanged; marks it for ``makemessages``.

    >>> gettext_noop("cut: lowest")
    'cut: lowest'
    """
    return message


class Term(str):
    """A value of a text that is an English word marked with ``gettext_noop``: it is
    translated with the text (a number, a code or a name is not)."""

    __slots__ = ()


def fill(template: str, values: Mapping[str, object]) -> str:
    """``template`` with its placeholders filled (a template without values is left as it is,
    so a "%" in it needs no escaping).

    >>> fill("unknown participant %(id)s", {"id": 17})
    'unknown participant 17'
    """
    return template % values if values else template


@dataclass(frozen=True)
class Text:
    """An English template marked with ``gettext_noop`` and its values; ``str()`` gives the
    English text. A value may itself be a :class:`Term` or a :class:`Text` (translated too).

    >>> str(Text("round %(n)s: %(what)s", {"n": 3, "what": Text("no result")}))
    'round 3: no result'
    """

    template: str
    values: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        values = {
            name: str(value) if isinstance(value, Text) else value
            for name, value in self.values.items()
        }
        return fill(self.template, values)


class TextError(ValueError):
    """A ``ValueError`` whose message is a :class:`Text` (``error.text``); ``str(error)`` is the
    English message, :func:`competition.presentation.labels.error_text` the reader's.

    >>> str(TextError("unknown tie-break %(code)s", {"code": "'XYZ'"}))
    "unknown tie-break 'XYZ'"
    """

    def __init__(self, template: str, values: Mapping[str, object] | None = None) -> None:
        self.text = Text(template, dict(values or {}))
        super().__init__(str(self.text))
