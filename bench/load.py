"""Load on gunicorn (4 workers) + PostgreSQL, with the in-memory cache and with Redis.

Run from the repository root: ``.venv/bin/python bench/load.py [--duration 60]``. It creates a
database of its own (``clubcomp_bench``, dropped at the end), builds a season of 120
participants × 30 closed rounds plus an open round (``bench/season.py``), then for each cache
(each worker's own memory; one Redis for all) starts gunicorn on 127.0.0.1 and runs three
phases, one after the other:

1. the floor: ``--users`` threads asking only the trivial ``base.html`` view
   (``bench/load_urls.py``, behind the same middleware) for ``--trivial-duration`` seconds;
2. the first minute, with cold caches (``--duration`` seconds), and
3. the next minute, warm (``--warm-duration`` seconds), each with:

- ``--users`` members (threads) reading the standings (latest and ``?round=N``), participant,
  crosstable and round pages;
- one TD (a logged-in session) saving a result of the open round every ``--save-every``
  seconds, and every ``--correction-every``-th save correcting a closed round instead (which
  recomputes the standings and so makes the next readers build pages anew);
- one password guesser: a login POST with a wrong password every second, timed (the password
  hasher's cost, paid by a worker the readers are waiting for).

It prints requests per second, p50/p95/p99 and errors per kind of request, and the members'
throughput in phases 2 and 3 as a share of the floor's (the targets: a fifth cold, with the
shared cache; a third warm). A wrong password is answered 200 (the form again) until the
address throttle refuses it with 429 before hashing. Nothing is asserted; the run stops by
itself (deadline, a bound on requests per thread) and stops gunicorn.
"""

from __future__ import annotations

import argparse
import dataclasses
import http.client
import http.cookies
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"
TD_PASSWORD = "bench-td-2026"
MAX_REQUESTS_PER_THREAD = 100_000


@dataclass
class Tally:
    """Latencies (ms) and errors per kind of request, shared by the threads."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    statuses: dict[str, dict[int, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, ms: float, status: int, ok: bool) -> None:
        with self.lock:
            self.times[kind].append(ms)
            self.statuses[kind][status] += 1
            if not ok:
                self.errors[kind] += 1


class Session:
    """One visitor: its cookies (session, CSRF) and a fresh connection per request (gunicorn's
    sync workers close it after each response)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, fields: dict[str, object] | None = None, **headers: str
    ) -> tuple[int, bytes, float]:
        body = None
        headers = {"Host": HOST, **headers}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if fields is not None:
            fields = {**fields, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            body = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://{HOST}:{self.port}{path}"
        started = time.perf_counter()
        connection = http.client.HTTPConnection(HOST, self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            content = response.read()
        finally:
            connection.close()
        ms = 1000 * (time.perf_counter() - started)
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = http.cookies.SimpleCookie(header)
            self.cookies.update({name: morsel.value for name, morsel in cookie.items()})
        return response.status, content, ms

    def login(self, username: str, password: str) -> tuple[int, float]:
        self.request("GET", "/login/")
        status, _content, ms = self.request(
            "POST", "/login/", {"username": username, "password": password}
        )
        return status, ms


# --------------------------------------------------------------------------------------------
# Database and season


def database_url(name: str) -> str:
    return f"postgres://postgres@{HOST}:5432/{name}"


def recreate_database(name: str, *, drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(database_url("postgres"), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            connection.execute(f'CREATE DATABASE "{name}"')


@dataclass(frozen=True)
class Season:
    club: str  # the club's slug: its pages live under /<club>/
    slug: str
    rounds: int
    participant_ids: list[int]
    open_games: list[tuple[int, int]]  # (game id, version) of the open round
    closed_games: list[tuple[int, int, int]]  # (round number, game id, version)


def build(players: int, rounds: int) -> Season:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from bench.season import build_season
    from competition.permissions import td_group

    call_command("migrate", verbosity=0)
    season, participants = build_season(players=players, rounds=rounds, open_round=True)
    td = User.objects.create_user("bench-td", password=TD_PASSWORD)
    td.groups.add(td_group(season.club))
    return with_versions(
        Season(season.club.slug, season.slug, rounds, [p.pk for p in participants], [], [])
    )


def with_versions(season: Season) -> Season:
    """The season with its games' versions as they are now (a run before this one saved)."""
    from competition.models import Game

    games = list(
        Game.objects.filter(round__season__slug=season.slug)
        .order_by("round__number", "board")
        .values_list("round__number", "pk", "version")
    )
    return dataclasses.replace(
        season,
        open_games=[(pk, v) for number, pk, v in games if number > season.rounds],
        closed_games=[game for game in games if game[0] <= season.rounds],
    )


# --------------------------------------------------------------------------------------------
# The load


def member_paths(season: Season) -> list[tuple[str, str, int]]:
    """(kind, path, weight): what members read during an evening."""
    base = f"/{season.club}/season/{season.slug}/"
    return [
        ("standings", base, 30),
        ("standings ?round=N", base + "?round={round}", 10),
        ("participant", base + "participant/{participant}/", 30),
        ("crosstable", base + "crosstable/", 10),
        ("round", base + "round/{round}/", 15),
    ]


def trivial_paths(season: Season) -> list[tuple[str, str, int]]:
    return [("trivial base.html", "/trivial/base/", 1)]


def member(
    port: int,
    season: Season,
    deadline: float,
    tally: Tally,
    seed: int,
    paths_of: Callable[[Season], list[tuple[str, str, int]]] = member_paths,
) -> None:
    rng = random.Random(seed)
    paths = paths_of(season)
    weights = [weight for _kind, _path, weight in paths]
    session = Session(port)
    for _ in range(MAX_REQUESTS_PER_THREAD):
        if time.monotonic() >= deadline:
            return
        kind, template, _weight = rng.choices(paths, weights)[0]
        path = template.format(
            round=rng.randint(1, season.rounds + 1),
            participant=rng.choice(season.participant_ids),
        )
        if kind == "standings ?round=N":
            path = template.format(round=rng.randint(1, season.rounds))
        try:
            status, _content, ms = session.request("GET", path)
        except OSError:
            tally.add(kind, 30_000, 0, ok=False)
            continue
        tally.add(kind, ms, status, ok=status == 200)


def tournament_director(
    port: int, season: Season, deadline: float, tally: Tally, every: float, correction_every: int
) -> None:
    session = Session(port)
    session.cookies.update(TD_PHONE)  # the TD's phone logged in before (its device cookie)
    status, ms = session.login("bench-td", TD_PASSWORD)
    tally.add("TD login", ms, status, ok=status == 302)
    if DEVICE_COOKIE in session.cookies:
        TD_PHONE[DEVICE_COOKIE] = session.cookies[DEVICE_COOKIE]
    open_games = dict(season.open_games)
    closed = list(season.closed_games)
    results = ["1-0", "1/2", "0-1"]
    for count in range(1, MAX_REQUESTS_PER_THREAD):
        if time.monotonic() >= deadline:
            return
        time.sleep(every)
        if correction_every and count % correction_every == 0:
            number, game_id, version = closed[count % len(closed)]
            path = f"/{season.club}/td/{season.slug}/{number}/results/{game_id}/correct/"
            fields = {"result": results[count % 3], "reason": "bench", "version": version}
            status, _content, ms = session.request("POST", path, fields)
            tally.add("TD correction", ms, status, ok=status == 302)
            closed[count % len(closed)] = (number, game_id, version + 1)
            continue
        game_id = random.choice(list(open_games))
        path = f"/{season.club}/td/{season.slug}/{season.rounds + 1}/results/{game_id}/"
        fields = {"result": results[count % 3], "version": open_games[game_id]}
        status, content, ms = session.request("POST", path, fields, **{"X-Requested-With": "fetch"})
        ok = status == 200
        if ok:
            open_games[game_id] = json.loads(content)["board"]["version"]
        tally.add("TD result save", ms, status, ok=ok)


# The TD's phone: the cookies it keeps from one phase to the next (the device cookie of its
# login, competition.security), as a phone keeps them through the evening.
DEVICE_COOKIE = "clubcomp_device"
TD_PHONE: dict[str, str] = {}


def password_guesser(port: int, deadline: float, tally: Tally) -> None:
    """A wrong password every second, each for a name of its own (so no lockout stops the
    hasher's work: a name that does not exist costs the same hash, by Django's design)."""
    for attempt in range(MAX_REQUESTS_PER_THREAD):
        if time.monotonic() >= deadline:
            return
        status, ms = Session(port).login(f"guess-{attempt}", "wrong-password-123")
        tally.add("login, wrong password", ms, status, ok=status in (200, 429))
        time.sleep(1)


def percentile(sorted_ms: list[float], share: float) -> float:
    index = min(len(sorted_ms) - 1, max(0, round(share * len(sorted_ms)) - 1))
    return sorted_ms[index]


def report(label: str, tally: Tally, seconds: float) -> float:
    """Print the tally; return the members' reads per second (the TD and the guesser apart)."""
    total = sum(len(t) for t in tally.times.values())
    errors = sum(tally.errors.values())
    print(f"\n== {label}: {total} requests in {seconds:.0f} s, {total / seconds:.1f} req/s, "
          f"{errors} errors ==")  # fmt: skip
    print(f"  {'request':24s} {'count':>6s} {'req/s':>7s} {'p50':>8s} {'p95':>8s} {'p99':>8s}"
          "  errors  statuses")  # fmt: skip
    for kind in sorted(tally.times):
        ms = sorted(tally.times[kind])
        statuses = ",".join(f"{s}×{n}" for s, n in sorted(tally.statuses[kind].items()))
        print(
            f"  {kind:24s} {len(ms):6d} {len(ms) / seconds:7.1f} "
            f"{statistics.median(ms):6.1f}ms {percentile(ms, 0.95):6.1f}ms "
            f"{percentile(ms, 0.99):6.1f}ms  {tally.errors[kind]:6d}  {statuses}"
        )
    reads = sum(len(t) for kind, t in tally.times.items() if not kind.startswith(("TD", "login")))
    return reads / seconds


def wait_for_health(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if Session(port).request("GET", "/healthz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not become healthy")


def run(label: str, env: dict[str, str], season: Season, args: argparse.Namespace) -> None:
    port = args.port
    season = with_versions(season)
    gunicorn = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py",
         "clubcomp.wsgi", "--bind", f"{HOST}:{port}",
         "--workers", str(args.workers), "--timeout", "60", "--graceful-timeout", "5"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        wait_for_health(port)
        floor = report(
            f"{label}, the floor: trivial base.html only",
            *phase(port, season, args, args.trivial_duration, trivial_paths, readers_only=True),
        )
        cold = report(
            f"{label}, first minute (cold caches)", *phase(port, season, args, args.duration)
        )
        warm = report(
            f"{label}, next minute (warm)", *phase(port, season, args, args.warm_duration)
        )
        print(
            f"\n  members' reads/s as a share of the floor ({floor:.1f}/s): "
            f"cold {cold:.1f}/s = 1/{floor / cold:.1f}, warm {warm:.1f}/s = 1/{floor / warm:.1f} "
            "(targets: cold 1/5 with the shared cache, warm 1/3)"
        )
    finally:
        os.killpg(gunicorn.pid, signal.SIGTERM)
        try:
            gunicorn.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(gunicorn.pid, signal.SIGKILL)
            gunicorn.wait()


def phase(
    port: int,
    season: Season,
    args: argparse.Namespace,
    seconds: float,
    paths_of: Callable[[Season], list[tuple[str, str, int]]] = member_paths,
    readers_only: bool = False,
) -> tuple[Tally, float]:
    """Run the readers (and, unless ``readers_only``, the TD and the guesser) for ``seconds``."""
    season = with_versions(season)  # the games' versions after the phase before
    tally = Tally()
    started = time.monotonic()
    deadline = started + seconds
    threads = [
        threading.Thread(target=member, args=(port, season, deadline, tally, seed, paths_of))
        for seed in range(args.users)
    ]
    if not readers_only:
        threads.append(
            threading.Thread(
                target=tournament_director,
                args=(port, season, deadline, tally, args.save_every, args.correction_every),
            )
        )
        threads.append(threading.Thread(target=password_guesser, args=(port, deadline, tally)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    return tally, time.monotonic() - started


def forget_redis_keys(url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60, help="cold phase seconds (60)")
    parser.add_argument("--warm-duration", type=float, default=60, help="warm phase seconds")
    parser.add_argument("--trivial-duration", type=float, default=20, help="floor seconds")
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--save-every", type=float, default=2.0, help="seconds between saves")
    parser.add_argument("--correction-every", type=int, default=10, help="0: never")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--database", default="clubcomp_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--only", choices=["memory", "redis"], default=None)
    parser.add_argument("--smoke", action="store_true", help="a few seconds (CI's smoke run)")
    args = parser.parse_args()
    if args.smoke:
        args.duration, args.warm_duration, args.trivial_duration = 2, 2, 1
        args.users, args.workers, args.players, args.rounds = 2, 1, 8, 3
        args.save_every, args.correction_every = 0.5, 3
        args.database = "clubcomp_bench_smoke"
        with socket.socket() as free:  # another run may hold the usual port
            free.bind((HOST, 0))
            args.port = free.getsockname()[1]

    prefix = f"clubcomp-bench-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.load_settings",
        "DATABASE_URL": database_url(args.database),
        "SECRET_KEY": "bench-only-not-a-secret",
        "ALLOWED_HOSTS": HOST,
        "SECURE_COOKIES": "0",
        "CACHE_KEY_PREFIX": prefix,
        "PYTHONPATH": str(ROOT),
    }
    for name in ("DEBUG", "REDIS_URL", "CACHE_URL"):
        env.pop(name, None)
    os.environ.update(env)
    os.environ.pop("DEBUG", None)
    recreate_database(args.database)
    try:
        started = time.perf_counter()
        season = build(args.players, args.rounds)
        print(f"{args.players} participants × {args.rounds} rounds built in "
              f"{time.perf_counter() - started:.0f} s; {args.users} members, gunicorn "
              f"{args.workers} workers, {args.duration:.0f} s per run")  # fmt: skip
        from django.db import connections

        connections.close_all()  # the database is dropped at the end
        if args.only in (None, "memory"):
            run("in-memory cache (one per worker)", env, season, args)
        if args.only in (None, "redis"):
            try:
                run("Redis (shared)", {**env, "REDIS_URL": args.redis_url}, season, args)
            finally:
                forget_redis_keys(args.redis_url, prefix)
    finally:
        recreate_database(args.database, drop_only=True)


if __name__ == "__main__":
    main()
