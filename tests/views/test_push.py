"""The member's push choice on his settings page, the endpoints its script posts to (his own
members only, logged in, with the CSRF token), the member's app (manifest and service worker),
and privacy: a device's push address never reaches a public page, the API or an export."""

from __future__ import annotations

import base64
import json
import os

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client, override_settings
from django.urls import reverse

from competition.models import Member, PushSubscription
from competition.services import push
from tests.addresses import club_reverse
from tests.factories import MemberFactory
from tests.services.test_push import KEYS
from tests.views.member_club import english, member_club
from tests.views.test_private_data_walk import (  # noqa: F401 - planted is a fixture
    LOGIN,
    READERS,
    Planted,
    _leaks,
    _routes,
    _text,
    addresses,
    planted,
)

pytestmark = pytest.mark.django_db

MY_PAGE = club_reverse("competition:my_page")
SUBSCRIBE = club_reverse("competition:push_subscribe")
UNSUBSCRIBE = club_reverse("competition:push_unsubscribe")
STOP = club_reverse("competition:push_stop")
ENDPOINT = "https://fcm.googleapis.example/wp/anna-phone-q7"


def b64(length: int) -> str:
    return base64.urlsafe_b64encode(os.urandom(length)).rstrip(b"=").decode()


def subscription(member: Member, endpoint: str = ENDPOINT) -> dict[str, object]:
    return {"member": member.pk, "endpoint": endpoint, "keys": {"p256dh": b64(65), "auth": b64(16)}}


def post_json(client: Client, url: str, body: object, **extra: str):
    return client.post(url, json.dumps(body), content_type="application/json", **extra)


@pytest.fixture
def keys():
    with override_settings(**KEYS):
        yield


@pytest.fixture
def anna():
    return member_club()


# --- the settings page -------------------------------------------------------------------------


def test_with_keys_the_page_offers_push_beside_the_mails(client, keys, anna) -> None:
    page = english(client, anna.user).get(MY_PAGE).content.decode()
    member = anna.me.member
    assert f'data-member="{member.pk}" data-devices="0"' in page
    assert "Notify me by push on this phone when the pairing is published" in page
    assert page.index("E-mail me when the pairing is published") < page.index("Notify me by push")
    assert f'data-public-key="{KEYS["VAPID_PUBLIC_KEY"]}"' in page
    assert f'data-subscribe="{SUBSCRIBE}"' in page and "/static/js/push." in page
    assert "/manifest.webmanifest?app=member" in page and "/static/js/app." in page
    assert "push-stop" not in page  # no device yet: nothing to stop


def test_the_page_says_how_many_devices_and_stops_them_all(client, keys, anna) -> None:
    english(client, anna.user)
    for endpoint in (ENDPOINT, ENDPOINT + "-tablet"):
        assert (
            post_json(client, SUBSCRIBE, subscription(anna.me.member, endpoint)).status_code == 200
        )
    page = client.get(MY_PAGE).content.decode()
    assert "Push notifications go to 2 devices." in page
    assert 'data-devices="2"' in page
    assert ENDPOINT not in page  # the page counts the devices, it never shows their addresses

    response = client.post(STOP, {"member": anna.me.member.pk})
    assert response.status_code == 302 and response["Location"].endswith("#settings")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Push notifications stopped on 2 devices."
    ]
    assert not PushSubscription.objects.exists()


def test_without_keys_members_see_no_push_and_only_staff_are_told_why(client, anna) -> None:
    page = english(client, anna.user).get(MY_PAGE).content.decode()
    assert "push-choice" not in page and "/static/js/push." not in page
    assert "VAPID" not in page and "Notify me by push" not in page
    assert "/static/js/app." in page  # still installable
    User.objects.filter(pk=anna.user.pk).update(is_staff=True)
    page = client.get(MY_PAGE).content.decode()
    assert "push-choice" not in page
    assert "Push notifications are not offered: set VAPID_PUBLIC_KEY" in page


def test_without_keys_subscribing_is_refused(client, anna) -> None:
    response = post_json(english(client, anna.user), SUBSCRIBE, subscription(anna.me.member))
    assert response.status_code == 400
    assert response.json() == {"error": "Push notifications are not offered on this site."}
    assert not PushSubscription.objects.exists()


# --- subscribing and unsubscribing ---------------------------------------------------------------


def test_the_member_subscribes_this_phone_in_the_pages_language(client, keys, anna) -> None:
    response = post_json(english(client, anna.user), SUBSCRIBE, subscription(anna.me.member))
    assert response.status_code == 200
    assert response.json() == {
        "subscribed": True,
        "message": "This phone gets push notifications.",
    }
    stored = PushSubscription.objects.get()
    assert (stored.member, stored.endpoint, stored.language) == (anna.me.member, ENDPOINT, "en")

    response = post_json(client, UNSUBSCRIBE, {"member": anna.me.member.pk, "endpoint": ENDPOINT})
    assert response.status_code == 200 and response.json()["subscribed"] is False
    assert not PushSubscription.objects.exists()
    # again (a double tap, another tab): nothing left to delete, no error
    response = post_json(client, UNSUBSCRIBE, {"member": anna.me.member.pk, "endpoint": ENDPOINT})
    assert response.status_code == 200


def test_a_double_submit_stores_one_device(client, keys, anna) -> None:
    english(client, anna.user)
    body = subscription(anna.me.member)
    assert post_json(client, SUBSCRIBE, body).status_code == 200
    assert post_json(client, SUBSCRIBE, body).status_code == 200
    assert PushSubscription.objects.count() == 1


def test_anonymous_is_sent_to_login_and_nothing_is_stored(client, keys, anna) -> None:
    for url in (SUBSCRIBE, UNSUBSCRIBE, STOP):
        response = post_json(client, url, subscription(anna.me.member))
        assert response.status_code == 302 and response["Location"].startswith(LOGIN), url
    assert not PushSubscription.objects.exists()


def test_only_posts(client, keys, anna) -> None:
    english(client, anna.user)
    for url in (SUBSCRIBE, UNSUBSCRIBE, STOP):
        assert client.get(url).status_code == 405


def test_another_members_subscription_is_refused(client, keys, anna) -> None:
    bram = anna.others[0].member
    bram_user = User.objects.create_user("bram", password="bram-pass-12345")
    Member.objects.filter(pk=bram.pk).update(user=bram_user)
    english(Client(), bram_user)
    push.push_subscribe(
        member=Member.objects.get(pk=bram.pk),
        user=bram_user,
        endpoint=ENDPOINT + "-bram",
        p256dh=b64(65),
        auth=b64(16),
    )
    english(client, anna.user)
    # Anna posts for Bram, for a member of no account, for no member at all
    for member_id in (bram.pk, anna.others[1].member_id, 999999, None, "x"):
        body = {**subscription(anna.me.member), "member": member_id}
        assert post_json(client, SUBSCRIBE, body).status_code == 403, member_id
    unsubscribe = {"member": bram.pk, "endpoint": ENDPOINT + "-bram"}
    assert post_json(client, UNSUBSCRIBE, unsubscribe).status_code == 403
    assert client.post(STOP, {"member": bram.pk}).status_code == 403
    # the TD of the club is no exception
    english(client, anna.td)
    assert post_json(client, SUBSCRIBE, subscription(anna.me.member)).status_code == 403
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [ENDPOINT + "-bram"]


def test_a_member_of_another_club_is_not_his(client, keys, anna) -> None:
    from tests.factories import ClubFactory

    stranger = MemberFactory(club=ClubFactory(name="Het Paard", slug="het-paard"))
    english(client, anna.user)
    body = {**subscription(anna.me.member), "member": stranger.pk}
    assert post_json(client, SUBSCRIBE, body).status_code == 403
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        [1, 2],
        {"endpoint": ENDPOINT, "keys": {"p256dh": b64(65), "auth": b64(16)}},  # no member
    ],
)
def test_what_is_not_a_subscription_for_a_member_is_refused(client, keys, anna, body) -> None:
    english(client, anna.user)
    response = client.post(
        SUBSCRIBE,
        body if isinstance(body, str) else json.dumps(body),
        content_type="application/json",
    )
    assert response.status_code == 403
    assert not PushSubscription.objects.exists()


def test_a_broken_subscription_is_refused_with_the_reason(client, keys, anna) -> None:
    english(client, anna.user)
    body = subscription(anna.me.member)
    body["keys"] = {"p256dh": "short", "auth": b64(16)}
    response = post_json(client, SUBSCRIBE, body)
    assert response.status_code == 400
    assert response.json()["error"] == (
        "This browser gave no usable push subscription; nothing was saved."
    )
    body = {**subscription(anna.me.member), "keys": "none"}
    assert post_json(client, SUBSCRIBE, body).status_code == 400
    assert not PushSubscription.objects.exists()


def test_the_csrf_token_is_required(keys, anna) -> None:
    client = Client(enforce_csrf_checks=True)
    english(client, anna.user)
    assert post_json(client, SUBSCRIBE, subscription(anna.me.member)).status_code == 403
    assert not PushSubscription.objects.exists()
    client.get(MY_PAGE)  # the page sets the CSRF cookie; push.js sends the form's token
    token = client.cookies["csrftoken"].value
    response = post_json(client, SUBSCRIBE, subscription(anna.me.member), HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200
    assert PushSubscription.objects.count() == 1


# --- the member's app ----------------------------------------------------------------------------


def test_the_members_manifest_starts_at_his_page(client) -> None:
    body = client.get(reverse("manifest") + "?app=member").json()
    assert body["start_url"] == body["id"] == "/me/"
    assert body["display"] == "standalone" and body["scope"] == "/"
    td = client.get(reverse("manifest")).json()
    assert td["start_url"] == "/td/" and td["id"] != body["id"]


def test_the_service_worker_shows_a_push_and_opens_the_members_page(client) -> None:
    script = client.get(reverse("service_worker")).content.decode()
    assert 'addEventListener("push"' in script
    assert 'addEventListener("notificationclick"' in script
    assert '"member_page": "/me/"' in script
    assert "showNotification" in script and "openWindow" in script


# --- privacy -------------------------------------------------------------------------------------


@pytest.fixture
def with_device(planted: Planted, settings) -> Planted:  # noqa: F811 - the imported fixture
    """The demo member "lid" has subscribed his phone: its push address and keys are his."""
    for key, value in KEYS.items():
        setattr(settings, key, value)
    lid = Member.objects.get(user__username="lid")
    endpoint = planted.plant("https://fcm.googleapis.example/wp/lid-device-q7", "lid")
    p256dh, auth = planted.plant(b64(65)), planted.plant(b64(16))
    push.push_subscribe(member=lid, user=lid.user, endpoint=endpoint, p256dh=p256dh, auth=auth)
    return planted


@pytest.mark.parametrize("reader", READERS)
def test_a_push_address_reaches_no_page_api_or_export_of_another_reader(
    client: Client, with_device: Planted, reader: str
) -> None:
    username = READERS[reader]
    if username:
        client.force_login(User.objects.get(username=username))
    found: list[str] = []
    answered = 0
    for urls in addresses(with_device):
        for index, url in enumerate(urls):
            response = client.get(url)
            answered += response.status_code == 200
            found += [
                f"{url} shows {value!r} to {reader}"
                for value in _leaks(with_device, url, _text(response), username)
            ]
            if (
                index == 0
                and response.status_code == 302
                and response["Location"].startswith(LOGIN)
            ):
                break
    assert not found, "\n".join(found)
    assert answered > 40


def test_the_tds_exports_and_his_data_download_carry_no_push_keys(
    client: Client, with_device: Planted
) -> None:
    secret = PushSubscription.objects.get()
    values = [secret.endpoint.casefold(), secret.p256dh.casefold(), secret.auth.casefold()]
    client.force_login(User.objects.get(username="acct-td-q7"))
    downloads = [
        pattern.name
        for namespace, pattern in _routes()
        if namespace == "competition:" and str(pattern.pattern).startswith("files/seasons/")
    ]
    assert len(downloads) >= 4
    from competition.clubs import club_url
    from competition.models import Season

    for season in Season.objects.filter(club__slug="sc-de-toren"):
        for name in downloads:
            url = club_url("sc-de-toren", f"competition:{name}", kwargs={"slug": season.slug})
            response = client.get(url)
            assert response.status_code == 200, url
            text = _text(response)
            assert not [v for v in values if v in text], url
    # his own download lists the device, without its keys
    client.force_login(User.objects.get(username="lid"))
    text = _text(client.get(reverse("competition:my_data")))
    assert values[0] in text and values[1] not in text and values[2] not in text
