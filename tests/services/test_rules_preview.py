"""``rules_preview`` for a change from the next round on: exact figures (the season of
tests/views/test_rules_preview.py, Van den Brink's factor 0,07 changed to 0,05)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from competition.models import RuleChanges
from competition.scoring.game_values import GameValues
from competition.services.rules import SeenFrom, rules_preview, rules_validate
from tests.views.test_rules_preview import vdb_season

pytestmark = pytest.mark.django_db


def _rules(**parameters: str):
    return rules_validate(
        system="van-den-brink",
        parameters=parameters,
        tiebreaks=[],
        unplayed_policy="plain",
        min_games=0,
    )


def test_next_round_keeps_the_standings_and_shows_the_season_as_if() -> None:
    season = vdb_season()
    preview = rules_preview(
        season=season, rules=_rules(factor="1/20"), rule_changes=RuleChanges.NEXT_ROUND
    )
    assert (preview.after_round, preview.from_round) == (1, 2)
    assert preview.movers == []  # the standings after round 1 stay as they are
    assert [row.name for row in preview.rows] == ["Anna", "Bart", "Dirk", "Cor"]
    assert preview.whole_season is not None
    assert [(row.name, row.new_score, row.moved) for row in preview.whole_season] == [
        ("Anna", F(3905, 20), 0),  # 195,25
        ("Bart", F(3495, 20), 0),  # 174,75
        ("Cor", F(3405, 20), 1),  # 170,25
        ("Dirk", F(3395, 20), -1),  # 169,75
    ]
    assert len(preview.whole_season_movers) == 2
    table = preview.game_values
    assert table is not None and table.round_number == 2 and table.figure == "RV"
    assert table.seen_from == SeenFrom("Bart", 2, F(175), F(175))
    first, second, third, fourth = table.rows
    assert (first.place, first.name, first.figure_old) == (1, "Anna", F(200))
    assert first.old == GameValues(F(475, 100), F(175, 100), F(-125, 100))
    assert first.new == GameValues(F(425, 100), F(125, 100), F(-175, 100))
    assert second.old is None and second.new is None  # Bart himself
    assert third.name == "Dirk" and third.old is not None and third.new is not None
    assert (third.old.win, third.new.win) == (F(23, 10), F(5, 2))
    assert fourth.name == "Cor" and fourth.new == GameValues(F(11, 4), F(-1, 4), F(-13, 4))


def test_the_whole_season_has_no_as_if() -> None:
    season = vdb_season()
    preview = rules_preview(season=season, rules=_rules(factor="1/20"))
    assert preview.whole_season is None
    assert [row.moved for row in preview.rows] == [0, 0, 1, -1]
