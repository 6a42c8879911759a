"""The site's own answers for what went wrong (Django uses ``400.html``, ``403.html``,
``403_csrf.html`` and ``404.html`` from templates/ by itself), and ``/favicon.ico``.

Every error page has the site's header in the reader's language (the language middleware has
chosen it before anything can fail) and a link to the home page: the club's, at a club's
address. The 500 page is rendered from the request alone, without the template context
processors, the user or the session, so that it appears while the database is away.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

FAVICON = "icons/favicon.ico"  # drawn by bin/app_icons.py


@requires_csrf_token
def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the frame and the way home, read from nothing but the request."""
    try:
        body = loader.get_template("500.html").render({"request": request})
    except Exception:  # the page itself failed: the plainest answer that says so
        logger.exception("The 500 page could not be rendered")
        return HttpResponseServerError(
            "<!doctype html><title>Server error</title><h1>Server error</h1>"
            "<p><a href='/'>Home</a>",
            content_type="text/html; charset=utf-8",
        )
    return HttpResponseServerError(body, content_type="text/html; charset=utf-8")


@cache
def _favicon() -> bytes:
    found = finders.find(FAVICON)
    if not found:
        raise FileNotFoundError(FAVICON)
    return Path(str(found)).read_bytes()


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, where browsers and feed readers look for the site's icon."""
    response = HttpResponse(_favicon(), content_type="image/vnd.microsoft.icon")
    response["Cache-Control"] = "max-age=86400"
    return response
