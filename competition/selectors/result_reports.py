"""Reads for the results the players enter themselves: tonight's board on the member's page,
each board's state on the TD's results page, and the public trail of who entered and who
confirmed a result.

The member's page and the public trail name players as the public pages do
(:func:`competition.selectors.common.public_names`); the TD's page shows full names.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Q

from competition.models import (
    OPEN_STATUSES,
    PLAYER_RESULTS,
    Game,
    Participant,
    ResultEntry,
    ResultReport,
    Round,
    Season,
)
from competition.selectors.common import participant_names, public_names


@dataclass(frozen=True)
class ReportLine:
    """One player's word on his board."""

    report_id: int
    participant_id: int
    name: str
    result: str  # Game.Result code
    result_label: str
    status: str  # ResultReport.Status
    reported_at: datetime.datetime


def _line(report: ResultReport, names: dict[int, str]) -> ReportLine:
    return ReportLine(
        report_id=report.pk,
        participant_id=report.participant_id,
        name=names.get(report.participant_id, "?"),
        result=report.result,
        result_label=report.get_result_display(),
        status=report.status,
        reported_at=report.reported_at,
    )


# --- the member's page -----------------------------------------------------------------------


@dataclass(frozen=True)
class MyBoardReport:
    """Tonight's board of a member in a season where the players enter results: what he may
    do on it now."""

    game_id: int
    board: int
    result: str  # the board's result, "" while it has none
    result_entry: str  # the season's ResultEntry
    mine: ReportLine | None  # his own open word (entered or disputed)
    theirs: ReportLine | None  # his opponent's open word
    choices: tuple[tuple[str, str], ...]  # (code, label) of the results a player may enter

    @property
    def is_disputed(self) -> bool:
        return any(
            line is not None and line.status == ResultReport.Status.DISPUTED
            for line in (self.mine, self.theirs)
        )

    @property
    def td_confirms(self) -> bool:
        return self.result_entry == ResultEntry.PLAYERS_TD_CONFIRMS


def my_result_reports(*, user: AbstractBaseUser | AnonymousUser) -> dict[int, MyBoardReport]:
    """By season id: the user's board in each running season's published round whose players
    enter results (three queries, and one per season for its public names)."""
    if not isinstance(user, User) or not user.is_authenticated:
        return {}
    participants = list(
        Participant.objects.filter(
            member__user=user,
            season__status=Season.Status.RUNNING,
            season__result_entry__in=[ResultEntry.PLAYERS_TD_CONFIRMS, ResultEntry.PLAYERS_AGREE],
        ).select_related("season")
    )
    if not participants:
        return {}
    ids = [p.pk for p in participants]
    games = list(
        Game.objects.filter(
            Q(white_id__in=ids) | Q(black_id__in=ids), round__status=Round.Status.PAIRED
        ).select_related("round")
    )
    open_reports: defaultdict[int, list[ResultReport]] = defaultdict(list)
    for report in ResultReport.objects.filter(game__in=games, status__in=OPEN_STATUSES).order_by(
        "reported_at", "pk"
    ):
        open_reports[report.game_id].append(report)
    choices = tuple((code, str(Game.Result(code).label)) for code in PLAYER_RESULTS)
    names_of: dict[int, dict[int, str]] = {}
    by_season: dict[int, MyBoardReport] = {}
    for game in games:
        me = next(p for p in participants if p.pk in (game.white_id, game.black_id))
        if me.season_id not in names_of:
            names_of[me.season_id] = public_names(season_id=me.season_id)
        reports = [_line(report, names_of[me.season_id]) for report in open_reports[game.pk]]
        by_season[me.season_id] = MyBoardReport(
            game_id=game.pk,
            board=game.board,
            result=game.result,
            result_entry=me.season.result_entry,
            mine=next((r for r in reports if r.participant_id == me.pk), None),
            theirs=next((r for r in reports if r.participant_id != me.pk), None),
            choices=choices,
        )
    return by_season


def board_player(*, user: User, game_id: int) -> Participant | None:
    """The user's participant who plays on board ``game_id`` (None: no such board, or he does
    not play on it). The services check the rest: the season, the round, the board's result."""
    return (
        Participant.objects.filter(member__user=user)
        .filter(Q(games_as_white__pk=game_id) | Q(games_as_black__pk=game_id))
        .select_related("member")
        .first()
    )


def report_player(*, user: User, report_id: int) -> Participant | None:
    """The user's participant on the board of the result report ``report_id``, or None."""
    game_id = ResultReport.objects.filter(pk=report_id).values_list("game_id", flat=True).first()
    return None if game_id is None else board_player(user=user, game_id=game_id)


# --- the TD's results page -------------------------------------------------------------------


@dataclass(frozen=True)
class BoardReports:
    """A board as the TD's results page shows the players' words on it."""

    state: str  # "waiting", "entered", "confirmed" or "disputed"
    lines: tuple[ReportLine, ...]  # the open words (entered or disputed), oldest first
    confirmed: ReportLine | None = None  # the report the board's result came from
    confirmed_by: str = ""  # the opponent's name; "" when the TD confirmed

    @property
    def to_confirm(self) -> ReportLine | None:
        """The entered result the TD can confirm in one tap."""
        return self.lines[0] if self.state == "entered" else None


def round_report_states(*, round: Round) -> dict[int, BoardReports]:
    """By game id: each board's state for the TD (two queries). Empty for a season whose
    results only the TD enters, unless players reported before it was set so."""
    reports = list(
        ResultReport.objects.filter(game__round=round)
        .exclude(status=ResultReport.Status.SUPERSEDED)
        .order_by("reported_at", "pk")
    )
    if round.season.result_entry == ResultEntry.TD and not reports:
        return {}
    names = participant_names(season_id=round.season_id)
    by_game: dict[int, list[ResultReport]] = defaultdict(list)
    for report in reports:
        by_game[report.game_id].append(report)
    states: dict[int, BoardReports] = {}
    for game_id, result in Game.objects.filter(round=round).values_list("id", "result"):
        on_board = by_game.get(game_id, [])
        confirmed = next(
            (
                r
                for r in on_board
                if r.status == ResultReport.Status.CONFIRMED and r.result == result
            ),
            None,
        )
        open_lines = tuple(_line(r, names) for r in on_board if r.status in OPEN_STATUSES)
        if confirmed is not None:
            states[game_id] = BoardReports(
                "confirmed",
                (),
                _line(confirmed, names),
                names.get(confirmed.confirmed_by_id or 0, ""),
            )
        elif result != Game.Result.NOT_PLAYED:
            continue  # the TD's own result: nothing of the players' to show
        elif any(line.status == ResultReport.Status.DISPUTED for line in open_lines):
            states[game_id] = BoardReports("disputed", open_lines)
        elif open_lines:
            states[game_id] = BoardReports("entered", open_lines)
        else:
            states[game_id] = BoardReports("waiting", ())
    return states


# --- the public trail ------------------------------------------------------------------------


@dataclass(frozen=True)
class EnteredResult:
    """A board's result as the players entered and confirmed it (the board's history)."""

    board: int
    result: str  # Game.Result code
    saved_at: datetime.datetime
    reason: str  # "entered by X, confirmed by Y", with the public names


def entered_result(*, history_type: str, before: str | None, record: Any) -> EnteredResult | None:
    """The players' entry that the board's history record ``record`` saved, or None: a first
    result (``before``: the board's result before it, ``""`` for none) saved with a reason is
    one the players entered (``services.result_reports``); the TD's own first entries have no
    reason, and his changes of an existing result are corrections
    (:mod:`competition.selectors.corrections`)."""
    reason = record.history_change_reason or ""
    if history_type != "~" or before != Game.Result.NOT_PLAYED or not reason:
        return None
    if getattr(record, "played_on", None) is not None:
        # a game on another date: its first result, "played on <date>", is on the trail as the
        # TD entered it (competition.services.postponed), with the corrections
        return None
    if record.result == Game.Result.NOT_PLAYED:
        return None
    return EnteredResult(
        board=record.board, result=record.result, saved_at=record.history_date, reason=reason
    )


def round_entered_results(*, round: Round) -> list[EnteredResult]:
    """Every board result of ``round`` that the players entered, as its history records it,
    by board (one query; the public round page has them from
    :func:`competition.selectors.corrections.round_trail`, in its read of the history)."""
    last: dict[int, str] = {}
    entered: dict[int, EnteredResult] = {}
    for record in Game.history.filter(round_id=round.pk).order_by("history_date", "history_id"):
        line = entered_result(
            history_type=record.history_type, before=last.get(record.id), record=record
        )
        if line is not None:
            entered[record.id] = line
        last[record.id] = record.result
    return sorted(entered.values(), key=lambda line: line.board)


def round_report(*, round: Round, report_id: int) -> ResultReport | None:
    """The result report ``report_id`` on a board of ``round``, with its game (None: not
    there, or another round's)."""
    return (
        ResultReport.objects.filter(pk=report_id, game__round=round).select_related("game").first()
    )
