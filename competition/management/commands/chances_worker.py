"""``manage.py chances_worker [--once] [--interval SECONDS]``: keep every running season's
"can I still win?" chances up to date.

Each pass recomputes the seasons whose stored chances are stale (a round was completed or
corrected, the rules or the calendar changed: competition.services.chances.chances_stale),
then sleeps. Nothing is queued: staleness is read from the database, so a restarted worker
(or a second one) simply finds the same work. Production runs it as the ``chances`` service
of docker-compose.yml.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandParser

from competition.services.chances import chances_refresh_stale


class Command(BaseCommand):
    help = "Recompute stale season chances, once or in a loop."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="one pass, then stop")
        parser.add_argument("--interval", type=float, default=30.0, help="seconds between passes")
        parser.add_argument("--simulations", type=int, default=None)

    def handle(self, *args: object, **options: object) -> None:
        while True:
            for season in chances_refresh_stale(simulations=options["simulations"]):  # type: ignore[arg-type]
                self.stdout.write(f"{season.slug}: chances recomputed")
            if options["once"]:
                return
            time.sleep(float(options["interval"]))  # type: ignore[arg-type]
