"""The staff rules page: who may use it, preview saves nothing, save keeps the old rules."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.urls import reverse

from competition.models import Season, SeasonRules
from tests.addresses import club_reverse
from tests.factories import club_admin_user
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    return small_season()[0]


@pytest.fixture
def staff_user(db) -> User:
    return club_admin_user()


def _form(system: str = "points", tiebreaks: str = "", **extra: str) -> dict[str, str]:
    data = {
        "system": system,
        "tiebreaks": tiebreaks,
        "unplayed_policy": "unplayed-as-draw",
        "min_games": "0",
        "internal-sb__unplayed_value": "0,5",
        "internal-sb__count_rounds_before_joining": "on",
        "points__win": "1",
        "points__draw": "0,5",
        "points__loss": "0",
        "van-den-brink__win_part": "3",
        "van-den-brink__draw_part": "0",
        "van-den-brink__loss_part": "-3",
        "van-den-brink__factor": "0,07",
        "van-den-brink__games_per_update": "14",
        "van-den-brink__update_mode": "every_n",
        "van-den-brink__start_points_top": "200",
        "van-den-brink__start_points_step": "1",
        "van-den-brink__external_game": "none",
        "internal-sb__external_game": "unplayed",
        "keizer__before_joining": "nothing",
        # what the browser sends for the Keizer fieldset: its defaults as the form shows them
        "keizer__top_value": "",
        "keizer__value_step": "1",
        "keizer__own_value_in_score": "on",
        "keizer__win": "1",
        "keizer__draw": "0,5",
        "keizer__loss": "0",
        "keizer__absent_with_notice": "1/3",
        "keizer__absent_without_notice": "0",
        "keizer__club_duty": "2/3",
        "keizer__bye": "2/3",
        "keizer__forfeit_win": "1",
        "keizer__forfeit_loss": "0",
        "keizer__external_game": "result",
        "keizer__max_paid_absences": "",
        "keizer__recalculation": "fixed_point",
    }
    data.update(extra)
    return data


def test_anonymous_is_sent_to_login(client, season) -> None:
    response = client.get(club_reverse("competition:season_rules", args=[season.slug]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_member_gets_403(client, season, member_user) -> None:
    client.force_login(member_user)
    assert (
        client.get(club_reverse("competition:season_rules", args=[season.slug])).status_code == 403
    )


def test_staff_sees_the_form(client, season, staff_user) -> None:
    client.force_login(staff_user)
    response = client.get(club_reverse("competition:season_rules", args=[season.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="system"' in html and 'name="van-den-brink__factor"' in html
    assert 'value="0,07"' in html  # the default factor 7/100, in Dutch


def test_preview_shows_who_would_move_and_saves_nothing(client, season, staff_user) -> None:
    client.force_login(staff_user)
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]), _form(preview="1")
    )
    assert response.status_code == 200
    html = response.content.decode()
    # Under game points A and D (1½) share first, C (1) is third, B and E (0) share fourth:
    # C drops from 1 to 3; A and D move up from 2 to 1, B from 5 to 4 -> 4 movers.
    assert "4 deelnemers zouden van plaats veranderen" in html  # 4 participants would move
    assert "▼2" in html
    season.refresh_from_db()
    assert season.system == "internal-sb" and season.rules_version == 1
    assert not SeasonRules.objects.exists()


def test_save_puts_the_rules_in_force_and_keeps_the_old_ones(client, season, staff_user) -> None:
    client.force_login(staff_user)
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(save="1", tiebreaks="BH"),
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.system, season.tiebreaks, season.rules_version) == ("points", ["BH"], 2)
    old = SeasonRules.objects.get(season=season, version=1)
    assert old.system == "internal-sb"
    new = SeasonRules.objects.get(season=season, version=2)
    assert new.changed_by == staff_user and new.valid_from >= old.valid_from


def test_keizer_rules_with_an_empty_top_value_and_a_word(client, season, staff_user) -> None:
    """Keizer's top_value left empty stays empty; external_game accepts the word "result"."""
    client.force_login(staff_user)
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(system="keizer", save="1", **{"keizer__recalculation": "frozen"}),
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.system == "keizer"
    assert season.parameters["top_value"] == ""
    assert season.parameters["external_game"] == "result"
    assert season.parameters["recalculation"] == "frozen"
    assert season.parameters["absent_with_notice"] == "1/3"


def test_bad_input_shows_the_reason(client, season, staff_user) -> None:
    client.force_login(staff_user)
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(system="internal-sb", tiebreaks="SB", preview="1"),
    )
    assert response.status_code == 200
    assert "dezelfde code als een kengetal" in response.content.decode()  # same code as a figure
    assert Season.objects.get(pk=season.pk).rules_version == 1


def test_a_factor_that_is_not_a_number_is_refused(client, season, staff_user) -> None:
    client.force_login(staff_user)
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(system="van-den-brink", preview="1", **{"van-den-brink__factor": "zeven"}),
    )
    assert "0,07 of 7/100" in response.content.decode()


# --- every number has a range: a huge one is a form error, never a 500 (issue 10) -------------

HUGE = "999999999999999999999"


def _numeric_fields() -> list[str]:
    from competition.scoring.parameters import ParameterKind
    from competition.scoring.registry import SYSTEMS

    numeric = (ParameterKind.INT, ParameterKind.FRACTION)
    return ["min_games"] + [
        f"{key}__{spec.name}"
        for key, system in SYSTEMS.items()
        for spec in system.parameters
        if spec.kind in numeric
    ]


@pytest.mark.parametrize("action", ["preview", "save"])
@pytest.mark.parametrize(
    ("field", "value"),
    [
        *((field, value) for field in _numeric_fields() for value in (HUGE, "-" + HUGE)),
        ("min_games", "32768"),  # SQLite would store it, PostgreSQL's smallint not
    ],
)
def test_a_number_out_of_range_is_a_form_error_on_its_field(
    client, season, staff_user, field: str, action: str, value: str
) -> None:
    client.force_login(staff_user)
    system = field.split("__")[0] if "__" in field else "points"
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(system=system, **{field: value, action: "1"}),
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert "Vul" in errors[field][0] or "Zorg" in errors[field][0]  # "Enter ..."/"Ensure ..."
    season.refresh_from_db()
    assert (season.system, season.rules_version, season.min_games) == ("internal-sb", 1, 0)
    assert not SeasonRules.objects.exists()


@pytest.mark.parametrize("value", ["1/0", "0/0", "1 / 0"])
def test_a_fraction_over_zero_is_a_form_error(client, season, staff_user, value: str) -> None:
    client.force_login(staff_user)
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(system="van-den-brink", preview="1", **{"van-den-brink__factor": value}),
    )
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["van-den-brink__factor"]


def test_a_bad_parameter_and_an_unknown_tiebreak_are_told_in_dutch(
    client, season, staff_user
) -> None:
    """Issue 15: the system's own check (draw between loss and win) and an unknown tie-break
    are said in the reader's language, not in the scoring package's English."""
    client.force_login(staff_user)
    url = club_reverse("competition:season_rules", args=[season.slug])
    response = client.post(url, _form(preview="1", **{"points__draw": "2"}))
    page = response.content.decode()
    assert response.status_code == 200
    assert (
        "De punten voor remise (2) moeten tussen die voor verlies (0) en winst (1) liggen" in page
    )
    assert "must lie between" not in page
    response = client.post(url, _form(preview="1", tiebreaks="BH, XYZ"))
    page = response.content.decode()
    assert "Onbekend scheidingssysteem: XYZ. Bekende codes:" in page
    assert "unknown tie-break" not in page.lower()
    assert Season.objects.get(pk=season.pk).rules_version == 1
    client.cookies["django_language"] = "en"
    cache.clear()
    response = client.post(url, _form(preview="1", **{"points__draw": "2"}))
    assert (
        "The points for a draw (2) must lie between those for a loss (0) and a "
        "win (1)" in response.content.decode()
    )
