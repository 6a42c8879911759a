"""Groups with promotion and relegation: from one period's group standings to the
next period's groups, and the club champion of a group competition.

A group competition plays in groups ordered from the top: A, then B, C ... Each group's
standings of a period are the real engine on that group's games of the period (each group of a
period is a season of its own). After the period, in every group:

- the top ``promoted`` players go up one group (not from the top group: there is no group
  above it, so they stay);
- the bottom ``relegated`` players go down one group (not from the bottom group);
- everyone else stays.

The next period's group lists its players by the group they come from, the higher group first,
and within one group by their place in it. So with groups A (Ada, Bob, Cor, Dirk in place order)
and B (Eva, Fer, Gus, Hans), one up and one down::

    next A: Ada, Bob, Cor, Eva      (Dirk went down, Eva came up)
    next B: Dirk, Fer, Gus, Hans

This order is the new group's start list (start numbers 1, 2, ...). With as many going up as
going down the groups keep their sizes; otherwise they change (two up and one down among four
groups of four: A 5, B 4, C 4, D 3). A group must hold at least the players who leave it
(:func:`check_moves`).

The **club champion** follows one of two rules (:data:`CHAMPION_RULES`):

- ``top_group``: the winner of the top group of the last period;
- ``most_points``: the most game points over all periods (1 a win, ½ a draw; the sum over the
  player's group seasons); equal totals go to the better player of the last period (higher
  group, then better place).

Places come in the standings' order (the season's own system and tie-breaks decide ties).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

UP = "up"
DOWN = "down"
STAY = "stay"
TOP_GROUP = "top_group"
MOST_POINTS = "most_points"
CHAMPION_RULES = (TOP_GROUP, MOST_POINTS)
LETTERS = "ABCDEFGHIJ"


@dataclass(frozen=True)
class GroupStanding:
    """One group of one period: its letter and its players (member ids) in standings order."""

    letter: str
    players: tuple[int, ...]


def split_into_groups(players: Sequence[int], count: int) -> list[list[int]]:
    """``players`` (strongest first) in ``count`` groups of consecutive players, as equal in
    size as can be, the larger groups on top: the first period's groups A, B, ...

    >>> split_into_groups([1, 2, 3, 4, 5, 6, 7], 2)
    [[1, 2, 3, 4], [5, 6, 7]]
    >>> split_into_groups([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3)
    [[1, 2, 3, 4], [5, 6, 7], [8, 9, 10]]
    """
    if not 1 <= count <= len(LETTERS):
        raise ValueError(f"the number of groups must be 1 to {len(LETTERS)}, not {count}")
    size, larger = divmod(len(players), count)
    groups: list[list[int]] = []
    start = 0
    for index in range(count):
        end = start + size + (1 if index < larger else 0)
        groups.append(list(players[start:end]))
        start = end
    return groups


def check_moves(sizes: Sequence[int], *, promoted: int, relegated: int) -> int | None:
    """The index of the first group too small for the moves, or ``None`` when all can move.

    The top group only loses its bottom ``relegated``, the bottom group only its top
    ``promoted``, a group in between both, and nobody may go both up and down:
    ``check_moves([4, 4], promoted=2, relegated=2) is None``,
    ``check_moves([4, 3, 4], promoted=2, relegated=2) == 1`` (B has three players, four would
    move).
    """
    last = len(sizes) - 1
    for index, size in enumerate(sizes):
        moving = (promoted if index > 0 else 0) + (relegated if index < last else 0)
        if moving > size:
            return index
    return None


def movements(groups: Sequence[GroupStanding], *, promoted: int, relegated: int) -> dict[int, str]:
    """Each player's move after the period: :data:`UP`, :data:`DOWN` or :data:`STAY`."""
    moves: dict[int, str] = {}
    last = len(groups) - 1
    for index, group in enumerate(groups):
        size = len(group.players)
        for position, player in enumerate(group.players):
            if index > 0 and position < promoted:
                moves[player] = UP
            elif index < last and position >= size - relegated:
                moves[player] = DOWN
            else:
                moves[player] = STAY
    return moves


def next_groups(
    groups: Sequence[GroupStanding], *, promoted: int, relegated: int
) -> tuple[GroupStanding, ...]:
    """The next period's groups, each in its start order (the module's docstring)."""
    moves = movements(groups, promoted=promoted, relegated=relegated)
    members: list[list[int]] = [[] for _ in groups]
    # Walking the groups from the top, each player lands in his new group after everyone from
    # a higher group and after the better placed of his own group: the start order wanted.
    for index, group in enumerate(groups):
        for player in group.players:
            shift = {UP: -1, DOWN: 1, STAY: 0}[moves[player]]
            members[index + shift].append(player)
    return tuple(
        GroupStanding(group.letter, tuple(players))
        for group, players in zip(groups, members, strict=True)
    )


def champion(
    rule: str,
    last_period: Sequence[GroupStanding],
    game_points: Mapping[int, Fraction] | None = None,
) -> int | None:
    """The club champion (a member id) by ``rule``; ``None`` when nobody has played.

    ``game_points``: each player's game points summed over all periods (rule ``most_points``).
    With A (Ada, Bob) and B (Eva, Fer) in the last period and 4, 3, 4½, 2 game points over all
    periods: ``top_group`` gives Ada, ``most_points`` gives Eva.
    """
    if rule not in CHAMPION_RULES:
        raise ValueError(f"unknown champion rule {rule!r}")
    order = [player for group in last_period for player in group.players]
    if not order:
        return None
    if rule == TOP_GROUP:
        return order[0]
    points = game_points or {}
    # max() keeps the first of equal totals: the better player of the last period.
    return max(order, key=lambda player: points.get(player, Fraction(0)))
