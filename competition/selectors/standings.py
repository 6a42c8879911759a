"""Reads for the standings: a season's standings after a round (from the cached
``StandingsSnapshot`` rows), the crosstable, and what a closed round changed in them. Each
takes a constant number of queries, whatever the season's size.

Pages that need more than the standings (the crosstable) load the season once with
``season_input`` (four queries) and run the pure engine on it. Numbers stay exact
(``Fraction``) up to the template, which formats them for the reader's language.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils.translation import pgettext_lazy

from competition.models import Round, Season, StandingsSnapshot
from competition.presentation.ties import StandingRow, tiebreak_separations
from competition.scoring import engine
from competition.scoring.exact import fraction_from_text
from competition.scoring.fingerprint import short_fingerprint, short_form
from competition.scoring.model import StandingRow as StandingRowResult
from competition.scoring.records import RoundRecord, records_by_participant
from competition.scoring.registry import get_system
from competition.scoring.systems.base import RankingSystem
from competition.scoring.tiebreaks import validate_tiebreaks
from competition.selectors.common import (
    participant_names,
    public_names_with_withdrawals,
    season_input_with_public_names,
    season_tiebreak_codes,
)
from competition.selectors.snapshots import ranking_in_snapshot_text


@dataclass(frozen=True)
class SeasonStandingsPage:
    season: Season
    after_round: int | None  # None: no completed round yet
    rounds: list[int]  # every round with standings, for the selector
    primary: str  # the system's primary code
    figure_codes: tuple[str, ...]  # the system's other figures shown (IP, RV)
    tiebreak_codes: tuple[str, ...]
    rows: list[dict[str, Any]]  # rank order; exact values as Fraction; "separated_by" (ties)
    # what orders equal scores: the system's secondary figures, then the tie-breaks
    order_criteria: tuple[str, ...] = ()
    # the short form of the standings fingerprint (competition.scoring.fingerprint); "" without
    # completed rounds
    fingerprint: str = ""
    rules_version: int = 1  # the rule set the standings are scored by
    ranking_dependent: bool = False  # the system ranks on its own ranking (Keizer)


def _row_from_snapshot(
    row: Mapping[str, Any], name: str, parsed: dict[str, Fraction]
) -> dict[str, Any]:
    """A stored row with its figures as fractions; ``parsed`` keeps the texts already parsed
    (the same score recurs across a table: parsing each text once is faster)."""

    def number(text: str) -> Fraction:
        value = parsed.get(text)
        if value is None:
            value = parsed[text] = fraction_from_text(text)
        return value

    return {
        "participant_id": row["participant_id"],
        "rank": row["rank"],
        "name": name,
        "score": number(row["score"]),
        "game_points": number(row["game_points"]),
        "values": {code: number(text) for code, text in row["values"].items()},
        "games": row["games"],
        "eligible": row["eligible"],
    }


def standings_for_season(
    *, season: Season, after_round: int | None = None, rules_version: int | None = None
) -> SeasonStandingsPage:
    """The standings after ``after_round`` (default: the latest) with movement since the round
    before, and the season's standings fingerprint as stored with the snapshot
    (``standings_recompute``); three queries whatever the size of the season.

    ``rules_version`` (an earlier rule set of the season) gives the standings as that rule set
    scores the season, computed afresh (a few queries more); raises ``SeasonRules.DoesNotExist``
    for a version the season never had.
    """
    if rules_version is not None and rules_version != season.rules_version:
        return _standings_under_rules(season, after_round, rules_version)
    system = get_system(season.system)
    # ordered by round only: the default ordering would join the season and its club
    rounds = list(
        StandingsSnapshot.objects.filter(season=season)
        .order_by("round_number")
        .values_list("round_number", flat=True)
    )
    codes = season_tiebreak_codes(season=season)
    if not rounds:
        return _standings_page(season, system, codes, rounds, None, [], {}, "")
    if after_round not in rounds:
        after_round = rounds[-1]
    # as text: the round before gives only each row's rank (read without decoding the rows)
    snapshots = {
        number: (text, fingerprint)
        for number, text, fingerprint in StandingsSnapshot.objects.filter(
            season=season, round_number__in=[after_round, after_round - 1]
        )
        .order_by()
        .values_list("round_number", Cast("rows", output_field=TextField()), "fingerprint")
    }
    names, withdrawn = public_names_with_withdrawals(season_id=season.pk)
    text, fingerprint = snapshots[after_round]
    parsed: dict[str, Fraction] = {}
    rows = [
        _row_from_snapshot(row, names.get(row["participant_id"], "?"), parsed)
        for row in json.loads(text)
    ]
    for entry in rows:
        entry["withdrawn_from_round"] = withdrawn.get(entry["participant_id"])
    return _standings_page(
        season,
        system,
        codes,
        rounds,
        after_round,
        rows,
        ranking_in_snapshot_text(text=snapshots[after_round - 1][0])
        if after_round - 1 in snapshots
        else {},
        short_form(fingerprint) if fingerprint else "",
    )


def _standings_under_rules(
    season: Season, after_round: int | None, rules_version: int
) -> SeasonStandingsPage:
    """The standings page as rule set ``rules_version`` scores the season's completed rounds."""
    season_in, names = season_input_with_public_names(season=season, rules_version=rules_version)
    system = get_system(season_in.system)
    try:
        codes = validate_tiebreaks(season_in.tiebreaks)
    except ValueError:
        codes = tuple(season_in.tiebreaks)
    history = {
        standings.round_number: standings
        for standings in engine.standings_history(season_in).history
    }
    rounds = sorted(history)
    if not rounds:
        return _standings_page(season, system, codes, rounds, None, [], {}, "", rules_version)
    if after_round not in rounds:
        after_round = rounds[-1]

    def entry(row: StandingRowResult) -> dict[str, Any]:
        return standings_entry(row=row, names=names, withdrawn=withdrawn)

    withdrawn = {p.id: p.withdrawn_round for p in season_in.participants if p.withdrawn_round}
    previous = history.get(after_round - 1)
    return _standings_page(
        season,
        system,
        codes,
        rounds,
        after_round,
        [entry(row) for row in history[after_round].rows],
        {row.participant_id: row.rank for row in previous.rows} if previous else {},
        short_fingerprint(season_in),
        rules_version,
    )


def standings_entry(
    *, row: StandingRowResult, names: Mapping[int, str], withdrawn: Mapping[int, int] | None = None
) -> dict[str, Any]:
    """An engine's standings row as the standings pages' tables take it (as a stored snapshot
    row reads, :func:`_row_from_snapshot`), with the public name."""
    return {
        "participant_id": row.participant_id,
        "rank": row.rank,
        "name": names.get(row.participant_id, "?"),
        "score": row.score,
        "game_points": row.game_points,
        "values": dict(row.values),
        "games": row.games_played,
        "eligible": row.eligible,
        "withdrawn_from_round": (withdrawn or {}).get(row.participant_id),
    }


def _standings_page(
    season: Season,
    system: RankingSystem,
    codes: tuple[str, ...],
    rounds: list[int],
    after_round: int | None,
    rows: list[dict[str, Any]],
    previous_rank: Mapping[int, int],
    fingerprint: str,
    rules_version: int | None = None,
) -> SeasonStandingsPage:
    """The page from its rows in rank order: movement since the ranks of the round before
    (``previous_rank``: participant id → rank) and what separated equal scores."""
    others = tuple(code for code in system.figure_codes if code != system.primary)
    for entry in rows:
        before = previous_rank.get(entry["participant_id"])
        entry["movement"] = None if before is None else before - entry["rank"]
    # Why each row is below the one above it with the same score (rank order, as stored).
    criteria = (*system.secondary, *codes)
    separations = tiebreak_separations(
        [StandingRow(row["rank"], row["score"], row["values"]) for row in rows], criteria
    )
    for entry, reason in zip(rows, separations, strict=True):
        entry["separated_by"] = reason
    return SeasonStandingsPage(
        season,
        after_round,
        rounds,
        system.primary,
        others,
        codes,
        rows,
        criteria,
        fingerprint=fingerprint,
        rules_version=season.rules_version if rules_version is None else rules_version,
        ranking_dependent=system.ranking_dependent,
    )


@dataclass(frozen=True)
class CrossCell:
    """One participant's round, or his games against one opponent, as the wallchart shows it."""

    text: str  # "½", "1", "+", "−", "12w1" ...
    entry: str = ""  # the entry kind of a round without a game (shown abbreviated)
    kind: str = ""  # "win", "draw", "loss", "unplayed", "self", ""


@dataclass(frozen=True)
class CrosstablePage:
    season: Season
    round_robin: bool
    rounds: list[int]
    rows: list[dict[str, Any]]  # rank, name, participant_id, points, cells: list[CrossCell]
    columns: list[int] = field(default_factory=list)  # round robin: the rank numbers


_RESULT_GLYPH = {Fraction(1): "1", Fraction(1, 2): "½", Fraction(0): "0"}


def _glyph(record: RoundRecord) -> tuple[str, str]:
    """The wallchart symbol of a round and its kind for styling."""
    if record.result is not None and record.result.is_forfeit:
        if record.points > 0:
            return "+", "win"
        return "−", "loss"
    if record.result is not None and record.played:
        kind = {Fraction(1): "win", Fraction(1, 2): "draw", Fraction(0): "loss"}[record.points]
        return _RESULT_GLYPH[record.points], kind
    if record.points:
        return _points_glyph(record.points), "unplayed"
    return "", "unplayed"


def _points_glyph(points: Fraction) -> str:
    whole, rest = divmod(points, 1)
    if rest == Fraction(1, 2):
        return "½" if whole == 0 else f"{int(whole)}½"
    return str(int(points)) if rest == 0 else str(points)


def crosstable(*, season: Season) -> CrosstablePage:
    """The wallchart: for a round robin every pair's results in a grid (rows and columns in rank
    order); otherwise one column per round with the opponent's rank, colour and result.

    Five queries (the season's input and the last snapshot).
    """
    season_in, names = season_input_with_public_names(season=season)
    last = len(season_in.rounds)
    snapshot = StandingsSnapshot.objects.filter(season=season).order_by("-round_number").first()
    if snapshot is not None:
        order = [(row["rank"], row["participant_id"], row["game_points"]) for row in snapshot.rows]
    else:
        order = [(index + 1, p.id, "0") for index, p in enumerate(season_in.participants)]
    position = {pid: index + 1 for index, (_rank, pid, _gp) in enumerate(order)}
    records = records_by_participant(season_in, last) if last else {}
    rows: list[dict[str, Any]] = []
    for rank, pid, game_points in order:
        own = records.get(pid, ())
        if season.is_round_robin:
            cells = _round_robin_cells(own, [p for _r, p, _g in order], pid)
        else:
            cells = [_wallchart_cell(record, position) for record in own]
        rows.append(
            {
                "rank": rank,
                "number": position[pid],
                "participant_id": pid,
                "name": names.get(pid, "?"),
                "points": fraction_from_text(game_points),
                "cells": cells,
            }
        )
    return CrosstablePage(
        season,
        season.is_round_robin,
        list(range(1, last + 1)),
        rows,
        list(range(1, len(order) + 1)) if season.is_round_robin else [],
    )


def _round_robin_cells(
    records: Sequence[RoundRecord], order: Sequence[int], pid: int
) -> list[CrossCell]:
    against: dict[int, list[str]] = defaultdict(list)
    for record in records:
        if record.opponent is not None:
            against[record.opponent].append(_glyph(record)[0])
    cells = []
    for other in order:
        if other == pid:
            cells.append(CrossCell("×", kind="self"))
        else:
            cells.append(CrossCell(" ".join(against.get(other, [])) or "", kind=""))
    return cells


# The colour letters of a wallchart cell: Dutch wallcharts write "z" (zwart) for black.
_COLOUR_LETTERS = {
    "w": pgettext_lazy("colour letter in the crosstable", "w"),
    "b": pgettext_lazy("colour letter in the crosstable", "b"),
}


def _wallchart_cell(record: RoundRecord, position: Mapping[int, int]) -> CrossCell:
    glyph, kind = _glyph(record)
    if record.opponent is not None:
        colour = str(_COLOUR_LETTERS.get(record.colour, record.colour))
        return CrossCell(f"{position.get(record.opponent, '?')}{colour}{glyph}", kind=kind)
    entry = record.entry.value if record.entry else "not_paired"
    return CrossCell(glyph, entry=entry, kind="unplayed")


@dataclass(frozen=True)
class StandingMove:
    participant_id: int
    name: str
    rank: int
    previous_rank: int | None  # None: not in the previous standings
    score: str
    game_points: str

    @property
    def moved(self) -> int:
        """Places gained (positive) or lost (negative); 0 for a newcomer."""
        return 0 if self.previous_rank is None else self.previous_rank - self.rank


@dataclass(frozen=True)
class StandingsChange:
    after_round: int | None
    top: list[StandingMove]
    movers: list[StandingMove]  # biggest moves first


def standings_change(*, round: Round, top: int = 10, movers: int = 8) -> StandingsChange:
    """The standings after ``round`` against those after the round before."""
    snapshots = list(
        round.season.snapshots.filter(round_number__lte=round.number).order_by("-round_number")[:2]
    )
    if not snapshots or snapshots[0].round_number != round.number:
        return StandingsChange(after_round=None, top=[], movers=[])
    now, before = snapshots[0], snapshots[1] if len(snapshots) > 1 else None
    previous = {row["participant_id"]: row["rank"] for row in (before.rows if before else [])}
    names = participant_names(season_id=round.season_id)
    rows = [
        StandingMove(
            participant_id=row["participant_id"],
            name=names.get(row["participant_id"], "?"),
            rank=row["rank"],
            previous_rank=previous.get(row["participant_id"]) if before else None,
            score=row["score"],
            game_points=row["game_points"],
        )
        for row in now.rows
    ]
    moved = sorted((r for r in rows if r.moved), key=lambda r: (-abs(r.moved), r.rank))
    return StandingsChange(after_round=now.round_number, top=rows[:top], movers=moved[:movers])
