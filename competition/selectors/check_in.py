"""Reads for members checking in on the club evening: the round a check-in code names, why a
member may not check in (the one rule the service and the pages share), the member's own state
for his page, and the TD's live view of who checked in.

Nothing here names another member to a member: the member's reads give his own state only.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.models import (
    ABSENCE_KINDS,
    PRESENT,
    CheckIn,
    Club,
    Participant,
    Round,
    RoundEntry,
    taking_part_in,
)

# The letters and digits of a check-in code: none that reads as another (0/O, 1/I/L), so a
# code typed from the wall is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def round_by_check_in_code(*, code: str, club: Club | None) -> Round | None:
    """The round whose check-in code is ``code`` (any case), with its season and club; None
    when there is none, or when the address is another club's (``club`` set and not the
    round's)."""
    wanted = code.strip().upper()
    if not wanted or len(wanted) > CODE_LENGTH + 2:
        return None
    found = Round.objects.select_related("season__club").filter(check_in_code=wanted).first()
    if found is None or (club is not None and found.season.club_id != club.pk):
        return None
    return found


def participant_of_user(*, round: Round, user: User) -> Participant | None:
    """The user's own participant in ``round``'s season (None when he plays in it not)."""
    return (
        Participant.objects.select_related("member")
        .filter(season_id=round.season_id, member__user=user)
        .first()
    )


def check_in_refused_because(
    *, round: Round, participant: Participant | None, today: datetime.date | None = None
) -> str | None:
    """Why ``participant`` cannot check in for ``round`` now (a sentence), or None when he may.

    The order is the member's: first whether it is his season at all, then whether tonight's
    window is open.
    """
    if participant is None or participant.season_id != round.season_id:
        return _("You do not play in this season.")
    if not participant.takes_part_in(round.number):
        return _("You do not take part in round %(round)s.") % {"round": round.number}
    if round.is_completed:
        return _("Round %(round)s is closed.") % {"round": round.number}
    if round.is_published:
        return _("The pairing of round %(round)s is published; check-in is over.") % {
            "round": round.number
        }
    if round.date != (today or timezone.localdate()):
        return _("There is no round tonight in %(season)s.") % {"season": round.season.name}
    if not round.check_in_is_open:
        return _("Check-in is closed; tell the tournament director you are here.")
    return None


# --- the member ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MyCheckIn:
    """The member's check-in for one round, as his page and the check-in page show it."""

    round: Round
    participant: Participant | None
    checked_in_at: datetime.datetime | None
    mark: str  # "present" or an absence kind: what the round records for him now
    refused_because: str | None  # why he cannot check in now; None: the button is offered

    @property
    def can_check_in(self) -> bool:
        return self.refused_because is None and self.checked_in_at is None


def my_check_in(*, round: Round, user: User, today: datetime.date | None = None) -> MyCheckIn:
    """The user's own check-in state for ``round`` (three queries)."""
    participant = participant_of_user(round=round, user=user)
    checked_in_at = None
    mark = PRESENT
    if participant is not None:
        checked_in_at = (
            CheckIn.objects.filter(round=round, participant=participant)
            .values_list("checked_in_at", flat=True)
            .first()
        )
        kind = (
            RoundEntry.objects.filter(round=round, participant=participant, kind__in=ABSENCE_KINDS)
            .values_list("kind", flat=True)
            .first()
        )
        mark = kind or PRESENT
    return MyCheckIn(
        round=round,
        participant=participant,
        checked_in_at=checked_in_at,
        mark=mark,
        refused_because=check_in_refused_because(round=round, participant=participant, today=today),
    )


def my_open_check_ins(*, rounds: Iterable[Round], user: User) -> dict[int, MyCheckIn]:
    """The user's check-in state for each of ``rounds`` whose window was ever opened, by round
    id (my page's "tonight" blocks); a round without check-in is left out."""
    return {
        rnd.pk: my_check_in(round=rnd, user=user)
        for rnd in rounds
        if rnd.check_in_opened_at is not None and rnd.is_planned
    }


# --- the TD ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckInRow:
    participant_id: int
    checked_in_at: datetime.datetime
    mark: str  # what the round records for him now (the TD may have overridden the check-in)


@dataclass(frozen=True)
class CheckInState:
    """The round's check-in as the TD's attendance page shows it and polls it."""

    round: Round
    is_open: bool
    code: str | None
    rows: list[CheckInRow]  # in the order they checked in
    marks: dict[int, str]  # every participant's mark now, by participant id

    @property
    def count(self) -> int:
        return len(self.rows)

    def checked_in(self) -> dict[int, datetime.datetime]:
        return {row.participant_id: row.checked_in_at for row in self.rows}


def check_in_state(*, round: Round) -> CheckInState:
    """Who checked in for ``round`` and everyone's mark now (three queries)."""
    absent = dict(
        RoundEntry.objects.filter(round=round, kind__in=ABSENCE_KINDS).values_list(
            "participant_id", "kind"
        )
    )
    ids = Participant.objects.filter(
        taking_part_in(round.number), season_id=round.season_id
    ).values_list("pk", flat=True)
    marks = {pid: absent.get(pid, PRESENT) for pid in ids}
    rows = [
        CheckInRow(pid, at, marks.get(pid, PRESENT))
        for pid, at in CheckIn.objects.filter(round=round)
        .order_by("checked_in_at", "pk")
        .values_list("participant_id", "checked_in_at")
    ]
    return CheckInState(
        round=round,
        is_open=round.check_in_is_open,
        code=round.check_in_code,
        rows=rows,
        marks=marks,
    )
