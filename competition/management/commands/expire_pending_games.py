"""``manage.py expire_pending_games``: give every game on another date still without a result
after its season's deadline (``Season.pending_days``) a double forfeit. The nightly task does
the same (competition.tasks.backup_nightly); this command is for a site without nightly
backups (run it from cron) and for the TD who wants it now."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from competition.services.postponed import pending_games_expire


class Command(BaseCommand):
    help = "Give pending games past their season's deadline a double forfeit."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--today",
            help="The date to count from (YYYY-MM-DD); default: today.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        today = timezone.localdate()
        if options["today"]:
            try:
                today = datetime.date.fromisoformat(options["today"])
            except ValueError as error:
                raise CommandError(f"--today: not a date: {options['today']}") from error
        changed = pending_games_expire(today=today)
        self.stdout.write(f"{len(changed)} pending games given a double forfeit")
