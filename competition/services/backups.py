"""The nightly backup as a task: ``bin/backup --local`` (the PostgreSQL dump and every season's
archive, written under temporary names and renamed when complete; the newest ``BACKUP_KEEP``
kept) each night at ``BACKUP_TIME`` (local time) into ``BACKUP_DIR``.

The task queue has no schedule of its own, so each night's task queues the next night's before
it starts its work (:func:`backup_schedule_next`): one failing night, retried with backoff and
then shown failed in the admin, does not end the series. Queueing is idempotent: a night that
already has a backup task waiting is not queued twice (``manage.py backup_schedule`` on every
worker's start queues the first).
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from competition.services.errors import ServiceError

TASK_PATH = "competition.tasks.backup_nightly"


def backup_moment(night: datetime.date) -> datetime.datetime:
    """When the backup of ``night`` runs: ``BACKUP_TIME`` on that date, in the site's zone."""
    hour, minute = (int(part) for part in settings.BACKUP_TIME.split(":"))
    moment = datetime.datetime.combine(night, datetime.time(hour, minute))
    return timezone.make_aware(moment)


def backup_schedule_next(*, after: datetime.date | None = None) -> datetime.date | None:
    """Queue the backup of the first night after ``after`` (default: the next ``BACKUP_TIME``
    from now) unless one is waiting for that night; the night, or None without ``BACKUP_DIR``."""
    if not settings.BACKUP_DIR:
        return None
    if after is None:
        now = timezone.localtime()
        night = now.date()
        if now >= backup_moment(night):
            night += datetime.timedelta(days=1)
    else:
        night = after + datetime.timedelta(days=1)
    waiting = DBTaskResult.objects.filter(
        task_path=TASK_PATH, status="READY", args_kwargs__kwargs__night=night.isoformat()
    )
    if not waiting.exists():
        from competition import tasks

        tasks.backup_nightly.using(run_after=backup_moment(night)).enqueue(night=night.isoformat())
    return night


def backup_make(*, night: str) -> dict[str, object]:
    """Write the backup (``bin/backup --local --keep BACKUP_KEEP BACKUP_DIR``); raises when it
    fails (the task is retried), after pruning task results older than 14 days."""
    if not settings.BACKUP_DIR:
        raise ServiceError("BACKUP_DIR is not set: no nightly backup.")
    script = Path(settings.BASE_DIR) / "bin" / "backup"
    env = {**os.environ, "PYTHON": sys.executable}
    run = subprocess.run(
        [str(script), "--local", "--keep", str(settings.BACKUP_KEEP), settings.BACKUP_DIR],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=6 * 3600,
    )
    if run.returncode != 0:
        raise RuntimeError(f"bin/backup failed ({run.returncode}): {run.stderr[-2000:]}")
    call_command("prune_db_task_results", "--min-age-days", "14", verbosity=0)
    return {"night": night, "output": run.stdout[-1000:]}
