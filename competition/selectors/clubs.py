"""Reads for the clubs: a club's home page (its running seasons with their latest standings),
the site's directory of clubs, and the clubs and seasons a tournament director runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import QuerySet

from competition.clubs import club_url
from competition.models import Club, Round, Season, StandingsSnapshot
from competition.permissions import clubs_run_by
from competition.presentation import numbers
from competition.scoring.registry import SYSTEMS
from competition.selectors.common import public_names_of


@dataclass(frozen=True)
class SeasonSummary:
    season: Season
    after_round: int | None
    top: list[dict[str, Any]]  # snapshot rows with "name" added
    latest_round: Round | None

    @property
    def score_style(self) -> str:
        """The top's score column in one style (competition/presentation/numbers.py): 7½ or one
        decimals."""
        primary = SYSTEMS[self.season.system].primary if self.season.system in SYSTEMS else ""
        return numbers.column_style(
            (Fraction(row["score"]) for row in self.top), points=numbers.is_points(primary)
        )


def season_summaries(*, club: Club, top: int = 5) -> list[SeasonSummary]:
    """The club's running seasons with the top of their latest standings (four queries in
    all)."""
    seasons = list(
        Season.objects.filter(club=club, status=Season.Status.RUNNING)
        .select_related("club")
        .order_by("name")
    )
    ids = [s.id for s in seasons]
    latest: dict[int, StandingsSnapshot] = {}
    for stored in StandingsSnapshot.objects.filter(season_id__in=ids).order_by("round_number"):
        latest[stored.season_id] = stored
    rounds: dict[int, Round] = {}
    for rnd in Round.objects.filter(season_id__in=ids).order_by("number"):
        rounds[rnd.season_id] = rnd
    wanted = {row["participant_id"] for snap in latest.values() for row in snap.rows[:top]}
    names = public_names_of(participant_ids=wanted)
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


@dataclass(frozen=True)
class ClubListing:
    """A club in the directory of clubs: its address and what it is playing now."""

    club: Club
    url: str
    running: tuple[str, ...]  # names of its running seasons


def club_directory() -> list[ClubListing]:
    """Every club on this installation, by name, with its running seasons (two queries)."""
    running: dict[int, list[str]] = {}
    for club_id, name in (
        Season.objects.filter(status=Season.Status.RUNNING)
        .order_by("name")
        .values_list("club_id", "name")
    ):
        running.setdefault(club_id, []).append(name)
    return [
        ClubListing(
            club=club,
            url=club_url(club.slug, "competition:home"),
            running=tuple(running.get(club.pk, ())),
        )
        for club in Club.objects.order_by("name")
    ]


def td_clubs(*, user: AbstractBaseUser | AnonymousUser) -> list[Club]:
    """The clubs ``user`` directs (as TD or club admin; every club for a superuser), by name;
    the same as ``permissions.is_td`` club by club, in one query."""
    if not isinstance(user, User) or not user.is_active:
        return []
    return list(clubs_run_by(user).order_by("name"))


def seasons_of_clubs(*, clubs: Sequence[Club]) -> QuerySet[Season]:
    """The seasons of ``clubs`` with their club (the TD's file page)."""
    return Season.objects.filter(club__in=clubs).select_related("club")


def club_by_slug(*, slug: str) -> Club | None:
    return Club.objects.filter(slug=slug).first()
