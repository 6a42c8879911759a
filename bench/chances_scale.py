"""The task queue at scale: on the 700-club database of ``bench/hosting.py``, N clubs complete
their open round (their running seasons mixed: a ladder under internal SB, a round robin, a
ladder under Keizer) while 1, 2 and 4 task workers run; how long until every one of those
seasons' "can I still win?" is fresh, whether any season was computed twice, and the page times
meanwhile.

Run from the repository root: ``.venv/bin/python bench/chances_scale.py`` (PostgreSQL at
``postgres://postgres@127.0.0.1:5432/``). It needs ``clubcomp_bench_many`` (built by
``bench/hosting.py``, or here when missing: about 11 minutes on an idle machine) and never
changes it: it copies it once to ``clubcomp_bench_queue_prep`` (migrated; the chosen clubs'
running seasons given their kinds and systems and ``--extra-rounds`` planned rounds after the
35th), and each run starts from a fresh copy of that (``clubcomp_bench_queue_run``).

Per run: the workers start (``manage.py db_worker``, ``CHANCES_SIMULATIONS=--simulations``),
then this process completes the chosen clubs' rounds one after the other through the TD's
services (the missing half of the results, then *close the round*), spread over
``--close-seconds`` (60), while a thread reads the chances and standings pages of those clubs
(Django's test client, uncached). Printed: the closing time (and each club's own: its results
and its close, median and 95th percentile, and the close alone), the time from the first closed
round until every chosen season's chances are computed, the computations per season (1 each:
none twice), the tasks run, and the pages' median and 95th percentile. Nothing is asserted.

Options: ``--clubs`` (300), ``--workers`` (1,2,4), ``--simulations`` (100), ``--extra-rounds``
(3), ``--close-seconds`` (60), ``--timeout`` (seconds per run, 3600), ``--server``. ``--smoke``
(CI's smoke run; the figures mean nothing then): 2 of the 3 clubs of ``bench/hosting.py``'s smoke
database (built when missing), 1 and 2 workers, 5 simulations, in databases of their own.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

# Django's modules once hosting has set Django up.
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402

from bench import hosting  # noqa: E402  (sets up Django on the many-clubs database)
from bench.hosting_data import Shape, club_slug, season_key  # noqa: E402

PREP, RUN = (
    ("clubcomp_bench_smoke_queue_prep", "clubcomp_bench_smoke_queue_run")
    if hosting.SMOKE
    else ("clubcomp_bench_queue_prep", "clubcomp_bench_queue_run")
)
SMOKE_CLUBS = [0, 1, 2]  # the clubs of hosting.py's smoke database
KINDS = ("ladder internal-sb", "round robin internal-sb", "ladder keizer")
SHAPE = Shape()


def clone(template: str, name: str, server: str) -> None:
    connection.close()
    with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=5) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
            [template],
        )
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


def chosen_clubs(count: int) -> list[int]:
    """``count`` clubs spread over the 700 (the measured club 350 of hosting.py left out)."""
    step = max(1, hosting.CLUBS // count)
    clubs = [c for c in range(0, hosting.CLUBS, step) if c != hosting.CLUBS // 2]
    return clubs[:count]


def running_season(club: int) -> int:
    return season_key(SHAPE, club, SHAPE.seasons - 1)


def prepare(clubs: list[int], extra_rounds: int, server: str) -> None:
    from competition.models import Season, SeasonChancesJob, SeasonRules

    clone(hosting.MANY, PREP, server)
    hosting.use_database(PREP, server)
    call_command("migrate", verbosity=0)
    for n, club in enumerate(clubs):
        kind = KINDS[n % len(KINDS)]
        sid = running_season(club)
        fields = {"planned_rounds": SHAPE.rounds + extra_rounds}
        if kind.startswith("round robin"):
            fields["kind"] = Season.Kind.ROUND_ROBIN
        if kind.endswith("keizer"):
            fields |= {"system": "keizer", "parameters": {}, "tiebreaks": []}
            SeasonRules.objects.filter(season_id=sid).update(
                system="keizer", parameters={}, tiebreaks=[]
            )
        Season.objects.filter(pk=sid).update(**fields)
    SeasonChancesJob.objects.all().delete()
    connection.close()


def start_workers(count: int, server: str, simulations: int) -> list[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "DATABASE_URL": f"{server}/{RUN}",
        "DJANGO_SETTINGS_MODULE": "clubcomp.settings",
        "CHANCES_SIMULATIONS": str(simulations),
        "DEBUG": "1",
    }
    return [
        subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay",
             "--interval", "0.2", "--worker-id", f"bench-{n}", "-v", "0"],
            cwd=ROOT, env=env, start_new_session=True,
        )
        for n in range(count)
    ]  # fmt: skip


class Closing:
    """What :func:`close_rounds` measured: the seconds from the first club's turn to the last
    round closed, and each club's own seconds (entering its results, closing its round)."""

    def __init__(self) -> None:
        self.elapsed = 0.0
        self.results: list[float] = []
        self.closes: list[float] = []

    def summary(self) -> str:
        work = [r + c for r, c in zip(self.results, self.closes, strict=True)]
        return (
            f"{len(work)} rounds closed in {self.elapsed:.0f} s (each club's TD busy "
            f"{sum(work):.0f} s in all: median {1000 * statistics.median(work):.0f} ms, "
            f"of which closing {1000 * statistics.median(self.closes):.0f} ms, "
            f"p95 {1000 * _p95(work):.0f} ms)"
        )


def _p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[18] if len(times) > 1 else times[0]


def close_rounds(clubs: list[int], seconds: float) -> Closing:
    """Each club's TD enters the missing results and closes the round, the clubs' turns spread
    evenly over ``seconds`` (a club whose turn came while the one before was still busy goes
    at once after it)."""
    from django.contrib.auth.models import User

    from competition.models import Game, Round
    from competition.services.rounds import result_record, round_complete

    rng = random.Random(2026)
    closing = Closing()
    started = time.perf_counter()
    for n, club in enumerate(clubs):
        due = started + seconds * n / len(clubs)
        if time.perf_counter() < due:
            time.sleep(due - time.perf_counter())
        began = time.perf_counter()
        sid = running_season(club)
        td = User.objects.get(username=f"wl-{club_slug(club)}")
        rnd = Round.objects.get(season_id=sid, status=Round.Status.PAIRED)
        for game in Game.objects.filter(round=rnd, result=""):
            result = rng.choice([Game.Result.WHITE_WINS, Game.Result.DRAW, Game.Result.BLACK_WINS])
            result_record(game_id=game.pk, result=result, expected_version=game.version, user=td)
        entered = time.perf_counter()
        round_complete(round=rnd, user=td)
        closing.results.append(entered - began)
        closing.closes.append(time.perf_counter() - entered)
    closing.elapsed = time.perf_counter() - started
    return closing


class PageReader(threading.Thread):
    """Reads the chosen clubs' chances and standings pages until stopped; the times in ms."""

    def __init__(self, clubs: list[int]) -> None:
        super().__init__(daemon=True)
        self.clubs, self.times, self.stop = clubs, {"chances": [], "standings": []}, False

    def run(self) -> None:
        from django.core.cache import cache

        client = Client()
        rng = random.Random(7)
        with override_settings(DEBUG=False, ALLOWED_HOSTS=["testserver"]):
            while not self.stop:
                club = rng.choice(self.clubs)
                for page in ("chances", "standings"):
                    cache.clear()
                    url = f"/{club_slug(club)}/season/interne-2025/"
                    url += "chances/" if page == "chances" else ""
                    began = time.perf_counter()
                    response = client.get(url)
                    self.times[page].append(1000 * (time.perf_counter() - began))
                    assert response.status_code == 200, (url, response.status_code)
                time.sleep(0.2)
        connection.close()


def fresh(season_ids: list[int]) -> tuple[int, int, int]:
    """(seasons computed up to their request, their computations, tasks run)."""
    from django.db.models import F, Sum
    from django_tasks_db.models import DBTaskResult

    from competition.models import SeasonChancesJob

    jobs = SeasonChancesJob.objects.filter(season_id__in=season_ids)
    done = jobs.filter(computed=F("requested"), requested__gt=0).count()
    computations = jobs.aggregate(n=Sum("computations"))["n"] or 0
    tasks = DBTaskResult.objects.exclude(status="READY").exclude(status="RUNNING").count()
    return done, computations, tasks


def one_run(workers: int, clubs: list[int], options: argparse.Namespace) -> None:
    clone(PREP, RUN, options.server)
    hosting.use_database(RUN, options.server)
    season_ids = [running_season(c) for c in clubs]
    processes = start_workers(workers, options.server, options.simulations)
    reader = PageReader(clubs)
    try:
        time.sleep(3)  # the workers import Django and poll
        reader.start()
        started = time.perf_counter()
        closing = close_rounds(clubs, options.close_seconds)
        done = 0
        while time.perf_counter() - started < options.timeout:
            done, computations, tasks = fresh(season_ids)
            if done == len(season_ids):
                break
            time.sleep(1)
        elapsed = time.perf_counter() - started
    finally:
        reader.stop = True
        reader.join(30)
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            process.wait(30)
    done, computations, tasks = fresh(season_ids)
    print(
        f"{workers} worker(s): {closing.summary()}; "
        f"{done}/{len(clubs)} seasons fresh {elapsed:.0f} s after the first close; "
        f"{computations} computations ({computations - done} more than one per season), "
        f"{tasks} tasks run"
    )
    for page, times in reader.times.items():
        if times:
            print(
                f"    {page:9s} page meanwhile: median {statistics.median(times):.0f} ms, "
                f"p95 {_p95(times):.0f} ms ({len(times)} requests)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=300)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--extra-rounds", type=int, default=3)
    parser.add_argument("--close-seconds", type=float, default=60)
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--server", default=hosting.SERVER)
    parser.add_argument("--smoke", action="store_true", help="2 clubs (CI's smoke run)")
    options = parser.parse_args()
    found = hosting.built_with(hosting.MANY, options.server)
    if options.smoke:
        options.workers, options.simulations, options.close_seconds = "1,2", 5, 0
        options.timeout = 300
        if found is None or found["clubs"] != SMOKE_CLUBS:
            seconds = hosting.build(hosting.MANY, SMOKE_CLUBS, options.server, workers=1)
            print(f"built {hosting.MANY} in {seconds:.0f} s")
        clubs = [SMOKE_CLUBS[0], SMOKE_CLUBS[-1]]
    else:
        if found is None or found["clubs"] != hosting.CLUBS:
            seconds = hosting.build(
                hosting.MANY, list(range(hosting.CLUBS)), options.server, workers=2
            )
            print(f"built {hosting.MANY} in {seconds:.0f} s")
        clubs = chosen_clubs(options.clubs)
    prepare(clubs, options.extra_rounds, options.server)
    kinds = {k: sum(1 for n in range(len(clubs)) if KINDS[n % 3] == k) for k in KINDS}
    print(
        f"{len(clubs)} clubs close a round ({', '.join(f'{v} {k}' for k, v in kinds.items())}; "
        f"{options.extra_rounds} rounds left after it, {options.simulations} simulations), "
        f"spread over {options.close_seconds:.0f} s; {os.cpu_count()} cores"
    )
    for workers in (int(w) for w in options.workers.split(",")):
        one_run(workers, clubs, options)


if __name__ == "__main__":
    main()
