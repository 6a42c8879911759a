"""A change of rules from the next round on, in a real browser on a 360 px phone (issue 15): the
administrator raises Van den Brink's result part for a win from 3 to 4 on the rules page of the
demo's Van den Brink season, choosing "from the next round on"; the page shows only Van den
Brink's parameters (another system's come up when he chooses it); the preview opens at its own
top and fits the phone; a member then sees the notice on the public standings, follows it to the
standings under rule set 1, and finds them equal to the standings before the change."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from competition.management.commands.seed_demo import DEMO_CLUB_SLUG
from competition.models import Season
from tests.browser.test_evening import click
from tests.browser.test_phone_pages import SMALL_PHONE, check_page, report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "vandenbrink-2026-2027"


def _standings_rows(browser) -> list[str]:
    return [row.text for row in browser.find_elements(By.CSS_SELECTOR, "table tbody tr")]


def test_a_change_from_the_next_round_keeps_rule_set_one_on_the_page(
    browser, live_server, demo_club_committed
) -> None:
    wait = WebDriverWait(browser, 15)
    browser.set_window_size(*SMALL_PHONE)
    problems: dict[str, list[str]] = {}
    season = Season.objects.get(slug=SLUG)
    completed = season.rounds.filter(status="completed").count()
    browser.get(f"{live_server.url}/season/{SLUG}/")
    before = _standings_rows(browser)
    assert before

    browser.get(f"{live_server.url}/login/?next=/season/{SLUG}/rules/")
    browser.find_element(By.ID, "id_username").send_keys("beheerder")
    browser.find_element(By.ID, "id_password").send_keys("schaak-demo-2026")
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    win = wait.until(EC.presence_of_element_located((By.ID, "id_van-den-brink__win_part")))
    assert browser.execute_script("return window.innerWidth") == SMALL_PHONE[0]
    check_page(browser, "", live_server, problems)
    # Only the chosen system's parameters show; another system's come up when it is chosen.
    keizer_win = browser.find_element(By.ID, "id_keizer__win")
    assert win.is_displayed() and not keizer_win.is_displayed()
    Select(browser.find_element(By.ID, "id_system")).select_by_value("keizer")
    assert keizer_win.is_displayed() and not win.is_displayed()
    Select(browser.find_element(By.ID, "id_system")).select_by_value("van-den-brink")
    assert win.is_displayed() and not keizer_win.is_displayed()
    win.clear()
    win.send_keys("4")
    loss = browser.find_element(By.ID, "id_van-den-brink__loss_part")
    loss.clear()
    loss.send_keys("-4")
    click(browser, By.CSS_SELECTOR, "input[name=rule_changes][value=next_round]")
    check_page(browser, "", live_server, problems)

    # The preview opens at its top, above the form, and fits the phone.
    click(browser, By.CSS_SELECTOR, "input[type=submit][name=preview], button[name=preview]")
    preview = wait.until(EC.presence_of_element_located((By.ID, "preview")))
    assert browser.current_url.endswith("#preview")
    # the browser scrolls to the fragment once the page has loaded
    wait.until(
        lambda driver: (
            abs(driver.execute_script("return arguments[0].getBoundingClientRect().top", preview))
            < 2
        )
    )
    # every table of the preview fits inside it: no column beyond the right edge
    sticking_out = browser.execute_script(
        "var box = arguments[0].getBoundingClientRect();"
        "return Array.from(arguments[0].querySelectorAll('table, th, td'))"
        ".filter(function (e) { return e.getBoundingClientRect().right > box.right + 0.5; })"
        ".map(function (e) { return e.tagName + ' ' + e.textContent.trim().slice(0, 30); });",
        preview,
    )
    assert not sticking_out, sticking_out
    assert "Wat een partij in ronde" in preview.text
    assert "Alsof de nieuwe regels het hele seizoen hadden gegolden" in preview.text
    assert "0 deelnemers zouden van plaats veranderen" not in preview.text
    check_page(browser, "", live_server, problems)
    season.refresh_from_db()
    assert season.rules_version == 1  # nothing saved
    click(browser, By.CSS_SELECTOR, "input[type=submit][name=save], button[name=save]")
    wait.until(lambda driver: "/rules/" not in driver.current_url)
    season.refresh_from_db()
    assert (season.rules_version, season.rules_from_round) == (2, completed + 1)

    # A member, logged out, on the public standings.
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/season/{SLUG}/")
    notice = browser.find_element(By.CSS_SELECTOR, ".rules-notice")
    assert f"vanaf ronde {completed + 1}" in notice.text
    assert _standings_rows(browser) == before  # the rounds played keep their values
    check_page(browser, "", live_server, problems)
    click(
        browser,
        By.CSS_SELECTOR,
        f".rules-notice a[href='/{DEMO_CLUB_SLUG}/season/{SLUG}/?rules=1']",
    )
    wait.until(EC.url_contains("rules=1"))
    assert "regelset 1" in browser.find_element(By.CSS_SELECTOR, ".rules-notice").text
    assert _standings_rows(browser) == before
    check_page(browser, "", live_server, problems)
    assert not problems, report(problems)
