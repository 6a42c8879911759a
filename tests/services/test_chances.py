"""Stored chances: computed outside the request, from the rounds the season has left."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from competition.models import ClubEvening, SeasonChances
from competition.selectors.chances import chances_stale, rounds_left
from competition.services.chances import chances_compute
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


def with_calendar(dates: list[datetime.date]):
    season, people = small_season()
    for number, day in enumerate(dates, start=1):
        ClubEvening.objects.create(season=season, date=day, round_number=number)
    return season, people


def people_ids(season) -> dict[str, int]:
    return {p.member.name[0]: p.pk for p in season.participants.select_related("member")}


def september(day: int) -> datetime.date:
    return datetime.date(2026, 9, day)


def test_rounds_left_from_the_calendar() -> None:
    # Rounds 1 and 2 were played on 10 and 17 September; evenings on 24 September and 1 October
    # are after the last completed round.
    season, _ = with_calendar(
        [september(10), september(17), september(24), datetime.date(2026, 10, 1)]
    )
    left = rounds_left(season=season)
    assert (left.after_round, left.count, left.source) == (2, 2, "calendar")


def test_no_calendar_no_chances() -> None:
    season, _ = small_season()
    assert rounds_left(season=season).count is None
    assert chances_compute(season=season, simulations=10) is None
    with pytest.raises(CommandError, match="unknown"):
        call_command("simulate_season", season.slug, stdout=StringIO())


def test_simulate_season_stores_the_chances() -> None:
    season, _ = with_calendar([september(24), datetime.date(2026, 10, 1)])
    out = StringIO()
    call_command("simulate_season", season.slug, "--simulations", "40", stdout=out)
    assert "40 simulations of 2 rounds after round 2" in out.getvalue()
    stored = SeasonChances.objects.get(season=season)
    assert (stored.after_round, stored.rounds_left, stored.simulations) == (2, 2, 40)
    assert len(stored.rows) == 5
    assert sum(row["first"] for row in stored.rows) == 40
    assert sum(row["top_three"] for row in stored.rows) == 120
    # two played rounds, four games over the board, two of them drawn
    assert stored.draw_rate == 0.5
    # what is certain, with the estimates: every row says where first place stands
    for row in stored.rows:
        assert row["first_place"] in {"secured", "possible", "open", "impossible"}
        assert 1 <= row["best_place"] <= row["worst_place"] <= 5
        assert row["first_place"] != "possible" or row["needs"] is not None
    # Bart Bos (0 game points, SB 0) can still win with two wins: winning is not excluded
    bart = next(row for row in stored.rows if row["participant_id"] == people_ids(season)["B"])
    assert bart["first_place"] != "impossible"
    assert not chances_stale(season=season, chances=stored)


def test_planned_rounds_come_before_the_calendar_and_the_berger_cycle() -> None:
    # Two rounds completed; the calendar has one evening left, the season plans 9 rounds.
    season, _ = with_calendar([september(24)])
    assert rounds_left(season=season) == rounds_left(season=season).__class__(2, 1, "calendar")
    season.planned_rounds = 9
    left = rounds_left(season=season)
    assert (left.after_round, left.count, left.source) == (2, 7, "planned")
    season.planned_rounds = 2  # all planned rounds played
    assert rounds_left(season=season).count == 0


def test_a_ladder_without_calendar_gets_chances_once_its_rounds_are_planned() -> None:
    season, _ = small_season()
    assert chances_compute(season=season, simulations=10) is None
    season.planned_rounds = 5
    season.save()
    stored = chances_compute(season=season, simulations=10)
    assert stored is not None
    assert (stored.after_round, stored.rounds_left) == (2, 3)


def add_category(season, name: str, **fields) -> int:
    from competition.services.categories import CategoryFields, category_add

    return category_add(season=season, fields=CategoryFields(name=name, **fields)).pk


def test_each_prize_category_has_its_chances() -> None:
    # Anna, Bart, Cor, Dirk and Eva are rated 1800 to 1760; one round is left.
    season, _ = with_calendar([september(24)])
    ids = people_ids(season)
    below = add_category(season, "Onder 1775", kind="rating", rating_below=1775)
    alone = add_category(season, "Alleen Anna", kind="list", chosen=(ids["A"],))
    add_category(season, "Vooruitgang", kind="list", chosen=(ids["B"],), prizes=0)
    season.refresh_from_db()
    stored = chances_compute(season=season, simulations=50, seed=3)
    assert stored is not None
    by_id = {row["participant_id"]: row for row in stored.rows}
    # the rating category is Dirk (1770) and Eva (1760): one of them is its best placed in
    # each simulation (a shared place counted in shares)
    in_below = {pid for pid, row in by_id.items() if str(below) in row["category_status"]}
    assert in_below == {ids["D"], ids["E"]}
    assert sum(by_id[pid]["categories"][str(below)] for pid in in_below) == 50
    # a category of one: certainly his, in every simulation
    assert by_id[ids["A"]]["category_status"] == {str(alone): "secured"}
    assert by_id[ids["A"]]["categories"] == {str(alone): 50.0}
    # a category without place prizes is not simulated; Cor is in none
    assert by_id[ids["B"]]["category_status"] == {}
    assert by_id[ids["C"]]["categories"] == {}


def test_a_change_of_the_categories_asks_for_the_chances_again() -> None:
    from competition.models import SeasonChancesJob

    season, _ = with_calendar([september(24)])
    before = SeasonChancesJob.objects.filter(season=season).values_list("requested", flat=True)
    asked = before.first() or 0
    add_category(season, "Onder 1775", kind="rating", rating_below=1775)
    assert SeasonChancesJob.objects.get(season=season).requested == asked + 1
