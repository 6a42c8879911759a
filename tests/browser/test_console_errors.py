"""The public pages of the demo seasons in Chromium: no error in the browser's console (a script
that fails, a resource that does not load, a Content-Security-Policy violation), a favicon that
loads from the site's own static files, and a description of the page in its ``<head>``, each
page its own (what Lighthouse's best-practices and SEO audits ask for)."""

from __future__ import annotations

import pytest

from competition.models import Club, Member, Season
from tests.addresses import club_reverse

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEASONS = ("interne-2026-2027", "rapidserie-2026-2027", "keizer-2026-2027", "clubavond-2026-2027")


def _pages() -> list[str]:
    pages = ["/"]
    for club in Club.objects.order_by("pk"):
        pages.append(f"/{club.slug}/")
    for slug in SEASONS:
        season = Season.objects.get(slug=slug)
        pages += [
            club_reverse(f"competition:{name}", args=[slug])
            for name in ("standings", "crosstable", "how_it_works", "systems", "chances")
        ]
        pages.append(club_reverse("competition:round", args=[slug, 1]))
        first = season.participants.order_by("pk").first()
        pages.append(club_reverse("competition:participant", args=[slug, first.pk]))
        if season.is_rapid_series:
            pages.append(club_reverse("competition:series", args=[slug]))
            pages.append(club_reverse("competition:evening", args=[slug, 1]))
    member = Member.objects.filter(club__slug="sc-de-toren").order_by("pk").first()
    pages.append(club_reverse("competition:member_profile", args=[member.pk]))
    pages.append("/sc-de-toren/ratings/")
    return pages


def test_no_console_error_and_a_favicon_and_description_on_the_public_pages(
    browser, live_server, demo_club_committed
) -> None:
    from django.core.cache import cache

    cache.clear()
    browser.get(f"{live_server.url}/healthz")
    browser.get_log("browser")  # start with an empty console
    errors: dict[str, list[str]] = {}
    descriptions: dict[str, str] = {}
    for page in _pages():
        browser.get(f"{live_server.url}{page}")
        severe = [
            entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"
        ]
        if severe:
            errors[page] = severe
        icon, description = browser.execute_script(
            "const icon = document.querySelector('link[rel=icon]');"
            "const meta = document.querySelector('meta[name=description]');"
            "return [icon && icon.href, meta && meta.content];"
        )
        assert icon and icon.startswith(f"{live_server.url}/static/icons/"), (page, icon)
        assert icon.endswith(".ico"), (page, icon)
        descriptions[page] = description
    assert errors == {}
    # the favicon loads (a missing one is a console error above, too)
    status = browser.execute_script(
        "const r = new XMLHttpRequest(); r.open('GET', arguments[0], false); r.send();"
        "return r.status;",
        icon,
    )
    assert status == 200
    assert all(len(text) >= 50 for text in descriptions.values()), descriptions
    # every season page says what it is: no two of them alike (the club pages share theirs)
    season_pages = [page for page in descriptions if "/season/" in page]
    assert len({descriptions[page] for page in season_pages}) == len(season_pages)
    standings = club_reverse("competition:standings", args=["interne-2026-2027"])
    assert descriptions[standings] == (
        "Stand van Interne competitie 2026-2027: de plaats en score van elke deelnemer, en hoe "
        "elk getal tot stand kwam."
    )
