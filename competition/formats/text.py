"""File bytes as text, and the limits of the database columns the readers fill.

Every text format (TRF, the KNSB and FIDE TXT lists, the season archive) is read through
:func:`decode_text`: UTF-8 when the bytes are valid UTF-8 (a BOM is allowed), else the
format's own single-byte encoding (Windows-1252). It refuses, naming the line and column:

- UTF-16 (a BOM, or NUL bytes on every second position of the first 4 KiB): what a
  spreadsheet's "Unicode text" export produces;
- any other file holding a control character other than tab, line feed, carriage return and
  form feed, wherever it is: a binary file (a zip, an image) or text a database cannot store
  (PostgreSQL refuses NUL characters);
- a byte that is text in neither encoding.

The limits below are those of the columns in ``competition/models/`` (a service test keeps
them equal), so a reader can refuse a value the database cannot hold with its line and column
instead of letting the database fail on it.
"""

from __future__ import annotations

import re

from competition.formats.errors import FormatError, Term
from competition.scoring.text import gettext_noop

SMALL = 32767  # PositiveSmallIntegerField: ratings, birth years, round numbers
INT = 2147483647  # PositiveIntegerField
BIG = 9223372036854775807  # PositiveBigIntegerField: FIDE IDs
RELATIENUMMER_LENGTH = 12  # Member.knsb_id
NAME_LENGTH = 120  # Member.name

_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_CONTROL_TEXT = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _location(data: bytes, index: int) -> tuple[int, int]:
    """1-based line and column (in characters, as far as they can be told) of byte ``index``."""
    line_start = data.rfind(b"\n", 0, index) + 1
    column = len(data[line_start:index].decode("utf-8", errors="replace")) + 1
    return data.count(b"\n", 0, index) + 1, column


def _is_utf16(data: bytes) -> bool:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    head = data[:4096]
    nul_positions = [index for index, byte in enumerate(head) if byte == 0]
    if len(nul_positions) < max(2, len(head) // 4):
        return False
    even = sum(1 for index in nul_positions if index % 2 == 0)
    return max(even, len(nul_positions) - even) >= 0.9 * len(nul_positions)


def decode_text(data: bytes, *, save_as: str, fallback: str = "cp1252") -> str:
    """``data`` as text (see the module docstring); ``save_as`` (marked with ``gettext_noop``)
    ends the UTF-16 message.

    >>> decode_text("Tiebreak café".encode("cp1252"), save_as="UTF-8 text")
    'Tiebreak café'
    >>> decode_text(b"PK\\x03\\x04...", save_as="UTF-8 text")
    Traceback (most recent call last):
    ...
    competition.formats.errors.FormatError: line 1, column 3: not a text file: it contains \
the control character U+0003
    """
    if _is_utf16(data):
        raise FormatError(
            gettext_noop("the file is UTF-16; save it as %(save_as)s"),
            {"save_as": Term(save_as)},
            line=1,
        )
    data = data.removeprefix(b"\xef\xbb\xbf")
    control = _CONTROL.search(data)
    if control is not None:
        line, column = _location(data, control.start())
        raise FormatError(
            gettext_noop("not a text file: it contains the control character %(code)s"),
            {"code": f"U+{control.group()[0]:04X}"},
            line=line,
            column=column,
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode(fallback)
    except UnicodeDecodeError as error:
        line, column = _location(data, error.start)
        raise FormatError(
            gettext_noop("byte %(byte)s is neither UTF-8 nor Windows-1252 text"),
            {"byte": f"0x{data[error.start]:02x}"},
            line=line,
            column=column,
        ) from None
