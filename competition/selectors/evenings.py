"""Which evening is which round: the one answer every page and the calendar feed give.

A round is tied to its date. An evening of the calendar with a round on its date is that round
(the lowest number, when a rapid evening plays several); a past evening without one had no
round; a round on a date outside the calendar is an evening of its own; today's and coming
evenings without a round get the numbers still to come, counted on from the rounds before them.

>>> from types import SimpleNamespace as Row
>>> day = datetime.date
>>> calendar = [Row(date=day(2026, 11, d)) for d in (19, 26)] + [Row(date=day(2026, 12, 3)),
...     Row(date=day(2026, 12, 10))]
>>> played = [Row(date=day(2026, 11, 12), number=10), Row(date=day(2026, 12, 1), number=11),
...     Row(date=day(2026, 12, 3), number=12)]
>>> [(e.date.isoformat(), e.number, e.evening is not None)
...  for e in evenings_with_rounds(evenings=calendar, rounds=played, today=day(2026, 12, 3))]
... # doctest: +NORMALIZE_WHITESPACE
[('2026-11-12', 10, False), ('2026-11-19', None, True), ('2026-11-26', None, True),
 ('2026-12-01', 11, False), ('2026-12-03', 12, True), ('2026-12-10', 13, True)]

A rapid evening of three rounds is its first round; the next evening comes after the third:

>>> rapid = [Row(date=day(2026, 11, 12), number=n) for n in (1, 2, 3)]
>>> [(e.date.isoformat(), e.number) for e in evenings_with_rounds(
...     evenings=[Row(date=day(2026, 11, 12)), Row(date=day(2026, 11, 19))], rounds=rapid,
...     today=day(2026, 11, 13))]
[('2026-11-12', 1), ('2026-11-19', 4)]

The TD's calendar of a season's evenings (with the reports on each) is read here too.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from competition.models import Club, ClubEvening, Round, Season
from competition.selectors.absences import ReportLine, _report_line, _reports


@dataclass(frozen=True)
class SeasonEvening:
    """An evening of a season: on the calendar, or a round played off it (``evening`` None)."""

    date: datetime.date
    evening: Any  # the ClubEvening, None for a round on a date outside the calendar
    round: Any  # the Round played on that date (its lowest number), None before it is opened
    number: int | None  # the evening's round; None: a past evening without a round

    @property
    def no_round(self) -> bool:
        """A past evening of the calendar on which no round was played."""
        return self.number is None

    @property
    def expected(self) -> bool:
        """The number is the round still to come (no round on that date yet)."""
        return self.round is None and self.number is not None


def evenings_with_rounds(
    *, evenings: Iterable[Any], rounds: Iterable[Any], today: datetime.date
) -> list[SeasonEvening]:
    """The calendar's ``evenings`` and the dates of ``rounds`` as one list by date (pure: rows
    with ``date``, and ``number`` for rounds). See the module's docstring."""
    first_round: dict[datetime.date, Any] = {}
    last_number: dict[datetime.date, int] = {}  # a rapid evening plays several rounds
    for played in sorted(rounds, key=lambda r: r.number):
        first_round.setdefault(played.date, played)
        last_number[played.date] = played.number
    on_calendar = {evening.date: evening for evening in evenings}
    result = []
    counted = 0  # the highest round number so far, played or still to come
    for day in sorted(on_calendar.keys() | first_round.keys()):
        played = first_round.get(day)
        if played is not None:
            number: int | None = played.number
        elif day < today:
            number = None
        else:
            number = counted + 1
        # the days come in order: the rounds of earlier days are counted already
        counted = max(counted, last_number.get(day, 0), number or 0)
        result.append(SeasonEvening(day, on_calendar.get(day), played, number))
    return result


def season_evenings(*, season: Season, today: datetime.date) -> list[SeasonEvening]:
    """The season's evenings with their round numbers (two queries)."""
    evenings = list(ClubEvening.objects.filter(season=season).order_by("date"))
    rounds = list(Round.objects.filter(season=season).order_by("number"))
    for evening in evenings:
        evening.season = season  # known already: no query per evening for its season
    for played in rounds:
        played.season = season
    return evenings_with_rounds(evenings=evenings, rounds=rounds, today=today)


def evening_numbers(*, season: Season, today: datetime.date) -> dict[int, int | None]:
    """The round number of each of the season's calendar evenings, by evening id."""
    return {
        line.evening.pk: line.number
        for line in season_evenings(season=season, today=today)
        if line.evening is not None
    }


def club_next_evening(*, club: Club, today: datetime.date) -> SeasonEvening | None:
    """The club's next calendar evening from ``today`` on and its round number,
    with its season as ``line.evening.season`` (three queries)."""
    found = (
        ClubEvening.objects.filter(season__club=club, date__gte=today)
        .select_related("season")
        .order_by("date", "season__name")
        .first()
    )
    if found is None:
        return None
    for line in season_evenings(season=found.season, today=today):
        if line.evening is not None and line.evening.pk == found.pk:
            return line
    return None


def report_deadline(*, evening: ClubEvening) -> datetime.datetime | None:
    """The moment reports for ``evening`` close (local time), or None when only the TD's
    publishing closes them."""
    deadline = evening.season.absence_deadline
    if deadline is None:
        return None
    return timezone.make_aware(datetime.datetime.combine(evening.date, deadline))


def evening_round(*, evening: ClubEvening) -> Round | None:
    """The round played on ``evening``'s date (the first, on a rapid evening), if any."""
    return Round.objects.filter(season=evening.season, date=evening.date).first()


def report_closed_because(
    *, evening: ClubEvening, now: datetime.datetime | None = None
) -> str | None:
    """Why a member can no longer report for ``evening`` (a sentence), or None while he can."""
    now = now or timezone.now()
    if evening.date < timezone.localdate(now):
        return _("This evening has passed.")
    deadline = report_deadline(evening=evening)
    if deadline is not None and now >= deadline:
        return _("Reports for this evening closed at %(time)s; ask the TD.") % {
            "time": date_format(timezone.localtime(deadline), "j F H:i")
        }
    round = evening_round(evening=evening)
    if round is not None and not round.is_planned:
        return _("The pairing for this evening is published; ask the TD.")
    return None


@dataclass(frozen=True)
class CalendarEveningRow:
    evening: ClubEvening
    reports: list[ReportLine]
    round: Round | None  # the round played on that date, once the TD opened it
    number: int | None  # the evening's round (selectors.evenings); None: past, no round


def season_calendar(
    *, season: Season, today: datetime.date | None = None
) -> list[CalendarEveningRow]:
    """The season's club evenings in date order with every report (three queries)."""
    lines = [
        line
        for line in season_evenings(season=season, today=today or timezone.localdate())
        if line.evening is not None
    ]
    by_evening: dict[int, list[ReportLine]] = {line.evening.pk: [] for line in lines}
    for report in _reports(evening__season=season):
        by_evening[report.evening_id].append(_report_line(report))
    return [
        CalendarEveningRow(line.evening, by_evening[line.evening.pk], line.round, line.number)
        for line in lines
    ]


def season_evening(*, season: Season, evening_id: int) -> ClubEvening | None:
    return ClubEvening.objects.filter(season=season, pk=evening_id).first()
