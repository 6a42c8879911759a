"""Member accounts on a 360 px phone (Debian's Chromium): the TD invites a member on the members
page, the member opens the link, chooses a username and password and is logged in; the password
reset pages. Every page: no sideways scrolling, 44 px tap targets, no serious or critical
accessibility violations."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from competition.management.commands.seed_demo import DEMO_CLUB_SLUG
from competition.models import Member
from tests.app_servers import sent_mail
from tests.browser.test_evening import click
from tests.browser.test_phone_pages import check_page, log_in, report
from tests.tasks import run_worker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "interne-2026-2027"
SMALL_PHONE = (360, 740)


def test_invite_and_accept_on_a_phone(browser, live_server, demo_club_committed) -> None:
    browser.set_window_size(*SMALL_PHONE)
    wait = WebDriverWait(browser, 15)
    problems: dict[str, list[str]] = {}
    player = (
        Member.objects.filter(participations__season__slug=SLUG, user__isnull=True)
        .order_by("pk")
        .first()
    )
    log_in(browser, live_server)
    click(browser, By.CSS_SELECTOR, f"a[href='/{DEMO_CLUB_SLUG}/td/{SLUG}/members/']")
    wait.until(EC.url_contains("/members/"))
    row = f"#member-{player.pk}"
    click(browser, By.CSS_SELECTOR, f"{row} summary")
    check_page(browser, "", live_server, problems)
    browser.find_element(By.ID, f"invite-email-{player.pk}").send_keys("speler@example.org")
    click(browser, By.CSS_SELECTOR, f"{row} form[action$='/invite/'] button")
    link_field = wait.until(EC.presence_of_element_located((By.ID, "invitation-link")))
    link = link_field.get_attribute("value")
    check_page(browser, "", live_server, problems)
    assert re.fullmatch(r"http://[^/]+/account/invite/[\w-]+/", link), link
    # The mail is queued: the worker (in this process, on the database the server writes to)
    # sends it.
    run_worker()
    # sent by this process or, when the server sent it itself, by gunicorn (the parity stage)
    sent = [(m.to, m.body) for m in mail.outbox] + sent_mail(getattr(live_server, "mail_dir", None))
    assert [to for to, _body in sent] == [["speler@example.org"]]
    assert link in sent[0][1]

    # The member, on his own phone (logged out), makes his account.
    browser.delete_all_cookies()
    browser.get(link)
    check_page(browser, "", live_server, problems)
    browser.find_element(By.ID, "id_username").send_keys("nieuwlid")
    browser.find_element(By.ID, "id_password1").send_keys("zwarte-loper-42")
    browser.find_element(By.ID, "id_password2").send_keys("zwarte-loper-42")
    click(browser, By.CSS_SELECTOR, "main form button[type=submit]")
    wait.until(lambda driver: "/account/invite/" not in driver.current_url)
    logout = browser.find_element(By.CSS_SELECTOR, ".navbar form button")  # in the closed menu
    assert "nieuwlid" in logout.get_attribute("textContent")
    player.refresh_from_db()
    assert player.user is not None and player.user.username == "nieuwlid"

    # The same link again says it was used.
    browser.get(link)
    assert "al gebruikt" in browser.find_element(By.CSS_SELECTOR, "main").text
    check_page(browser, "", live_server, problems)

    browser.delete_all_cookies()
    for path in ("/login/", "/account/password-reset/"):
        check_page(browser, path, live_server, problems)
    assert not problems, report(problems)
