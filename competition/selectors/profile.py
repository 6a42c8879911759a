"""A player's profile across seasons: every season he played at his club with his latest place
and score, his head-to-head record against each opponent, and his results list.

Five queries whatever the number of seasons: the member, his participations with their
seasons, the latest standings of each of those seasons, his games and his rounds without a game.
Names are public-safe: each as its season shows it in public, and where the seasons differ the
strictest (first name and initial when any season shows it so).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import OuterRef, Q, Subquery

from competition.models import (
    Club,
    Game,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
    StandingsSnapshot,
)
from competition.scoring.exact import fraction_from_text
from competition.scoring.registry import UnknownSystemError, get_system
from competition.selectors.common import member_public_name

# His points from a game's result code, as (white's, black's); None: not played yet.
_POINTS: dict[str, tuple[Fraction, Fraction]] = {
    Game.Result.WHITE_WINS: (Fraction(1), Fraction(0)),
    Game.Result.DRAW: (Fraction(1, 2), Fraction(1, 2)),
    Game.Result.BLACK_WINS: (Fraction(0), Fraction(1)),
    Game.Result.WHITE_WINS_FORFEIT: (Fraction(1), Fraction(0)),
    Game.Result.BLACK_WINS_FORFEIT: (Fraction(0), Fraction(1)),
    Game.Result.DOUBLE_FORFEIT: (Fraction(0), Fraction(0)),
}
# The results of a game played over the board (the head-to-head record counts only these).
_OVER_THE_BOARD = (Game.Result.WHITE_WINS, Game.Result.DRAW, Game.Result.BLACK_WINS)


@dataclass(frozen=True)
class ProfileSeason:
    """One season he played: his place and score in its latest standings."""

    season: Season
    participant_id: int
    after_round: int | None  # the round of his latest standings; None before the first
    rank: int | None
    score: Fraction | None
    primary: str  # the code of the season system's score ("SB", "VDB", "PTS", ...)
    game_points: Fraction | None
    games: int  # games played, as the standings count them


@dataclass(frozen=True)
class HeadToHead:
    """His games against one opponent (over the board), over all seasons."""

    opponent_member_id: int
    name: str
    games: int
    wins: int
    draws: int
    losses: int
    score: Fraction  # his points in these games


@dataclass(frozen=True)
class ProfileResult:
    """One round of his: a game (opponent, colour, result) or a round without a game."""

    season: Season
    participant_id: int
    round_number: int
    opponent_id: int | None  # the opponent's participant id in that season
    opponent_name: str
    colour: str  # "w", "b" or "" for a round without a game
    result: str  # the game's result code ("" not played yet, or no game)
    entry: str  # the entry kind of a round without a game
    points: Fraction | None  # his points; None while the game has no result


@dataclass(frozen=True)
class MemberProfile:
    member_id: int
    name: str
    club_name: str
    seasons: list[ProfileSeason]
    head_to_head: list[HeadToHead]
    results: list[ProfileResult]


def _strictest(names: Iterable[str], full: str) -> str:
    """The name to show when seasons differ: a shortened one wins over the full name."""
    return next((name for name in names if name != full), full)


def _season_order(season: Season) -> tuple[bool, int, str]:
    """The latest season first; seasons without a start date last."""
    start = season.start_date
    return (start is None, -start.toordinal() if start else 0, season.name)


def _primary(season: Season) -> str:
    try:
        return get_system(season.system).primary
    except UnknownSystemError:
        return ""


def _latest_standings(seasons: Iterable[int], mine: Container[int]) -> dict[int, tuple[int, dict]]:
    """Per season: the round of its latest standings and his row in them (one query)."""
    latest = (
        StandingsSnapshot.objects.filter(season=OuterRef("season"))
        .order_by("-round_number")
        .values("round_number")[:1]
    )
    standings: dict[int, tuple[int, dict]] = {}
    for snapshot in StandingsSnapshot.objects.filter(
        season_id__in=seasons, round_number=Subquery(latest)
    ):
        row = next((r for r in snapshot.rows if r["participant_id"] in mine), None)
        if row is not None:
            standings[snapshot.season_id] = (snapshot.round_number, row)
    return standings


def _opponent_names(
    games: Iterable[Game], mine: Container[int], seasons: Mapping[int, Season]
) -> dict[int, str]:
    """Per opponent member: named as the season of the game shows him, the strictest over them."""
    shown: dict[int, set[str]] = {}
    full: dict[int, str] = {}
    for game in games:
        for player in (game.white, game.black):
            if player.pk not in mine:
                season = seasons[game.round.season_id]
                shown.setdefault(player.member_id, set()).add(
                    member_public_name(member=player.member, season=season)
                )
                full[player.member_id] = player.member.name
    return {mid: _strictest(sorted(names), full[mid]) for mid, names in shown.items()}


def _his_side(game: Game, mine: Container[int]) -> tuple[bool, Fraction | None]:
    """Whether he had white in ``game``, and his points (None while it has no result)."""
    white = game.white_id in mine
    points = _POINTS.get(game.result)
    return white, None if points is None else points[0 if white else 1]


def _game_result(
    game: Game,
    mine: Container[int],
    seasons: Mapping[int, Season],
    opponent_name: Mapping[int, str],
) -> ProfileResult:
    white, his = _his_side(game, mine)
    own, other = (game.white, game.black) if white else (game.black, game.white)
    return ProfileResult(
        season=seasons[game.round.season_id],
        participant_id=own.pk,
        round_number=game.round.number,
        opponent_id=other.pk,
        opponent_name=opponent_name[other.member_id],
        colour="w" if white else "b",
        result=game.result,
        entry="",
        points=his,
    )


def _entry_result(entry: RoundEntry, seasons: Mapping[int, Season]) -> ProfileResult:
    return ProfileResult(
        season=seasons[entry.round.season_id],
        participant_id=entry.participant_id,
        round_number=entry.round.number,
        opponent_id=None,
        opponent_name="",
        colour="",
        result="",
        entry=entry.kind,
        points=Fraction(entry.points),
    )


def _head_to_head(
    games: Iterable[Game], mine: Container[int], opponent_name: Mapping[int, str]
) -> list[HeadToHead]:
    """His record against each opponent over the board, the most games first."""
    record: dict[int, list[int]] = {}  # opponent member -> [games, wins, draws, losses]
    record_score: dict[int, Fraction] = {}
    for game in games:
        white, his = _his_side(game, mine)
        if game.result in _OVER_THE_BOARD and his is not None:
            other = game.black if white else game.white
            tally = record.setdefault(other.member_id, [0, 0, 0, 0])
            tally[0] += 1
            tally[1 if his == 1 else 2 if his == Fraction(1, 2) else 3] += 1
            record_score[other.member_id] = record_score.get(other.member_id, Fraction(0)) + his
    return sorted(
        (
            HeadToHead(
                opponent_member_id=mid,
                name=opponent_name[mid],
                games=tally[0],
                wins=tally[1],
                draws=tally[2],
                losses=tally[3],
                score=record_score[mid],
            )
            for mid, tally in record.items()
        ),
        key=lambda h: (-h.games, h.name.casefold(), h.opponent_member_id),
    )


def _profile_season(
    participant: Participant, standings: Mapping[int, tuple[int, dict]]
) -> ProfileSeason:
    season = participant.season
    after_round, row = standings.get(season.pk, (None, None))
    return ProfileSeason(
        season=season,
        participant_id=participant.pk,
        after_round=after_round,
        rank=row["rank"] if row else None,
        score=fraction_from_text(row["score"]) if row else None,
        primary=_primary(season),
        game_points=fraction_from_text(row["game_points"]) if row else None,
        games=row["games"] if row else 0,
    )


def member_profile(*, member_id: int, club: Club | None) -> MemberProfile:
    """The profile of the member ``member_id`` of ``club`` (five queries, whatever his number
    of seasons).

    Raises ``Member.DoesNotExist`` for an unknown member, for a member of another club (or no
    club: an address without one) and for one who never played a season: the profile shows
    what the season pages show, nothing more.
    """
    if club is None:
        raise Member.DoesNotExist(member_id)
    member = Member.objects.select_related("club").get(pk=member_id, club=club)
    played = sorted(
        Participant.objects.filter(member=member).select_related("season"),
        key=lambda p: _season_order(p.season),
    )
    if not played:
        raise Member.DoesNotExist(member_id)
    seasons = {p.season_id: p.season for p in played}
    mine = {p.pk: p for p in played}
    standings = _latest_standings(seasons, mine)
    games = list(
        Game.objects.filter(Q(white_id__in=mine) | Q(black_id__in=mine))
        .exclude(round__status=Round.Status.PLANNED)  # a draft pairing is the TD's alone
        .select_related("round", "white__member", "black__member")
    )
    entries = list(
        RoundEntry.objects.filter(participant_id__in=mine)
        .exclude(round__status=Round.Status.PLANNED)
        .select_related("round")
    )
    opponent_name = _opponent_names(games, mine, seasons)
    results = [_game_result(game, mine, seasons, opponent_name) for game in games]
    results += [_entry_result(entry, seasons) for entry in entries]
    position = {season_id: index for index, season_id in enumerate(p.season_id for p in played)}
    results.sort(key=lambda r: (position[r.season.pk], r.round_number))
    name = _strictest(
        [member_public_name(member=member, season=p.season) for p in played], member.name
    )
    return MemberProfile(
        member_id=member.pk,
        name=name,
        club_name=member.club.name,
        seasons=[_profile_season(participant, standings) for participant in played],
        head_to_head=_head_to_head(games, mine, opponent_name),
        results=results,
    )
