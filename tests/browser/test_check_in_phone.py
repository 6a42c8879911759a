"""Check-in on the TD's phone (Debian's Chromium): the attendance page shows a member's check-in
as it happens, a row the TD has not touched follows it (his absence is cleared), and a mark the
TD tapped but has not saved stays his."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from competition.models import RoundEntry
from competition.services import evening
from competition.services.check_in import check_in_open, member_check_in
from competition.services.rounds import round_create
from tests.addresses import club_reverse
from tests.browser.test_evening import click
from tests.browser.test_member_evening import log_in
from tests.views.member_club import member_club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_attendance_page_follows_check_ins_and_keeps_unsaved_marks(
    browser, live_server
) -> None:
    club = member_club()
    rnd = round_create(seasons=[club.season])[0]
    anna, bram = club.me, club.others[0]
    evening.attendance_record(
        round=rnd, marks={anna.pk: RoundEntry.Kind.ABSENT_NOTICE}, user=club.td
    )
    rnd = check_in_open(round=rnd, user=club.td)
    log_in(browser, live_server, "en", "td-sc", "td-pass-12345")
    page = club_reverse(
        "competition:td_attendance",
        kwargs={"season_slug": rnd.season.slug, "round_number": rnd.number},
    )
    browser.get(live_server.url + page)
    assert browser.find_element(By.ID, "check-in-code").text == rnd.check_in_code
    assert browser.find_element(By.ID, "present-count").text == "3"
    click(browser, By.CSS_SELECTOR, f"label[for='p{bram.pk}-absent_no_notice']")  # not saved
    assert browser.find_element(By.ID, "present-count").text == "2"

    member_check_in(round=rnd, user=club.user)  # Anna on her phone

    row = f".attendance-row[data-participant='{anna.pk}']"
    WebDriverWait(browser, 15).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, f"{row} .check-in-badge")
    )
    badge = browser.find_element(By.CSS_SELECTOR, f"{row} .check-in-badge").text
    assert badge.startswith("checked in ")
    assert browser.find_element(By.ID, f"p{anna.pk}-present").is_selected()
    assert browser.find_element(By.ID, f"p{bram.pk}-absent_no_notice").is_selected()
    assert browser.find_element(By.ID, "present-count").text == "3"
    assert browser.find_element(By.ID, "check-in-count").text == "1"
    # Saving now keeps both: Anna present (checked in), Bram as the TD tapped him
    click(browser, By.CSS_SELECTOR, "button[name=then][value=save]")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".alert-success"))
    kinds = dict(RoundEntry.objects.filter(round=rnd).values_list("participant_id", "kind"))
    assert kinds == {bram.pk: RoundEntry.Kind.ABSENT_NO_NOTICE}
