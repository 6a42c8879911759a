"""A club's standings in a frame on the club's own site, in Debian's Chromium (issue 16): shown
for a site on the club's embed list, refused by the browser for any other site.

The "club's own site" is a page served from another origin (127.0.0.1 and a port of its own)
than the live server (localhost): the browser applies the embed page's CSP
``frame-ancestors`` to it, as it would to www.myclub.nl.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By

from competition.clubs import club_url
from tests.views.public_data import small_season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def club_site() -> Iterator[tuple[str, dict[str, str]]]:
    """A tiny web site on 127.0.0.1 whose page frames the address in ``page["frame"]``."""
    page: dict[str, str] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = (
                "<!doctype html><title>Onze club</title><h1>Stand</h1>"
                f'<iframe id="standings" src="{page["frame"]}" width="400" height="600"></iframe>'
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", page
    finally:
        server.shutdown()
        server.server_close()


def _framed_text(browser, site: str) -> str:
    browser.get(site + "/")
    frame = browser.find_element(By.ID, "standings")
    browser.switch_to.frame(frame)
    try:
        return browser.find_element(By.TAG_NAME, "body").text
    finally:
        browser.switch_to.default_content()


def test_the_clubs_site_shows_the_standings_and_another_site_does_not(
    browser, live_server, club_site
) -> None:
    site, page = club_site
    season, _people = small_season()
    club = season.club
    page["frame"] = live_server.url + club_url(
        club.slug, "competition:season_embed", args=[season.slug]
    )
    assert live_server.url.startswith("http://localhost:")  # another origin than the site

    # not on the list (nothing listed yet): the browser refuses to show it in the frame
    assert season.name not in _framed_text(browser, site)

    club.embed_origins = "https://www.elders.nl\n" + site
    club.save(update_fields=["embed_origins"])
    assert season.name in _framed_text(browser, site)

    # another site only: refused again
    club.embed_origins = "https://www.elders.nl"
    club.save(update_fields=["embed_origins"])
    assert season.name not in _framed_text(browser, site)
