"""``manage.py standings SEASON [--after-round N] [--rules-version N] [--format table|csv|json]``.

The JSON output is a contract for other tools (see docs/commands.md): numbers are JSON numbers
with their exact decimal value. The CSV is the program's form (``,`` and ``58.25``) unless
``--language`` asks for a spreadsheet's (Dutch Excel: ``;`` and ``58,25``, with a byte order
mark), as the tournament director's download gives it.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.exact import exact_json
from competition.models import Season
from competition.services.errors import ServiceError
from competition.services.transfer import (
    standings_csv,
    standings_document,
    standings_text_table,
)


def season_by_slug(slug: str) -> Season:
    """The season ``slug``, or ``club/slug`` where clubs share a season's web address."""
    club_slug, _slash, season_slug = slug.rpartition("/")
    seasons = Season.objects.select_related("club").filter(slug=season_slug)
    if club_slug:
        seasons = seasons.filter(club__slug=club_slug)
    found = list(seasons[:2])
    if len(found) == 1:
        return found[0]
    if found:
        clubs = ", ".join(f"{s.club.slug}/{s.slug}" for s in seasons.order_by("club__slug"))
        raise CommandError(f"Several clubs have a season {season_slug!r}; name one of: {clubs}.")
    known = ", ".join(
        f"{club}/{season}"
        for club, season in Season.objects.order_by("club__slug", "slug").values_list(
            "club__slug", "slug"
        )[:20]
    )
    raise CommandError(f"No season {slug!r}. Known seasons: {known or 'none'}.")


class Command(BaseCommand):
    help = "Print a season's standings as a table, CSV or JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "season",
            help=(
                "SEASON or CLUB/SEASON (the season's web address, with the club's where two "
                "clubs share it)"
            ),
        )
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
