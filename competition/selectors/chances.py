"""The "can I still win?" page's reads: the stored chances with names and margins, and whether
a computation is asked for and not yet done (a task queued or running)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from django.db.models import F

from competition.exact import fraction_from_text
from competition.models import Season, SeasonChances, SeasonChancesJob
from competition.selectors.common import public_names
from competition.services.chances import RoundsLeft, rounds_left
from competition.simulation.chances import margin_of_error


@dataclass(frozen=True)
class ChancesRow:
    participant_id: int
    name: str
    place: int  # in the standings the simulation started from
    first: float  # percent
    first_margin: float  # percentage points
    top_three: float
    top_three_margin: float
    needed: Fraction | None  # fewest game points in the remaining rounds with a chance of first


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


def chances_page(*, season: Season) -> ChancesPage:
    """The stored chances of ``season`` (empty rows when none are stored) and whether they
    still describe it."""
    stored = SeasonChances.objects.filter(season=season).first()
    left = rounds_left(season)
    pending = SeasonChancesJob.objects.filter(season=season, requested__gt=F("computed")).exists()
    if stored is None:
        return ChancesPage(left, None, 0, 0, 0, 0.0, pending, ())
    names = public_names(season_id=season.pk)
    n = stored.simulations

    def percent(count: int) -> tuple[float, float]:
        share = count / n if n else 0.0
        return 100 * share, 100 * margin_of_error(share, n)

    rows = []
    for place, row in enumerate(stored.rows, start=1):
        first, first_margin = percent(row["first"])
        top, top_margin = percent(row["top_three"])
        needed = row.get("needed_for_first")
        rows.append(
            ChancesRow(
                participant_id=row["participant_id"],
                name=names.get(row["participant_id"], "?"),
                place=place,
                first=first,
                first_margin=first_margin,
                top_three=top,
                top_three_margin=top_margin,
                needed=None if needed is None else fraction_from_text(needed),
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
    )
