"""The iCalendar writer (RFC 5545): escaping, folding at 75 octets, the calendar's shape."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.formats.ical import CalendarEvent, calendar_text, escape_text, fold_line

STAMP = datetime.datetime(2027, 1, 1, 12, 0, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("Board 3", "Board 3"),
        ("a;b", "a\\;b"),
        ("a,b", "a\\,b"),
        ("a\\b", "a\\\\b"),
        ("one\ntwo", "one\\ntwo"),
        ("one\r\ntwo", "one\\ntwo"),
        ("Bord 1, wit; tegen A\\B", "Bord 1\\, wit\\; tegen A\\\\B"),
        ("Jürgen ½", "Jürgen ½"),
    ],
)
def test_text_values_are_escaped(text: str, escaped: str) -> None:
    assert escape_text(text) == escaped


def unfold(text: str) -> str:
    return text.replace("\r\n ", "")


def test_a_short_line_is_not_folded() -> None:
    assert fold_line("SUMMARY:Interne") == "SUMMARY:Interne"
    assert fold_line("X" * 75) == "X" * 75


def test_a_long_line_is_folded_at_75_octets() -> None:
    folded = fold_line("X" * 200)
    pieces = folded.split("\r\n")
    assert [len(p.encode()) for p in pieces] == [75, 75, 52]  # 75 + (1 + 74) + (1 + 51)
    assert all(p.startswith(" ") for p in pieces[1:])
    assert unfold(folded) == "X" * 200


def test_folding_never_splits_a_utf8_character() -> None:
    line = "DESCRIPTION:" + "é" * 60  # 12 + 120 octets
    pieces = fold_line(line).split("\r\n")
    assert pieces[0] == "DESCRIPTION:" + "é" * 31  # 74 octets: a 2-octet é does not fit in 75
    for piece in pieces:
        assert len(piece.encode("utf-8")) <= 75
        piece.encode("utf-8").decode("utf-8")  # whole characters only
    assert unfold(fold_line(line)) == line


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=400))
def test_folding_keeps_the_text_and_the_limit(line: str) -> None:
    folded = fold_line(line)
    assert unfold(folded) == line
    assert all(len(piece.encode("utf-8")) <= 75 for piece in folded.split("\r\n"))


def test_the_calendar_has_one_event_per_evening() -> None:
    events = [
        CalendarEvent(
            uid="evening-1@clubcomp",
            day=datetime.date(2027, 1, 14),
            summary="Interne, round 5",
            description="Board 3, white, against Anna V.",
        ),
        CalendarEvent(
            uid="evening-2@clubcomp",
            day=datetime.date(2027, 1, 21),
            summary="Interne, round 6",
            start=datetime.datetime(
                2027, 1, 21, 20, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=1))
            ),
        ),
    ]
    text = calendar_text(events, name="Interne, 2026", stamp=STAMP)
    assert text.endswith("END:VCALENDAR\r\n")
    assert "\n" not in text.replace("\r\n", "")  # every line ends in CRLF
    lines = text.split("\r\n")
    assert lines[:2] == ["BEGIN:VCALENDAR", "VERSION:2.0"]
    assert "X-WR-CALNAME:Interne\\, 2026" in lines
    assert lines.count("BEGIN:VEVENT") == lines.count("END:VEVENT") == 2
    assert lines.count("DTSTAMP:20270101T120000Z") == 2
    # All day: the end is the next day (exclusive).
    assert "DTSTART;VALUE=DATE:20270114" in lines and "DTEND;VALUE=DATE:20270115" in lines
    assert "DESCRIPTION:Board 3\\, white\\, against Anna V." in lines
    # Timed: written in UTC (20:00 at +01:00 is 19:00Z), three hours by default.
    assert "DTSTART:20270121T190000Z" in lines and "DTEND:20270121T220000Z" in lines
    assert "UID:evening-2@clubcomp" in lines


def test_a_naive_time_is_refused() -> None:
    event = CalendarEvent(
        uid="x", day=datetime.date(2027, 1, 1), summary="x", start=datetime.datetime(2027, 1, 1, 20)
    )
    with pytest.raises(ValueError, match="timezone-aware"):
        calendar_text([event], name="x", stamp=STAMP)


def test_a_real_parser_reads_every_event_back() -> None:
    """icalendar (a well-kept RFC 5545 parser) reads the text: the events, their UIDs, times
    and escaped, folded texts come back as written."""
    import icalendar

    amsterdam = datetime.timezone(datetime.timedelta(hours=2))
    events = [
        CalendarEvent(
            uid=f"evening-{n}@club.example.nl",
            day=datetime.date(2027, 4, n),
            summary=f"Interne, ronde {n}",
            description="Bord 3, wit; tegen Jürgen Ä.\nSimultaan " + "lang " * 30,
            start=datetime.datetime(2027, 4, n, 20, 0, tzinfo=amsterdam),
        )
        for n in (1, 8)
    ]
    calendar = icalendar.Calendar.from_ical(calendar_text(events, name="Interne", stamp=STAMP))
    parsed = calendar.walk("VEVENT")
    assert [str(e["UID"]) for e in parsed] == [
        "evening-1@club.example.nl",
        "evening-8@club.example.nl",
    ]
    first = parsed[0]
    assert first.decoded("DTSTART") == datetime.datetime(2027, 4, 1, 18, 0, tzinfo=datetime.UTC)
    assert first.decoded("DTEND") - first.decoded("DTSTART") == datetime.timedelta(hours=3)
    assert str(first["SUMMARY"]) == "Interne, ronde 1"
    assert str(first["DESCRIPTION"]) == events[0].description
