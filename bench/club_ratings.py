"""Time of the club rating's ledger (docs/ratings.md): a club of 10 seasons × 35 rounds × 60
members, and one club of the 700-club database.

Run from the repository root: ``.venv/bin/python bench/club_ratings.py``. It builds the club in
its own temporary SQLite database (``--database-url postgres://…/cc_mine`` for PostgreSQL: the
database is made afresh) with about 75% attendance and seeded random results, then prints the
median of ``--repeats`` runs of:

- the pure ledger (``ledger_run``) over every evening (the arithmetic alone);
- the ledger's input read from the database (``ledger_input``: every rated game);
- ``club_ratings_replay`` from the first evening (read, compute, delete and write every row:
  a correction in the first season, a change of the club's rating rules);
- ``club_ratings_replay`` from the last evening (what closing a round adds).

Goal: the whole ledger under one second. With ``--many`` it also times the replay of
the middle club (number 350) of ``clubcomp_bench_many`` (built by ``bench/hosting.py``: 700
clubs of 60 members, 3 seasons of 35 rounds) at ``--server``: the ledger's two tables are made
inside a transaction that is rolled back, so that database is left as it was (the 10-season club
is then built on the same server, in ``cc_rating_bench``). ``--smoke`` runs
a tiny club once (2 seasons × 5 rounds × 10 members), for the test suite.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import runs_ms  # noqa: E402


def build_club(seasons: int, rounds: int, members: int, seed: int = 27) -> Any:
    from competition.models import Club, Game, Member, Participant, Round, Season

    rng = random.Random(seed)
    club = Club.objects.create(name="Ratingbank", slug="ratingbank")
    people = Member.objects.bulk_create(
        Member(
            club=club,
            name=f"Lid {i:03d}",
            rating=None if i % 7 == 0 else rng.randint(1100, 2350),
            birth_year=rng.choice([None, 1960, 1985, 2005, 2010]),
        )
        for i in range(members)
    )
    for s in range(seasons):
        start = datetime.date(2016 + s, 9, 1)
        season = Season.objects.create(
            club=club, name=f"Intern {2016 + s}", slug=f"intern-{2016 + s}", start_date=start,
            status=Season.Status.FINISHED,
        )  # fmt: skip
        participants = Participant.objects.bulk_create(
            Participant(season=season, member=m, start_rank=i + 1, rating=m.rating)
            for i, m in enumerate(people)
        )
        round_rows = Round.objects.bulk_create(
            Round(
                season=season, number=n, date=start + datetime.timedelta(days=7 * (n - 1)),
                status=Round.Status.COMPLETED,
            )
            for n in range(1, rounds + 1)
        )  # fmt: skip
        games = []
        for rnd in round_rows:
            present = [p for p in participants if rng.random() < 0.75]
            rng.shuffle(present)
            for board in range(len(present) // 2):
                result = rng.choices(["1-0", "1/2", "0-1", "+-"], weights=[40, 25, 33, 2])[0]
                games.append(
                    Game(
                        round=rnd, board=board + 1, white=present[2 * board],
                        black=present[2 * board + 1], result=result,
                    )
                )  # fmt: skip
        Game.objects.bulk_create(games, batch_size=2000)
    return club


def median_ms(run: Callable[[], object], repeats: int) -> tuple[float, float]:
    """The median wall time and the median CPU time of this process, in milliseconds (on a
    shared machine the wall time also counts the others' load and the disk)."""
    wall, cpu = runs_ms(run, repeats)
    return statistics.median(wall), statistics.median(cpu)


def time_club(club: Any, repeats: int) -> None:
    from competition.models import ClubRatingChange, Game
    from competition.rating.ledger import ledger_run
    from competition.selectors.ratings import club_rating_rules, k_rules, ledger_input
    from competition.services.ratings import club_ratings_replay

    rules = club_rating_rules(club=club)
    data = ledger_input(club=club, rules=rules, from_date=None)
    games = sum(len(e.games) for e in data.evenings)
    print(
        f"  {len(data.evenings)} evenings, {games} rated games "
        f"({Game.objects.filter(round__season__club=club).count()} games in all), "
        f"{len(data.start_ratings)} members; median of {repeats} runs"
    )

    def pure() -> None:
        ledger_run(
            data.evenings, states={}, start_ratings=data.start_ratings,
            birth_years=data.birth_years, rules=k_rules(rules=rules),
        )  # fmt: skip

    last = data.evenings[-1].date
    for label, run in (
        ("pure ledger (ledger_run)", pure),
        (
            "ledger input read (ledger_input)",
            lambda: ledger_input(club=club, rules=rules, from_date=None),
        ),
        ("replay from the first evening", lambda: club_ratings_replay(club=club)),
        ("replay from the last evening", lambda: club_ratings_replay(club=club, from_date=last)),
    ):
        wall, cpu = median_ms(run, repeats)
        print(f"  {label:36s} {wall:9.1f} ms wall {cpu:9.1f} ms CPU")
    print(f"  ledger rows: {ClubRatingChange.objects.filter(club=club).count()}")


def time_many(repeats: int) -> None:
    """The middle club of the 700-club database, with the ledger's tables made in a
    transaction that is rolled back."""
    from django.db import connection, transaction

    from bench.hosting_data import club_slug
    from competition.models import Club, ClubRatingChange, ClubRatingRules

    connection.close()
    connection.settings_dict.update(NAME="clubcomp_bench_many")  # the same server
    try:
        clubs = Club.objects.count()
    except Exception as error:
        print(
            f"  clubcomp_bench_many is not there ({type(error).__name__}); build it with "
            "`.venv/bin/python bench/hosting.py` (PostgreSQL), then run this with --many"
        )
        return
    # The measured club of bench/hosting.py (350 of 700), or the middle of a smaller build.
    club = Club.objects.filter(slug=club_slug(min(350, clubs // 2))).first()
    if club is None:
        print("  clubcomp_bench_many has no clubs: build it with bench/hosting.py")
        return
    with transaction.atomic():
        # A database built before the club rating has no ledger tables: made here, for the
        # rolled-back transaction only.
        tables = connection.introspection.table_names()
        with connection.schema_editor() as editor:
            for model in (ClubRatingRules, ClubRatingChange):
                if model._meta.db_table not in tables:
                    editor.create_model(model)
        print(f"clubcomp_bench_many ({clubs} clubs), club {club.slug}:")
        time_club(club, repeats)
        time_every_club()
        transaction.set_rollback(True)


def time_every_club() -> None:
    """Every club's ledger replayed from its first evening, once (what `club_ratings
    --replay` for each club costs after an upgrade of the arithmetic)."""
    from competition.models import Club, ClubRatingChange
    from competition.services.ratings import club_ratings_replay

    wall, cpu = time.perf_counter(), time.process_time()
    clubs = 0
    for club in Club.objects.order_by("pk"):
        club_ratings_replay(club=club)
        clubs += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rows = ClubRatingChange.objects.count()
    print(
        f"  every club's ledger from scratch ({clubs} clubs, {rows} rows): "
        f"{wall:.1f} s wall, {cpu:.1f} s CPU ({1000 * wall / max(clubs, 1):.0f} ms a club)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seasons", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=35)
    parser.add_argument("--members", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--many", action="store_true", help="also the 700-club database")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--smoke", action="store_true", help="a tiny club, once")
    args = parser.parse_args()
    if args.smoke:
        args.seasons, args.rounds, args.members, args.repeats = 2, 5, 10, 1
    if args.many and args.database_url is None:
        args.database_url = f"{args.server}/cc_rating_bench"  # the same server as the many
    from bench.django_setup import django_on_database

    django_on_database(args.database_url)
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor == "postgresql":
        name = connection.settings_dict["NAME"]
        connection.close()
        import psycopg

        admin_url = args.database_url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    club = build_club(args.seasons, args.rounds, args.members)
    print(
        f"club of {args.seasons} seasons x {args.rounds} rounds x {args.members} members on "
        f"{connection.vendor} (built in {time.perf_counter() - started:.1f} s):"
    )
    time_club(club, args.repeats)
    if args.many:
        time_many(args.repeats)


if __name__ == "__main__":
    main()
