"""What a 30-player evening costs the TD on a 360 px phone: every tap and every page load from
the club evening's page to the closed round, counted. Thirty take part in the demo's internal
competition (the demo's sixteen and fourteen more), two send word that they are away: 28
present, 14 boards.

A tap that loads a page is told apart from one answered in place by a mark set on the page
before the tap: a new page does not have it.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from competition.management.commands.seed_demo import DEMO_CLUB_SLUG
from competition.models import Game, Participant, Round, Season
from tests.browser.test_evening import tap
from tests.browser.test_small_phone_fit import SMALL_PHONE, _sign_in
from tests.factories import MemberFactory, ParticipantFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "interne-2026-2027"
PLAYERS = 30
AWAY = 2


class Counter:
    """Taps, and the page loads they cause."""

    def __init__(self, browser) -> None:
        self.browser, self.taps, self.loads = browser, 0, 0

    def tap(self, by: str, value: str) -> None:
        element = WebDriverWait(self.browser, 10).until(EC.element_to_be_clickable((by, value)))
        self.tap_element(element)

    def tap_element(self, element) -> None:
        self.browser.execute_script("window.__sameEveningPage = true;")
        tap(self.browser, element)
        self.taps += 1

    def page_loaded(self) -> bool:
        """Whether the last tap loaded a new page (counted once)."""
        same = self.browser.execute_script("return window.__sameEveningPage === true;")
        if not same:
            self.loads += 1
        return not same


def test_a_30_player_evening_in_taps_and_page_loads(
    browser, live_server, demo_club_committed
) -> None:
    season = Season.objects.get(slug=SLUG)
    taking_part = Participant.objects.filter(season=season, withdrawn_from_round__isnull=True)
    start = taking_part.count()
    for number in range(PLAYERS - start):
        ParticipantFactory(
            season=season,
            member=MemberFactory(club=season.club, name=f"Nieuw Lid {number + 1:02d}"),
            start_rank=100 + number,
        )
    assert taking_part.count() == PLAYERS
    browser.set_window_size(*SMALL_PHONE)
    wait = WebDriverWait(browser, 15)
    browser.get(f"{live_server.url}/healthz")
    _sign_in(browser, live_server, "wedstrijdleider")
    browser.get(f"{live_server.url}/{DEMO_CLUB_SLUG}/td/")
    count = Counter(browser)

    # The club evening's page: "New round" for the internal competition, then its date (today).
    count.tap(By.CSS_SELECTOR, f"a[href='/{DEMO_CLUB_SLUG}/td/{SLUG}/new-round/']")
    wait.until(EC.url_contains("/new-round/"))
    count.page_loaded()
    count.tap(By.CSS_SELECTOR, "main form button[type=submit]")
    wait.until(EC.url_contains("/attendance/"))
    count.page_loaded()

    # Attendance: everyone is present unless marked; two are away with notice.
    rows = browser.find_elements(By.CSS_SELECTOR, ".attendance-row")
    assert len(rows) == PLAYERS
    for row in rows[:AWAY]:
        notice = row.find_element(By.CSS_SELECTOR, "input[value=absent_notice]")
        count.tap(By.CSS_SELECTOR, f"label[for='{notice.get_attribute('id')}']")
        assert not count.page_loaded()
    count.tap(By.ID, "save-and-pair")
    wait.until(EC.presence_of_element_located((By.ID, "pairing-table")))
    count.page_loaded()
    boards = (PLAYERS - AWAY) // 2
    assert len(browser.find_elements(By.CSS_SELECTOR, "#pairing-table tbody tr")) == boards

    count.tap(By.ID, "publish-button")
    wait.until(EC.presence_of_element_located((By.ID, "result-boards")))
    count.page_loaded()

    # One tap per board, saved in place.
    for item in browser.find_elements(By.CSS_SELECTOR, ".result-board"):
        count.tap_element(item.find_element(By.CSS_SELECTOR, "button[value='1-0']"))
        wait.until(lambda _d, item=item: item.get_attribute("data-saved") == "yes")
        assert not count.page_loaded()
    assert browser.find_element(By.ID, "missing-count").text == "0"

    count.tap(By.ID, "close-button")
    wait.until(EC.presence_of_element_located((By.ID, "new-top")))
    count.page_loaded()

    rnd = Round.objects.get(season=season, number=11)
    assert rnd.status == Round.Status.COMPLETED
    assert Game.objects.filter(round=rnd, result="1-0").count() == boards
    # New round, its date, two away, save and pair, publish, a result per board, close.
    assert count.taps == 2 + AWAY + 1 + 1 + boards + 1 == 21
    # The new-round form, attendance, pairing, results, the round's standings.
    assert count.loads == 5
    print(f"\n{PLAYERS} players, {boards} boards: {count.taps} taps, {count.loads} page loads")
