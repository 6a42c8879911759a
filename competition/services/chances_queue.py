"""Keeping every season's "can I still win?" fresh on the task queue, one season at a time.

A change that can move the chances calls :func:`chances_request` inside its own transaction:
it raises the season's :class:`~competition.models.SeasonChancesJob` ``requested`` counter and,
once the transaction commits, queues the task ``competition.tasks.season_chances``. A worker
running that task calls :func:`chances_job_run`, which

1. takes the season with one conditional UPDATE (``claimed_by`` empty or lapsed): on every
   database and across machines only one worker holds a season, and no transaction stays open
   while the simulation runs (on SQLite that would hold the club's write lock for minutes);
2. computes the chances (:func:`competition.services.chances.chances_compute`) while a thread
   renews the claim every :data:`RENEW_SECONDS`, so the claim of a worker that died lapses
   within :data:`CLAIM_SECONDS`;
3. records the request it answered and lets go, and computes again when ``requested`` moved on
   meanwhile (the queued task of that newer change found the season claimed and ended).

A task that finds nothing to do (already computed, or claimed by another worker) ends at once:
a newer change supersedes a queued one, and no season is computed twice at the same moment.
:func:`chances_sweep` queues the seasons whose request was left without a task (a worker that
died mid-task, a queue that was down at commit, an upgrade from the polling worker).
"""

from __future__ import annotations

import datetime
import logging
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from django.db import close_old_connections, connection, transaction
from django.db.models import F, Max, Q
from django.utils import timezone
from django.utils.crypto import get_random_string

from competition.models import Round, Season, SeasonChances, SeasonChancesJob
from competition.selectors.chances import chances_stale
from competition.services.background import after_commit
from competition.services.chances import chances_compute

logger = logging.getLogger(__name__)

CLAIM_SECONDS = 60  # a claim not renewed for this long is free for another worker
RENEW_SECONDS = 20


def chances_request(*, season: Season | int) -> None:
    """Ask for the season's chances to be computed anew (call inside the changing transaction:
    the task is queued when it commits, nothing when it rolls back)."""
    season_id = season if isinstance(season, int) else season.pk
    now = timezone.now()
    updated = SeasonChancesJob.objects.filter(season_id=season_id).update(
        requested=F("requested") + 1, requested_at=now
    )
    if not updated:
        job, created = SeasonChancesJob.objects.get_or_create(
            season_id=season_id, defaults={"requested": 1, "requested_at": now}
        )
        if not created:  # made by a concurrent request between the update and here
            SeasonChancesJob.objects.filter(pk=job.pk).update(
                requested=F("requested") + 1, requested_at=now
            )
    after_commit("season_chances", season_id=season_id)


@dataclass(frozen=True)
class JobOutcome:
    """What one task did for its season: ``computations`` made (0: nothing to do, or
    ``claimed_elsewhere``)."""

    season_id: int
    computations: int
    claimed_elsewhere: bool = False

    def as_json(self) -> dict[str, object]:
        return {
            "season_id": self.season_id,
            "computations": self.computations,
            "claimed_elsewhere": self.claimed_elsewhere,
        }


def _claim(season_id: int, worker: str) -> int | None:
    """Take the season for ``worker`` when it has work and nobody else holds it: the request
    number this computation answers, or None."""
    now = timezone.now()
    taken = (
        SeasonChancesJob.objects.filter(season_id=season_id, requested__gt=F("computed"))
        .filter(Q(claimed_by="") | Q(claimed_until__lt=now) | Q(claimed_until__isnull=True))
        .update(claimed_by=worker, claimed_until=now + datetime.timedelta(seconds=CLAIM_SECONDS))
    )
    if not taken:
        return None
    return SeasonChancesJob.objects.filter(season_id=season_id).values_list("requested", flat=True)[
        0
    ]


def _release(season_id: int, worker: str, *, answered: int | None, error: str = "") -> bool:
    """Let go of the season (recording the request answered, if any); False when the claim had
    lapsed and another worker took it meanwhile."""
    fields: dict[str, object] = {"claimed_by": "", "claimed_until": None}
    if answered is not None:
        fields |= {
            "computed": answered,
            "computed_at": timezone.now(),
            "computations": F("computations") + 1,
            "last_error": "",
        }
    if error:
        fields["last_error"] = error[-4000:]
    return bool(
        SeasonChancesJob.objects.filter(season_id=season_id, claimed_by=worker).update(**fields)
    )


class _Renewal:
    """Renews ``worker``'s claim of a season every :data:`RENEW_SECONDS` until stopped (a
    thread with its own database connection)."""

    def __init__(self, season_id: int, worker: str) -> None:
        self.season_id, self.worker = season_id, worker
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"claim-{season_id}", daemon=True)

    def __enter__(self) -> _Renewal:
        if connection.vendor != "sqlite" or not connection.settings_dict["NAME"].startswith(
            ("file:memorydb", ":memory:")
        ):
            self._thread.start()  # an in-memory SQLite database is not shared with a thread
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        try:
            while not self._stop.wait(RENEW_SECONDS):
                SeasonChancesJob.objects.filter(
                    season_id=self.season_id, claimed_by=self.worker
                ).update(claimed_until=timezone.now() + datetime.timedelta(seconds=CLAIM_SECONDS))
        except Exception:  # the worker's own release says whether the claim held
            logger.exception("could not renew the claim of season %s", self.season_id)
        finally:
            close_old_connections()
            connection.close()


def chances_job_run(
    *,
    season_id: int,
    worker: str | None = None,
    compute: Callable[[Season], object] | None = None,
) -> JobOutcome:
    """Bring the season's stored chances up to its latest request (the ``season_chances``
    task). A failing computation releases the season with its error and raises, so the task
    is retried and the failure shows in the admin."""
    worker = worker or get_random_string(16)
    compute = compute or (lambda season: chances_compute(season=season))
    computations = 0
    while True:
        answering = _claim(season_id, worker)
        if answering is None:
            job = SeasonChancesJob.objects.filter(season_id=season_id).first()
            busy = job is not None and job.pending and job.claimed_by not in ("", worker)
            return JobOutcome(season_id, computations, claimed_elsewhere=busy)
        season = Season.objects.filter(pk=season_id).first()
        if season is None:  # deleted meanwhile: its job row went with it
            return JobOutcome(season_id, computations)
        try:
            with _Renewal(season_id, worker):
                compute(season)
        except Exception:
            _release(season_id, worker, answered=None, error=traceback.format_exc())
            raise
        computations += 1
        if not _release(season_id, worker, answered=answering):
            # The claim lapsed and another worker took the season: it computes the latest.
            logger.warning("claim of season %s lapsed during the computation", season_id)
            return JobOutcome(season_id, computations)


def chances_pending(*, season: Season) -> bool:
    """Whether a computation of the season's chances is asked for and not yet done."""
    return SeasonChancesJob.objects.filter(season=season, requested__gt=F("computed")).exists()


def chances_sweep(*, stale_after: datetime.timedelta = datetime.timedelta(minutes=10)) -> int:
    """Queue a task for every season whose request is older than ``stale_after`` and held by
    no worker, and ask for every running season whose stored chances no longer describe it
    and that has no request (seasons from before the task queue); the number queued. Run by
    the nightly task and when a worker starts (``manage.py chances_refresh``)."""
    now = timezone.now()
    waiting = SeasonChancesJob.objects.filter(
        requested__gt=F("computed"), requested_at__lt=now - stale_after
    ).filter(Q(claimed_by="") | Q(claimed_until__lt=now))
    queued = 0
    for season_id in waiting.values_list("season_id", flat=True):
        after_commit("season_chances", season_id=season_id)
        queued += 1
    seasons = (
        Season.objects.filter(status=Season.Status.RUNNING, chances_job__isnull=True)
        .annotate(
            last_completed=Max("rounds__number", filter=Q(rounds__status=Round.Status.COMPLETED))
        )
        .filter(last_completed__isnull=False)
    )
    for season in seasons:
        stored = SeasonChances.objects.filter(season=season).first()
        if chances_stale(season=season, chances=stored):
            with transaction.atomic():
                chances_request(season=season)
            queued += 1
    return queued
