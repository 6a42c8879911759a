"""The TD's FIDE rating report of a season: the problems before the download, the header
saved on the page, the TRF file."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from competition.clubs import club_url
from competition.models import Member, Season
from competition.permissions import td_group
from tests.rating_data import four_player_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def report(client):
    data = four_player_club()
    td = User.objects.create_user("td-fide", password="td-pass-12345")
    td.groups.add(td_group(data["club"]))
    client.force_login(td)
    client.cookies["django_language"] = "en"
    page = club_url(data["club"].slug, "competition:season_rating_report", args=["intern"])
    download = club_url(
        data["club"].slug, "competition:season_rating_report_download", args=["intern"]
    )
    return data, page, download


def test_the_page_names_what_is_missing_before_the_download(client, report) -> None:
    _data, page, _download = report
    html = client.get(page).content.decode()
    for missing in (
        "The city is missing (line 022).",
        "The chief arbiter is missing (line 102).",
        "Eerste, P1 (start number",
        ") has no FIDE ID.",
        "Download all the same",
    ):
        assert missing in html, missing


def test_saving_the_event_and_the_members_ids_clears_the_problems(client, report) -> None:
    data, page, download = report
    response = client.post(
        page,
        {
            "city": "Apeldoorn", "federation": "ned", "chief_arbiter": "Jan Jansen (1012345)",
            "deputy_arbiters": "Piet Pietersen", "time_control": "90 min + 30 s",
            "tournament_type": "",
        },
    )  # fmt: skip
    assert response.status_code == 302
    season = Season.objects.get(pk=data["season"].pk)
    assert (season.city, season.federation) == ("Apeldoorn", "NED")
    for number, member in enumerate(Member.objects.filter(club=data["club"]), start=1):
        member.fide_id, member.federation = 1_000_000 + number, "NED"
        member.rating = member.rating or 1500  # P3 gets a rating too
        member.save()
    # The event ratings are the season's (P3 has none: his games are against an unrated player).
    html = client.get(page).content.decode()
    assert "who has no FIDE rating" in html and "The city is missing" not in html
    data["people"]["P3"].rating = 1500
    data["people"]["P3"].save()
    html = client.get(page).content.decode()
    assert "Nothing is missing: the report can be sent." in html
    text = client.get(download).content.decode()
    assert text.startswith("012 ")
    assert "022 Apeldoorn\n032 NED\n" in text and "102 Jan Jansen (1012345)\n" in text
    assert "092 Individual: Swiss-System\n" in text and "072 4\n" in text


def test_a_wrong_federation_is_refused_and_nothing_is_saved(client, report) -> None:
    data, page, _download = report
    client.post(page, {"city": "Apeldoorn", "federation": "NL1"})
    assert Season.objects.get(pk=data["season"].pk).city == ""


def test_only_the_clubs_tds(client, report) -> None:
    _data, page, download = report
    client.force_login(User.objects.create_user("lid-fide", password="x-pass-12345"))
    assert client.get(page).status_code in (302, 403)
    assert client.get(download).status_code in (302, 403)
