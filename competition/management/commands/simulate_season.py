"""``manage.py simulate_season SEASON [--simulations N] [--seed S]``: compute and store the
season's "can I still win?" chances now (the task queue does it after every change)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.management.seasons import add_season_argument, season_by_slug
from competition.selectors.chances import rounds_left
from competition.services.chances import chances_compute


class Command(BaseCommand):
    help = "Simulate a season's remaining rounds and store each player's chances."

    def add_arguments(self, parser: CommandParser) -> None:
        add_season_argument(parser)
        parser.add_argument("--simulations", type=int, default=None)
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: object, **options: object) -> None:
        season = season_by_slug(str(options["season"]))
        left = rounds_left(season=season)
        if left.after_round == 0:
            raise CommandError(f"{season.slug}: no completed round yet")
        if left.count is None:
            raise CommandError(
                f"{season.slug}: the number of rounds left is unknown (no club evenings in "
                "the calendar)"
            )
        started = time.process_time()
        chances = chances_compute(
            season=season,
            simulations=options["simulations"],  # type: ignore[arg-type]
            seed=int(options["seed"]),  # type: ignore[call-overload]
        )
        if chances is None:
            raise CommandError(f"{season.slug}: the chances could not be computed")
        self.stdout.write(
            f"{season.slug}: {chances.simulations} simulations of {chances.rounds_left} rounds "
            f"after round {chances.after_round} in {time.process_time() - started:.1f} s CPU"
        )
