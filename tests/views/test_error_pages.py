"""With DEBUG off the error pages are the site's: its header, the reader's language, a link home
(the club's home at a club's address); the 500 page renders without the database. Also
``/favicon.ico``, the page's description and the Permissions-Policy header."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.utils import translation

from competition.selectors import clubs as clubs_selectors
from competition.views.errors import server_error
from tests.factories import ClubFactory

NAVBAR = 'class="navbar navbar-expand-md'


def _page(response) -> str:
    assert response["Content-Type"] == "text/html; charset=utf-8"
    return response.content.decode()


def test_debug_is_off_in_the_tests() -> None:
    assert settings.DEBUG is False  # else Django shows its own technical pages


@pytest.mark.django_db
def test_404_has_the_sites_frame_in_dutch_with_a_link_home(client: Client) -> None:
    response = client.get("/no-such-page/at-all/")
    assert response.status_code == 404
    page = _page(response)
    assert NAVBAR in page and '<html lang="nl">' in page
    assert "Deze pagina bestaat niet" in page
    assert '<a class="btn btn-primary" href="/">Naar de beginpagina</a>' in page


@pytest.mark.django_db
def test_404_under_a_club_links_the_clubs_home_in_english(client: Client) -> None:
    ClubFactory(name="SV Hoogeveen", slug="sv-hoogeveen")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get("/sv-hoogeveen/season/no-such-season/")
    assert response.status_code == 404
    page = _page(response)
    assert '<html lang="en">' in page and "This page does not exist" in page
    assert 'href="/sv-hoogeveen/">To the home page of SV Hoogeveen</a>' in page


@pytest.mark.django_db
def test_403_says_why_in_the_frame(client: Client, member_user) -> None:
    club = ClubFactory(slug="sv-hoogeveen")
    client.force_login(member_user)
    response = client.get(f"/{club.slug}/club/")  # the club's settings: its admins only
    assert response.status_code == 403
    page = _page(response)
    assert NAVBAR in page and "Je mag deze pagina niet openen" in page
    assert 'href="/sv-hoogeveen/">' in page


@pytest.mark.django_db
def test_an_expired_form_is_the_sites_403(member_user) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member_user)
    response = client.post("/logout/")  # no CSRF token: as a page kept too long
    assert response.status_code == 403
    page = _page(response)
    assert NAVBAR in page and "Dit formulier is verlopen" in page


@pytest.mark.django_db
def test_400_is_the_sites_page() -> None:
    response = Client(HTTP_HOST="not-allowed.example").get("/")
    assert response.status_code == 400
    page = _page(response)
    assert NAVBAR in page and "Dit verzoek is niet te begrijpen" in page


@pytest.mark.django_db
def test_500_is_the_sites_page_in_the_readers_language(monkeypatch) -> None:
    def broken() -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(clubs_selectors, "club_directory", broken)
    client = Client(raise_request_exception=False)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get("/")
    assert response.status_code == 500
    page = _page(response)
    assert NAVBAR in page and '<html lang="en">' in page
    assert "Something went wrong on our side" in page
    assert '<a class="btn btn-primary" href="/">To the home page</a>' in page


def test_the_500_page_needs_no_database() -> None:
    """No database access is allowed here (no django_db mark): any query would fail the test."""
    request = RequestFactory().get("/sv-hoogeveen/season/x/")
    with translation.override("nl"):
        response = server_error(request)
    assert response.status_code == 500
    page = _page(response)
    assert NAVBAR in page and "Er ging bij ons iets mis" in page
    assert "Uitloggen" not in page and "Inloggen" not in page  # no account: no session read


@pytest.mark.django_db
def test_favicon_is_served(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/vnd.microsoft.icon"
    icon = response.content
    assert icon[:4] == b"\x00\x00\x01\x00" and int.from_bytes(icon[4:6], "little") == 2
    assert b"\x89PNG" in icon


@pytest.mark.django_db
def test_every_page_has_a_description_and_a_permissions_policy(client: Client) -> None:
    ClubFactory(name="SV Hoogeveen", slug="sv-hoogeveen")
    response = client.get("/sv-hoogeveen/")
    page = _page(response)
    assert (
        '<meta name="description" content="De interne competitie van SV Hoogeveen: stand, '
        'ronden en uitslagen, en hoe elk getal tot stand kwam.">'
    ) in page
    assert '<link rel="icon" href="/static/icons/favicon.' in page
    policy = dict(part.strip().split("=", 1) for part in response["Permissions-Policy"].split(","))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert policy[feature] == "()"
