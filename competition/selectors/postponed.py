"""Reads for the games on another date: the ones still without a result, as the standings and
the round page list them."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from competition.models import Game, Round, Season
from competition.selectors.common import member_public_name


@dataclass(frozen=True)
class PendingGame:
    """A game played on another date that has no result yet, as the public pages show it:
    "Inhaalpartij: X – Y, ronde 5, speeldatum 12 december"."""

    round_number: int
    board: int
    white: str
    black: str
    played_on: datetime.date


def pending_games(*, season: Season) -> list[PendingGame]:
    """The games on another date without a result (competition.services.postponed) of the
    season's completed rounds (those the standings count), in the order of their dates, with
    the players' public names (one query)."""
    games = (
        Game.objects.filter(
            round__season=season,
            round__status=Round.Status.COMPLETED,
            played_on__isnull=False,
            result=Game.Result.NOT_PLAYED,
        )
        .select_related("round", "white__member", "black__member")
        .order_by("played_on", "round__number", "board")
    )
    return [
        PendingGame(
            game.round.number,
            game.board,
            member_public_name(member=game.white.member, season=season),
            member_public_name(member=game.black.member, season=season),
            game.played_on,
        )
        for game in games
        if game.played_on is not None
    ]
