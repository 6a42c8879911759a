"""``/healthz``: is this worker able to serve? For the container's health check and monitors.

It asks the database for ``SELECT 1`` and writes and reads a cache key, and answers ``ok``
(200) or names what failed (503). No login, and nothing that sets a cookie: no session, no CSRF
token, no language switch, so a monitor polling it leaves no trace and no cache is tied to it.
"""

from __future__ import annotations

import logging
import uuid

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


def _database_ok() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)


def _cache_ok() -> bool:
    token = uuid.uuid4().hex
    key = f"clubcomp:healthz:{token}"  # a key of its own: workers checking at once never clash
    cache.set(key, token, 30)
    found = cache.get(key) == token
    cache.delete(key)
    return found


CHECKS = {"database": _database_ok, "cache": _cache_ok}


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    failed = []
    for name, check in CHECKS.items():
        try:
            passed = check()
        except Exception:  # any failure of a dependency is "not healthy", never a 500
            logger.exception("Health check: %s failed", name)
            passed = False
        if not passed:
            failed.append(name)
    if failed:
        return HttpResponse(
            "failed: " + ", ".join(failed), status=503, content_type="text/plain; charset=utf-8"
        )
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")
