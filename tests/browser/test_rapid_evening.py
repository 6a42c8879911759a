"""A rapid evening of three rounds in a real browser on a phone-sized screen (issue 14).

The demo TD opens the evening's first round of a rapid series (four players, three rounds an
evening, Swiss within the evening), marks attendance, pairs and publishes; then enters every
result of the three rounds by tapping, going from one round to the next with *Close and pair
round N* without leaving the results page; closing the third round shows the evening ranking.

Results: the player with the lower start number wins every game, except board 1 of round 1
(a draw). Round 1: 1-2 (½-½), 3-4 (3 wins); round 2: 1-3, 2-4; round 3: 1-4, 2-3 (the lower
start number wins). P1 ½ + 1 + 1 = 2½, P2 ½ + 1 + 1 = 2½, P3 1, P4 0: P1 and P2 share place 1
and (10 + 8) / 2 = 9 evening points each, P3 6, P4 5.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from competition.models import Club, Game, Participant, Round, Season
from tests.browser.test_evening import click, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "rapid-avond"


def rapid_series() -> list[Participant]:
    club = Club.objects.get(slug="sc-de-toren")
    season = Season.objects.create(
        club=club,
        name="Rapidavond",
        slug=SLUG,
        system="points",
        tiebreaks=[],
        rounds_per_evening=3,
        evening_points=[10, 8, 6, 5],
    )
    members = list(club.members.order_by("name")[:4])
    return [
        Participant.objects.create(season=season, member=m, start_rank=rank)
        for rank, m in enumerate(members, start=1)
    ]


def enter_results(browser, wait, starts: dict[str, int], first_round: bool) -> None:
    """Tap each board's result: the lower start number wins; board 1 of round 1 is a draw."""
    items = browser.find_elements(By.CSS_SELECTOR, ".result-board")
    assert len(items) == 2
    for item in items:
        board = int(item.get_attribute("id").split("-")[1])
        white, black = (
            item.find_element(By.CSS_SELECTOR, "span").text.split(". ", 1)[1].split(" – ")
        )
        if first_round and board == 1:
            result = "1/2"
        else:
            result = "1-0" if starts[white] < starts[black] else "0-1"
        tap(browser, item.find_element(By.CSS_SELECTOR, f"button[value='{result}']"))
        wait.until(lambda _d, item=item: item.get_attribute("data-saved") == "yes")
    assert browser.find_element(By.ID, "missing-count").text == "0"


def test_a_rapid_evening_of_three_rounds_on_a_phone(
    browser, live_server, demo_club_committed
) -> None:
    players = rapid_series()
    starts = {p.member.name: p.start_rank for p in players}
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
    wait.until(EC.presence_of_element_located((By.ID, "pairing-table")))
    click(browser, By.ID, "publish-button")
    wait.until(EC.presence_of_element_located((By.ID, "result-boards")))

    # Rounds 1 and 2: results, then "Close and pair round N" lands on the next round's results.
    for number in (1, 2):
        assert browser.current_url.endswith(f"/td/{SLUG}/{number}/results/")
        enter_results(browser, wait, starts, first_round=number == 1)
        click(browser, By.ID, "next-round-button")
        wait.until(EC.url_contains(f"/td/{SLUG}/{number + 1}/results/"))
        wait.until(EC.presence_of_element_located((By.ID, "result-boards")))
    # Round 3 is the evening's last: it is closed as any round.
    assert not browser.find_elements(By.ID, "next-round-button")
    enter_results(browser, wait, starts, first_round=False)
    click(browser, By.ID, "close-button")
    wait.until(EC.presence_of_element_located((By.ID, "evening-ranking")))

    section = browser.find_element(By.ID, "evening-ranking")
    assert "Avond 1: eindstand" in section.text
    rows = [
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in section.find_elements(By.CSS_SELECTOR, "tbody tr")
    ]
    p1, p2, p3, p4 = (p.member.name for p in players)
    assert rows == [["1=", p1, "9"], ["1=", p2, "9"], ["3", p3, "6"], ["4", p4, "5"]]
    # Every round of the evening was paired within it: six different pairs, none twice.
    pairs = {
        frozenset((g.white_id, g.black_id)) for g in Game.objects.filter(round__season__slug=SLUG)
    }
    assert len(pairs) == 6
    assert list(Round.objects.filter(season__slug=SLUG).values_list("number", "status")) == [
        (n, Round.Status.COMPLETED) for n in (1, 2, 3)
    ]


def test_the_series_pages_fit_a_small_phone(browser, live_server, demo_club_committed) -> None:
    """The demo's rapid series: the series ranking, an evening's ranking and a participant's
    evenings fit 360 px without sideways scrolling and have no serious axe-core violation."""
    from django.core.cache import cache

    from tests.browser.test_phone_pages import SMALL_PHONE, check_page, report

    cache.clear()
    browser.set_window_size(*SMALL_PHONE)
    demo = "rapidserie-2026-2027"
    participant = Participant.objects.filter(season__slug=demo).order_by("start_rank").first()
    problems: dict[str, list[str]] = {}
    for path in (
        f"/season/{demo}/series/",
        f"/season/{demo}/evening/2/",
        f"/season/{demo}/participant/{participant.id}/",
        f"/season/{demo}/how-it-works/",
    ):
        check_page(browser, path, live_server, problems)
    assert not problems, report(problems)
