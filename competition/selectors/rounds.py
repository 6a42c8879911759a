"""Reads for a round: the public round page, and the TD's round: its step, the next round's
number, the boards with their results, the entries without a game. Each takes model instances
and returns plain dataclasses in a small, constant number of queries."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import JSONField, Max, OuterRef, Subquery

from competition.models import Game, Round, RoundEntry, Season, StandingsSnapshot
from competition.selectors.common import member_public_name, user_label
from competition.selectors.corrections import Correction, round_trail
from competition.selectors.postponed import PendingGame
from competition.selectors.result_reports import EnteredResult


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


def latest_round_page(*, season: Season) -> RoundPage | None:
    """The page of the season's latest round (:func:`round_detail`), None before the first
    round or when that round was removed meanwhile."""
    number = latest_round_number(season=season)
    if number is None:
        return None
    try:
        return round_detail(season=season, number=number)
    except Round.DoesNotExist:  # removed between the two reads
        return None


class Step:
    """Where a round stands in the evening's flow (the next thing the TD does)."""

    ATTENDANCE = "attendance"
    PAIRING = "pairing"
    RESULTS = "results"
    CLOSED = "closed"


def round_step(*, round: Round, has_games: bool) -> str:
    """The next thing the TD does in ``round`` (a :class:`Step`); ``has_games``: a draft exists.

    A planned round starts with attendance, unless it already has a draft pairing, or it is a
    round-robin round: the Berger table pairs every participant (an absence is a forfeit;
    ``services.evening.attendance_record`` refuses one), so there is no attendance to take.
    For example a planned round-robin round without games is at ``Step.PAIRING``, a planned
    ladder round without games at ``Step.ATTENDANCE``.
    """
    if round.is_completed:
        return Step.CLOSED
    if round.is_published:
        return Step.RESULTS
    if has_games or round.season.is_round_robin:
        return Step.PAIRING
    return Step.ATTENDANCE


def round_has_games(*, round: Round) -> bool:
    """Whether ``round`` has boards (a draft or published pairing); one query."""
    return Game.objects.filter(round=round).exists()


def current_step(*, round: Round) -> str:
    """:func:`round_step` of ``round``, looking up whether it has a draft (one query)."""
    return round_step(round=round, has_games=round_has_games(round=round))


def new_round_number(*, season: Season) -> int:
    """The number the season's next round gets: one more than its highest, 1 for the first.

    The same rule as ``services.rounds.round_create``, for showing it before the round exists.
    """
    last = season.rounds.aggregate(last=Max("number"))["last"]
    return (last or 0) + 1


def round_game(round: Round, game_id: int) -> Game | None:
    """Board ``game_id`` of ``round`` with its players and who saved it last, or None."""
    return (
        Game.objects.select_related("white__member", "black__member", "updated_by")
        .filter(pk=game_id, round=round)
        .first()
    )


def round_entry(round: Round, entry_id: int) -> RoundEntry | None:
    """Entry ``entry_id`` of ``round`` with its participant, or None."""
    return (
        RoundEntry.objects.select_related("participant__member")
        .filter(pk=entry_id, round=round)
        .first()
    )


def open_board_count(*, round: Round) -> int:
    """How many boards of ``round`` have no result yet."""
    return Game.objects.filter(round=round, result=Game.Result.NOT_PLAYED).count()


@dataclass(frozen=True)
class ResultBoardRow:
    game_id: int
    board: int
    white: str
    black: str
    result: str
    result_label: str
    version: int
    saved_by: str
    saved_at: datetime.datetime | None
    # Played on another date (competition.services.postponed); pending while without a result.
    played_on: datetime.date | None = None

    @property
    def pending(self) -> bool:
        return self.played_on is not None and not self.result


@dataclass(frozen=True)
class EntryRow:
    entry_id: int
    name: str
    kind: str
    kind_label: str
    points: Decimal
    note: str
    version: int = 1
    external_result: str = ""  # a club duty that was an external game: "1", "1/2" or "0"


def result_board(*, game: Game) -> ResultBoardRow:
    """One board as the results page shows it (also the answer to a saved result)."""
    saved = game.result != Game.Result.NOT_PLAYED
    return ResultBoardRow(
        game_id=game.id,
        board=game.board,
        white=game.white.member.name,
        black=game.black.member.name,
        result=game.result,
        result_label=game.get_result_display() if saved else "",
        version=game.version,
        saved_by=user_label(user=game.updated_by) if saved and game.updated_by else "",
        saved_at=game.updated_at if saved else None,
        played_on=game.played_on,
    )


def result_boards(*, round: Round) -> list[ResultBoardRow]:
    games = (
        Game.objects.filter(round=round)
        .select_related("white__member", "black__member", "updated_by")
        .order_by("board")
    )
    return [result_board(game=game) for game in games]


def round_entries(*, round: Round) -> list[EntryRow]:
    return [
        EntryRow(
            entry_id=e.id,
            name=e.participant.member.name,
            kind=e.kind,
            kind_label=e.get_kind_display(),
            points=e.points,
            note=e.note,
            version=e.version,
            external_result=e.external_result,
        )
        for e in RoundEntry.objects.filter(round=round)
        .select_related("participant__member")
        .order_by("kind", "participant__member__name")
    ]
