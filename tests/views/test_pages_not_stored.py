"""Back never shows a stale page (issue 24 §2): a signed-in person's pages carry
``Cache-Control: no-store``, so the browser asks the server again; an anonymous visitor's public
pages keep their own caching, and a view's own Cache-Control stays."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.addresses import club_reverse
from tests.views.td_evening import SLUG, url

pytestmark = pytest.mark.django_db


def _no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


def test_the_tds_pages_are_not_stored(td: Client) -> None:
    for page in (url("td_attendance", 10), url("td_pairing", 10), url("td_results", 10), "/td/"):
        response = td.get(page, follow=True)
        assert response.status_code == 200, page
        assert _no_store(response), page
        assert "private" in response["Cache-Control"], page


def test_public_pages_are_not_stored_for_a_signed_in_td(td: Client) -> None:
    response = td.get(club_reverse("competition:standings", kwargs={"slug": SLUG}))
    assert response.status_code == 200 and _no_store(response)


def test_an_anonymous_visitors_public_page_keeps_its_caching(client: Client, demo_club) -> None:
    response = client.get(club_reverse("competition:standings", kwargs={"slug": SLUG}))
    assert response.status_code == 200 and not _no_store(response)


def test_a_views_own_cache_control_stays(client: Client, demo_club) -> None:
    client.force_login(User.objects.get(username="wedstrijdleider"))
    response = client.get("/service-worker.js")
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-cache"
