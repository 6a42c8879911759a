"""``manage.py import_trf FILE [--season-slug SLUG] [--system ...] [--tiebreaks ...]
[--unplayed ...] [--param NAME=VALUE ...] [--club SLUG] [--min-games N] [--round-robin]
[--dry-run]``."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser, no_translations

from competition.management.commands.import_season import file_import, read_file, report_lines
from competition.scoring.registry import SYSTEMS
from competition.scoring.tiebreaks import UNPLAYED_POLICIES
from competition.services.transfer import parse_parameters, trf_import


class Command(BaseCommand):
    help = "Read a FIDE TRF16/TRF-2026 file into a new season of the club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the TRF file")
        parser.add_argument("--season-slug", help="default: made from the tournament name")
        parser.add_argument("--club", help="the club's slug (needed when there are several)")
        parser.add_argument("--system", choices=tuple(SYSTEMS), default="points")
        parser.add_argument(
            "--tiebreaks", help='comma-separated codes, e.g. "BH,BH/C1,SB" (default: tag 202)'
        )
        parser.add_argument("--unplayed", choices=UNPLAYED_POLICIES, default="fide-2024")
        parser.add_argument(
            "--param", action="append", default=[], metavar="NAME=VALUE", help="repeatable"
        )
        parser.add_argument(
            "--min-games", type=int, default=0, help="minimum games for prizes (default 0)"
        )
        parser.add_argument("--round-robin", action="store_true", help="a round robin season")
        parser.add_argument("--dry-run", action="store_true", help="check and count only")

    @no_translations  # the command line speaks English, as its other messages do
    def handle(self, *args: object, **options: object) -> None:
        name = str(options["file"])
        data = read_file(name)
        tiebreaks = options["tiebreaks"]
        report = file_import(
            name,
            lambda: trf_import(
                data=data,
                club_slug=options["club"],  # type: ignore[arg-type]
                season_slug=options["season_slug"],  # type: ignore[arg-type]
                system=str(options["system"]),
                tiebreaks=None
                if tiebreaks is None
                else [c for c in str(tiebreaks).split(",") if c.strip()],
                unplayed=str(options["unplayed"]),
                parameters=parse_parameters(options["param"]),  # type: ignore[arg-type]
                round_robin=bool(options["round_robin"]),
                min_games=int(options["min_games"]),  # type: ignore[call-overload]
                dry_run=bool(options["dry_run"]),
            ),
        )
        for line in report_lines(report):
            self.stdout.write(line)
