"""Reads of member accounts: the TD's members page (who has an account, who is invited)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone

from competition.models import Club, Invitation, Member, Participant, Round, Season


@dataclass(frozen=True)
class MemberAccountRow:
    member: Member
    start_rank: int | None
    username: str  # "" without an account
    invited_at: datetime.datetime | None  # the open invitation, if any
    invited_until: datetime.datetime | None
    invited_email: str
    withdrawn_from_round: int | None = None
    withdrawal_note: str = ""

    @property
    def status(self) -> str:
        """``account``, ``invited`` or ``none``."""
        if self.username:
            return "account"
        return "invited" if self.invited_until is not None else "none"


def season_member_accounts(
    *, season: Season, now: datetime.datetime | None = None
) -> list[MemberAccountRow]:
    """The season's participants with their account status, in start order (three queries)."""
    now = now or timezone.now()
    participants = list(
        Participant.objects.filter(season=season)
        .select_related("member__user")
        .order_by("start_rank", "member__name")
    )
    open_invitations: dict[int, Invitation] = {}
    for open_invitation in Invitation.objects.filter(
        member__in=[p.member_id for p in participants], used_at__isnull=True, expires_at__gt=now
    ).order_by("created_at"):
        open_invitations[open_invitation.member_id] = open_invitation  # the latest wins
    rows = []
    for participant in participants:
        member = participant.member
        invitation = open_invitations.get(member.pk)
        rows.append(
            MemberAccountRow(
                member=member,
                start_rank=participant.start_rank,
                username=member.user.get_username() if member.user else "",
                invited_at=invitation.created_at if invitation else None,
                invited_until=invitation.expires_at if invitation else None,
                invited_email=invitation.email if invitation else "",
                withdrawn_from_round=participant.withdrawn_from_round,
                withdrawal_note=participant.withdrawal_note,
            )
        )
    return rows


def first_round_not_completed(*, season: Season) -> int:
    """The round a withdrawal made now starts from: the first round not yet completed (one
    query)."""
    numbers = list(
        Round.objects.filter(season=season).order_by("number").values_list("number", "status")
    )
    for number, status in numbers:
        if status != Round.Status.COMPLETED:
            return number
    return (numbers[-1][0] if numbers else 0) + 1


def club_accounts(*, club: Club) -> dict[int, Member]:
    """The club's members who have an account, by account id, in name order."""
    members = Member.objects.filter(club=club, user__isnull=False).order_by("name")
    return {m.user_id: m for m in members if m.user_id is not None}


def group_accounts(*, group_id: int | None) -> list[User]:
    """The accounts in the role group ``group_id`` (none without one), by username."""
    if group_id is None:
        return []
    return list(User.objects.filter(groups__pk=group_id).order_by("username"))


def club_seasons(*, club: Club) -> QuerySet[Season]:
    """The club's seasons, the latest first."""
    return Season.objects.filter(club=club).order_by("-start_date", "name")
