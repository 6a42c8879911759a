"""App servers for the tests that run the site as production does: gunicorn processes on free
ports of 127.0.0.1, the Redis they share, waiting until they answer, and a plain-HTTP browser
to talk to them (all bounded in time).

Used by tests/views/test_shared_cache.py (two workers, one cache), tests/test_two_app_servers.py
(two app servers on one PostgreSQL and Redis), and the production-parity stage (``.ci/parity``:
the browser tests and tests/test_production_parity.py against gunicorn). Every server runs with
the project's ``gunicorn.conf.py``, as the Dockerfile's does."""

from __future__ import annotations

import http.cookiejar
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


def redis_reachable(url: str, timeout: float = 1) -> bool:
    """Whether a Redis answers PING at ``url``."""
    parts = urllib.parse.urlsplit(url)
    try:
        with socket.create_connection(
            (parts.hostname, parts.port or 6379), timeout=timeout
        ) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(
    url: str, server: subprocess.Popen[bytes], seconds: float = 30, healthy: bool = True
) -> None:
    """Wait until ``url`` answers 200 (any answer unless ``healthy``); fail when ``server``
    stops or after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except urllib.error.HTTPError:
            if not healthy:
                return
        except OSError:
            pass
        if server.poll() is not None:
            raise AssertionError(f"the server stopped (exit {server.returncode}) before {url}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no answer from {url} within {seconds} s")
        time.sleep(0.2)


@contextmanager
def gunicorn_servers(
    env: dict[str, str],
    logs: Sequence[IO[bytes] | int] = (subprocess.DEVNULL,) * 2,
    workers: int = 1,
    healthy: bool = True,
    boot_seconds: float = 30,
) -> Iterator[list[str]]:
    """One gunicorn process (``workers`` workers) of ``clubcomp.wsgi`` per entry of ``logs``
    (where its output goes), each on a free port, with ``env``; yields their base addresses once
    every one answers (``/healthz`` 200, or any answer unless ``healthy``), and stops them
    afterwards (killed if they do not stop in 10 s)."""
    ports = [free_port() for _log in logs]
    servers = [
        subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                *("-c", str(ROOT / "gunicorn.conf.py"), "clubcomp.wsgi"),
                *("--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--timeout", "30"),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        for port, log in zip(ports, logs, strict=True)
    ]
    try:
        for port, server in zip(ports, servers, strict=True):
            wait_for(f"http://127.0.0.1:{port}/healthz", server, boot_seconds, healthy)
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


def this_runs_database_url() -> str:
    """This test run's database (with xdist's suffix) as a URL for a server of its own."""
    from django.db import connection

    found = connection.settings_dict
    user = urllib.parse.quote(found["USER"] or "")
    password = f":{urllib.parse.quote(found['PASSWORD'])}" if found["PASSWORD"] else ""
    at = f"{user}{password}@" if user else ""
    return f"postgres://{at}{found['HOST'] or '127.0.0.1'}:{found['PORT'] or 5432}/{found['NAME']}"


def server_environment(**values: str) -> dict[str, str]:
    """The environment of a gunicorn server on this run's test database and cache: this
    process's environment (the parity stage's is .env.example's), the test settings (for their
    password hasher), the cache key prefix of this process (its ``cache.clear()`` then clears the
    server's pages too) and ``values``."""
    from django.conf import settings

    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "CACHE_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="clubcomp.settings_test",
        DATABASE_URL=this_runs_database_url(),
        STATIC_ROOT=str(settings.STATIC_ROOT),
        CACHE_KEY_PREFIX=str(settings.CACHES["default"].get("KEY_PREFIX", "")),
        PYTHONPATH=str(ROOT),
    )
    env.update(values)
    return env


class HttpBrowser:
    """A browser over plain HTTP: keeps cookies and sends the CSRF token with a form, as a
    browser does; follows no redirect (the test reads the answer as it is); every request is
    bounded in time."""

    def __init__(self, base: str, timeout: float = 15) -> None:
        self.base = base
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def get(self, path: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path))

    def fetch(self, path: str) -> tuple[int, dict[str, str], bytes]:
        """Status, headers and body of a GET, as bytes (a static file, an icon)."""
        request = urllib.request.Request(self.base + path)
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def post(
        self, path: str, fields: dict[str, object], headers: dict[str, str] | None = None
    ) -> tuple[int, str]:
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(
            self.base + path, data=data, headers={"Referer": self.base + path, **(headers or {})}
        )
        return self._open(request)

    def _open(self, request: urllib.request.Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def sent_mail(directory: str | Path | None) -> list[tuple[list[str], str]]:
    """(recipients, body) of the mail a server wrote to ``directory`` (Django's file backend,
    one file per connection, messages apart by a line of dashes)."""
    import email
    import email.policy

    if directory is None:
        return []
    found = []
    for path in sorted(Path(directory).glob("*.log")):
        for raw in path.read_text(encoding="utf-8").split("\n" + "-" * 79 + "\n"):
            if raw.strip():
                message = email.message_from_string(raw.strip("\n"), policy=email.policy.default)
                body = message.get_body(preferencelist=("plain",))
                to = [a.strip() for a in str(message["To"]).split(",")]
                found.append((to, body.get_content() if body else ""))
    return found
