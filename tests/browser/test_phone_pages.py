"""Every TD page of an evening and every public page on a 360 px phone (Debian's Chromium):
no sideways scrolling, tap targets of 44 px, no serious or critical accessibility violations
(axe-core, vendored in tests/browser/vendor/), the attendance list's filter and count, the
late-comer keeping the marks, the question before a board's result is replaced, the menu
without JavaScript, and where the TD lands after logging in."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from competition.management.commands.seed_demo import DEMO_CLUB_SLUG
from competition.models import Game, Participant, Round, RoundEntry, Season
from tests.browser.test_evening import click, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "interne-2026-2027"
ROUND_ROBIN = "rapidgroep-a-2026"
AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
SMALL_PHONE = (360, 740)
TAP = 44  # CSS px, WCAG 2.5.5


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def phone(browser):
    browser.set_window_size(*SMALL_PHONE)
    browser.get("about:blank")
    assert browser.execute_script("return window.innerWidth") == SMALL_PHONE[0]
    return browser


def axe_violations(browser) -> list[str]:
    """The page's serious and critical axe-core violations, one line each."""
    if not browser.execute_script("return !!window.axe"):
        browser.execute_script(AXE)
    violations = browser.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(function (r) {"
        "  done(r.violations.map(function (v) { return [v.impact, v.id, v.help,"
        "    v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); })]; }));"
        "});"
    )
    return [
        f"{impact} {rule}: {text} {nodes}"
        for impact, rule, text, nodes in violations
        if impact in ("serious", "critical")
    ]


def layout_problems(browser) -> list[str]:
    """Sideways scrolling and buttons smaller than a fingertip."""
    page_width, view_width = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )
    problems = []
    if page_width > view_width:
        wide = browser.execute_script(
            "return Array.from(document.querySelectorAll('body *')).filter(function (e) {"
            "  return e.getBoundingClientRect().right > window.innerWidth + 0.5; }).slice(-3)"
            ".map(function (e) { return e.tagName + '.' + e.className + '#' + e.id; })"
        )
        problems.append(f"page is {page_width} px wide in {view_width}: {wide}")
    small = browser.execute_script(
        "return Array.from(document.querySelectorAll("
        "  'main .btn, main button, main input[type=submit], .navbar .btn, .navbar-toggler'))"
        ".filter(function (b) { return b.offsetParent !== null; })"
        ".map(function (b) { var r = b.getBoundingClientRect();"
        "  return [b.textContent.trim() || b.value || b.className, r.width, r.height]; })"
        f".filter(function (b) {{ return b[1] < {TAP} - 0.5 || b[2] < {TAP} - 0.5; }});"
    )
    problems += [f"button {name!r} is {w:.0f}×{h:.0f}" for name, w, h in small]
    return problems


def check_page(browser, path: str, live_server, problems: dict[str, list[str]]) -> None:
    if path:
        browser.get(f"{live_server.url}{path}")
    found = layout_problems(browser) + axe_violations(browser)
    if found:
        problems[path or browser.current_url] = found


def report(problems: dict[str, list[str]]) -> str:
    return "\n".join(f"{page}\n  " + "\n  ".join(found) for page, found in problems.items())


def log_in(browser, live_server, username: str = "wedstrijdleider") -> None:
    browser.get(f"{live_server.url}/login/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys("schaak-demo-2026")
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(browser, 10).until(lambda driver: "/login/" not in driver.current_url)


def test_every_td_page_fits_a_small_phone(phone, live_server, demo_club_committed) -> None:
    browser = phone
    wait = WebDriverWait(browser, 15)
    problems: dict[str, list[str]] = {}
    # Logging in without ?next= lands on the club evening.
    log_in(browser, live_server)
    assert browser.current_url == f"{live_server.url}/{DEMO_CLUB_SLUG}/td/"
    check_page(browser, "", live_server, problems)
    check_page(browser, f"/td/{SLUG}/new-round/", live_server, problems)
    click(browser, By.CSS_SELECTOR, "main form button[type=submit]")
    wait.until(EC.url_contains("/attendance/"))
    check_page(browser, "", live_server, problems)

    # The filter finds a player; the count follows every tap.
    season = Season.objects.get(slug=SLUG)
    players = sorted(  # those taking part: not the demo's withdrawn player
        Participant.objects.filter(season=season, withdrawn_from_round__isnull=True).select_related(
            "member"
        ),
        key=lambda p: p.member.name.casefold(),
    )
    count = browser.find_element(By.ID, "present-count")
    assert count.text == str(len(players))
    search = browser.find_element(By.ID, "attendance-filter")
    search.send_keys(players[-1].member.name[:5])
    shown = [
        r for r in browser.find_elements(By.CSS_SELECTOR, ".attendance-row") if r.is_displayed()
    ]
    assert 1 <= len(shown) < len(players)
    search.clear()
    search.send_keys(" ")  # an input event with nothing to look for: everyone again
    absent = players[:3]
    for player in absent:
        click(browser, By.CSS_SELECTOR, f"label[for='p{player.id}-absent_notice']")
    assert count.text == str(len(players) - 3)

    # A late-comer keeps the three marks made on the page but not saved.
    click(browser, By.CSS_SELECTOR, "#latecomer summary")
    browser.find_element(By.ID, "id_name").send_keys("Lena Laatkomer")
    click(browser, By.ID, "latecomer-button")
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".alert-success")))
    for player in absent:
        radio = browser.find_element(By.ID, f"p{player.id}-absent_notice")
        assert radio.is_selected(), player.member.name
    assert browser.find_element(By.ID, "present-count").text == str(len(players) + 1 - 3)

    click(browser, By.ID, "save-and-pair")
    wait.until(EC.presence_of_element_located((By.ID, "pairing-table")))
    check_page(browser, "", live_server, problems)
    click(browser, By.CSS_SELECTOR, "#start-over summary")
    check_page(browser, "", live_server, problems)

    click(browser, By.ID, "publish-button")
    wait.until(EC.presence_of_element_located((By.ID, "result-boards")))
    check_page(browser, "", live_server, problems)

    # Replacing a board's result asks first; saying no keeps the result.
    first = browser.find_elements(By.CSS_SELECTOR, ".result-board")[0]
    tap(browser, first.find_element(By.CSS_SELECTOR, "button[value='1-0']"))
    wait.until(lambda _d: first.get_attribute("data-saved") == "yes")
    tap(browser, first.find_element(By.CSS_SELECTOR, "button[value='0-1']"))
    alert = wait.until(EC.alert_is_present())
    alert.dismiss()
    rnd = Round.objects.get(season=season, number=11)
    assert Game.objects.get(round=rnd, board=1).result == "1-0"
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 - only one question

    game = Game.objects.filter(round__season=season, round__number=10).first()
    entry = RoundEntry.objects.filter(round__season=season, round__number=10).first()
    for path in (
        f"/td/{SLUG}/10/summary/",
        f"/td/{SLUG}/10/results/{game.id}/correct/",
        f"/td/{SLUG}/10/entries/{entry.id}/correct/",
        f"/td/{ROUND_ROBIN}/6/summary/",
        "/files/",
    ):
        check_page(browser, path, live_server, problems)
    # the club admin's pages: the club's settings and the embedding on the club's own site
    browser.delete_all_cookies()
    log_in(browser, live_server, "clubbeheerder")
    for path, heading in (
        (f"/{DEMO_CLUB_SLUG}/club/", "Clubinstellingen"),
        (f"/{DEMO_CLUB_SLUG}/club/embed/", "De stand op de eigen site van de club"),
    ):
        check_page(browser, path, live_server, problems)
        assert browser.find_element(By.TAG_NAME, "h1").text == heading, path
    assert not problems, report(problems)


def test_every_public_page_and_the_menu_without_javascript(
    phone, live_server, demo_club_committed
) -> None:
    browser = phone
    participant = Participant.objects.filter(season__slug=SLUG).first()
    problems: dict[str, list[str]] = {}
    # the directory of clubs, a club's page, a season's page for a frame on the club's site
    paths = ["/", f"/{DEMO_CLUB_SLUG}/", f"/{DEMO_CLUB_SLUG}/season/{SLUG}/embed/"]
    for slug in (SLUG, ROUND_ROBIN):
        base = f"/season/{slug}/"
        paths += [base, f"{base}round/3/", f"{base}crosstable/"]
        paths += [f"{base}how-it-works/", f"{base}systems/"]
    paths.append(f"/season/{SLUG}/participant/{participant.id}/")
    for path in paths:
        browser.get(f"{live_server.url}{path}")
        found = axe_violations(browser)
        if found:
            problems[path] = found
    assert not problems, report(problems)

    # The menu without JavaScript: its links show on the phone, no menu button that does nothing.
    log_in(browser, live_server)
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.get(f"{live_server.url}/season/{SLUG}/")
    assert not browser.find_element(By.CSS_SELECTOR, ".navbar-toggler").is_displayed()
    club = f"/{DEMO_CLUB_SLUG}/"
    for selector in (f".navbar a.nav-link[href='{club}td/']", f".navbar a.nav-link[href='{club}']"):
        assert browser.find_element(By.CSS_SELECTOR, selector).is_displayed(), selector
    assert browser.find_element(By.CSS_SELECTOR, 'a[data-language="en"]').is_displayed()
    browser.find_element(By.CSS_SELECTOR, f".navbar a.nav-link[href='{club}td/']").click()
    WebDriverWait(browser, 10).until(EC.url_to_be(f"{live_server.url}{club}td/"))
