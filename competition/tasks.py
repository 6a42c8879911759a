"""The background work of clubcomp, as tasks of Django's tasks API (``manage.py db_worker`` runs
them; docs/decisions.md "Background work").

Each task is a thin entry point, like a view: it calls a service. The services queue them
with :func:`competition.services.background.after_commit`, once their transaction commits.

- ``season_chances``: "can I still win?" of one season (competition.services.chances_queue);
- ``participant_explanations``: every participant's page after a season's latest round
  (competition.services.explanations);
- ``mail_invitation``, ``mail_pairing_published``, ``mail_result_corrected``,
  ``mail_password_reset``: every mail the site sends, never inside a request;
- ``push_pairing_published``: the Web Push notices of a published pairing
  (competition.services.push);
- ``backup_nightly``: the database dump and the season archives, each night at
  ``BACKUP_TIME``, when ``BACKUP_DIR`` is set; first it gives the pending games past their
  season's deadline a double forfeit (competition.services.postponed; without nightly backups
  ``manage.py expire_pending_games`` does it from cron).

A task that raises is tried again (:func:`retried`): ``TASK_ATTEMPTS`` attempts in all, the
first retry after ``TASK_RETRY_SECONDS``, each later one after twice the wait before. Every
failed attempt stays in the admin with its error (*Tasks › Task results*, status failed). An
error with a ``retry_with`` mapping narrows the next attempt (the push retries only the devices
that failed).
"""

from __future__ import annotations

import datetime
import functools
import logging
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.utils import timezone
from django_tasks import task

from competition.services import chances_queue, explanations, notifications, postponed, push

logger = logging.getLogger(__name__)

T = TypeVar("T")

MAIL_PRIORITY = 50  # a member waits for his mail; the chances may take a moment longer
EXPLANATIONS_PRIORITY = 25  # members open their pages right after a result
CHANCES_PRIORITY = 0
BACKUP_PRIORITY = -50


def retry_delay(attempt: int) -> datetime.timedelta:
    """The wait before attempt ``attempt + 1``: ``TASK_RETRY_SECONDS`` × 2^(attempt − 1).

    >>> from django.conf import settings
    >>> [retry_delay(n).total_seconds() / settings.TASK_RETRY_SECONDS for n in (1, 2, 3)]
    [1.0, 2.0, 4.0]
    """
    return datetime.timedelta(seconds=settings.TASK_RETRY_SECONDS * 2 ** (attempt - 1))


def retried(func: Callable[..., T]) -> Callable[..., T]:
    """Try the task again later when it raises: the failed attempt queues the next one (with
    ``attempt`` one higher, after :func:`retry_delay`) and then fails itself, so its error is
    kept; the last attempt only fails. The decorated function takes keyword arguments only."""

    @functools.wraps(func)
    def attempt_once(*, attempt: int = 1, **kwargs: Any) -> T:
        try:
            return func(**kwargs)
        except Exception as error:
            if attempt < settings.TASK_ATTEMPTS:
                itself = getattr(sys.modules[func.__module__], func.__name__)
                itself.using(run_after=timezone.now() + retry_delay(attempt)).enqueue(
                    attempt=attempt + 1, **{**kwargs, **getattr(error, "retry_with", {})}
                )
                logger.warning("%s failed (attempt %d); retried later", func.__name__, attempt)
            else:
                logger.error("%s failed for good after %d attempts", func.__name__, attempt)
            raise

    return attempt_once


@task(priority=CHANCES_PRIORITY)
@retried
def season_chances(*, season_id: int) -> dict[str, object]:
    """Compute the season's chances unless another worker is on it or they are up to date."""
    return chances_queue.chances_job_run(season_id=season_id).as_json()


@task(priority=EXPLANATIONS_PRIORITY)
@retried
def participant_explanations(*, season_id: int) -> int:
    """Store the season's participant pages after its latest round (those not yet stored)."""
    return explanations.explanations_store(season_id=season_id)


@task(priority=MAIL_PRIORITY)
@retried
def mail_invitation(*, invitation_id: int, link: str) -> int:
    return notifications.invitation_mail_send(invitation_id=invitation_id, link=link)


@task(priority=MAIL_PRIORITY)
@retried
def mail_pairing_published(*, round_id: int) -> int:
    return notifications.pairing_published_notify(round_id=round_id)


@task(priority=MAIL_PRIORITY)
@retried
def push_pairing_published(*, round_id: int, subscription_ids: list[int] | None = None) -> int:
    return push.pairing_published_push(round_id=round_id, subscription_ids=subscription_ids)


@task(priority=MAIL_PRIORITY)
@retried
def mail_result_corrected(*, game_id: int | None = None, entry_id: int | None = None) -> int:
    return notifications.result_corrected_notify(game_id=game_id, entry_id=entry_id)


@task(priority=MAIL_PRIORITY)
@retried
def mail_password_reset(*, email: str, domain: str, use_https: bool) -> int:
    return notifications.password_reset_mail(email=email, domain=domain, use_https=use_https)


@task(priority=BACKUP_PRIORITY)
@retried
def backup_nightly(*, night: str) -> dict[str, object]:
    """The backup of ``night`` (an ISO date); queues the next night's first, so one failing
    night does not end the series."""
    from competition.services import backups

    backups.backup_schedule_next(after=datetime.date.fromisoformat(night))
    # Games on another date past their season's deadline: settled before the backup keeps them.
    postponed.pending_games_expire(today=datetime.date.fromisoformat(night))
    made = backups.backup_make(night=night)
    chances_queue.chances_sweep()
    explanations.explanations_sweep()
    return made
