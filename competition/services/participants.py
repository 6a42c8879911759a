"""A participant's withdrawal from a season, and taking it back.

A withdrawn participant is no longer offered for pairing from the round he withdrew from: he
is missing from the attendance list, the pairing and the members' reports of later rounds. His
rounds from then on have no record: the standings keep his earlier games as the system says
(the values his opponents earned stay), no system awards anything for the rounds after the
withdrawal, and the tie-breaks read them as voluntary unplayed rounds (C.07 Art. 16.1, see
docs/scoring.md, *Withdrawals and late joiners*).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from competition.models import Game, Participant, RoundEntry
from competition.services.errors import ServiceError
from competition.services.standings import standings_recompute

NOTE_LENGTH: int = Participant._meta.get_field("withdrawal_note").max_length or 200


def first_round_free_to_withdraw(participant: Participant) -> int:
    """The earliest round he can withdraw from: after his last board or bye (played or
    paired) and after the round he joined."""
    last_board = Game.objects.filter(
        Q(white=participant) | Q(black=participant), round__season_id=participant.season_id
    ).aggregate(last=Max("round__number"))["last"]
    last_bye = RoundEntry.objects.filter(
        participant=participant, kind=RoundEntry.Kind.BYE
    ).aggregate(last=Max("round__number"))["last"]
    return max(participant.joined_round + 1, (last_board or 0) + 1, (last_bye or 0) + 1)


@transaction.atomic
def participant_withdraw(
    *, participant: Participant, from_round: int, note: str = "", user: User | None = None
) -> Participant:
    """Withdraw ``participant`` from his season from round ``from_round`` on.

    Refused when he has a board or a bye in that round or later (a result stands; remove him
    from the pairing or correct the round first) or when the round is not after the one he
    joined. His absences recorded for those rounds are removed (the rounds become rounds after
    withdrawal). The standings are recomputed.
    """
    participant = (
        Participant.objects.select_for_update().select_related("member").get(pk=participant.pk)
    )
    note = note.strip()
    if len(note) > NOTE_LENGTH:
        raise ServiceError(
            _("The reason is too long: at most %(n)s characters.") % {"n": NOTE_LENGTH}
        )
    earliest = first_round_free_to_withdraw(participant)
    if from_round < earliest:
        raise ServiceError(
            _(
                "%(name)s cannot withdraw from round %(round)s: he is in the pairing of round "
                "%(last)s or joined in round %(joined)s. The earliest round is %(earliest)s."
            )
            % {
                "name": participant.member.name,
                "round": from_round,
                "last": earliest - 1,
                "joined": participant.joined_round,
                "earliest": earliest,
            }
        )
    RoundEntry.objects.filter(participant=participant, round__number__gte=from_round).delete()
    participant.withdrawn_from_round = from_round
    participant.withdrawal_note = note
    participant.save(update_fields=["withdrawn_from_round", "withdrawal_note"])
    standings_recompute(season=participant.season)
    return participant


@transaction.atomic
def participant_reinstate(*, participant: Participant, user: User | None = None) -> Participant:
    """Take a withdrawal back: he takes part again, and the rounds he missed are rounds without
    a record (as for anyone the TD did not pair). The standings are recomputed."""
    participant = Participant.objects.select_for_update().get(pk=participant.pk)
    if participant.withdrawn_from_round is None:
        return participant  # a second tap: nothing to take back
    participant.withdrawn_from_round = None
    participant.withdrawal_note = ""
    participant.save(update_fields=["withdrawn_from_round", "withdrawal_note"])
    standings_recompute(season=participant.season)
    return participant
