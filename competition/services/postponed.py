"""Games on another date: a board of round N played in advance or postponed (an "inhaalpartij").

The TD marks a board of a published or completed round as played on another date
(:func:`game_play_later`); until its result is entered the game is *pending*
(``Game.played_on`` set, no result). The round can be closed with pending boards
(``services.rounds.round_complete``); the standings count a pending game as a round without a
result (docs/scoring.md "Games on another date") until its result comes in through
``services.rounds.result_record``, which then recomputes the standings like a correction.

A season may set a deadline (``Season.pending_days``): a pending game that still has no result
that many days after its round's date is a double forfeit (:func:`pending_games_expire`, run
by the nightly task and by ``manage.py expire_pending_games``, never inside a request).

Each call is one transaction that locks the round (``services.rounds.round_lock``).
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from competition.models import Game, Round, Season
from competition.permissions import is_td
from competition.services.errors import ServiceError
from competition.services.ratings import club_ratings_round_replay
from competition.services.rounds import round_lock
from competition.services.standings import standings_recompute


def _locked_game(game_id: int, user: User | None) -> tuple[Round, Game]:
    """The round (locked) and the game, refused for an unknown board, a user who is not a TD of
    the round's club, or a draft round."""
    round_id = Game.objects.filter(pk=game_id).values_list("round_id", flat=True).first()
    if round_id is None:
        raise ServiceError(_("This board no longer exists; reload the round."))
    round = round_lock(round_id)
    if user is None or not is_td(user, round.season.club):
        raise ServiceError(_("Only a TD of the club can do this."))
    if round.is_planned:
        raise ServiceError(_("Publish the pairing before a game is played on another date."))
    game = Game.objects.select_for_update(of=("self",)).get(pk=game_id)
    game.round = round
    return round, game


def _refresh_standings(round: Round) -> None:
    """A completed round's standings (and the club ratings from its date) follow the change."""
    if round.is_completed:  # the standings of this round and every later one
        standings_recompute(season=round.season, from_round=round.number)
        club_ratings_round_replay(round=round)


@transaction.atomic
def game_play_later(*, game_id: int, played_on: datetime.date | object, user: User | None) -> Game:
    """Mark a board of a published or completed round as played on ``played_on`` (before the
    round's date: in advance; after it: postponed). Refused for a board with a result, a date
    that is not a date, a draft round and a user who is not a TD of the round's club. Setting
    the date again moves it; the same date twice changes nothing."""
    if not isinstance(played_on, datetime.date) or isinstance(played_on, datetime.datetime):
        raise ServiceError(_("Give the date the game is played on."))
    round, game = _locked_game(game_id, user)
    if game.result != Game.Result.NOT_PLAYED:
        raise ServiceError(
            _("Board %(board)s already has a result: it was played.") % {"board": game.board}
        )
    if game.played_on == played_on:
        return game
    if played_on == round.date:
        raise ServiceError(
            _("Round %(round)s is played on that date: choose another date.")
            % {"round": round.number}
        )
    game.played_on = played_on
    game.version += 1
    game.updated_by = user
    game.save()
    _refresh_standings(round)
    return game


@transaction.atomic
def game_play_later_cancel(*, game_id: int, user: User | None) -> Game:
    """The board is played on the round's evening after all. Refused for a board with a result
    (it was played) and in a completed round (it cannot have an open board again)."""
    round, game = _locked_game(game_id, user)
    if game.played_on is None:
        return game
    if game.result != Game.Result.NOT_PLAYED:
        raise ServiceError(
            _("Board %(board)s already has a result: it was played.") % {"board": game.board}
        )
    if round.is_completed:
        raise ServiceError(
            _("Round %(round)s is closed: board %(board)s can only be played on another date.")
            % {"round": round.number, "board": game.board}
        )
    game.played_on = None
    game.version += 1
    game.updated_by = user
    game.save()
    return game


def pending_deadline(*, round_date: datetime.date, days: int) -> datetime.date:
    """The last day a pending game of a round on ``round_date`` may still be played.

    >>> pending_deadline(round_date=datetime.date(2026, 12, 4), days=14)
    datetime.date(2026, 12, 18)
    """
    return round_date + datetime.timedelta(days=days)


@transaction.atomic
def pending_games_expire(*, today: datetime.date) -> list[int]:
    """Give every pending game past its season's deadline (round date + ``pending_days``,
    before ``today``) a double forfeit; the standings of each season touched are recomputed.
    Returns the ids of the games changed, in the order of their rounds and boards."""
    candidates = (
        Game.objects.filter(
            played_on__isnull=False,
            result=Game.Result.NOT_PLAYED,
            round__season__pending_days__isnull=False,
            round__season__status=Season.Status.RUNNING,
        )
        .exclude(round__status=Round.Status.PLANNED)
        .select_related("round__season")
        .order_by("round__season_id", "round__number", "board")
    )
    expired = [
        (game.pk, game.round_id)
        for game in candidates
        if pending_deadline(round_date=game.round.date, days=game.round.season.pending_days or 0)
        < today
    ]
    changed: list[int] = []
    touched: dict[int, Round] = {}
    for game_id, round_id in expired:
        round = round_lock(round_id)
        game = Game.objects.select_for_update(of=("self",)).get(pk=game_id)
        if game.result != Game.Result.NOT_PLAYED or game.played_on is None:
            continue  # entered meanwhile
        game.result = Game.Result.DOUBLE_FORFEIT
        game.version += 1
        game.updated_by = None
        game._change_reason = _(
            "the deadline for games on another date passed (%(days)s days after the round)"
        ) % {"days": round.season.pending_days}
        game.save()
        changed.append(game_id)
        if round.is_completed:
            earliest = touched.get(round.season_id)
            if earliest is None or round.date < earliest.date:
                touched[round.season_id] = round
    for round in touched.values():
        _refresh_standings(round)
    return changed
