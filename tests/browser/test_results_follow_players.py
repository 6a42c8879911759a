"""The TD's results page follows the players by itself (static/js/td.js): with the page open on
his phone, Anna enters her board's result on hers, and the TD's board shows it with its one-tap
confirmation; Bram confirms, and the board shows the saved result and its new version, and the
count of results to go drops, all without a reload. A board whose result the TD has tapped
himself meanwhile keeps his."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from competition.services.result_reports import result_report, result_report_answer
from competition.services.rounds import game_create
from tests.browser.test_member_evening import log_in
from tests.views.test_result_reports import _player, board

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_results_page_follows_the_players_without_a_reload(browser, live_server) -> None:
    b = board()
    cor, dirk = _player(b.season, "Cor Visser", "cor"), _player(b.season, "Dirk Bakker", "dirk")
    second = game_create(round=b.round, board=2, white=cor, black=dirk)
    log_in(browser, live_server, "en", "td-sc", "td-pass-12345")
    browser.get(live_server.url + b.results_url())
    wait = WebDriverWait(browser, 20)
    board_1 = browser.find_element(By.ID, "board-1")
    assert board_1.find_element(By.CSS_SELECTOR, ".board-reports").get_attribute("data-state") == (
        "waiting"
    )
    browser.execute_script("window.clubcompPageMark = 1;")  # gone if the page were reloaded

    report = result_report(
        game_id=b.game.pk, participant=b.white, result="1-0", user=b.white.member.user
    )
    wait.until(
        lambda d: (
            d.find_element(By.CSS_SELECTOR, "#board-1 .board-reports").get_attribute("data-state")
            == "entered"
        )
    )
    reports = browser.find_element(By.CSS_SELECTOR, "#board-1 .board-reports")
    assert "entered by Anna de Vries: 1-0" in reports.text
    assert reports.find_elements(By.CSS_SELECTOR, "form.report-confirm button")

    # Meanwhile the TD taps board 2's result himself; then the players of board 1 agree.
    browser.find_element(By.CSS_SELECTOR, "#board-2 button[value='1/2']").click()
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#board-2").get_attribute("data-saved"))
    result_report_answer(
        report_id=report.pk,
        participant=b.black,
        agree=True,
        result="1-0",
        user=b.black.member.user,
    )
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#board-1 .result-label").text == "1-0")
    assert (
        browser.find_element(By.CSS_SELECTOR, "#board-1 input[name=version]").get_attribute("value")
        == "2"
    )
    assert (
        browser.find_element(By.CSS_SELECTOR, "#board-1 button[value='1-0']").get_attribute(
            "aria-pressed"
        )
        == "true"
    )
    wait.until(lambda d: d.find_element(By.ID, "missing-count").text == "0")
    assert browser.find_element(By.CSS_SELECTOR, "#board-2 .result-label").text == "½-½"
    second.refresh_from_db()
    assert (second.result, second.version) == ("1/2", 2)
    assert browser.execute_script("return window.clubcompPageMark;") == 1  # no reload
