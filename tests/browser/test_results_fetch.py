"""The results page never leaves for a server error page: whatever the server answers to a
tapped result (busy, a server error), the message shows beside the board and the page stays."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from competition.models import Game, Round
from competition.permissions import td_group
from competition.views import rounds as rounds_views
from tests.addresses import club_reverse
from tests.browser.test_evening import tap
from tests.factories import GameFactory, RoundFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    # The failure is put into this process's view: it needs the live server in this process,
    # not the parity stage's gunicorn (tests/conftest.py).
    pytest.mark.skipif(
        os.environ.get("CLUBCOMP_LIVE_SERVER") == "gunicorn",
        reason="injects a failure into the view of this process; gunicorn is another one",
    ),
]


def _busy(**kwargs: object) -> None:
    raise OperationalError("database is locked")


def _broken(**kwargs: object) -> None:
    raise RuntimeError("a bug on the server")


@pytest.mark.parametrize(
    ("failure", "expected"),
    [
        (_busy, "De database was bezet; probeer het opnieuw."),
        (_broken, "Niet opgeslagen: de server kon het niet aannemen. Probeer het opnieuw."),
    ],
    ids=["busy", "server-error"],
)
def test_a_failed_save_is_said_beside_the_board(
    browser, live_server, monkeypatch: pytest.MonkeyPatch, failure, expected: str
) -> None:
    rnd = RoundFactory(number=1, status=Round.Status.PAIRED)
    game = GameFactory(round=rnd, board=1)
    td = User.objects.create_user("td-browser", password="td-pass-12345")
    td.groups.add(td_group(rnd.season.club))
    browser.get(f"{live_server.url}/login/")
    browser.find_element(By.ID, "id_username").send_keys("td-browser")
    browser.find_element(By.ID, "id_password").send_keys("td-pass-12345")
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(browser, 10).until(lambda driver: "/login/" not in driver.current_url)
    page = live_server.url + club_reverse("competition:td_results", args=[rnd.season.slug, 1])
    browser.get(page)

    monkeypatch.setattr(rounds_views, "result_record", failure)
    item = browser.find_element(By.ID, "board-1")
    tap(browser, item.find_element(By.CSS_SELECTOR, "button[value='1-0']"))
    WebDriverWait(browser, 10).until(lambda _d: item.get_attribute("data-saved") == "failed")
    assert browser.current_url == page
    assert item.find_element(By.CSS_SELECTOR, ".board-message").text == expected
    assert Game.objects.get(pk=game.pk).result == Game.Result.NOT_PLAYED

    # The page kept its state: the next tap (the server well again) saves the board.
    monkeypatch.undo()
    tap(browser, item.find_element(By.CSS_SELECTOR, "button[value='1-0']"))
    WebDriverWait(browser, 10).until(lambda _d: item.get_attribute("data-saved") == "yes")
    assert Game.objects.get(pk=game.pk).result == Game.Result.WHITE_WINS
