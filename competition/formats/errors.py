"""The one error the format readers raise: :class:`FormatError`.

Every reader (TRF, rating lists, season archive) validates its whole input before returning
and raises ``FormatError`` for anything it cannot read. Upload forms catch this one class and
show its message to the user; nothing else escapes a reader.

The package imports nothing from Django, so a message is an English template marked with
``gettext_noop`` (``"unknown member %(member)s"``) plus its values (``{"member": 17}``), as the
scoring package's notes are; :func:`competition.presentation.labels.format_error_text` translates it
for the reader. A value that is itself a word to translate (``"start rank"``, ``"a list"``) is a
:class:`Term`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

from competition.scoring.text import Term, fill, gettext_noop

__all__ = ["LINE", "LINE_COLUMN", "FormatError", "Term", "refuse_repeat"]

K = TypeVar("K", bound=Hashable)

# Where a message points to, before the reason ("line 12, column 99: ...").
LINE = gettext_noop("line %(line)s")
LINE_COLUMN = gettext_noop("line %(line)s, column %(column)s")


class FormatError(ValueError):
    """A file could not be read; the message says where and why.

    ``reason`` is an English template marked with ``gettext_noop``, ``values`` fills its
    placeholders. ``line`` and ``column`` are 1-based (as in the FIDE TRF specification);
    ``path`` is a JSON path for the season archive (``rounds[3].games[2].white``). The message
    (in English) starts with the location:

    >>> str(FormatError("unknown result code %(code)s", {"code": "'X'"}, line=12, column=99))
    "line 12, column 99: unknown result code 'X'"
    >>> str(FormatError("unknown participant %(id)s", {"id": 17}, path="rounds[3].games[2].white"))
    'rounds[3].games[2].white: unknown participant 17'
    """

    def __init__(
        self,
        reason: str,
        values: Mapping[str, object] | None = None,
        *,
        line: int | None = None,
        column: int | None = None,
        path: str | None = None,
    ) -> None:
        self.reason = reason
        self.values: dict[str, object] = dict(values or {})
        self.line = line
        self.column = column
        self.path = path
        super().__init__(self.location() + self.fill(reason, self.values))

    @staticmethod
    def fill(template: str, values: Mapping[str, object]) -> str:
        """``template`` with its placeholders filled (a template without values is left as it
        is, so a "%" in it needs no escaping)."""
        return fill(template, values)

    def location(self, line_template: str = LINE, line_column_template: str = LINE_COLUMN) -> str:
        """The location with ": " after it, or "" (the templates are those of the reader's
        language; the English ones by default)."""
        if self.path is not None:
            return f"{self.path}: "
        if self.line is None:
            return ""
        values = {"line": self.line, "column": self.column}
        template = line_template if self.column is None else line_column_template
        return template % values + ": "


def refuse_repeat(
    seen: dict[K, int], key: K, reason: str, name: str, *, line: int, column: int
) -> None:
    """Note that ``key`` (a start rank, a relatienummer, a FIDE ID) stands on ``line``; the
    second time, refuse it: ``reason`` with ``key`` as ``name`` and the first line as ``other``.

    >>> seen: dict[int, int] = {}
    >>> refuse_repeat(seen, 7, "rank %(rank)s again (line %(other)s)", "rank", line=2, column=5)
    >>> refuse_repeat(seen, 7, "rank %(rank)s again (line %(other)s)", "rank", line=4, column=5)
    Traceback (most recent call last):
    ...
    competition.formats.errors.FormatError: line 4, column 5: rank 7 again (line 2)
    """
    if key in seen:
        raise FormatError(reason, {name: key, "other": seen[key]}, line=line, column=column)
    seen[key] = line
