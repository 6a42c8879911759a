"""The member's consent to Web Push, one device at a time (competition.services.push).

- ``push_subscribe``: static/js/push.js posts the subscription the browser made (JSON, with the
  page's CSRF token), after the member ticked "notify me by push" on his settings page;
- ``push_unsubscribe``: the same device withdraws it (JSON);
- ``push_stop``: a plain form, "stop on every device", which works without JavaScript.

Each is for the logged-in member's own members only (403 for another's), and refused with
the service's words (400) when push is not offered or the subscription is not one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from competition.models import Member
from competition.permissions import AuthenticatedRequest
from competition.selectors import members as members_selectors
from competition.selectors.push import push_device_counts
from competition.services import push
from competition.services.errors import ServiceError
from competition.views.actions import service_done

MAX_BODY = 4096  # a subscription is a few hundred bytes


def push_settings(request: HttpRequest, members: Sequence[Member]) -> dict[str, Any]:
    """What the settings page shows of push: whether it is offered (only with the VAPID keys),
    the public key the browser subscribes with, each member's number of devices, and for site
    staff only the reason it is not offered."""
    offered = push.push_configured()
    return {
        "offered": offered,
        "public_key": settings.VAPID_PUBLIC_KEY if offered else "",
        "devices": push_device_counts(member_ids=[m.pk for m in members]) if offered else {},
        "staff_note": not offered and bool(getattr(request.user, "is_staff", False)),
    }


def _own_member(request: AuthenticatedRequest, member_id: object) -> Member:
    member = next(
        (
            m
            for m in members_selectors.user_members(user=request.user)
            if str(m.pk) == str(member_id)
        ),
        None,
    )
    if member is None:
        raise PermissionDenied(_("You can only change your own settings."))
    return member


def _posted(request: HttpRequest) -> dict[str, Any]:
    """The posted JSON object, or {} for anything else."""
    if len(request.body) > MAX_BODY:
        return {}
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return {}
    return body if isinstance(body, dict) else {}


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _refused(error: ServiceError) -> JsonResponse:
    return JsonResponse({"error": str(error)}, status=400)


@require_POST
@login_required
def push_subscribe(request: AuthenticatedRequest) -> HttpResponse:
    body = _posted(request)
    member = _own_member(request, body.get("member"))
    keys = body.get("keys")
    if not isinstance(keys, dict):
        keys = {}
    try:
        push.push_subscribe(
            member=member,
            user=request.user,
            endpoint=_text(body.get("endpoint")),
            p256dh=_text(keys.get("p256dh")),
            auth=_text(keys.get("auth")),
            language=request.LANGUAGE_CODE,
        )
    except ServiceError as error:
        return _refused(error)
    return JsonResponse({"subscribed": True, "message": _("This phone gets push notifications.")})


@require_POST
@login_required
def push_unsubscribe(request: AuthenticatedRequest) -> HttpResponse:
    body = _posted(request)
    member = _own_member(request, body.get("member"))
    try:
        push.push_unsubscribe(
            member=member, user=request.user, endpoint=_text(body.get("endpoint"))
        )
    except ServiceError as error:
        return _refused(error)
    return JsonResponse(
        {"subscribed": False, "message": _("This phone gets no push notifications.")}
    )


@require_POST
@login_required
def push_stop(request: AuthenticatedRequest) -> HttpResponse:
    member = _own_member(request, request.POST.get("member"))
    service_done(
        request,
        lambda: push.push_unsubscribe_all(member=member, user=request.user),
        lambda count: (
            ngettext(
                "Push notifications stopped on %(count)s device.",
                "Push notifications stopped on %(count)s devices.",
                count,
            )
            % {"count": count}
        ),
    )
    return redirect(reverse("competition:my_page") + "#settings")


__all__ = ["push_settings", "push_stop", "push_subscribe", "push_unsubscribe"]
