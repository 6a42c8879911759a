"""The secret part of a member's private calendar address (``Member.feed_token``).

Made on first need; a new one replaces it, and the old address then answers 404.
"""

from __future__ import annotations

import secrets

from django.db import transaction

from competition.models import Member


def _new_token() -> str:
    return secrets.token_urlsafe(32)  # 43 characters, 256 bits


@transaction.atomic
def member_feed_token(*, member: Member) -> str:
    """The member's calendar token, made now if he has none yet."""
    locked = Member.objects.select_for_update().get(pk=member.pk)
    if not locked.feed_token:
        locked.feed_token = _new_token()
        locked.save(update_fields=["feed_token"])
    member.feed_token = locked.feed_token
    return locked.feed_token


@transaction.atomic
def member_feed_token_renew(*, member: Member) -> str:
    """A new calendar token for the member: his old calendar address stops working."""
    locked = Member.objects.select_for_update().get(pk=member.pk)
    locked.feed_token = _new_token()
    locked.save(update_fields=["feed_token"])
    member.feed_token = locked.feed_token
    return locked.feed_token
