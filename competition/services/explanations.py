"""Every participant's page after the latest round, computed by the worker and stored beside the
standings snapshot, so that the page members load most is read instead of computed.

A participant's page explains every figure from every game of the season, and why he moved in
each round: the engine over the whole season, about as long as the standings themselves on
every request. :func:`~competition.services.standings.standings_recompute` (every change of a
season's results or rules) queues the task ``participant_explanations`` when its transaction
commits; the worker runs :func:`explanations_store`, which computes each participant's page
after the latest round once, from one reading of the season, and stores it
(``ParticipantExplanation``, without names: competition.selectors.page_payload).

A stored page belongs to its snapshot and is deleted with it: the next change's recompute
replaces the snapshots, so a page never outlives the results it explains. A computation
overtaken by such a change stores nothing (its snapshot is gone; the newer change queued its
own task). Until the worker has stored them, and for earlier rounds, the pages are computed on
request as before: the same page either way (tests/views/test_participant_stored.py).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from competition.models import Participant, ParticipantExplanation, Season, StandingsSnapshot
from competition.selectors.page_payload import LAYOUT, page_to_text
from competition.selectors.participants import participant_page, season_input_for_page
from competition.selectors.snapshots import snapshot_texts
from competition.services.background import after_commit, enqueue_now

logger = logging.getLogger(__name__)


def explanations_request(*, season: Season) -> None:
    """Queue the computation of the season's participant pages once the current transaction
    commits (nothing when it rolls back)."""
    after_commit("participant_explanations", season_id=season.pk)


def explanations_store(*, season_id: int) -> int:
    """Store the page after the latest round of every participant of the season that has none
    yet; the number stored (0: nothing to do, or overtaken by a newer change)."""
    latest = (
        StandingsSnapshot.objects.filter(season_id=season_id)
        .order_by("-round_number")
        .values_list("pk", "round_number")
        .first()
    )
    season = Season.objects.filter(pk=season_id).first()
    if latest is None or season is None:
        return 0
    snapshot_id, round_number = latest
    done = set(
        ParticipantExplanation.objects.filter(snapshot_id=snapshot_id, layout=LAYOUT).values_list(
            "participant_id", flat=True
        )
    )
    if len(done) == Participant.objects.filter(season_id=season_id).count():
        return 0
    # read after the snapshot: a change committed since replaced it, and the rows below then
    # fail on their snapshot, which is gone
    season_in, names = season_input_for_page(season=season)
    texts = snapshot_texts(season_id=season_id)
    rows = []
    for participant_id in names:
        if participant_id in done:
            continue
        page = participant_page(
            season=season,
            season_in=season_in,
            names=names,
            texts=texts,
            participant_id=participant_id,
            after_round=round_number,
        )
        if page.error:  # a message in the worker's language: computed for each reader instead
            continue
        rows.append(
            ParticipantExplanation(
                snapshot_id=snapshot_id,
                participant_id=participant_id,
                layout=LAYOUT,
                payload=page_to_text(page=page),
            )
        )
    try:
        with transaction.atomic():
            # the snapshot still there, and held until the rows are in (PostgreSQL): a change
            # that replaces it waits, then takes these rows with it
            if not StandingsSnapshot.objects.select_for_update().filter(pk=snapshot_id).exists():
                logger.info("season %s changed while its pages were computed", season_id)
                return 0
            # written by an earlier version of the code: never read
            ParticipantExplanation.objects.filter(snapshot__season_id=season_id).exclude(
                layout=LAYOUT
            ).delete()
            ParticipantExplanation.objects.bulk_create(rows, ignore_conflicts=True)
    except IntegrityError:  # SQLite: the snapshot went between the check and the commit
        logger.info("season %s changed while its pages were computed", season_id)
        return 0
    return len(rows)


def explanations_sweep() -> int:
    """Queue the computation for every season whose latest snapshot lacks a participant's
    stored page (a queue that was down when the change committed, a worker that died, a
    restore, an upgrade); the number queued. Run when a worker starts and each night."""

    def counted(rows: QuerySet[Any]) -> Subquery:
        return Subquery(rows.order_by().values("season_key").annotate(n=Count("pk")).values("n"))

    stored = ParticipantExplanation.objects.filter(
        snapshot__season=OuterRef("pk"),
        snapshot__round_number=OuterRef("latest"),
        layout=LAYOUT,
    ).annotate(season_key=F("snapshot__season"))
    enrolled = Participant.objects.filter(season=OuterRef("pk")).annotate(season_key=F("season"))
    # one query for every season, not two per season: a worker runs this when it starts
    lacking = (
        Season.objects.annotate(
            latest=Subquery(
                StandingsSnapshot.objects.filter(season=OuterRef("pk"))
                .order_by("-round_number")
                .values("round_number")[:1]
            )
        )
        .filter(latest__isnull=False)
        .annotate(
            stored=Coalesce(counted(stored), 0),
            enrolled=Coalesce(counted(enrolled), 0),
        )
        .filter(stored__lt=F("enrolled"))
        .values_list("pk", flat=True)
    )
    queued = 0
    for season_id in lacking:
        enqueue_now("participant_explanations", season_id=season_id)
        queued += 1
    return queued
