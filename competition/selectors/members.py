"""Reads for the member's own page: his accounts' members, his running seasons with the coming
evenings, tonight's board, his results and place.

Other players' names are shown as on the public pages
(:func:`competition.presentation.names.public_name`).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.models import (
    ABSENCE_KINDS,
    PRESENT,
    AbsenceReport,
    ClubEvening,
    Game,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
    StandingsSnapshot,
)
from competition.presentation import labels
from competition.scoring.exact import fraction_from_text
from competition.selectors.common import public_names
from competition.selectors.evenings import evening_numbers, report_closed_because

COMING_EVENINGS = 4  # how many coming evenings my page shows per season


def user_members(*, user: AbstractBaseUser | AnonymousUser) -> list[Member]:
    """The member accounts of ``user`` (one per club)."""
    if not isinstance(user, User) or not user.is_authenticated:
        return []
    return list(
        Member.objects.filter(user=user).select_related("club").order_by("club__name", "pk")
    )


@dataclass(frozen=True)
class EveningLine:
    """A coming evening with the member's report and whether he may still change it."""

    evening: ClubEvening
    report: AbsenceReport | None
    closed_because: str | None
    round_number: int | None = None  # the evening's round (selectors.evenings)


@dataclass(frozen=True)
class MyBoard:
    """The member's part in one round: a game (board, colour, opponent) or an entry."""

    round_number: int
    board: int | None = None
    colour: str = ""  # "w" or "b"
    opponent: str = ""
    result: str = ""  # stored game result code, "" while not played
    points: Fraction | None = None  # his points from the game or entry
    entry: str = ""  # entry kind
    entry_label: str = ""


@dataclass(frozen=True)
class Tonight:
    """The season's open round as the member sees it: his attendance mark, and his board once
    the pairing is published."""

    round: Round
    mark: str  # "present" or an absence kind
    mark_label: str
    board: MyBoard | None  # None before publishing (or when not paired)


@dataclass(frozen=True)
class MySeason:
    season: Season
    participant: Participant
    evenings: list[EveningLine]
    tonight: Tonight | None
    results: list[MyBoard]
    rank: int | None
    score: Fraction | None
    after_round: int | None
    field_size: int


def _my_points(game: Game, participant_id: int) -> Fraction | None:
    one, half, zero = Fraction(1), Fraction(1, 2), Fraction(0)
    white_black = {
        "1-0": (one, zero),
        "1/2": (half, half),
        "0-1": (zero, one),
        "+-": (one, zero),
        "-+": (zero, one),
        "--": (zero, zero),
    }
    points = white_black.get(game.result)
    if points is None:
        return None
    return points[0] if game.white_id == participant_id else points[1]


def _board_of(game: Game, participant_id: int, names: Mapping[int, str], number: int) -> MyBoard:
    is_white = game.white_id == participant_id
    opponent = game.black_id if is_white else game.white_id
    return MyBoard(
        round_number=number,
        board=game.board,
        colour="w" if is_white else "b",
        opponent=names.get(opponent, "?"),
        result="" if game.result == Game.Result.NOT_PLAYED else game.result,
        points=_my_points(game, participant_id),
    )


def _entry_board(entry: RoundEntry, number: int) -> MyBoard:
    return MyBoard(
        round_number=number,
        points=Fraction(entry.points),
        entry=entry.kind,
        entry_label=labels.entry_label(entry.kind),
    )


def _rounds_of(participant: Participant) -> dict[int, MyBoard]:
    """The participant's game or entry in every round of his season, by round id."""
    names = public_names(season_id=participant.season_id)
    numbers = dict(Round.objects.filter(season=participant.season).values_list("id", "number"))
    boards: dict[int, MyBoard] = {}
    games = Game.objects.filter(round_id__in=numbers).filter(
        Q(white=participant) | Q(black=participant)
    )
    for game in games:
        boards[game.round_id] = _board_of(game, participant.pk, names, numbers[game.round_id])
    for entry in RoundEntry.objects.filter(round_id__in=numbers, participant=participant):
        boards[entry.round_id] = _entry_board(entry, numbers[entry.round_id])
    return boards


def _tonight(participant: Participant, boards: Mapping[int, MyBoard]) -> Tonight | None:
    open_round = (
        Round.objects.filter(season=participant.season)
        .exclude(status=Round.Status.COMPLETED)
        .order_by("-number")
        .first()
    )
    if open_round is None or not participant.takes_part_in(open_round.number):
        return None
    mine = boards.get(open_round.pk)
    mark = mine.entry if mine is not None and mine.entry in ABSENCE_KINDS else PRESENT
    mark_label = _("present") if mark == PRESENT else labels.entry_label(mark)
    shown = mine if open_round.is_published and mark == PRESENT else None
    return Tonight(round=open_round, mark=mark, mark_label=mark_label, board=shown)


def _standing(participant: Participant) -> tuple[int | None, Fraction | None, int | None, int]:
    snapshot = (
        StandingsSnapshot.objects.filter(season=participant.season)
        .order_by("-round_number")
        .first()
    )
    if snapshot is None:
        return None, None, None, 0
    for row in snapshot.rows:
        if row["participant_id"] == participant.pk:
            score = fraction_from_text(row["score"])
            return row["rank"], score, snapshot.round_number, len(snapshot.rows)
    return None, None, snapshot.round_number, len(snapshot.rows)


def _evening_lines(
    participant: Participant, today: datetime.date, now: datetime.datetime
) -> list[EveningLine]:
    """The next ``COMING_EVENINGS`` evenings, and any later one he already reported for (so he
    sees, and can take back, a report made weeks ahead)."""
    coming = ClubEvening.objects.filter(season=participant.season, date__gte=today)
    reports = {
        r.evening_id: r
        for r in AbsenceReport.objects.filter(
            participant=participant, evening__in=coming
        ).select_related("evening")
    }
    evenings = list(coming.order_by("date")[:COMING_EVENINGS])
    shown = {evening.pk for evening in evenings}
    evenings += sorted(
        (r.evening for r in reports.values() if r.evening_id not in shown), key=lambda e: e.date
    )
    numbers = evening_numbers(season=participant.season, today=today)
    lines = []
    for evening in evenings:
        evening.season = participant.season
        lines.append(
            EveningLine(
                evening,
                reports.get(evening.pk),
                report_closed_because(evening=evening, now=now),
                numbers.get(evening.pk),
            )
        )
    return lines


def my_seasons(
    *, user: AbstractBaseUser | AnonymousUser, now: datetime.datetime | None = None
) -> list[MySeason]:
    """Every running season the user plays in, with his coming evenings, tonight's round, his
    results and his place in the latest standings."""
    if not isinstance(user, User):
        return []
    now = now or timezone.now()
    today = timezone.localdate(now)
    participants = (
        Participant.objects.filter(member__user=user, season__status=Season.Status.RUNNING)
        .select_related("season__club", "member")
        .order_by("season__club__name", "-season__start_date", "season__name")
    )
    seasons = []
    for participant in participants:
        boards = _rounds_of(participant)
        tonight = _tonight(participant, boards)
        closed = {
            r.pk
            for r in Round.objects.filter(season=participant.season, status=Round.Status.COMPLETED)
        }
        results = sorted(
            (board for rid, board in boards.items() if rid in closed),
            key=lambda board: board.round_number,
        )
        rank, score, after_round, field_size = _standing(participant)
        seasons.append(
            MySeason(
                season=participant.season,
                participant=participant,
                evenings=_evening_lines(participant, today, now),
                tonight=tonight,
                results=results,
                rank=rank,
                score=score,
                after_round=after_round,
                field_size=field_size,
            )
        )
    return seasons
