"""Reads for the tournament director's club evening: the desk, attendance, the latecomers, and
the draft pairing the evening's services rewrite (with the engine's request). The pairing page
with the engine's reasons is :mod:`competition.selectors.pairing_page`.

Each function takes model instances and returns plain dataclasses in a small, constant number of
queries. The pairing engine's reasons become sentences with the players' names instead of their
ids in :mod:`competition.presentation.reasons`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from competition.models import (
    ABSENCE_KINDS,
    DRAFT_ENTRY_KINDS,
    PRESENT,
    AbsenceReport,
    Club,
    ForbiddenPair,
    Game,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
    taking_part_in,
)
from competition.pairing import FixedBoard, PairingRequest, PlayedGame, PresentPlayer
from competition.scoring import series as series_rules
from competition.scoring.model import Result
from competition.selectors import series
from competition.selectors.clubs import td_clubs
from competition.selectors.ratings import ratings_on
from competition.selectors.rounds import round_step


@dataclass(frozen=True)
class DraftBoard:
    """One board of a draft pairing as the services rewrite it."""

    white_id: int
    black_id: int
    fixed: bool


@dataclass(frozen=True)
class Draft:
    """A round's draft pairing: boards in board order and the bye (if any)."""

    boards: tuple[DraftBoard, ...]
    bye_id: int | None
    bye_fixed: bool

    def slot_of(self, participant_id: int) -> tuple[int, str] | None:
        """(board index, "white"/"black") or (-1, "bye") for a paired participant, else None."""
        for index, board in enumerate(self.boards):
            if board.white_id == participant_id:
                return index, "white"
            if board.black_id == participant_id:
                return index, "black"
        if self.bye_id == participant_id:
            return -1, "bye"
        return None


def draft_of(*, round: Round) -> Draft:
    """The round's current pairing (draft or published) with the TD's fixed marks."""
    games = Game.objects.filter(round=round).order_by("board")
    bye = RoundEntry.objects.filter(round=round, kind=RoundEntry.Kind.BYE).first()
    return Draft(
        boards=tuple(DraftBoard(g.white_id, g.black_id, g.fixed_by_td) for g in games),
        bye_id=bye.participant_id if bye else None,
        bye_fixed=bye.fixed_by_td if bye else False,
    )


def participants_in_round(*, round: Round) -> list[Participant]:
    """The season's participants taking part in ``round`` (joined by then, not withdrawn),
    start order."""
    return list(
        Participant.objects.filter(taking_part_in(round.number), season_id=round.season_id)
        .select_related("member")
        .order_by("start_rank", "member__name", "pk")
    )


def absent_ids(*, round: Round) -> set[int]:
    """The participants marked absent (or on club duty) in ``round``."""
    return set(
        RoundEntry.objects.filter(round=round, kind__in=ABSENCE_KINDS).values_list(
            "participant_id", flat=True
        )
    )


def present_participants(*, round: Round) -> list[Participant]:
    """The participants taking part in ``round`` and not marked absent, start order."""
    absent = absent_ids(round=round)
    return [p for p in participants_in_round(round=round) if p.id not in absent]


def participants_not_paired(*, round: Round) -> list[Participant]:
    """Present participants without a board or bye in ``round`` (a late-comer, for example)."""
    draft = draft_of(round=round)
    return [p for p in present_participants(round=round) if draft.slot_of(p.id) is None]


def round_has_draft(*, round: Round) -> bool:
    """Whether ``round`` has a pairing (a board or a draft entry) to throw away."""
    return (
        Game.objects.filter(round=round).exists()
        or RoundEntry.objects.filter(round=round, kind__in=DRAFT_ENTRY_KINDS).exists()
    )


def _standing_ranks(season: Season, before_round: int) -> dict[int, int]:
    """Rank in the latest cached standings before ``before_round`` (empty before round 1)."""
    snapshot = (
        season.snapshots.filter(round_number__lt=before_round).order_by("-round_number").first()
    )
    if snapshot is None:
        return {}
    return {row["participant_id"]: row["rank"] for row in snapshot.rows}


def _earlier_rounds(round: Round) -> tuple[QuerySet[Round], dict[int, int], int]:
    """The rounds whose games count for pairing ``round``, the standing ranks it pairs by and
    the rematch window.

    A rapid evening is paired within itself: by the evening's ranking so far, with the
    evening's games only, and nobody meets the same opponent twice in one evening.
    """
    season = round.season
    earlier = Round.objects.filter(season=season, number__lt=round.number)
    if not season.is_rapid_series:
        return earlier, _standing_ranks(season, round.number), season.rematch_window
    ranks = series.evening_ranks(round=round)
    first = round.number - series_rules.round_in_evening(round.number, season.rounds_per_evening)
    return (
        earlier.filter(number__gt=first),
        ranks,
        max(season.rematch_window, season.rounds_per_evening),
    )


def _games_played(
    earlier: QuerySet[Round],
) -> tuple[dict[int, int], dict[int, int], list[PlayedGame]]:
    """Whites and blacks per player and the games of ``earlier``, over the board only."""
    whites: dict[int, int] = {}
    blacks: dict[int, int] = {}
    previous: list[PlayedGame] = []
    played = [r.value for r in Result if r.is_played]
    for number, white_id, black_id in Game.objects.filter(
        round__in=earlier, result__in=played
    ).values_list("round__number", "white_id", "black_id"):
        whites[white_id] = whites.get(white_id, 0) + 1
        blacks[black_id] = blacks.get(black_id, 0) + 1
        previous.append(PlayedGame(round_number=number, white_id=white_id, black_id=black_id))
    return whites, blacks, previous


@dataclass(frozen=True)
class _Byes:
    """Per player: his byes in the earlier rounds, those of them pairing-allocated, whether he
    had one last round, and whether he asked for one tonight."""

    byes: dict[int, int]
    allocated: dict[int, int]
    last_round: set[int]
    requested_tonight: set[int]


def _byes(round: Round, earlier: QuerySet[Round]) -> _Byes:
    season = round.season
    bye_requests = set(
        AbsenceReport.objects.filter(
            evening__season=season, kind=AbsenceReport.Kind.BYE
        ).values_list("evening__date", "participant_id")
    )
    byes: dict[int, int] = {}
    allocated: dict[int, int] = {}
    last_round: set[int] = set()
    for number, day, participant_id in RoundEntry.objects.filter(
        round__in=earlier, kind=RoundEntry.Kind.BYE
    ).values_list("round__number", "round__date", "participant_id"):
        byes[participant_id] = byes.get(participant_id, 0) + 1
        if (day, participant_id) not in bye_requests:
            allocated[participant_id] = allocated.get(participant_id, 0) + 1
        if number == round.number - 1:
            last_round.add(participant_id)
    requested_tonight = (
        {pid for day, pid in bye_requests if day == round.date} if season.requested_byes else set()
    )
    return _Byes(byes, allocated, last_round, requested_tonight)


def _in_pairing_order(
    round: Round, present: Sequence[Participant], ranks: Mapping[int, int], unranked: int
) -> list[Participant]:
    """``present`` by standing; equal standings (everyone before round 1) in start order, or by
    club rating before the evening when the season says so (docs/ratings.md); a member without
    one comes after."""
    season = round.season
    seeds = (
        ratings_on(club=season.club, day=round.date, member_ids=[p.member_id for p in present])
        if season.seed_by_club_rating
        else {}
    )
    return sorted(
        present,
        key=lambda p: (
            ranks.get(p.id, unranked),
            -seeds.get(p.member_id, -1),
            p.start_rank or 10**6,
            p.member.name,
            p.id,
        ),
    )


def pairing_request(
    *,
    round: Round,
    fixed_boards: Sequence[FixedBoard] = (),
    fixed_bye: int | None = None,
) -> PairingRequest:
    """The engine's input for ``round``: present players by standing, colours, byes, games.

    Players without a standing yet (before round 1, or late joiners) follow the ranked ones in
    start order. Colours, rematches and meetings count games played over the board only: after
    a forfeit the two have not met and nobody had a colour.

    The season's pairing rules go along: forbidden pairs, the most meetings per pair, colours
    reversed at a rematch, one pairing-allocated bye per player, and tonight's bye requests
    (members who asked for a bye for the club evening on the round's date, when the season
    allows it). A bye in an earlier round counts as requested when the player had asked for a
    bye for that round's evening; every other bye is pairing-allocated.
    """
    season = round.season
    present = present_participants(round=round)
    earlier, ranks, rematch_window = _earlier_rounds(round)
    unranked = (max(ranks.values()) if ranks else 0) + 1
    whites, blacks, previous = _games_played(earlier)
    byes = _byes(round, earlier)
    forbidden = tuple(
        ForbiddenPair.objects.filter(season=season).values_list("first_id", "second_id")
    )
    return PairingRequest(
        round_number=round.number,
        players=tuple(
            PresentPlayer(
                player_id=p.id,
                rank=ranks.get(p.id, unranked),
                whites=whites.get(p.id, 0),
                blacks=blacks.get(p.id, 0),
                byes=byes.byes.get(p.id, 0),
                had_bye_last_round=p.id in byes.last_round,
                allocated_byes=byes.allocated.get(p.id, 0),
                requested_bye=p.id in byes.requested_tonight,
            )
            for p in _in_pairing_order(round, present, ranks, unranked)
        ),
        previous_games=tuple(previous),
        rematch_window=rematch_window,
        fixed_boards=tuple(fixed_boards),
        fixed_bye=fixed_bye,
        forbidden_pairs=forbidden,
        max_meetings=season.max_meetings,
        reverse_colours_at_rematch=season.rematch_colours_reversed,
        max_allocated_byes=1 if season.one_pairing_bye else None,
    )


@dataclass(frozen=True)
class SeasonDesk:
    season: Season
    open_round: Round | None  # the round being run (not closed), if any
    last_closed: Round | None
    step: str | None  # Step of ``open_round``
    boards: int = 0
    results_missing: int = 0
    rounds: tuple[Round, ...] = ()  # every round of the season, by number


def td_desk(
    *, user: AbstractBaseUser | AnonymousUser, club: Club | None = None
) -> list[SeasonDesk]:
    """The running seasons of ``club`` (of every club ``user`` directs when None) that ``user``
    directs, each with its open round."""
    clubs = [c for c in td_clubs(user=user) if club is None or c.pk == club.pk]
    seasons = list(
        Season.objects.filter(club__in=clubs, status=Season.Status.RUNNING)
        .select_related("club", "group_competition")
        .order_by("club__name", "name")
    )
    # The season comes along: round_step reads whether it is a round robin.
    rounds = list(
        Round.objects.filter(season__in=seasons).select_related("season").order_by("number")
    )
    board_counts: dict[int, tuple[int, int]] = {}
    for round_id, result in Game.objects.filter(
        round__in=[r for r in rounds if not r.is_completed]
    ).values_list("round_id", "result"):
        total, missing = board_counts.get(round_id, (0, 0))
        board_counts[round_id] = (total + 1, missing + (result == Game.Result.NOT_PLAYED))
    desks = []
    for season in seasons:
        own = [r for r in rounds if r.season_id == season.id]
        open_round = next((r for r in reversed(own) if not r.is_completed), None)
        closed = [r for r in own if r.is_completed]
        boards, missing = board_counts.get(open_round.id, (0, 0)) if open_round else (0, 0)
        desks.append(
            SeasonDesk(
                season=season,
                open_round=open_round,
                last_closed=closed[-1] if closed else None,
                step=round_step(round=open_round, has_games=boards > 0) if open_round else None,
                boards=boards,
                results_missing=missing,
                rounds=tuple(own),
            )
        )
    return desks


def latecomer_candidates(*, round: Round) -> QuerySet[Member]:
    """The club's active members not taking part in ``round``'s season (for the late-comer form)."""
    return Member.objects.filter(club=round.season.club, active=True).exclude(
        participations__season=round.season
    )


def seat_sentence(*, round: Round, participant: Participant) -> str:
    """Where ``participant`` plays in ``round``, for the TD who just added him: "X plays Y on
    board 12", "X has the bye", or "X is present" (not paired yet)."""
    name = participant.member.name
    game = (
        Game.objects.filter(round=round)
        .filter(Q(white=participant) | Q(black=participant))
        .select_related("white__member", "black__member")
        .first()
    )
    if game is not None:
        opponent = game.black if game.white_id == participant.pk else game.white
        return _("%(name)s plays %(opponent)s on board %(board)s.") % {
            "name": name,
            "opponent": opponent.member.name,
            "board": game.board,
        }
    if RoundEntry.objects.filter(
        round=round, participant=participant, kind=RoundEntry.Kind.BYE
    ).exists():
        return _("%(name)s has the bye.") % {"name": name}
    return _("%(name)s is present.") % {"name": name}


@dataclass(frozen=True)
class AttendanceRow:
    participant: Participant
    name: str
    mark: str  # "present" or an absence kind
    reported: bool  # an absence recorded before (prefilled)
    note: str
    joined_this_round: bool


def attendance_rows(*, round: Round) -> list[AttendanceRow]:
    """Everyone taking part in ``round`` with his mark, alphabetical (the TD looks names up)."""
    entries = {
        e.participant_id: e for e in RoundEntry.objects.filter(round=round, kind__in=ABSENCE_KINDS)
    }
    rows = []
    for participant in participants_in_round(round=round):
        entry = entries.get(participant.id)
        rows.append(
            AttendanceRow(
                participant=participant,
                name=participant.member.name,
                mark=entry.kind if entry else PRESENT,
                reported=entry is not None,
                note=entry.note if entry else "",
                joined_this_round=participant.joined_round == round.number,
            )
        )
    return sorted(rows, key=lambda row: (row.name.casefold(), row.participant.start_rank))
