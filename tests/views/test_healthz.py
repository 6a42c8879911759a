"""``/healthz``: 200 ``ok`` when the database and the cache answer, 503 naming what failed;
no login and no cookie of any kind."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError

pytestmark = pytest.mark.django_db


def test_healthy_answers_ok_without_cookies(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert "Set-Cookie" not in response.headers
    assert not response.cookies
    assert "no-cache" in response["Cache-Control"]


def test_head_answers_too(client) -> None:
    response = client.head("/healthz")
    assert response.status_code == 200 and not response.cookies


def test_a_failing_cache_is_named(client) -> None:
    with mock.patch("competition.views.health.cache.set", side_effect=ConnectionError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content == b"failed: cache"
    assert not response.cookies


def test_a_cache_that_loses_what_it_was_given_is_named(client) -> None:
    with mock.patch("competition.views.health.cache.get", return_value=None):
        response = client.get("/healthz")
    assert response.status_code == 503 and b"cache" in response.content


def test_a_failing_database_is_named(client) -> None:
    broken = mock.patch(
        "competition.views.health.connection.cursor", side_effect=OperationalError("gone")
    )
    with broken:
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content == b"failed: database"


def test_both_failing_are_both_named(client) -> None:
    with (
        mock.patch("competition.views.health.connection.cursor", side_effect=OperationalError),
        mock.patch("competition.views.health.cache.set", side_effect=ConnectionError),
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content == b"failed: database, cache"


def test_a_language_cookie_is_not_sent_back(client) -> None:
    client.cookies["django_language"] = "en"
    response = client.get("/healthz")
    assert response.status_code == 200 and "Set-Cookie" not in response.headers
