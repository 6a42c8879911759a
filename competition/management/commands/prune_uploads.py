"""Remove uploaded files whose preview was never confirmed (older than a day by default)."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from competition.services import uploads


class Command(BaseCommand):
    help = "Remove uploaded files whose preview was never confirmed (older than a day)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--hours",
            type=int,
            default=int(uploads.MAX_AGE.total_seconds() // 3600),
            help="remove previews older than this many hours (default: 24)",
        )

    def handle(self, *args: Any, hours: int, **options: Any) -> None:
        removed = uploads.uploads_prune(max_age=datetime.timedelta(hours=hours))
        self.stdout.write(f"{removed} unconfirmed upload(s) removed from {uploads.UPLOAD_DIR}.")
