"""The one error the format readers raise: :class:`FormatError`.

Every reader (TRF, rating lists, season archive) validates its whole input before returning
and raises ``FormatError`` for anything it cannot read. Upload forms catch this one class and
show its message to the user; nothing else escapes a reader.
"""

from __future__ import annotations


class FormatError(ValueError):
    """A file could not be read; the message says where and why.

    ``line`` and ``column`` are 1-based (as in the FIDE TRF specification); ``path`` is a
    JSON path for the season archive (``rounds[3].games[2].white``). The message starts with
    the location:

    >>> str(FormatError("unknown result code 'X'", line=12, column=99))
    "line 12, column 99: unknown result code 'X'"
    >>> str(FormatError("unknown participant 17", path="rounds[3].games[2].white"))
    'rounds[3].games[2].white: unknown participant 17'
    """

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        column: int | None = None,
        path: str | None = None,
    ) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        self.path = path
        super().__init__(self._location() + reason)

    def _location(self) -> str:
        if self.path is not None:
            return f"{self.path}: "
        if self.line is None:
            return ""
        if self.column is None:
            return f"line {self.line}: "
        return f"line {self.line}, column {self.column}: "
