"""The "can I still win?" page's reads: the stored chances with names, margins and what is
certain, whether a computation is asked for and not yet done (a task queued or running), and
whether the stored chances still describe the season (:func:`chances_stale`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db.models import F

from competition.models import Category, ClubEvening, Round, Season, SeasonChances, SeasonChancesJob
from competition.presentation.numbers import chance_text
from competition.scoring.exact import fraction_from_text
from competition.selectors.common import public_names
from competition.simulation.chances import TOP, FirstPlace, margin_of_error


@dataclass(frozen=True)
class RoundsLeft:
    """How many rounds remain after ``after_round`` (``count`` None: unknown) and whence."""

    after_round: int
    count: int | None
    source: str  # "planned", "calendar", "berger" or "unknown"


def rounds_left(*, season: Season) -> RoundsLeft:
    """The season's planned rounds (``Season.planned_rounds``, filled from the calendar or set
    by the TD) after the last completed round. Without them: the calendar's club evenings
    after the last completed round's date (all of them before the first round); else a round
    robin has the rest of its Berger cycle; a ladder season's is unknown."""
    last = (
        Round.objects.filter(season=season, status=Round.Status.COMPLETED)
        .order_by("-number")
        .values_list("number", "date")
        .first()
    )
    after_round, last_date = last if last else (0, None)
    if season.planned_rounds:
        return RoundsLeft(after_round, max(0, season.planned_rounds - after_round), "planned")
    evenings = ClubEvening.objects.filter(season=season)
    if evenings.exists():
        if last_date is not None:
            evenings = evenings.filter(date__gt=last_date)
        return RoundsLeft(after_round, evenings.count(), "calendar")
    if season.is_round_robin:
        n = season.participants.count()
        cycle = n - 1 if n % 2 == 0 else n
        if n >= 2 and after_round < cycle:
            return RoundsLeft(after_round, cycle - after_round, "berger")
    return RoundsLeft(after_round, None, "unknown")


def chances_stale(
    *, season: Season, chances: SeasonChances | None, left: RoundsLeft | None = None
) -> bool:
    """Whether the stored chances no longer describe the season (or none are stored);
    ``left``: :func:`rounds_left` when the caller has it."""
    if chances is None:
        return True
    if (chances.data_version, chances.rules_version) != (season.data_version, season.rules_version):
        return True
    left = left or rounds_left(season=season)
    return (left.after_round, left.count) != (chances.after_round, chances.rounds_left)


@dataclass(frozen=True)
class ChancesRow:
    participant_id: int
    name: str
    place: int  # in the standings the simulation started from
    first_place: str  # certain: a FirstPlace value ("secured", "possible", "open", "impossible")
    first: str  # the estimated chance of first place as written: "12,3 %", "< 0,1 %", "0 %"
    first_margin: float | None  # percentage points; None where the figure is certain
    top_three: str
    top_three_margin: float | None
    best_place: int  # certain: he finishes no higher
    worst_place: int  # and no lower
    needs: Fraction | None  # game points in the remaining rounds without which first is out
    secures: Fraction | None  # game points in the remaining rounds that make first place his
    needed_seen: Fraction | None  # the fewest with which he finished first in a simulation


@dataclass(frozen=True)
class CategoryChance:
    participant_id: int
    name: str
    place: int  # in the standings the simulation started from
    first: str  # the estimated chance of being the category's best placed, as written
    first_margin: float | None  # percentage points; None where the figure is certain


@dataclass(frozen=True)
class CategoryChances:
    name: str
    rows: tuple[CategoryChance, ...]  # its members, in the standings' order


@dataclass(frozen=True)
class ChancesPage:
    left: RoundsLeft  # today's calendar
    computed_at: datetime | None
    after_round: int
    rounds_left: int
    simulations: int
    draw_rate: float  # percent
    stale: bool  # a computation is asked for and not yet done: the page says so
    rows: tuple[ChancesRow, ...]
    categories: tuple[CategoryChances, ...] = ()  # the season's prize categories, in order


def chances_page(*, season: Season) -> ChancesPage:
    """The stored chances of ``season`` (empty rows when none are stored) and whether they
    still describe it."""
    stored = SeasonChances.objects.filter(season=season).first()
    left = rounds_left(season=season)
    pending = SeasonChancesJob.objects.filter(season=season, requested__gt=F("computed")).exists()
    if stored is None:
        return ChancesPage(left, None, 0, 0, 0, 0.0, pending, ())
    names = public_names(season_id=season.pk)
    n = stored.simulations

    def margin(count: float, certain: bool) -> float | None:
        share = count / n if n else 0.0
        return None if certain or share in (0.0, 1.0) else 100 * margin_of_error(share, n)

    rows = []
    for place, row in enumerate(stored.rows, start=1):
        # rows stored before the certain figures existed: nothing is claimed
        status = FirstPlace(row.get("first_place", FirstPlace.OPEN))
        best, worst = row.get("best_place", 1), row.get("worst_place", len(stored.rows))
        first_impossible = status is FirstPlace.IMPOSSIBLE
        first_certain = status is FirstPlace.SECURED
        top_impossible, top_certain = best > TOP, worst <= TOP
        rows.append(
            ChancesRow(
                participant_id=row["participant_id"],
                name=names.get(row["participant_id"], "?"),
                place=place,
                first_place=status.value,
                first=chance_text(
                    row["first"], n, impossible=first_impossible, certain=first_certain
                ),
                first_margin=margin(row["first"], first_impossible or first_certain),
                top_three=chance_text(
                    row["top_three"], n, impossible=top_impossible, certain=top_certain
                ),
                top_three_margin=margin(row["top_three"], top_impossible or top_certain),
                best_place=best,
                worst_place=worst,
                needs=_fraction(row.get("needs")),
                secures=_fraction(row.get("secures")),
                needed_seen=_fraction(row.get("needed_for_first")),
            )
        )
    return ChancesPage(
        left=left,
        computed_at=stored.computed_at,
        after_round=stored.after_round,
        rounds_left=stored.rounds_left,
        simulations=n,
        draw_rate=100 * stored.draw_rate,
        stale=pending,
        rows=tuple(rows),
        categories=_category_chances(season, stored.rows, n, names, margin),
    )


def _category_chances(
    season: Season,
    stored: list[dict[str, Any]],
    simulations: int,
    names: Mapping[int, str],
    margin: Callable[[float, bool], float | None],
) -> tuple[CategoryChances, ...]:
    """Per prize category (in the season's order, one query; none without categories) its
    members' chances of finishing its best placed, from the stored rows."""
    if not season.category_count:
        return ()
    found = []
    for category_id, category_name in Category.objects.filter(season=season).values_list(
        "pk", "name"
    ):
        key = str(category_id)
        members = []
        for place, row in enumerate(stored, start=1):
            status = row.get("category_status", {}).get(key)
            if status is None:
                continue
            impossible = status == FirstPlace.IMPOSSIBLE
            certain = status == FirstPlace.SECURED
            count = row["categories"].get(key, 0.0)
            members.append(
                CategoryChance(
                    participant_id=row["participant_id"],
                    name=names.get(row["participant_id"], "?"),
                    place=place,
                    first=chance_text(count, simulations, impossible=impossible, certain=certain),
                    first_margin=margin(count, impossible or certain),
                )
            )
        if members:
            found.append(CategoryChances(category_name, tuple(members)))
    return tuple(found)


def _fraction(text: str | None) -> Fraction | None:
    return None if text is None else fraction_from_text(text)
