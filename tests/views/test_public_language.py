"""The language switch: a plain GET link (``competition:language``) that sets the same cookie
as Django's ``set_language`` and only ever leads back into this site."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from tests.addresses import club_reverse
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def _switch(client, language: str, next_url: str | None):
    query = {"language": language} if next_url is None else {"language": language, "next": next_url}
    return client.get(club_reverse("competition:language"), query)


def test_the_cookie_is_the_one_set_language_sets(client, monkeypatch) -> None:
    # Both cookies expire at "now + max-age": one clock for both, or a second may pass between.
    monkeypatch.setattr("django.http.response.time", SimpleNamespace(time=lambda: 1_800_000_000.0))
    response = _switch(client, "en", "/season/x/")
    assert response.status_code == 302 and response["Location"] == "/season/x/"
    ours = response.cookies[COOKIE]
    django = client.post(reverse("set_language"), {"language": "en", "next": "/"}).cookies[COOKIE]
    assert ours.value == django.value == "en"
    for attribute in ("max-age", "expires", "path", "domain", "secure", "httponly", "samesite"):
        assert ours[attribute] == django[attribute], attribute


@pytest.mark.parametrize(
    ("next_url", "location"),
    [
        ("/season/interne/?round=3&sort=name", "/season/interne/?round=3&sort=name"),
        ("https://evil.example/", "/"),
        ("//evil.example/season/", "/"),
        ("javascript:alert(1)", "/"),
        ("", "/"),
        (None, "/"),
    ],
)
def test_next_must_stay_on_this_site(client, next_url: str | None, location: str) -> None:
    response = _switch(client, "en", next_url)
    assert response.status_code == 302
    assert response["Location"] == location
    assert response.cookies[COOKIE].value == "en"


@pytest.mark.parametrize("code", ["de", "", "EN", "en-gb-x", "xx"])
def test_unknown_codes_leave_the_cookie_alone(client, code: str) -> None:
    response = _switch(client, code, "/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert COOKIE not in response.cookies


def test_the_switch_only_answers_get(client) -> None:
    response = client.post(club_reverse("competition:language"), {"language": "en", "next": "/"})
    assert response.status_code == 405
    assert COOKIE not in response.cookies


def test_the_switch_is_never_cached(client) -> None:
    response = _switch(client, "en", "/")
    assert "no-cache" in response["Cache-Control"]


def test_pages_link_to_the_switch_and_follow_it(client) -> None:
    season, people = small_season()
    cache.clear()
    url = club_reverse("competition:standings", args=[season.slug]) + "?round=1"
    html = client.get(url).content.decode()
    # The link goes back to this very page, query included (encoded), and no form is needed.
    # the switch is the site's (/taal/), the page the club's (/sc-test/season/…)
    switch = reverse("competition:language")
    assert switch == "/taal/"
    assert (
        f'href="{switch}?language=en&amp;next=%2Fsc-test%2Fseason%2Finterne-test%2F%3Fround%3D1"'
        in html
    )
    assert "csrfmiddlewaretoken" not in html
    response = client.get(
        f"{switch}?language=en&next=%2Fsc-test%2Fseason%2Finterne-test%2F%3Fround%3D1"
    )
    assert response["Location"] == url
    english = client.get(url)
    # after round 1 D has SB ½ × IP(C) ½ = ¼: 0.25 in English
    d_row = english.content.decode().split(f'data-participant="{people["D"].pk}"')[1]
    assert ">0.25<" in d_row.split("</tr>")[0]
    assert english["Content-Language"] == "en"
