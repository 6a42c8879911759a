"""The Content-Security-Policy in Debian's Chromium: the standings, a participant's page and the
TD's results page load without a single violation, and what their scripts do still works under
the policy (Bootstrap's menu collapse, the round select's autosubmit, a result saved by fetch)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from competition.models import Game, Round
from competition.permissions import td_group
from tests.addresses import club_reverse
from tests.browser.test_evening import tap
from tests.factories import GameFactory, RoundFactory
from tests.views.public_data import small_season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Installed before any page script runs, in every document: records each violation the browser
# reports, so a test can read them after the page (and its scripts) did their work.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__cspViolations.push(
    event.violatedDirective + " " + (event.blockedURI || "inline") + " " + event.sourceFile
  );
});
"""


@pytest.fixture
def watched(browser) -> Iterator[object]:
    """The browser, recording CSP violations in every page it opens during the test."""
    from django.core.cache import cache

    cache.clear()  # ids repeat between tests: no page cached by an earlier one
    script = browser.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS}
    )
    yield browser
    browser.execute_cdp_cmd(
        "Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]}
    )
    cache.clear()


def violations(browser) -> list[str]:
    return browser.execute_script("return window.__cspViolations || null")


def test_the_listener_sees_a_violation(watched, live_server) -> None:
    """The check below proves something: an inline style set by script is reported."""
    season, _people = small_season()
    watched.get(f"{live_server.url}/season/{season.slug}/")
    assert violations(watched) == []
    watched.execute_script("document.body.setAttribute('style', 'color: red')")
    WebDriverWait(watched, 5).until(lambda d: violations(d))
    assert violations(watched)[0].startswith("style-src")


def test_standings_menu_and_round_select_work_without_violations(watched, live_server) -> None:
    season, _people = small_season()
    watched.get(f"{live_server.url}/season/{season.slug}/")
    # Bootstrap's bundle (external, from our static files) opens the collapsed menu.
    menu = watched.find_element(By.ID, "mainnav")
    assert not menu.is_displayed()
    watched.find_element(By.CSS_SELECTOR, "button.navbar-toggler").click()
    WebDriverWait(watched, 5).until(lambda _d: "show" in menu.get_attribute("class"))
    assert menu.is_displayed()
    # js/page.js sends the round form when the select changes (no inline onchange).
    Select(watched.find_element(By.ID, "round-select")).select_by_value("1")
    WebDriverWait(watched, 10).until(EC.url_contains("round=1"))
    assert violations(watched) == []


def test_participant_page_has_no_violations(watched, live_server) -> None:
    season, people = small_season()
    watched.get(f"{live_server.url}/season/{season.slug}/participant/{people['C'].pk}/")
    assert watched.find_element(By.CSS_SELECTOR, "svg.rank-chart").is_displayed()
    Select(watched.find_element(By.ID, "p-round")).select_by_value("1")
    WebDriverWait(watched, 10).until(EC.url_contains("round=1"))
    assert violations(watched) == []


def test_td_results_page_saves_by_fetch_without_violations(watched, live_server) -> None:
    rnd = RoundFactory(number=1, status=Round.Status.PAIRED)
    game = GameFactory(round=rnd, board=1)
    td = User.objects.create_user("td-csp", password="td-pass-12345")
    td.groups.add(td_group(rnd.season.club))
    watched.get(f"{live_server.url}/login/")
    assert violations(watched) == []
    watched.find_element(By.ID, "id_username").send_keys("td-csp")
    watched.find_element(By.ID, "id_password").send_keys("td-pass-12345")
    watched.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(watched, 10).until(lambda driver: "/login/" not in driver.current_url)
    watched.get(live_server.url + club_reverse("competition:td_results", args=[rnd.season.slug, 1]))
    item = watched.find_element(By.ID, "board-1")
    tap(watched, item.find_element(By.CSS_SELECTOR, "button[value='1-0']"))
    WebDriverWait(watched, 10).until(lambda _d: item.get_attribute("data-saved") == "yes")
    assert Game.objects.get(pk=game.pk).result == Game.Result.WHITE_WINS
    assert violations(watched) == []
