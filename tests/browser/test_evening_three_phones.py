"""A whole club evening on three phones (Debian's Chromium, each with its own login): the TD
and two members, Anna and Bram. Both check in, the TD pairs and publishes, both are told their
board (Anna by Web Push and e-mail, Bram by e-mail: all captured), Anna enters the result of
their board and Bram confirms it, the players of board 2 disagree and the TD settles it, and
board 3 is played a week later: the round is closed with it pending and its result completes
the standings.

The TD's taps are counted: the issue's goal for a 30-player evening with members checking in
and entering results is at most 8 (from 24); here the TD's taps are the same for any number
of players, except one per disputed or postponed board.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
import pywebpush
from django.core import mail
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from competition.management.commands.vapid_keys import vapid_key_pair
from competition.models import Game, Member, Participant, Round, Season
from competition.services import push
from competition.services.result_reports import result_report, result_report_answer
from competition.services.rounds import round_create
from tests.addresses import club_reverse
from tests.browser.test_evening import page_replaced, tap
from tests.browser.test_member_evening import log_in
from tests.conftest import GUNICORN_LIVE_SERVER
from tests.factories import MemberFactory, ParticipantFactory
from tests.tasks import run_worker
from tests.views.member_club import member_club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PRIVATE, PUBLIC = vapid_key_pair()


class TD:
    """The TD's phone, with his taps counted."""

    def __init__(self, browser) -> None:
        self.browser, self.taps = browser, 0

    def tap(self, by: str, value: str, *, loads: bool = True) -> None:
        """Tap, and when the tap ``loads`` a page wait until the old one is gone (its buttons
        are still there for a moment, and the next tap must not find those)."""
        element = WebDriverWait(self.browser, 15).until(EC.element_to_be_clickable((by, value)))
        tap(self.browser, element)
        self.taps += 1
        if loads:
            WebDriverWait(self.browser, 20).until(page_replaced(element))

    def wait_for(self, by: str, value: str) -> Any:
        return WebDriverWait(self.browser, 15).until(EC.presence_of_element_located((by, value)))


def member_with_account(participant: Participant, username: str) -> Member:
    from django.contrib.auth.models import User

    member = participant.member
    member.user = User.objects.create_user(username, password=f"{username}-pass-12345")
    member.save(update_fields=["user"])
    return member


def test_a_whole_evening_on_three_phones(
    browser, another_phone, live_server, settings, monkeypatch
) -> None:
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PUBLIC, PRIVATE
    settings.VAPID_SUBJECT = "mailto:wedstrijdleider@example.org"
    pushed: list[dict[str, Any]] = []
    monkeypatch.setattr(
        pywebpush,
        "webpush",
        lambda **kwargs: pushed.append(
            {"to": kwargs["subscription_info"]["endpoint"], **json.loads(kwargs["data"])}
        ),
    )
    club = member_club()
    season = club.season
    Season.objects.filter(pk=season.pk).update(result_entry="players_agree", system="points")
    anna, (bram, cor, dirk) = club.me, club.others
    eva, frank = (
        ParticipantFactory(season=season, member=MemberFactory(club=season.club, name=name))
        for name in ("Eva Smit", "Frank de Boer")
    )
    for rank, participant in enumerate((anna, bram, cor, dirk, eva, frank), start=1):
        Participant.objects.filter(pk=participant.pk).update(start_rank=rank)
    member_with_account(bram, "bram")
    for participant, email in ((anna, "anna@example.org"), (bram, "bram@example.org")):
        Member.objects.filter(pk=participant.member.pk).update(email=email, notify_pairing=True)
    for participant, name in ((cor, "cor"), (dirk, "dirk")):
        member_with_account(participant, name)
    push.push_subscribe(
        member=anna.member,
        user=club.user,
        endpoint="https://push.example.org/anna",
        p256dh=_b64(65),
        auth=_b64(16),
    )
    (rnd,) = round_create(seasons=[season])

    td = TD(browser)
    log_in(browser, live_server, "nl", "td-sc", "td-pass-12345")
    attendance = club_reverse("competition:td_attendance", args=[season.slug, rnd.number])
    browser.get(live_server.url + attendance)
    td.tap(By.ID, "check-in-open")
    code = td.wait_for(By.ID, "check-in-code").text

    # Anna and Bram check in on their own phones
    phones = {}
    for name, username in (("anna", "anna"), ("bram", "bram")):
        phone = another_phone()
        log_in(phone, live_server, "nl", username, f"{username}-pass-12345")
        phone.get(f"{live_server.url}/in/{code}/")
        tap(phone, phone.find_element(By.CSS_SELECTOR, ".check-in-button"))
        WebDriverWait(phone, 15).until(
            EC.presence_of_element_located((By.CSS_SELECTOR, ".check-in-done"))
        )
        phones[name] = phone
    # the TD's attendance page follows by itself
    WebDriverWait(browser, 20, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: d.find_element(By.ID, "check-in-count").text == "2"
    )
    td.tap(By.ID, "check-in-close")
    td.tap(By.ID, "save-and-pair")
    td.wait_for(By.ID, "pairing-table")
    td.tap(By.ID, "publish-button")
    td.wait_for(By.ID, "result-boards")
    boards = {g.board: g for g in Game.objects.filter(round=rnd).select_related("white", "black")}
    assert len(boards) == 3
    first, second, third = boards[1], boards[2], boards[3]
    assert {first.white_id, first.black_id} == {anna.pk, bram.pk}

    # Both are told their board: the worker sends it, never the TD's request
    assert pushed == [] and mail.outbox == []
    for phone in (browser, *phones.values()):
        phone.get("about:blank")  # no request of theirs runs beside the worker (SQLite's locks)
    run_worker()
    anna_colour = "wit" if first.white_id == anna.pk else "zwart"
    if not GUNICORN_LIVE_SERVER:
        # (gunicorn, the parity stage's server, runs with its own environment: without this
        # test's VAPID keys it queues no push; the mail below is the same in both)
        (to_anna,) = [n for n in pushed if n["to"] == "https://push.example.org/anna"]
        assert to_anna["body"] == f"Bord 1, {anna_colour}, tegen Bram Jansen"
    (anna_mail,) = [m for m in mail.outbox if m.to == ["anna@example.org"]]
    assert f"Bord 1: je speelt met {anna_colour} tegen Bram Jansen." in anna_mail.body
    (to_bram,) = [m for m in mail.outbox if m.to == ["bram@example.org"]]
    assert "Bord 1" in to_bram.body and "Anna de Vries" in to_bram.body

    # Board 1: Anna enters 1-0 for white, Bram confirms on his phone
    anna_phone, bram_phone = phones["anna"], phones["bram"]
    anna_phone.get(f"{live_server.url}/me/")
    report = f"#result-report-{first.pk}"
    tap(anna_phone, anna_phone.find_element(By.CSS_SELECTOR, f"{report} button[value='1-0']"))
    WebDriverWait(anna_phone, 15, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: d.find_element(By.CSS_SELECTOR, report).get_attribute("data-state") == "entered"
    )
    bram_phone.get(f"{live_server.url}/me/")
    tap(
        bram_phone,
        bram_phone.find_element(By.CSS_SELECTOR, f"{report} button[name=answer][value=confirm]"),
    )
    WebDriverWait(bram_phone, 15).until(lambda _d: _result(first) == "1-0")
    assert Game.objects.get(pk=first.pk).version == 2

    # Board 2: its players disagree (on their phones, through the same services); the TD decides
    cor_or_dirk = {p.pk: p for p in (cor, dirk)}
    white = cor_or_dirk[second.white_id]
    black = cor_or_dirk[second.black_id]
    entered = result_report(
        game_id=second.pk, participant=white, result="1-0", user=white.member.user
    )
    result_report_answer(
        report_id=entered.pk,
        participant=black,
        agree=False,
        result="1-0",
        user=black.member.user,
    )
    results = club_reverse("competition:td_results", args=[season.slug, rnd.number])
    browser.get(live_server.url + results)
    disputed = browser.find_element(By.CSS_SELECTOR, "#board-2 .board-reports")
    assert disputed.get_attribute("data-state") == "disputed"
    td.tap(By.CSS_SELECTOR, "#board-2 button[value='1/2']", loads=False)  # saved in place
    WebDriverWait(browser, 15).until(lambda _d: _result(second) == "1/2")

    # Board 3 is played a week later
    _play_board_three_a_week_later(td, browser, live_server, season, rnd, third)
    # the TD's taps: check-in open and closed, pair, publish and close the round (the same for
    # any number of players), one for the dispute, two to mark board 3 as played later, and a
    # week later one for its result
    assert td.taps == 5 + 1 + 2 + 1


def _result(game: Game) -> str:
    return Game.objects.get(pk=game.pk).result


def _b64(length: int) -> str:
    import base64
    import os

    return base64.urlsafe_b64encode(os.urandom(length)).rstrip(b"=").decode()


def _play_board_three_a_week_later(td: TD, browser, live_server, season, rnd: Round, game: Game):
    """The TD marks board 3 as played later, closes the round with it pending, and enters its
    result a week later; the standings take it then."""
    next_week = rnd.date + datetime.timedelta(days=7)
    td.tap(By.CSS_SELECTOR, "#board-3 [data-play-later] summary", loads=False)
    field = browser.find_element(By.CSS_SELECTOR, "#board-3 input[name=played_on]")
    browser.execute_script("arguments[0].value = arguments[1];", field, next_week.isoformat())
    td.tap(By.CSS_SELECTOR, "#board-3 [data-play-later] button[type=submit]")
    WebDriverWait(browser, 15).until(lambda _d: Game.objects.get(pk=game.pk).played_on is not None)
    assert Game.objects.get(pk=game.pk).played_on == next_week
    td.tap(By.ID, "close-button")
    td.wait_for(By.ID, "new-top")
    rnd.refresh_from_db()
    assert rnd.is_completed and _result(game) == ""  # closed with board 3 pending

    standings = club_reverse("competition:standings", args=[season.slug])
    browser.get(live_server.url + standings)
    pending = browser.find_element(By.CSS_SELECTOR, ".pending-games").text
    white, black = game.white.member.name, game.black.member.name
    assert f"{white} – {black}" in pending and "Inhaalpartij" in pending
    before = _score(season, game.white_id)

    # a week later: the TD enters the result in the closed round, no reason asked
    results = club_reverse("competition:td_results", args=[season.slug, rnd.number])
    browser.get(live_server.url + results)
    td.tap(By.CSS_SELECTOR, "#board-3 [data-play-later] button[value='1-0']")
    WebDriverWait(browser, 15).until(lambda _d: _result(game) == "1-0")
    assert _score(season, game.white_id) == before + 1  # points: a win is 1
    browser.get(live_server.url + standings)
    assert not browser.find_elements(By.CSS_SELECTOR, ".pending-games")


def _score(season, participant_id: int):
    from competition.models import StandingsSnapshot
    from competition.scoring.exact import fraction_from_text

    snapshot = StandingsSnapshot.objects.filter(season=season).order_by("-round_number").first()
    (row,) = [row for row in snapshot.rows if row["participant_id"] == participant_id]
    return fraction_from_text(row["score"])
