"""Redis going away: every page still answers (built uncached), a login works with the
per-account lockout still in force, and ``/healthz`` says ``503 failed: cache``.

The test starts a Redis server of its own on a free port (never the shared one), points the
cache at it, fills it with pages, then stops that server and walks every page of the project
(tests/views/test_permissions.py's walk of the URL configuration) as an anonymous reader and as
the club's TD: each answers as it answered with Redis up. Needs ``redis-server`` on the PATH.
"""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from clubcomp.settings import cache_from_env
from tests.app_servers import free_port, redis_reachable
from tests.views.test_permissions import urls_to_check

pytestmark = pytest.mark.django_db

SLUG = "interne-2026-2027"
TD, PASSWORD = "wedstrijdleider", "schaak-demo-2026"
# Not for the walk: the logout (it would end the session the walk goes on with) and /healthz,
# which is meant to answer otherwise without the cache (asked on its own below).
SKIPPED = {"logout", "healthz"}


@pytest.fixture
def own_redis() -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    server_binary = shutil.which("redis-server")
    if server_binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    server = subprocess.Popen(
        [
            server_binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while not redis_reachable(url, timeout=0.5):
        assert time.monotonic() < deadline, "the test's redis-server did not start"
        time.sleep(0.1)
    try:
        yield server, url
    finally:
        server.kill()
        server.wait(timeout=10)


def _stop(server: subprocess.Popen[bytes], url: str) -> None:
    server.terminate()
    server.wait(timeout=10)
    assert not redis_reachable(url, timeout=0.5)


def _log_in(client: Client, password: str = PASSWORD):
    return client.post(reverse("login"), {"username": TD, "password": password})


def _walk(anonymous: Client, td: Client) -> dict[tuple[str, str], int]:
    answers = {}
    for name, url in urls_to_check():
        if name.rsplit(":", 1)[-1] in SKIPPED:
            continue
        for who, client in (("anonymous", anonymous), ("td", td)):
            answers[(who, url)] = client.get(url).status_code
    return answers


def test_with_redis_gone_every_page_answers_and_the_td_logs_in(
    demo_club, own_redis: tuple[subprocess.Popen[bytes], str]
) -> None:
    server, url = own_redis
    caches = {"default": cache_from_env(url, f"clubcomp-test-{uuid.uuid4().hex}")}
    with override_settings(CACHES=caches, LOGIN_ADDRESS_FAILURE_LIMIT=30):
        anonymous, td = Client(raise_request_exception=False), Client(raise_request_exception=False)
        assert _log_in(td).status_code == 302
        assert td.get("/healthz").content == b"ok"
        up = _walk(anonymous, td)
        assert up[("anonymous", f"/sc-de-toren/season/{SLUG}/")] == 200
        assert up[("td", "/sc-de-toren/td/")] == 200
        assert cache.get("clubcomp:anon:probe") is None and cache.add("probe", 1)  # Redis is up

        _stop(server, url)
        down = _walk(anonymous, td)
        assert down == up  # every page as with Redis up (none answers 500)
        assert all(status < 500 for status in down.values())
        health = anonymous.get("/healthz")
        assert (health.status_code, health.content) == (503, b"failed: cache")

        # A login works without the address counter; the per-account lockout still locks.
        assert _log_in(Client()).status_code == 302
        guesser = Client()
        for _ in range(settings.AXES_FAILURE_LIMIT):
            assert _log_in(guesser, "wrong-password").status_code in (200, 429)
        locked = _log_in(guesser)
        assert locked.status_code == 429
        assert "Te veel mislukte inlogpogingen." in locked.content.decode()


@pytest.mark.django_db(databases=[])
def test_a_cache_without_redis_answers_as_an_empty_cache_that_keeps_nothing() -> None:
    from competition.cache_backend import ResilientRedisCache

    gone = ResilientRedisCache(f"redis://127.0.0.1:{free_port()}/0", cache_from_env("redis://x"))
    assert gone.get("page", "default") == "default"
    gone.set("page", "built")  # lost, without an error
    assert gone.get("page") is None
    assert gone.add("count", 1) is False
    with pytest.raises(ValueError, match="not found"):
        gone.incr("count")
    assert gone.get_many(["a", "b"]) == {}
    assert gone.set_many({"a": 1, "b": 2}) == ["a", "b"]  # the keys that were not stored
    assert gone.has_key("a") is False and gone.delete("a") is False
    gone.delete_many(["a"])
    gone.clear()
