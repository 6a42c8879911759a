"""The rules preview's table of game values (``_rules_game_values.html``): the opponent's
figure in brackets in the row headers is written in one style for the whole column, the player
the table is seen from included, never rounded."""

from __future__ import annotations

import re
from fractions import Fraction as F

from django.template.loader import render_to_string
from django.utils import translation

from competition.scoring.game_values import GameValues
from competition.services.rules import GameValueRow, GameValueTable, SeenFrom


def _table(figure: str, figures: list[tuple[F, F]], seen_from: SeenFrom | None) -> GameValueTable:
    values = GameValues(F(3), F(0), F(-3))
    return GameValueTable(
        round_number=5,
        system="van-den-brink" if figure == "RV" else "internal-sb",
        figure=figure,
        depends_on_opponent=True,
        seen_from=seen_from,
        rows=[
            GameValueRow(place, f"Speler {place}", old, new, values, values)
            for place, (old, new) in enumerate(figures, start=1)
        ],
    )


def _brackets(table: GameValueTable) -> list[str]:
    with translation.override("nl"):
        html = render_to_string("competition/_rules_game_values.html", {"table": table})
    return re.findall(r'text-body-secondary">\((.*?)\)</span>', html)


def test_rank_values_in_brackets_share_the_columns_decimals() -> None:
    table = _table(
        "RV",
        [(F(401, 2), F(401, 2)), (F(175), F(175)), (F(165), F(3291, 20))],
        SeenFrom("Speler 2", 2, F(175), F(175)),
    )
    assert _brackets(table) == ["200,50", "175,00", "165,00 → 164,55"]
    assert table.figure_style == "2"  # 164,55 needs two decimals, 200,50 one
    with translation.override("nl"):
        html = render_to_string("competition/_rules_game_values.html", {"table": table})
    assert "rangwaarde 175,00 nu, 175,00 met de nieuwe regels" in html


def test_internal_points_in_brackets_with_halves() -> None:
    table = _table("IP", [(F(9, 2), F(9, 2)), (F(3), F(3))], None)
    assert _brackets(table) == ["4½", "3"]
    assert table.figure_style == "points"


def test_a_column_of_whole_values_stays_whole() -> None:
    table = _table("RV", [(F(200), F(200)), (F(175), F(175))], None)
    assert _brackets(table) == ["200", "175"]
