"""Every club's pages live under /<club>/ (issue 16): the redirects from the addresses before
clubs had their own, web addresses unique per club, the directory and the club's home page."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from competition.clubs import club_url
from competition.models import Club, Season
from tests.factories import ClubFactory, SeasonFactory

pytestmark = [pytest.mark.django_db, pytest.mark.club_redirects_seen]


@pytest.fixture(autouse=True)
def _english(client) -> None:
    client.cookies["django_language"] = "en"
    cache.clear()


def test_an_old_season_address_moves_to_the_clubs_address(client) -> None:
    season = SeasonFactory(club=ClubFactory(), slug="interne")
    response = client.get("/season/interne/?round=2")
    assert response.status_code == 301
    assert response["Location"] == "/sc-test/season/interne/?round=2"
    assert client.get(response["Location"]).status_code == 200
    assert season.club.slug == "sc-test"


def test_an_old_form_address_keeps_its_method(client, td_user) -> None:
    """A form sent to an old address is sent again to the club's (308 keeps POST and data)."""
    SeasonFactory(club=ClubFactory(), slug="interne")
    response = client.post("/td/interne/new-round/", {"date": "2026-10-01"})
    assert response.status_code == 308
    assert response["Location"] == "/sc-test/td/interne/new-round/"


def test_two_clubs_may_use_the_same_season_address(client) -> None:
    one = SeasonFactory(club=ClubFactory(), slug="interne", name="Interne De Toren")
    other = SeasonFactory(
        club=Club.objects.create(name="Het Paard", slug="het-paard"),
        slug="interne",
        name="Interne Het Paard",
    )
    first = client.get(club_url("sc-test", "competition:standings", args=["interne"]))
    second = client.get(club_url("het-paard", "competition:standings", args=["interne"]))
    assert "Interne De Toren" in first.content.decode()
    assert "Interne Het Paard" in second.content.decode()
    assert one.pk != other.pk
    # the old address cannot tell which club: not found rather than a guess
    assert client.get("/season/interne/").status_code == 404


def test_a_clubs_pages_link_to_the_clubs_own_addresses(client) -> None:
    SeasonFactory(club=ClubFactory(), slug="interne", status=Season.Status.RUNNING)
    Club.objects.create(name="Het Paard", slug="het-paard")
    html = client.get("/sc-test/season/interne/").content.decode()
    assert 'href="/sc-test/season/interne/how-it-works/"' in html
    assert 'href="/season/interne/' not in html
    # and reverse() outside a request is the site's own address again
    assert reverse("competition:home") == "/"


def test_a_season_of_another_club_is_not_found_at_this_clubs_address(client) -> None:
    SeasonFactory(club=ClubFactory(), slug="interne")
    Club.objects.create(name="Het Paard", slug="het-paard")
    assert client.get("/het-paard/season/interne/").status_code == 404


def test_the_site_address_is_a_directory_of_clubs(client) -> None:
    SeasonFactory(
        club=ClubFactory(), slug="interne", name="Interne 2026", status=Season.Status.RUNNING
    )
    Club.objects.create(name="Het Paard", slug="het-paard")
    html = client.get("/").content.decode()
    assert '<a class="fw-semibold" href="/het-paard/">Het Paard</a>' in html
    assert '<a class="fw-semibold" href="/sc-test/">Schaakclub Test</a>' in html
    assert "Interne 2026" in html


def test_one_club_alone_is_at_the_site_address_too(client) -> None:
    """An installation of one club sends its visitors straight to the club."""
    ClubFactory()
    response = client.get("/")
    assert response.status_code == 301
    assert response["Location"] == "/sc-test/"


def test_a_clubs_home_shows_its_seasons_and_next_evening(client) -> None:
    import datetime

    from competition.models import ClubEvening

    club = ClubFactory()
    season = SeasonFactory(club=club, slug="interne", name="Interne", status=Season.Status.RUNNING)
    ClubEvening.objects.create(season=season, date=datetime.date(2099, 1, 8), round_number=4)
    other = Club.objects.create(name="Het Paard", slug="het-paard")
    SeasonFactory(club=other, slug="paard", name="Paardencompetitie", status=Season.Status.RUNNING)
    html = client.get("/sc-test/").content.decode()
    assert "Schaakclub Test" in html and "Interne" in html
    assert "Paardencompetitie" not in html
    # the number comes from the rounds (selectors.evenings), not the stored plan: none played
    assert "Next club evening: Thursday 8 January (Interne, round 1)" in html


def test_a_club_cannot_take_a_site_address() -> None:
    from django.core.exceptions import ValidationError
    from django.utils import translation

    with translation.override("en"), pytest.raises(ValidationError, match="site's own addresses"):
        Club(name="Admin", slug="admin").full_clean()
    with (
        translation.override("nl"),
        pytest.raises(ValidationError, match="eigen adres van de site"),
    ):
        Club(name="Admin", slug="admin").full_clean()


def test_the_standings_command_names_the_club_where_two_share_an_address() -> None:
    import io

    from django.core.management import CommandError, call_command

    SeasonFactory(club=ClubFactory(), slug="interne")
    SeasonFactory(club=Club.objects.create(name="Het Paard", slug="het-paard"), slug="interne")
    with pytest.raises(CommandError, match="het-paard/interne, sc-test/interne"):
        call_command("standings", "interne", stdout=io.StringIO())
    out = io.StringIO()
    call_command("standings", "het-paard/interne", stdout=out)
    assert out.getvalue()


def test_the_tds_evening_goes_to_his_club_or_asks_which(client) -> None:
    from django.contrib.auth.models import User

    from competition.permissions import td_group

    ours = ClubFactory()
    theirs = Club.objects.create(name="Het Paard", slug="het-paard")
    td = User.objects.create_user("td", password="x-pass-12345")
    td.groups.add(td_group(ours))
    client.force_login(td)
    response = client.get("/td/")
    assert (response.status_code, response["Location"]) == (301, "/sc-test/td/")
    td.groups.add(td_group(theirs))  # a TD of two clubs chooses
    html = client.get("/td/").content.decode()
    assert "You run the evenings of several clubs. Which club?" in html
    assert 'href="/het-paard/td/"' in html and 'href="/sc-test/td/"' in html
    # another club's evening page is not his club's: its seasons only
    assert client.get("/het-paard/td/").status_code == 200


def test_a_td_of_one_club_gets_403_at_another_clubs_evening(client) -> None:
    from django.contrib.auth.models import User

    from competition.permissions import td_group

    ours = ClubFactory()
    Club.objects.create(name="Het Paard", slug="het-paard")
    td = User.objects.create_user("td", password="x-pass-12345")
    td.groups.add(td_group(ours))
    client.force_login(td)
    assert client.get("/het-paard/td/").status_code == 403


def test_a_clubs_address_without_its_slash_gets_it(client) -> None:
    ClubFactory()
    response = client.get("/sc-test")
    assert (response.status_code, response["Location"]) == (301, "/sc-test/")
