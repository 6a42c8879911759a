"""Security helpers the settings and the public URLs name: the client's address behind a TLS
proxy and the lockout page (for django-axes), the throttle on one address guessing many
accounts, and which pages another site may show in a frame (the site's setting and each
club's own).

The policy itself (cookies, HTTPS, Content-Security-Policy, lockouts) is in
``clubcomp/settings.py``; README "Production" and docs/decisions.md "Security" explain it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from axes.helpers import get_client_ip_address  # type: ignore[import-untyped]
from csp.constants import NONE, SELF
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.crypto import salted_hmac

if TYPE_CHECKING:
    from competition.models import Club


def client_ip_behind_proxy(request: HttpRequest) -> str | None:
    """The client's address as the one TLS proxy in front of us saw it (``BEHIND_TLS_PROXY``).

    The proxy appends the address it was contacted from to ``X-Forwarded-For``; anything to its
    left came from the client and may be made up, so only the right-most entry counts. Without
    the header (a request that did not pass the proxy, like the container's health check) the
    socket's address counts.

    >>> from django.test import RequestFactory
    >>> request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    >>> client_ip_behind_proxy(request)
    '203.0.113.7'
    """
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    last = forwarded.split(",")[-1].strip()
    return last or request.META.get("REMOTE_ADDR")


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """The page a locked-out login gets (``AXES_LOCKOUT_CALLABLE``): why, and for how long.

    Status 429 (Too Many Requests), as django-axes answers by default; the page is the login
    page's layout in the reader's language, not a bare error.
    """
    cool_off = settings.AXES_COOLOFF_TIME
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "cooloff_minutes": round(cool_off.total_seconds() / 60) if cool_off else None,
    }
    return render(request, "registration/locked_out.html", context, status=429)


def _address_key(request: HttpRequest) -> str:
    return f"clubcomp:login-failures:{get_client_ip_address(request)}"


def _cool_off_seconds() -> int:
    cool_off = settings.AXES_COOLOFF_TIME
    return int(cool_off.total_seconds()) if cool_off else 15 * 60


def login_failure_count(sender: object, credentials: dict, request: HttpRequest | None = None,
                        **kwargs: Any) -> None:  # fmt: skip
    """Count a failed login against the address it came from (``user_login_failed``).

    The count lives in the cache for the cool-off time after the first failure; with Redis
    every worker and machine shares it, with the in-memory cache each worker counts apart.
    """
    if request is None:
        return
    key = _address_key(request)
    if not cache.add(key, 1, _cool_off_seconds()):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, _cool_off_seconds())


# A browser that logged in to an account before carries this cookie (OWASP's "device cookie"):
# the address limit does not refuse it a login to that account, so one member of a club room
# who mistypes (or a guesser on the club's wifi) does not lock the TD out of the evening. The
# per-account lockout (django-axes) still counts its wrong passwords like anyone's.
DEVICE_COOKIE = "clubcomp_device"
DEVICE_COOKIE_AGE = 60 * 60 * 24 * 365
DEVICE_ACCOUNTS = 5  # the accounts one browser is known for (a club laptop: TD, admin, ...)
_DEVICE_SALT = "competition.security.device"


def _account_mark(username: str) -> str:
    """What the cookie holds for an account: not its name (readable on a shared computer), a
    keyed hash of it that only this site can make."""
    return salted_hmac(_DEVICE_SALT, username).hexdigest()[:24]


def device_accounts(request: HttpRequest) -> list[str]:
    """The accounts this browser logged in to before (their marks), from its signed cookie."""
    try:
        marks = signing.loads(request.COOKIES.get(DEVICE_COOKIE, ""), salt=_DEVICE_SALT)
    except signing.BadSignature:
        return []
    return [m for m in marks if isinstance(m, str)] if isinstance(marks, list) else []


def known_device(request: HttpRequest, username: str) -> bool:
    return bool(username) and _account_mark(username) in device_accounts(request)


def device_login_seen(sender: object, request: HttpRequest | None = None, user: Any = None,
                      **kwargs: Any) -> None:  # fmt: skip
    """Remember a successful login (``user_logged_in``): the middleware sets the cookie."""
    if request is not None and user is not None:
        request._device_login = user.get_username()  # type: ignore[attr-defined]


class LoginAddressThrottleMiddleware:
    """Refuse login attempts from an address that failed ``LOGIN_ADDRESS_FAILURE_LIMIT`` times
    within the cool-off time, before the password is hashed, unless the browser logged in to
    that account before (its device cookie).

    django-axes locks one account from one address; a guesser trying a new name each time is
    never locked there, and every attempt costs a worker the password hasher's time (about a
    second here). The limit is per address and far above what a club room's members mistype
    together behind one router; the answer is the lockout page (429), in a few milliseconds.
    A club room shares one public address, so a known browser (the TD's phone) is let through
    to the password check, where the per-account lockout still applies. Without the cache
    (Redis away) there is no count, and only the per-account lockout stops a guesser.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.method == "POST"
            and request.path == reverse("login")
            and cache.get(_address_key(request), 0) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT
            and not known_device(request, request.POST.get("username", ""))
        ):
            return address_lockout_response(request)
        response = self.get_response(request)
        username = getattr(request, "_device_login", None)
        if username:
            marks = [m for m in device_accounts(request) if m != _account_mark(username)]
            marks = [_account_mark(username), *marks][:DEVICE_ACCOUNTS]
            response.set_cookie(
                DEVICE_COOKIE,
                signing.dumps(marks, salt=_DEVICE_SALT),
                max_age=DEVICE_COOKIE_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


def address_lockout_response(request: HttpRequest) -> HttpResponse:
    context = {
        "address_limit": settings.LOGIN_ADDRESS_FAILURE_LIMIT,
        "cooloff_minutes": round(_cool_off_seconds() / 60),
    }
    return render(request, "registration/locked_out.html", context, status=429)


def embed_origins(text: str) -> list[str]:
    """A club's embed setting (``Club.embed_origins``, one site a line) as CSP sources.

    >>> embed_origins("https://www.myclub.nl\\n\\n  http://localhost:8000 ")
    ['https://www.myclub.nl', 'http://localhost:8000']
    """
    return [line.strip() for line in text.splitlines() if line.strip()]


def frame_ancestors(club: Club | None) -> list[str]:
    """Who may show a public page of ``club`` in a frame: ``settings.FRAME_ANCESTORS`` (every
    club's, e.g. ``'self'``) and the sites of the club's own embed setting; ``['none']`` when
    there are none."""
    ancestors = [source for source in settings.FRAME_ANCESTORS if source != NONE]
    for origin in embed_origins(club.embed_origins) if club is not None else []:
        if origin not in ancestors:
            ancestors.append(origin)
    return ancestors or [NONE]


def embeddable(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Let the sites of ``settings.FRAME_ANCESTORS`` and the club's own embed setting
    (``Club.embed_origins``) show this (public) page in a frame.

    Every other page keeps the site's ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``,
    so the login, the TD's buttons and the admin cannot be framed (clickjacking). X-Frame-Options
    can only say DENY or SAMEORIGIN: it says SAMEORIGIN when only this site may frame the page,
    and is left out when other sites may (the CSP's frame-ancestors then decides alone). One
    club's sites never frame another club's pages.
    """

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        # the club of the address (ClubAddressMiddleware sends every club page there)
        ancestors = frame_ancestors(getattr(request, "club", None))
        if ancestors == [NONE]:
            return response
        if ancestors == [SELF]:
            response["X-Frame-Options"] = "SAMEORIGIN"  # the middleware leaves it as it is
        else:
            response.xframe_options_exempt = True
        # What django-csp's @csp_replace does, with the setting read per request (tests change it).
        response._csp_replace = {"frame-ancestors": ancestors}  # type: ignore[attr-defined]
        return response

    return wrapper
