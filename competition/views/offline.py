"""The TD's evening as an installable web app that keeps working without a network.

Three site-level addresses (never under a club; their names are reserved club slugs):
``/manifest.webmanifest`` (name, icons, start page; the TD's app or, with ``?app=member``, the
member's), ``/service-worker.js`` (the worker, from
``static/js/service-worker.js``, with its scope the whole site because a club's pages live under
``/<club>/``) and ``/offline`` (what a page that was not kept says without a network).
How it works: docs/offline.md.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubcomp.addresses import site_prefix, site_url
from competition.clubs import club_url
from competition.selectors.clubs import club_by_slug

WORKER = "js/service-worker.js"
# The line of the worker that this view fills in; the file itself works with its own values.
WORKER_SETTINGS_LINE = "const SETTINGS = "
# The static files every kept page needs; the worker stores them when it is installed.
KEPT_STATIC = (
    "vendor/bootstrap/css/bootstrap.min.css",
    "vendor/bootstrap/js/bootstrap.bundle.min.js",
    "css/clubcomp.css",
    "css/print.css",
    "css/print-wall.css",
    "css/nojs.css",
    "js/page.js",
    "js/app.js",
    "js/td.js",
    "js/confirm.js",
    "js/attendance.js",
    "js/check_in.js",
    "icons/icon-192.png",
)
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
THEME_COLOUR = "#212529"  # the navigation bar's colour (static/icons are drawn on it too)


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest. ``?club=<slug>`` (the TD pages of a club link it so) starts the
    installed app at that club's club evening; without it at the site's ``/td/``.
    ``?app=member`` (the member's page links it so) is the member's app instead: it starts at
    his page (``/me/``, or the club's with ``club``), where he is told his pairing by push."""
    club = club_by_slug(slug=request.GET.get("club", ""))
    if request.GET.get("app") == "member":
        page = "competition:my_page"
        name = _("My page")
        description = _("My club evenings, my pairing (also by push notification) and results.")
    else:
        page = "competition:td_home"
        name = _("Club evening")
        description = _("Attendance, pairing and results of the club evening, also offline.")
    start = club_url(club.slug, page) if club else site_url(page)
    body = {
        "id": start,
        "name": f"{club.name} · {name}" if club else f"clubcomp · {name}",
        "short_name": name,
        "description": description,
        "lang": request.LANGUAGE_CODE,
        "start_url": start,
        "scope": site_prefix(),
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(
        body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    response["Cache-Control"] = "no-cache"
    return response


def _worker_source() -> str:
    path = finders.find(WORKER)
    if not path:
        raise FileNotFoundError(WORKER)
    return Path(str(path)).read_text(encoding="utf-8")


def _static_version(source: str, urls: list[str]) -> str:
    """A short hash of the worker and of the static files it keeps: any change to one of them
    (a deploy) gives the worker new caches, and the old ones are deleted."""
    digest = hashlib.sha256(source.encode())
    for path, url in zip(KEPT_STATIC, urls, strict=True):
        digest.update(url.encode())
        found = finders.find(path)
        if found:
            digest.update(Path(str(found)).read_bytes())
    return digest.hexdigest()[:12]


def _worker_script() -> str:
    source = _worker_source()
    urls = [static(path) for path in KEPT_STATIC]
    worker_settings = {
        "version": _static_version(source, urls),
        # The prefix of every static address (not static(""): the manifest storage of a
        # deployment knows files only, and refuses an empty name).
        "static_url": settings.STATIC_URL,
        "static": urls,
        "offline": site_url("offline"),
        "member_page": site_url("competition:my_page"),
        "icon": static("icons/icon-192.png"),
    }
    filled = []
    for line in source.splitlines(keepends=True):
        if line.startswith(WORKER_SETTINGS_LINE):
            line = f"{WORKER_SETTINGS_LINE}{json.dumps(worker_settings)};\n"
        filled.append(line)
    return "".join(filled)


_cached_worker_script = cache(_worker_script)


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, with the current static files' addresses and version filled in."""
    script = _worker_script() if settings.DEBUG else _cached_worker_script()
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = site_prefix()
    response["Cache-Control"] = "no-cache"  # a deploy's new worker is seen on the next visit
    return response


@require_safe
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page it did not keep while there is no network. It carries
    nobody's data: the worker stores it once when it is installed."""
    return render(request, "competition/offline.html", {"start": site_url("competition:td_home")})
