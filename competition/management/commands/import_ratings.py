"""``manage.py import_ratings FILE [--format knsb|fide-txt|fide-xml] [--dry-run] [--club SLUG]
[--only-club-members | --ids FILE-or-comma-list] [--list-date YYYY-MM-DD]``."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.management.commands.import_season import file_import, read_file
from competition.services.errors import ServiceError
from competition.services.transfer import RATING_FORMATS, parse_ids, ratings_import


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--list-date needs YYYY-MM-DD, found {text!r}.") from None


class Command(BaseCommand):
    help = "Create or update members from a KNSB or FIDE rating list."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the rating list")
        parser.add_argument("--format", choices=RATING_FORMATS, help="default: guessed")
        parser.add_argument("--club", help="the club's slug (needed when there are several)")
        parser.add_argument("--list-date", help="the list's date, YYYY-MM-DD")
        parser.add_argument("--dry-run", action="store_true", help="count only, change nothing")
        which = parser.add_mutually_exclusive_group()
        which.add_argument(
            "--only-club-members", action="store_true", help="only the club's own members"
        )
        which.add_argument(
            "--ids", help="relatienummers / FIDE IDs: a comma-separated list or a file of them"
        )

    def handle(self, *args: object, **options: object) -> None:
        name = str(options["file"])
        data = read_file(name)
        ids = None
        if options["ids"]:
            text = str(options["ids"])
            path = Path(text)
            try:
                ids = parse_ids(path.read_text(encoding="utf-8") if path.is_file() else text)
            except ServiceError as error:
                raise CommandError(str(error)) from None
        report = file_import(
            name,
            lambda: ratings_import(
                data=data,
                format=options["format"],  # type: ignore[arg-type]
                club_slug=options["club"],  # type: ignore[arg-type]
                list_date=_date(str(options["list_date"])) if options["list_date"] else None,
                only_club_members=bool(options["only_club_members"]),
                ids=ids,
                filename=Path(name).name,
                dry_run=bool(options["dry_run"]),
            ),
        )
        verb = "Would create" if report.dry_run else "Created"
        date = report.list_date.isoformat() if report.list_date else "unknown"
        self.stdout.write(
            f"{verb} {report.created}, updated {report.updated}, unchanged {report.unchanged} "
            f"(list of {date}, {report.read} records read)."
        )
        for warning in report.warnings:
            self.stdout.write(f"Warning: {warning}")
        if report.dry_run:
            self.stdout.write("Dry run: nothing was changed.")
