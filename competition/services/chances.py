"""Storing "can I still win?" for a season: the database in, the simulation out.

The simulation (:mod:`competition.simulation.chances`) pairs every simulated round with the
real pairing engine, which takes a while for a big club, so it never runs in a request:
:func:`chances_compute` runs it, works out what is certain (``outlook``: first place secured,
still possible or no longer possible, the best and worst place, the game points needed) and
stores both in a :class:`SeasonChances`; it is called by ``manage.py simulate_season SLUG``
and by the ``season_chances`` task of the task queue (:mod:`competition.services.chances_queue`:
one season at a time, after every change that can move the chances). Pages only read the
stored row.
"""

from __future__ import annotations

import logging
from fractions import Fraction

from django.conf import settings
from django.utils import timezone

from competition.models import Game, Round, Season, SeasonChances
from competition.pairing import PairingRules
from competition.scoring.exact import fraction_to_text
from competition.scoring.records import ScoringInputError
from competition.selectors.categories import prize_categories
from competition.selectors.chances import rounds_left
from competition.selectors.common import season_input
from competition.simulation.chances import SimulationInput, attendance_share, outlook, simulate

logger = logging.getLogger(__name__)

DEFAULT_SIMULATIONS = 1000


def simulations_setting() -> int:
    return int(getattr(settings, "CHANCES_SIMULATIONS", DEFAULT_SIMULATIONS))


def club_draw_rate(season: Season) -> float:
    """The share of draws among all games played over the board in the club's seasons."""
    games = Game.objects.filter(
        round__season__club_id=season.club_id,
        round__status=Round.Status.COMPLETED,
        result__in=[Game.Result.WHITE_WINS, Game.Result.DRAW, Game.Result.BLACK_WINS],
    )
    played = games.count()
    return games.filter(result=Game.Result.DRAW).count() / played if played else 0.0


def simulation_input(season: Season, *, left: int) -> SimulationInput:
    """The simulation's input: the season so far, ratings, attendance, draw rate, rules."""
    season_in = season_input(season=season)
    ratings = {
        p.id: p.rating or p.member.rating or 0 for p in season.participants.select_related("member")
    }
    forbidden = tuple(season.forbidden_pairs.values_list("first_id", "second_id"))
    categories = {  # by the category's id: a name may change after the computation
        str(category.pk): members
        for category, members in prize_categories(season=season)
        if members
    }
    return SimulationInput(
        season=season_in,
        rounds_left=left,
        ratings=ratings,
        attendance=attendance_share(season_in),
        draw_rate=club_draw_rate(season),
        bye_points=Fraction(season.bye_points),
        pairing=PairingRules(
            rematch_window=season.rematch_window,
            forbidden_pairs=forbidden,
            max_meetings=season.max_meetings,
            reverse_colours_at_rematch=season.rematch_colours_reversed,
            max_allocated_byes=1 if season.one_pairing_bye else None,
        ),
        categories=categories,
    )


def chances_compute(
    *, season: Season, simulations: int | None = None, seed: int = 0
) -> SeasonChances | None:
    """Simulate the season's remaining rounds and store the chances (None: not possible —
    no completed round, the number of rounds left unknown, or the rules refuse the season)."""
    season.refresh_from_db(fields=["data_version", "rules_version"])
    data_version, rules_version = season.data_version, season.rules_version
    left = rounds_left(season=season)
    if left.count is None or left.after_round == 0:
        SeasonChances.objects.filter(season=season).delete()
        return None
    simulations = simulations or simulations_setting()
    data = simulation_input(season, left=left.count)
    try:
        result = simulate(data, simulations=simulations, seed=seed)
        certain = {view.participant_id: view for view in outlook(data, result)}
    except (ScoringInputError, ValueError) as error:
        logger.warning("chances of %s not computed: %s", season.slug, error)
        return None
    rows = []
    for player in result.players:
        view = certain[player.participant_id]
        rows.append(
            {
                "participant_id": player.participant_id,
                # simulations finished first, a shared first place counting its share
                "first": float(player.first),
                "top_three": float(player.top_three),
                # per prize category he is in (by its id): simulations he was its best placed
                # member in, shared as first place is, and what is certain about it
                "categories": {
                    key: float(player.categories.get(key, 0)) for key in view.categories
                },
                "category_status": {key: value.value for key, value in view.categories.items()},
                "needed_for_first": _text(player.needed_for_first),
                # certain, not estimated (simulation.chances.outlook)
                "first_place": view.first_place.value,
                "best_place": view.best_place,
                "worst_place": view.worst_place,
                "needs": _text(view.needs),
                "secures": _text(view.secures),
            }
        )
    chances, _ = SeasonChances.objects.update_or_create(
        season=season,
        defaults={
            "computed_at": timezone.now(),
            "data_version": data_version,
            "rules_version": rules_version,
            "after_round": left.after_round,
            "rounds_left": left.count,
            "simulations": simulations,
            "seed": seed,
            "draw_rate": result.draw_rate,
            "rows": rows,
        },
    )
    return chances


def _text(value: Fraction | None) -> str | None:
    return None if value is None else fraction_to_text(value)
