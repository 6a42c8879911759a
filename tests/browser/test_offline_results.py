"""Results entered without a network are not lost (issue 16): the TD opens the results page
with a network (the service worker keeps it), the network goes, three results are entered and
wait as "not yet sent", the page is reloaded (from the worker's copy), another TD changes one of
the boards meanwhile, the network comes back: two results arrive, the changed board says so.

Offline is Chromium's own network emulation, for the page and for its service worker
(tests/browser/network.py says why both)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from competition.clubs import club_url
from competition.models import Game, Round
from competition.permissions import td_group
from competition.services.rounds import _describe_change, result_record
from tests.browser.network import NetworkSwitch
from tests.browser.test_evening import tap
from tests.factories import GameFactory, RoundFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _log_in(browser, live_server, username: str, password: str) -> None:
    browser.get(f"{live_server.url}/login/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys(password)
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(browser, 10).until(lambda driver: "/login/" not in driver.current_url)


def _board(browser, number: int):
    return browser.find_element(By.ID, f"board-{number}")


def _states(browser) -> dict[int, str | None]:
    return {n: _board(browser, n).get_attribute("data-saved") for n in (1, 2, 3)}


def _forget_the_site(browser, live_server) -> None:
    """No worker, cache or kept result of this site outlives the test (one browser serves all).

    The tab leaves the site first: a worker is removed only once no open page is in its charge."""
    browser.get("about:blank")
    browser.execute_cdp_cmd(
        "Storage.clearDataForOrigin", {"origin": live_server.url, "storageTypes": "all"}
    )


def _offline_ready(browser) -> bool:
    return browser.execute_script("return document.documentElement.dataset.offlineReady") == "yes"


def _controlled(browser) -> bool:
    return browser.execute_script("return !!navigator.serviceWorker.controller")


def _kept_and_controlled(browser, page: str) -> None:
    """The worker is installed and has kept this page (app.js marks the page when it has), and
    the worker is in charge of the page.

    A page that arrives while the worker is still being installed may stay without it until it
    is loaded again (the worker's clients.claim() can run before the page counts as a client):
    it is kept all the same, and the TD's next page is the worker's. Then the test opens the
    page once more, online, as the TD's next tap would."""
    WebDriverWait(browser, 15).until(_offline_ready)
    try:
        WebDriverWait(browser, 3).until(_controlled)
    except TimeoutException:
        browser.get(page)
        WebDriverWait(browser, 15).until(lambda d: _offline_ready(d) and _controlled(d))
    path = urlsplit(page).path
    try:
        WebDriverWait(browser, 10).until(lambda d: path in _kept_pages(d))
    except TimeoutException:
        kept = _kept_pages(browser)
        raise AssertionError(f"{path} is not kept; the worker kept {kept}") from None


def _kept_pages(browser) -> list[str]:
    """The addresses in the worker's page cache (clubcomp-pages-…), as the page sees them."""
    return browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        caches.keys()
          .then((names) => Promise.all(
            names.filter((n) => n.startsWith("clubcomp-pages-"))
              .map((n) => caches.open(n).then((c) => c.keys()))))
          .then((lists) => done(lists.flat().map((r) => new URL(r.url).pathname)))
          .catch((e) => done([String(e)]));
        """
    )


def test_three_results_entered_offline_arrive_and_a_conflict_is_said(browser, live_server) -> None:
    rnd = RoundFactory(number=1, status=Round.Status.PAIRED)
    games = {n: GameFactory(round=rnd, board=n) for n in (1, 2, 3, 4)}
    club = rnd.season.club
    td = User.objects.create_user("td-offline", password="td-pass-12345")
    other = User.objects.create_user("td-other", password="td-pass-12345")
    td.groups.add(td_group(club))
    other.groups.add(td_group(club))
    page = live_server.url + club_url(
        club.slug, "competition:td_results", args=[rnd.season.slug, 1]
    )
    _forget_the_site(browser, live_server)
    network = None
    try:
        _log_in(browser, live_server, "td-offline", "td-pass-12345")
        browser.get(page)
        _kept_and_controlled(browser, page)

        network = NetworkSwitch(browser, live_server.url)
        network.set_offline(True)
        assert browser.execute_script("return navigator.onLine") is False
        assert browser.find_element(By.ID, "offline-note").is_displayed()

        entered = {1: "1-0", 2: "½-½", 3: "0-1"}
        for board, label in entered.items():
            button = _board(browser, board).find_element(
                By.XPATH, f".//button[normalize-space()='{label}']"
            )
            tap(browser, button)
        WebDriverWait(browser, 5).until(lambda d: set(_states(d).values()) == {"queued"})
        banner = browser.find_element(By.ID, "queue-banner")
        assert banner.text.startswith("3 uitslagen nog niet verzonden")
        assert (
            Game.objects.filter(pk__in=[g.pk for g in games.values()])
            .exclude(result=Game.Result.NOT_PLAYED)
            .count()
            == 0
        )  # nothing reached the server

        # Meanwhile another TD saves board 2 (0-1) from a phone that has a network.
        result_record(
            game_id=games[2].pk,
            result=Game.Result.BLACK_WINS,
            expected_version=games[2].version,
            user=other,
        )

        # Reload offline: the page is the worker's copy (the server's page would now show board
        # 2 saved by the other TD), with the three results shown again as not yet sent.
        browser.get(page)
        WebDriverWait(browser, 10).until(lambda d: set(_states(d).values()) == {"queued"})
        assert _board(browser, 2).find_element(By.CSS_SELECTOR, ".saved-line").text == ""
        assert browser.find_element(By.ID, "offline-note").is_displayed()
        for board, label in entered.items():
            item = _board(browser, board)
            assert item.find_element(By.CSS_SELECTOR, ".result-label").text == label
            assert item.find_element(By.CSS_SELECTOR, ".queued-badge").text == "nog niet verzonden"
            pressed = item.find_element(By.CSS_SELECTOR, "button[aria-pressed=true]")
            assert pressed.text == label
        assert browser.find_element(By.ID, "queue-banner").get_attribute("data-count") == "3"

        # The network is back: the page sends what it kept, in order, with the versions.
        network.set_offline(False)
        WebDriverWait(browser, 30).until(
            lambda d: _states(d) == {1: "yes", 2: "conflict", 3: "yes"}
        )
        saved = {g.board: g for g in Game.objects.filter(round=rnd)}
        assert saved[1].result == Game.Result.WHITE_WINS and saved[1].updated_by == td
        assert saved[3].result == Game.Result.BLACK_WINS and saved[3].updated_by == td
        assert saved[2].result == Game.Result.BLACK_WINS and saved[2].updated_by == other
        assert saved[4].result == Game.Result.NOT_PLAYED
        with translation.override("nl"):
            conflict = _describe_change(saved[2])
        message = _board(browser, 2).find_element(By.CSS_SELECTOR, ".board-message").text
        assert message == f"{conflict} Jouw uitslag ½-½ is niet verzonden."
        # the board shows the other TD's result; a tap of ½-½ now would be a knowing change
        item = _board(browser, 2)
        assert item.find_element(By.CSS_SELECTOR, ".result-label").text == "0-1"
        assert item.find_elements(By.CSS_SELECTOR, ".queued-badge") == []
        assert not browser.find_element(By.ID, "queue-banner").is_displayed()
        assert (
            browser.execute_script("return localStorage.getItem('clubcomp.results-queue')") is None
        )
        assert not browser.find_element(By.ID, "offline-note").is_displayed()

        # Logging out forgets the kept pages (the next user of this phone finds none).
        kept_pages = (
            "var done = arguments[0]; caches.keys().then(function (names) {"
            " done(names.filter(function (n) { return n.indexOf('clubcomp-pages-') === 0; })"
            ".length); });"
        )
        assert browser.execute_async_script(kept_pages) == 1
        tap(browser, browser.find_element(By.CSS_SELECTOR, ".navbar-toggler"))  # a phone's menu
        logout = browser.find_element(By.CSS_SELECTOR, "form[data-logout] button")
        WebDriverWait(browser, 5).until(lambda _d: logout.is_displayed())
        tap(browser, logout)
        WebDriverWait(browser, 10).until(lambda d: "/td/" not in d.current_url)
        assert browser.execute_async_script(kept_pages) == 0
    finally:
        if network is not None:
            network.set_offline(False)
            network.close()
        _forget_the_site(browser, live_server)
