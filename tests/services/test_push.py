"""Web Push of a published pairing: each subscribed player is sent "Bord 3, wit, tegen X" on his
own devices by the task worker, never inside the TD's request; nobody else is; a device the push
service no longer knows is deleted, a failing one is kept with its error and tried again alone.
The push services are replaced at the boundary: ``pywebpush.webpush`` itself."""

from __future__ import annotations

import base64
import datetime
import json
import os
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
import pywebpush
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone, translation
from django_tasks_db.models import DBTaskResult

from competition.management.commands.vapid_keys import vapid_key_pair
from competition.models import Game, Member, PushSubscription, Round, RoundEntry
from competition.permissions import td_group
from competition.services import accounts, evening, push
from competition.services.errors import ServiceError
from competition.services.rounds import round_create
from tests.factories import ClubFactory, MemberFactory, ParticipantFactory, SeasonFactory
from tests.tasks import queued, run_worker

pytestmark = pytest.mark.django_db

PRIVATE, PUBLIC = vapid_key_pair()
KEYS = {
    "VAPID_PUBLIC_KEY": PUBLIC,
    "VAPID_PRIVATE_KEY": PRIVATE,
    "VAPID_SUBJECT": "mailto:wedstrijdleider@example.org",
}


def b64(length: int) -> str:
    return base64.urlsafe_b64encode(os.urandom(length)).rstrip(b"=").decode()


class Answer:
    def __init__(self, status: int) -> None:
        self.status_code = status
        self.text = "push service says no"
        self.headers: dict[str, str] = {}


@dataclass
class PushServices:
    """Every webpush call, and the answer a given endpoint gets (an HTTP status that fails)."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    failing: dict[str, int] = field(default_factory=dict)

    def webpush(self, **kwargs: Any) -> Answer:
        endpoint = kwargs["subscription_info"]["endpoint"]
        if endpoint in self.failing:
            status = self.failing[endpoint]
            raise pywebpush.WebPushException("push failed", response=Answer(status))
        self.sent.append({**kwargs, "notice": json.loads(kwargs["data"])})
        return Answer(201)

    def to(self, endpoint: str) -> list[dict[str, str]]:
        return [s["notice"] for s in self.sent if s["subscription_info"]["endpoint"] == endpoint]


@pytest.fixture(autouse=True)
def _english_refusals():
    """The refusals are asserted in the source language; a notice's language is its own."""
    with translation.override("en"):
        yield


@pytest.fixture
def services(monkeypatch) -> PushServices:
    captured = PushServices()
    monkeypatch.setattr(pywebpush, "webpush", captured.webpush)
    return captured


@pytest.fixture
def keys():
    with override_settings(**KEYS):
        yield


@dataclass
class Evening:
    round: Round
    members: dict[str, Member]  # by first name


@pytest.fixture
def evening_of_five(td_user) -> Evening:
    """Five players; the pairing of round 1 drafted (not yet published): 2-1, 4-3, bye 5."""
    season = SeasonFactory(name="Interne", system="points", bye_points=Decimal("1"))
    names = ["Anna Aalders", "Bram Bos", "Cor Claes", "Dirk Dekker", "Eva Evers"]
    players = [
        ParticipantFactory(
            season=season, start_rank=i, member=MemberFactory(club=season.club, name=name)
        )
        for i, name in enumerate(names, start=1)
    ]
    td_user.groups.add(td_group(season.club))
    rnd = round_create(seasons=[season], date=datetime.date(2026, 9, 10))[0]
    evening.pairing_propose(round=rnd, user=td_user)
    return Evening(rnd, {p.member.name.split()[0]: p.member for p in players})


def subscribe(member: Member, endpoint: str, language: str = "") -> PushSubscription:
    if member.user is None:
        member.user = User.objects.create_user(f"user-{member.pk}", password="x" * 12)
        member.save(update_fields=["user"])
    return push.push_subscribe(
        member=member,
        user=member.user,
        endpoint=endpoint,
        p256dh=b64(65),
        auth=b64(16),
        language=language,
    )


def publish(ev: Evening, td_user, on_commit) -> None:
    with on_commit(execute=True):
        evening.round_publish(round=ev.round, user=td_user)


def board_of(ev: Evening, name: str) -> tuple[int, str, str]:
    """(board, colour, opponent) of ``name``, read from the games themselves."""
    member = ev.members[name]
    for game in Game.objects.filter(round=ev.round).select_related(
        "white__member", "black__member"
    ):
        if game.white.member == member:
            return game.board, "wit", game.black.member.name
        if game.black.member == member:
            return game.board, "zwart", game.white.member.name
    raise AssertionError(f"{name} has no board")


# --- sending -------------------------------------------------------------------------------------


def test_publishing_queues_the_push_and_the_worker_tells_each_subscriber_his_board(
    keys, services, evening_of_five, td_user, django_capture_on_commit_callbacks
) -> None:
    ev = evening_of_five
    subscribe(ev.members["Anna"], "https://push.example.org/anna")
    subscribe(ev.members["Cor"], "https://push.example.org/cor-phone")
    subscribe(ev.members["Cor"], "https://push.example.org/cor-laptop")
    subscribe(ev.members["Eva"], "https://push.example.org/eva")

    publish(ev, td_user, django_capture_on_commit_callbacks)

    assert services.sent == []  # never inside the TD's request
    (task,) = queued("push_pairing_published")
    assert task.args_kwargs["kwargs"] == {"round_id": ev.round.pk}
    run_worker()

    board, colour, opponent = board_of(ev, "Anna")
    (anna,) = services.to("https://push.example.org/anna")
    assert anna["body"] == f"Bord {board}, {colour}, tegen {opponent}"
    assert anna["title"] == "Interne, ronde 1: je indeling"
    assert anna["url"] == "/me/" and anna["tag"] == f"pairing-{ev.round.pk}"
    board, colour, opponent = board_of(ev, "Cor")
    for endpoint in ("https://push.example.org/cor-phone", "https://push.example.org/cor-laptop"):
        assert [n["body"] for n in services.to(endpoint)] == [
            f"Bord {board}, {colour}, tegen {opponent}"
        ]
    (eva,) = services.to("https://push.example.org/eva")  # the lowest ranked has the bye
    assert (
        RoundEntry.objects.get(round=ev.round, kind="bye").participant.member == ev.members["Eva"]
    )
    assert eva["body"] == "Je bent deze ronde vrij (bye)."
    assert len(services.sent) == 4  # Bram and Dirk did not subscribe: nothing for them
    sent = services.sent[0]
    assert sent["vapid_private_key"] == PRIVATE
    assert sent["vapid_claims"] == {"sub": "mailto:wedstrijdleider@example.org"}
    assert sent["ttl"] == push.PUSH_TTL_SECONDS
    assert DBTaskResult.objects.get(task_path__endswith="push_pairing_published").status == (
        "SUCCESSFUL"
    )


def test_the_notice_is_in_the_language_of_the_page_he_subscribed_on(
    keys, services, evening_of_five, td_user, django_capture_on_commit_callbacks
) -> None:
    ev = evening_of_five
    subscribe(ev.members["Bram"], "https://push.example.org/bram", language="en")
    publish(ev, td_user, django_capture_on_commit_callbacks)
    run_worker()
    board, colour, opponent = board_of(ev, "Bram")
    english = {"wit": "white", "zwart": "black"}[colour]
    (notice,) = services.to("https://push.example.org/bram")
    assert notice["body"] == f"Board {board}, {english}, against {opponent}"
    assert notice["title"] == "Interne, round 1: your pairing"


def test_nobody_who_did_not_subscribe_gets_a_push(
    keys, services, evening_of_five, td_user, django_capture_on_commit_callbacks
) -> None:
    ev = evening_of_five
    Member.objects.filter(pk=ev.members["Anna"].pk).update(
        email="anna@example.org",
        notify_pairing=True,  # mail, not push
    )
    subscription = subscribe(ev.members["Bram"], "https://push.example.org/bram")
    push.push_unsubscribe(
        member=ev.members["Bram"], user=ev.members["Bram"].user, endpoint=subscription.endpoint
    )
    publish(ev, td_user, django_capture_on_commit_callbacks)
    run_worker()
    assert services.sent == []


def test_anonymising_deletes_his_devices_and_an_anonymised_member_gets_nothing(
    keys, services, evening_of_five, td_user
) -> None:
    ev = evening_of_five
    subscribe(ev.members["Anna"], "https://push.example.org/anna")
    subscribe(ev.members["Bram"], "https://push.example.org/bram")
    accounts.member_anonymise(member=ev.members["Anna"], user=td_user)
    assert list(PushSubscription.objects.values_list("member", flat=True)) == [
        ev.members["Bram"].pk
    ]
    # a device left behind (kept by hand) of a member anonymised meanwhile gets nothing either
    Member.objects.filter(pk=ev.members["Bram"].pk).update(anonymised_at=timezone.now())
    evening.round_publish(round=ev.round, user=td_user)
    assert push.pairing_published_push(round_id=ev.round.pk) == 0
    assert services.sent == []


def test_a_gone_device_is_deleted_and_the_others_still_get_theirs(
    keys, services, evening_of_five, td_user
) -> None:
    ev = evening_of_five
    subscribe(ev.members["Anna"], "https://push.example.org/anna-old")
    subscribe(ev.members["Anna"], "https://push.example.org/anna-new")
    subscribe(ev.members["Cor"], "https://push.example.org/cor-404")
    services.failing = {
        "https://push.example.org/anna-old": 410,
        "https://push.example.org/cor-404": 404,
    }
    evening.round_publish(round=ev.round, user=td_user)

    assert push.pairing_published_push(round_id=ev.round.pk) == 1

    assert [n["body"][:4] for n in services.to("https://push.example.org/anna-new")] == ["Bord"]
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        "https://push.example.org/anna-new"
    ]


def test_a_failing_device_keeps_its_error_and_only_it_is_tried_again(
    keys, services, evening_of_five, td_user, django_capture_on_commit_callbacks, settings
) -> None:
    settings.TASK_ATTEMPTS = 3
    ev = evening_of_five
    subscribe(ev.members["Anna"], "https://push.example.org/anna")
    busy = subscribe(ev.members["Cor"], "https://push.example.org/cor")
    services.failing = {"https://push.example.org/cor": 503}
    publish(ev, td_user, django_capture_on_commit_callbacks)

    run_worker()

    assert len(services.to("https://push.example.org/anna")) == 1
    busy.refresh_from_db()
    assert busy.last_error.startswith("503: push failed") and busy.last_error_at is not None
    (failed,) = DBTaskResult.objects.filter(status="FAILED")
    assert "PushNotDelivered" in failed.traceback
    (retry,) = queued("push_pairing_published")
    assert retry.args_kwargs["kwargs"] == {
        "round_id": ev.round.pk,
        "subscription_ids": [busy.pk],
        "attempt": 2,
    }
    # the push service answers again: the retry sends Cor's, and Anna gets no second one
    services.failing = {}
    DBTaskResult.objects.filter(pk=retry.pk).update(run_after=timezone.now())
    run_worker()
    assert len(services.to("https://push.example.org/cor")) == 1
    assert len(services.to("https://push.example.org/anna")) == 1


def test_a_network_error_is_recorded_and_retried(keys, monkeypatch, evening_of_five, td_user):
    import requests

    ev = evening_of_five
    subscription = subscribe(ev.members["Anna"], "https://push.example.org/anna")

    def unreachable(**kwargs: Any) -> None:
        raise requests.ConnectionError("no route to push.example.org")

    monkeypatch.setattr(pywebpush, "webpush", unreachable)
    evening.round_publish(round=ev.round, user=td_user)
    with pytest.raises(push.PushNotDelivered) as refused:
        push.pairing_published_push(round_id=ev.round.pk)
    assert refused.value.retry_with == {"subscription_ids": [subscription.pk]}
    subscription.refresh_from_db()
    assert "no route to push.example.org" in subscription.last_error


def test_a_withdrawn_pairing_is_not_pushed(keys, services, evening_of_five, td_user) -> None:
    ev = evening_of_five
    subscribe(ev.members["Anna"], "https://push.example.org/anna")
    evening.round_publish(round=ev.round, user=td_user)
    evening.round_unpublish(round=ev.round, user=td_user)
    assert push.pairing_published_push(round_id=ev.round.pk) == 0
    assert services.sent == []


# --- no keys: no offer, nothing queued, nothing sent -------------------------------------------


def test_without_keys_nothing_is_queued_or_sent(
    services, evening_of_five, td_user, django_capture_on_commit_callbacks
) -> None:
    ev = evening_of_five
    with override_settings(**KEYS):
        subscribe(ev.members["Anna"], "https://push.example.org/anna")
    assert not push.push_configured()
    publish(ev, td_user, django_capture_on_commit_callbacks)
    assert queued("push_pairing_published") == []
    assert queued("mail_pairing_published") != []  # the mail goes as before
    assert push.pairing_published_push(round_id=ev.round.pk) == 0
    assert services.sent == []


@pytest.mark.parametrize("missing", sorted(KEYS))
def test_any_missing_key_switches_push_off(missing: str) -> None:
    with override_settings(**{**KEYS, missing: ""}):
        assert not push.push_configured()
    with override_settings(**KEYS):
        assert push.push_configured()


def test_subscribing_without_keys_is_refused(evening_of_five) -> None:
    anna = evening_of_five.members["Anna"]
    with pytest.raises(ServiceError, match="not offered"):
        subscribe(anna, "https://push.example.org/anna")
    assert not PushSubscription.objects.exists()


# --- the member's consent --------------------------------------------------------------------


def test_subscribing_twice_keeps_one_row_with_the_new_keys(keys, evening_of_five) -> None:
    anna = evening_of_five.members["Anna"]
    first = subscribe(anna, "https://push.example.org/anna")
    second = subscribe(anna, "https://push.example.org/anna", language="en")
    assert PushSubscription.objects.get().pk == first.pk == second.pk
    assert PushSubscription.objects.get().p256dh == second.p256dh != first.p256dh
    assert PushSubscription.objects.get().language == "en"


def test_only_the_member_himself_subscribes(keys, evening_of_five, td_user) -> None:
    anna, bram = evening_of_five.members["Anna"], evening_of_five.members["Bram"]
    subscribe(bram, "https://push.example.org/bram")
    for stranger in (bram.user, td_user):
        with pytest.raises(ServiceError, match="your own settings"):
            push.push_subscribe(
                member=anna,
                user=stranger,
                endpoint="https://push.example.org/x",
                p256dh=b64(65),
                auth=b64(16),
            )
        with pytest.raises(ServiceError, match="your own settings"):
            push.push_unsubscribe(
                member=bram, user=td_user, endpoint="https://push.example.org/bram"
            )
    assert list(PushSubscription.objects.values_list("member", flat=True)) == [bram.pk]


@pytest.mark.parametrize(
    ("endpoint", "p256dh", "auth"),
    [
        ("http://push.example.org/plain", b64(65), b64(16)),
        ("javascript:alert(1)", b64(65), b64(16)),
        ("https://push.example.org/" + "x" * 1000, b64(65), b64(16)),
        ("https://push.example.org/short-key", b64(32), b64(16)),
        ("https://push.example.org/no-secret", b64(65), ""),
        ("https://push.example.org/not-base64", b64(65), "!!!!"),
    ],
    # named, not by their random keys: every xdist worker must collect the same test ids
    ids=["plain-http", "javascript", "too-long", "short-key", "no-secret", "not-base64"],
)
def test_what_no_browser_makes_is_refused(keys, evening_of_five, endpoint, p256dh, auth) -> None:
    anna = evening_of_five.members["Anna"]
    subscribe(anna, "https://push.example.org/ok")
    with pytest.raises(ServiceError, match="no usable push subscription"):
        push.push_subscribe(
            member=anna, user=anna.user, endpoint=endpoint, p256dh=p256dh, auth=auth
        )
    assert PushSubscription.objects.count() == 1


def test_one_phone_for_two_clubs_of_one_account(keys, evening_of_five) -> None:
    anna = evening_of_five.members["Anna"]
    subscribe(anna, "https://push.example.org/phone")
    other_club = MemberFactory(
        club=ClubFactory(name="Het Paard", slug="het-paard"), name="Anna Aalders", user=anna.user
    )
    push.push_subscribe(
        member=other_club,
        user=anna.user,
        endpoint="https://push.example.org/phone",
        p256dh=b64(65),
        auth=b64(16),
    )
    assert PushSubscription.objects.filter(endpoint="https://push.example.org/phone").count() == 2
    assert push.push_unsubscribe_all(member=anna, user=anna.user) == 1
    assert list(PushSubscription.objects.values_list("member", flat=True)) == [other_club.pk]


def test_unlinking_the_account_drops_its_devices(keys, evening_of_five, td_user) -> None:
    anna = evening_of_five.members["Anna"]
    subscribe(anna, "https://push.example.org/anna")
    accounts.account_unlink(member=anna, user=td_user)
    assert not PushSubscription.objects.exists()


def test_my_data_lists_my_devices_without_their_keys(keys, evening_of_five) -> None:
    anna = evening_of_five.members["Anna"]
    subscription = subscribe(anna, "https://push.example.org/anna", language="nl")
    (device,) = accounts.member_data(member=anna)["push_subscriptions"]
    assert device["endpoint"] == "https://push.example.org/anna"
    assert device["push_service"] == "push.example.org"
    assert device["language"] == "nl" and device["last_error"] == ""
    assert subscription.p256dh not in json.dumps(device)
    assert subscription.auth not in json.dumps(device)


def test_vapid_keys_prints_a_pair_pywebpush_signs_with(capsys) -> None:
    from py_vapid import Vapid

    call_command("vapid_keys", "--subject", "mailto:td@example.org")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines())
    assert lines["VAPID_SUBJECT"] == "mailto:td@example.org"
    vapid = Vapid.from_string(lines["VAPID_PRIVATE_KEY"])
    public = base64.urlsafe_b64decode(lines["VAPID_PUBLIC_KEY"] + "==")
    assert len(public) == 65 and public[0] == 4
    from cryptography.hazmat.primitives import serialization

    assert (
        vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        == public
    )
