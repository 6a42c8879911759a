"""The club's own middleware: its language, "try again" when the database is busy, addresses
that cannot name anything, and the clubs' own addresses (/<club>/…).

Django's LocaleMiddleware would follow the browser's Accept-Language header, so a member with
an English phone would never see the Dutch site the club publishes. Here only the language
cookie (set by the switch in every page's header) overrides the default.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import BadRequest
from django.db import OperationalError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
    JsonResponse,
)
from django.urls import Resolver404, get_script_prefix, resolve, set_script_prefix
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from clubcomp.addresses import site_prefix_var
from competition.models import RESERVED_CLUB_SLUGS, Club, GroupCompetition, Member, Season
from competition.permissions import clubs_run_by

logger = logging.getLogger(__name__)


class ClubLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        language = chosen if translation.check_for_language(chosen) else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        patch_vary_headers(response, ("Cookie",))
        return response


class SignedInPagesNotStoredMiddleware:
    """A signed-in person's pages (the TD's steps, the member's and the club admin's pages, and
    the public pages as he sees them) are never kept by the browser: Back asks the server
    again instead of showing a pairing already published as a live draft, or a results page
    without the results just saved. A view that sets its own Cache-Control keeps
    it; anonymous visitors' public pages keep theirs (ETags, the shared cache)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_store=True)
        return response


class DatabaseBusyMiddleware:
    """A write that could not get the database answers "try again", never a server error.

    SQLite lets one writer in at a time; the settings make the others wait (a busy timeout,
    immediate transactions), and one that still finds the database locked gets here. The
    action's transaction was rolled back, so nothing was half done: a form goes back to the
    page it was sent from with the message, a ``fetch`` of the results page gets the message
    as JSON (503) and shows it beside the board.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError) or "locked" not in str(exception):
            return None
        logger.warning("Database busy at %s %s: %s", request.method, request.path, exception)
        message = _("The database was busy; please try again.")
        if request.headers.get("X-Requested-With") == "fetch":
            return JsonResponse({"ok": False, "message": message}, status=503)
        if request.method != "POST":
            response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
            response["Retry-After"] = "2"
            return response
        messages.error(request, message)
        back = request.headers.get("Referer", "")
        if not url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            back = "/"
        return HttpResponseRedirect(back)


class NulCharacterMiddleware:
    """An address with a NUL character (``%00``) names nothing: 404, and 400 for a query that
    holds one, before any view looks a slug, token or name up with it.

    No club, season, token or number contains one; SQLite simply finds nothing, but PostgreSQL
    refuses a text holding it with an error, which would be a server error (500). The API
    answers in its own JSON, as for any other unknown object.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        api = request.path_info.startswith("/api/")
        if "\x00" in request.path_info:
            if api:
                return JsonResponse({"detail": "Not Found"}, status=404)
            raise Http404(_("No such page."))
        if any("\x00" in key or "\x00" in "".join(values) for key, values in request.GET.lists()):
            if api:
                return JsonResponse({"detail": "Bad Request"}, status=400)
            raise BadRequest("NUL character in the query")
        return self.get_response(request)


# Unprefixed club pages (the addresses before clubs had their own): the URL names whose
# objects tell the club, by the keyword that names them.
_CLUB_OBJECT_KEYWORDS = ("slug", "season_slug", "group_slug", "member_id")
# Club pages without an object in the address: the club follows from the installation (one
# club) or from the signed-in user (TD or admin of one club).
_CLUB_PAGES_WITHOUT_OBJECT = frozenset(
    {
        "home",
        "td_home",
        "td_evening_start",
        "td_group_new",
        "files_home",
        "club_embed",
        "club_admin",
    }
)


class ClubAddressMiddleware:
    """Every club's pages live under ``/<club>/`` (one installation, many clubs).

    For ``/<club>/rest`` it sets ``request.club``, serves ``/rest`` and makes ``/<club>/`` the
    script prefix for the request, so every ``reverse()`` and ``{% url %}`` gives the club's own
    addresses (competition.clubs). Any other path is the site's own (``request.club`` is None);
    an address from before clubs had their own (``/season/<slug>/``, ``/td/<slug>/…``) is
    redirected to the club's address (301, or 308 for a form so that it is sent again).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.club = None  # type: ignore[attr-defined]
        first, slash, rest = request.path_info.lstrip("/").partition("/")
        club = None
        if first and first not in RESERVED_CLUB_SLUGS and "." not in first:
            club = Club.objects.filter(slug=first).first()
        if club is not None and not slash:  # /<club> typed without its slash
            return HttpResponsePermanentRedirect(f"{get_script_prefix()}{club.slug}/")
        if club is None:
            moved = self._club_address(request)
            return moved if moved is not None else self.get_response(request)
        request.club = club  # type: ignore[attr-defined]
        request.path_info = "/" + rest
        site = get_script_prefix()
        token = site_prefix_var.set(site)
        set_script_prefix(f"{site}{club.slug}/")
        try:
            return self.get_response(request)
        finally:
            set_script_prefix(site)
            site_prefix_var.reset(token)

    def _club_address(self, request: HttpRequest) -> HttpResponse | None:
        """The redirect of an unprefixed club page to its club's address, or None."""
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        if match.namespace != "competition":
            return None
        club = _club_of(match.url_name or "", match.kwargs, request)
        if club is None:
            return None
        target = f"{get_script_prefix()}{club.slug}{request.path_info}"
        if request.META.get("QUERY_STRING"):
            target += "?" + request.META["QUERY_STRING"]
        response = HttpResponsePermanentRedirect(
            target, preserve_request=request.method not in ("GET", "HEAD")
        )
        response.club_redirect = True  # type: ignore[attr-defined]  # the tests' client follows it
        return response


def _club_of(url_name: str, kwargs: dict[str, Any], request: HttpRequest) -> Club | None:
    """The club an unprefixed address belongs to, when exactly one fits; else None."""
    if url_name in _CLUB_PAGES_WITHOUT_OBJECT:
        clubs = list(Club.objects.all()[:2])
        if len(clubs) == 1:
            return clubs[0]
        if url_name == "home":
            return None  # the directory of clubs
        if isinstance(request.user, User) and request.user.is_active:
            mine = list(clubs_run_by(request.user)[:2])
            if len(mine) == 1:
                return mine[0]
        return None
    for keyword in _CLUB_OBJECT_KEYWORDS:
        if keyword not in kwargs or (keyword == "member_id" and url_name != "member_profile"):
            continue  # a member's own settings (/me/settings/<id>/) are the site's
        value = kwargs[keyword]
        model: type[Member | GroupCompetition | Season]
        if keyword == "member_id":
            model, lookup = Member, "pk"
        elif keyword == "group_slug":
            model, lookup = GroupCompetition, "slug"
        else:
            model, lookup = Season, "slug"
        owners = model.objects.filter(**{lookup: value}).values("club_id")
        clubs = list(Club.objects.filter(pk__in=owners)[:2])
        return clubs[0] if len(clubs) == 1 else None
    return None
