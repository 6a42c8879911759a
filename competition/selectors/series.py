"""Reads for a rapid or blitz series: each evening's ranking from its own games
through the engine, the evening points by place, the series ranking over the evenings, a
participant's evenings, and the evening ranks the pairing of the next round of an evening uses.

The rules are in :mod:`competition.scoring.series`; every page here runs the engine on the
season's completed rounds in a constant number of queries (those of
:func:`~competition.selectors.common.season_input_with_public_names`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from competition.models import Round, Season
from competition.presentation import numbers
from competition.scoring import engine
from competition.scoring import series as rules
from competition.scoring.categories import Period
from competition.scoring.model import SeasonInput, StandingRow
from competition.scoring.registry import get_system
from competition.selectors.common import (
    season_input,
    season_input_with_public_names,
    season_tiebreak_codes,
)
from competition.selectors.standings import SeasonStandingsPage, standings_entry
from competition.selectors.standings import _standings_page as standings_page


def points_table(*, season: Season) -> tuple[int, ...]:
    """The season's evening points by place (the default table when none is set)."""
    return tuple(int(p) for p in season.evening_points or ()) or rules.DEFAULT_EVENING_POINTS


@dataclass(frozen=True)
class SeriesRules:
    """The series' own values in words, with a worked example of a shared place from its table
    (two players on place 2 share the points of places 2 and 3)."""

    rounds_per_evening: int
    points_table: tuple[int, ...]
    best_evenings: int | None
    second: int  # points of place 2
    third: int  # points of place 3
    shared_second: Fraction  # (second + third) / 2


def series_rules(*, season: Season) -> SeriesRules:
    """The season's series rules (no query)."""
    table = points_table(season=season)
    shared = rules.evening_points({1: 2, 2: 2}, table)[1]
    second = table[1] if len(table) > 1 else 0
    third = table[2] if len(table) > 2 else 0
    return SeriesRules(
        season.rounds_per_evening, table, season.best_evenings, second, third, shared
    )


@dataclass(frozen=True)
class EveningResult:
    """One evening as the series counts it: its rounds, the engine's rows, the points."""

    evening: Period
    rounds_played: int  # completed rounds of the evening
    complete: bool
    rows: tuple[StandingRow, ...]  # the engine's ranking after the evening's completed rounds
    points: Mapping[int, Fraction]  # evening points by participant id
    restricted: SeasonInput  # the engine input of the evening (renumbered 1 … k)


def _evenings(season: Season, season_in: SeasonInput) -> list[EveningResult]:
    """Every evening with at least one completed round, in order."""
    per_evening = season.rounds_per_evening
    last = max((rnd.number for rnd in season_in.rounds), default=0)
    table = points_table(season=season)
    results = []
    for evening in rules.evenings_of(per_evening, last):
        restricted = rules.evening_input(season_in, evening)
        played = len(restricted.rounds)
        if not played:
            continue
        rows = engine.standings_after(restricted, played).rows
        results.append(
            EveningResult(
                evening,
                played,
                played == per_evening,
                tuple(rows),
                rules.evening_points({row.participant_id: row.rank for row in rows}, table),
                restricted,
            )
        )
    return results


# --- the series ranking --------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesEvening:
    number: int
    first_round: int
    last_round: int
    rounds_played: int
    complete: bool
    winner: str  # shared first places joined with " · "


@dataclass(frozen=True)
class SeriesLine:
    participant_id: int
    rank: int
    name: str
    total: Fraction
    cells: tuple[tuple[Fraction | None, bool], ...]  # (points or None, counts) per evening
    evenings_played: int


@dataclass(frozen=True)
class SeriesPage:
    season: Season
    rules: SeriesRules
    evenings: tuple[SeriesEvening, ...]
    lines: tuple[SeriesLine, ...]

    @property
    def evening_numbers(self) -> list[int]:
        return [e.number for e in self.evenings]

    @property
    def under_way(self) -> bool:
        """Whether an evening counted is not complete yet."""
        return any(not e.complete for e in self.evenings)

    @property
    def points_style(self) -> str:
        """How the evenings' points are written (``styled_number``): one style for every
        evening's column, so 8,5 (a shared place) stands beside 6,0, not 6."""
        return numbers.column_style(points for line in self.lines for points, _ in line.cells)

    @property
    def total_style(self) -> str:
        """How the series totals are written: one style for the column."""
        return numbers.column_style(line.total for line in self.lines)


def series_page(*, season: Season) -> SeriesPage:
    """The series ranking over the evenings played so far (an evening under way counts with
    its completed rounds), with each evening's winner."""
    season_in, names = season_input_with_public_names(season=season)
    evenings = _evenings(season, season_in)
    ranking = rules.series_ranking([e.points for e in evenings], best=season.best_evenings)
    return SeriesPage(
        season,
        series_rules(season=season),
        tuple(
            SeriesEvening(
                e.evening.number,
                e.evening.first_round,
                e.evening.last_round,
                e.rounds_played,
                e.complete,
                " · ".join(names.get(r.participant_id, "?") for r in e.rows if r.rank == 1),
            )
            for e in evenings
        ),
        tuple(
            SeriesLine(
                row.participant_id,
                row.rank,
                names.get(row.participant_id, "?"),
                row.total,
                tuple((points, k in row.counted) for k, points in enumerate(row.points, start=1)),
                row.evenings_played,
            )
            for row in ranking
        ),
    )


# --- one evening ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EveningPointsLine:
    rank: int
    name: str
    points: Fraction
    shared: int  # how many share this place (1: nobody else)


@dataclass(frozen=True)
class EveningPage:
    season: Season
    number: int
    first_round: int
    last_round: int
    evening_count: int  # evenings with a completed round (for the links)
    rounds_played: int
    complete: bool
    standings: SeasonStandingsPage | None  # the evening's ranking, shown like the standings
    points: tuple[EveningPointsLine, ...]

    @property
    def evening_numbers(self) -> list[int]:
        return list(range(1, self.evening_count + 1))

    @property
    def points_style(self) -> str:
        """How the evening points are written (``styled_number``): one style for the column,
        so 8,5 (a shared place) stands above 6,0, not 6."""
        return numbers.column_style(line.points for line in self.points)


def evening_page(*, season: Season, number: int) -> EveningPage:
    """Evening ``number``'s ranking from its own games and each player's evening points.
    Raises ``LookupError`` for an evening without a completed round."""
    season_in, names = season_input_with_public_names(season=season)
    evenings = _evenings(season, season_in)
    if not 1 <= number <= len(evenings):
        raise LookupError(f"season {season.pk} has no evening {number}")
    result = evenings[number - 1]
    played = result.rounds_played
    # Moves since the evening's previous round (none after its first).
    previous = (
        {
            row.participant_id: row.rank
            for row in engine.standings_after(result.restricted, played - 1).rows
        }
        if played > 1
        else {}
    )
    page = standings_page(
        season,
        get_system(result.restricted.system),
        season_tiebreak_codes(season=season),
        list(range(1, played + 1)),
        played,
        [_row(row, names) for row in result.rows],
        previous,
        "",
    )
    sharing: dict[int, int] = {}
    for row in result.rows:
        sharing[row.rank] = sharing.get(row.rank, 0) + 1
    return EveningPage(
        season,
        number,
        result.evening.first_round,
        result.evening.last_round,
        len(evenings),
        played,
        result.complete,
        page,
        tuple(
            EveningPointsLine(
                row.rank,
                names.get(row.participant_id, "?"),
                result.points[row.participant_id],
                sharing[row.rank],
            )
            for row in result.rows
        ),
    )


def _row(row: StandingRow, names: Mapping[int, str]) -> dict[str, Any]:
    return standings_entry(row=row, names=names)


# --- the participant page ------------------------------------------------------------------


@dataclass(frozen=True)
class ParticipantEvening:
    number: int
    rank: int | None  # None: he did not play that evening
    points: Fraction | None
    counts: bool  # among the evenings that make his series total


@dataclass(frozen=True)
class ParticipantSeries:
    evenings: tuple[ParticipantEvening, ...]
    rank: int | None  # his place in the series ranking
    total: Fraction
    best_evenings: int | None
    points_table: tuple[int, ...]

    @property
    def points_style(self) -> str:
        """How his evenings' points are written (``styled_number``): one style for the column,
        so 8,5 stands above 6,0 when a shared place gave a half."""
        return numbers.column_style(e.points for e in self.evenings)


def participant_series(*, season: Season, participant_id: int) -> ParticipantSeries:
    """A participant's evening places and points, and which evenings count for his total."""
    evenings = _evenings(season, season_input(season=season))
    ranking = rules.series_ranking([e.points for e in evenings], best=season.best_evenings)
    own = next((row for row in ranking if row.participant_id == participant_id), None)
    counted = own.counted if own else frozenset()
    lines = []
    for e in evenings:
        rank = next((r.rank for r in e.rows if r.participant_id == participant_id), None)
        lines.append(
            ParticipantEvening(
                e.evening.number,
                rank,
                e.points.get(participant_id),
                e.evening.number in counted,
            )
        )
    return ParticipantSeries(
        tuple(lines),
        own.rank if own else None,
        own.total if own else Fraction(0),
        season.best_evenings,
        points_table(season=season),
    )


# --- the pairing of the next round of an evening -------------------------------------------


def evening_ranks(*, round: Round) -> dict[int, int]:
    """The places in ``round``'s evening after its earlier rounds (the engine on them); empty
    for the evening's first round. The pairing engine pairs by these within the evening."""
    season = round.season
    per_evening = season.rounds_per_evening
    position = rules.round_in_evening(round.number, per_evening)
    if position == 1:
        return {}
    first = round.number - position + 1
    evening = Period(rules.evening_of(round.number, per_evening), first, round.number - 1)
    restricted = rules.evening_input(season_input(season=season), evening)
    played = len(restricted.rounds)
    if not played:
        return {}
    return {row.participant_id: row.rank for row in engine.standings_after(restricted, played).rows}
