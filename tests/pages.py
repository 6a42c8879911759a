"""Every page of the site, filled in with the demo's real objects: the inventory that the page
golden test (tests/golden/test_pages_golden.py) and the phone-width walk read.

The list is built from the URL configuration itself, so a new page is in it without anyone
adding it here: each URL argument is filled from every demo object of its kind that a reader
meets (every season of every club, the first, the last and the open round of each, a few
participants and members), and each page is asked for by each role that has a reason to see
it. A URL argument the inventory does not know fails the test that lists the pages, naming it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from django.urls import URLPattern, URLResolver, get_resolver

from competition.clubs import club_url

# Django's own views (login, logout, password reset, language switch) and the admin are
# pages too; they are walked at their site address with no arguments. Views that only write
# (POST) answer a GET with 405 and are left out of the inventory.
ADMIN_NAMESPACE = "admin:"
API_NAMESPACE = "api-1:"  # the JSON API's answers are pages too

# Who reads the pages: the demo's logins (tests/conftest.py's demo club).
ROLES: dict[str, str | None] = {
    "anonymous": None,
    "member": "lid",
    "td": "wedstrijdleider",
    "club admin": "clubbeheerder",
    "other club's td": "paardenwl",
}
LANGUAGES = ("nl", "en")


@dataclass(frozen=True)
class Page:
    name: str  # the URL's name, namespace included
    url: str  # the address, with the club's part

    def __str__(self) -> str:
        return f"{self.name} {self.url}"


def walk(
    resolvers: list[URLPattern | URLResolver], namespace: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    """Every URL pattern of the configuration, with its namespace."""
    for entry in resolvers:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from walk(entry.url_patterns, inner)
        else:
            yield namespace, entry


def _season_objects(season: object) -> dict[str, list[object]]:
    """The objects of one season that its pages take as arguments: the first, the last and the
    open round; a game, an entry, two participants, a category, an evening of the calendar."""
    from competition.models import Category, ClubEvening, Game, Participant, Round, RoundEntry

    rounds = list(Round.objects.filter(season=season).order_by("number"))
    numbers = sorted(
        {r.number for r in (rounds[:1] + rounds[-1:])}
        | {r.number for r in rounds if r.status != Round.Status.COMPLETED}
    )
    last = rounds[-1] if rounds else None
    games = list(Game.objects.filter(round=last).order_by("board")[:1]) if last else []
    entries = list(RoundEntry.objects.filter(round__season=season).order_by("pk")[:1])
    participants = list(Participant.objects.filter(season=season).order_by("pk"))
    chosen = participants[:1] + participants[-1:] if participants else []
    evenings = list(ClubEvening.objects.filter(season=season).order_by("date"))
    return {
        "number": numbers,
        "round_number": numbers,
        "game_id": [g.pk for g in games],
        "entry_id": [e.pk for e in entries],
        "participant_id": [p.pk for p in chosen],
        "member_id": [p.member_id for p in chosen],
        "category_id": list(
            Category.objects.filter(season=season)
            .order_by("order")
            .values_list("pk", flat=True)[:1]
        ),
        "evening_id": [e.pk for e in evenings[-1:]],
    }


def pages() -> list[Page]:
    """Every page of the project for the demo data: each URL pattern with each set of demo
    arguments it takes (season-bound arguments from the same season)."""
    from competition.models import Club, Season

    found: list[Page] = []
    seasons = list(Season.objects.select_related("club").order_by("club__slug", "slug"))
    per_season = {season.pk: _season_objects(season) for season in seasons}
    for namespace, pattern in walk(get_resolver().url_patterns):
        if namespace.startswith(ADMIN_NAMESPACE) or not pattern.name:
            continue
        name = f"{namespace}{pattern.name}"
        arguments = list(getattr(pattern.pattern, "converters", {}))
        if namespace == API_NAMESPACE:
            found.extend(_api_filled(name, arguments, seasons, per_season))
            continue
        if namespace != "competition:":
            if not arguments:
                found.append(Page(name, _site_url(name)))
            continue
        if not arguments:
            for club in Club.objects.order_by("slug"):
                found.append(Page(name, club_url(club.slug, name)))
            continue
        found.extend(_filled(name, arguments, seasons, per_season))
    return _deduplicated(found)


def _filled(
    name: str, arguments: list[str], seasons: list[object], per_season: dict[int, dict]
) -> list[Page]:
    from competition.models import GroupCompetition, Member

    if "group_slug" in arguments:
        return [
            Page(name, club_url(group.club.slug, name, kwargs={"group_slug": group.slug}))
            for group in GroupCompetition.objects.select_related("club").order_by("slug")
        ]
    found = []
    if not {"slug", "season_slug"} & set(arguments):
        # pages of a member or a token outside a season
        if arguments == ["member_id"]:
            for member in Member.objects.select_related("club").order_by("club__slug", "pk")[:1]:
                found.append(
                    Page(name, club_url(member.club.slug, name, kwargs={"member_id": member.pk}))
                )
        return found
    for season in seasons:
        options: list[list[tuple[str, object]]] = []
        for argument in arguments:
            if argument in ("slug", "season_slug"):
                options.append([(argument, season.slug)])
            elif argument == "token":
                options.append([(argument, token) for token in _feed_tokens(season)])
            else:
                options.append([(argument, v) for v in per_season[season.pk].get(argument, [])])
        for combination in product(*options):
            found.append(Page(name, club_url(season.club.slug, name, kwargs=dict(combination))))
    return found


def _api_filled(
    name: str, arguments: list[str], seasons: list[object], per_season: dict[int, dict]
) -> list[Page]:
    """The API's addresses: every club and season, each round and participant the season's
    pages take, and the standings after each of those rounds."""
    from django.urls import reverse

    if not arguments:
        return [Page(name, reverse(name))]
    if arguments == ["club"]:
        clubs = sorted({season.club.slug for season in seasons})
        return [Page(name, reverse(name, kwargs={"club": club})) for club in clubs]
    found = []
    for season in seasons:
        kwargs = {"club": season.club.slug, "season": season.slug}
        objects = per_season[season.pk]
        if "number" in arguments:
            for number in objects["number"]:
                found.append(Page(name, reverse(name, kwargs={**kwargs, "number": number})))
        elif "participant_id" in arguments:
            for pk in objects["participant_id"]:
                found.append(Page(name, reverse(name, kwargs={**kwargs, "participant_id": pk})))
        else:
            url = reverse(name, kwargs=kwargs)
            found.append(Page(name, url))
            if name.endswith(":standings"):
                for number in objects["number"]:
                    found.append(Page(name, f"{url}?round={number}"))
    return found


def _feed_tokens(season: object) -> list[str]:
    """A member's real private feed address in the season's club, and one that does not exist."""
    from competition.models import Member

    tokens = Member.objects.filter(club=season.club, feed_token__isnull=False).exclude(
        feed_token=""
    )
    return [*tokens.order_by("pk").values_list("feed_token", flat=True)[:1], "no-such-token"]


def _site_url(name: str) -> str:
    from django.urls import reverse

    return reverse(name)


def _deduplicated(found: list[Page]) -> list[Page]:
    seen: set[str] = set()
    unique = []
    for page in found:
        if page.url not in seen:
            seen.add(page.url)
            unique.append(page)
    return unique
