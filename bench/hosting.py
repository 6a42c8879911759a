"""One club's pages on a database of 700 clubs, against the same club on a database of its own.

Run from the repository root: ``.venv/bin/python bench/hosting.py`` (PostgreSQL at
``postgres://postgres@127.0.0.1:5432/``, or ``--server``). It builds two databases once and
reuses them afterwards (``--rebuild`` builds them again):

- ``clubcomp_bench_one``: the measured club alone;
- ``clubcomp_bench_many``: the same club with the same rows and keys, among 699 others.

Every club has 60 members, 3 seasons of 35 rounds (about 75% attendance, seeded random results,
the last round of the running season open with half its results in), the history the TD's
services leave and the standings snapshots of the real engine (``bench/hosting_data.py``). The
big tables (games, absences, their history, the snapshots) are written with COPY, the others
with ``bulk_create``; the build time is printed.

Then, for the measured club (number 350, so that its rows sit in the middle of every table),
through Django's test client with every middleware: the standings page, a participant's page
(uncached: the page cache is emptied before every request) and the TD's results page and TD
home (logged in as the club's TD), each timed in alternating blocks on the two databases; the
median wall time, the number of SQL queries, and the ratio many/one. Last, ``EXPLAIN (ANALYZE,
BUFFERS)`` of the main queries on the many-clubs database, and any query of the measured pages
whose plan reads a big table whole (a ``Seq Scan``).

Options: ``--clubs``, ``--repeats``, ``--workers`` (processes making the rows), ``--rebuild``,
``--server``, ``--plans`` (print every query's plan, not only the main ones); ``--smoke`` builds 3
clubs in databases of their own (``clubcomp_bench_smoke_…``) and measures them once, in seconds
(CI's smoke run: the figures mean nothing then).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SERVER = "postgres://postgres@127.0.0.1:5432"
# --smoke (CI's smoke run): 3 clubs, built anew in databases of their own, every step once.
SMOKE = "--smoke" in sys.argv
ONE, MANY = (
    ("clubcomp_bench_smoke_one", "clubcomp_bench_smoke_many")
    if SMOKE
    else ("clubcomp_bench_one", "clubcomp_bench_many")
)
os.environ["DATABASE_URL"] = f"{SERVER}/{MANY}"
os.environ["DEBUG"] = "1"  # static files without collectstatic; the pages run with DEBUG off
os.environ.pop("REDIS_URL", None)  # the pages' own cost, not the cache's: this process's memory
os.environ.pop("CACHE_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubcomp.settings")

import django  # noqa: E402

django.setup()

import psycopg  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.management.color import no_style  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.hosting_data import (  # noqa: E402
    COPY_COLUMNS,
    SEASON_SLUGS,
    Shape,
    club_rows,
    club_slug,
    season_key,
)

CLUBS = 700
REPEATS = 15
BLOCKS = 3  # the repeats are split into this many alternating blocks per database
BIG_TABLE_ROWS = 20_000  # a Seq Scan on a table this big is a scan over all clubs
BUILD_TABLE = "bench_hosting_build"


# --------------------------------------------------------------------------------------------
# Building the databases


def use_database(name: str, server: str) -> None:
    """Point Django's default connection at database ``name`` (the next query reconnects)."""
    connection.close()
    match = re.match(r"postgres(?:ql)?://(?:([^@:]+)(?::([^@]*))?@)?([^:/]+)(?::(\d+))?", server)
    assert match, server
    connection.settings_dict.update(
        NAME=name,
        USER=match[1] or "",
        PASSWORD=match[2] or "",
        HOST=match[3],
        PORT=match[4] or "5432",
    )


def built_with(name: str, server: str) -> dict[str, Any] | None:
    """The parameters ``name`` was built with, or None when it is missing or unfinished."""
    with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=5) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return None
    with psycopg.connect(f"{server}/{name}", connect_timeout=5) as db:
        found = db.execute("SELECT to_regclass(%s)", [BUILD_TABLE]).fetchone()
        if found is None or found[0] is None:
            return None
        row = db.execute(f"SELECT parameters FROM {BUILD_TABLE}").fetchone()
        return None if row is None else json.loads(row[0])


def _made(index: int) -> Any:
    return club_rows(index, SHAPE)


SHAPE = Shape()


def build(name: str, clubs: list[int], server: str, workers: int) -> float:
    """Make database ``name`` afresh with ``clubs``; the seconds it took."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group, User

    from competition import models

    # the models made from each club's rows, in the order their foreign keys need
    inserted = [
        (models.Member, lambda r: r.members),
        (models.Season, lambda r: r.seasons),
        (models.SeasonRules, lambda r: r.rules),
        (models.Participant, lambda r: r.participants),
        (models.Round, lambda r: r.rounds),
        (models.ClubEvening, lambda r: r.evenings),
    ]

    def insert(model: type[Any], rows: list[dict[str, Any]]) -> None:
        model.objects.bulk_create((model(**row) for row in rows), 5000)

    started = time.perf_counter()
    connection.close()
    with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    use_database(name, server)
    call_command("migrate", verbosity=0)
    password = make_password("bench-only-2026")
    batch: list[Any] = []

    def flush() -> None:
        with transaction.atomic():
            Group.objects.bulk_create(Group(**g) for rows in batch for g in rows.groups)
            User.objects.bulk_create(
                User(id=r.td_user["id"], username=r.td_user["username"], password=password)
                for r in batch
            )
            User.groups.through.objects.bulk_create(
                User.groups.through(user_id=r.td_user["id"], group_id=r.td_user["group_id"])
                for r in batch
            )
            insert(models.Club, [r.club for r in batch])
            for model, rows_of in inserted:
                insert(model, [row for r in batch for row in rows_of(r)])
            raw = connection.connection
            assert raw is not None
            with raw.cursor() as cursor:
                for table, columns in COPY_COLUMNS.items():
                    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                        for rows in batch:
                            copy.write("".join(rows.copy[table]))
        batch.clear()

    connection.close()  # the workers are forked: they must not share the connection
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for done, rows in enumerate(pool.imap(_made, clubs, chunksize=4), start=1):
            batch.append(rows)
            if len(batch) == 25 or done == len(clubs):
                flush()
                print(f"\r  {name}: {done}/{len(clubs)} clubs", end="", flush=True)
    print()
    game, entry = models.Game, models.RoundEntry
    tables = [Group, User, User.groups.through, models.Club, *(m for m, _rows in inserted), game,
              entry, game.history.model, entry.history.model, models.StandingsSnapshot]  # fmt: skip
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), tables):
            cursor.execute(sql)
    connection.close()
    with psycopg.connect(f"{server}/{name}", autocommit=True) as db:
        db.execute("VACUUM ANALYZE")
    seconds = time.perf_counter() - started
    with psycopg.connect(f"{server}/{name}", autocommit=True) as db:
        db.execute(f"CREATE TABLE {BUILD_TABLE} (parameters text)")
        db.execute(
            f"INSERT INTO {BUILD_TABLE} VALUES (%s)",
            [json.dumps({"clubs": clubs if len(clubs) < 5 else len(clubs), "seconds": seconds})],
        )
    return seconds


def table_sizes(name: str, server: str) -> list[tuple[str, int, str]]:
    with psycopg.connect(f"{server}/{name}") as db:
        return db.execute(
            "SELECT relname, n_live_tup, pg_size_pretty(pg_total_relation_size(relid)) "
            "FROM pg_stat_user_tables WHERE relname LIKE 'competition_%%' AND n_live_tup > 1000 "
            "ORDER BY n_live_tup DESC"
        ).fetchall()


# --------------------------------------------------------------------------------------------
# Measuring


def pages(measured: int) -> list[tuple[str, str, bool]]:
    """(label, address, as the TD) of the measured club's pages."""
    from competition.clubs import club_url
    from competition.models import Participant

    slug = club_slug(measured)
    season = SEASON_SLUGS[SHAPE.seasons - 1]
    season_id = season_key(SHAPE, measured, SHAPE.seasons - 1)
    leader = Participant.objects.get(season_id=season_id, start_rank=1).pk
    return [
        ("standings", club_url(slug, "competition:standings", args=[season]), False),
        (
            "participant",
            club_url(slug, "competition:participant", args=[season, leader]),
            False,
        ),
        (
            "TD results (open round)",
            club_url(
                slug,
                "competition:td_results",
                kwargs={"season_slug": season, "round_number": SHAPE.rounds},
            ),
            True,
        ),
        ("TD home", club_url(slug, "competition:td_home"), True),
    ]


def client_for(measured: int, as_td: bool) -> Client:
    from django.contrib.auth.models import User

    client = Client()
    client.raise_request_exception = True
    if as_td:
        client.force_login(User.objects.get(username=f"wl-{club_slug(measured)}"))
    return client


def timed(client: Client, url: str, repeats: int) -> list[float]:
    client.get(url)  # warm up: the connection, templates, compiled SQL
    times = []
    for _ in range(repeats):
        cache.clear()
        started = time.perf_counter()
        response = client.get(url)
        times.append(1000 * (time.perf_counter() - started))
        assert response.status_code == 200, (url, response.status_code)
    return times


def counted(client: Client, url: str) -> list[str]:
    """The SQL of one uncached request for ``url``."""
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return [q["sql"] for q in queries.captured_queries]


def explain(sql: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
        return [row[0] for row in cursor.fetchall()]


def big_tables() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_class WHERE relkind = 'r' AND reltuples > %s",
            [BIG_TABLE_ROWS],
        )
        return {row[0] for row in cursor.fetchall()}


MAIN_QUERIES = [
    ("the season by club and address", r'FROM "competition_season".*"slug" ='),
    ("the season's games", r'^SELECT .*FROM "competition_game" '),
    ("the season's round entries", r'^SELECT .*FROM "competition_roundentry" '),
    ("the season's participants", r'^SELECT .*FROM "competition_participant" '),
    ("the season's snapshots", r'^SELECT .*FROM "competition_standingssnapshot" '),
    ("the corrections (history)", r'FROM "competition_historicalgame"'),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=CLUBS)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--server", default=SERVER)
    parser.add_argument("--plans", action="store_true", help="print every query's plan")
    parser.add_argument("--smoke", action="store_true", help="3 clubs (CI's smoke run)")
    options = parser.parse_args()
    if options.smoke:
        options.clubs, options.repeats, options.workers, options.rebuild = 3, BLOCKS, 1, True
    measured = options.clubs // 2
    wanted = {ONE: [measured], MANY: list(range(options.clubs))}
    for name, clubs in wanted.items():
        found = built_with(name, options.server)
        expected = clubs if len(clubs) < 5 else len(clubs)
        if options.rebuild or found is None or found["clubs"] != expected:
            seconds = build(name, clubs, options.server, options.workers)
            print(f"built {name}: {len(clubs)} clubs in {seconds:.0f} s")
        else:
            use_database(name, options.server)
            call_command("migrate", verbosity=0)  # a later schema (new columns) on the same data
            print(f"reusing {name} ({len(clubs)} clubs, built in {found['seconds']:.0f} s)")
    for name in (ONE, MANY):
        print(
            f"  {name}: "
            + ", ".join(f"{t} {n:,} rows {s}" for t, n, s in table_sizes(name, options.server))
        )

    use_database(MANY, options.server)
    listed = pages(measured)
    clients = {}  # sessions live in the database: a TD's login on each
    for name in (ONE, MANY):
        use_database(name, options.server)
        clients[name] = {as_td: client_for(measured, as_td) for as_td in (False, True)}
    results: dict[tuple[str, str], list[float]] = {}
    sql: dict[tuple[str, str], list[str]] = {}
    block = max(1, options.repeats // BLOCKS)
    with override_settings(DEBUG=False, ALLOWED_HOSTS=["testserver"]):
        for _ in range(BLOCKS):
            for name in (ONE, MANY):
                use_database(name, options.server)
                for label, url, as_td in listed:
                    results.setdefault((label, name), []).extend(
                        timed(clients[name][as_td], url, block)
                    )
        for name in (ONE, MANY):
            use_database(name, options.server)
            for label, url, as_td in listed:
                sql[(label, name)] = counted(clients[name][as_td], url)

        print()
        print(f"measured club {club_slug(measured)}; median of {block * BLOCKS} uncached requests")
        print(
            f"  {'page':26s} {'one ms':>8s} {'many ms':>8s} {'ratio':>6s} "
            f"{'one q':>6s} {'many q':>6s}"
        )
        for label, _url, _as_td in listed:
            one, many = (statistics.median(results[(label, n)]) for n in (ONE, MANY))
            q_one, q_many = (len(sql[(label, n)]) for n in (ONE, MANY))
            print(f"  {label:26s} {one:8.1f} {many:8.1f} {many / one:6.2f} {q_one:6d} {q_many:6d}")
        print("  addresses: " + ", ".join(url for _l, url, _t in listed))

        use_database(MANY, options.server)
        big = big_tables()
        print()
        print(f"EXPLAIN (ANALYZE, BUFFERS) on {MANY}")
        queries = [(label, q) for (label, name), found in sql.items() if name == MANY
                   for q in found]  # fmt: skip
        for title, pattern in MAIN_QUERIES:
            found = next((q for _label, q in queries if re.search(pattern, q, re.S)), None)
            if found is None:
                print(f"\n-- {title}: no such query in these pages")
                continue
            print(f"\n-- {title}\n{_short(found)}")
            for line in explain(found):
                print(f"   {line}")
        print()
        scans = 0
        for label, q in queries:
            if not q.lstrip().upper().startswith(("SELECT", "WITH", "(SELECT")):
                continue
            plan = explain(q)
            whole = [t for t in big if any(f"Seq Scan on {t} " in line for line in plan)]
            if whole or options.plans:
                scans += bool(whole)
                print(f"-- {label}: " + (f"Seq Scan on {', '.join(whole)}" if whole else ""))
                print(_short(q))
                for line in plan:
                    print(f"   {line}")
        print(
            f"queries reading a big table whole (> {BIG_TABLE_ROWS:,} rows): {scans} "
            f"of {len(queries)}"
        )


def _short(sql: str, width: int = 400) -> str:
    return sql if len(sql) <= width else sql[:width] + " …"


if __name__ == "__main__":
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        sys.exit("bench/hosting.py needs PostgreSQL")
    main()
