"""A rapid series built through the TD's services for the page tests: ``players`` players,
``evenings`` evenings of ``rounds`` Swiss rounds; on every board the player with the lower start
number wins, except on board 1 of each evening's first round (a draw)."""

from __future__ import annotations

import datetime

from competition.models import Game, Season
from competition.services import evening
from competition.services.rounds import result_record, round_complete, round_create
from competition.services.series import has_next_round_tonight, rapid_round_next
from tests.factories import ParticipantFactory, SeasonFactory


def rapid_season(*, players: int = 4, evenings: int = 2, rounds: int = 3, **fields) -> Season:
    season = SeasonFactory(
        system="points",
        tiebreaks=[],
        rounds_per_evening=rounds,
        evening_points=[10, 8, 6, 5],
        **fields,
    )
    for rank in range(1, players + 1):
        ParticipantFactory(season=season, start_rank=rank)
    for k in range(evenings):
        (rnd,) = round_create(
            seasons=[season], date=datetime.date(2026, 10, 2) + datetime.timedelta(weeks=k)
        )
        evening.pairing_propose(round=rnd, user=None)
        evening.round_publish(round=rnd, user=None)
        first = True
        while True:
            games = Game.objects.filter(round=rnd).select_related("white", "black")
            for game in games.order_by("board"):
                if first and game.board == 1:
                    result = Game.Result.DRAW
                elif game.white.start_rank < game.black.start_rank:
                    result = Game.Result.WHITE_WINS
                else:
                    result = Game.Result.BLACK_WINS
                result_record(
                    game_id=game.pk, result=result, expected_version=game.version, user=None
                )
            first = False
            if not has_next_round_tonight(rnd):
                round_complete(round=rnd, user=None)
                break
            rnd = rapid_round_next(round=rnd, user=None)
    season.refresh_from_db()
    return season
