"""The page cache shared by every worker: Redis from ``REDIS_URL``/``CACHE_URL``, pages fresh
after a write made by another worker.

The last test starts two real servers (gunicorn, one worker each, on two loopback ports)
against one SQLite file and one Redis, saves a correction through one and reads the standings
through the other. It is skipped when no Redis answers.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis as redis_py
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings

from clubcomp.settings import cache_from_env
from competition.models import Game
from competition.permissions import td_group
from tests.addresses import club_reverse
from tests.app_servers import (
    REDIS_URL,
    ROOT,
    HttpBrowser,
    gunicorn_servers,
    redis_reachable,
)
from tests.views.public_data import small_season

needs_redis = pytest.mark.skipif(
    not redis_reachable(REDIS_URL, timeout=0.5), reason="no Redis answers"
)


@pytest.mark.parametrize(
    ("url", "backend"),
    [
        ("", "django.core.cache.backends.locmem.LocMemCache"),
        ("redis://redis:6379/0", "competition.cache_backend.ResilientRedisCache"),
        ("rediss://cache.example.org:6380/2", "competition.cache_backend.ResilientRedisCache"),
        ("unix:///run/redis.sock", "competition.cache_backend.ResilientRedisCache"),
    ],
)
def test_the_cache_comes_from_the_environment(url: str, backend: str) -> None:
    config = cache_from_env(url, "club")
    assert config["BACKEND"] == backend
    assert config.get("KEY_PREFIX", config["LOCATION"]) == "club"
    if url:
        assert config["LOCATION"] == url


def test_a_cache_url_that_is_not_redis_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match="redis://"):
        cache_from_env("memcached://127.0.0.1:11211")


def test_sessions_live_in_the_database() -> None:
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")
def test_with_redis_url_the_cache_is_redis() -> None:
    assert isinstance(caches["default"], RedisCache)
    caches["default"].set("probe", "seen", 5)
    assert caches["default"].get("probe") == "seen"


def _redis_caches(prefix: str) -> dict[str, dict[str, str]]:
    config = {
        **cache_from_env(REDIS_URL, prefix),
        "BACKEND": "tests.redis_cache.RunScopedRedisCache",
    }
    return {"default": config}


@needs_redis
@pytest.mark.django_db
def test_a_page_cached_by_one_worker_is_fresh_after_a_write_by_another(td_user) -> None:
    """Two clients, each with a Redis cache client of its own, as two workers would have."""
    season, people = small_season()
    td_user.groups.add(td_group(season.club))
    url = club_reverse("competition:standings", args=[season.slug])
    with override_settings(CACHES=_redis_caches(f"clubcomp-test-{uuid.uuid4().hex}")):
        try:
            reader, td = Client(), Client()
            td.force_login(td_user)
            first = reader.get(url).content.decode()
            assert ">1,5<" in _row(first, people["C"].pk)
            assert reader.get(url).content.decode() == first  # from Redis now
            game = Game.objects.get(round__season=season, round__number=2, white=people["A"])
            response = td.post(
                club_reverse(
                    "competition:td_result_correct",
                    kwargs={"season_slug": season.slug, "round_number": 2, "game_id": game.pk},
                ),
                {"result": "1-0", "reason": "Wrongly recorded", "version": game.version},
            )
            assert response.status_code == 302, response.content[:500]
            caches.close_all()  # the reader's next request opens a fresh connection
            c_row = _row(reader.get(url).content.decode(), people["C"].pk)
            assert ">0,75<" in c_row and ">1,5<" not in c_row
        finally:
            caches["default"].clear()


def _row(html: str, participant_pk: int) -> str:
    return html.split(f'data-participant="{participant_pk}"')[1].split("</tr>")[0]


# --------------------------------------------------------------------------------------------
# Two real server processes


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


_SETUP = """
from competition.models import Game
from competition.permissions import td_group
from django.contrib.auth.models import User
from tests.views.public_data import small_season
season, people = small_season()
td = User.objects.create_user("td", password="td-pass-12345")
td.groups.add(td_group())
game = Game.objects.get(round__season=season, round__number=2, white=people["A"])
print(season.slug, people["C"].pk, game.pk, game.version)
"""


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[str, str, list[str]]]:
    """Two gunicorn servers on one SQLite file and one Redis; the small season with a TD."""
    prefix = f"clubcomp-test-{uuid.uuid4().hex}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "clubcomp.settings_test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'shared.sqlite3'}",
        "REDIS_URL": REDIS_URL,
        "CACHE_KEY_PREFIX": prefix,
        "ALLOWED_HOSTS": "127.0.0.1",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("DEBUG", None)
    _manage(env, "migrate", "--noinput", "-v0")
    created = _manage(env, "shell", "-c", _SETUP).split()[-4:]
    try:
        with gunicorn_servers(env) as (first, second):
            yield first, second, [prefix, *created]
    finally:
        with override_settings(CACHES=_redis_caches(prefix)):
            caches["default"].clear()
            caches.close_all()


@needs_redis
def test_two_server_processes_share_the_cache_and_never_serve_a_stale_page(
    two_workers: tuple[str, str, list[str]],
) -> None:
    writer_base, reader_base, (prefix, slug, c_pk, game_pk, version) = two_workers
    standings = f"/sc-test/season/{slug}/"  # the factories' club
    status, before = HttpBrowser(writer_base).get(standings)  # cached in Redis by the writer
    assert status == 200 and ">1,5<" in _row(before, int(c_pk))
    redis = redis_py.Redis.from_url(REDIS_URL)
    assert any(b":clubcomp:anon:" in key for key in redis.scan_iter(match=f"{prefix}:*"))
    status, shared = HttpBrowser(reader_base).get(standings)
    assert status == 200 and shared == before

    td = HttpBrowser(writer_base)
    status, _login_page = td.get("/login/")
    assert status == 200
    status, _body = td.post("/login/", {"username": "td", "password": "td-pass-12345"})
    assert status == 302, _body[:500]
    correct = f"/sc-test/td/{slug}/2/results/{game_pk}/correct/"
    assert td.get(correct)[0] == 200
    status, _body = td.post(
        correct, {"result": "1-0", "reason": "Wrongly recorded", "version": version}
    )
    assert status == 302, _body[:500]

    status, after = HttpBrowser(reader_base).get(standings)
    assert status == 200
    c_row = _row(after, int(c_pk))
    assert ">0,75<" in c_row and ">1,5<" not in c_row
    assert re.search(r"<h1[^>]*>", after)
