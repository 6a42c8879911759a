"""What one game of the next round is worth: for a win, a draw and a loss against a place.

The rules page shows it beside a proposed change, so that a club sees what 0,05 instead of
0,07 does before any round is played under it. Per system, for a game against the opponent
at ``place`` of ``participants``:

- game points (``points``): the season's fixed points for a win, a draw and a loss, whoever
  the opponent is;
- Van den Brink (seed 001): result part + factor × (opponent's rank value − own rank value),
  the rank values at the start of the round. Seed 001's example, 160 against 170 with factor
  0,07: a win 3,70, a draw 0,70, a loss −2,30;
- Keizer: the result's fraction × the value of the opponent's place,
  V(r) = max(0, top − (r − 1) × step). Top 10, step 1, against place 3: win 8, draw 4, loss 0;
- the internal SB competition (seed 000): the game's score × the opponent's internal points,
  what the game adds to the SB score (the opponent's internal points as they are now).

>>> from fractions import Fraction as F
>>> game_values(system="van-den-brink", parameters={"win_part": F(3), "draw_part": F(0),
...     "loss_part": F(-3), "factor": F(7, 100)}, place=1, participants=2,
...     opponent={"RV": F(170)}, own={"RV": F(160)})
GameValues(win=Fraction(37, 10), draw=Fraction(7, 10), loss=Fraction(-23, 10))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from competition.scoring.model import ParameterValues
from competition.scoring.systems.internal_sb import IP
from competition.scoring.systems.keizer import place_values, top_value_of
from competition.scoring.systems.van_den_brink import RV

HALF = Fraction(1, 2)
# The figure of the opponent a game's worth depends on (none: a fixed value or his place).
OPPONENT_FIGURE = {"van-den-brink": RV, "internal-sb": IP}


@dataclass(frozen=True, slots=True)
class GameValues:
    win: Fraction
    draw: Fraction
    loss: Fraction


def depends_on_own_figure(system: str) -> bool:
    """Whether a game's worth depends on the player's own figure too (Van den Brink's rank
    value), so that a table of it must say whose games it shows."""
    return system == "van-den-brink"


def depends_on_opponent(system: str) -> bool:
    """Whether a game's worth depends on the opponent (his place or a figure of his)."""
    return system != "points"


def game_values(
    *,
    system: str,
    parameters: ParameterValues,
    place: int,
    participants: int,
    opponent: Mapping[str, Fraction],
    own: Mapping[str, Fraction],
) -> GameValues:
    """What a win, a draw and a loss against the opponent at ``place`` give; ``parameters``
    validated by the system, ``opponent`` and ``own`` the two players' figures by code.

    >>> game_values(system="keizer", parameters={"top_value": 10, "value_step": Fraction(1),
    ...     "win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}, place=3,
    ...     participants=5,
    ...     opponent={}, own={})
    GameValues(win=Fraction(8, 1), draw=Fraction(4, 1), loss=Fraction(0, 1))
    """
    if system == "points":
        return GameValues(*(Fraction(parameters[name]) for name in ("win", "draw", "loss")))
    if system == "van-den-brink":
        compensation = Fraction(parameters["factor"]) * (opponent[RV] - own[RV])
        return GameValues(
            *(
                Fraction(parameters[name]) + compensation
                for name in ("win_part", "draw_part", "loss_part")
            )
        )
    if system == "keizer":
        top = top_value_of(parameters, participants)
        value = place_values(top, Fraction(parameters["value_step"]), place)[place - 1]
        return GameValues(*(Fraction(parameters[name]) * value for name in ("win", "draw", "loss")))
    if system == "internal-sb":
        points = opponent[IP]
        return GameValues(points, HALF * points, Fraction(0))
    raise KeyError(system)
