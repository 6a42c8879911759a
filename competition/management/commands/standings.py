"""``manage.py standings SEASON [--after-round N] [--rules-version N] [--format table|csv|json]``.

The JSON output is a contract for other tools (see docs/commands.md): numbers are JSON numbers
with their exact decimal value. The CSV is the program's form (``,`` and ``58.25``) unless
``--language`` asks for a spreadsheet's (Dutch Excel: ``;`` and ``58,25``, with a byte order
mark), as the tournament director's download gives it.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.management.seasons import add_season_argument, season_by_slug
from competition.scoring.exact import exact_json
from competition.services.errors import ServiceError
from competition.services.transfer import standings_csv, standings_document, standings_text_table


class Command(BaseCommand):
    help = "Print a season's standings as a table, CSV or JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        add_season_argument(parser)
        parser.add_argument("--after-round", type=int, default=None, help="default: the last")
        parser.add_argument(
            "--rules-version",
            type=int,
            default=None,
            help="the standings under an earlier rule set of the season (default: in force)",
        )
        parser.add_argument("--format", choices=("table", "csv", "json"), default="table")
        parser.add_argument(
            "--language",
            choices=("nl", "en"),
            default=None,
            help="CSV for a spreadsheet in this language (nl: ';' and 58,25); default: programs'",
        )

    def handle(self, *args: object, **options: object) -> None:
        season = season_by_slug(str(options["season"]))
        after = options["after_round"]
        version = options["rules_version"]
        try:
            document = standings_document(
                season=season,
                after_round=after if isinstance(after, int) else None,
                fingerprint=True,
                rules_version=version if isinstance(version, int) else None,
            )
        except ServiceError as error:
            raise CommandError(str(error)) from None
        if options["format"] == "json":
            self.stdout.write(exact_json(document))
        elif options["format"] == "csv":
            language = options["language"]
            self.stdout.write(
                standings_csv(document, language=str(language) if language else None), ending=""
            )
        else:
            self.stdout.write(standings_text_table(document), ending="")
