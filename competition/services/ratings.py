"""Writes of the club rating (docs/ratings.md): the ledger replayed from an evening on, and
the club's rating rules.

:func:`club_ratings_replay` is a plain function that runs inside the caller's transaction: the
services that close or correct a round call it with that round's date, so the ledger is never
behind the results; a task queue may call it just as well. Replaying from an evening on starts
from each member's state before that evening and gives what a run from the first evening
gives (``tests/services/test_club_ratings.py`` checks that on random corrections).
"""

from __future__ import annotations

import datetime
from fractions import Fraction

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Min
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.models import (
    Club,
    ClubRatingChange,
    ClubRatingRules,
    Game,
    Participant,
    Round,
    Season,
)
from competition.rating.ledger import EveningChange, ledger_run
from competition.scoring.exact import fraction_to_text
from competition.selectors.ratings import (
    club_rating_rules,
    k_rules,
    ledger_input,
    ratings_on,
    states_before,
)
from competition.services.errors import ServiceError
from competition.services.standings import standings_recompute

# We and W as exact text ("0.86", "0.5"), made once.
_EXPECTED_TEXT = {h: fraction_to_text(Fraction(h, 100)) for h in range(101)}
_SCORE_TEXT = {halves: fraction_to_text(Fraction(halves, 2)) for halves in range(3)}


def hundredths_text(hundredths: int) -> str:
    """``hundredths`` / 100 as competition.scoring.exact writes it, without making a Fraction:
    ``hundredths_text(-1440) == "-14.4"``, ``hundredths_text(1200) == "12"``."""
    sign = "-" if hundredths < 0 else ""
    whole, part = divmod(abs(hundredths), 100)
    if part == 0:
        return f"{sign}{whole}"
    if part % 10 == 0:
        return f"{sign}{whole}.{part // 10}"
    return f"{sign}{whole}.{part:02d}"


_COLUMNS = (
    "club_id", "member_id", "date", "rating_before", "rating_after", "change", "k",
    "games_before", "game_count", "reached_top", "reached_junior_limit", "games",
)  # fmt: skip


# club, member, date, before, after, change, K, games before, games, 2400 reached,
# 2300 reached, games JSON
_Row = tuple[int, int, datetime.date, int, int, str, int, int, int, bool, bool, str]


def _row(
    club: Club,
    change: EveningChange,
    where: dict[int, tuple[int, int]],
    entries: dict[int, tuple[int, int]],
) -> _Row:
    """The ledger row of ``change`` as the values of ``_COLUMNS`` (the games as JSON text)."""
    games = []
    for game in change.games:
        if game.opponent is None:
            season_id, number = entries[-game.key]
            source = f'"entry": {-game.key}'
        else:
            season_id, number = where[game.key]
            source = f'"game": {game.key}'
        opponent = "null" if game.opponent is None else game.opponent
        games.append(
            f'{{{source}, "season": {season_id}, "round": {number}, "opponent": {opponent}, '
            f'"opponent_rating": {game.opponent_rating}, "difference": {game.difference}, '
            f'"expected": "{_EXPECTED_TEXT[game.expected_hundredths]}", '
            f'"score": "{_SCORE_TEXT[game.score_halves]}"}}'
        )
    return (
        club.pk,
        change.player,
        change.date,
        change.rating_before,
        change.rating_after,
        hundredths_text(change.change_hundredths),
        change.k,
        change.games_before,
        len(change.games),
        change.reached_top,
        change.reached_junior_limit,
        "[" + ", ".join(games) + "]",
    )


def _insert(rows: list[_Row]) -> None:
    """The rows at once: the ledger of ten seasons has some 15,000 rows, and a model instance
    each would cost more than the whole computation. PostgreSQL takes them by COPY (15,000
    rows in about 0.1 s, where one INSERT per row took 1.3 s: bench/club_ratings.py); SQLite,
    in the same process, by one prepared INSERT run for every row."""
    table = connection.ops.quote_name(ClubRatingChange._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in _COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            placeholders = ", ".join(["%s"] * len(_COLUMNS))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({placeholders})", rows)


@transaction.atomic
def club_ratings_replay(*, club: Club, from_date: datetime.date | None = None) -> int:
    """Rebuild ``club``'s rating ledger from the evening of ``from_date`` on (None: from the
    first evening); returns the number of changes written.

    The members' states before ``from_date`` are read from the ledger; every rated game from
    then on is rated again, evening by evening, with the club's rating rules. One replay of a
    club at a time (its row locked): two at once, from different evenings, would each write
    rows the other has just written.
    """
    Club.objects.select_for_update().only("pk").get(pk=club.pk)
    rules = club_rating_rules(club=club)
    data = ledger_input(club=club, rules=rules, from_date=from_date)
    states = states_before(club=club, day=from_date)
    changes = ledger_run(
        data.evenings,
        states=states,
        start_ratings=data.start_ratings,
        birth_years=data.birth_years,
        rules=k_rules(rules=rules),
    )
    stale = ClubRatingChange.objects.filter(club=club)
    if from_date is not None:
        stale = stale.filter(date__gte=from_date)
    stale.delete()
    _insert([_row(club, change, data.games, data.entries) for change in changes])
    return len(changes)


def club_ratings_round_replay(*, round: Round) -> int:
    """The ledger after ``round``'s games changed: replayed from the first evening one of them
    was played on (its round's date, or earlier for a game played in advance)."""
    in_advance = Game.objects.filter(round=round, played_on__lt=round.date).aggregate(
        first=Min("played_on")
    )["first"]
    return club_ratings_replay(club=round.season.club, from_date=in_advance or round.date)


def club_ratings_season_replay(*, season: Season) -> None:
    """The ledger after ``season``'s rounds changed at once (an import, an admin's edit):
    replayed from the season's first round on."""
    first = Round.objects.filter(season=season).aggregate(first=Min("date"))["first"]
    if first is not None:
        club_ratings_replay(club=season.club, from_date=first)


_K_NAMES = {
    "k_new_player": gettext_lazy("K until 30 games"),
    "k_standard": gettext_lazy("K below 2400"),
    "k_top": gettext_lazy("K once 2400 was reached"),
    "k_junior": gettext_lazy("K for juniors below 2300"),
}


@transaction.atomic
def club_rating_rules_set(
    *,
    club: Club,
    k_new_player: int,
    k_standard: int,
    k_top: int,
    k_junior: int,
    start_rule: str,
    start_rating: int,
    rapid_counts: bool,
    external_counts: bool,
    user: User | None = None,
) -> ClubRatingRules:
    """Save the club's rating rules and replay the whole ledger under them."""
    for name, value in zip(_K_NAMES, (k_new_player, k_standard, k_top, k_junior), strict=True):
        if not 1 <= value <= 700:
            raise ServiceError(
                _("%(field)s must be a whole number from 1 to 700.") % {"field": _K_NAMES[name]}
            )
    if start_rule not in ClubRatingRules.StartRating.values:
        raise ServiceError(_("Unknown start rating rule: %(rule)s.") % {"rule": start_rule})
    if not 0 <= start_rating <= 3500:
        raise ServiceError(_("The fixed start rating must be from 0 to 3500."))
    rules, _created = ClubRatingRules.objects.select_for_update().get_or_create(club=club)
    rules.k_new_player, rules.k_standard, rules.k_top, rules.k_junior = (
        k_new_player,
        k_standard,
        k_top,
        k_junior,
    )
    rules.start_rule, rules.start_rating = start_rule, start_rating
    rules.rapid_counts, rules.external_counts = rapid_counts, external_counts
    rules.save()
    club_ratings_replay(club=club)
    return rules


@transaction.atomic
def start_list_by_club_rating(*, season: Season) -> int:
    """Number ``season``'s start list by club rating: the highest club rating before the
    season's first round (or today, without rounds) gets start number 1; members without a
    club rating come after, by their event rating, then by name. Only before the season's
    first round is completed: start numbers break ties in the standings. Returns the number of
    participants numbered."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if Round.objects.filter(season=season, status=Round.Status.COMPLETED).exists():
        raise ServiceError(
            _(
                "%(season)s has completed rounds: its start numbers break ties in the "
                "standings, so the start list stays as it is."
            )
            % {"season": season.name}
        )
    first = Round.objects.filter(season=season).aggregate(first=Min("date"))["first"]
    day = first or datetime.date.today()
    participants = list(season.participants.select_related("member"))
    club_rating = ratings_on(
        club=season.club, day=day, member_ids=[p.member_id for p in participants]
    )

    def order(participant: Participant) -> tuple[int, int, int, str, int]:
        rated = participant.member_id in club_rating
        return (
            0 if rated else 1,
            -club_rating.get(participant.member_id, 0),
            -(participant.rating or 0),
            participant.member.name,
            participant.pk,
        )

    participants.sort(key=order)
    # Two steps, so that no two participants hold one number between them.
    Participant.objects.filter(season=season).update(start_rank=None)
    for number, participant in enumerate(participants, start=1):
        participant.start_rank = number
    Participant.objects.bulk_update(participants, ["start_rank"])
    standings_recompute(season=season)
    return len(participants)
