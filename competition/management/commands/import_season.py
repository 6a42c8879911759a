"""``manage.py import_season FILE.json [--dry-run]``: a season archive as a new season."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.formats.errors import FormatError
from competition.services.errors import ServiceError
from competition.services.transfer import ImportReport, archive_import


def read_file(name: str) -> bytes:
    try:
        return Path(name).read_bytes()
    except OSError as error:
        raise CommandError(f"Cannot read {name}: {error.strerror}.") from None


def report_lines(report: ImportReport) -> list[str]:
    verb = "Would import" if report.dry_run else "Imported"
    counts = report.counts()
    lines = [
        f"{verb} season {report.season_slug} of club {report.club_slug}: "
        f"{counts['participants']} participants ({counts['members_created']} new members, "
        f"{counts['members_matched']} existing), {counts['rounds']} rounds, "
        f"{counts['games']} games, {counts['entries']} entries, "
        f"{counts['corrections']} corrections."
    ]
    lines.extend(f"Warning: {w}" for w in report.warnings)
    if report.dry_run:
        lines.append("Dry run: nothing was changed.")
    return lines


class Command(BaseCommand):
    help = "Read a season archive (made by export_season) into a new season."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (JSON)")
        parser.add_argument("--dry-run", action="store_true", help="check and count only")

    def handle(self, *args: object, **options: object) -> None:
        name = str(options["file"])
        data = read_file(name)
        try:
            report = archive_import(data=data, dry_run=bool(options["dry_run"]))
        except FormatError as error:
            raise CommandError(f"{name}: {error}") from None
        except ServiceError as error:
            raise CommandError(str(error)) from None
        for line in report_lines(report):
            self.stdout.write(line)
