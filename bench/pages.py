"""Server time of the public pages on a 150-participant × 40-round season.

Run from the repository root: ``.venv/bin/python bench/pages.py``. It builds the season in its
own temporary SQLite database, then prints the median time (through Django's test client, so
with every middleware) of the standings page and a participant page, uncached (the page cache
cleared before every request) and cached, and of two trivial views as the floor: a plain
"ok" response and the site's base template with an empty page. Cached pages are timed for an
anonymous reader (the whole response comes from the cache after one query for the season's
versions) and for a logged-in member (the cached body inside a freshly rendered frame).

The participant page is timed as members meet it: with his page after the latest round stored
by the worker (the task every change queues: competition.services.explanations), and for a
second participant as in the seconds after a change, before the worker has stored his page
(computed on request). The rows are timed in turns, one request of each at a time.

Each line gives the median wall time, the median CPU time of this process (the database is
SQLite, in the process: steadier than the wall time on a machine shared with other jobs) and
both as a multiple of the base template's. Options: ``--players``, ``--rounds``, ``--repeats``;
``--smoke`` for a tiny run (CI's smoke run: the figures mean nothing then).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.django_setup import django_on_database  # noqa: E402

DB_FILE = django_on_database(None)

from django.core.cache import cache  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.shortcuts import render  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.urls import include, path  # noqa: E402

from bench.season import add_size_options, season_of_size  # noqa: E402
from competition.clubs import club_url  # noqa: E402
from competition.models import ParticipantExplanation  # noqa: E402
from competition.services.explanations import explanations_store  # noqa: E402

PLAYERS = 150
ROUNDS = 40
REPEATS = 15


def trivial_ok(request):
    return HttpResponse("ok")


def trivial_base(request):
    return render(request, "base.html", {})


bench_urls = types.ModuleType("bench_urls")
bench_urls.urlpatterns = [  # type: ignore[attr-defined]
    path("trivial/ok/", trivial_ok),
    path("trivial/base/", trivial_base),
    path("", include("clubcomp.urls")),
]
sys.modules["bench_urls"] = bench_urls


def member_client() -> Client:
    from django.contrib.auth.models import User

    client = Client()
    client.raise_request_exception = True
    client.force_login(User.objects.create_user("lid", password="bench-only-2026"))
    return client


def request_ms(client: Client, url: str, *, cached: bool) -> tuple[float, float]:
    """One request's wall time and CPU time of this process, in ms: from a filled cache
    (``cached``), else with the page cache emptied first."""
    if cached:
        client.get(url)  # fill the cache: an uncached row before this one emptied it
    else:
        cache.clear()
    started, cpu_started = time.perf_counter(), time.process_time()
    response = client.get(url)
    wall = 1000 * (time.perf_counter() - started)
    cpu = 1000 * (time.process_time() - cpu_started)
    assert response.status_code == 200, (url, response.status_code)
    return wall, cpu


def medians_ms(
    rows: list[tuple[str, Client, str, bool]], *, repeats: int
) -> dict[str, tuple[float, float]]:
    """The median wall and CPU time of each row, in ms. The rows are timed in turns (one
    request of each, ``repeats`` times over), so a slow moment of a shared machine falls on
    every row alike and the ratios to ``base.html`` hold steadier than the times."""
    for _label, who, url, _cached in rows:
        who.get(url)  # warm up (templates, imports)
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label, *_rest in rows}
    for _ in range(repeats):
        for label, who, url, cached in rows:
            samples[label].append(request_ms(who, url, cached=cached))
    return {
        label: (
            statistics.median(wall for wall, _cpu in times),
            statistics.median(cpu for _wall, cpu in times),
        )
        for label, times in samples.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_size_options(parser, players=PLAYERS, rounds=ROUNDS, repeats=REPEATS)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (CI's smoke run)")
    options = parser.parse_args()
    season, participants = season_of_size(options)
    participant, unstored = participants[0], participants[1]
    started = time.perf_counter()
    stored = explanations_store(season_id=season.pk)  # what the worker does after the change
    print(f"worker: {stored} participant pages stored in {time.perf_counter() - started:.1f} s")
    # the second participant's page as in the seconds after a change, before the worker ran
    ParticipantExplanation.objects.filter(participant=unstored).delete()
    client = Client()  # Dutch, the default; anonymous
    client.raise_request_exception = True
    member = member_client()
    with override_settings(ROOT_URLCONF="bench_urls", DEBUG=False, ALLOWED_HOSTS=["testserver"]):
        # the club's own addresses (/<club>/...): an old address would only measure a redirect
        standings = club_url(season.club.slug, "competition:standings", args=[season.slug])
        player, unstored_player = (
            club_url(season.club.slug, "competition:participant", args=[season.slug, who.pk])
            for who in (participant, unstored)
        )
        rows = [
            ("trivial view (HttpResponse)", client, "/trivial/ok/", True),
            ("trivial view (base.html)", client, "/trivial/base/", True),
            ("standings, uncached", client, standings, False),
            ("standings, cached, anonymous", client, standings, True),
            ("standings, cached, logged in", member, standings, True),
            ("participant, uncached", client, player, False),
            ("participant, uncached, not stored", client, unstored_player, False),
            ("participant, cached, anonymous", client, player, True),
            ("participant, cached, logged in", member, player, True),
        ]
        print(
            f"{options.players} participants × {options.rounds} rounds; "
            f"median of {options.repeats} requests"
        )
        print(f"  {'':32s} {'wall ms':>9s} {'CPU ms':>9s} {'× base.html':>15s}")
        times = medians_ms(rows, repeats=options.repeats)
        base = times["trivial view (base.html)"]
        for label, *_rest in rows:
            wall, cpu = times[label]
            ratio = f"{wall / base[0]:6.1f} {cpu / base[1]:6.1f}" if label != rows[0][0] else ""
            print(f"  {label:32s} {wall:9.2f} {cpu:9.2f}   {ratio}")
    if DB_FILE is not None:
        DB_FILE.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
