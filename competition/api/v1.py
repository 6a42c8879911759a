"""The public read-only JSON API, version 1 (``/api/v1/``; docs/api.md).

Clubs, their seasons, a season's standings after any round (with every figure exact and as
shown, and what separated equal scores), its rounds with pairings and results, its
participants with the explanation of every figure, and its club evenings. No login: only what
the public pages show, with the names as the public sees them. django-ninja writes the OpenAPI
document (``/api/v1/openapi.json``) and the docs page (``/api/v1/docs``) from the types in
:mod:`competition.api.schemas`.

Thin: the selectors read, :mod:`competition.api.payloads` shapes, :mod:`competition.api.http`
answers 304 and CORS. Every endpoint takes a constant number of queries.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.http import http_date
from django.utils.translation import gettext as _
from ninja import NinjaAPI

from competition.api import payloads, schemas
from competition.api.http import not_modified, season_etag
from competition.models import Club, Participant, Round, Season
from competition.permissions import found
from competition.selectors import api as selectors
from competition.selectors.participants import participant_detail
from competition.selectors.ratings import club_rating_list
from competition.selectors.rounds import round_detail
from competition.selectors.standings import SeasonStandingsPage, standings_for_season

api = NinjaAPI(
    title="clubcomp",
    version="1",
    urls_namespace="api-1",
    description=(
        "The public data of the clubs' internal competitions: standings after any round with "
        "every figure exact and explained, rounds with pairings and results, participants and "
        "club evenings. Read only, no login; every answer carries an ETag (send it back in "
        "If-None-Match for a 304). See docs/api.md."
    ),
)


def _club(slug: str) -> Club:
    return found(lambda: selectors.club_get(slug=slug), Club.DoesNotExist, _("No such club."))


def _season(club: str, season: str) -> Season:
    return found(
        lambda: selectors.public_season_get(club_slug=club, slug=season),
        Season.DoesNotExist,
        _("No such season."),
    )


def _unchanged(request: HttpRequest, response: HttpResponse, season: Season) -> HttpResponse | None:
    """Tag the answer with the season's versions (``ETag``) and the time they last moved
    (``Last-Modified``); a 304 when the client has it already (by either)."""
    etag = season_etag(request, season)
    response["ETag"] = etag
    last_modified = int(season.changed_at.timestamp()) if season.changed_at else None
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified)
    unchanged = not_modified(request, etag, last_modified)
    if unchanged is not None:
        unchanged["ETag"] = etag
        if last_modified is not None:
            unchanged["Last-Modified"] = response["Last-Modified"]
    return unchanged


NOT_FOUND: dict[int | str, Any] = {404: schemas.Problem}
# The answer of an endpoint whose number parameters are not numbers (django-ninja's own 422).
INVALID: dict[int | str, Any] = {422: schemas.InvalidParameters}


def _no_such_round(after_round: int | None, asked: int | None) -> None:
    """404 when ``asked`` (the ``round`` parameter) is not a round with standings: the pages
    were built for ``after_round``, the latest, instead."""
    if asked is not None and asked != after_round:
        raise Http404(_("No standings after round %(round)s.") % {"round": asked})


@api.get("/clubs/", response=list[schemas.ClubItem], url_name="clubs", tags=["clubs"])
def clubs(request: HttpRequest) -> list[dict[str, Any]]:
    """Every club on this site."""
    return [payloads.club_item(club) for club in selectors.clubs_listed()]


@api.get(
    "/clubs/{club}/",
    response={200: schemas.ClubDetail, **NOT_FOUND},
    url_name="club",
    tags=["clubs"],
)
def club(request: HttpRequest, club: str) -> dict[str, Any]:
    """A club with its running and finished seasons."""
    the_club = _club(club)
    seasons = selectors.public_seasons_of_club(club=the_club)
    return {**payloads.club_item(the_club), "seasons": [payloads.season_item(s) for s in seasons]}


@api.get(
    "/clubs/{club}/seasons/",
    response={200: list[schemas.SeasonItem], **NOT_FOUND},
    url_name="seasons",
    tags=["seasons"],
)
def seasons(request: HttpRequest, club: str) -> list[dict[str, Any]]:
    """The club's running and finished seasons, the latest first."""
    the_club = _club(club)
    return [payloads.season_item(s) for s in selectors.public_seasons_of_club(club=the_club)]


@api.get(
    "/clubs/{club}/ratings/",
    response={200: schemas.RatingList, **NOT_FOUND},
    url_name="ratings",
    tags=["clubs"],
)
def ratings(request: HttpRequest, club: str) -> dict[str, Any]:
    """The club's rating list (docs/ratings.md): every active member with a club rating, the
    highest first, with the change since the end of the previous month and over the season."""
    the_club = _club(club)
    return payloads.rating_list(club_rating_list(club=the_club, as_of=timezone.localdate()))


@api.get(
    "/clubs/{club}/seasons/{season}/",
    response={200: schemas.SeasonDetail, **NOT_FOUND},
    url_name="season",
    tags=["seasons"],
)
def season(request: HttpRequest, club: str, season: str) -> dict[str, Any]:
    """A season: its system and tie-breaks, how far it is, and the links to the rest."""
    the_season = _season(club, season)
    rounds = selectors.season_rounds(season=the_season)
    completed = [r.number for r in rounds if r.is_completed]
    return payloads.season_detail(
        the_season, round_count=len(rounds), after_round=max(completed) if completed else None
    )


@api.get(
    "/clubs/{club}/seasons/{season}/standings/",
    response={200: schemas.Standings, 304: None, **NOT_FOUND, **INVALID},
    url_name="standings",
    tags=["standings"],
)
def standings(
    request: HttpRequest, response: HttpResponse, club: str, season: str, round: int | None = None
) -> Any:
    """The standings after round ``round`` (default: the last completed one): every figure
    exact and as shown, each row's move since the round before and what placed it below an
    equal score. A round without standings (not completed, or no such round) is 404."""
    the_season = _season(club, season)
    unchanged = _unchanged(request, response, the_season)
    if unchanged is not None:
        return unchanged
    page = standings_for_season(season=the_season, after_round=round)
    _no_such_round(page.after_round, round)
    return _standings_json(page)


def standings_document(season: Season, *, after_round: int | None = None) -> dict[str, Any]:
    """The standings endpoint's document for ``season``, as JSON values in the schema's order
    (also the TD's ``standings.json`` download: the same document)."""
    return _standings_json(standings_for_season(season=season, after_round=after_round))


def _standings_json(page: SeasonStandingsPage) -> dict[str, Any]:
    document = payloads.standings(page)
    return schemas.Standings.model_validate(document).model_dump(mode="json")


@api.get(
    "/clubs/{club}/seasons/{season}/rounds/",
    response={200: list[schemas.RoundItem], **NOT_FOUND},
    url_name="rounds",
    tags=["rounds"],
)
def rounds(request: HttpRequest, club: str, season: str) -> list[dict[str, Any]]:
    """The season's rounds with their date and status."""
    the_season = _season(club, season)
    return [
        payloads.round_item(the_season, rnd) for rnd in selectors.season_rounds(season=the_season)
    ]


@api.get(
    "/clubs/{club}/seasons/{season}/rounds/{number}/",
    response={200: schemas.RoundDetail, **NOT_FOUND, **INVALID},
    url_name="round",
    tags=["rounds"],
)
def round_(request: HttpRequest, club: str, season: str, number: int) -> dict[str, Any]:
    """A round: its pairings and results (once published), rounds without a game (absences,
    club duties, byes) and corrections made after it closed."""
    the_season = _season(club, season)
    page = found(
        lambda: round_detail(season=the_season, number=number),
        Round.DoesNotExist,
        _("No such round."),
    )
    return payloads.round_detail(page)


@api.get(
    "/clubs/{club}/seasons/{season}/participants/",
    response={200: list[schemas.ParticipantItem], **NOT_FOUND},
    url_name="participants",
    tags=["participants"],
)
def participants(request: HttpRequest, club: str, season: str) -> list[dict[str, Any]]:
    """The season's participants by start number."""
    the_season = _season(club, season)
    return [
        payloads.participant_item(the_season, participant)
        for participant in selectors.season_participants(season=the_season)
    ]


@api.get(
    "/clubs/{club}/seasons/{season}/participants/{participant_id}/",
    response={200: schemas.ParticipantDetail, 304: None, **NOT_FOUND, **INVALID},
    url_name="participant",
    tags=["participants"],
)
def participant(
    request: HttpRequest,
    response: HttpResponse,
    club: str,
    season: str,
    participant_id: int,
    round: int | None = None,
) -> Any:
    """A participant after round ``round`` (default: the last completed one): his figures,
    every game with what it adds to each figure, the explanation of every figure line by
    line (as his page shows it), and his rank and score after each round. A round without
    standings is 404, as for the standings."""
    the_season = _season(club, season)
    unchanged = _unchanged(request, response, the_season)
    if unchanged is not None:
        return unchanged
    page = found(
        lambda: participant_detail(
            season=the_season, participant_id=participant_id, after_round=round
        ),
        Participant.DoesNotExist,
        _("No such participant."),
    )
    _no_such_round(page.after_round, round)
    return payloads.participant_detail(page)


@api.get(
    "/clubs/{club}/seasons/{season}/calendar/",
    response={200: list[schemas.Evening], **NOT_FOUND},
    url_name="calendar",
    tags=["calendar"],
)
def calendar(request: HttpRequest, club: str, season: str) -> list[dict[str, Any]]:
    """The season's club evenings by date, with their rounds (and the rounds played on a date
    outside the calendar)."""
    the_season = _season(club, season)
    return [
        payloads.evening_item(evening) for evening in selectors.season_evenings(season=the_season)
    ]
