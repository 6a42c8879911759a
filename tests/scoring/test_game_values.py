"""What a game is worth against a place, per system (competition/scoring/game_values.py)."""

from __future__ import annotations

import doctest
from fractions import Fraction as F

import pytest

from competition.scoring import game_values as module
from competition.scoring.game_values import GameValues, game_values
from competition.scoring.registry import get_system


def _defaults(system: str, **changes: object) -> dict[str, object]:
    return dict(get_system(system).validate(changes))


@pytest.mark.parametrize(
    ("system", "changes", "place", "opponent", "own", "expected"),
    [
        # seed 001: 160 against 170, factor 0,07: 3,70 / 0,70 / −2,30
        ("van-den-brink", {}, 1, {"RV": F(170)}, {"RV": F(160)}, (F(37, 10), F(7, 10), F(-23, 10))),
        # the same game with factor 0,05: 3,50 / 0,50 / −2,50
        ("van-den-brink", {"factor": F(1, 20)}, 1, {"RV": F(170)}, {"RV": F(160)},
         (F(7, 2), F(1, 2), F(-5, 2))),
        # Keizer, 20 participants: top value 30 (1,5 × 20), step 1; place 4 is worth 27
        ("keizer", {}, 4, {}, {}, (F(27), F(27, 2), F(0))),
        ("keizer", {"top_value": 10, "value_step": F(3)}, 5, {}, {}, (F(0), F(0), F(0))),
        # game points: whoever the opponent is
        ("points", {"win": F(3), "draw": F(1)}, 7, {}, {}, (F(3), F(1), F(0))),
        # internal SB: the score times the opponent's internal points
        ("internal-sb", {}, 2, {"IP": F(5, 2)}, {}, (F(5, 2), F(5, 4), F(0))),
    ],
)  # fmt: skip
def test_game_values(system, changes, place, opponent, own, expected) -> None:
    assert game_values(
        system=system,
        parameters=_defaults(system, **changes),
        place=place,
        participants=20,
        opponent=opponent,
        own=own,
    ) == GameValues(*expected)


def test_the_doctests() -> None:
    assert doctest.testmod(module).failed == 0
