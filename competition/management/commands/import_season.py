"""``manage.py import_season FILE.json [--dry-run]``: a season archive as a new season;
``manage.py import_season --all DIR [--dry-run]``: every archive of a backup directory, in one
transaction (README *Backups*)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from django.core.management.base import BaseCommand, CommandError, CommandParser, no_translations

from competition.formats.errors import FormatError
from competition.services.errors import ServiceError
from competition.services.transfer import ImportReport, archive_import
from competition.services.transfer.backup import archives_import_all, counted

T = TypeVar("T")


def read_file(name: str) -> bytes:
    try:
        return Path(name).read_bytes()
    except OSError as error:
        raise CommandError(f"Cannot read {name}: {error.strerror}.") from None


def file_import(name: str, run: Callable[[], T]) -> T:
    """``run()``, an import of the file ``name``, its refusals as command errors: what is wrong
    in the file (``FormatError``) after the file's name, what the database refuses as it is."""
    try:
        return run()
    except FormatError as error:
        raise CommandError(f"{name}: {error}") from None
    except ServiceError as error:
        raise CommandError(str(error)) from None


def report_lines(report: ImportReport, *, dry_run: bool | None = None) -> list[str]:
    """The lines an import prints; ``dry_run`` overrides the report's own (``--all`` rolls
    every season back at once and says so once)."""
    dry = report.dry_run if dry_run is None else dry_run
    verb = "Would import" if dry else "Imported"
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
    help = (
        "Read a season archive (made by export_season) into a new season, or with --all DIR "
        "every archive of a directory made by export_season --all, in one transaction."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="the archive (JSON)")
        parser.add_argument(
            "--all", metavar="DIR", dest="directory", help="every archive of this directory"
        )
        parser.add_argument("--dry-run", action="store_true", help="check and count only")

    @no_translations  # the command line speaks English, as its other messages do
    def handle(self, *args: object, **options: object) -> None:
        name, directory = options["file"], options["directory"]
        dry_run = bool(options["dry_run"])
        if (name is None) == (directory is None):
            raise CommandError("Give one archive FILE.json, or --all DIR (not both).")
        if directory is not None:
            self.import_directory(Path(str(directory)), dry_run)
            return
        data = read_file(str(name))
        report = file_import(str(name), lambda: archive_import(data=data, dry_run=dry_run))
        for line in report_lines(report):
            self.stdout.write(line)

    def import_directory(self, directory: Path, dry_run: bool) -> None:
        try:
            result = archives_import_all(directory=directory, dry_run=dry_run)
        except ServiceError as error:
            raise CommandError(str(error)) from None
        for warning in result.warnings:
            self.stdout.write(f"Warning: {warning}")
        for file_name, report in result.reports:
            for line in report_lines(report, dry_run=dry_run):
                self.stdout.write(f"{file_name}: {line}")
        verb = "Would import" if dry_run else "Imported"
        self.stdout.write(
            f"{verb} {counted(len(result.reports), 'season')} of "
            f"{counted(result.clubs, 'club')} from {directory} in one transaction."
        )
        if dry_run:
            self.stdout.write("Dry run: nothing was changed.")
