"""Standings: database rows in, engine out, cached per round in ``StandingsSnapshot``.

``standings_recompute`` is called by every service that changes a season (inside its
transaction), so the cache is never stale; pages only read it. The engine's input comes from
``selectors.common.season_input``, which explanations and previews read too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import F

from competition.exact import fraction_to_text
from competition.models import Season, StandingsSnapshot
from competition.scoring import model as scoring
from competition.scoring.engine import standings_history
from competition.selectors.common import season_input


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
