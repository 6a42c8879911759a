""" "Can I still win?" on the task queue: one job queued per change, run by the real worker,
one season computed by one worker at a time, newer changes superseding queued ones, retries with
a growing wait, failures kept for the admin."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from competition.models import ClubEvening, Game, Round, SeasonChances, SeasonChancesJob
from competition.services import chances_queue
from competition.services.chances_queue import chances_job_run, chances_request, chances_sweep
from competition.services.rounds import round_complete
from tests.factories import GameFactory, RoundEntryFactory, RoundFactory
from tests.tasks import queued, run_worker
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _few_simulations(settings) -> None:
    settings.CHANCES_SIMULATIONS = 20


def calendar_season():
    """The small season (rounds 1 and 2 completed) with evenings for rounds 3 and 4."""
    season, people = small_season()
    for number, day in ((3, 24), (4, 30)):
        ClubEvening.objects.create(
            season=season, date=datetime.date(2026, 9, day), round_number=number
        )
    return season, people


def third_round(season, people) -> Round:
    a, b, c, d, e = (people[k] for k in "ABCDE")
    third = RoundFactory(
        season=season, number=3, date=datetime.date(2026, 9, 24), status=Round.Status.PAIRED
    )
    GameFactory(round=third, board=1, white=a, black=d, result=Game.Result.WHITE_WINS)
    GameFactory(round=third, board=2, white=b, black=c, result=Game.Result.DRAW)
    RoundEntryFactory(round=third, participant=e, kind="bye", points=1)
    return third


def job_of(season) -> SeasonChancesJob:
    return SeasonChancesJob.objects.get(season=season)


def test_closing_a_round_queues_one_job_that_the_worker_runs(
    django_capture_on_commit_callbacks,
) -> None:
    season, people = calendar_season()
    third = third_round(season, people)
    DBTaskResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        round_complete(round=third, user=None)
    # the chances, and the participants' pages after the new round (services/explanations)
    task, pages = queued()
    assert task.task_path == "competition.tasks.season_chances"
    assert task.args_kwargs == {"args": [], "kwargs": {"season_id": season.pk}}
    assert pages.task_path == "competition.tasks.participant_explanations"
    assert job_of(season).pending
    assert not SeasonChances.objects.filter(season=season).exists()

    assert run_worker() == 2
    task.refresh_from_db()
    assert task.status == "SUCCESSFUL"
    assert task.return_value == {
        "season_id": season.pk,
        "computations": 1,
        "claimed_elsewhere": False,
    }
    stored = SeasonChances.objects.get(season=season)
    assert (stored.after_round, stored.rounds_left, stored.simulations) == (3, 1, 20)
    job = job_of(season)
    assert not job.pending and job.computations == 1 and job.claimed_by == ""


def test_a_change_rolled_back_queues_nothing(django_capture_on_commit_callbacks) -> None:
    season, _ = calendar_season()
    DBTaskResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        chances_request(season=season)
    assert queued() == []  # queued only when the transaction commits
    assert len(callbacks) == 1


def test_newer_changes_supersede_the_queued_jobs(django_capture_on_commit_callbacks) -> None:
    season, _ = calendar_season()
    DBTaskResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            chances_request(season=season)
    assert len(queued("season_chances")) == 3
    assert run_worker() == 3
    outcomes = [
        t.return_value["computations"] for t in DBTaskResult.objects.order_by("enqueued_at")
    ]
    assert sorted(outcomes) == [0, 0, 1]  # the first computes the latest; the others end
    assert job_of(season).computations == 1
    assert (job_of(season).requested, job_of(season).computed) == (4, 4)  # 1 from the set-up


def test_a_season_held_by_another_worker_is_left_to_it_until_its_claim_lapses() -> None:
    season, _ = calendar_season()
    computed = []
    SeasonChancesJob.objects.filter(season=season).update(
        claimed_by="other-worker", claimed_until=timezone.now() + datetime.timedelta(seconds=30)
    )
    outcome = chances_job_run(season_id=season.pk, compute=computed.append)
    assert (outcome.computations, outcome.claimed_elsewhere) == (0, True)
    assert computed == []
    # The other worker died: its claim is not renewed and lapses.
    SeasonChancesJob.objects.filter(season=season).update(
        claimed_until=timezone.now() - datetime.timedelta(seconds=1)
    )
    outcome = chances_job_run(season_id=season.pk, compute=computed.append)
    assert outcome.computations == 1 and [s.pk for s in computed] == [season.pk]
    assert job_of(season).claimed_by == ""


def test_a_change_during_the_computation_is_computed_before_letting_go() -> None:
    season, _ = calendar_season()
    seen = []

    def compute(computing) -> None:
        seen.append(job_of(computing).requested)
        if len(seen) == 1:  # the TD corrects a result while the worker computes
            chances_request(season=computing)

    outcome = chances_job_run(season_id=season.pk, compute=compute)
    assert outcome.computations == 2
    assert seen == [1, 2]
    job = job_of(season)
    assert (job.requested, job.computed, job.computations) == (2, 2, 2)


def test_a_failing_computation_is_retried_later_and_kept_with_its_error(
    monkeypatch, settings, django_capture_on_commit_callbacks
) -> None:
    settings.TASK_ATTEMPTS, settings.TASK_RETRY_SECONDS = 2, 30
    season, _ = calendar_season()

    def broken(*, season):
        raise RuntimeError("the simulation broke")

    monkeypatch.setattr(chances_queue, "chances_compute", broken)
    DBTaskResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        chances_request(season=season)
    started = timezone.now()
    assert run_worker() == 1
    (failed,) = DBTaskResult.objects.filter(status="FAILED")
    assert failed.exception_class_path == "builtins.RuntimeError"
    assert "the simulation broke" in failed.traceback
    (retry,) = queued("season_chances")
    assert retry.args_kwargs["kwargs"] == {"season_id": season.pk, "attempt": 2}
    wait = (retry.run_after - started).total_seconds()
    assert 29 <= wait <= 31
    job = job_of(season)
    assert job.pending and job.claimed_by == "" and "the simulation broke" in job.last_error

    # The retry's time comes; it fails again and, being the last attempt, queues nothing more.
    DBTaskResult.objects.filter(pk=retry.pk).update(run_after=timezone.now())
    assert run_worker() == 1
    assert DBTaskResult.objects.filter(status="FAILED").count() == 2
    assert queued() == []


def test_the_site_admin_sees_failed_tasks_with_their_error(client, superuser) -> None:
    from competition.tasks import season_chances

    result = season_chances.enqueue(season_id=999_999)
    DBTaskResult.objects.filter(pk=result.id).update(
        status="FAILED", exception_class_path="builtins.RuntimeError", traceback="boom at line 1"
    )
    client.force_login(superuser)
    listing = client.get("/admin/django_tasks_database/dbtaskresult/?status__exact=FAILED")
    assert listing.status_code == 200
    body = listing.content.decode()
    assert "season_chances" in body and "builtins.RuntimeError" in body
    detail = client.get(f"/admin/django_tasks_database/dbtaskresult/{result.id}/change/")
    assert "boom at line 1" in detail.content.decode()


def test_the_sweep_queues_a_request_left_without_a_task(
    django_capture_on_commit_callbacks,
) -> None:
    season, _ = calendar_season()  # its standings asked for chances; that task was lost
    DBTaskResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        assert chances_sweep() == 0  # a fresh request may still be on its way
    SeasonChancesJob.objects.filter(season=season).update(
        requested_at=timezone.now() - datetime.timedelta(hours=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert chances_sweep() == 1
    (task,) = queued("season_chances")
    assert task.args_kwargs["kwargs"] == {"season_id": season.pk}


def test_the_sweep_asks_for_running_seasons_from_before_the_queue(
    django_capture_on_commit_callbacks,
) -> None:
    season, _ = calendar_season()
    SeasonChancesJob.objects.all().delete()  # as after the upgrade
    DBTaskResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        assert chances_sweep() == 1
    assert job_of(season).pending
    assert len(queued("season_chances")) == 1
