"""The Back button on the TD's phone (issue 24 §2): a TD page is never shown from the browser's
cache. After results were saved on the results page, leaving it and pressing Back shows the
saved results; one more Back shows the pairing as published, without a live "publish" button."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.test_evening import SLUG, click, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_back_after_saving_results_shows_what_was_saved(
    browser, live_server, demo_club_committed
) -> None:
    wait = WebDriverWait(browser, 15)
    browser.get(f"{live_server.url}/login/?next=/td/")
    browser.find_element(By.ID, "id_username").send_keys("wedstrijdleider")
    browser.find_element(By.ID, "id_password").send_keys("schaak-demo-2026")
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait.until(lambda driver: "/login/" not in driver.current_url)

    browser.get(f"{live_server.url}/td/{SLUG}/new-round/")
    click(browser, By.CSS_SELECTOR, "main form button[type=submit]")
    wait.until(EC.url_contains("/attendance/"))
    click(browser, By.ID, "save-and-pair")
    wait.until(EC.presence_of_element_located((By.ID, "publish-button")))
    pairing_url = browser.current_url
    click(browser, By.ID, "publish-button")
    wait.until(EC.presence_of_element_located((By.ID, "result-boards")))

    # Two results saved by tapping (the page is not reloaded: the answers come by fetch).
    for board, result in ((1, "1-0"), (2, "1/2")):
        item = browser.find_element(By.ID, f"board-{board}")
        tap(browser, item.find_element(By.CSS_SELECTOR, f"button[value='{result}']"))
        wait.until(lambda _d, item=item: item.get_attribute("data-saved") == "yes")

    browser.get(f"{live_server.url}/td/")
    browser.back()
    wait.until(EC.presence_of_element_located((By.ID, "result-boards")))
    for board, result in ((1, "1-0"), (2, "1/2")):
        pressed = browser.find_element(By.CSS_SELECTOR, f"#board-{board} [aria-pressed=true]")
        assert pressed.get_attribute("value") == result, board
        assert browser.find_element(By.CSS_SELECTOR, f"#board-{board} .saved-line").text

    browser.back()
    wait.until(lambda driver: driver.current_url != f"{live_server.url}/td/")
    assert browser.current_url == pairing_url
    wait.until(EC.presence_of_element_located((By.ID, "pairing-table")))
    assert not browser.find_elements(By.ID, "publish-button")
