"""Two app servers on one PostgreSQL and one Redis (docs/hosting.md): a result saved through one
is on the other's next page.

Two gunicorn processes (the project's ``clubcomp.wsgi``, one worker each, on two loopback
ports) run with the production settings, configured only by the environment variables an
operator sets (``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY``, ``DEBUG=0`` ...), on this test's
database. The test talks to them over HTTP only: the second server shows the public pages
first (so a cached copy exists in Redis), a TD logs in through the first server's login form,
saves a board's result as the results page's ``fetch`` does and closes the round; the second
server's next round page and standings show the new result and score.

Needs PostgreSQL (the test database must be one the servers can open) and Redis
(``REDIS_URL``, else ``redis://127.0.0.1:6379/15``): skipped without them, except that under CI
(``CI`` set) a missing Redis fails the test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from django.core.management.utils import get_random_secret_key
from django.db import connection

from clubcomp.addresses import site_url
from competition.clubs import club_url
from competition.models import Game, Participant, Round, RoundEntry, Season
from competition.permissions import td_group
from tests.app_servers import (
    REDIS_URL,
    ROOT,
    HttpBrowser,
    gunicorn_servers,
    redis_reachable,
    this_runs_database_url,
)
from tests.factories import GameFactory, RoundEntryFactory, RoundFactory
from tests.views.public_data import small_season

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TD_PASSWORD = "td-pass-12345"


@pytest.fixture(autouse=True)
def _postgres_and_redis() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    if not redis_reachable(REDIS_URL):
        message = f"no Redis answers at {REDIS_URL}"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI runs Redis: it must answer)")
        pytest.skip(message)


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two gunicorn servers (production settings) on this test's database and one Redis."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "CACHE_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="clubcomp.settings",
        DATABASE_URL=this_runs_database_url(),
        REDIS_URL=REDIS_URL,
        CACHE_KEY_PREFIX=f"clubcomp-test-{uuid.uuid4().hex}",
        SECRET_KEY=get_random_secret_key(),
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_COOKIES="0",  # plain http on the loopback
        STATIC_ROOT=str(tmp_path / "static"),
        CONN_MAX_AGE="0",  # no connection left open to the test database after a request
        PYTHONPATH=str(ROOT),
    )
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert collected.returncode == 0, collected.stderr[-2000:]
    logs = [(tmp_path / f"server-{n}.log").open("wb") for n in (1, 2)]
    try:
        with gunicorn_servers(env, logs) as (first, second):
            yield first, second
    finally:
        for log in logs:
            log.close()
            # shown by pytest when the test fails: the servers' own account of an error
            print(f"--- {Path(log.name).name}:\n" + Path(log.name).read_text()[-5000:])
        _forget(env["CACHE_KEY_PREFIX"])


def _forget(prefix: str) -> None:
    """Remove the servers' keys from Redis (others may share the database)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_timeout=5)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


def _open_round(season: Season, people: dict[str, Participant]) -> Game:
    """Round 3 of the small season, paired: A–B still without a result, D–C drawn, E absent."""
    rnd = RoundFactory(season=season, number=3, status=Round.Status.PAIRED)
    open_board = GameFactory(round=rnd, board=1, white=people["A"], black=people["B"], result="")
    GameFactory(round=rnd, board=2, white=people["D"], black=people["C"], result="1/2")
    RoundEntryFactory(round=rnd, participant=people["E"], kind=RoundEntry.Kind.ABSENT_NOTICE)
    return open_board


def _row(html: str, participant_pk: int) -> str:
    return html.split(f'data-participant="{participant_pk}"')[1].split("</tr>")[0]


def _board(html: str, board: int) -> str:
    """Board ``board``'s row of the TD's results page."""
    return html.split(f'id="board-{board}"')[1].split("</li>")[0]


def _first_board(html: str) -> str:
    """The first board's row of the public round page's pairing table."""
    return html.split("<tbody>")[1].split("</tr>")[0]


def test_a_result_saved_on_one_server_is_on_the_other_servers_next_page(
    two_servers: tuple[str, str],
) -> None:
    season, people = small_season()
    game = _open_round(season, people)
    # Hashed as the servers' settings hash (the tests' own fast hasher is not among theirs).
    td = User.objects.create_user("td")
    td.password = PBKDF2PasswordHasher().encode(TD_PASSWORD, PBKDF2PasswordHasher().salt())
    td.save(update_fields=["password"])
    td.groups.add(td_group(season.club))
    club = season.club.slug
    standings = club_url(club, "competition:standings", args=[season.slug])
    round_page = club_url(club, "competition:round", args=[season.slug, 3])
    results = club_url(
        club, "competition:td_results", kwargs={"season_slug": season.slug, "round_number": 3}
    )
    first, second = two_servers

    # Server 2 shows both pages first (anonymous: now in Redis, under the season's versions).
    reader = HttpBrowser(second)
    status, before = reader.get(standings)
    assert status == 200, before[:500]
    a_before = _row(before, people["A"].pk)
    assert '<td class="num" data-label="Pnt">1½</td>' in a_before  # A's game points, 2 rounds
    status, round_before = reader.get(round_page)
    assert status == 200, round_before[:500]
    assert "Anna Aalders" in _first_board(round_before)
    assert "nog niet gespeeld" in _first_board(round_before)  # "not yet played"
    assert reader.get(standings)[1] == before  # the cached copy

    # The TD logs in on server 1 through the login form, with its CSRF token.
    desk = HttpBrowser(first)
    login = site_url("login")
    assert desk.get(login)[0] == 200
    status, body = desk.post(login, {"username": "td", "password": TD_PASSWORD})
    assert status == 302, body[:500]
    status, page = desk.get(results)
    assert status == 200, page[:500]
    action = re.search(rf'action="([^"]*/results/{game.pk}/)"', page)
    version = re.search(r'name="version" value="(\d+)"', _board(page, 1))
    assert action and version, page[:2000]
    status, body = desk.post(
        action[1],
        {"result": "1-0", "version": version[1]},
        headers={"X-Requested-With": "fetch", "Accept": "application/json"},
    )
    assert status == 200, body[:500]
    saved = json.loads(body)
    assert saved["ok"] and saved["board"]["result"] == "1-0" and saved["missing"] == 0

    # Server 2's next view of the round shows the result.
    status, round_after = reader.get(round_page)
    assert status == 200
    assert "nog niet gespeeld" not in _first_board(round_after)
    assert '<td class="result text-center" data-label="Uitslag">1-0</td>' in _first_board(
        round_after
    )

    # The TD closes the round on server 1; server 2's standings now count it.
    close = club_url(
        club, "competition:td_round_close", kwargs={"season_slug": season.slug, "round_number": 3}
    )
    status, body = desk.post(close, {})
    assert status == 302, body[:500]
    status, after = reader.get(standings)
    assert status == 200
    assert after != before
    a_after = _row(after, people["A"].pk)
    assert '<td class="num" data-label="Pnt">2½</td>' in a_after  # 1½ + the win in round 3
    assert '<td class="num" data-label="Pnt">1½</td>' not in a_after
    assert Game.objects.get(pk=game.pk).result == "1-0"  # the database both servers share
