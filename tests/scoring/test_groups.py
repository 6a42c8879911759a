"""Groups with promotion and relegation (competition.scoring.groups): every parameter with a
worked figure written out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from competition.scoring.groups import (
    DOWN,
    MOST_POINTS,
    STAY,
    TOP_GROUP,
    UP,
    GroupStanding,
    champion,
    check_moves,
    movements,
    next_groups,
)

# Players are numbers; each group lists them in standings order (place 1 first).
A = GroupStanding("A", (1, 2, 3, 4))
B = GroupStanding("B", (5, 6, 7, 8))
C = GroupStanding("C", (9, 10, 11, 12))


def test_one_up_one_down_between_two_groups() -> None:
    # A: 4 (last) goes down; B: 5 (first) goes up. A's first stays: there is no group above.
    assert movements([A, B], promoted=1, relegated=1) == {
        1: STAY,
        2: STAY,
        3: STAY,
        4: DOWN,
        5: UP,
        6: STAY,
        7: STAY,
        8: STAY,
    }
    # Next A: the three who stayed in their places, then 5 from below.
    # Next B: 4 from above first, then B's stayers in their places.
    assert next_groups([A, B], promoted=1, relegated=1) == (
        GroupStanding("A", (1, 2, 3, 5)),
        GroupStanding("B", (4, 6, 7, 8)),
    )


def test_promotion_number_two_among_three_groups() -> None:
    # promoted 2, relegated 1: B's 5 and 6 go up, C's 9 and 10 go up; A's 4 and B's 8 go down.
    # A: 1 2 3 + 5 6 = five players; B: 4 (from A) + 7 + 9 10 = four; C: 8 (from B) + 11 12.
    assert next_groups([A, B, C], promoted=2, relegated=1) == (
        GroupStanding("A", (1, 2, 3, 5, 6)),
        GroupStanding("B", (4, 7, 9, 10)),
        GroupStanding("C", (8, 11, 12)),
    )


def test_relegation_number_two_with_nobody_going_up() -> None:
    # promoted 0, relegated 2: A's 3 and 4 and B's 7 and 8 go down; C loses nobody.
    moves = movements([A, B, C], promoted=0, relegated=2)
    assert [p for p, move in moves.items() if move == DOWN] == [3, 4, 7, 8]
    assert [p for p, move in moves.items() if move == UP] == []
    assert next_groups([A, B, C], promoted=0, relegated=2) == (
        GroupStanding("A", (1, 2)),
        GroupStanding("B", (3, 4, 5, 6)),
        GroupStanding("C", (7, 8, 9, 10, 11, 12)),
    )


def test_two_up_two_down_keeps_the_sizes_and_the_group_order() -> None:
    # Each new group: first who came down from above (in their place order), then who stayed,
    # then who came up from below.
    assert next_groups([A, B, C], promoted=2, relegated=2) == (
        GroupStanding("A", (1, 2, 5, 6)),
        GroupStanding("B", (3, 4, 9, 10)),
        GroupStanding("C", (7, 8, 11, 12)),
    )


@pytest.mark.parametrize(
    ("sizes", "promoted", "relegated", "too_small"),
    [
        ([4, 4], 2, 2, None),  # A loses 2 down, B loses 2 up
        ([4, 4, 4], 2, 2, None),  # B loses 4: everyone moves, allowed
        ([4, 3, 4], 2, 2, 1),  # B has 3, 4 would leave it
        ([1, 4], 0, 2, 0),  # A has 1, 2 would go down
        ([4, 1], 2, 0, 1),  # B has 1, 2 would go up
    ],
)
def test_a_group_must_hold_who_leaves_it(sizes, promoted, relegated, too_small) -> None:
    assert check_moves(sizes, promoted=promoted, relegated=relegated) == too_small


def test_champion_rules() -> None:
    # Last period: A (Ada 1, Bob 2) and B (Eva 3, Fer 4); over all periods 4, 3, 4½, 2 points.
    last = [GroupStanding("A", (1, 2)), GroupStanding("B", (3, 4))]
    points = {1: Fraction(4), 2: Fraction(3), 3: Fraction(9, 2), 4: Fraction(2)}
    assert champion(TOP_GROUP, last, points) == 1  # the winner of group A
    assert champion(MOST_POINTS, last, points) == 3  # 4½ beats 4
    # Equal totals: the better player of the last period (higher group first).
    assert champion(MOST_POINTS, last, {1: Fraction(4), 3: Fraction(4)}) == 1
    assert champion(TOP_GROUP, [], {}) is None
    with pytest.raises(ValueError, match="unknown champion rule"):
        champion("oldest", last, points)
