"""The task queue in tests: the real database backend and the real worker of django-tasks-db.

``run_worker()`` runs ``db_worker``'s own ``Worker`` in this process in batch mode (every ready
task, then stop), as ``manage.py db_worker --batch`` does, without its signal handlers (they
would take Ctrl-C away from pytest) and without its ``close_old_connections`` between tasks: in
a test's transaction that would close the connection and with it the test's data (SQLite's
in-memory database ignores it; PostgreSQL does not). ``queued()`` lists the tasks waiting, by
task name.
"""

from __future__ import annotations

from unittest import mock

from django_tasks_db.management.commands import db_worker
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult


def run_worker(worker_id: str = "test-worker") -> int:
    """Run every task that is ready now; the number of tasks run."""
    before = DBTaskResult.objects.exclude(status="READY").count()
    worker = Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )
    with mock.patch.object(db_worker, "close_old_connections", lambda: None):
        worker.run()
    return DBTaskResult.objects.exclude(status="READY").count() - before


def queued(name: str | None = None) -> list[DBTaskResult]:
    """The tasks waiting to run (``name``: only those of ``competition.tasks.<name>``)."""
    tasks = DBTaskResult.objects.filter(status="READY").order_by("enqueued_at")
    if name is not None:
        tasks = tasks.filter(task_path=f"competition.tasks.{name}")
    return list(tasks)
