"""Web Push: a member told his pairing on his phone ("Bord 3, wit, tegen X"), by his own choice.

A member gives his consent on his settings page, one device at a time: the device's browser
makes a push subscription with the site's VAPID public key (static/js/push.js) and
:func:`push_subscribe` stores it; withdrawing it (:func:`push_unsubscribe`, or
:func:`push_unsubscribe_all` for every device) deletes it. A device without a row gets nothing.

Publishing a pairing queues :func:`pairing_push_queue`'s task once the transaction commits;
the worker runs :func:`pairing_published_push`, which sends each subscribed player his board
through ``pywebpush.webpush``, in the language of the page he subscribed on (else the club's).
A device the push service no longer knows (404, 410) is deleted; any other failure is kept on
its row (``last_error``) and the task tries those devices again later, and only those.

Without the three VAPID settings (``VAPID_PUBLIC_KEY``, ``VAPID_PRIVATE_KEY``,
``VAPID_SUBJECT``) push is not offered and nothing is queued or sent.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from collections.abc import Iterable
from urllib.parse import urlsplit

import pywebpush  # type: ignore[import-untyped]  # no type hints of its own
import requests
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from clubcomp.addresses import site_url
from competition.models import Game, Member, PushSubscription, Round, RoundEntry
from competition.presentation.labels import colour_label
from competition.selectors.common import member_public_name
from competition.services.background import after_commit
from competition.services.errors import ServiceError

logger = logging.getLogger(__name__)

# How long a push service keeps a notice for a phone that is off: a pairing is news for the
# evening only.
PUSH_TTL_SECONDS = 6 * 60 * 60
PUSH_TIMEOUT_SECONDS = 10
# The answers of a push service that mean the subscription is gone for good (RFC 8030 §7.3).
GONE_STATUSES = frozenset({404, 410})
ENDPOINT_MAX_LENGTH = 1000
P256DH_BYTES = 65  # an uncompressed P-256 point
AUTH_BYTES = 16


class PushNotDelivered(Exception):
    """Some devices could not be reached; ``retry_with`` narrows the task's next attempt to
    them (competition.tasks.retried)."""

    def __init__(self, subscription_ids: list[int]) -> None:
        super().__init__(f"push not delivered to subscriptions {subscription_ids}")
        self.retry_with = {"subscription_ids": subscription_ids}


def push_configured() -> bool:
    """Whether this site can send Web Push: all three VAPID settings are set."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY and settings.VAPID_SUBJECT)


# --- the member's consent ----------------------------------------------------------------------


def _require_own(member: Member, user: AbstractBaseUser | AnonymousUser) -> None:
    if not (user.is_authenticated and member.user_id is not None and member.user_id == user.pk):
        raise ServiceError(_("You can only change your own settings."))


def _key_bytes(text: str, length: int) -> bool:
    """Whether ``text`` is base64url (padded or not) of exactly ``length`` bytes."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(raw) == length


def _valid_endpoint(endpoint: str) -> bool:
    parts = urlsplit(endpoint)
    return (
        0 < len(endpoint) <= ENDPOINT_MAX_LENGTH
        and parts.scheme == "https"
        and bool(parts.hostname)
        and not any(c.isspace() for c in endpoint)
    )


@transaction.atomic
def push_subscribe(
    *,
    member: Member,
    user: AbstractBaseUser | AnonymousUser,
    endpoint: str,
    p256dh: str,
    auth: str,
    language: str = "",
) -> PushSubscription:
    """Store the member's consent for one device: its push subscription (the endpoint and keys
    its browser gave), to be sent his pairing in ``language`` (the page's).

    Only the member himself, only when push is offered, never for an anonymised member; the
    subscription must be what a browser makes (an https endpoint, a P-256 key and a 16-byte
    secret). Subscribing the same device again renews its keys (a double tap stores one row).
    Raises :class:`ServiceError` otherwise; nothing changes then.
    """
    _require_own(member, user)
    if not push_configured():
        raise ServiceError(_("Push notifications are not offered on this site."))
    if not _valid_endpoint(endpoint) or not (
        _key_bytes(p256dh, P256DH_BYTES) and _key_bytes(auth, AUTH_BYTES)
    ):
        raise ServiceError(_("This browser gave no usable push subscription; nothing was saved."))
    locked = Member.objects.select_for_update().get(pk=member.pk)  # one subscribe at a time
    if locked.anonymised_at is not None:
        raise ServiceError(_("You can only change your own settings."))
    known = {code for code, _name in settings.LANGUAGES}
    subscription, _made = PushSubscription.objects.update_or_create(
        member=locked,
        endpoint=endpoint,
        defaults={
            "p256dh": p256dh,
            "auth": auth,
            "language": language if language in known else "",
            "last_error": "",
            "last_error_at": None,
        },
    )
    return subscription


@transaction.atomic
def push_unsubscribe(
    *, member: Member, user: AbstractBaseUser | AnonymousUser, endpoint: str
) -> int:
    """Withdraw the member's consent for one device (its endpoint); the number of rows deleted
    (0 when that device was not subscribed: unsubscribing twice is no error)."""
    _require_own(member, user)
    deleted, _rows = PushSubscription.objects.filter(member=member, endpoint=endpoint).delete()
    return deleted


@transaction.atomic
def push_unsubscribe_all(*, member: Member, user: AbstractBaseUser | AnonymousUser) -> int:
    """Withdraw the member's consent on every device; the number of devices."""
    _require_own(member, user)
    deleted, _rows = PushSubscription.objects.filter(member=member).delete()
    return deleted


# --- sending -----------------------------------------------------------------------------------


def pairing_push_queue(*, round_id: int) -> None:
    """Queue the push of a published pairing once the transaction commits (when push is
    configured; otherwise nothing)."""
    if push_configured():
        after_commit("push_pairing_published", round_id=round_id)


def _language(subscription: PushSubscription) -> str:
    return subscription.language or settings.LANGUAGE_CODE


def _pairing_lines(round: Round) -> dict[int, list[tuple[str, str, int]]]:
    """Per member id: his pairing of ``round`` as (colour code or "", opponent name, board),
    with "" and board 0 for a bye."""
    season = round.season
    lines: dict[int, list[tuple[str, str, int]]] = {}
    games = Game.objects.filter(round=round).select_related("white__member", "black__member")
    for game in games:
        for participant, opponent, colour in (
            (game.white, game.black, "w"),
            (game.black, game.white, "b"),
        ):
            name = member_public_name(member=opponent.member, season=season)
            lines.setdefault(participant.member_id, []).append((colour, name, game.board))
    byes = RoundEntry.objects.filter(round=round, kind=RoundEntry.Kind.BYE).select_related(
        "participant"
    )
    for entry in byes:
        lines.setdefault(entry.participant.member_id, []).append(("", "", 0))
    return lines


def pairing_notice(
    *, round: Round, colour: str, opponent: str, board: int, language: str
) -> dict[str, str]:
    """The notice of one player's pairing, in ``language``: its title, its text ("Bord 3, wit,
    tegen X", or the bye), the page it opens and a tag (a later notice of the same round
    replaces it on the phone)."""
    with translation.override(language):
        title = _("%(season)s, round %(round)s: your pairing") % {
            "season": round.season.name,
            "round": round.number,
        }
        if board:
            body = _("Board %(board)s, %(colour)s, against %(opponent)s") % {
                "board": board,
                "colour": colour_label(colour, language),
                "opponent": opponent,
            }
        else:
            body = _("You have a bye this round.")
    return {
        "title": title,
        "body": body,
        "url": site_url("competition:my_page"),
        "tag": f"pairing-{round.pk}",
    }


def _send(subscription: PushSubscription, notice: dict[str, str]) -> bool | None:
    """Send ``notice`` to one device: True when sent, None when the device is gone (its row
    is deleted), False when it failed otherwise (the error is kept on its row)."""
    try:
        pywebpush.webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(notice, ensure_ascii=False),
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=PUSH_TTL_SECONDS,
            timeout=PUSH_TIMEOUT_SECONDS,
        )
        return True
    except pywebpush.WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE_STATUSES:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            return None
        problem = f"{status or '-'}: {error.message}"
    except (requests.RequestException, ValueError, TypeError) as error:
        problem = f"{type(error).__name__}: {error}"
    PushSubscription.objects.filter(pk=subscription.pk).update(
        last_error=problem[:500], last_error_at=timezone.now()
    )
    logger.warning("push to subscription %s failed: %s", subscription.pk, problem)
    return False


def pairing_published_push(*, round_id: int, subscription_ids: Iterable[int] | None = None) -> int:
    """Push each subscribed player of the published round his board, colour and opponent (or
    his bye), on every device he subscribed; the number of notices sent. ``subscription_ids``
    limits it to those devices (a retry). Nothing when push is not configured or the pairing
    was withdrawn meanwhile. Raises :class:`PushNotDelivered` naming the devices that failed
    (not gone), after trying every device."""
    if not push_configured():
        return 0
    round = Round.objects.select_related("season").filter(pk=round_id).first()
    if round is None or not round.is_published:
        return 0
    lines = _pairing_lines(round)
    subscriptions = PushSubscription.objects.filter(
        member_id__in=lines, member__anonymised_at__isnull=True
    ).order_by("pk")
    if subscription_ids is not None:
        subscriptions = subscriptions.filter(pk__in=list(subscription_ids))
    sent, failed = 0, []
    for subscription in subscriptions:
        for colour, opponent, board in lines[subscription.member_id]:
            notice = pairing_notice(
                round=round,
                colour=colour,
                opponent=opponent,
                board=board,
                language=_language(subscription),
            )
            outcome = _send(subscription, notice)
            if outcome is None:
                break  # the device is gone
            if outcome:
                sent += 1
            else:
                failed.append(subscription.pk)
                break
    if failed:
        raise PushNotDelivered(failed)
    return sent


__all__ = [
    "PushNotDelivered",
    "pairing_notice",
    "pairing_published_push",
    "pairing_push_queue",
    "push_configured",
    "push_subscribe",
    "push_unsubscribe",
    "push_unsubscribe_all",
]
