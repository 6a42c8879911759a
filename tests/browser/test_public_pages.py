"""The public pages in Debian's Chromium on a phone-sized screen."""

from __future__ import annotations

import glob
import os
import time

import pytest
from selenium.webdriver.common.by import By

from tests.views.public_data import small_season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    # Database ids repeat between tests; pages cached by an earlier test must not show here.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def test_standings_fit_a_phone_and_switch_to_english(browser, live_server) -> None:
    season, people = small_season()
    browser.get(f"{live_server.url}/season/{season.slug}/")
    table = browser.find_element(By.CSS_SELECTOR, "table.standings")
    assert table.is_displayed()
    # The page itself does not scroll sideways: wide tables scroll inside their own box.
    page_width, view_width = browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert page_width <= view_width
    name = browser.find_element(By.XPATH, "//th[contains(@class,'name-cell')]//a[.='Cor Cools']")
    assert name.is_displayed()
    row = browser.find_element(By.CSS_SELECTOR, f'tr[data-participant="{people["C"].pk}"]')
    assert "1,5" in row.text  # SB 1½ in Dutch
    # On a phone the language switch sits in the collapsed menu: open it first.
    browser.find_element(By.CSS_SELECTOR, "button.navbar-toggler").click()
    english = browser.find_element(By.CSS_SELECTOR, 'a[data-language="en"]')
    deadline = time.time() + 5
    while not english.is_displayed() and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(0.4)  # the collapse animation
    english.click()
    deadline = time.time() + 10
    while 'lang="en"' not in browser.page_source and time.time() < deadline:
        time.sleep(0.2)
    row = browser.find_element(By.CSS_SELECTOR, f'tr[data-participant="{people["C"].pk}"]')
    assert "1.5" in row.text and "1,5" not in row.text


def test_participant_page_shows_chart_and_breakdown(browser, live_server) -> None:
    season, people = small_season()
    browser.get(f"{live_server.url}/season/{season.slug}/participant/{people['C'].pk}/")
    chart = browser.find_element(By.CSS_SELECTOR, "svg.rank-chart")
    assert chart.is_displayed() and chart.size["width"] > 200
    breakdown = browser.find_element(By.CSS_SELECTOR, "table.seed-table")
    assert breakdown.is_displayed()
    assert "0,75" in breakdown.text  # ½ × IP 1½ against Dirk Dekker


def test_xlsx_export_downloads_a_valid_workbook(browser, live_server) -> None:
    import openpyxl

    season, _people = small_season()
    browser.get(f"{live_server.url}/season/{season.slug}/")
    browser.find_element(By.ID, "export-xlsx").click()
    folder = browser.download_dir
    deadline = time.time() + 15
    files: list[str] = []
    while time.time() < deadline:
        files = [f for f in glob.glob(os.path.join(folder, "*.xlsx"))]
        if files and not glob.glob(os.path.join(folder, "*.crdownload")):
            break
        time.sleep(0.2)
    assert files, "no XLSX downloaded"
    sheet = openpyxl.load_workbook(files[0]).active
    rows = list(sheet.iter_rows(values_only=True))
    # The documented columns (docs/commands.md), headed in Dutch; numbers as numbers.
    assert rows[0][:5] == ("#", "Startnummer", "Naam", "Pnt", "Score")
    assert rows[1][2] == "Cor Cools"
    assert str(rows[1][4]) == "1.5"
