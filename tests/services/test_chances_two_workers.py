"""Two worker processes and one season: one computation. Each worker runs the real
``db_worker`` (tests/services/queue_worker.py) on the test's database (on SQLite a copy of it in
a file, which other processes can open); the first to take a task claims the season and holds it
while it computes, the second finds it claimed and ends without computing."""

from __future__ import annotations

import datetime
import json
import os
import queue
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django_tasks_db.models import DBTaskResult

from competition.models import ClubEvening, SeasonChancesJob
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db(transaction=True)

WORKERS = ("worker-one", "worker-two")


def database_url(tmp_path: Path) -> str:
    """A URL other processes reach the test's database by (SQLite: a file copy of it)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        copy = tmp_path / "workers.sqlite3"
        connection.ensure_connection()
        with sqlite3.connect(copy) as target:
            connection.connection.backup(target)
        return f"sqlite:///{copy}"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return (
        f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
        f"/{db['NAME']}"
    )


def helper(env: dict[str, str], *args: str, **popen: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.services.queue_worker", *args],
        cwd=settings.BASE_DIR,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        **popen,  # type: ignore[arg-type]
    )


def lines_of(process: subprocess.Popen[str], into: queue.Queue[tuple[int, str]], n: int) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        into.put((n, line))


def test_two_workers_and_one_season_make_one_computation(tmp_path: Path) -> None:
    season, _ = small_season()
    for number, day in ((3, 24), (4, 30)):
        ClubEvening.objects.create(
            season=season, date=datetime.date(2026, 9, day), round_number=number
        )
    DBTaskResult.objects.all().delete()  # the queue starts empty; the season waits for chances
    env = {
        **os.environ,
        "DATABASE_URL": database_url(tmp_path),
        "DJANGO_SETTINGS_MODULE": "clubcomp.settings_test",
        "CHANCES_SIMULATIONS": "50",
        "HOLD_SECONDS": "5",
    }
    lines: queue.Queue[tuple[int, str]] = queue.Queue()
    workers = [helper(env, "worker", name) for name in WORKERS]
    try:
        for n, worker in enumerate(workers):
            threading.Thread(target=lines_of, args=(worker, lines, n), daemon=True).start()
        started: set[int] = set()
        deadline = time.monotonic() + 120
        while started != {0, 1}:  # both workers poll the queue before anything is queued
            n, line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if "Starting worker" in line:
                started.add(n)
        enqueue = helper(env, "enqueue", str(season.pk), "2")
        assert enqueue.wait(120) == 0, enqueue.stdout.read() if enqueue.stdout else ""
        for worker in workers:
            assert worker.wait(180) == 0
    finally:
        for worker in workers:
            worker.kill()
    report = helper(env, "report", str(season.pk))
    out, _ = report.communicate(timeout=120)
    found = json.loads(out.strip().splitlines()[-1])

    tasks = found["tasks"]
    assert [t["status"] for t in tasks] == ["SUCCESSFUL", "SUCCESSFUL"]
    assert sorted(w for t in tasks for w in t["worker_ids"]) == sorted(WORKERS)
    outcomes = sorted(
        (t["return_value"]["computations"], t["return_value"]["claimed_elsewhere"]) for t in tasks
    )
    assert outcomes == [(0, True), (1, False)]  # the second came while the first computed
    job = found["job"]
    assert job["computations"] == 1
    assert job["requested"] == job["computed"] == 3  # the set-up's request and the two
    assert job["claimed_by"] == ""
    assert found["stored_after_round"] == 2
    assert SeasonChancesJob.objects.filter(season=season).exists()
