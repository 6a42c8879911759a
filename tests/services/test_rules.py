"""Rules service: validation by the system's own declaration, preview, save, reproduction."""

from __future__ import annotations

import sys
from fractions import Fraction

import pytest
from django.utils import timezone, translation

from competition.models import SeasonRules, StandingsSnapshot
from competition.scoring.engine import standings_history
from competition.selectors.common import season_input
from competition.services.errors import ServiceError
from competition.services.rules import (
    rules_for_version,
    rules_of_season,
    rules_preview,
    rules_save,
    rules_validate,
)
from competition.services.standings import row_to_json
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_messages():
    """The messages are asserted in the source language; the app's default is Dutch."""
    with translation.override("en"):
        yield


def _valid(**overrides):
    values = {
        "system": "points",
        "parameters": {},
        "tiebreaks": [],
        "unplayed_policy": "plain",
        "min_games": 0,
    }
    values.update(overrides)
    return rules_validate(**values)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"system": "keizer-x"}, "unknown ranking system"),
        ({"system": "van-den-brink", "parameters": {"factor": "2"}}, "factor"),
        ({"system": "van-den-brink", "parameters": {"bogus": "1"}}, "unknown parameter"),
        ({"tiebreaks": ["XYZ"]}, "unknown tie-break"),
        ({"tiebreaks": ["BH", "bh"]}, "only once"),
        ({"system": "internal-sb", "tiebreaks": ["SB"]}, "same code as a figure"),
        ({"unplayed_policy": "whatever"}, "unplayed"),
    ],
)
def test_bad_rules_are_refused_with_a_reason(overrides, message) -> None:
    with pytest.raises(ServiceError) as error:
        _valid(**overrides)
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("overrides", "dutch"),
    [
        (
            {"system": "keizer-x"},
            "onbekend ranglijstsysteem 'keizer-x'; bekende systemen: points, internal-sb, "
            "van-den-brink, keizer",
        ),
        (
            {"system": "van-den-brink", "parameters": {"factor": "2"}},
            "parameter factor: 2 is niet toegestaan; gebruik een exact getal van 0 tot en met 1",
        ),
        (
            {"system": "van-den-brink", "parameters": {"bogus": "1"}},
            "onbekende parameter bogus; bekende parameters: ",
        ),
        ({"tiebreaks": ["XYZ"]}, "onbekend scheidingssysteem 'XYZ'; bekende codes: "),
    ],
)
def test_the_scoring_packages_refusals_are_told_in_dutch(overrides, dutch) -> None:
    """Issue 15: the pure package's English template, translated by the service."""
    with translation.override("nl"), pytest.raises(ServiceError) as error:
        _valid(**overrides)
    assert str(error.value).startswith(dutch)


def test_valid_rules_are_normalised_and_stored_exactly() -> None:
    rules = _valid(system="van-den-brink", parameters={"factor": "0,07"}, tiebreaks=["bh / c1"])
    assert rules.parameters["factor"] == "0.07"  # 0,07 is exactly seven hundredths
    assert rules.parameters["win_part"] == "3"  # defaults filled in
    assert rules.tiebreaks == ("BH/C1",)


def test_preview_changes_nothing_and_lists_the_movers() -> None:
    season, _people = small_season()
    rows_before = list(
        StandingsSnapshot.objects.filter(season=season).values_list("rows", flat=True)
    )
    preview = rules_preview(season=season, rules=_valid())
    # Game points: A 1½, D 1½ share 1st; C 1 is 3rd; B 0 and E 0 share 4th.
    by_name = {row.name: row for row in preview.rows}
    assert (by_name["Cor Cools"].current_rank, by_name["Cor Cools"].new_rank) == (1, 3)
    assert by_name["Cor Cools"].moved == -2
    assert by_name["Cor Cools"].current_score == Fraction(3, 2)  # SB 1½
    assert by_name["Cor Cools"].new_score == Fraction(1)  # 1 game point
    assert (by_name["Anna Aalders"].new_rank, by_name["Anna Aalders"].moved) == (1, 1)
    assert (by_name["Bart Bos"].new_rank, by_name["Bart Bos"].moved) == (4, 1)
    assert by_name["Eva Egbers"].moved == 0
    assert len(preview.movers) == 4
    season.refresh_from_db()
    assert season.system == "internal-sb" and season.rules_version == 1
    assert not SeasonRules.objects.exists()
    assert (
        list(StandingsSnapshot.objects.filter(season=season).values_list("rows", flat=True))
        == rows_before
    )


def test_save_keeps_the_earlier_rules_so_old_standings_can_be_reproduced() -> None:
    season, _people = small_season()
    published = {
        snap.round_number: snap.rows for snap in StandingsSnapshot.objects.filter(season=season)
    }
    rules_save(season=season, rules=_valid(tiebreaks=["BH"]))
    season.refresh_from_db()
    assert season.rules_version == 2 and season.system == "points"
    first = SeasonRules.objects.get(season=season, version=1)
    # valid from the season's start (1 September 2026), as no earlier row said otherwise
    assert timezone.localtime(first.valid_from).date().isoformat() == "2026-09-01"
    # The cached standings are now the new ones: A leads on game points.
    latest = StandingsSnapshot.objects.get(season=season, round_number=2)
    assert latest.rules_version == 2 and latest.rows[0]["score"] == "1.5"
    # The earlier rule set reproduces exactly the standings published under it.
    old_rules = rules_for_version(season=season, version=1)
    history = standings_history(season_input(season=season, rules=old_rules.as_overrides()))
    for standings in history.history:
        assert [row_to_json(row) for row in standings.rows] == published[standings.round_number]


def test_a_second_save_keeps_the_first_rows_dates() -> None:
    season, _people = small_season()
    rules_save(season=season, rules=_valid())
    season.refresh_from_db()
    second = SeasonRules.objects.get(season=season, version=2)
    rules_save(season=season, rules=_valid(system="internal-sb", unplayed_policy="fide-2024"))
    season.refresh_from_db()
    assert season.rules_version == 3
    assert SeasonRules.objects.get(season=season, version=2).valid_from == second.valid_from
    assert rules_of_season(season).system == "internal-sb"
    assert rules_for_version(season=season, version=2).system == "points"


def test_rules_the_engine_cannot_apply_are_not_saved() -> None:
    season, people = small_season()
    # Van den Brink needs start points: a participant without start rank or points has none.
    type(people["A"]).objects.filter(pk=people["A"].pk).update(start_rank=None)
    with pytest.raises(ServiceError):
        rules_save(season=season, rules=_valid(system="van-den-brink"))
    season.refresh_from_db()
    assert season.rules_version == 1


@pytest.mark.parametrize("rule_changes", ["season", "next_round"])
def test_a_save_scores_the_season_once(monkeypatch: pytest.MonkeyPatch, rule_changes) -> None:
    """The save itself proves the engine takes the rules: it scores the season once, for the
    stored standings, and stores the same standings as a fresh computation. (The engine scores
    the rounds before a change by the earlier rules inside that one run.)"""
    from competition.scoring import engine

    season, _people = small_season()
    runs: list[str] = []
    for name in ("standings_after", "standings_history"):
        real = getattr(engine, name)

        def counted(*args, _real=real, _name=name, **kwargs):
            caller = sys._getframe(1).f_globals["__name__"]
            if not caller.startswith("competition.scoring"):
                runs.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(engine, name, counted)
        if hasattr(sys.modules["competition.services.standings"], name):
            monkeypatch.setattr(sys.modules["competition.services.standings"], name, counted)
    rules = _valid(system="internal-sb", tiebreaks=["BH"], unplayed_policy=season.unplayed_policy)
    rules_save(season=season, rules=rules, rule_changes=rule_changes)
    assert runs == ["standings_history"]
    season.refresh_from_db()
    history = standings_history(season_input(season=season)).history
    stored = {s.round_number: s.rows for s in StandingsSnapshot.objects.filter(season=season)}
    assert stored == {s.round_number: [row_to_json(r) for r in s.rows] for s in history}


def test_a_system_change_from_the_next_round_is_refused_before_anything_is_saved() -> None:
    season, _people = small_season()
    with pytest.raises(ServiceError, match="whole season"):
        rules_save(season=season, rules=_valid(system="points"), rule_changes="next_round")
    season.refresh_from_db()
    assert season.rules_version == 1 and not SeasonRules.objects.filter(season=season).exists()
