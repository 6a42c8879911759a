"""A NUL character (``%00``) in an address is not found (404), in a query a bad request (400),
never a server error: PostgreSQL refuses a text holding one with an error (SQLite finds nothing),
so the club pages, every API endpoint under a club and the calendar feed answered 500 there."""

from __future__ import annotations

import json

import pytest
from django.test import Client

SLUG = "interne-2026-2027"
CLUB = "sc-de-toren"

pytestmark = pytest.mark.django_db

PAGES = [
    f"/{CLUB}%00/",
    f"/{CLUB}%00/season/{SLUG}/",
    f"/%00{CLUB}/season/{SLUG}/round/1/",
    f"/{CLUB}/season/{SLUG}%00/",
    f"/{CLUB}/ical/token%00/{SLUG}.ics",
    f"/{CLUB}/account/invite/token%00/",
    f"/{CLUB}/member/1%00/",
    "/%00/",
]
API = [
    f"/api/v1/clubs/{CLUB}%00/",
    f"/api/v1/clubs/{CLUB}%00/seasons/",
    f"/api/v1/clubs/{CLUB}%00/seasons/{SLUG}/",
    f"/api/v1/clubs/{CLUB}/seasons/{SLUG}%00/standings/",
    f"/api/v1/clubs/{CLUB}%00/seasons/{SLUG}/rounds/",
    f"/api/v1/clubs/{CLUB}%00/seasons/{SLUG}/participants/",
    f"/api/v1/clubs/{CLUB}%00/seasons/{SLUG}/calendar/",
    f"/api/v1/clubs/{CLUB}/seasons/{SLUG}/rounds/1%00/",
]


@pytest.mark.parametrize("path", PAGES)
def test_a_nul_in_a_page_address_is_not_found(client: Client, demo_club, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "Deze pagina bestaat niet" in response.content.decode()


@pytest.mark.parametrize("path", API)
def test_a_nul_in_an_api_address_is_not_found(client: Client, demo_club, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert json.loads(response.content) == {"detail": "Not Found"}


@pytest.mark.parametrize(
    "path",
    [
        f"/{CLUB}/season/{SLUG}/?round=%00",
        "/manifest.webmanifest?club=%00",
        f"/{CLUB}/season/{SLUG}/?sort%00=1",
    ],
)
def test_a_nul_in_a_query_is_a_bad_request(client: Client, demo_club, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 400
    assert "Dit verzoek is niet te begrijpen" in response.content.decode()


def test_a_nul_in_an_api_query_is_a_bad_request(client: Client, demo_club) -> None:
    response = client.get(f"/api/v1/clubs/{CLUB}/seasons/{SLUG}/standings/?round=%00")
    assert response.status_code == 400
    assert json.loads(response.content) == {"detail": "Bad Request"}
