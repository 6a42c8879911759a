"""The club's rating ledger over evenings: a season worked out by hand from the regulations
(every figure below is computed in the comments, not taken from the code), and the property
that replaying from an evening on gives what a run from the first evening gives."""

from __future__ import annotations

from datetime import date, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.rating.fide import KRules, rounded_change
from competition.rating.ledger import (
    Evening,
    ExternalGame,
    PlayerState,
    RatedGame,
    evening_changes,
    ledger_run,
    states_after,
)

F = Fraction
WIN, DRAW, LOSS = F(1), F(1, 2), F(0)
P1, P2, P3, P4 = 1, 2, 3, 4
START = {P1: 1800, P2: 1650, P3: 1500, P4: 1500}
BORN = {P1: 1970, P2: None, P3: 1985, P4: 2010}  # P4 is a junior


def hand_worked_season() -> list[Evening]:
    """Two evenings of four new players (K 40 for all: fewer than 30 games; P4 a junior).

    3 September: P1 (1800) beats P2 (1650): D = ±150, PD .70/.30; P1 +0.30 × 40 = +12 → 1812,
    P2 −0.30 × 40 = −12 → 1638. P3 (1500) draws P4 (1500): D = 0, PD .50, no change.
    10 September (ratings of after the 3rd): P1 (1812) draws P3 (1500): D = ±312, PD .86/.14;
    P1 ½ − .86 = −0.36 × 40 = −14.4 → −14 → 1798; P3 ½ − .14 = +0.36 × 40 = 14.4 → 14 → 1514.
    P2 (1638) loses to P4 (1500): D = ±138, PD .69/.31; P4 1 − .31 = .69 × 40 = 27.6 → 28 →
    1528; P2 0 − .69 = −27.6 → −28 → 1610.
    """
    return [
        Evening(date(2026, 9, 3), (RatedGame(P1, P2, WIN, 1), RatedGame(P3, P4, DRAW, 2))),
        Evening(date(2026, 9, 10), (RatedGame(P1, P3, DRAW, 3), RatedGame(P4, P2, WIN, 4))),
    ]


def test_a_season_worked_out_by_hand() -> None:
    changes = ledger_run(hand_worked_season(), states={}, start_ratings=START, birth_years=BORN)
    got = [(c.date.day, c.player, c.rating_before, c.change, c.rating_after) for c in changes]
    assert got == [
        (3, P1, 1800, F(12), 1812),
        (3, P2, 1650, F(-12), 1638),
        (3, P3, 1500, F(0), 1500),
        (3, P4, 1500, F(0), 1500),
        (10, P1, 1812, F(-144, 10), 1798),
        (10, P2, 1638, F(-276, 10), 1610),
        (10, P3, 1500, F(144, 10), 1514),
        (10, P4, 1500, F(276, 10), 1528),
    ]
    p1 = changes[4]
    (game,) = p1.games
    assert (game.opponent, game.opponent_rating, game.difference) == (P3, 1500, 312)
    assert (game.expected, game.score, p1.k, p1.games_before) == (F(86, 100), DRAW, 40, 1)


def test_the_ratings_from_before_the_evening_are_used_for_all_its_games() -> None:
    """One evening, two games: A (1600) beats B (1500), then draws C (1700). Both games use
    A's 1600: +100 → .64 and −100 → .36; Σ(W − We) = .36 + .14 = .50; K 40 → +20."""
    (a, b, c) = evening_changes(
        Evening(date(2026, 10, 1), (RatedGame(1, 2, WIN), RatedGame(3, 1, DRAW))),
        states={},
        start_ratings={1: 1600, 2: 1500, 3: 1700},
    )
    assert [g.opponent_rating for g in a.games] == [1500, 1700]
    assert (a.change, a.rating_after, a.k) == (F(20), 1620, 40)
    assert (b.change, c.change) == (F(-144, 10), F(-56, 10))
    assert (b.rating_after, c.rating_after) == (1486, 1694)  # −14.4 → −14; −5.6 → −6


def test_a_player_at_k_10_and_the_rounding_of_a_half_loss() -> None:
    """An established 2450 (reached 2400, 50 games) draws a 2260: D = 190, PD .75;
    ½ − .75 = −.25 × 10 = −2.5, which 8.3.4 rounds away from zero: −3 → 2447. The 2260 (20
    games: K 40): ½ − .25 = .25 × 40 = +10 → 2270."""
    top, other = evening_changes(
        Evening(date(2026, 11, 5), (RatedGame(1, 2, DRAW),)),
        states={1: PlayerState(2450, 50, True), 2: PlayerState(2260, 20, False)},
        start_ratings={},
    )
    assert (top.k, top.change, top.rating_after) == (10, F(-5, 2), 2447)
    assert (other.k, other.change, other.rating_after) == (40, F(10), 2270)


def test_a_player_rated_2650_or_more_counts_the_whole_difference() -> None:
    """8.3.1 (from 1 October 2025). A 2700 (50 games, 2400 reached: K 10) draws a 1900 (40
    games: K 20): for the 2700 D = +800 counts as it is, PD 1.00 (above 735): 10 × (½ − 1) =
    −5 → 2695 (with the 400-point rule it would have been .92: −4.2 → −4). The 1900 counts
    D = −800 as −400, PD .08: 20 × (½ − .08) = +8.4 → +8 → 1908."""
    top, other = evening_changes(
        Evening(date(2026, 11, 12), (RatedGame(1, 2, DRAW),)),
        states={1: PlayerState(2700, 50, True, True), 2: PlayerState(1900, 40)},
        start_ratings={},
    )
    assert (top.games[0].counted_difference, top.games[0].expected) == (800, F(1))
    assert (other.games[0].counted_difference, other.games[0].expected) == (-400, F(8, 100))
    assert (top.k, top.change, top.rating_after) == (10, F(-5), 2695)
    assert (other.k, other.change, other.rating_after) == (20, F(84, 10), 1908)


def test_a_junior_who_reached_2300_has_k_20_below_it_again() -> None:
    """8.3.3: juniors have K 40 "as long as their rating remains under 2300". A junior (born
    2010, 40 games) at 2295 beats a 2295 (K 20): PD .50, K 40, +20 → 2315, 2300 reached; the
    2295 −10 → 2285. He then loses twice to a 2315 (K 20): K 20 for him now, D = 0: −10 →
    2305 (the 2315 → 2325); D = −20, PD .47: 20 × −.47 = −9.4 → −9 → 2296 (the 2325: +9.4 →
    2334). Back below 2300, he draws the 2285: D = +11, PD .52, K still 20: 20 × −.02 = −0.4
    → 0 → 2296 (with K 40 it would have been −0.8 → −1)."""
    changes = ledger_run(
        [
            Evening(date(2026, 3, 5), (RatedGame(1, 2, WIN),)),
            Evening(date(2026, 3, 12), (RatedGame(3, 1, WIN),)),
            Evening(date(2026, 3, 19), (RatedGame(3, 1, WIN),)),
            Evening(date(2026, 3, 26), (RatedGame(1, 2, DRAW),)),
        ],
        states={1: PlayerState(2295, 40), 2: PlayerState(2295, 40), 3: PlayerState(2315, 40)},
        start_ratings={},
        birth_years={1: 2010, 2: 1980, 3: 1980},
    )
    junior = [(c.date.day, c.k, c.rating_after, c.reached_junior_limit) for c in changes
              if c.player == 1]  # fmt: skip
    assert junior == [
        (5, 40, 2315, True), (12, 20, 2305, True), (19, 20, 2296, True), (26, 20, 2296, True)
    ]  # fmt: skip
    assert [c.rating_after for c in changes if c.player == 3] == [2325, 2334]
    assert [c.rating_after for c in changes if c.player == 2] == [2285, 2285]


def test_reaching_2400_gives_k_10_from_the_next_evening_on() -> None:
    """2395 (40 games, K 20) beats 2395: PD .50, +.5 × 20 = +10 → 2405; next evening K 10."""
    states = {1: PlayerState(2395, 40), 2: PlayerState(2395, 40)}
    first = ledger_run(
        [
            Evening(date(2026, 1, 8), (RatedGame(1, 2, WIN),)),
            Evening(date(2026, 1, 15), (RatedGame(2, 1, WIN),)),
        ],
        states=states,
        start_ratings={},
    )
    assert [(c.player, c.k, c.rating_after, c.reached_top) for c in first] == [
        (1, 20, 2405, True),
        (2, 20, 2385, False),
        # 2405 vs 2385: D = ±20, PD .53/.47. Player 1 loses: −.53 × 10 = −5.3 → −5 → 2400;
        # player 2 wins: .53 × 20 = 10.6 → 11 → 2396.
        (1, 10, 2400, True),
        (2, 20, 2396, False),
    ]


def test_an_external_game_counts_against_an_opponent_of_his_own_rating() -> None:
    """A member (1700, 10 games, K 40) wins a team match game: We .50, +.5 × 40 = +20."""
    (change,) = evening_changes(
        Evening(date(2026, 10, 8), external_games=(ExternalGame(5, WIN, key=-9),)),
        states={5: PlayerState(1700, 10)},
        start_ratings={},
    )
    assert (change.games[0].opponent, change.games[0].expected) == (None, F(1, 2))
    assert (change.change, change.rating_after) == (F(20), 1720)


def test_the_clubs_own_k() -> None:
    """K 24 for new players: P1 beats P2 as on 3 September, +0.30 × 24 = 7.2 → 7."""
    changes = ledger_run(
        hand_worked_season()[:1], states={}, start_ratings=START, rules=KRules(new_player=24)
    )
    assert (changes[0].change, changes[0].rating_after) == (F(72, 10), 1807)


def test_refusals() -> None:
    with pytest.raises(ValueError, match="date order"):
        ledger_run(list(reversed(hand_worked_season())), states={}, start_ratings=START)
    with pytest.raises(ValueError, match="start rating"):
        ledger_run(hand_worked_season(), states={}, start_ratings={P1: 1800})
    with pytest.raises(ValueError, match="himself"):
        evening_changes(
            Evening(date(2026, 1, 1), (RatedGame(1, 1, WIN),)), states={}, start_ratings={1: 1}
        )


# --- replay equals recompute ------------------------------------------------------------------

players = st.integers(min_value=1, max_value=8)
scores = st.sampled_from([WIN, DRAW, LOSS])
games = st.tuples(players, players, scores).filter(lambda g: g[0] != g[1])
evening_games = st.lists(games, min_size=0, max_size=6)


@given(
    season=st.lists(evening_games, min_size=1, max_size=12),
    start=st.dictionaries(players, st.integers(min_value=1000, max_value=2600), min_size=8),
    split=st.integers(min_value=0, max_value=12),
)
def test_a_replay_from_any_evening_equals_the_run_from_the_first(
    season: list[list[tuple[int, int, Fraction]]], start: dict[int, int], split: int
) -> None:
    evenings = [
        Evening(
            date(2026, 1, 1) + timedelta(days=7 * i),
            tuple(RatedGame(w, b, s, key=100 * i + j) for j, (w, b, s) in enumerate(games)),
        )
        for i, games in enumerate(season)
    ]
    start = {p: start.get(p, 1500) for p in range(1, 9)}
    whole = ledger_run(evenings, states={}, start_ratings=start)
    split = min(split, len(evenings))
    before = [c for c in whole if c.date < evenings[split].date] if split < len(evenings) else whole
    replayed = ledger_run(evenings[split:], states=states_after(before), start_ratings=start)
    assert before + replayed == whole


@given(season=st.lists(evening_games, min_size=1, max_size=10))
def test_every_rating_is_the_start_plus_the_rounded_changes(
    season: list[list[tuple[int, int, Fraction]]],
) -> None:
    evenings = [
        Evening(date(2026, 1, 1) + timedelta(days=i), tuple(RatedGame(w, b, s) for w, b, s in g))
        for i, g in enumerate(season)
    ]
    changes = ledger_run(evenings, states={}, start_ratings=dict.fromkeys(range(1, 9), 1500))
    final = states_after(changes)
    for player, state in final.items():
        mine = [c for c in changes if c.player == player]
        assert state.rating == 1500 + sum(c.rounded_change for c in mine)
        assert state.games == sum(len(c.games) for c in mine)
        for c in mine:
            assert c.change == c.k * sum((g.score - g.expected for g in c.games), F(0))
            assert abs(c.change - c.rounded_change) <= F(1, 2)
            assert c.rounded_change == rounded_change(c.change)  # 8.3.4
