"""iCalendar text (RFC 5545) for a member's private calendar of club evenings.

Pure Python: the selectors give plain :class:`CalendarEvent` values; :func:`calendar_text`
writes them out. Text values are escaped (RFC 5545 3.3.11) and every content line is folded
at 75 octets (3.1), never inside a UTF-8 character; lines end in CRLF.

>>> event = CalendarEvent(
...     uid="evening-7@clubcomp",
...     day=datetime.date(2027, 1, 14),
...     summary="Interne, round 5",
...     description="Board 3, white, against Anna V.",
... )
>>> text = calendar_text([event], name="Interne", stamp=datetime.datetime(2027, 1, 1, 12))
>>> "DTSTART;VALUE=DATE:20270114" in text.split("\\r\\n")
True
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

PRODUCT_ID = "-//clubcomp//club evenings//EN"
LINE_OCTETS = 75  # RFC 5545 3.1: lines SHOULD NOT be longer than 75 octets, CRLF excluded


@dataclass(frozen=True)
class CalendarEvent:
    """One club evening: all day (``start`` None) or from ``start`` for ``duration``.

    ``start`` must be timezone-aware (it is written in UTC).
    """

    uid: str
    day: datetime.date
    summary: str
    description: str = ""
    start: datetime.datetime | None = None
    duration: datetime.timedelta = datetime.timedelta(hours=3)


def escape_text(value: str) -> str:
    r"""A TEXT value (RFC 5545 3.3.11): backslash, semicolon and comma escaped, line breaks
    as ``\n``.

    >>> escape_text("Board 1; white, vs. A\\B\nsecond line")
    'Board 1\\; white\\, vs. A\\\\B\\nsecond line'
    """
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    return value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold_line(line: str) -> str:
    """``line`` folded into pieces of at most 75 octets (UTF-8), joined by CRLF and a space.

    A continuation starts with one space, which counts towards its 75 octets.

    >>> fold_line("A" * 80).split("\\r\\n ")[1]
    'AAAAA'
    """
    pieces: list[str] = []
    current = ""
    size = 0
    limit = LINE_OCTETS
    for char in line:
        octets = len(char.encode("utf-8"))
        if size + octets > limit:
            pieces.append(current)
            current, size = "", 0
            limit = LINE_OCTETS - 1  # the leading space of a continuation line
        current += char
        size += octets
    pieces.append(current)
    return "\r\n ".join(pieces)


def _utc(moment: datetime.datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("a calendar time must be timezone-aware")
    return moment.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def _event_lines(event: CalendarEvent, stamp: str) -> list[str]:
    lines = ["BEGIN:VEVENT", f"UID:{escape_text(event.uid)}", f"DTSTAMP:{stamp}"]
    if event.start is None:
        following = event.day + datetime.timedelta(days=1)
        lines += [
            f"DTSTART;VALUE=DATE:{event.day:%Y%m%d}",
            f"DTEND;VALUE=DATE:{following:%Y%m%d}",
        ]
    else:
        lines += [f"DTSTART:{_utc(event.start)}", f"DTEND:{_utc(event.start + event.duration)}"]
    lines.append(f"SUMMARY:{escape_text(event.summary)}")
    if event.description:
        lines.append(f"DESCRIPTION:{escape_text(event.description)}")
    lines.append("TRANSP:TRANSPARENT" if event.start is None else "TRANSP:OPAQUE")
    lines.append("END:VEVENT")
    return lines


def calendar_text(events: Iterable[CalendarEvent], *, name: str, stamp: datetime.datetime) -> str:
    """The whole calendar: a VCALENDAR with one VEVENT per event, CRLF line ends, folded.

    ``stamp`` (timezone-aware, or naive meaning UTC) is every event's DTSTAMP.
    """
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=datetime.UTC)
    written = _utc(stamp)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODUCT_ID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for event in events:
        lines += _event_lines(event, written)
    lines.append("END:VCALENDAR")
    return "".join(fold_line(line) + "\r\n" for line in lines)
