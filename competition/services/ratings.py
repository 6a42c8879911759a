"""Writes of the club rating (docs/ratings.md): the ledger replayed from an evening on, and
the club's rating rules.

:func:`club_ratings_replay` is a plain function that runs inside the caller's transaction: the
services that close or correct a round call it with that round's date, so the ledger is never
behind the results; a task queue may call it just as well. Replaying from an evening on starts
from each member's state before that evening and gives what a run from the first evening
gives (``tests/services/test_club_ratings.py`` checks that on random corrections).
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Min
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.exact import fraction_to_text
from competition.models import Club, ClubRatingChange, ClubRatingRules, Round, Season
from competition.rating.ledger import EveningChange, ledger_run
from competition.selectors.ratings import (
    club_rating_rules,
    k_rules,
    ledger_input,
    states_before,
)
from competition.services.errors import ServiceError


def _row(
    club: Club,
    change: EveningChange,
    where: dict[int, tuple[int, int]],
    entries: dict[int, tuple[int, int]],
) -> ClubRatingChange:
    games = []
    for game in change.games:
        if game.opponent is None:
            season_id, number = entries[-game.key]
            source = {"entry": -game.key}
        else:
            season_id, number = where[game.key]
            source = {"game": game.key}
        games.append(
            {
                **source,
                "season": season_id,
                "round": number,
                "opponent": game.opponent,
                "opponent_rating": game.opponent_rating,
                "difference": game.difference,
                "expected": fraction_to_text(game.expected),
                "score": fraction_to_text(game.score),
            }
        )
    return ClubRatingChange(
        club=club,
        member_id=change.player,
        date=change.date,
        rating_before=change.rating_before,
        rating_after=change.rating_after,
        change=fraction_to_text(change.change),
        k=change.k,
        games_before=change.games_before,
        game_count=len(change.games),
        reached_top=change.reached_top,
        games=games,
    )


@transaction.atomic
def club_ratings_replay(*, club: Club, from_date: datetime.date | None = None) -> int:
    """Rebuild ``club``'s rating ledger from the evening of ``from_date`` on (None: from the
    first evening); returns the number of changes written.

    The members' states before ``from_date`` are read from the ledger; every rated game from
    then on is rated again, evening by evening, with the club's rating rules.
    """
    rules = club_rating_rules(club=club)
    data = ledger_input(club=club, rules=rules, from_date=from_date)
    states = states_before(club=club, day=from_date)
    changes = ledger_run(
        data.evenings,
        states=states,
        start_ratings=data.start_ratings,
        birth_years=data.birth_years,
        rules=k_rules(rules),
    )
    stale = ClubRatingChange.objects.filter(club=club)
    if from_date is not None:
        stale = stale.filter(date__gte=from_date)
    stale.delete()
    ClubRatingChange.objects.bulk_create(
        (_row(club, change, data.games, data.entries) for change in changes), batch_size=2000
    )
    return len(changes)


def club_ratings_season_replay(*, season: Season) -> None:
    """The ledger after ``season``'s rounds changed at once (an import, an admin's edit):
    replayed from the season's first round on."""
    first = Round.objects.filter(season=season).aggregate(first=Min("date"))["first"]
    if first is not None:
        club_ratings_replay(club=season.club, from_date=first)


_K_NAMES = {
    "k_new_player": gettext_lazy("K until 30 games"),
    "k_standard": gettext_lazy("K below 2400"),
    "k_top": gettext_lazy("K once 2400 was reached"),
    "k_junior": gettext_lazy("K for juniors below 2300"),
}


@transaction.atomic
def club_rating_rules_set(
    *,
    club: Club,
    k_new_player: int,
    k_standard: int,
    k_top: int,
    k_junior: int,
    start_rule: str,
    start_rating: int,
    rapid_counts: bool,
    external_counts: bool,
    user: User | None = None,
) -> ClubRatingRules:
    """Save the club's rating rules and replay the whole ledger under them."""
    for name, value in zip(_K_NAMES, (k_new_player, k_standard, k_top, k_junior), strict=True):
        if not 1 <= value <= 700:
            raise ServiceError(
                _("%(field)s must be a whole number from 1 to 700.") % {"field": _K_NAMES[name]}
            )
    if start_rule not in ClubRatingRules.StartRating.values:
        raise ServiceError(_("Unknown start rating rule: %(rule)s.") % {"rule": start_rule})
    if not 0 <= start_rating <= 3500:
        raise ServiceError(_("The fixed start rating must be from 0 to 3500."))
    rules, _created = ClubRatingRules.objects.select_for_update().get_or_create(club=club)
    rules.k_new_player, rules.k_standard, rules.k_top, rules.k_junior = (
        k_new_player,
        k_standard,
        k_top,
        k_junior,
    )
    rules.start_rule, rules.start_rating = start_rule, start_rating
    rules.rapid_counts, rules.external_counts = rapid_counts, external_counts
    rules.save()
    club_ratings_replay(club=club)
    return rules
