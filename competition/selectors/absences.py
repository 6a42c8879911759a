"""Reads for the absence reports: a member's report for an evening, as his own page, the TD's
calendar and the TD's attendance screen show them (the TD's pages show full names)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import User

from competition.models import AbsenceReport, ClubEvening, Member, Participant, Round
from competition.selectors.common import user_label


def _reporter(report: AbsenceReport, member: Member) -> str:
    """Who made the report: the member himself, or (a TD) by his label."""
    if report.reported_by is None:
        return "?"
    if report.reported_by_id == member.user_id:
        return member.name
    return user_label(user=report.reported_by)


@dataclass(frozen=True)
class ReportLine:
    """A member's report as the TD sees it."""

    participant_id: int
    name: str
    kind: str  # AbsenceReport.Kind
    kind_label: str
    note: str
    reported_by: str
    reported_at: datetime.datetime

    @property
    def is_bye(self) -> bool:
        return self.kind == AbsenceReport.Kind.BYE


def _report_line(report: AbsenceReport) -> ReportLine:
    member = report.participant.member
    return ReportLine(
        participant_id=report.participant_id,
        name=member.name,
        kind=report.kind,
        kind_label=report.get_kind_display(),
        note=report.note,
        reported_by=_reporter(report, member),
        reported_at=report.reported_at,
    )


def _reports(**filters: object) -> list[AbsenceReport]:
    return list(
        AbsenceReport.objects.filter(**filters)
        .select_related("participant__member", "reported_by")
        .order_by("participant__member__name")
    )


def round_reports(*, round: Round) -> dict[int, ReportLine]:
    """The reports for ``round``'s evening (same date), by participant id (one query)."""
    reports = _reports(evening__season_id=round.season_id, evening__date=round.date)
    return {report.participant_id: _report_line(report) for report in reports}


def evening_for_user(*, user: User, evening_id: int) -> tuple[ClubEvening, Participant | None]:
    """The evening and the user's participant in its season (None when he does not play in
    it). Raises ``ClubEvening.DoesNotExist``."""
    evening = ClubEvening.objects.select_related("season").get(pk=evening_id)
    participant = (
        Participant.objects.filter(season_id=evening.season_id, member__user=user)
        .select_related("member")
        .first()
    )
    return evening, participant
