"""The season's pairing rules as the TD sets them: forbidden pairs (family, carpool) and the
settings the ladder pairing follows (most meetings per pair, colours reversed at a rematch, one
pairing-allocated bye per player). The engine applies them: :mod:`competition.pairing.ladder`.

A forbidden pair is stored once whichever order the TD chose (the participant with the lower
id first); adding it again is refused.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from competition.models import ForbiddenPair, Participant, Season
from competition.services.chances_queue import chances_request
from competition.services.errors import ServiceError


def _season_participant(season: Season, participant_id: int) -> Participant:
    found = Participant.objects.select_related("member").filter(pk=participant_id).first()
    if found is None or found.season_id != season.pk:
        raise ServiceError(_("This player does not take part in this season."))
    return found


@transaction.atomic
def forbidden_pair_add(
    *, season: Season, first_id: int, second_id: int, note: str = ""
) -> ForbiddenPair:
    """Keep two of the season's participants apart in the pairing, with a note (why)."""
    if first_id == second_id:
        raise ServiceError(_("Choose two different players."))
    first = _season_participant(season, first_id)
    second = _season_participant(season, second_id)
    first, second = sorted((first, second), key=lambda participant: participant.pk)
    if ForbiddenPair.objects.filter(season=season, first=first, second=second).exists():
        raise ServiceError(
            _("%(first)s and %(second)s are already a forbidden pair.")
            % {"first": first.member.name, "second": second.member.name}
        )
    try:
        with transaction.atomic():
            pair = ForbiddenPair.objects.create(
                season=season, first=first, second=second, note=note.strip()[:200]
            )
    except IntegrityError as error:  # another TD added it meanwhile
        raise ServiceError(
            _("%(first)s and %(second)s are already a forbidden pair.")
            % {"first": first.member.name, "second": second.member.name}
        ) from error
    chances_request(season=season)  # the simulation pairs by these rules
    return pair


@transaction.atomic
def forbidden_pair_remove(*, season: Season, pair_id: int) -> None:
    """Let the two play each other again."""
    deleted, _rows = ForbiddenPair.objects.filter(season=season, pk=pair_id).delete()
    if not deleted:
        raise ServiceError(_("This forbidden pair no longer exists."))
    chances_request(season=season)


@transaction.atomic
def season_pairing_rules_update(
    *,
    season: Season,
    rematch_window: int,
    max_meetings: int | None,
    rematch_colours_reversed: bool,
    one_pairing_bye: bool,
    seed_by_club_rating: bool = False,
    player_leaves: str = Season.PlayerLeaves.REPAIR,
    pending_days: int | None = None,
) -> Season:
    """The season's settings for the ladder pairing (``max_meetings`` None: no limit) and the
    evening's (a player who leaves; ``pending_days``: the deadline of a game played on another
    date, competition.services.postponed; None: no deadline)."""
    if player_leaves not in Season.PlayerLeaves.values:
        raise ServiceError(
            _("Unknown rule for a player who leaves: %(rule)s.") % {"rule": player_leaves}
        )
    if rematch_window < 0:
        raise ServiceError(_("The rematch window cannot be negative."))
    if max_meetings is not None and max_meetings < 1:
        raise ServiceError(_("At most this many games: give 1 or more, or leave it empty."))
    if pending_days is not None and pending_days < 0:
        raise ServiceError(_("The days to play a game on another date cannot be negative."))
    season = Season.objects.select_for_update().get(pk=season.pk)
    season.pending_days = pending_days
    season.rematch_window = rematch_window
    season.max_meetings = max_meetings
    season.rematch_colours_reversed = rematch_colours_reversed
    season.one_pairing_bye = one_pairing_bye
    season.seed_by_club_rating = seed_by_club_rating
    season.player_leaves = player_leaves
    season.save(
        update_fields=[
            "rematch_window",
            "max_meetings",
            "rematch_colours_reversed",
            "one_pairing_bye",
            "seed_by_club_rating",
            "player_leaves",
            "pending_days",
        ]
    )
    chances_request(season=season)
    return season
