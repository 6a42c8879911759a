"""The member's push choice on a phone (Debian's Chromium): static/js/push.js subscribes this
device through the service worker with the site's VAPID key and posts the subscription; unticking
withdraws it. A headless browser has no push service, so the page's ``PushManager`` is replaced
by one that hands out a fixed subscription (and records the key it was asked with); the
notification permission is granted as a member's tap on "Allow" would."""

from __future__ import annotations

import base64
import json
import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from competition.models import Member, PushSubscription
from tests.browser.test_evening import tap
from tests.browser.test_member_evening import log_in
from tests.conftest import GUNICORN_LIVE_SERVER
from tests.services.test_push import KEYS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(GUNICORN_LIVE_SERVER, reason="the VAPID keys are set in this process"),
]

ENDPOINT = "https://push.example.test/wp/lid-phone"


def b64(length: int) -> str:
    return base64.urlsafe_b64encode(os.urandom(length)).rstrip(b"=").decode()


FAKE_PUSH = """
(function () {
  var kept = JSON.parse(sessionStorage.getItem("fake-push") || "null");
  function made(data) {
    return { endpoint: data.endpoint, toJSON: function () { return data; },
             unsubscribe: function () { sessionStorage.removeItem("fake-push");
                                        sessionStorage.setItem("fake-push-ended", "yes");
                                        kept = null; return Promise.resolve(true); } };
  }
  if (!window.PushManager) { return; }
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(kept ? made(kept) : null);
  };
  PushManager.prototype.subscribe = function (options) {
    var key = new Uint8Array(options.applicationServerKey);
    kept = %s;
    kept.asked = { userVisibleOnly: options.userVisibleOnly, keyLength: key.length, first: key[0] };
    sessionStorage.setItem("fake-push", JSON.stringify(kept));
    return Promise.resolve(made(kept));
  };
})();
"""


def test_ticking_push_subscribes_this_phone_and_unticking_withdraws_it(
    browser, live_server, demo_club_committed, settings
) -> None:
    for key, value in KEYS.items():
        setattr(settings, key, value)
    subscription = {"endpoint": ENDPOINT, "keys": {"p256dh": b64(65), "auth": b64(16)}}
    script = browser.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_PUSH % json.dumps(subscription)}
    )
    browser.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": live_server.url, "permissions": ["notifications"]}
    )
    try:
        subscribe_and_withdraw(browser, live_server, subscription)
    finally:  # the browser serves the other tests: without the stand-in and the permission
        browser.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]}
        )
        browser.execute_cdp_cmd("Browser.resetPermissions", {})


def subscribe_and_withdraw(browser, live_server, subscription: dict) -> None:
    log_in(browser, live_server, "en", "lid", "schaak-demo-2026")
    lid = Member.objects.get(user__username="lid")
    browser.get(f"{live_server.url}/me/")
    wait = WebDriverWait(browser, 15)
    choice = wait.until(
        lambda d: next(
            (e for e in d.find_elements(By.CSS_SELECTOR, ".push-choice") if e.is_displayed()), None
        )
    )
    state = choice.find_element(By.CSS_SELECTOR, ".push-state")
    wait.until(lambda d: state.text == "This phone gets no push notifications.")
    toggle = choice.find_element(By.CSS_SELECTOR, "[data-push-toggle]")
    assert not toggle.is_selected()

    tap(browser, toggle)
    wait.until(lambda d: state.text == "This phone gets push notifications.")
    stored = PushSubscription.objects.get()
    assert (stored.member_id, stored.endpoint, stored.language) == (lid.pk, ENDPOINT, "en")
    assert stored.p256dh == subscription["keys"]["p256dh"]
    asked = browser.execute_script('return JSON.parse(sessionStorage.getItem("fake-push")).asked')
    assert asked == {"userVisibleOnly": True, "keyLength": 65, "first": 4}  # the VAPID key

    browser.refresh()  # the page remembers that this phone is subscribed
    choice = wait.until(
        lambda d: next(
            (e for e in d.find_elements(By.CSS_SELECTOR, ".push-choice") if e.is_displayed()), None
        )
    )
    toggle = choice.find_element(By.CSS_SELECTOR, "[data-push-toggle]")
    wait.until(lambda d: toggle.is_selected())
    assert "Push notifications go to 1 device." in browser.page_source

    tap(browser, toggle)
    state = choice.find_element(By.CSS_SELECTOR, ".push-state")
    wait.until(lambda d: state.text == "This phone gets no push notifications.")
    assert not PushSubscription.objects.exists()
    assert browser.execute_script('return sessionStorage.getItem("fake-push-ended")') == "yes"
