"""What the season commands share: naming a season on the command line.

A season is named by its web address, ``SEASON``, or ``CLUB/SEASON`` where two clubs use the
same one (``manage.py standings sc-de-toren/interne-2026-2027``).
"""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser

from competition.models import Season

SEASON_HELP = (
    "SEASON or CLUB/SEASON (the season's web address, with the club's where two clubs share it)"
)


def add_season_argument(parser: CommandParser, *, optional: bool = False) -> None:
    """The positional ``season`` argument (``optional``: it may be left out)."""
    parser.add_argument("season", nargs="?" if optional else None, help=SEASON_HELP)


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
