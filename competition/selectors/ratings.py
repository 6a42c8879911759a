"""Reads of the club rating (docs/ratings.md): the ledger's input from the club's games, the
club's rating list, a member's history with every evening explained, the ratings on a date.

Each read takes a constant number of queries whatever the number of seasons and evenings.
Names are as the public sees them: each member's name as his seasons show it in public, the
strictest where they differ (first name and initial when any season shows it so).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Max, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from competition.models import (
    Club,
    ClubRatingChange,
    ClubRatingRules,
    ExternalResult,
    Game,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
)
from competition.rating.fide import KRules, counted_difference
from competition.rating.ledger import Evening, ExternalGame, PlayerState, RatedGame
from competition.scoring.exact import fraction_from_text
from competition.selectors.common import shown_name

_GAME_SCORES: dict[str, Fraction] = {
    Game.Result.WHITE_WINS.value: Fraction(1),
    Game.Result.DRAW.value: Fraction(1, 2),
    Game.Result.BLACK_WINS.value: Fraction(0),
}
_EXTERNAL_SCORES: dict[str, Fraction] = {
    ExternalResult.WON.value: Fraction(1),
    ExternalResult.DRAWN.value: Fraction(1, 2),
    ExternalResult.LOST.value: Fraction(0),
}


def club_rating_rules(*, club: Club) -> ClubRatingRules:
    """The club's rating rules; the defaults (not saved) for a club that never set them."""
    try:
        return ClubRatingRules.objects.get(club=club)
    except ClubRatingRules.DoesNotExist:
        return ClubRatingRules(club=club)


def k_rules(*, rules: ClubRatingRules) -> KRules:
    return KRules(
        new_player=rules.k_new_player,
        standard=rules.k_standard,
        top=rules.k_top,
        junior=rules.k_junior,
    )


def rated_seasons(*, club: Club, rules: ClubRatingRules) -> Q:
    """The seasons whose games count: every public season of the club (not one in
    preparation); rapid nights and series only when the club says so."""
    seasons = Q(round__season__club=club) & ~Q(round__season__status=Season.Status.DRAFT)
    if not rules.rapid_counts:
        seasons &= Q(round__season__rounds_per_evening__lt=2)
    return seasons


@dataclass(frozen=True)
class LedgerInput:
    """The ledger's input from ``from_date`` on: the evenings, each player's start rating
    (his event rating in the season of his first rated game, or the fixed start rating) and
    birth year, and where each game was played (season id, round number) by its key."""

    evenings: list[Evening]
    start_ratings: dict[int, int]
    birth_years: dict[int, int | None]
    games: dict[int, tuple[int, int]]  # game id -> (season id, round number)
    entries: dict[int, tuple[int, int]]  # external entry id -> (season id, round number)


def _external_key(entry_id: int) -> int:
    """External games are keyed by their entry's id, negated, apart from the games' ids."""
    return -entry_id


def ledger_input(
    *, club: Club, rules: ClubRatingRules, from_date: datetime.date | None
) -> LedgerInput:
    """Every rated game of ``club`` from ``from_date`` on (all of them for None), in date
    order (three queries). A game over the board in a completed round counts; a forfeit
    does not (FIDE rates no forfeit); external games when the club says so. A game played on
    another date than its round's counts on the evening it was played."""
    rated = rated_seasons(club=club, rules=rules) & Q(round__status=Round.Status.COMPLETED)
    games = Game.objects.filter(rated, result__in=list(_GAME_SCORES)).annotate(
        day=Coalesce("played_on", "round__date")
    )
    if from_date is not None:
        games = games.filter(day__gte=from_date)
        rated &= Q(round__date__gte=from_date)  # the external games below: on their round's date
    rows = games.order_by("day", "round__season_id", "round__number", "board", "pk").values_list(
        "pk",
        "day",
        "round__season_id",
        "round__number",
        "white__member_id",
        "black__member_id",
        "result",
        "white__rating",
        "black__rating",
    )
    by_date: dict[datetime.date, tuple[list[RatedGame], list[ExternalGame]]] = {}
    start_ratings: dict[int, int] = {}
    imported = rules.start_rule == ClubRatingRules.StartRating.IMPORTED

    def start(member_id: int, event_rating: int | None) -> None:
        if member_id not in start_ratings:
            known = imported and event_rating is not None
            start_ratings[member_id] = event_rating if known else rules.start_rating  # type: ignore[assignment]

    where: dict[int, tuple[int, int]] = {}
    for pk, day, season_id, number, white, black, result, white_rating, black_rating in rows:
        start(white, white_rating)
        start(black, black_rating)
        by_date.setdefault(day, ([], []))[0].append(
            RatedGame(white, black, _GAME_SCORES[result], key=pk)
        )
        where[pk] = (season_id, number)
    entries: dict[int, tuple[int, int]] = {}
    if rules.external_counts:
        external = (
            RoundEntry.objects.filter(
                rated, kind=RoundEntry.Kind.CLUB_DUTY, external_result__in=list(_EXTERNAL_SCORES)
            )
            .order_by("round__date", "round__season_id", "round__number", "pk")
            .values_list(
                "pk",
                "round__date",
                "round__season_id",
                "round__number",
                "participant__member_id",
                "external_result",
                "participant__rating",
            )
        )
        for pk, day, season_id, number, member_id, result, rating in external:
            start(member_id, rating)
            by_date.setdefault(day, ([], []))[1].append(
                ExternalGame(member_id, _EXTERNAL_SCORES[result], key=_external_key(pk))
            )
            entries[pk] = (season_id, number)
    birth_years = dict(Member.objects.filter(pk__in=start_ratings).values_list("pk", "birth_year"))
    evenings = [
        Evening(day, tuple(played), tuple(external))
        for day, (played, external) in sorted(by_date.items())
    ]
    return LedgerInput(evenings, start_ratings, birth_years, where, entries)


def states_before(*, club: Club, day: datetime.date | None) -> dict[int, PlayerState]:
    """Each member's ledger state before ``day`` (two queries): his latest change before it.
    The latest date per member first (an aggregate over the club's index), then those rows: a
    subquery per row cost 140 ms on PostgreSQL for ten seasons (bench/club_ratings.py)."""
    if day is None:
        return {}
    before = ClubRatingChange.objects.filter(club=club, date__lt=day)
    latest = dict(before.values_list("member_id").annotate(last=Max("date")).order_by())
    if not latest:
        return {}
    rows = before.filter(date__in=set(latest.values()), member_id__in=latest).only(
        "member_id", "date", "rating_after", "games_before", "game_count", "reached_top",
        "reached_junior_limit",
    )  # fmt: skip
    return {
        row.member_id: PlayerState(
            row.rating_after,
            row.games_before + row.game_count,
            row.reached_top,
            row.reached_junior_limit,
        )
        for row in rows
        if latest[row.member_id] == row.date
    }


def ratings_on(
    *, club: Club, day: datetime.date, member_ids: Iterable[int] | None = None
) -> dict[int, int]:
    """Each member's club rating before ``day`` (the evenings before it), for those who have
    one (one query): the pairing seed and the start list of an evening on ``day``."""
    latest = (
        ClubRatingChange.objects.filter(member=OuterRef("member"), date__lt=day)
        .order_by("-date")
        .values("date")[:1]
    )
    rows = ClubRatingChange.objects.filter(club=club, date__lt=day, date=Subquery(latest))
    if member_ids is not None:
        rows = rows.filter(member_id__in=list(member_ids))
    return dict(rows.values_list("member_id", "rating_after"))


# --- public names ------------------------------------------------------------------------------


def public_names(*, member_ids: Iterable[int]) -> dict[int, str]:
    """Each member's name as his seasons show it in public; the strictest where they differ
    (one query). A member who played no season shows as the club's default: his full name."""
    ids = list(member_ids)
    shown: dict[int, set[str]] = {}
    full: dict[int, str] = {}
    for (
        member_id,
        name,
        choice,
        birth_year,
        anonymised,
        season_choice,
        junior,
    ) in Participant.objects.filter(member_id__in=ids).values_list(
        "member_id",
        "member__name",
        "member__name_display",
        "member__birth_year",
        "member__anonymised_at",
        "season__name_display",
        "season__junior_birth_year",
    ):
        full[member_id] = name
        shown.setdefault(member_id, set()).add(
            shown_name(
                name=name,
                member_choice=choice,
                birth_year=birth_year,
                anonymised_at=anonymised,
                season_choice=season_choice,
                junior_birth_year=junior,
            )
        )
    return {
        member_id: next((n for n in sorted(names) if n != full[member_id]), full[member_id])
        for member_id, names in shown.items()
    }


# --- the club's rating list ----------------------------------------------------------------------


@dataclass(frozen=True)
class RatingListRow:
    rank: int
    member_id: int
    name: str
    rating: int
    games: int  # rated games in the ledger
    last_evening: datetime.date
    change_month: int | None  # since the end of the previous month; None: no rating then
    change_season: int | None  # since before the season's first evening; None: no rating then


@dataclass(frozen=True)
class RatingList:
    club: Club
    as_of: datetime.date
    month_start: datetime.date
    season: Season | None  # the season "over the season" is counted for
    season_start: datetime.date | None
    rows: list[RatingListRow]


def _latest_rows(club: Club, before: datetime.date) -> dict[int, ClubRatingChange]:
    latest = (
        ClubRatingChange.objects.filter(member=OuterRef("member"), date__lt=before)
        .order_by("-date")
        .values("date")[:1]
    )
    return {
        row.member_id: row
        for row in ClubRatingChange.objects.filter(
            club=club, date__lt=before, date=Subquery(latest)
        ).defer("games")
    }


def _current_season(club: Club, as_of: datetime.date) -> tuple[Season | None, datetime.date | None]:
    """The club's latest season with a completed round by ``as_of`` (not a rapid series),
    and the date of its first round."""
    rounds = (
        Round.objects.filter(
            season__club=club,
            status=Round.Status.COMPLETED,
            date__lte=as_of,
            season__rounds_per_evening__lt=2,
        )
        .exclude(season__status=Season.Status.DRAFT)
        .select_related("season")
        .order_by("-season__start_date", "-date")
    )
    latest = rounds.first()
    if latest is None:
        return None, None
    first = (
        Round.objects.filter(season=latest.season, status=Round.Status.COMPLETED)
        .order_by("date")
        .values_list("date", flat=True)
        .first()
    )
    return latest.season, first


def club_rating_list(*, club: Club, as_of: datetime.date, active_only: bool = True) -> RatingList:
    """The club's members by club rating after the evenings up to ``as_of``, with the change
    since the end of the previous month and over the current season (constant queries)."""
    after = as_of + datetime.timedelta(days=1)
    month_start = as_of.replace(day=1)
    season, season_start = _current_season(club, as_of)
    now = _latest_rows(club, after)
    month = _latest_rows(club, month_start)
    before_season = _latest_rows(club, season_start) if season_start else {}
    if active_only:
        active = set(Member.objects.filter(pk__in=now, active=True).values_list("pk", flat=True))
        now = {pk: row for pk, row in now.items() if pk in active}
    names = public_names(member_ids=now)
    ordered = sorted(
        now.values(), key=lambda r: (-r.rating_after, names.get(r.member_id, ""), r.member_id)
    )
    rows: list[RatingListRow] = []
    for position, row in enumerate(ordered, start=1):
        rank = rows[-1].rank if rows and rows[-1].rating == row.rating_after else position
        then = month.get(row.member_id)
        season_before = before_season.get(row.member_id)
        rows.append(
            RatingListRow(
                rank=rank,
                member_id=row.member_id,
                name=names.get(row.member_id, ""),
                rating=row.rating_after,
                games=row.games_before + row.game_count,
                last_evening=row.date,
                change_month=None if then is None else row.rating_after - then.rating_after,
                change_season=(
                    None if season_before is None else row.rating_after - season_before.rating_after
                ),
            )
        )
    return RatingList(club, as_of, month_start, season, season_start, rows)


# --- the whole ledger and one member's history --------------------------------------------------


@dataclass(frozen=True)
class ExplainedGame:
    """One game of an evening's change, as the member's page and the command show it."""

    season: Season
    round_number: int
    opponent_id: int | None  # member id; None: an external game
    opponent_name: str
    opponent_rating: int
    difference: int  # own − opponent's, as it is
    counted_difference: int  # as the 400-point rule counts it
    expected: Fraction  # We
    score: Fraction  # W
    k: int

    @property
    def result(self) -> Fraction:
        """What the game adds to K × Σ(W − We): K × (W − We)."""
        return self.k * (self.score - self.expected)


@dataclass(frozen=True)
class ExplainedEvening:
    date: datetime.date
    rating_before: int
    k: int
    games_before: int
    change: Fraction  # exact, before rounding
    rating_after: int
    games: list[ExplainedGame]

    @property
    def rounded_change(self) -> int:
        return self.rating_after - self.rating_before


@dataclass(frozen=True)
class MemberRating:
    member: Member
    name: str
    evenings: list[ExplainedEvening]

    @property
    def rating(self) -> int | None:
        return self.evenings[-1].rating_after if self.evenings else None

    @property
    def start_rating(self) -> int | None:
        return self.evenings[0].rating_before if self.evenings else None

    @property
    def games(self) -> int:
        return sum(len(e.games) for e in self.evenings)


def _explained(
    rows: Sequence[ClubRatingChange], seasons: Mapping[int, Season], names: Mapping[int, str]
) -> list[ExplainedEvening]:
    evenings = []
    for row in rows:
        games = [
            ExplainedGame(
                season=seasons[game["season"]],
                round_number=game["round"],
                opponent_id=game["opponent"],
                opponent_name=names.get(game["opponent"], "") if game["opponent"] else "",
                opponent_rating=game["opponent_rating"],
                difference=game["difference"],
                counted_difference=counted_difference(game["difference"], rating=row.rating_before),
                expected=fraction_from_text(game["expected"]),
                score=fraction_from_text(game["score"]),
                k=row.k,
            )
            for game in row.games
        ]
        evenings.append(
            ExplainedEvening(
                date=row.date,
                rating_before=row.rating_before,
                k=row.k,
                games_before=row.games_before,
                change=fraction_from_text(row.change),
                rating_after=row.rating_after,
                games=games,
            )
        )
    return evenings


def club_ratings_ledger(
    *, club: Club, as_of: datetime.date | None = None, public: bool = False
) -> list[MemberRating]:
    """Every member's evenings in the ledger up to ``as_of`` (all for None), by rating (the
    highest first), then name; four queries. Names are full (the command, the TD's tools)
    unless ``public`` asks for the names as the public sees them."""
    changes = ClubRatingChange.objects.filter(club=club).select_related("member")
    if as_of is not None:
        changes = changes.filter(date__lte=as_of)
    by_member: dict[int, list[ClubRatingChange]] = {}
    members: dict[int, Member] = {}
    for row in changes.order_by("member_id", "date"):
        by_member.setdefault(row.member_id, []).append(row)
        members[row.member_id] = row.member
    seasons = {s.pk: s for s in Season.objects.filter(club=club)}
    names = (
        public_names(member_ids=members) if public else {pk: m.name for pk, m in members.items()}
    )
    ratings = [
        MemberRating(members[pk], names.get(pk, members[pk].name), _explained(rows, seasons, names))
        for pk, rows in by_member.items()
    ]
    ratings.sort(key=lambda r: (-(r.rating or 0), r.name.casefold(), r.member.pk))
    return ratings


def member_rating_history(*, member_id: int) -> MemberRating:
    """One member's club rating, every evening explained game by game, names as the public
    sees them (five queries). Raises ``Member.DoesNotExist`` for an unknown member and for one
    who played no season (as the profile)."""
    member = Member.objects.select_related("club").get(pk=member_id)
    rows = list(ClubRatingChange.objects.filter(member=member).order_by("date"))
    opponents = {g["opponent"] for row in rows for g in row.games if g["opponent"]}
    names = public_names(member_ids={member.pk, *opponents})
    if member.pk not in names:
        raise Member.DoesNotExist(member_id)
    seasons = {s.pk: s for s in Season.objects.filter(club_id=member.club_id)}
    return MemberRating(member, names[member.pk], _explained(rows, seasons, names))


@dataclass(frozen=True)
class RatingSummary:
    """A member's club rating in short, for his profile: each evening's date and rating
    before and after, the rated games (one query)."""

    evenings: list[tuple[datetime.date, int, int]]
    games: int

    @property
    def rating(self) -> int | None:
        return self.evenings[-1][2] if self.evenings else None

    @property
    def start_rating(self) -> int | None:
        return self.evenings[0][1] if self.evenings else None


def member_rating_summary(*, member_id: int) -> RatingSummary:
    rows = list(
        ClubRatingChange.objects.filter(member_id=member_id)
        .order_by("date")
        .values_list("date", "rating_before", "rating_after", "game_count")
    )
    return RatingSummary(
        [(day, before, after) for day, before, after, _games in rows],
        sum(games for *_rest, games in rows),
    )
