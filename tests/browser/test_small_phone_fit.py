"""Every page fits a 360 px phone: at 360 × 740 in Debian's Chromium, no text, field, button or
picture lies beyond the right edge of the screen, also not inside a table container that scrolls
sideways. The cross table is the one exception: a grid with a sticky name column that scrolls
inside itself (its container must fit; what is inside may scroll).

The walk is built from the URL configuration: every page of the site (``competition`` routes,
the API's documentation) is filled with the objects of each demo season of both demo clubs and
opened by the reader it is for (anyone, the member, the club's TD, the club admin), in Dutch and
in English. A route the client answers with anything but an HTML page (a POST-only action, a
download, a feed) is not a page and is left out; the test fails when fewer pages than expected
answer, so a walk that silently loses its pages cannot pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from competition.clubs import club_url
from competition.management.commands.seed_demo import (
    DEMO_CLUB_SLUG,
    SECOND_CLUB_TD,
)
from competition.models import (
    Category,
    Club,
    ClubEvening,
    Game,
    GroupCompetition,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
)
from tests.views.test_permissions import project_patterns

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = (360, 740)

# Text nodes, form fields, pictures and buttons whose box ends beyond the screen's right edge
# (or starts left of it). Hidden things have no boxes; a closed <details> shows only its
# summary; visually hidden text (screen readers only) is clipped to nothing. Inside an element
# marked data-scrolls-inside (the cross table's grid) only the container itself must fit.
BEYOND_THE_EDGE = """
const width = document.documentElement.clientWidth;
const found = [];
function exempt(element) {
  return element.closest(
    '.visually-hidden, .visually-hidden-focusable:not(:focus), [data-scrolls-inside] *, noscript');
}
function where(element) {
  const id = element.id ? '#' + element.id : '';
  const cls = element.className && typeof element.className === 'string'
    ? '.' + element.className.trim().split(/\\s+/).slice(0, 2).join('.') : '';
  return element.tagName.toLowerCase() + id + cls;
}
function beyond(rect) {
  return rect.width > 0 && rect.height > 0 && (rect.right > width + 0.5 || rect.left < -0.5);
}
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const range = document.createRange();
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const text = node.textContent.trim();
  if (!text || exempt(node.parentElement)) continue;
  range.selectNodeContents(node);
  for (const rect of range.getClientRects()) {
    if (beyond(rect)) {
      found.push(where(node.parentElement) + ' "' + text.slice(0, 40) + '" ends at '
        + Math.round(rect.right) + ' px');
      break;
    }
  }
}
for (const element of document.body.querySelectorAll(
    'input, select, textarea, button, img, svg, canvas, iframe, [data-scrolls-inside]')) {
  if (exempt(element) && !element.matches('[data-scrolls-inside]')) continue;
  if (element.closest('svg') && element.tagName.toLowerCase() !== 'svg') continue;
  const rect = element.getBoundingClientRect();
  if (beyond(rect)) found.push(where(element) + ' ends at ' + Math.round(rect.right) + ' px');
}
return found.slice(0, 6);
"""


# The menu button sits on the menu bar's first line, beside the club's name.
MENU_BUTTON = """
const button = document.querySelector('.navbar-toggler');
const brand = document.querySelector('.navbar-brand');
if (!button || !brand || button.offsetParent === null) return [];
const b = button.getBoundingClientRect(), n = brand.getBoundingClientRect();
return b.top < n.bottom ? [] : ['the menu button is below the club name, at ' + Math.round(b.top)];
"""
LONG_CLUB_NAME = "Koninklijke Schaakvereniging De Witte Toren van Oud-Hoogeveen en Omstreken"


@dataclass(frozen=True)
class Page:
    path: str
    reader: str  # "" for anyone, else the username the page is for


def _season_values(season: Season) -> dict[str, object]:
    """A real object of ``season`` for every URL argument (None where the season has none)."""
    rounds = Round.objects.filter(season=season, games__isnull=False).order_by("number").distinct()
    last = rounds.last() or Round.objects.filter(season=season).order_by("number").last()
    game = Game.objects.filter(round=last).order_by("board").first() if last else None
    entry = RoundEntry.objects.filter(round=last).order_by("pk").first() if last else None
    participant = Participant.objects.filter(season=season).order_by("start_rank", "pk").first()
    category = Category.objects.filter(season=season).order_by("order").first()
    group = GroupCompetition.objects.filter(club=season.club).order_by("pk").first()
    evening = ClubEvening.objects.filter(season=season).order_by("date").last()
    return {
        "slug": season.slug,
        "season_slug": season.slug,
        "number": last.number if last else None,
        "round_number": last.number if last else None,
        "game_id": game.id if game else None,
        "entry_id": entry.id if entry else None,
        "participant_id": participant.id if participant else None,
        "member_id": participant.member_id if participant else None,
        "category_id": category.pk if category else None,
        "group_slug": group.slug if group else None,
        "evening_id": evening.pk if evening else None,
    }


def _reader(name: str, club_slug: str) -> str:
    if name.startswith(("my_", "member_feed")):
        return "lid" if club_slug == DEMO_CLUB_SLUG else ""
    if name.startswith(("td_", "files_", "season_export", "season_rating_report", "season_stand")):
        return "wedstrijdleider" if club_slug == DEMO_CLUB_SLUG else SECOND_CLUB_TD
    if name in ("club_admin", "club_embed", "club_rating_rules", "season_rules"):
        return "clubbeheerder" if club_slug == DEMO_CLUB_SLUG else ""
    return ""


def pages() -> list[Page]:
    """Every page of the site at 360 px, each season's pages for each demo season."""
    found: set[Page] = {Page(reverse("api-1:openapi-view"), "")}
    for namespace, pattern in project_patterns():
        if namespace != "competition:":
            continue
        arguments = list(pattern.pattern.converters)
        for season in Season.objects.select_related("club").order_by("club__slug", "slug"):
            reader = _reader(pattern.name, season.club.slug)
            if pattern.name.startswith(("my_", "club_")) and reader == "":
                continue  # the second club has no member account and no club admin
            values = _season_values(season)
            if any(values.get(name) is None for name in arguments):
                continue
            kwargs = {name: values[name] for name in arguments}
            path = club_url(season.club.slug, f"competition:{pattern.name}", kwargs=kwargs)
            found.add(Page(path, reader))
    return sorted(found, key=lambda page: (page.reader, page.path))


def html_pages() -> Iterator[Page]:
    """The pages that answer their reader with an HTML page."""
    clients: dict[str, Client] = {}
    for page in pages():
        if page.reader not in clients:
            clients[page.reader] = Client()
            if page.reader:
                clients[page.reader].force_login(User.objects.get(username=page.reader))
        response = clients[page.reader].get(page.path)
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            yield page


def _sign_in(browser, live_server, username: str) -> None:
    browser.delete_all_cookies()
    if not username:
        return
    client = Client()
    client.force_login(User.objects.get(username=username))
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    browser.add_cookie({"name": settings.SESSION_COOKIE_NAME, "value": session})


def test_every_page_fits_a_360_px_phone(browser, live_server, demo_club_committed) -> None:
    from django.core.cache import cache

    cache.clear()
    assert Member.objects.filter(user__username="lid").exists()
    # A long club name wraps in the menu bar instead of pushing the menu button down.
    Club.objects.filter(slug=DEMO_CLUB_SLUG).update(name=LONG_CLUB_NAME)
    walked = list(html_pages())
    kinds = {page.reader for page in walked}
    assert kinds == {"", "lid", "wedstrijdleider", SECOND_CLUB_TD, "clubbeheerder"}, kinds
    assert len(walked) > 150, f"only {len(walked)} pages answered"
    browser.set_window_size(*SMALL_PHONE)
    browser.get(f"{live_server.url}/healthz")
    assert browser.execute_script("return document.documentElement.clientWidth") == 360
    problems: dict[str, list[str]] = {}
    reader = None
    for language in ("nl", "en"):
        for page in walked:
            if page.reader != reader or reader is None:
                _sign_in(browser, live_server, page.reader)
                reader = page.reader
            browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language})
            browser.get(f"{live_server.url}{page.path}")
            found = browser.execute_script(BEYOND_THE_EDGE) + browser.execute_script(MENU_BUTTON)
            if found:
                problems[f"{language} {page.path} ({page.reader or 'anyone'})"] = found
        reader = None
    assert not problems, f"{len(problems)} pages do not fit 360 px:\n" + "\n".join(
        f"{page}\n  " + "\n  ".join(found) for page, found in sorted(problems.items())
    )


def test_desktop_keeps_the_full_tables(browser, live_server, demo_club_committed) -> None:
    """The standings and a round at 1280 px: the tables with their header row, one row per
    participant or board, the cells side by side."""
    browser.set_window_size(1280, 900)
    season = "/sc-de-toren/season/interne-2026-2027/"
    for path, table in ((season, "table.standings"), (f"{season}round/10/", "table.pairings")):
        browser.get(f"{live_server.url}{path}")
        shown = browser.execute_script(
            "const t = document.querySelector(arguments[0]);"
            "const row = t.tBodies[0].rows[0], [a, b] = row.cells;"
            "return [getComputedStyle(t.tHead).position, getComputedStyle(row).display,"
            "  a.getBoundingClientRect().top === b.getBoundingClientRect().top];",
            table,
        )
        assert shown == ["static", "table-row", True], (path, shown)
