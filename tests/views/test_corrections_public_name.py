"""The public round page names the TD who corrected a result as the club chose
(``TD_PUBLIC_NAME``, default "de wedstrijdleider" / "the TD"), never by the account; the TD's
own pages keep the account's name."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from competition.models import Game
from competition.permissions import td_group
from competition.selectors.corrections import corrections_for_round
from competition.services.rounds import result_record
from tests.addresses import club_reverse
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def corrected(td_user):
    """Round 2's board 2 (0-1) corrected to a draw by the TD account ``td`` (first name Jan)."""
    td_user.first_name = "Jan"
    td_user.save()
    season, _people = small_season()
    td_user.groups.add(td_group(season.club))  # a TD of this season's club
    game = Game.objects.get(round__season=season, round__number=2, board=2)
    result_record(
        game_id=game.id,
        result="1/2",
        expected_version=game.version,
        user=td_user,
        reason="Both players confirmed a draw",
    )
    return season, game.round


def round_page(client, season) -> str:
    response = client.get(club_reverse("competition:round", args=[season.slug, 2]))
    assert response.status_code == 200
    return response.content.decode()


def correction_line(page: str) -> str:
    return page.split('<ul class="corrections">')[1].split("</ul>")[0]


def test_public_page_says_de_wedstrijdleider(client, corrected) -> None:
    season, _round = corrected
    line = correction_line(round_page(client, season))
    assert "Both players confirmed a draw" in line
    assert "· de wedstrijdleider" in line
    assert "Jan" not in line and "td" not in line.split("·")[-1]


def test_public_page_in_english_says_the_td(client, corrected) -> None:
    season, _round = corrected
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "· the TD" in correction_line(round_page(client, season))


@override_settings(TD_PUBLIC_NAME="Wedstrijdleiding SC Test")
def test_the_club_chooses_the_public_name(client, corrected) -> None:
    season, _round = corrected
    line = correction_line(round_page(client, season))
    assert "· Wedstrijdleiding SC Test" in line and "Jan" not in line


def test_a_logged_in_td_sees_the_public_name_on_the_public_page(client, corrected, td_user) -> None:
    season, _round = corrected
    client.force_login(td_user)
    assert "· de wedstrijdleider" in correction_line(round_page(client, season))


def test_the_tds_pages_keep_the_accounts_name(client, corrected, td_user) -> None:
    season, rnd = corrected
    (correction,) = corrections_for_round(round=rnd)
    assert correction.corrected_by == "Jan"
    (public,) = corrections_for_round(round=rnd, public=True)
    assert public.corrected_by == "de wedstrijdleider"
    client.force_login(td_user)
    summary = client.get(
        club_reverse(
            "competition:td_round_summary",
            kwargs={"season_slug": season.slug, "round_number": 2},
        )
    )
    assert summary.status_code == 200
    assert "(Jan)" in summary.content.decode()
