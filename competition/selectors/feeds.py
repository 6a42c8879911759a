"""Reads for the member's private calendar feed: whose feed a token is, and the feed's events."""

from __future__ import annotations

import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from competition.formats.ical import CalendarEvent
from competition.models import AbsenceReport, Club, ClubEvening, Member, Participant, Round
from competition.selectors.evenings import season_evenings
from competition.selectors.members import MyBoard, _rounds_of


def feed_member(*, token: str) -> Member | None:
    """The member whose calendar address holds ``token`` (an empty token finds nobody)."""
    if not token:
        return None
    return Member.objects.filter(feed_token=token).select_related("club").first()


def feed_participant(*, member: Member, season_slug: str, club: Club | None) -> Participant | None:
    """The member's participant in his club's season ``season_slug``, when ``club`` (the club
    of the address) is the member's: a feed answers under its own club's address only."""
    if club is None or member.club_id != club.pk:
        return None
    return (
        Participant.objects.filter(member=member, season__slug=season_slug, season__club=club)
        .select_related("season__club", "member")
        .first()
    )


def _feed_description(
    evening: ClubEvening | None,
    round: Round | None,
    board: MyBoard | None,
    report: AbsenceReport | None,
) -> str:
    if round is not None and not round.is_planned and board is not None:
        if board.board is not None:
            colour = _("white") if board.colour == "w" else _("black")
            return _("Board %(board)s, %(colour)s, against %(opponent)s") % {
                "board": board.board,
                "colour": colour,
                "opponent": board.opponent,
            }
        return board.entry_label
    if report is not None:
        if report.kind == AbsenceReport.Kind.BYE:
            return _("bye asked for (reported)")
        return _("absent (reported)")
    return evening.note if evening is not None else ""


def feed_events(
    *, participant: Participant, domain: str, today: datetime.date | None = None
) -> list[CalendarEvent]:
    """The season's evenings for the member's calendar: one event per club evening and per
    round played on a date outside the calendar, from the season's start time (its own, else
    the club's) in Dutch time, with his pairing once that evening's round is published, or his
    report. The round numbers are :func:`competition.selectors.evenings.season_evenings`'s: a
    past evening without a round says so. Each event's UID is the evening's (the round's, off
    the calendar), at ``domain`` (the site's host name: RFC 5545 wants UIDs unique across
    sites)."""
    season = participant.season
    starts_at = season.evening_starts_at
    dutch_time = timezone.get_default_timezone()
    today = today or timezone.localdate()
    boards = _rounds_of(participant)
    reports = {r.evening_id: r for r in AbsenceReport.objects.filter(participant=participant)}
    events = []
    for line in season_evenings(season=season, today=today):
        evening, round = line.evening, line.round
        board = boards.get(round.pk) if round is not None else None
        if evening is not None:
            uid = f"evening-{evening.pk}@{domain}"
            note = evening.note
            description = _feed_description(evening, round, board, reports.get(evening.pk))
        else:
            uid = f"round-{round.pk}@{domain}"
            note = ""
            description = _feed_description(None, round, board, None)
        if note and description != note:
            description = f"{description}\n{note}"
        if line.number is None:
            summary = _("%(season)s, no round played") % {"season": season.name}
        else:
            summary = _("%(season)s, round %(round)s") % {
                "season": season.name,
                "round": line.number,
            }
        events.append(
            CalendarEvent(
                uid=uid,
                day=line.date,
                summary=summary,
                description=description,
                start=datetime.datetime.combine(line.date, starts_at, tzinfo=dutch_time),
            )
        )
    return events
