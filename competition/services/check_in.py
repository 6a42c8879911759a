"""Members check in on the club evening ("Ik ben er"), within a window the TD opens.

The TD opens check-in on tonight's planned round: the round gets a short code (the link and
the QR code on his attendance page) and members tap "I am here" on their phones. A check-in is
for the member himself, for tonight's round of a season he plays in, while the window is open;
a second tap changes nothing. It clears an absence recorded for him (a report "I can't come",
or the TD's mark): he is here. The TD closes the window, and may at once mark everyone who did
not check in (and is still marked present) as absent without notice; then he taps only the few
who came without checking in. The TD's marks stay his to change, check-in or not.

Attendance itself is written by :func:`competition.services.evening.attendance_record`, so a
change discards a draft pairing as the TD's own taps do. Every function is one transaction that
locks the round first; a refusal raises :class:`ServiceError` and changes nothing.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.models import ABSENCE_KINDS, PRESENT, AbsenceReport, CheckIn, Round, RoundEntry
from competition.selectors.check_in import (
    CODE_ALPHABET,
    CODE_LENGTH,
    check_in_refused_because,
    participant_of_user,
)
from competition.selectors.evening import absent_ids, participants_in_round
from competition.services.errors import ServiceError
from competition.services.evening import attendance_record
from competition.services.rounds import round_lock

# Absences a check-in clears. A club duty stays: the TD gave it, and a member on duty in the
# club room is there without playing.
CLEARED_BY_CHECK_IN = (RoundEntry.Kind.ABSENT_NOTICE, RoundEntry.Kind.ABSENT_NO_NOTICE)


def check_in_code_new() -> str:
    """A random code of :data:`CODE_LENGTH` unambiguous characters (``"K7RM2Q"``)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _n in range(CODE_LENGTH))


def _unused_code() -> str:
    # 31**6 codes: a collision is rare, and the unique constraint is the last word.
    for _attempt in range(20):
        code = check_in_code_new()
        if not Round.objects.filter(check_in_code=code).exists():
            return code
    raise ServiceError(_("No free check-in code was found; try again."))


def _require_tonight(round: Round, today: datetime.date) -> None:
    if round.is_completed:
        raise ServiceError(_("Round %(round)s is closed.") % {"round": round.number})
    if round.is_published:
        raise ServiceError(
            _("The pairing of round %(round)s is published; check-in is over.")
            % {"round": round.number}
        )
    if round.season.is_round_robin:
        raise ServiceError(
            _("A round-robin round follows the Berger table; members do not check in.")
        )
    if round.date != today:
        raise ServiceError(
            _("Check-in is for tonight's round; round %(round)s is dated %(date)s.")
            % {"round": round.number, "date": round.date.isoformat()}
        )


@transaction.atomic
def check_in_open(
    *,
    round: Round,
    user: User | None,
    marks: Mapping[int, str] | None = None,
    now: datetime.datetime | None = None,
) -> Round:
    """Open check-in for tonight's planned ``round`` (again, after closing: the same code);
    ``marks`` (the attendance the TD's page posts along) are saved with it."""
    now = now or timezone.now()
    round = round_lock(round.pk)
    _require_tonight(round, timezone.localdate(now))
    if marks:
        attendance_record(round=round, marks=marks, user=user)
    if round.check_in_is_open:
        return round  # a double tap: open it is
    if round.check_in_code is None:
        round.check_in_code = _unused_code()
    round.check_in_opened_at = now
    round.check_in_closed_at = None
    round.save(update_fields=["check_in_code", "check_in_opened_at", "check_in_closed_at"])
    return round


@dataclass(frozen=True)
class CheckInClosed:
    marked_absent: int  # how many were marked absent without notice on closing


@transaction.atomic
def check_in_close(
    *,
    round: Round,
    user: User | None,
    absent_rest: bool = False,
    marks: Mapping[int, str] | None = None,
    now: datetime.datetime | None = None,
) -> CheckInClosed:
    """Close check-in on ``round``. ``marks`` (the attendance the TD's page posts along) are
    saved first; with ``absent_rest`` everyone then still marked present who did not check in
    is marked absent without notice, in the same transaction.

    Only an open window closes: a second "close and mark the rest absent" would otherwise mark
    absent again whom the TD has marked present since.
    """
    now = now or timezone.now()
    round = round_lock(round.pk)
    if not round.check_in_is_open:
        if round.is_published or round.is_completed:
            raise ServiceError(
                _("The pairing of round %(round)s is published; check-in is over.")
                % {"round": round.number}
            )
        raise ServiceError(_("Check-in is not open."))
    if marks:
        attendance_record(round=round, marks=marks, user=user)
    round.check_in_closed_at = now
    round.save(update_fields=["check_in_closed_at"])
    marked = 0
    if absent_rest:
        checked_in = set(
            CheckIn.objects.filter(round=round).values_list("participant_id", flat=True)
        )
        recorded = absent_ids(round=round)
        rest = {
            p.id: RoundEntry.Kind.ABSENT_NO_NOTICE.value
            for p in participants_in_round(round=round)
            if p.id not in checked_in and p.id not in recorded
        }
        if rest:
            attendance_record(round=round, marks=rest, user=user)
        marked = len(rest)
    return CheckInClosed(marked_absent=marked)


@dataclass(frozen=True)
class CheckedIn:
    check_in: CheckIn
    created: bool  # False: he had checked in already (a second tap)
    mark: str  # his attendance mark after the check-in ("present", or a club duty kept)


@transaction.atomic
def member_check_in(*, round: Round, user: User, now: datetime.datetime | None = None) -> CheckedIn:
    """The user checks himself in for ``round``: only his own participant of its season, only
    tonight, only while the window is open. A second tap returns the first check-in."""
    now = now or timezone.now()
    round = round_lock(round.pk)
    participant = participant_of_user(round=round, user=user)
    refused = check_in_refused_because(
        round=round, participant=participant, today=timezone.localdate(now)
    )
    if refused or participant is None:
        raise ServiceError(refused or _("You do not play in this season."))
    existing = CheckIn.objects.filter(round=round, participant=participant).first()
    if existing is None:
        check_in = CheckIn.objects.create(
            round=round, participant=participant, checked_in_at=now, checked_in_by=user
        )
    else:
        check_in = existing
    kind = (
        RoundEntry.objects.filter(round=round, participant=participant)
        .values_list("kind", flat=True)
        .first()
    )
    mark = kind if kind in ABSENCE_KINDS else PRESENT
    # A second tap after the TD marked him absent leaves the TD's word: only the first clears.
    if existing is None and kind in CLEARED_BY_CHECK_IN:
        attendance_record(round=round, marks={participant.pk: PRESENT}, user=user)
        mark = PRESENT
    if existing is None:
        # He is here: tonight's "I can't come" no longer holds (a bye request does).
        AbsenceReport.objects.filter(
            participant=participant,
            evening__season_id=round.season_id,
            evening__date=round.date,
            kind=AbsenceReport.Kind.ABSENT,
        ).delete()
    return CheckedIn(check_in=check_in, created=existing is None, mark=mark)
