"""The public "can I still win?" page, in Dutch and English."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings

from competition.models import ClubEvening
from competition.services.chances import chances_compute
from tests.addresses import club_reverse
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    season, _ = small_season()
    ClubEvening.objects.create(season=season, date=datetime.date(2026, 9, 24), round_number=3)
    return season


def page(client, season, language: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(club_reverse("competition:chances", args=[season.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_before_the_computation_the_page_says_so(client, season) -> None:
    assert "nog niet berekend" in page(client, season, "nl")
    assert "have not been computed yet" in page(client, season, "en")


def test_the_page_shows_chances_margins_and_the_model(client, season) -> None:
    chances_compute(season=season, simulations=100, seed=1)
    english = page(client, season, "en")
    assert "Can I still win?" in english
    assert "After round 2, with 1 round left: 100 simulations" in english
    assert "Anna Aalders" in english
    assert "1.96 × √(p(1 − p) / N)" in english
    assert "Points needed" in english
    dutch = page(client, season, "nl")
    assert "Kan ik nog winnen?" in dutch
    assert "Na ronde 2, met nog 1 ronde te gaan: 100 simulaties" in dutch
    assert "foutmarge" in dutch
    assert "±" in dutch


def test_the_standings_link_to_the_page(client, season) -> None:
    body = page(client, season, "en")
    assert club_reverse("competition:chances", args=[season.slug]) in body
    standings = client.get(
        club_reverse("competition:standings", args=[season.slug])
    ).content.decode()
    assert club_reverse("competition:chances", args=[season.slug]) in standings


def test_a_ladder_without_calendar_shows_no_chances(client) -> None:
    season, _ = small_season()
    assert "rounds left is unknown" in page(client, season, "en")


def test_stale_chances_are_shown_with_a_notice(client, season) -> None:
    from competition.services.standings import standings_recompute

    chances_compute(season=season, simulations=10, seed=1)
    assert "being recomputed" not in page(client, season, "en")
    standings_recompute(season=season)  # what every write to the season's results does
    assert "being recomputed" in page(client, season, "en")
    assert "worden opnieuw berekend" in page(client, season, "nl")
