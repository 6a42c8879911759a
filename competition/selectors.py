"""Reads for the pages: each a constant number of queries, whatever the season's size."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from competition.models import Participant, Round, Season, StandingsSnapshot


@dataclass(frozen=True)
class SeasonSummary:
    season: Season
    after_round: int | None
    top: list[dict[str, Any]]  # snapshot rows with "name" added
    latest_round: Round | None


def season_summaries(*, club_slug: str | None = None, top: int = 5) -> list[SeasonSummary]:
    """The running seasons with the top of their latest standings (four queries in all)."""
    seasons = list(
        Season.objects.filter(status=Season.Status.RUNNING)
        .select_related("club")
        .order_by("club__name", "name")
    )
    if club_slug:
        seasons = [s for s in seasons if s.club.slug == club_slug]
    ids = [s.id for s in seasons]
    latest: dict[int, StandingsSnapshot] = {}
    for snapshot in StandingsSnapshot.objects.filter(season_id__in=ids).order_by("round_number"):
        latest[snapshot.season_id] = snapshot
    rounds: dict[int, Round] = {}
    for rnd in Round.objects.filter(season_id__in=ids).order_by("number"):
        rounds[rnd.season_id] = rnd
    wanted = {row["participant_id"] for snap in latest.values() for row in snap.rows[:top]}
    names = dict(Participant.objects.filter(id__in=wanted).values_list("id", "member__name"))
    summaries = []
    for season in seasons:
        snapshot = latest.get(season.id)
        rows = [
            {**row, "name": names.get(row["participant_id"], "?")}
            for row in (snapshot.rows[:top] if snapshot else [])
        ]
        summaries.append(
            SeasonSummary(
                season=season,
                after_round=snapshot.round_number if snapshot else None,
                top=rows,
                latest_round=rounds.get(season.id),
            )
        )
    return summaries
