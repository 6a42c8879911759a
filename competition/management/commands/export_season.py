"""``manage.py export_season SEASON > FILE.json``: the lossless season archive."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from competition.management.commands.standings import season_by_slug
from competition.services.transfer import season_archive_text


class Command(BaseCommand):
    help = "Write everything of a season as the canonical JSON archive (to standard output)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", help="the season's slug")

    def handle(self, *args: object, **options: object) -> None:
        season = season_by_slug(str(options["season"]))
        self.stdout.write(season_archive_text(season=season), ending="")
