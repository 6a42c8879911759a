"""Rounds, games and entries: the writes of a club evening and the invariants they keep.

The database refuses a board taken twice, a player on both sides, two entries for one
participant; :func:`ensure_participants_free` refuses what it cannot express: a participant
with more than one game or entry in a round. Every function here runs in one transaction.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from competition.models import Game, Participant, Round, RoundEntry, Season
from competition.services.errors import ServiceError
from competition.services.standings import standings_recompute


def ensure_participants_free(
    *,
    round: Round,
    participants: Iterable[Participant],
    except_game: Game | None = None,
    except_entry: RoundEntry | None = None,
) -> None:
    """Refuse when one of ``participants`` already has a game or an entry in ``round``."""
    ids = {p.id for p in participants}
    games = Game.objects.filter(round=round).filter(Q(white_id__in=ids) | Q(black_id__in=ids))
    if except_game is not None:
        games = games.exclude(pk=except_game.pk)
    entries = RoundEntry.objects.filter(round=round, participant_id__in=ids)
    if except_entry is not None:
        entries = entries.exclude(pk=except_entry.pk)
    for game in games.select_related("white__member", "black__member"):
        busy = game.white if game.white_id in ids else game.black
        raise ServiceError(
            _("%(name)s already plays on board %(board)s in round %(round)s.")
            % {"name": busy.member.name, "board": game.board, "round": round.number}
        )
    for entry in entries.select_related("participant__member"):
        raise ServiceError(
            _("%(name)s is already recorded as “%(kind)s” in round %(round)s.")
            % {
                "name": entry.participant.member.name,
                "kind": entry.get_kind_display(),
                "round": round.number,
            }
        )


def _ensure_same_season(round: Round, *participants: Participant) -> None:
    for participant in participants:
        if participant.season_id != round.season_id:
            raise ServiceError(
                _("%(name)s does not take part in %(season)s.")
                % {"name": participant.member.name, "season": round.season.name}
            )


@transaction.atomic
def round_create(*, season: Season, date: datetime.date | None = None) -> Round:
    """The season's next round, dated ``date`` (today by default)."""
    Season.objects.select_for_update().get(pk=season.pk)
    last = Round.objects.filter(season=season).aggregate(last=Max("number"))["last"] or 0
    return Round.objects.create(season=season, number=last + 1, date=date or timezone.localdate())


@transaction.atomic
def game_create(
    *,
    round: Round,
    board: int,
    white: Participant,
    black: Participant,
    result: str = Game.Result.NOT_PLAYED,
    user: AbstractBaseUser | None = None,
) -> Game:
    if white.pk == black.pk:
        raise ServiceError(_("A player cannot play himself."))
    _ensure_same_season(round, white, black)
    ensure_participants_free(round=round, participants=[white, black])
    if Game.objects.filter(round=round, board=board).exists():
        raise ServiceError(
            _("Board %(board)s is already taken in round %(round)s.")
            % {"board": board, "round": round.number}
        )
    return Game.objects.create(
        round=round, board=board, white=white, black=black, result=result, updated_by=user
    )


def default_entry_points(season: Season, kind: str) -> Decimal:
    """The game points an entry gets unless the TD says otherwise: the season's bye value."""
    return season.bye_points if kind == RoundEntry.Kind.BYE else Decimal("0")


@transaction.atomic
def entry_record(
    *,
    round: Round,
    participant: Participant,
    kind: str,
    points: Decimal | None = None,
    note: str = "",
    user: AbstractBaseUser | None = None,
) -> RoundEntry:
    """Record (or change) a participant's entry for ``round``: absence, club duty or bye."""
    if kind not in RoundEntry.Kind.values:
        raise ServiceError(_("Unknown kind of entry: %(kind)s.") % {"kind": kind})
    _ensure_same_season(round, participant)
    existing = RoundEntry.objects.filter(round=round, participant=participant).first()
    ensure_participants_free(round=round, participants=[participant], except_entry=existing)
    points = default_entry_points(round.season, kind) if points is None else points
    if existing is None:
        return RoundEntry.objects.create(
            round=round,
            participant=participant,
            kind=kind,
            points=points,
            note=note,
            updated_by=user,
        )
    existing.kind, existing.points, existing.note, existing.updated_by = kind, points, note, user
    existing.save()
    return existing


def user_label(user: AbstractBaseUser) -> str:
    """How a TD is named to other TDs: first name when known, else the username."""
    first = getattr(user, "first_name", "")
    return first or user.get_username()


def _describe_change(game: Game) -> str:
    who = user_label(game.updated_by) if game.updated_by else _("someone")
    when = time_format(timezone.localtime(game.updated_at), "H:i")
    return _("Board %(board)s was changed by %(who)s at %(when)s meanwhile; now %(result)s.") % {
        "board": game.board,
        "who": who,
        "when": when,
        "result": game.get_result_display(),
    }


@transaction.atomic
def result_record(
    *,
    game_id: int,
    result: str,
    expected_version: int,
    user: AbstractBaseUser | None,
    reason: str = "",
) -> Game:
    """Save a board's result unless someone else changed it since ``expected_version``.

    A result in a completed round is a correction: it needs a reason, is kept in the history
    with that reason, and the standings of that round and every later one are recomputed.
    """
    if result not in Game.Result.values:
        raise ServiceError(_("Unknown result code: %(result)s.") % {"result": result})
    game = (
        # Lock only the game row. The user who saved it last is read after the lock, not
        # joined here: when this waits for another TD's save, PostgreSQL hands back the new
        # game row but the joined rows as they were before it (no user at all).
        Game.objects.select_for_update(of=("self",))
        .select_related("round__season")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise ServiceError(_("This board no longer exists; reload the round."))
    if game.version != expected_version:
        raise ServiceError(_describe_change(game))
    is_correction = game.round.status == Round.Status.COMPLETED
    if is_correction and not reason.strip():
        raise ServiceError(_("Correcting a result of a completed round needs a reason."))
    if is_correction and result == Game.Result.NOT_PLAYED:
        # round_complete refuses to close a round with an open board; a correction must not
        # open one again afterwards.
        raise ServiceError(
            _("Round %(round)s is closed: board %(board)s needs a result.")
            % {"round": game.round.number, "board": game.board}
        )
    if game.result == result:
        return game
    game.result = result
    game.version += 1
    game.updated_by = user
    game._change_reason = reason.strip()  # read by simple-history
    game.save()
    if is_correction:
        standings_recompute(season=game.round.season)
    return game


@transaction.atomic
def round_complete(*, round: Round) -> Round:
    """Close the round: every board needs a result; the standings are recomputed."""
    round = Round.objects.select_for_update().select_related("season").get(pk=round.pk)
    open_boards = list(
        Game.objects.filter(round=round, result=Game.Result.NOT_PLAYED).values_list(
            "board", flat=True
        )
    )
    if open_boards:
        raise ServiceError(
            _("Boards without a result: %(boards)s.")
            % {"boards": ", ".join(str(b) for b in open_boards)}
        )
    round.status = Round.Status.COMPLETED
    round.save(update_fields=["status"])
    standings_recompute(season=round.season)
    return round
