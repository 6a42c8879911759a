"""The public "can I still win?" page, in Dutch and English."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.db.models import F

from competition.models import ClubEvening, SeasonChancesJob
from competition.services.chances import chances_compute
from competition.services.chances_queue import chances_job_run
from tests.addresses import club_reverse
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(settings):
    settings.CHANCES_SIMULATIONS = 10
    season, _ = small_season()
    ClubEvening.objects.create(season=season, date=datetime.date(2026, 9, 24), round_number=3)
    return season


def page(client, season, language: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(club_reverse("competition:chances", args=[season.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_before_the_computation_the_page_says_so(client, season) -> None:
    # The season's standings asked for its chances: a job is pending.
    assert "worden berekend" in page(client, season, "nl")
    assert "are being computed; reload" in page(client, season, "en")
    SeasonChancesJob.objects.filter(season=season).update(computed=F("requested"))
    assert "nog niet berekend" in page(client, season, "nl")
    assert "have not been computed yet" in page(client, season, "en")


def test_the_page_shows_chances_margins_and_the_model(client, season) -> None:
    chances_compute(season=season, simulations=100, seed=1)
    english = page(client, season, "en")
    assert "Can I still win?" in english
    assert "After round 2, with 1 round left: 100 simulations" in english
    assert "Anna Aalders" in english
    assert "1.96 × √(p(1 − p) / N)" in english
    assert "Needs at least" in english
    assert "What is certain" in english
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


def test_a_ladder_without_calendar_shows_no_chances_and_says_where_to_plan(client) -> None:
    season, _ = small_season()
    english = page(client, season, "en")
    assert "rounds left is unknown" in english
    assert "Calendar and absence reports › Planned rounds" in english
    assert "Geplande ronden" in page(client, season, "nl")  # the Dutch page names the same place


def test_the_page_explains_the_rounds_left(client, season) -> None:
    chances_compute(season=season, simulations=10, seed=1)
    assert "club evenings in the season's calendar" in page(client, season, "en")
    season.planned_rounds = 6
    season.save()
    chances_compute(season=season, simulations=10, seed=1)
    english = page(client, season, "en")
    assert "with 4 rounds left" in english
    assert "the season plans 6 rounds in all" in english


def test_stale_chances_are_shown_with_a_notice(client, season) -> None:
    from competition.services.standings import standings_recompute

    chances_job_run(season_id=season.pk)  # what the worker's task does
    assert "being recomputed" not in page(client, season, "en")
    standings_recompute(season=season)  # what every write to the season's results does
    assert "being recomputed" in page(client, season, "en")
    assert "worden opnieuw berekend" in page(client, season, "nl")
    chances_job_run(season_id=season.pk)
    assert "being recomputed" not in page(client, season, "en")


def test_what_is_certain_is_written_apart_from_the_estimates(client, season) -> None:
    """Stored rows (as chances_compute writes them): a leader whose first place is secured,
    a player seen first in no simulation whose first place is still possible, one for whom it
    is no longer possible and one the bounds cannot decide."""
    from competition.models import SeasonChances

    chances_compute(season=season, simulations=10, seed=1)
    stored = SeasonChances.objects.get(season=season)
    ids = [row["participant_id"] for row in stored.rows]
    figures = [
        ("secured", 10, 10, 1, 1, "0", "0"),
        ("possible", 0, 3, 1, 4, "1", None),
        ("impossible", 0, 0.5, 2, 5, None, None),
        ("open", 0, 0, 1, 5, "1/2", None),
    ]
    rows = stored.rows[:4]
    for row, (status, first, top, best, worst, needs, secures) in zip(rows, figures, strict=True):
        row.update(
            first_place=status, first=first, top_three=top, best_place=best,
            worst_place=worst, needs=needs, secures=secures,
        )  # fmt: skip
    stored.rows = rows
    stored.save()
    dutch = page(client, season, "nl")
    english = page(client, season, "en")
    assert len(ids) >= 4
    # certain figures: 100 % and 0 % only where certain, without a margin
    assert "zeker" in dutch and "secured" in english
    assert "100\N{NO-BREAK SPACE}%" in english
    # seen first in no simulation, yet possible: "< 0,1 %", not 0 %
    assert "nog mogelijk" in dutch and "still possible" in english
    assert "&lt;\N{NO-BREAK SPACE}0,1\N{NO-BREAK SPACE}%" in dutch
    assert "&lt;\N{NO-BREAK SPACE}0.1\N{NO-BREAK SPACE}%" in english
    assert "niet meer mogelijk" in dutch and "no longer possible" in english
    assert ">0\N{NO-BREAK SPACE}%<" in english  # his chance of first place
    assert "5,0\N{NO-BREAK SPACE}%" in dutch  # his top three: 0,5 of 10 simulations
    assert "onbeslist" in dutch and "not decided" in english
    # what he needs: ½ game point (halves as points are written)
    assert ">½<" in english
    assert "Wat zeker is" in dutch and "What is certain" in english
    assert "weerstandspunten van het seizoen" in dutch


def test_each_prize_category_has_its_table(client, season) -> None:
    from competition.services.categories import CategoryFields, category_add

    category_add(
        season=season, fields=CategoryFields(name="Onder 1775", kind="rating", rating_below=1775)
    )
    season.refresh_from_db()
    chances_compute(season=season, simulations=100, seed=1)
    dutch = page(client, season, "nl")
    assert "Beste van de categorie Onder 1775" in dutch
    table = dutch.split("Beste van de categorie Onder 1775", 1)[1].split("</table>", 1)[0]
    # its members only (Dirk Dekker 1770, Eva Egbers 1760), in the standings' order
    assert "Dirk" in table and "Eva" in table
    assert "Anna" not in table and "Bart" not in table and "Cor" not in table
    assert "%" in table
    english = page(client, season, "en")
    assert "Best of the category Onder 1775" in english
    assert "The prize rules (a minimum number of games, one prize per player) are not" in english
