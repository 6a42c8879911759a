"""Rapid series (competition.scoring.series): evening points by place, shared places, the best
N of M evenings and the sum, with the figures worked out by hand in each case."""

from __future__ import annotations

from fractions import Fraction

import pytest

from competition.scoring import engine
from competition.scoring.categories import Period
from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from competition.scoring.series import (
    counted_evenings,
    evening_input,
    evening_of,
    evening_points,
    evenings_of,
    round_in_evening,
    series_ranking,
)

F = Fraction
TABLE = (10, 8, 6, 5, 4, 3, 2, 1)


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        # No shared places: the table read by place; place 9 and later get 0.
        ({1: 1, 2: 2, 3: 3, 4: 9}, {1: F(10), 2: F(8), 3: F(6), 4: F(0)}),
        # Two on place 2 cover places 2 and 3: (8 + 6) / 2 = 7 each; the next is place 4: 5.
        ({1: 1, 2: 2, 3: 2, 4: 4}, {1: F(10), 2: F(7), 3: F(7), 4: F(5)}),
        # Three on place 1 cover 1-3: (10 + 8 + 6) / 3 = 8; place 4 alone: 5.
        ({1: 1, 2: 1, 3: 1, 4: 4}, {1: F(8), 2: F(8), 3: F(8), 4: F(5)}),
        # Two on place 3 cover 3 and 4: (6 + 5) / 2 = 11/2 (5½), exact.
        ({1: 1, 2: 2, 3: 3, 4: 3}, {1: F(10), 2: F(8), 3: F(11, 2), 4: F(11, 2)}),
        # Three on place 7 cover 7, 8 and 9: (2 + 1 + 0) / 3 = 1.
        ({1: 7, 2: 7, 3: 7}, {1: F(1), 2: F(1), 3: F(1)}),
        # Three on place 4 cover 4-6: (5 + 4 + 3) / 3 = 4; two on place 2: (8 + 6)/2 = 7.
        ({1: 4, 2: 4, 3: 4, 4: 2, 5: 2}, {1: F(4), 2: F(4), 3: F(4), 4: F(7), 5: F(7)}),
    ],
)
def test_evening_points_by_place(ranks, expected) -> None:
    assert evening_points(ranks, TABLE) == expected


def test_another_points_table() -> None:
    # 12-9-7: two on place 2 get (9 + 7) / 2 = 8; place 4 is beyond the table: 0.
    assert evening_points({1: 1, 2: 2, 3: 2, 4: 4}, (12, 9, 7)) == {
        1: F(12),
        2: F(8),
        3: F(8),
        4: F(0),
    }
    # Two sharing place 1 of 12-9-7 and (12 + 9) / 2 = 21/2: exact, not 10.5 rounded.
    assert evening_points({1: 1, 2: 1}, (12, 9, 7)) == {1: F(21, 2), 2: F(21, 2)}


# Three evenings of players 1, 2, 3; player 3 missed evening 2.
EVENINGS = [
    {1: F(10), 2: F(8), 3: F(6)},
    {1: F(6), 2: F(10)},
    {1: F(8), 2: F(6), 3: F(10)},
]


def test_series_sum_of_every_evening() -> None:
    rows = series_ranking(EVENINGS)
    # 1: 10 + 6 + 8 = 24; 2: 8 + 10 + 6 = 24 (shared first place); 3: 6 + 10 = 16.
    assert [(r.participant_id, r.rank, r.total) for r in rows] == [
        (1, 1, F(24)),
        (2, 1, F(24)),
        (3, 3, F(16)),
    ]
    assert rows[2].points == (F(6), None, F(10))
    assert rows[2].evenings_played == 2
    assert rows[2].counted == frozenset({1, 3})


def test_series_best_two_of_three() -> None:
    rows = series_ranking(EVENINGS, best=2)
    # 1: best two of 10, 6, 8 = 10 + 8 = 18 (evenings 1, 3); 2: 8, 10, 6 -> 10 + 8 = 18
    # (evenings 2, 1); 3: 6 and 10 = 16 (he played two).
    assert [(r.participant_id, r.rank, r.total, sorted(r.counted)) for r in rows] == [
        (1, 1, F(18), [1, 3]),
        (2, 1, F(18), [1, 2]),
        (3, 3, F(16), [1, 3]),
    ]


def test_series_best_one() -> None:
    rows = series_ranking(EVENINGS, best=1)
    # Everyone's best evening is worth 10: all three share first place.
    assert [(r.rank, r.total) for r in rows] == [(1, F(10))] * 3


def test_counted_evenings_prefers_the_earlier_of_equal_points() -> None:
    assert counted_evenings([F(6), F(8), F(6)], 2) == frozenset({1, 2})


def test_evenings_and_rounds() -> None:
    assert [evening_of(n, 7) for n in (1, 7, 8, 14, 15)] == [1, 1, 2, 2, 3]
    assert [round_in_evening(n, 7) for n in (1, 7, 8, 14, 15)] == [1, 7, 1, 7, 1]
    assert [(e.first_round, e.last_round) for e in evenings_of(3, 7)] == [
        (1, 3),
        (4, 6),
        (7, 9),
    ]


def test_evening_input_keeps_the_evenings_players_only() -> None:
    # Four players; evening 2 (rounds 3-4) without player 4, who was absent both rounds.
    players = tuple(Participant(i, f"P{i}", start_rank=i) for i in (1, 2, 3, 4))
    absent = Entry(4, EntryKind.ABSENT_NOTICE)
    season = SeasonInput(
        participants=players,
        rounds=(
            Round(1, games=(Game(1, 2, Result.WHITE_WINS), Game(3, 4, Result.DRAW))),
            Round(2, games=(Game(1, 3, Result.DRAW), Game(2, 4, Result.BLACK_WINS))),
            Round(
                3,
                games=(Game(2, 1, Result.WHITE_WINS),),
                entries=(Entry(3, EntryKind.BYE, F(1)), absent),
            ),
            Round(
                4,
                games=(Game(3, 2, Result.WHITE_WINS),),
                entries=(Entry(1, EntryKind.BYE, F(1)), absent),
            ),
        ),
        system="points",
    )
    restricted = evening_input(season, Period(2, 3, 4))
    assert [p.id for p in restricted.participants] == [1, 2, 3]
    assert [r.number for r in restricted.rounds] == [1, 2]
    rows = engine.standings_after(restricted, 2).rows
    # P1: 0 + bye 1 = 1; P2: 1 + 0 = 1; P3: bye 1 + 1 = 2.
    assert {r.participant_id: r.game_points for r in rows} == {1: F(1), 2: F(1), 3: F(2)}
    assert rows[0].participant_id == 3
