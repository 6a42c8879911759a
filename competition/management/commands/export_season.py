"""``manage.py export_season SEASON > FILE.json``: the lossless season archive;
``manage.py export_season --all --out-dir DIR [--force]``: every season's archive and a
manifest in one directory (a backup, see README *Backups*)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.management.seasons import add_season_argument, season_by_slug
from competition.services.errors import ServiceError
from competition.services.transfer import season_archive_text
from competition.services.transfer.backup import MANIFEST_NAME, counted, seasons_export_all


class Command(BaseCommand):
    help = (
        "Write everything of a season as the canonical JSON archive (to standard output), or "
        "with --all every season of every club into a directory, with a manifest."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_season_argument(parser, optional=True)
        parser.add_argument(
            "--all", action="store_true", help="every season of every club (needs --out-dir)"
        )
        parser.add_argument(
            "--out-dir", metavar="DIR", help="with --all: the directory (created when missing)"
        )
        parser.add_argument(
            "--force", action="store_true", help="with --all: overwrite the JSON files in DIR"
        )

    def handle(self, *args: object, **options: object) -> None:
        slug, out_dir = options["season"], options["out_dir"]
        if not options["all"]:
            if slug is None or out_dir is not None or options["force"]:
                raise CommandError(
                    "Give one season's slug (its archive goes to standard output), or "
                    "--all --out-dir DIR for every season."
                )
            season = season_by_slug(str(slug))
            self.stdout.write(season_archive_text(season=season), ending="")
            return
        if slug is not None or out_dir is None:
            raise CommandError("--all writes every season into a directory: give --out-dir DIR.")
        directory = Path(str(out_dir))
        try:
            export = seasons_export_all(directory=directory, force=bool(options["force"]))
        except ServiceError as error:
            raise CommandError(str(error)) from None
        for f in export.files:
            counts = f.counts
            self.stdout.write(
                f"Wrote {f.file}: {counts['participants']} participants, {counts['rounds']} "
                f"rounds, {counts['games']} games, {counts['entries']} entries."
            )
        for name in export.left_alone:
            self.stdout.write(f"Warning: {name} was left as it was; it is not in the manifest.")
        self.stdout.write(
            f"Exported {counted(len(export.files), 'season')} of {counted(export.clubs, 'club')} "
            f"to {directory} "
            f"(archive version {export.manifest()['archive_version']}, {MANIFEST_NAME})."
        )
