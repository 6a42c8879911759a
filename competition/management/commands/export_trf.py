"""``manage.py export_trf SEASON [--out FILE]``: the season as a TRF16 file."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.management.seasons import add_season_argument, season_by_slug
from competition.services.errors import ServiceError
from competition.services.transfer import season_trf


class Command(BaseCommand):
    help = "Write a season as a FIDE TRF16 file (with TRF-2026 KNSB national rating lines)."

    def add_arguments(self, parser: CommandParser) -> None:
        add_season_argument(parser)
        parser.add_argument("--out", help="file to write (default: standard output)")

    def handle(self, *args: object, **options: object) -> None:
        season = season_by_slug(str(options["season"]))
        try:
            text = season_trf(season=season)
        except ServiceError as error:
            raise CommandError(str(error)) from None
        if options["out"]:
            Path(str(options["out"])).write_text(text, encoding="utf-8", newline="")
            self.stderr.write(f"Wrote {options['out']}.")
        else:
            self.stdout.write(text, ending="")
