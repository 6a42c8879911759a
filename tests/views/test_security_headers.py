"""The security headers and cookies of the pages: Content-Security-Policy (django-csp) with no
inline script or style, framing only of the public pages and only by FRAME_ANCESTORS (with an
X-Frame-Options that agrees), the language cookie as Lax and HttpOnly as the others."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from tests.addresses import club_reverse

SLUG = "interne-2026-2027"
CLUB_SITE = "https://www.schaakclub.example.nl"


def policy(response) -> dict[str, list[str]]:
    """The Content-Security-Policy header as directive -> sources."""
    directives = {}
    for part in response["Content-Security-Policy"].split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


@pytest.fixture
def td(client: Client, demo_club) -> Client:
    client.force_login(User.objects.get(username="wedstrijdleider"))
    return client


def public_url() -> str:
    return club_reverse("competition:standings", args=[SLUG])


def td_url() -> str:
    return club_reverse("competition:td_home")


def _assert_strict_policy(response) -> None:
    directives = policy(response)
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["img-src"] == ["'self'", "data:"]
    assert directives["object-src"] == ["'none'"]
    assert directives["form-action"] == ["'self'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]


@pytest.mark.django_db
def test_public_page_policy_and_no_framing(client, demo_club) -> None:
    response = client.get(public_url())
    assert response.status_code == 200
    _assert_strict_policy(response)
    assert policy(response)["frame-ancestors"] == ["'none'"]
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
def test_td_page_policy_and_no_framing(td) -> None:
    response = td.get(td_url())
    assert response.status_code == 200
    _assert_strict_policy(response)
    assert policy(response)["frame-ancestors"] == ["'none'"]
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
@override_settings(FRAME_ANCESTORS=["'self'", CLUB_SITE])
def test_the_clubs_site_may_frame_the_public_pages_only(td, demo_club) -> None:
    public = Client().get(public_url())
    assert policy(public)["frame-ancestors"] == ["'self'", CLUB_SITE]
    _assert_strict_policy(public)
    # X-Frame-Options cannot name another site: left out, the CSP decides alone.
    assert "X-Frame-Options" not in public
    round_page = Client().get(club_reverse("competition:round", args=[SLUG, 1]))
    assert policy(round_page)["frame-ancestors"] == ["'self'", CLUB_SITE]
    # The TD's pages, the login and the admin stay unframeable (clickjacking of their buttons).
    for response in (td.get(td_url()), Client().get(reverse("login")), td.get("/admin/")):
        assert policy(response)["frame-ancestors"] == ["'none'"]
        assert response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
@override_settings(FRAME_ANCESTORS=["'self'"])
def test_framing_by_this_site_only_says_sameorigin(client, demo_club) -> None:
    response = client.get(public_url())
    assert policy(response)["frame-ancestors"] == ["'self'"]
    assert response["X-Frame-Options"] == "SAMEORIGIN"


@pytest.mark.django_db
def test_a_cached_public_page_keeps_its_headers(client, demo_club) -> None:
    first, second = client.get(public_url()), client.get(public_url())
    assert first.content == second.content
    assert second["Content-Security-Policy"] == first["Content-Security-Policy"]
    assert second["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
def test_language_cookie_is_lax_and_httponly(client) -> None:
    response = client.get(club_reverse("competition:language") + "?language=en&next=/")
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "en"
    assert cookie["samesite"] == "Lax"
    assert cookie["httponly"] is True
    # Secure-only in production (tests/test_security_settings.py); the tests talk plain HTTP.
    assert cookie["secure"] == ""


def test_session_and_csrf_cookies_are_lax() -> None:
    assert settings.SESSION_COOKIE_SAMESITE == "Lax"
    assert settings.CSRF_COOKIE_SAMESITE == "Lax"
    assert settings.SESSION_COOKIE_HTTPONLY is True
