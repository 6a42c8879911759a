"""A whole club evening in a real browser on a phone-sized screen (Debian's Chromium).

Log in as the demo TD, start a round, mark attendance, pair, swap two boards, enter every
result (one a forfeit) by tapping, close the round and see the standings change.
"""

from __future__ import annotations

import pytest
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from competition.models import Game, Round, StandingsSnapshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "interne-2026-2027"


def click(browser, by: str, value: str) -> None:
    tap(browser, WebDriverWait(browser, 10).until(EC.element_to_be_clickable((by, value))))


def tap(browser, element) -> None:
    # Bootstrap scrolls smoothly; an instant scroll puts the element in place before the tap.
    browser.execute_script(
        "arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", element
    )
    try:
        element.click()
    except ElementClickInterceptedException:
        # A sticky bar can sit over the element after scrolling; the tap goes to it directly.
        browser.execute_script("arguments[0].click();", element)


def page_replaced(element):
    """A wait condition: ``element``'s page has been replaced. Chrome says so in two ways: the
    element is stale, or (caught while the page is being replaced) its node "does not belong to
    the document"; Selenium's ``staleness_of`` knows only the first."""

    def replaced(driver) -> bool:
        try:
            element.is_enabled()
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise
        return False

    return replaced


def test_a_whole_evening_on_a_phone(browser, live_server, demo_club_committed) -> None:
    wait = WebDriverWait(browser, 15)
    browser.get(f"{live_server.url}/login/?next=/td/")
    browser.find_element(By.ID, "id_username").send_keys("wedstrijdleider")
    browser.find_element(By.ID, "id_password").send_keys("schaak-demo-2026")
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait.until(lambda driver: "/login/" not in driver.current_url)

    # New round for the internal competition; the date field is prefilled with today.
    browser.get(f"{live_server.url}/td/{SLUG}/new-round/")
    assert browser.find_element(By.ID, "id_date").get_attribute("value")
    click(browser, By.CSS_SELECTOR, "main form button[type=submit]")
    wait.until(EC.url_contains("/attendance/"))

    # Attendance: one tap marks the first player absent with notice. 16 of the 17 take part
    # (the demo's last player withdrew from round 11 on): 15 present, 7 boards and a bye.
    first_row = browser.find_elements(By.CSS_SELECTOR, ".attendance-row")[0]
    notice = first_row.find_element(By.CSS_SELECTOR, "input[value=absent_notice]")
    click(browser, By.CSS_SELECTOR, f"label[for='{notice.get_attribute('id')}']")
    click(browser, By.ID, "save-and-pair")
    wait.until(EC.presence_of_element_located((By.ID, "pairing-table")))
    boards = browser.find_elements(By.CSS_SELECTOR, "#pairing-table tbody tr")
    assert len(boards) == 7

    # Swap the black players of boards 1 and 2.
    black_1 = boards[0].find_element(By.CSS_SELECTOR, "td.black").text.split(" (")[0]
    black_2 = boards[1].find_element(By.CSS_SELECTOR, "td.black").text.split(" (")[0]
    click(browser, By.CSS_SELECTOR, "[data-bs-target='#tool-swap']")
    wait.until(EC.visibility_of_element_located((By.ID, "id_first")))
    for field, name in (("id_first", black_1), ("id_second", black_2)):
        select = Select(browser.find_element(By.ID, field))
        value = next(o.get_attribute("value") for o in select.options if o.text.startswith(name))
        select.select_by_value(value)
    click(browser, By.CSS_SELECTOR, "#swap-form button[type=submit]")
    # The swap is a plain post: wait for the old page to go before reading the new one (read
    # while the page was being replaced, a board's text raised "Node … does not belong to the
    # document", which the wait does not ignore).
    wait.until(page_replaced(boards[0]))
    wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "#board-1 td.black"), black_2))
    assert black_1 in browser.find_element(By.CSS_SELECTOR, "#board-2 td.black").text

    click(browser, By.ID, "publish-button")
    wait.until(EC.presence_of_element_located((By.ID, "result-boards")))

    # Results: tap one button per board; board 3 is a forfeit win for white.
    items = browser.find_elements(By.CSS_SELECTOR, ".result-board")
    for index, item in enumerate(items, start=1):
        result = "+-" if index == 3 else ("1-0" if index % 2 else "1/2")
        button = item.find_element(By.CSS_SELECTOR, f"button[value='{result}']")
        tap(browser, button)
        wait.until(lambda _d, item=item: item.get_attribute("data-saved") == "yes")
    assert browser.find_element(By.ID, "missing-count").text == "0"
    # The page was not reloaded: the saved lines came from the fetch answers.
    assert all(i.find_element(By.CSS_SELECTOR, ".saved-line").text for i in items)

    click(browser, By.ID, "close-button")
    wait.until(EC.presence_of_element_located((By.ID, "new-top")))
    rows = browser.find_elements(By.CSS_SELECTOR, "#new-top tbody tr")
    assert len(rows) == 10
    assert browser.find_elements(By.CSS_SELECTOR, "#movers li")

    rnd = Round.objects.get(season__slug=SLUG, number=11)
    assert rnd.status == Round.Status.COMPLETED
    assert Game.objects.get(round=rnd, board=3).result == "+-"
    assert StandingsSnapshot.objects.filter(season=rnd.season, round_number=11).exists()
