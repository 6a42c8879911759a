"""Every page kind answers on gunicorn with the production settings as it answers in development.

gunicorn (``gunicorn.conf.py``) serves this run's test database with the environment of this
process: in the production-parity stage (``.ci/parity``) that is .env.example's with the
plain-http overrides, DEBUG off, PostgreSQL, Redis and the collected static files in the
manifest storage. Over HTTP, as the anonymous reader and as the club's TD, it fetches every
address of the URL configuration (tests/views/test_permissions.py's walk, with the demo club's
values), the service worker, the manifest and each of its icons, ``/favicon.ico``, the API's
docs page and document, and every static file the pages link; each must answer as the same
address answers in development (Django's test client with DEBUG on and static files straight
from ``static/``): the same status and content type, never a server error. Needs PostgreSQL.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client, override_settings

from tests.app_servers import HttpBrowser
from tests.views.test_permissions import urls_to_check

# club_redirects_seen: the test client must not follow redirects that gunicorn answers as they are
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.club_redirects_seen,
]

TD, PASSWORD = "wedstrijdleider", "schaak-demo-2026"
SKIPPED = {"logout"}  # it would end the TD's session that the walk goes on with
STATIC_LINK = re.compile(r'(?:href|src)="(/static/[^"?#]+)"')
STATIC_TYPES = {
    ".css": "text/css",
    ".js": "text/javascript",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".svg": "image/svg+xml",
}
DEVELOPMENT = {
    "DEBUG": True,
    "STORAGES": {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    },
    "WHITENOISE_USE_FINDERS": True,
    "WHITENOISE_AUTOREFRESH": True,
}


def _media_type(headers: dict[str, str]) -> str:
    found = {k.lower(): v for k, v in headers.items()}.get("content-type", "")
    return found.split(";")[0].strip()


def _development_answers(paths: list[str], td: bool) -> dict[str, tuple[int, str]]:
    """(status, media type) of each path through the test client, with DEBUG on."""
    with override_settings(**DEVELOPMENT):
        client = Client(raise_request_exception=False)
        if td:
            response = client.post("/login/", {"username": TD, "password": PASSWORD})
            assert response.status_code == 302
        answers = {}
        for path in paths:
            response = client.get(path)
            answers[path] = (response.status_code, _media_type(dict(response.headers)))
        return answers


def test_every_page_kind_answers_on_gunicorn_as_in_development(
    demo_club_committed, gunicorn_server
) -> None:
    paths = [url for name, url in urls_to_check() if name.rsplit(":", 1)[-1] not in SKIPPED]
    anonymous, td = HttpBrowser(gunicorn_server.url), HttpBrowser(gunicorn_server.url)
    assert td.get("/login/")[0] == 200
    status, body = td.post("/login/", {"username": TD, "password": PASSWORD})
    assert status == 302, body[:500]

    linked: set[str] = set()
    production: dict[tuple[bool, str], tuple[int, str]] = {}
    for as_td, browser in ((False, anonymous), (True, td)):
        for path in paths:
            status, headers, content = browser.fetch(path)
            assert status < 500, (path, as_td, status, content[:300])
            assert "Server" not in headers, path  # gunicorn.conf.py: no Server header
            production[(as_td, path)] = (status, _media_type(headers))
            if _media_type(headers) == "text/html":
                assert "Permissions-Policy" in headers, path
                linked.update(STATIC_LINK.findall(content.decode()))
    for as_td in (False, True):
        development = _development_answers(paths, as_td)
        differing = {
            path: (production[(as_td, path)], development[path])
            for path in paths
            if production[(as_td, path)] != development[path]
        }
        assert not differing, ("TD" if as_td else "anonymous", differing)

    # The installable app's addresses and the API's docs, as the TD's phone asks for them.
    status, headers, worker = anonymous.fetch("/service-worker.js")
    assert (status, _media_type(headers)) == (200, "text/javascript")
    worker_settings = json.loads(
        next(x for x in worker.decode().splitlines() if x.startswith("const SETTINGS = "))
        .removeprefix("const SETTINGS = ")
        .rstrip(";")
    )
    linked.update(worker_settings["static"])
    status, headers, manifest = anonymous.fetch("/manifest.webmanifest?club=sc-de-toren")
    assert (status, _media_type(headers)) == (200, "application/manifest+json")
    icons = [icon["src"] for icon in json.loads(manifest)["icons"]]
    assert len(icons) == 3
    for path, media_type in (
        ("/favicon.ico", "image/vnd.microsoft.icon"),
        ("/offline", "text/html"),
        ("/api/v1/docs", "text/html"),
        ("/api/v1/openapi.json", "application/json"),
        ("/healthz", "text/plain"),
    ):
        status, headers, content = anonymous.fetch(path)
        assert (status, _media_type(headers)) == (200, media_type), (path, content[:300])
        if path == "/api/v1/docs":
            linked.update(STATIC_LINK.findall(content.decode()))

    # Every static file a page, the worker or the manifest names: hashed, collected, served.
    assert any(re.fullmatch(r"/static/js/td\.[0-9a-f]{12}\.js", p) for p in linked), linked
    for path in sorted(linked | set(icons)):
        status, headers, content = anonymous.fetch(path)
        extension = path[path.rfind(".") :]
        assert status == 200 and content, path
        if extension in STATIC_TYPES:
            assert _media_type(headers) == STATIC_TYPES[extension], (path, headers)
