"""Helper processes of tests/services/test_chances_two_workers.py, on the database that
``DATABASE_URL`` names (the test's own):

- ``worker ID``: the real ``db_worker`` running one task, with each chances computation held
  for ``HOLD_SECONDS`` more, so that a second worker surely comes while the first computes;
- ``enqueue SEASON_ID N``: N changes asking for the season's chances, in one transaction;
- ``report SEASON_ID``: the season's job row and the tasks' outcomes, as JSON.
"""

from __future__ import annotations

import json
import os
import sys
import time

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402


def worker(worker_id: str) -> None:
    from competition.services import chances_queue

    computing = chances_queue.chances_compute

    def held(**kwargs: object) -> object:
        stored = computing(**kwargs)  # type: ignore[arg-type]
        time.sleep(float(os.environ.get("HOLD_SECONDS", "5")))
        return stored

    chances_queue.chances_compute = held  # type: ignore[assignment]
    call_command(
        "db_worker",
        "--no-reload",
        "--no-startup-delay",
        "--interval=0.05",
        "--max-tasks=1",
        f"--worker-id={worker_id}",
        verbosity=1,
    )


def enqueue(season_id: int, count: int) -> None:
    from competition.services.chances_queue import chances_request

    with transaction.atomic():
        for _ in range(count):
            chances_request(season=season_id)


def report(season_id: int) -> None:
    from django_tasks_db.models import DBTaskResult

    from competition.models import SeasonChances, SeasonChancesJob

    job = SeasonChancesJob.objects.filter(season_id=season_id).values().first()
    tasks = [
        {
            "status": t.status,
            "worker_ids": t.worker_ids,
            "return_value": t.return_value,
            "started_at": t.started_at.isoformat() if t.started_at else None,
            "finished_at": t.finished_at.isoformat() if t.finished_at else None,
        }
        for t in DBTaskResult.objects.order_by("enqueued_at")
    ]
    stored = SeasonChances.objects.filter(season_id=season_id).first()
    print(
        json.dumps(
            {
                "job": job,
                "tasks": tasks,
                "stored_after_round": stored.after_round if stored else None,
            },
            default=str,
        )
    )


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    if command == "worker":
        worker(rest[0])
    elif command == "enqueue":
        enqueue(int(rest[0]), int(rest[1]))
    else:
        report(int(rest[0]))
