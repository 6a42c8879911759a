"""Stored chances: computed outside the request, stale after a completed round, recomputed."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from competition.models import ClubEvening, Game, Round, SeasonChances
from competition.services.chances import (
    chances_compute,
    chances_refresh_stale,
    chances_stale,
    rounds_left,
)
from competition.services.rounds import round_complete
from tests.factories import GameFactory, RoundEntryFactory, RoundFactory
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


def with_calendar(dates: list[datetime.date]):
    season, people = small_season()
    for number, day in enumerate(dates, start=1):
        ClubEvening.objects.create(season=season, date=day, round_number=number)
    return season, people


def september(day: int) -> datetime.date:
    return datetime.date(2026, 9, day)


def test_rounds_left_from_the_calendar() -> None:
    # Rounds 1 and 2 were played on 10 and 17 September; evenings on 24 September and 1 October
    # are after the last completed round.
    season, _ = with_calendar(
        [september(10), september(17), september(24), datetime.date(2026, 10, 1)]
    )
    left = rounds_left(season)
    assert (left.after_round, left.count, left.source) == (2, 2, "calendar")


def test_no_calendar_no_chances() -> None:
    season, _ = small_season()
    assert rounds_left(season).count is None
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
    assert not chances_stale(season, stored)


def test_a_completed_round_makes_the_chances_stale_and_the_worker_recomputes() -> None:
    season, people = with_calendar([september(24), datetime.date(2026, 10, 1)])
    chances_compute(season=season, simulations=20)
    assert chances_refresh_stale(simulations=20) == []  # nothing stale: nothing done

    a, b, c, d, e = (people[k] for k in "ABCDE")
    third = RoundFactory(season=season, number=3, date=september(24), status=Round.Status.PAIRED)
    GameFactory(round=third, board=1, white=a, black=d, result=Game.Result.WHITE_WINS)
    GameFactory(round=third, board=2, white=b, black=c, result=Game.Result.DRAW)
    RoundEntryFactory(round=third, participant=e, kind="bye", points=1)
    round_complete(round=third, user=None)
    season.refresh_from_db()
    assert chances_stale(season, SeasonChances.objects.get(season=season))

    out = StringIO()
    call_command("chances_worker", "--once", "--simulations", "20", stdout=out)
    assert f"{season.slug}: chances recomputed" in out.getvalue()
    stored = SeasonChances.objects.get(season=season)
    assert (stored.after_round, stored.rounds_left) == (3, 1)
    assert stored.data_version == season.data_version
    assert not chances_stale(season, stored)
