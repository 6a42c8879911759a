"""Writes for a rapid or blitz series: the TD's "next round" on a rapid evening.

On a rapid evening the TD stays on the results page: once every board has a result, *Next
round* closes the round, opens the evening's next round (same date), carries the evening's
absences over, pairs it (the pairing engine within the evening, or the evening's Berger table)
and publishes it, all in one transaction; the TD lands on the new round's results. The
evening's last round is closed as any round (*Close the round*).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from competition.models import ABSENCE_KINDS, Round, RoundEntry
from competition.scoring.series import evening_of, round_in_evening
from competition.services import evening
from competition.services.errors import ServiceError
from competition.services.rounds import entry_record, round_complete, round_create, round_lock


def has_next_round_tonight(round: Round) -> bool:
    """Whether ``round`` is a rapid evening's round with more rounds to come that evening."""
    season = round.season
    return season.is_rapid_series and (
        round_in_evening(round.number, season.rounds_per_evening) < season.rounds_per_evening
    )


@transaction.atomic
def rapid_round_next(*, round: Round, user: User | None) -> Round:
    """Close ``round`` and open, pair and publish the next round of its evening.

    The absences of the closed round (absent with or without notice, club duty) carry over:
    whoever left does not come back within the evening unless the TD adds him as a late-comer.
    Refused (nothing changes) for a season that is no rapid series, the evening's last round,
    a round with results missing, or when fewer than two players are left to pair.
    """
    round = round_lock(round.pk)
    season = round.season
    if not season.is_rapid_series:
        raise ServiceError(_("This competition plays one round per evening."))
    if not has_next_round_tonight(round):
        raise ServiceError(
            _("Round %(round)s is the last round of evening %(evening)s: close the round.")
            % {
                "round": round.number,
                "evening": evening_of(round.number, season.rounds_per_evening),
            }
        )
    round_complete(round=round, user=user)
    (following,) = round_create(seasons=[season], date=round.date)
    taken = set(RoundEntry.objects.filter(round=following).values_list("participant_id", flat=True))
    for absence in RoundEntry.objects.filter(round=round, kind__in=ABSENCE_KINDS).select_related(
        "participant"
    ):
        if absence.participant_id not in taken:
            entry_record(
                round=following,
                participant=absence.participant,
                kind=absence.kind,
                note=absence.note,
                user=user,
            )
    evening.pairing_propose(round=following, user=user, keep_fixed=False)
    return evening.round_publish(round=following, user=user)
