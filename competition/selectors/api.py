"""Reads for the public JSON API (competition.api) that the public pages' selectors do not
already give: the clubs, a club's seasons, a season's rounds, participants and club evenings.

Only what the public pages show: names as the public sees them (the members' and season's
privacy choices), no ratings or birth years, no season in preparation. Each read is one or two
queries whatever the season's size.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from competition.models import Club, Participant, Round, Season
from competition.selectors.common import public_names
from competition.selectors.evenings import season_evenings as evenings_of_season

# Seasons the public may read: a season in preparation is the TD's alone.
PUBLIC_SEASON_STATUSES = (Season.Status.RUNNING, Season.Status.FINISHED)


def clubs_listed() -> list[Club]:
    """Every club, by name (one query)."""
    return list(Club.objects.order_by("name", "slug"))


def club_get(*, slug: str) -> Club:
    """The club with this web address (one query); raises ``Club.DoesNotExist``."""
    return Club.objects.get(slug=slug)


def public_seasons_of_club(*, club: Club) -> list[Season]:
    """The club's running and finished seasons, the latest first (one query)."""
    return list(
        Season.objects.filter(club=club, status__in=PUBLIC_SEASON_STATUSES)
        .select_related("club")
        .order_by("-start_date", "name")
    )


def public_season_get(*, club_slug: str, slug: str) -> Season:
    """The running or finished season ``slug`` of the club ``club_slug``, with its club (one
    query); raises ``Season.DoesNotExist``."""
    return Season.objects.select_related("club").get(
        club__slug=club_slug, slug=slug, status__in=PUBLIC_SEASON_STATUSES
    )


def season_rounds(*, season: Season) -> list[Round]:
    """The season's rounds by number (one query)."""
    return list(Round.objects.filter(season=season).order_by("number"))


@dataclass(frozen=True)
class PublicParticipant:
    id: int
    name: str  # as the public sees it
    start_number: int | None
    joined_round: int
    withdrawn_from_round: int | None


def season_participants(*, season: Season) -> list[PublicParticipant]:
    """The season's participants by start number, then public name (two queries)."""
    names = public_names(season_id=season.pk)
    rows = Participant.objects.filter(season=season).values_list(
        "id", "start_rank", "joined_round", "withdrawn_from_round"
    )
    participants = [
        PublicParticipant(pid, names.get(pid, "?"), start_rank, joined, withdrawn)
        for pid, start_rank, joined, withdrawn in rows
    ]
    return sorted(
        participants,
        key=lambda p: (p.start_number is None, p.start_number or 0, p.name, p.id),
    )


@dataclass(frozen=True)
class EveningItem:
    date: datetime.date
    round_number: int | None  # the evening's round; None: a past evening without a round
    on_calendar: bool  # False: a round played on a date outside the calendar
    note: str
    start: datetime.datetime  # in Dutch time: the season's start time, else the club's


def season_evenings(*, season: Season, today: datetime.date | None = None) -> list[EveningItem]:
    """The season's club evenings by date with their rounds, as every page and the calendar
    feed give them (:func:`competition.selectors.evenings.season_evenings`: the round played
    on the date, a round on a date outside the calendar as an evening of its own, the rounds
    still to come counted on from the last one played); two queries, ``season`` with its club."""
    starts_at = season.evening_starts_at
    dutch_time = timezone.get_default_timezone()
    return [
        EveningItem(
            line.date,
            line.number,
            line.evening is not None,
            line.evening.note if line.evening is not None else "",
            datetime.datetime.combine(line.date, starts_at, tzinfo=dutch_time),
        )
        for line in evenings_of_season(season=season, today=today or timezone.localdate())
    ]
