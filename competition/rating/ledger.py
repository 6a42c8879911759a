"""The club's rating ledger: every rated game of the club in date order, one evening at a time.

One evening (a date) is one rating period: every game of the evening is rated with the ratings
from before it, and each player's change for the evening is K × Σ(W − We) over his games,
rounded once (FIDE Rating Regulations 8.3, :mod:`competition.rating.fide`). A player met for
the first time starts at the rating the caller gives (a fixed number or an imported rating).

:func:`ledger_run` is a plain fold over the evenings: given the players' states before the
first evening it returns every change in order, so replaying from an evening on (after a
correction) starts from the states the ledger had before that evening and ends where a run
from the first evening ends.

Example: on 1 October A (1600) beats B (1500) and draws C (1700); B and C are new. A's games:
D = +100, We 0.64, W 1; D = −100, We 0.36, W ½: Σ(W − We) = 0.36 + 0.14 = 0.50, K 40, change
+20; B: D = −100, We 0.36, W 0, 40 × −0.36 = −14.4, rounded −14; C: D = +100, We 0.64,
W ½, 40 × −0.14 = −5.6, rounded −6.

>>> changes = ledger_run(
...     [Evening(date(2026, 10, 1), (
...         RatedGame(1, 2, Fraction(1), key=11), RatedGame(1, 3, Fraction(1, 2), key=12)))],
...     states={}, start_ratings={1: 1600, 2: 1500, 3: 1700})
>>> [(c.player, c.rating_before, str(c.change), c.rating_after) for c in changes]
[(1, 1600, '20', 1620), (2, 1500, '-72/5', 1486), (3, 1700, '-28/5', 1694)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from competition.rating.fide import (
    FIDE_K,
    JUNIOR_BELOW,
    TOP_RATING,
    KRules,
    counted_difference,
    expected_hundredths,
    k_factor,
    rounded_hundredths,
)

PlayerId = int


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A game over the board between two players; ``white_score`` is 1, ½ or 0. ``key``
    identifies the game for the explanation (the caller's game id)."""

    white: PlayerId
    black: PlayerId
    white_score: Fraction
    key: int = 0


@dataclass(frozen=True, slots=True)
class ExternalGame:
    """A game a player played for the club elsewhere (a team match): the club does not know
    the opponent's rating, so it counts as a game against an opponent of his own rating."""

    player: PlayerId
    score: Fraction
    key: int = 0


@dataclass(frozen=True, slots=True)
class Evening:
    date: date
    games: tuple[RatedGame, ...] = ()
    external_games: tuple[ExternalGame, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's place in the ledger before an evening."""

    rating: int
    games: int = 0  # rated games so far
    reached_top: bool = False  # the rating was 2400 or more at some time
    reached_junior_limit: bool = False  # the rating was 2300 or more at some time


@dataclass(frozen=True, slots=True)
class GameFigures:
    """One game of an evening's change: the explanation line (rating difference, We, W)."""

    key: int
    opponent: PlayerId | None  # None: an external game
    opponent_rating: int
    difference: int  # own rating − opponent's, as it is
    expected_hundredths: int  # We × 100, from the difference as counted (the 400-point rule)
    score_halves: int  # W × 2: 2, 1 or 0

    @property
    def counted_difference(self) -> int:
        return counted_difference(self.difference, rating=self.opponent_rating + self.difference)

    @property
    def expected(self) -> Fraction:
        """We."""
        return Fraction(self.expected_hundredths, 100)

    @property
    def score(self) -> Fraction:
        """W."""
        return Fraction(self.score_halves, 2)


@dataclass(frozen=True, slots=True)
class EveningChange:
    """A player's change for one evening: K × Σ(W − We), exact, and rounded (8.3.4,
    :func:`competition.rating.fide.rounded_change`)."""

    player: PlayerId
    date: date
    rating_before: int
    games_before: int
    k: int
    games: tuple[GameFigures, ...]
    change_hundredths: int  # K × Σ(W − We) × 100: exact, We has two decimals
    rating_after: int
    reached_top: bool  # after the evening
    reached_junior_limit: bool  # after the evening

    @property
    def change(self) -> Fraction:
        """K × Σ(W − We), exact, before rounding."""
        return Fraction(self.change_hundredths, 100)

    @property
    def rounded_change(self) -> int:
        return self.rating_after - self.rating_before

    @property
    def state_after(self) -> PlayerState:
        return PlayerState(
            self.rating_after,
            self.games_before + len(self.games),
            self.reached_top,
            self.reached_junior_limit,
        )


def _halves(score: Fraction) -> int | None:
    """W × 2 for a score of 1, ½ or 0; None for anything else."""
    numerator, denominator = score.numerator, score.denominator
    if denominator == 1 and numerator in (0, 1):
        return 2 * numerator
    if denominator == 2 and numerator == 1:
        return 1
    return None


def _state(
    player: PlayerId, states: Mapping[PlayerId, PlayerState], start_ratings: Mapping[PlayerId, int]
) -> PlayerState:
    if player in states:
        return states[player]
    try:
        rating = start_ratings[player]
    except KeyError:
        raise ValueError(f"player {player} has neither a state nor a start rating") from None
    return PlayerState(rating, 0, rating >= TOP_RATING, rating >= JUNIOR_BELOW)


def evening_changes(
    evening: Evening,
    *,
    states: Mapping[PlayerId, PlayerState],
    start_ratings: Mapping[PlayerId, int],
    birth_years: Mapping[PlayerId, int | None] | None = None,
    rules: KRules = FIDE_K,
) -> list[EveningChange]:
    """Every player's change for ``evening``, in the order of player id; the ratings used are
    those before the evening (``states``, else the start rating)."""
    before: dict[PlayerId, PlayerState] = {}

    def rating_of(player: PlayerId) -> int:
        if player not in before:
            before[player] = _state(player, states, start_ratings)
        return before[player].rating

    figures: dict[PlayerId, list[GameFigures]] = {}
    for game in evening.games:
        if game.white == game.black:
            raise ValueError(f"game {game.key}: a player cannot play himself")
        halves = _halves(game.white_score)
        if halves is None:
            raise ValueError(f"game {game.key}: a score is 1, 1/2 or 0, not {game.white_score}")
        white, black = rating_of(game.white), rating_of(game.black)
        difference = white - black
        # Each side counts the difference by his own rating (8.3.1): below 2650 at most 400.
        white_expected = expected_hundredths(counted_difference(difference, rating=white))
        black_expected = expected_hundredths(counted_difference(-difference, rating=black))
        figures.setdefault(game.white, []).append(
            GameFigures(game.key, game.black, black, difference, white_expected, halves)
        )
        figures.setdefault(game.black, []).append(
            GameFigures(game.key, game.white, white, -difference, black_expected, 2 - halves)
        )
    for external in evening.external_games:
        halves = _halves(external.score)
        if halves is None:
            raise ValueError(f"game {external.key}: a score is 1, 1/2 or 0, not {external.score}")
        own = rating_of(external.player)
        figures.setdefault(external.player, []).append(
            GameFigures(external.key, None, own, 0, expected_hundredths(0), halves)
        )
    years = birth_years or {}
    changes = []
    for player in sorted(figures):
        state = before[player]
        games = tuple(figures[player])
        k = k_factor(
            rating=state.rating,
            games_before=state.games,
            reached_top=state.reached_top,
            reached_junior_limit=state.reached_junior_limit,
            birth_year=years.get(player),
            year=evening.date.year,
            games=len(games),
            rules=rules,
        )
        # K × Σ(W − We) in hundredths (W × 100 is score_halves × 50), rounded as 8.3.4 says.
        hundredths = k * sum(g.score_halves * 50 - g.expected_hundredths for g in games)
        after = state.rating + rounded_hundredths(hundredths)
        changes.append(
            EveningChange(
                player=player,
                date=evening.date,
                rating_before=state.rating,
                games_before=state.games,
                k=k,
                games=games,
                change_hundredths=hundredths,
                rating_after=after,
                reached_top=state.reached_top or after >= TOP_RATING,
                reached_junior_limit=state.reached_junior_limit or after >= JUNIOR_BELOW,
            )
        )
    return changes


def ledger_run(
    evenings: Iterable[Evening],
    *,
    states: Mapping[PlayerId, PlayerState],
    start_ratings: Mapping[PlayerId, int],
    birth_years: Mapping[PlayerId, int | None] | None = None,
    rules: KRules = FIDE_K,
) -> list[EveningChange]:
    """The changes of ``evenings`` (in date order, one per date) from the players' ``states``
    before the first of them; a player without a state starts at his start rating."""
    current = dict(states)
    changes: list[EveningChange] = []
    last: date | None = None
    for evening in evenings:
        if last is not None and evening.date <= last:
            raise ValueError(f"evenings must be in date order, one per date: {evening.date}")
        last = evening.date
        for change in evening_changes(
            evening,
            states=current,
            start_ratings=start_ratings,
            birth_years=birth_years,
            rules=rules,
        ):
            current[change.player] = change.state_after
            changes.append(change)
    return changes


def states_after(
    changes: Iterable[EveningChange], states: Mapping[PlayerId, PlayerState] | None = None
) -> dict[PlayerId, PlayerState]:
    """Each player's state after ``changes`` (in order), starting from ``states``."""
    current = dict(states or {})
    for change in changes:
        current[change.player] = change.state_after
    return current
