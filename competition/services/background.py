"""Queueing background work from a service: a task runs only for a change that was saved.

:func:`after_commit` queues one of the tasks of :mod:`competition.tasks` when the current
transaction commits (at once outside a transaction), so a change that is rolled back queues
nothing and a worker never sees a change that is not yet saved. The task is named, not
imported: the tasks call the services, so the services cannot import them first.
"""

from __future__ import annotations

import logging
from importlib import import_module
from typing import Any

from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue_now(task_name: str, /, **kwargs: Any) -> None:
    """Queue ``competition.tasks.<task_name>`` with ``kwargs`` at once."""
    task = getattr(import_module("competition.tasks"), task_name)
    task.enqueue(**kwargs)


def after_commit(task_name: str, /, **kwargs: Any) -> None:
    """Queue ``competition.tasks.<task_name>`` with ``kwargs`` once the transaction commits.

    A queue that cannot take the task is logged and does not undo the change, which is saved
    by then (the chances sweep finds a season whose request was left without a task)."""
    transaction.on_commit(lambda: enqueue_now(task_name, **kwargs), robust=True)
