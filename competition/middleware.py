"""The club's own middleware: its language, and "try again" when the database is busy.

Django's LocaleMiddleware would follow the browser's Accept-Language header, so a member with
an English phone would never see the Dutch site the club publishes. Here only the language
cookie (set by the switch in every page's header) overrides the default.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

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
