"""A member acting for himself, end to end, on a phone (Debian's Chromium), in Dutch and English.

The TD invites a member; the member makes his account and reports that he cannot come to the
evening after next. The TD runs the next evening (the member is present): pairs, publishes; the
member sees his board, colour and opponent on his page and in his calendar feed. The TD enters
the results and closes. Then the TD opens the reported evening: the member is absent with notice
(reported by himself), the TD pairs, publishes, enters the results and closes; the member's
explanation page counts that round as an absence with notice.
"""

from __future__ import annotations

import datetime
import urllib.request

import pytest
from django.db.models import Q
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from competition.models import ClubEvening, Game, Member, Participant, Round, RoundEntry
from tests.browser.test_evening import click, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "interne-2026-2027"
SMALL_PHONE = (360, 740)
WORDS = {
    "nl": {"my_page": "Mijn pagina", "absent_notice": "afwezig met bericht", "board": "Bord"},
    "en": {"my_page": "My page", "absent_notice": "absent with notice", "board": "Board"},
}


def speak(browser, live_server, language: str) -> None:
    """Choose the language with the site's own switch (a cookie), as a reader would."""
    browser.get(f"{live_server.url}/taal/?language={language}&next=/")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == language


def log_in(browser, live_server, language: str, username: str, password: str) -> None:
    browser.delete_all_cookies()
    speak(browser, live_server, language)
    browser.get(f"{live_server.url}/login/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys(password)
    click(browser, By.CSS_SELECTOR, "main form button[type=submit]")
    WebDriverWait(browser, 10).until(lambda driver: "/login/" not in driver.current_url)


def run_evening(browser, live_server, date: datetime.date, number: int) -> None:
    """As the TD: open the round on ``date``, keep the attendance as it is, pair, publish."""
    wait = WebDriverWait(browser, 15)
    browser.get(f"{live_server.url}/td/{SLUG}/new-round/")
    field = browser.find_element(By.ID, "id_date")
    browser.execute_script("arguments[0].value = arguments[1];", field, date.isoformat())
    click(browser, By.CSS_SELECTOR, "main form button[type=submit]")
    wait.until(EC.url_contains(f"/{number}/attendance/"))


def pair_and_publish(browser) -> None:
    wait = WebDriverWait(browser, 15)
    click(browser, By.ID, "save-and-pair")
    wait.until(EC.presence_of_element_located((By.ID, "pairing-table")))
    click(browser, By.ID, "publish-button")
    wait.until(EC.presence_of_element_located((By.ID, "result-boards")))


def enter_results_and_close(browser, live_server, number: int) -> None:
    wait = WebDriverWait(browser, 15)
    browser.get(f"{live_server.url}/td/{SLUG}/{number}/results/")
    for index, item in enumerate(browser.find_elements(By.CSS_SELECTOR, ".result-board")):
        tap(
            browser,
            item.find_element(By.CSS_SELECTOR, f"button[value='{'1-0' if index % 2 else '1/2'}']"),
        )
        wait.until(lambda _d, item=item: item.get_attribute("data-saved") == "yes")
    click(browser, By.ID, "close-button")
    wait.until(EC.presence_of_element_located((By.ID, "new-top")))


@pytest.mark.parametrize("language", ["nl", "en"])
def test_a_member_reports_his_absence_and_follows_his_evenings(
    browser, live_server, demo_club_committed, language: str
) -> None:
    browser.set_window_size(*SMALL_PHONE)
    wait = WebDriverWait(browser, 15)
    words = WORDS[language]
    today = timezone.localdate()
    next_evening, reported_evening = ClubEvening.objects.filter(
        season__slug=SLUG, date__gt=today
    ).order_by("date")[:2]
    player = (
        Member.objects.filter(participations__season__slug=SLUG, user__isnull=True)
        .order_by("pk")
        .first()
    )
    participant = Participant.objects.get(season__slug=SLUG, member=player)
    first_new = Round.objects.filter(season__slug=SLUG).count() + 1

    # The TD invites him (no e-mail address: the TD passes the link on himself).
    log_in(browser, live_server, language, "wedstrijdleider", "schaak-demo-2026")
    browser.get(f"{live_server.url}/td/{SLUG}/members/")
    click(browser, By.CSS_SELECTOR, f"#member-{player.pk} summary")
    click(browser, By.CSS_SELECTOR, f"#member-{player.pk} form[action$='/invite/'] button")
    link = wait.until(EC.presence_of_element_located((By.ID, "invitation-link")))
    link = link.get_attribute("value")

    # The member makes his account and lands on his page.
    browser.delete_all_cookies()
    speak(browser, live_server, language)
    browser.get(link)
    browser.find_element(By.ID, "id_username").send_keys("speler")
    browser.find_element(By.ID, "id_password1").send_keys("zwarte-loper-42")
    browser.find_element(By.ID, "id_password2").send_keys("zwarte-loper-42")
    click(browser, By.CSS_SELECTOR, "main form button[type=submit]")
    wait.until(EC.url_to_be(f"{live_server.url}/me/"))
    assert browser.find_element(By.TAG_NAME, "h1").text == words["my_page"]

    # He cannot come to the evening after next, and says why.
    evening = f"#evening-{reported_evening.pk}"
    browser.find_element(By.CSS_SELECTOR, f"{evening} input[name=note]").send_keys("Op reis")
    click(browser, By.CSS_SELECTOR, f"{evening} button[value=absent]")
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f"{evening} .report-state")))
    assert "Op reis" in browser.find_element(By.CSS_SELECTOR, f"{evening} .report-state").text
    feed_url = browser.find_element(By.CSS_SELECTOR, ".my-season .feed-url").get_attribute("value")

    # The next evening: he is there; the TD pairs and publishes.
    log_in(browser, live_server, language, "wedstrijdleider", "schaak-demo-2026")
    run_evening(browser, live_server, next_evening.date, first_new)
    assert browser.find_element(By.ID, f"p{participant.pk}-present").is_selected()
    pair_and_publish(browser)

    # His page and his phone's calendar show his board, colour and opponent.
    log_in(browser, live_server, language, "speler", "zwarte-loper-42")
    browser.get(f"{live_server.url}/me/")
    pairing = browser.find_element(By.CSS_SELECTOR, ".tonight .my-pairing").text
    game = (
        Game.objects.filter(round__season__slug=SLUG, round__number=first_new)
        .filter(Q(white=participant) | Q(black=participant))
        .first()
    )
    if game is None:  # the odd one out this evening: the bye
        assert pairing
    else:
        opponent = game.black if game.white_id == participant.pk else game.white
        assert pairing.startswith(f"{words['board']} {game.board}")
        assert opponent.member.name in pairing
    with urllib.request.urlopen(feed_url, timeout=10) as answer:
        feed = answer.read().decode()
    assert answer.headers["Content-Type"].startswith("text/calendar")
    if game is not None:  # a calendar app sends no language: the club's own, Dutch
        assert f"Bord {game.board}" in feed.replace("\r\n ", "")

    # The TD enters the results and closes; then opens the reported evening.
    log_in(browser, live_server, language, "wedstrijdleider", "schaak-demo-2026")
    enter_results_and_close(browser, live_server, first_new)
    run_evening(browser, live_server, reported_evening.date, first_new + 1)
    assert browser.find_element(By.ID, f"p{participant.pk}-absent_notice").is_selected()
    report = browser.find_element(By.CSS_SELECTOR, ".member-report[data-report=absent]")
    assert "speler" in report.text or player.name.split()[0] in report.text
    assert "Op reis" in report.text
    pair_and_publish(browser)
    enter_results_and_close(browser, live_server, first_new + 1)

    entry = RoundEntry.objects.get(round__season__slug=SLUG, round__number=first_new + 1,
                                   participant=participant)  # fmt: skip
    assert entry.kind == RoundEntry.Kind.ABSENT_NOTICE

    # His explanation page counts the round as an absence with notice.
    log_in(browser, live_server, language, "speler", "zwarte-loper-42")
    browser.get(f"{live_server.url}/me/")
    click(browser, By.CSS_SELECTOR, ".my-place a")
    wait.until(EC.url_contains(f"/participant/{participant.pk}/"))
    rows = [row.text for row in browser.find_elements(By.CSS_SELECTOR, "main tr") if row.text]
    reported_round = [row for row in rows if row.split()[0] == str(first_new + 1)]
    assert reported_round and all(words["absent_notice"] in row.lower() for row in reported_round)
