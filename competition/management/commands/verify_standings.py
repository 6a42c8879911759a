"""``manage.py verify_standings SEASON [--expect FINGERPRINT]``: the stored standings checked
against a fresh computation, and the fingerprint of the data and rules they come from."""

from __future__ import annotations

import re

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.management.seasons import add_season_argument, season_by_slug
from competition.scoring.fingerprint import short_form
from competition.services.standings import standings_verify


def _rounds_text(rounds: tuple[int, ...]) -> str:
    if not rounds:
        return "no completed rounds"
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    return f"rounds {rounds[0]}-{rounds[-1]}"


class Command(BaseCommand):
    help = (
        "Recompute a season's standings from its games and rules, compare them with the stored "
        "standings of every round and print the season's standings fingerprint."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_season_argument(parser)
        parser.add_argument(
            "--expect",
            metavar="FINGERPRINT",
            help="the fingerprint the season should have: its short form (3f9a-0c41-be27, as "
            "pages and exports show it) or all 64 hex digits (as a season archive holds it)",
        )

    def handle(self, *args: object, **options: object) -> None:
        season = season_by_slug(str(options["season"]))
        result = standings_verify(season=season)
        short = short_form(result.fingerprint)
        self.stdout.write(
            f"Fingerprint {short} · rules version {season.rules_version} "
            f"(SHA-256 {result.fingerprint})"
        )
        if result.difference is not None:
            raise CommandError(
                f"{season.slug}: the stored standings differ from a fresh computation: "
                f"{result.difference}."
            )
        expected = options["expect"]
        if isinstance(expected, str):
            digits = re.sub(r"[\s-]", "", expected).lower()
            if len(digits) < 12 or not result.fingerprint.startswith(digits):
                raise CommandError(
                    f"{season.slug}: the fingerprint is {short}, not the expected {expected}: "
                    "the season's games, participants or rules differ from the ones it was "
                    "taken from."
                )
        self.stdout.write(
            f"{season.slug}: the stored standings after {_rounds_text(result.rounds)} equal a "
            f"fresh computation ({result.participants} participants)."
        )
