"""The public JSON API (/api/v1/): every endpoint's answer against the OpenAPI document, the
figures worked out by hand (tests/views/public_data.py), privacy, 304, CORS and a constant
number of queries."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.core.cache import cache
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openapi_schema_validator import OAS31Validator

from competition.models import ClubEvening, Member, Participant, Season
from competition.services.privacy import member_name_display_set
from tests.views.public_data import large_season, small_season

pytestmark = pytest.mark.django_db

API = "/api/v1"


def api_url(name: str, **kwargs: Any) -> str:
    return reverse(f"api-1:{name}", kwargs=kwargs)


def season_urls(season: Season, participant_id: int) -> dict[str, str]:
    """One address of every endpoint, by the OpenAPI document's path."""
    club, slug = season.club.slug, season.slug
    base = f"{API}/clubs/{{club}}/seasons/{{season}}"
    return {
        f"{API}/clubs/": api_url("clubs"),
        f"{API}/clubs/{{club}}/": api_url("club", club=club),
        f"{API}/clubs/{{club}}/seasons/": api_url("seasons", club=club),
        f"{API}/clubs/{{club}}/ratings/": api_url("ratings", club=club),
        f"{base}/": api_url("season", club=club, season=slug),
        f"{base}/standings/": api_url("standings", club=club, season=slug) + "?round=1",
        f"{base}/rounds/": api_url("rounds", club=club, season=slug),
        f"{base}/rounds/{{number}}/": api_url("round", club=club, season=slug, number=2),
        f"{base}/participants/": api_url("participants", club=club, season=slug),
        f"{base}/participants/{{participant_id}}/": api_url(
            "participant", club=club, season=slug, participant_id=participant_id
        ),
        f"{base}/calendar/": api_url("calendar", club=club, season=slug),
    }


def response_schema(document: dict[str, Any], path: str, status: str = "200") -> dict[str, Any]:
    """The schema of ``path``'s answer with ``status``, its references resolvable (the
    document's components beside it)."""
    answer = document["paths"][path]["get"]["responses"][status]
    schema = answer["content"]["application/json"]["schema"]
    return {**schema, "components": document["components"]}


@pytest.fixture
def document(client: Client) -> dict[str, Any]:
    response = client.get(api_url("openapi-json"))
    assert response.status_code == 200
    return response.json()


def test_every_endpoint_answers_as_the_openapi_document_says(client, document) -> None:
    season, people = small_season()
    ClubEvening.objects.create(season=season, date=datetime.date(2026, 9, 24), round_number=3)
    urls = season_urls(season, people["C"].pk)
    assert set(urls) == set(document["paths"]), "a new endpoint needs its check here"
    for path, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"] == "application/json; charset=utf-8"
        OAS31Validator(response_schema(document, path)).validate(response.json())


def test_an_unknown_season_is_404_as_documented(client, document) -> None:
    season, _people = small_season()
    path = f"{API}/clubs/{{club}}/seasons/{{season}}/standings/"
    response = client.get(api_url("standings", club=season.club.slug, season="nope"))
    assert response.status_code == 404
    OAS31Validator(response_schema(document, path, "404")).validate(response.json())
    assert client.get(api_url("club", club="nope")).status_code == 404


STANDINGS = f"{API}/clubs/{{club}}/seasons/{{season}}/standings/"
PARTICIPANT = f"{API}/clubs/{{club}}/seasons/{{season}}/participants/{{participant_id}}/"
ROUND = f"{API}/clubs/{{club}}/seasons/{{season}}/rounds/{{number}}/"


@pytest.mark.parametrize("value", ["99", "3", "0", "-1"])
def test_an_unknown_round_is_404_as_documented(client, document, value: str) -> None:
    """The small season has rounds 1 and 2: after any other round there are no standings (it
    answered 200 with the latest standings)."""
    season, people = small_season()
    club, slug = season.club.slug, season.slug
    for path, url in (
        (STANDINGS, api_url("standings", club=club, season=slug)),
        (
            PARTICIPANT,
            api_url("participant", club=club, season=slug, participant_id=people["C"].pk),
        ),
    ):
        response = client.get(f"{url}?round={value}")
        assert response.status_code == 404, url
        OAS31Validator(response_schema(document, path, "404")).validate(response.json())
        assert client.get(f"{url}?round=1").json()["after_round"] == 1


def test_a_parameter_that_is_no_number_is_422_as_documented(client, document) -> None:
    season, people = small_season()
    club, slug = season.club.slug, season.slug
    participant = api_url("participant", club=club, season=slug, participant_id=people["C"].pk)
    for path, url in (
        (STANDINGS, api_url("standings", club=club, season=slug) + "?round=abc"),
        (PARTICIPANT, participant + "?round=1.5"),
        (ROUND, f"{API}/clubs/{club}/seasons/{slug}/rounds/drie/"),
        (PARTICIPANT, f"{API}/clubs/{club}/seasons/{slug}/participants/cor/"),
    ):
        response = client.get(url)
        assert response.status_code == 422, url
        OAS31Validator(response_schema(document, path, "422")).validate(response.json())
        assert response.json()["detail"][0]["loc"][-1] in ("round", "number", "participant_id")


# Values a conformance checker sends for each parameter: numbers inside and outside the
# season, zero, negative, far too large, and text.
PROBES = ["1", "2", "99", "0", "-1", "99999999999999999999", "abc", "", "Ünïcode"]


def test_every_answer_is_one_the_document_lists(client, document) -> None:
    """Every endpoint with every parameter (path and query) set to each probe: the status is
    one the OpenAPI document lists for it, and the body is valid against that answer's
    schema (as a conformance checker such as schemathesis checks)."""
    season, people = small_season()
    real = {
        "club": season.club.slug,
        "season": season.slug,
        "number": "2",
        "participant_id": str(people["C"].pk),
        "round": "1",
    }
    checked = 0
    for path, operations in document["paths"].items():
        operation = operations["get"]
        parameters = operation.get("parameters", [])
        for parameter in parameters:
            for probe in PROBES:
                if probe == "" and parameter["in"] == "path":
                    continue  # an empty path part is another address, not a value
                values = {**real, parameter["name"]: probe}
                url = path
                for name in ("club", "season", "number", "participant_id"):
                    url = url.replace(f"{{{name}}}", values[name])
                if any(p["in"] == "query" for p in parameters):
                    url += f"?round={values['round']}"
                response = client.get(url)
                status = str(response.status_code)
                assert status in operation["responses"], f"{url}: {status} is not documented"
                answer = operation["responses"][status]
                if "content" in answer:
                    schema = answer["content"]["application/json"]["schema"]
                    OAS31Validator({**schema, "components": document["components"]}).validate(
                        response.json()
                    )
                checked += 1
    assert checked > 100


def test_head_and_options_answer_as_the_allow_header_says(client) -> None:
    season, _people = small_season()
    url = api_url("standings", club=season.club.slug, season=season.slug)
    get = client.get(url)
    head = client.head(url)
    assert head.status_code == 200
    assert head.content == b""
    assert head["ETag"] == get["ETag"] and head["Content-Type"] == get["Content-Type"]
    assert int(head["Content-Length"]) == len(get.content)
    assert client.head(url, HTTP_IF_NONE_MATCH=get["ETag"]).status_code == 304
    assert client.head(api_url("club", club="nope")).status_code == 404
    options = client.options(url)
    assert options.status_code == 204
    assert options["Allow"] == "GET, HEAD, OPTIONS"
    assert options["Access-Control-Allow-Origin"] == "*"
    assert client.options(f"{API}/no-such-endpoint/").status_code == 404
    refused = client.post(url)
    assert refused.status_code == 405 and refused["Allow"] == "GET, HEAD, OPTIONS"


def test_standings_give_the_figures_worked_out_by_hand(client) -> None:
    season, people = small_season()
    url = api_url("standings", club=season.club.slug, season=season.slug)
    cache.clear()
    client.cookies["django_language"] = "en"
    body = client.get(url).json()
    assert body["after_round"] == 2 and body["rounds"] == [1, 2]
    assert body["primary"] == "SB"
    rows = [
        (r["rank"], r["name"], r["score"]["exact"], r["values"]["IP"]["exact"])
        for r in body["standings"]
    ]
    assert rows == [
        (1, "Cor Cools", "1.5", "1"),
        (2, "Anna Aalders", "0.5", "1.5"),
        (2, "Dirk Dekker", "0.5", "1.5"),
        (4, "Eva Egbers", "0", "1"),
        (5, "Bart Bos", "0", "0"),
    ]
    cor = body["standings"][0]
    assert cor["score"] == {"exact": "1.5", "display": "1.5"}
    assert body["standings"][3]["values"]["IP"]["display"] == "1"
    assert cor["page"].endswith(f"/season/{season.slug}/participant/{people['C'].pk}/")
    # Eva below Bart's equal score? No: Eva 0 (IP 1) is above Bart 0 (IP 0), IP decided.
    assert body["standings"][4]["separated_by"] == "IP"
    assert "decided" in body["standings"][4]["separation"]
    after_one = client.get(url + "?round=1").json()
    assert after_one["after_round"] == 1
    assert [(r["rank"], r["name"]) for r in after_one["standings"]][:2] == [
        (1, "Cor Cools"),
        (1, "Dirk Dekker"),
    ]


def test_a_participant_has_his_explanations_line_by_line(client) -> None:
    season, people = small_season()
    client.cookies["django_language"] = "en"
    url = api_url(
        "participant", club=season.club.slug, season=season.slug, participant_id=people["C"].pk
    )
    body = client.get(url).json()
    assert body["name"] == "Cor Cools" and body["after_round"] == 2
    assert body["standing"]["rank"] == 1 and body["standing"]["score"]["exact"] == "1.5"
    sb = next(section for section in body["explanations"] if section["code"] == "SB")
    # SB: ½ × IP(D) 1½ + ½ × IP(A) 1½ = ¾ + ¾
    assert [
        (line["round"], line["opponent"]["name"], line["amount"]["exact"]) for line in sb["lines"]
    ] == [
        (1, "Dirk Dekker", "0.75"),
        (2, "Anna Aalders", "0.75"),
    ]
    assert sb["total"]["exact"] == "1.5"
    assert [(h["round"], h["rank"]) for h in body["history"]] == [(1, 1), (2, 1)]
    assert [(g["round"], g["colour"], g["result"]) for g in body["games"]] == [
        (1, "w", "1/2"),
        (2, "b", "1/2"),
    ]


def test_a_round_gives_its_pairings_results_and_absences(client) -> None:
    season, _people = small_season()
    client.cookies["django_language"] = "en"
    body = client.get(api_url("round", club=season.club.slug, season=season.slug, number=1)).json()
    assert body["status"] == "completed" and body["published"] is True
    assert [
        (g["board"], g["white"]["name"], g["black"]["name"], g["result"]) for g in body["games"]
    ] == [
        (1, "Anna Aalders", "Bart Bos", "1-0"),
        (2, "Cor Cools", "Dirk Dekker", "1/2"),
    ]
    assert [(e["participant"]["name"], e["kind"]) for e in body["entries"]] == [
        ("Eva Egbers", "absent_notice")
    ]
    missing = client.get(api_url("round", club=season.club.slug, season=season.slug, number=9))
    assert missing.status_code == 404


def test_names_are_as_the_public_sees_them(client) -> None:
    season, people = small_season()
    member = Member.objects.get(pk=people["A"].member_id)
    member_name_display_set(member=member, choice="short", user=_staff())
    names = [
        p["name"]
        for p in client.get(
            api_url("participants", club=season.club.slug, season=season.slug)
        ).json()
    ]
    assert names == ["Anna A.", "Bart Bos", "Cor Cools", "Dirk Dekker", "Eva Egbers"]
    text = client.get(api_url("standings", club=season.club.slug, season=season.slug)).content
    assert b"Aalders" not in text and b"rating" not in text


def _staff():
    """A club admin of the factories' club (may set a member's name display)."""
    from tests.factories import club_admin_user

    return club_admin_user()


def test_a_season_in_preparation_is_not_public(client) -> None:
    season, _people = small_season()
    Season.objects.filter(pk=season.pk).update(status=Season.Status.DRAFT)
    assert (
        client.get(api_url("season", club=season.club.slug, season=season.slug)).status_code == 404
    )
    assert client.get(api_url("seasons", club=season.club.slug)).json() == []


def test_an_unchanged_season_answers_304(client) -> None:
    season, people = small_season()
    url = api_url("standings", club=season.club.slug, season=season.slug)
    first = client.get(url)
    etag = first["ETag"]
    assert etag.startswith('"') and "max-age=0" in first["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    # another round's standings, another language, or a change to the season: a new answer
    assert client.get(url + "?round=1", HTTP_IF_NONE_MATCH=etag).status_code == 200
    client.cookies["django_language"] = "en"
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200
    del client.cookies["django_language"]
    member = Member.objects.get(pk=people["A"].member_id)
    member_name_display_set(member=member, choice="short", user=_staff())
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_last_modified_is_when_the_season_last_changed(client) -> None:
    """``Last-Modified`` is the time the season's versions last moved; a client that has the
    answer from then on (``If-Modified-Since``) gets 304, one from before gets it anew."""
    from django.utils.http import http_date, parse_http_date

    from competition.services.standings import seasons_touch

    season, _people = small_season()
    seasons_touch(seasons=[season])
    season.refresh_from_db()
    assert season.changed_at is not None
    url = api_url("standings", club=season.club.slug, season=season.slug)
    first = client.get(url)
    assert parse_http_date(first["Last-Modified"]) == int(season.changed_at.timestamp())
    since = first["Last-Modified"]
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=since).status_code == 304
    earlier = http_date(int(season.changed_at.timestamp()) - 60)
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=earlier).status_code == 200


def test_lists_answer_304_on_their_content(client) -> None:
    season, _people = small_season()
    url = api_url("rounds", club=season.club.slug, season=season.slug)
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    season.rounds.filter(number=2).update(date=datetime.date(2026, 9, 18))
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_cors_is_open_for_reading_the_api_only(client) -> None:
    season, _people = small_season()
    url = api_url("standings", club=season.club.slug, season=season.slug)
    response = client.get(url, HTTP_ORIGIN="https://www.other.example")
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    assert "ETag" in response["Access-Control-Expose-Headers"]
    preflight = client.options(
        url,
        HTTP_ORIGIN="https://www.other.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match",
    )
    assert preflight.status_code == 204
    assert preflight["Access-Control-Allow-Origin"] == "*"
    assert preflight["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    assert "If-None-Match" in preflight["Access-Control-Allow-Headers"]
    assert client.post(url).status_code == 405
    page = client.get(reverse("competition:standings", args=[season.slug]))
    assert page.status_code == 200 and "Access-Control-Allow-Origin" not in page
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"]


def test_the_docs_page_loads_nothing_from_elsewhere(client) -> None:
    response = client.get(api_url("openapi-view"))
    assert response.status_code == 200
    html = response.content.decode()
    assert static("ninja/swagger-ui-bundle.js") in html
    assert "cdn" not in html.lower() and "https://" not in html.split("swagger-settings")[0]
    assert reverse("api-1:openapi-view") in client.get(reverse("competition:home")).content.decode()


MAX_QUERIES = 8


@pytest.mark.parametrize("size", ["small", "large"])
def test_endpoints_use_a_constant_number_of_queries(
    client, django_assert_max_num_queries, size: str
) -> None:
    season = small_season()[0] if size == "small" else large_season(players=41, rounds=12)
    participant = Participant.objects.filter(season=season).order_by("pk").first()
    assert participant is not None
    for url in season_urls(season, participant.pk).values():
        cache.clear()
        with django_assert_max_num_queries(MAX_QUERIES):
            assert client.get(url).status_code == 200, url


def test_the_tds_standings_json_is_the_apis_document(client) -> None:
    from django.contrib.auth.models import User

    from competition.permissions import td_group

    season, _people = small_season()
    td = User.objects.create_user("td-api", password="td-pass-12345")
    td.groups.add(td_group(season.club))
    client.force_login(td)
    download = client.get(reverse("competition:season_standings_json", args=[season.slug]))
    assert download.status_code == 200
    assert download["Content-Disposition"] == f'attachment; filename="{season.slug}-standings.json"'
    client.logout()
    api = client.get(api_url("standings", club=season.club.slug, season=season.slug))
    assert json.loads(download.content) == api.json()


def test_the_calendar_gives_each_evenings_start_in_dutch_time(client, monkeypatch) -> None:
    monkeypatch.setattr(timezone, "localdate", lambda: datetime.date(2026, 9, 18))
    season, _people = small_season()
    ClubEvening.objects.create(season=season, date=datetime.date(2026, 9, 24), round_number=3)
    ClubEvening.objects.create(season=season, date=datetime.date(2027, 1, 14), round_number=4)
    url = api_url("calendar", club=season.club.slug, season=season.slug)
    # the season's two rounds were played off the calendar: evenings of their own, as in the
    # members' calendar feed; the calendar's evenings count on from them
    assert [
        (e["date"], e["round"], e["on_calendar"], e["start"]) for e in client.get(url).json()
    ] == [
        ("2026-09-10", 1, False, "2026-09-10T20:00:00+02:00"),
        ("2026-09-17", 2, False, "2026-09-17T20:00:00+02:00"),
        ("2026-09-24", 3, True, "2026-09-24T20:00:00+02:00"),  # summer time
        ("2027-01-14", 4, True, "2027-01-14T20:00:00+01:00"),
    ]
    Season.objects.filter(pk=season.pk).update(evening_start=datetime.time(19, 30))
    assert client.get(url).json()[3]["start"] == "2027-01-14T19:30:00+01:00"
    # once 24 September has passed without a round it had none, and 14 January is round 3
    monkeypatch.setattr(timezone, "localdate", lambda: datetime.date(2026, 10, 1))
    assert [e["round"] for e in client.get(url).json()] == [1, 2, None, 3]


def test_the_clubs_rating_list(client, document) -> None:
    """The hand-worked club of tests/rating_data.py: 1798, 1610, 1528, 1514."""
    from competition.services.ratings import club_ratings_replay
    from tests.rating_data import four_player_club

    club = four_player_club()["club"]
    club_ratings_replay(club=club)
    response = client.get(api_url("ratings", club=club.slug))
    assert response.status_code == 200
    OAS31Validator(response_schema(document, f"{API}/clubs/{{club}}/ratings/")).validate(
        response.json()
    )
    rows = response.json()["ratings"]
    assert [(r["name"], r["rating"], r["games"]) for r in rows] == [
        ("P1 Eerste", 1798, 2),
        ("P2 Tweede", 1610, 2),
        ("P4 Vierde", 1528, 2),
        ("P3 Derde", 1514, 2),
    ]
    assert rows[0]["page"] == f"/{club.slug}/member/{rows[0]['member_id']}/rating/"
    assert client.get(api_url("ratings", club="nope")).status_code == 404
