"""Login throttling (django-axes): an account is locked out from one address after
LOGIN_FAILURE_LIMIT wrong passwords, with a translated page saying why and for how long; other
accounts and other addresses still log in, and an admin unlocks the account."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db

HERE = "203.0.113.10"
ELSEWHERE = "198.51.100.20"


def log_in(client: Client, username: str, password: str, address: str = HERE):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def lock_out(client: Client, username: str) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, username, "wrong-password")


def test_the_limits_are_the_documented_defaults() -> None:
    assert settings.AXES_FAILURE_LIMIT == 5
    assert timedelta(minutes=15) == settings.AXES_COOLOFF_TIME
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_wrong_passwords_below_the_limit_leave_the_login_open(client, td_user) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "td", "wrong-password").status_code == 200
    response = log_in(client, "td", "td-pass-12345")
    assert response.status_code == 302 and logged_in(client)


def test_after_the_limit_the_right_password_is_refused_with_the_message(client, td_user) -> None:
    lock_out(client, "td")
    response = log_in(client, "td", "td-pass-12345")
    assert response.status_code == 429
    assert not logged_in(client)
    page = response.content.decode()
    assert 'id="locked-out"' in page
    assert "Te veel mislukte inlogpogingen." in page
    assert "Na 5 verkeerde wachtwoorden" in page and "15 minuten" in page
    attempt = AccessAttempt.objects.get(username="td", ip_address=HERE)
    assert attempt.failures_since_start >= settings.AXES_FAILURE_LIMIT


def test_the_message_in_english(client, td_user) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    lock_out(client, "td")
    page = log_in(client, "td", "td-pass-12345").content.decode()
    assert "Too many failed logins." in page
    assert "After 5 wrong passwords this account cannot log in from here for 15 minutes." in page


def test_another_account_from_the_same_address_still_logs_in(client, td_user, member_user) -> None:
    lock_out(client, "td")
    response = log_in(client, "member", "member-pass-123")
    assert response.status_code == 302 and logged_in(client)


def test_the_same_account_from_another_address_still_logs_in(client, td_user) -> None:
    lock_out(client, "td")
    response = log_in(client, "td", "td-pass-12345", address=ELSEWHERE)
    assert response.status_code == 302 and logged_in(client)


def test_axes_reset_username_unlocks_the_account(client, td_user) -> None:
    lock_out(client, "td")
    assert log_in(client, "td", "td-pass-12345").status_code == 429
    call_command("axes_reset_username", "td")
    response = log_in(client, "td", "td-pass-12345")
    assert response.status_code == 302 and logged_in(client)


def test_deleting_the_attempt_in_the_admin_unlocks_the_account(client, td_user, superuser) -> None:
    lock_out(client, "td")
    assert admin.site.is_registered(AccessAttempt)
    attempt = AccessAttempt.objects.get(username="td")
    staff = Client()
    staff.force_login(superuser)
    listing = staff.get(reverse("admin:axes_accessattempt_changelist"))
    assert listing.status_code == 200 and HERE in listing.content.decode()
    delete = reverse("admin:axes_accessattempt_delete", args=[attempt.pk])
    assert staff.post(delete, {"post": "yes"}).status_code == 302
    assert not AccessAttempt.objects.exists()
    assert log_in(client, "td", "td-pass-12345").status_code == 302


def test_a_successful_login_clears_the_earlier_failures(client, td_user) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "td", "wrong-password")
    assert log_in(client, "td", "td-pass-12345").status_code == 302
    client.logout()
    log_in(client, "td", "wrong-password")
    assert log_in(client, "td", "td-pass-12345").status_code == 302


def test_the_lockout_ends_after_the_cool_off(client, td_user) -> None:
    lock_out(client, "td")
    assert log_in(client, "td", "td-pass-12345").status_code == 429
    cool_off_over = timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    AccessAttempt.objects.filter(username="td").update(attempt_time=cool_off_over)
    response = log_in(client, "td", "td-pass-12345")
    assert response.status_code == 302 and logged_in(client)


def test_one_address_guessing_many_accounts_is_refused_before_any_password_is_checked(
    client: Client, monkeypatch, settings
) -> None:
    """A guesser using a new name each time escapes the per-account lockout; after
    LOGIN_ADDRESS_FAILURE_LIMIT failures his address gets the lockout page and no password is
    hashed any more (the hasher is the costly part of a login), while another address and the
    same account from elsewhere still log in."""
    from django.contrib.auth import hashers
    from django.core.cache import cache

    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4  # the test settings raise it for other tests
    cache.delete(f"clubcomp:login-failures:{HERE}")
    User.objects.create_user("anna", password="right-password-123")
    for attempt in range(4):
        response = log_in(client, f"guess-{attempt}", "wrong-password")
        assert response.status_code == 200  # the login form again, with its error
    hashed: list[str] = []
    real_check = hashers.check_password
    monkeypatch.setattr(
        hashers, "check_password", lambda *a, **k: hashed.append("x") or real_check(*a, **k)
    )
    response = log_in(client, "anna", "right-password-123")
    assert response.status_code == 429
    assert "mislukte inlogpogingen vanaf dit adres" in response.content.decode()
    assert not logged_in(client) and hashed == []
    response = log_in(Client(), "anna", "right-password-123", address=ELSEWHERE)
    assert response.status_code == 302

    cache.delete(f"clubcomp:login-failures:{HERE}")


def test_a_browser_that_logged_in_before_is_not_refused_by_the_address_limit(
    client: Client, settings, td_user
) -> None:
    """A club room shares one public address: after a guesser there used up the address limit,
    the TD's phone (which logged in to his account before) still logs in; a new browser, another
    account and a forged cookie are refused as before, and the per-account lockout still locks
    the TD's account after LOGIN_FAILURE_LIMIT wrong passwords, cookie or not."""
    from django.core.cache import cache

    from competition.security import DEVICE_COOKIE

    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    cache.delete(f"clubcomp:login-failures:{HERE}")
    User.objects.create_user("anna", password="right-password-123")
    phone = client
    assert log_in(phone, "td", "td-pass-12345").status_code == 302
    device = phone.cookies[DEVICE_COOKIE]
    assert device["httponly"] and device["samesite"] == "Lax"
    assert "td" not in device.value.split(":")[0]  # the account's name is not in it
    phone.post(reverse("logout"))
    assert not logged_in(phone)

    guesser = Client()
    for attempt in range(4):
        assert log_in(guesser, f"guess-{attempt}", "wrong-password").status_code == 200
    assert log_in(guesser, "td", "td-pass-12345").status_code == 429
    assert log_in(Client(), "td", "td-pass-12345").status_code == 429  # a new browser
    forged = Client()
    forged.cookies[DEVICE_COOKIE] = device.value[:-2] + "xx"
    assert log_in(forged, "td", "td-pass-12345").status_code == 429
    assert log_in(phone, "anna", "right-password-123").status_code == 429  # not its account

    response = log_in(phone, "td", "td-pass-12345")
    assert response.status_code == 302 and logged_in(phone)
    phone.post(reverse("logout"))

    # The per-account lockout still counts the known browser's wrong passwords.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert log_in(phone, "td", "wrong-password").status_code in (200, 429)
    response = log_in(phone, "td", "td-pass-12345")
    assert response.status_code == 429 and not logged_in(phone)
    assert "Te veel mislukte inlogpogingen." in response.content.decode()

    cache.delete(f"clubcomp:login-failures:{HERE}")
