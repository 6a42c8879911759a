"""Results entered without a network are not lost: the TD opens the results page
with a network (the service worker keeps it), the network goes, three results are entered and
wait as "not yet sent", the page is reloaded (from the worker's copy), another TD changes one of
the boards meanwhile, the network comes back: two results arrive, the changed board says so.

Offline is Chromium's own network emulation, for the page and for its service worker
(tests/browser/network.py says why both)."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.crypto import get_random_string
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from competition.clubs import club_url
from competition.models import Game, Member, Round
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
    for game in games.values():  # names that take two lines on a phone
        for player, name in ((game.white, "Albertus Johannes"), (game.black, "Wilhelmina")):
            Member.objects.filter(pk=player.member_id).update(
                name=f"{name} van der Heijden-Vermeulen {game.board}"
            )
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
        WebDriverWait(browser, 20).until(lambda d: set(_states(d).values()) == {"queued"})
        assert _board(browser, 2).find_element(By.CSS_SELECTOR, ".saved-line").text == ""
        assert browser.find_element(By.ID, "offline-note").is_displayed()
        for board, label in entered.items():
            item = _board(browser, board)
            assert item.find_element(By.CSS_SELECTOR, ".result-label").text == label
            assert item.find_element(By.CSS_SELECTOR, ".queued-badge").text == "nog niet verzonden"
            pressed = item.find_element(By.CSS_SELECTOR, "button[aria-pressed=true]")
            assert pressed.text == label
        assert browser.find_element(By.ID, "queue-banner").get_attribute("data-count") == "3"
        # On a 360 px phone a result and its badge each stay on one line ("0-1" not broken).
        browser.set_window_size(360, 740)
        for board in entered:
            lines = browser.execute_script(
                "const item = arguments[0];"
                "return ['.result-label', '.queued-badge'].map(function (s) {"
                "  const range = document.createRange();"
                "  range.selectNodeContents(item.querySelector(s));"
                "  const boxes = Array.from(range.getClientRects());"
                "  return [new Set(boxes.map(function (b) { return Math.round(b.top); })).size,"
                "    boxes.every(function (b) { return b.right <= 360; })]; });",
                _board(browser, board),
            )
            assert lines == [[1, True], [1, True]], (board, lines)

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
            conflict = _describe_change(saved[2], td)
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


def _count_posts(browser) -> None:
    """Count the page's fetches from now on (td.js posts every result with ``fetch``)."""
    browser.execute_script(
        "window.postsSent = 0; var send = window.fetch; window.fetch = function () {"
        " window.postsSent += 1; return send.apply(this, arguments); };"
    )


def _posts_sent(browser) -> int:
    return browser.execute_script("return window.postsSent")


@pytest.mark.parametrize("expired", ["session", "csrf-token"])
def test_results_entered_after_the_login_expired_wait_and_are_sent_after_the_login(
    browser, live_server, expired: str
) -> None:
    """The session ends (or the CSRF cookie goes) while the TD enters results: they wait on the
    phone, are not tried again with the spent token, the banner asks for a login, and once the
    TD has logged in again (the banner's link comes back to the page) they arrive."""
    from django.contrib.sessions.models import Session

    rnd = RoundFactory(number=1, status=Round.Status.PAIRED)
    for board in (1, 2, 3):
        GameFactory(round=rnd, board=board)
    club = rnd.season.club
    td = User.objects.create_user("td-expired", password="td-pass-12345")
    td.groups.add(td_group(club))
    page = live_server.url + club_url(
        club.slug, "competition:td_results", args=[rnd.season.slug, 1]
    )
    _forget_the_site(browser, live_server)
    try:
        _log_in(browser, live_server, "td-expired", "td-pass-12345")
        browser.get(page)
        _kept_and_controlled(browser, page)  # the worker's own fetches of the round are done
        _count_posts(browser)
        if expired == "session":
            Session.objects.all().delete()  # as when the session's age ran out
        else:
            # As when another tab's login rotated it: the cookie holds a new secret, the page's
            # form the old one. (Deleting the cookie would not do: the worker's fetches of the
            # round's pages set a new one meanwhile, the same as a rotation.)
            browser.delete_cookie("csrftoken")
            browser.add_cookie({"name": "csrftoken", "value": get_random_string(32), "path": "/"})
        for board, label in {1: "1-0", 2: "0-1"}.items():
            button = _board(browser, board).find_element(
                By.XPATH, f".//button[normalize-space()='{label}']"
            )
            tap(browser, button)
            WebDriverWait(browser, 20).until(
                lambda d, n=board: _board(d, n).get_attribute("data-saved") == "queued"
            )
        banner = browser.find_element(By.ID, "queue-banner")
        assert banner.text.startswith("2 uitslagen nog niet verzonden")
        note = browser.find_element(By.ID, "queue-login")
        assert note.is_displayed()
        assert note.text == (
            "Je login is verlopen: de uitslagen wachten op deze telefoon. "
            "Log opnieuw in om ze te verzenden"
        )
        sent = _posts_sent(browser)
        assert sent == 2  # one try each
        time.sleep(5)  # longer than the first retry's 2 s
        assert _posts_sent(browser) == sent  # not tried again with the spent token
        assert not Game.objects.filter(round=rnd).exclude(result=Game.Result.NOT_PLAYED).exists()

        # The banner's link: log in again, back on the results page, the results are sent.
        note.find_element(By.TAG_NAME, "a").click()
        WebDriverWait(browser, 10).until(lambda d: "/login/" in d.current_url)
        browser.find_element(By.ID, "id_username").send_keys("td-expired")
        browser.find_element(By.ID, "id_password").send_keys("td-pass-12345")
        browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        WebDriverWait(browser, 10).until(lambda d: d.current_url == page)
        WebDriverWait(browser, 20).until(
            lambda d: (
                (_board(d, 1).get_attribute("data-saved"), _board(d, 2).get_attribute("data-saved"))
                == ("yes", "yes")
            )
        )
        saved = {g.board: g for g in Game.objects.filter(round=rnd)}
        assert saved[1].result == Game.Result.WHITE_WINS and saved[1].updated_by == td
        assert saved[2].result == Game.Result.BLACK_WINS and saved[2].updated_by == td
        assert saved[3].result == Game.Result.NOT_PLAYED
        assert not browser.find_element(By.ID, "queue-banner").is_displayed()
        assert (
            browser.execute_script("return localStorage.getItem('clubcomp.results-queue')") is None
        )
    finally:
        _forget_the_site(browser, live_server)
