"""Berger tables against the published tables of FIDE Handbook C.05, Annex 1.

The rounds below are typed in from the published tables (white first, board order), as also
printed on c.w.fox.tripod.com/chess/berger.html; they are test data, not the code's output.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from competition.pairing import berger_bye, berger_round, berger_schedule
from competition.pairing.berger import berger_cycle_round


def _rounds(text: str) -> list[list[tuple[int, int]]]:
    return [
        [tuple(int(x) for x in game.split("-")) for game in line.split(",")]
        for line in text.strip().splitlines()
    ]


PUBLISHED = {
    4: _rounds(
        """
        1-4, 2-3
        4-3, 1-2
        2-4, 3-1
        """
    ),
    6: _rounds(
        """
        1-6, 2-5, 3-4
        6-4, 5-3, 1-2
        2-6, 3-1, 4-5
        6-5, 1-4, 2-3
        3-6, 4-2, 5-1
        """
    ),
    8: _rounds(
        """
        1-8, 2-7, 3-6, 4-5
        8-5, 6-4, 7-3, 1-2
        2-8, 3-1, 4-7, 5-6
        8-6, 7-5, 1-4, 2-3
        3-8, 4-2, 5-1, 6-7
        8-7, 1-6, 2-5, 3-4
        4-8, 5-3, 6-2, 7-1
        """
    ),
    10: _rounds(
        """
        1-10, 2-9, 3-8, 4-7, 5-6
        10-6, 7-5, 8-4, 9-3, 1-2
        2-10, 3-1, 4-9, 5-8, 6-7
        10-7, 8-6, 9-5, 1-4, 2-3
        3-10, 4-2, 5-1, 6-9, 7-8
        10-8, 9-7, 1-6, 2-5, 3-4
        4-10, 5-3, 6-2, 7-1, 8-9
        10-9, 1-8, 2-7, 3-6, 4-5
        5-10, 6-4, 7-3, 8-2, 9-1
        """
    ),
}


@pytest.mark.parametrize(
    ("n", "round_number", "expected"),
    [(n, r, games) for n, rounds in PUBLISHED.items() for r, games in enumerate(rounds, start=1)],
)
def test_berger_round_matches_published_table(
    n: int, round_number: int, expected: list[tuple[int, int]]
) -> None:
    assert berger_round(n, round_number) == expected
    assert berger_bye(n, round_number) is None


@pytest.mark.parametrize("n", sorted(PUBLISHED))
def test_berger_schedule_is_the_published_table(n: int) -> None:
    assert berger_schedule(n) == PUBLISHED[n]


# Odd n: "the highest number counts as a bye" (C.05 Annex 1), so 5 players use the 6-player
# table with 6 as the bye: round 1 is 1-6 (bye for 1), 2-5, 3-4; round 2 is 6-4 (bye for 4), ...
@pytest.mark.parametrize(
    ("round_number", "games", "bye"),
    [
        (1, [(2, 5), (3, 4)], 1),
        (2, [(5, 3), (1, 2)], 4),
        (3, [(3, 1), (4, 5)], 2),
        (4, [(1, 4), (2, 3)], 5),
        (5, [(4, 2), (5, 1)], 3),
    ],
)
def test_odd_number_of_players_uses_dummy_as_bye(
    round_number: int, games: list[tuple[int, int]], bye: int
) -> None:
    assert berger_round(5, round_number) == games
    assert berger_bye(5, round_number) == bye


@pytest.mark.parametrize("n", range(2, 17))
def test_everyone_meets_everyone_exactly_once(n: int) -> None:
    schedule = berger_schedule(n)
    met = [frozenset(game) for games in schedule for game in games]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in combinations(range(1, n + 1), 2)), key=sorted
    )
    # Even n: n - 1 rounds; odd n: n rounds, each player sitting out once.
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    if n % 2 == 1:
        assert sorted(berger_bye(n, r) for r in range(1, n + 1)) == list(range(1, n + 1))


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12, 14])
def test_whites_differ_by_at_most_one(n: int) -> None:
    # n - 1 games each: with n - 1 odd, everyone has (n-2)/2 or n/2 whites.
    whites = dict.fromkeys(range(1, n + 1), 0)
    for games in berger_schedule(n):
        for white, _ in games:
            whites[white] += 1
    assert set(whites.values()) == {(n - 2) // 2, n // 2}


@pytest.mark.parametrize(("n", "round_number"), [(1, 1), (4, 0), (4, 4), (5, 6)])
def test_invalid_arguments_raise(n: int, round_number: int) -> None:
    with pytest.raises(ValueError):
        berger_round(n, round_number)


@pytest.mark.parametrize(
    ("n", "round_number", "games", "bye"),
    [
        # The first cycle is the published table itself (4 players, round 2: 4-3, 1-2).
        (4, 2, [(4, 3), (1, 2)], None),
        # A double round robin: round 3 + 2 = 5 is round 2 again with colours reversed.
        (4, 5, [(3, 4), (2, 1)], None),
        # A third cycle is the first again.
        (4, 8, [(4, 3), (1, 2)], None),
        # Five players: five rounds a cycle, the bye as in the table (round 2: 5-3, 1-2, bye 4).
        (5, 2, [(5, 3), (1, 2)], 4),
        (5, 7, [(3, 5), (2, 1)], 4),
    ],
)
def test_berger_cycle_round(
    n: int, round_number: int, games: list[tuple[int, int]], bye: int | None
) -> None:
    assert berger_cycle_round(n, round_number) == (games, bye)


@pytest.mark.parametrize(("n", "round_number"), [(1, 1), (4, 0)])
def test_berger_cycle_round_refuses_what_has_no_table(n: int, round_number: int) -> None:
    with pytest.raises(ValueError):
        berger_cycle_round(n, round_number)
