"""Members report for coming club evenings: "I can't come" (an absence with notice) or a
request for a bye; the TD keeps the calendar of evenings, and with it the number of rounds the
season plans (``Season.planned_rounds``: filled from the calendar, or set by the TD).

A member may report, change and take back his report until the season's deadline on the
evening's day (``Season.absence_deadline``; none: until the TD publishes that evening's
pairing), and never for an evening that has passed. After that only the TD changes attendance,
on the evening's round as always. When the TD has already opened the evening's round, a report
(or taking one back) is recorded on it at once, the way the TD's attendance screen would.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.models import (
    PRESENT,
    AbsenceReport,
    ClubEvening,
    Participant,
    Round,
    RoundEntry,
    Season,
)
from competition.selectors.evenings import evening_round, report_closed_because
from competition.services.chances_queue import chances_request
from competition.services.errors import ServiceError
from competition.services.evening import attendance_record


def _require_not_finished(season: Season) -> None:
    if season.status == Season.Status.FINISHED:
        raise ServiceError(_("This season has finished."))


def _participant_for(evening: ClubEvening, participant: Participant, user: User) -> Participant:
    if participant.season_id != evening.season_id:
        raise ServiceError(_("You do not play in this season."))
    member = participant.member
    if member.user_id != user.pk:
        raise ServiceError(_("You can only report for yourself."))
    return participant


def _apply_to_open_round(
    evening: ClubEvening, participant: Participant, mark: str, user: User
) -> None:
    """Record the report on the evening's round when the TD has opened it already."""
    round = evening_round(evening=evening)
    if round is None or not round.is_planned or round.season.is_round_robin:
        return
    if not participant.takes_part_in(round.number):
        return
    current = (
        RoundEntry.objects.filter(round=round, participant=participant)
        .values_list("kind", flat=True)
        .first()
    )
    if mark == PRESENT and current != RoundEntry.Kind.ABSENT_NOTICE:
        return  # the TD recorded something else meanwhile: his word stands
    if mark != PRESENT and current is not None and current != RoundEntry.Kind.ABSENT_NOTICE:
        return
    attendance_record(round=round, marks={participant.pk: mark}, user=user)


@transaction.atomic
def absence_report(
    *,
    evening: ClubEvening,
    participant: Participant,
    user: User,
    kind: str = AbsenceReport.Kind.ABSENT,
    note: str = "",
    now: datetime.datetime | None = None,
) -> AbsenceReport:
    """The member's report for ``evening``; a second report replaces the first."""
    if kind not in AbsenceReport.Kind.values:
        raise ServiceError(_("Unknown report: %(kind)s.") % {"kind": kind})
    season = Season.objects.select_for_update().get(pk=evening.season_id)
    evening.season = season
    _require_not_finished(season)
    if kind == AbsenceReport.Kind.BYE and not season.requested_byes:
        raise ServiceError(_("This season has no requested byes."))
    _participant_for(evening, participant, user)
    closed = report_closed_because(evening=evening, now=now)
    if closed:
        raise ServiceError(closed)
    note = note.strip()[:200]
    report, _created = AbsenceReport.objects.update_or_create(
        evening=evening,
        participant=participant,
        defaults={
            "kind": kind,
            "note": note,
            "reported_by": user,
            "reported_at": now or timezone.now(),
        },
    )
    mark = RoundEntry.Kind.ABSENT_NOTICE if kind == AbsenceReport.Kind.ABSENT else PRESENT
    _apply_to_open_round(evening, participant, mark, user)
    return report


@transaction.atomic
def absence_withdraw(
    *,
    evening: ClubEvening,
    participant: Participant,
    user: User,
    now: datetime.datetime | None = None,
) -> None:
    """Take the member's report for ``evening`` back (before the deadline)."""
    season = Season.objects.select_for_update().get(pk=evening.season_id)
    evening.season = season
    _require_not_finished(season)
    _participant_for(evening, participant, user)
    closed = report_closed_because(evening=evening, now=now)
    if closed:
        raise ServiceError(closed)
    deleted, _rows = AbsenceReport.objects.filter(evening=evening, participant=participant).delete()
    if not deleted:
        raise ServiceError(_("There is no report to take back."))
    _apply_to_open_round(evening, participant, PRESENT, user)


def _evenings_renumber(season: Season) -> None:
    """Number the season's evenings in date order: an evening with a round on its date has
    that round's number; any other follows the evening before it and every round played
    before its date."""
    played = list(Round.objects.filter(season=season).values_list("date", "number"))
    number = 0
    for evening in ClubEvening.objects.filter(season=season).order_by("date"):
        on_date = [n for day, n in played if day == evening.date]
        if on_date:
            wanted = min(on_date)
        else:
            before = [n for day, n in played if day < evening.date]
            wanted = max([number, *before]) + 1
        number = wanted
        if evening.round_number != wanted:
            ClubEvening.objects.filter(pk=evening.pk).update(round_number=wanted)


# At most this many dates are added at a time: a season of two club evenings a week has about
# 80, so a longer list is a column pasted by mistake (3,000 dates would each become an evening).
EVENINGS_PER_ADD = 100


def calendar_window(
    *, start: datetime.date | None, end: datetime.date | None, today: datetime.date
) -> tuple[datetime.date, datetime.date]:
    """The first and last date a season's club evenings may have: from 1 January of the year
    the season starts (without a start date: of last year) to 31 December of the year after it
    starts, of the year it ends or of next year, whichever is latest. A date far outside
    (0001-01-01, 9999-12-31) is a typing error, and would be numbered as a round of the season.

    >>> calendar_window(start=datetime.date(2026, 9, 3), end=None, today=datetime.date(2026, 12, 1))
    (datetime.date(2026, 1, 1), datetime.date(2027, 12, 31))
    >>> calendar_window(start=None, end=None, today=datetime.date(2026, 12, 1))
    (datetime.date(2025, 1, 1), datetime.date(2027, 12, 31))
    """
    first_year = start.year if start is not None else today.year - 1
    last_year = max(first_year + 1, today.year + 1, end.year if end is not None else 0)
    return datetime.date(first_year, 1, 1), datetime.date(last_year, 12, 31)


def evening_date_problem(*, season: Season, day: datetime.date) -> str | None:
    """Why ``day`` cannot be a club evening of ``season`` (a sentence without an end), or
    None: it lies outside the season's calendar (:func:`calendar_window`)."""
    first, last = calendar_window(
        start=season.start_date, end=season.end_date, today=timezone.localdate()
    )
    if first <= day <= last:
        return None
    return _("%(date)s lies outside this season's calendar (%(first)s to %(last)s)") % {
        "date": day.isoformat(),
        "first": date_format(first, "j F Y"),
        "last": date_format(last, "j F Y"),
    }


def too_many_evenings() -> str:
    """The refusal of more than :data:`EVENINGS_PER_ADD` dates at a time (no end)."""
    return _("at most %(count)s dates at a time (a season of two evenings a week has about 80)") % {
        "count": EVENINGS_PER_ADD
    }


def _planned_rounds_from_calendar(season: Season) -> None:
    """The season plans as many rounds as its calendar: the last evening's planned round
    (kept as it is when the calendar is empty). The chances follow the new calendar."""
    last = ClubEvening.objects.filter(season=season).aggregate(last=Max("round_number"))["last"]
    if last is not None and last != season.planned_rounds:
        Season.objects.filter(pk=season.pk).update(planned_rounds=last)
        season.planned_rounds = last
    chances_request(season=season)


@transaction.atomic
def season_planned_rounds_update(*, season: Season, planned_rounds: int | None) -> Season:
    """How many rounds the season has in all (None: not known; then the calendar or a round
    robin's cycle decides). "Can I still win?" simulates the rounds up to it."""
    if planned_rounds is not None and not 1 <= planned_rounds <= 32767:
        raise ServiceError(_("Planned rounds: give a number from 1, or leave it empty."))
    season = Season.objects.select_for_update().get(pk=season.pk)
    if planned_rounds is not None:
        played = Round.objects.filter(season=season).aggregate(last=Max("number"))["last"] or 0
        if planned_rounds < played:
            raise ServiceError(
                ngettext(
                    "The season already has %(count)d round: plan at least that many.",
                    "The season already has %(count)d rounds: plan at least that many.",
                    played,
                )
                % {"count": played}
            )
    season.planned_rounds = planned_rounds
    season.save(update_fields=["planned_rounds"])
    chances_request(season=season)
    return season


@transaction.atomic
def evenings_add(
    *, season: Season, dates: Iterable[datetime.date], note: str = ""
) -> list[ClubEvening]:
    """Add club evenings on ``dates`` to the calendar (all or nothing; a date already in the
    calendar, a date outside the season's calendar and more than :data:`EVENINGS_PER_ADD`
    dates are refused). Every evening is then numbered in date order after the rounds
    played before it, so an evening added between two others moves the later ones up."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    dates = sorted(set(dates))
    if not dates:
        raise ServiceError(_("Give at least one date."))
    if len(dates) > EVENINGS_PER_ADD:
        raise ServiceError(
            _("%(problem)s; nothing was saved.") % {"problem": capfirst(too_many_evenings())}
        )
    for day in dates:
        problem = evening_date_problem(season=season, day=day)
        if problem is not None:
            raise ServiceError(_("%(problem)s; nothing was saved.") % {"problem": problem})
    existing = set(ClubEvening.objects.filter(season=season).values_list("date", flat=True))
    clash = [day for day in dates if day in existing]
    if clash:
        raise ServiceError(
            _("Already in the calendar: %(dates)s.")
            % {"dates": ", ".join(date_format(day, "SHORT_DATE_FORMAT") for day in clash)}
        )
    note = note.strip()[:200]
    try:
        with transaction.atomic():
            created = [
                ClubEvening.objects.create(season=season, date=day, round_number=1, note=note)
                for day in dates
            ]
    except IntegrityError as error:
        raise ServiceError(_("This season already has a club evening on this date.")) from error
    _evenings_renumber(season)
    _planned_rounds_from_calendar(season)
    return list(ClubEvening.objects.filter(pk__in=[e.pk for e in created]).order_by("date"))


@transaction.atomic
def evening_delete(*, evening: ClubEvening) -> None:
    """Take an evening off the calendar; refused while members have reported for it."""
    season = Season.objects.select_for_update().get(pk=evening.season_id)
    reports = AbsenceReport.objects.filter(evening_id=evening.pk).count()
    if reports:
        raise ServiceError(
            ngettext(
                "%(count)d member reported for this evening; it stays in the calendar.",
                "%(count)d members reported for this evening; it stays in the calendar.",
                reports,
            )
            % {"count": reports}
        )
    deleted, _rows = ClubEvening.objects.filter(pk=evening.pk).delete()
    if not deleted:
        raise ServiceError(_("This evening is no longer in the calendar."))
    _evenings_renumber(season)
    _planned_rounds_from_calendar(season)


@transaction.atomic
def season_absence_settings_update(
    *,
    season: Season,
    absence_deadline: datetime.time | None,
    requested_byes: bool,
    evening_start: datetime.time | None,
) -> Season:
    """The season's deadline for reports (a time on the evening's day, or None), whether
    members may ask for a bye, and when its evenings start (None: at the club's time)."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    season.absence_deadline = absence_deadline
    season.requested_byes = requested_byes
    season.evening_start = evening_start
    season.save(update_fields=["absence_deadline", "requested_byes", "evening_start"])
    return season
