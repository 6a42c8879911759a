"""Standings: database rows in, engine out, cached per round in ``StandingsSnapshot``.

``standings_recompute`` is called by every service that changes a season (inside its
transaction), so the cache is never stale; pages only read it. ``season_input`` builds the
engine's input; it is also what explanations and previews use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import F

from competition.exact import fraction_to_text
from competition.models import Game, Participant, Round, RoundEntry, Season, StandingsSnapshot
from competition.scoring import model as scoring
from competition.scoring.engine import standings_history
from competition.scoring.parameters import parameters_from_json


def season_input(
    season: Season,
    *,
    rules: Mapping[str, Any] | None = None,
    completed_only: bool = True,
) -> scoring.SeasonInput:
    """The engine's input for ``season`` (its completed rounds), in a constant number of queries.

    ``rules`` overrides the season's system, parameters, tiebreaks, unplayed_policy and
    min_games (for a preview of new rules or the reproduction of an earlier rule set).
    """
    rules = dict(rules or {})
    participants = tuple(
        scoring.Participant(
            id=p.id,
            name=p.member.name,
            start_rank=p.start_rank,
            start_points=Fraction(p.start_points) if p.start_points is not None else None,
            rating=p.member.rating,
            joined_round=p.joined_round,
        )
        for p in Participant.objects.filter(season=season).select_related("member")
    )
    rounds_qs = Round.objects.filter(season=season).order_by("number")
    if completed_only:
        rounds_qs = rounds_qs.filter(status=Round.Status.COMPLETED)
    round_numbers = {r.id: r.number for r in rounds_qs}
    games: dict[int, list[scoring.Game]] = {rid: [] for rid in round_numbers}
    for g in Game.objects.filter(round_id__in=round_numbers).values_list(
        "round_id", "board", "white_id", "black_id", "result"
    ):
        games[g[0]].append(
            scoring.Game(white=g[2], black=g[3], result=scoring.Result(g[4]), board=g[1])
        )
    entries: dict[int, list[scoring.Entry]] = {rid: [] for rid in round_numbers}
    for e in RoundEntry.objects.filter(round_id__in=round_numbers).values_list(
        "round_id", "participant_id", "kind", "points"
    ):
        entries[e[0]].append(
            scoring.Entry(participant=e[1], kind=scoring.EntryKind(e[2]), points=Fraction(e[3]))
        )
    rounds = tuple(
        scoring.Round(number=number, games=tuple(games[rid]), entries=tuple(entries[rid]))
        for rid, number in sorted(round_numbers.items(), key=lambda item: item[1])
    )
    return scoring.SeasonInput(
        participants=participants,
        rounds=rounds,
        system=rules.get("system", season.system),
        parameters=parameters_from_json(rules.get("parameters", season.parameters)),
        tiebreaks=tuple(rules.get("tiebreaks", season.tiebreaks)),
        unplayed_policy=rules.get("unplayed_policy", season.unplayed_policy),
        min_games=rules.get("min_games", season.min_games),
        round_robin=season.is_round_robin,
    )


def row_to_json(row: scoring.StandingRow) -> dict[str, Any]:
    return {
        "participant_id": row.participant_id,
        "rank": row.rank,
        "score": fraction_to_text(row.score),
        "game_points": fraction_to_text(row.game_points),
        "values": {code: fraction_to_text(value) for code, value in row.values.items()},
        "games": row.games_played,
        "eligible": row.eligible,
    }


@transaction.atomic
def standings_recompute(*, season: Season) -> None:
    """Rebuild the cached standings after every completed round of ``season``.

    Bumps the season's ``data_version`` so anything keyed on it (page caches) is refreshed.
    """
    Season.objects.filter(pk=season.pk).update(data_version=F("data_version") + 1)
    season.refresh_from_db(fields=["data_version", "rules_version"])
    history = standings_history(season_input(season))
    StandingsSnapshot.objects.filter(season=season).delete()
    StandingsSnapshot.objects.bulk_create(
        StandingsSnapshot(
            season=season,
            round_number=standings.round_number,
            data_version=season.data_version,
            rules_version=season.rules_version,
            rows=[row_to_json(row) for row in standings.rows],
        )
        for standings in history.history
    )


def seasons_touch(*, seasons: Iterable[Season]) -> None:
    """Mark ``seasons`` changed without new results (a renamed member, club or season), so
    every page cached under their ``data_version`` is rebuilt."""
    ids = {season.pk for season in seasons}
    Season.objects.filter(pk__in=ids).update(data_version=F("data_version") + 1)
