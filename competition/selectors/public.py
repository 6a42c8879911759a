"""Reads for the public pages: home, standings, a round, the crosstable, how it works. Each
takes a constant number of queries, whatever the season's size.

Standings come from the cached ``StandingsSnapshot`` rows; pages that need more than the
standings (the crosstable) load the season once with ``season_input`` (four
queries) and run the pure engine on it. Numbers stay exact (``Fraction``) up to the template,
which formats them for the reader's language. A participant's page is in
:mod:`competition.selectors.participant`, the systems side by side in
:mod:`competition.selectors.systems`.
"""

from __future__ import annotations

import datetime
import functools
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import connections, router
from django.db.models import Count, JSONField, Max, OuterRef, Subquery, Sum, TextField
from django.db.models.functions import Cast, Coalesce
from django.utils.translation import pgettext_lazy

from competition.clubs import club_url
from competition.models import (
    Club,
    ForbiddenPair,
    Game,
    Round,
    RoundEntry,
    Season,
    SeasonRules,
    StandingsSnapshot,
)
from competition.presentation import numbers
from competition.presentation.ties import StandingRow, tiebreak_separations
from competition.scoring import engine
from competition.scoring.exact import fraction_from_text
from competition.scoring.fingerprint import short_fingerprint, short_form
from competition.scoring.model import StandingRow as StandingRowResult
from competition.scoring.parameters import parameters_from_json
from competition.scoring.records import RoundRecord, records_by_participant
from competition.scoring.registry import SYSTEMS, get_system
from competition.scoring.systems.base import RankingSystem
from competition.scoring.tiebreaks import validate_tiebreaks
from competition.selectors.common import (
    member_public_name,
    public_names_of,
    public_names_with_withdrawals,
    season_input_with_public_names,
    season_tiebreak_codes,
)
from competition.selectors.corrections import Correction, round_trail
from competition.selectors.participants import ParticipantPage, participant_detail
from competition.selectors.result_reports import EnteredResult
from competition.selectors.snapshots import ranking_in_snapshot_text

# --------------------------------------------------------------------------------------------
# Home page


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


@functools.cache
def _season_versions_sql(alias: str) -> str:
    """The SQL of ``Season.objects.filter(slug=…).values_list(pk, data_version, rules_version)``
    for one database, compiled once: compiling it took longer than running it."""
    query = (
        Season.objects.using(alias)
        .filter(club_id=0, slug="-")
        .order_by()  # the slug is unique per club: no ORDER BY needed
        .values_list("pk", "data_version", "rules_version")
        .query
    )
    sql, params = query.sql_with_params()
    assert params == (0, "-"), params  # the club and the slug are the only parameters
    return sql


def season_versions(*, club: Club | None, slug: str) -> tuple[int, int, int] | None:
    """The season's pk, ``data_version`` and ``rules_version`` (one query), or None.

    Read on every request for an anonymous page (the key of its cache), so it is raw SQL.
    """
    alias = router.db_for_read(Season)
    with connections[alias].cursor() as cursor:
        cursor.execute(_season_versions_sql(alias), [club.pk if club else 0, slug])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1], row[2])


@functools.cache
def _round_versions_sql(alias: str) -> str:
    """One query for everything a round's public page shows that a write can change."""

    def aggregate(model: type[Game] | type[RoundEntry], function: Any) -> Subquery:
        rows = model.objects.filter(round=OuterRef("pk")).order_by().values("round")
        return Subquery(rows.annotate(figure=function).values("figure"))

    rounds = Round.objects.filter(season=OuterRef("season")).order_by().values("season")
    query = (
        Round.objects.using(alias)
        .filter(season__club_id=0, season__slug="-", number=0)
        .order_by()
        .annotate(
            board_count=aggregate(Game, Count("pk")),
            board_versions=aggregate(Game, Sum("version")),
            board_saved=aggregate(Game, Max("updated_at")),
            entry_count=aggregate(RoundEntry, Count("pk")),
            entry_versions=aggregate(RoundEntry, Sum("version")),
            entry_saved=aggregate(RoundEntry, Max("updated_at")),
            round_count=Subquery(rounds.annotate(n=Count("pk")).values("n")),
        )
        .values_list(
            "season_id",
            "season__data_version",
            "season__rules_version",
            "pk",
            "status",
            "date",
            "board_count",
            "board_versions",
            "board_saved",
            "entry_count",
            "entry_versions",
            "entry_saved",
            "round_count",
        )
        .query
    )
    sql, params = query.sql_with_params()
    # the number, the club and the slug are the only parameters (Q sorts them by name)
    assert params == (0, 0, "-"), params
    return sql


def round_versions(*, club: Club | None, slug: str, number: int) -> tuple[Any, ...] | None:
    """What a round's public page depends on, as one row (one query), or None when there is no
    such round: the season's pk and versions (names, rules), the round's status and date, the
    count, versions and latest save of its boards and of its entries (every result, correction,
    published or withdrawn pairing and attendance change moves one of them), and the number of
    rounds (the page links to each). The key of the round page's cache for anonymous readers.
    """
    alias = router.db_for_read(Round)
    with connections[alias].cursor() as cursor:
        cursor.execute(_round_versions_sql(alias), [number, club.pk if club else 0, slug])
        row = cursor.fetchone()
    return None if row is None else tuple(row)


# --------------------------------------------------------------------------------------------
# Standings


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
class PendingGame:
    """A game played on another date that has no result yet, as the public pages show it:
    "Inhaalpartij: X – Y, ronde 5, speeldatum 12 december"."""

    round_number: int
    board: int
    white: str
    black: str
    played_on: datetime.date


def pending_games(*, season: Season) -> list[PendingGame]:
    """The games on another date without a result (competition.services.postponed) of the
    season's completed rounds (those the standings count), in the order of their dates, with
    the players' public names (one query)."""
    games = (
        Game.objects.filter(
            round__season=season,
            round__status=Round.Status.COMPLETED,
            played_on__isnull=False,
            result=Game.Result.NOT_PLAYED,
        )
        .select_related("round", "white__member", "black__member")
        .order_by("played_on", "round__number", "board")
    )
    return [
        PendingGame(
            game.round.number,
            game.board,
            member_public_name(member=game.white.member, season=season),
            member_public_name(member=game.black.member, season=season),
            game.played_on,
        )
        for game in games
        if game.played_on is not None
    ]


@dataclass(frozen=True)
class RuleChange:
    """A change of the season's rules as the public pages report it."""

    version: int  # the rule set that came into force
    valid_from: datetime.datetime
    from_round: int  # 1: every round was recomputed; else the first round it scores


def rule_changes(*, season: Season) -> list[RuleChange]:
    """The season's changes of rules, oldest first (one query; none when the rules never
    changed)."""
    if season.rules_version <= 1:
        return []
    return [
        RuleChange(*row)
        for row in SeasonRules.objects.filter(season=season, version__gte=2)
        .order_by("version")
        .values_list("version", "valid_from", "from_round")
    ]


# --------------------------------------------------------------------------------------------
# Round page


@dataclass(frozen=True)
class PublicEntry:
    """A round without a game as the public sees it: who, which kind, the points. The entry's
    note stays out (it holds what a member told the TD, such as why he cannot come)."""

    participant_id: int
    kind: str
    points: Decimal


@dataclass(frozen=True)
class RoundPage:
    season: Season
    round: Round
    round_numbers: list[int]
    games: list[Game]
    entries_by_kind: list[tuple[str, str, list[PublicEntry]]]  # (kind, label, entries)
    corrections: list[Correction]
    names: dict[int, str] = field(default_factory=dict)  # public names of the shown players
    # each player's place in the standings before the round (none before round 1)
    places: dict[int, int] = field(default_factory=dict)
    # the results the players entered themselves: who entered, who confirmed
    entered_results: list[EnteredResult] = field(default_factory=list)
    # its games on another date still without a result
    pending: list[PendingGame] = field(default_factory=list)


def latest_round_number(*, season: Season) -> int | None:
    """The highest round number of the season, or None before the first round (one query)."""
    return (
        Round.objects.filter(season=season)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


def round_detail(*, season: Season, number: int) -> RoundPage:
    """A round's pairings, results, absences by kind, byes and corrections (constant queries).

    Raises ``Round.DoesNotExist`` for an unknown round. The draft pairing of a round not yet
    published (its boards and bye) is the TD's alone: the page shows neither.
    """
    # with the standings before it, for each player's place beside his name
    rnd = Round.objects.annotate(
        rows_before=Subquery(
            StandingsSnapshot.objects.filter(
                season_id=OuterRef("season_id"), round_number=OuterRef("number") - 1
            ).values("rows")[:1],
            output_field=JSONField(),
        )
    ).get(season=season, number=number)
    numbers = list(
        Round.objects.filter(season=season).order_by("number").values_list("number", flat=True)
    )
    games = list(
        Game.objects.filter(round=rnd)
        .select_related("white__member", "black__member")
        .order_by("board")
    )
    entries = list(
        RoundEntry.objects.filter(round=rnd)
        .select_related("participant__member")
        .defer("note")  # the TD's alone (PublicEntry)
        .order_by("participant__member__name")
    )
    if rnd.is_planned:
        games = []
        entries = [e for e in entries if e.kind != RoundEntry.Kind.BYE]
    grouped: dict[str, list[PublicEntry]] = defaultdict(list)
    for entry in entries:
        grouped[entry.kind].append(PublicEntry(entry.participant_id, entry.kind, entry.points))
    entries_by_kind = [
        (kind, str(label), grouped[kind])
        for kind, label in RoundEntry.Kind.choices
        if grouped[kind]
    ]
    corrections, entered = round_trail(round=rnd, public=True)
    names = {
        participant.pk: member_public_name(member=participant.member, season=season)
        for participant in [
            *(p for game in games for p in (game.white, game.black)),
            *(entry.participant for entry in entries),
        ]
    }
    places = {row["participant_id"]: row["rank"] for row in rnd.rows_before or ()} if games else {}
    pending = [
        PendingGame(
            rnd.number, game.board, names[game.white_id], names[game.black_id], game.played_on
        )
        for game in games
        if game.played_on is not None and game.result == Game.Result.NOT_PLAYED
    ]
    return RoundPage(
        season,
        rnd,
        numbers,
        games,
        entries_by_kind,
        corrections,
        names,
        places,
        entered,
        pending,
    )


# --------------------------------------------------------------------------------------------
# Crosstable


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


# --------------------------------------------------------------------------------------------
# How it works


@dataclass(frozen=True)
class HowItWorksPage:
    season: Season
    system: RankingSystem
    parameters: list[tuple[Any, Any]]  # (ParameterSpec, current value)
    tiebreak_codes: tuple[str, ...]
    example: ParticipantPage | None
    participants: int = 0  # how many take part (Keizer's top value follows from it)
    forbidden_pairs: int = 0  # pairs the pairing keeps apart


def how_it_works(*, season: Season) -> HowItWorksPage:
    """The season's system, its parameters as they are now, and a worked example: the
    explanation of the leader's figures after the latest round."""
    system = get_system(season.system)
    try:
        values = system.validate(parameters_from_json(season.parameters))
    except ValueError:
        values = {spec.name: spec.default for spec in system.parameters}
    parameters = [(spec, values[spec.name]) for spec in system.parameters]
    pairs = (
        ForbiddenPair.objects.filter(season=OuterRef("season"))
        .order_by()
        .values("season")
        .annotate(n=Count("pk"))
        .values("n")[:1]
    )
    leader = (
        StandingsSnapshot.objects.filter(season=season)
        .annotate(forbidden_pairs=Coalesce(Subquery(pairs), 0))  # read with it: no query more
        .order_by("-round_number")
        .first()
    )
    example = None
    if leader is not None and leader.rows:
        example = participant_detail(
            season=season,
            participant_id=leader.rows[0]["participant_id"],
            after_round=leader.round_number,
        )
        participants = len(leader.rows)  # a snapshot has a row for every participant
    else:
        participants = season.participants.count()
    forbidden = leader.forbidden_pairs if leader is not None else season.forbidden_pairs.count()
    return HowItWorksPage(
        season,
        system,
        parameters,
        season_tiebreak_codes(season=season),
        example,
        participants,
        0 if season.is_round_robin else forbidden,
    )
