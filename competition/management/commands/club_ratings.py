"""``manage.py club_ratings CLUB [--as-of DATE] [--format json|table] [--replay]``: the club
rating of every member after each club evening (docs/ratings.md). ``--replay`` first rebuilds
the club's ledger from its first evening (after an upgrade that changed the arithmetic).

The JSON is a contract for other tools (docs/commands.md): exact numbers are JSON numbers with
their exact decimal value, as ``standings --format json`` writes them; names are full.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.models import Club
from competition.scoring.exact import exact_json, fraction_to_decimal
from competition.selectors.ratings import club_rating_rules, club_ratings_ledger
from competition.services.ratings import club_ratings_replay


def club_ratings_document(*, club: Club, as_of: datetime.date | None) -> dict[str, Any]:
    rules = club_rating_rules(club=club)
    members = club_ratings_ledger(club=club, as_of=as_of)
    return {
        "club": club.slug,
        "as_of": as_of.isoformat() if as_of else None,
        "rules": {
            "method": "fide",
            "k_new_player": rules.k_new_player,
            "k_standard": rules.k_standard,
            "k_top": rules.k_top,
            "k_junior": rules.k_junior,
            "start_rule": rules.start_rule,
            "start_rating": rules.start_rating,
            "rapid_counts": rules.rapid_counts,
            "external_counts": rules.external_counts,
        },
        "members": [
            {
                "member_id": rating.member.pk,
                "name": rating.name,
                "start_rating": rating.start_rating,
                "rating": rating.rating,
                "games": rating.games,
                "evenings": [
                    {
                        "date": evening.date.isoformat(),
                        "rating_before": evening.rating_before,
                        "k": evening.k,
                        "change": fraction_to_decimal(evening.change),
                        "rating_after": evening.rating_after,
                        "games": [
                            {
                                "season": game.season.slug,
                                "round": game.round_number,
                                "opponent": game.opponent_name or None,
                                "opponent_rating": game.opponent_rating,
                                "difference": game.difference,
                                "expected": fraction_to_decimal(game.expected),
                                "score": fraction_to_decimal(game.score),
                            }
                            for game in evening.games
                        ],
                    }
                    for evening in rating.evenings
                ],
            }
            for rating in members
        ],
    }


def _table(document: dict[str, Any]) -> str:
    lines = [f"{'rating':>6}  {'games':>5}  name"]
    for member in document["members"]:
        lines.append(f"{member['rating']:>6}  {member['games']:>5}  {member['name']}")
    return "\n".join(lines) + "\n"


class Command(BaseCommand):
    help = "Print every member's club rating after each club evening."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's web address (its slug)")
        parser.add_argument(
            "--as-of",
            type=datetime.date.fromisoformat,
            default=None,
            help="the evenings up to this date (YYYY-MM-DD); default: all",
        )
        parser.add_argument("--format", choices=("json", "table"), default="json")
        parser.add_argument(
            "--replay",
            action="store_true",
            help="rebuild the club's rating ledger from its first evening before printing",
        )

    def handle(self, *args: object, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            known = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True)[:20])
            raise CommandError(f"No club {options['club']!r}. Known clubs: {known or 'none'}.")
        if options["replay"]:
            club_ratings_replay(club=club)
        document = club_ratings_document(club=club, as_of=options["as_of"])
        if options["format"] == "json":
            self.stdout.write(exact_json(document))
        else:
            self.stdout.write(_table(document), ending="")


__all__ = ["Command", "club_ratings_document"]
