"""A member's absence note is for the TD: the public round page, the embed and the API say only
the kind of absence (before the pairing is published and after the round closed), while the
TD's attendance page of that club still shows the note."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from competition.clubs import club_url
from competition.models import AbsenceReport, ClubEvening, Round, RoundEntry
from competition.permissions import td_group
from competition.services.rounds import round_create
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db

REPORTED = "in het ziekenhuis voor een operatie"  # the member's words in his report
TYPED = "belde af: zieke dochter"  # a note on a closed round's entry (as copied before)


@pytest.fixture
def season_with_notes():
    """The small season (E absent with notice in rounds 1 and 2, rounds closed) with a note on
    E's round-2 entry, and round 3 opened by the TD from E's report "I can't come" with a note:
    the round is planned (its pairing not published), E's entry carries the report's note."""
    cache.clear()
    season, people = small_season()
    RoundEntry.objects.filter(round__season=season, round__number=2).update(note=TYPED)
    day = datetime.date(2026, 9, 24)
    evening = ClubEvening.objects.create(season=season, date=day, round_number=3)
    AbsenceReport.objects.create(evening=evening, participant=people["E"], note=REPORTED)
    (third,) = round_create(seasons=[season], date=day)
    assert third.number == 3 and third.status == Round.Status.PLANNED
    assert RoundEntry.objects.get(round=third).note == REPORTED  # the TD's copy
    return season, people


def _text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_public_round_page_names_the_absence_not_the_note(client, season_with_notes) -> None:
    season, _people = season_with_notes
    client.cookies["django_language"] = "en"
    club = season.club.slug
    for number in (2, 3):
        html = _text(client, club_url(club, "competition:round", args=[season.slug, number]))
        assert "Absent with notice" in html and "Eva Egbers" in html
        assert REPORTED not in html and TYPED not in html, f"round {number}"


def test_the_embed_and_the_api_say_only_the_kind(client, season_with_notes) -> None:
    season, people = season_with_notes
    club = season.club.slug
    embed = _text(client, club_url(club, "competition:season_embed", args=[season.slug]))
    assert REPORTED not in embed and TYPED not in embed
    for number in (2, 3):
        url = f"/api/v1/clubs/{club}/seasons/{season.slug}/rounds/{number}/"
        body = _text(client, url)
        assert REPORTED not in body and TYPED not in body
        entries = client.get(url).json()["entries"]
        assert [(e["participant"]["id"], e["kind"]) for e in entries] == [
            (people["E"].pk, "absent_notice")
        ]
    participant = f"/api/v1/clubs/{club}/seasons/{season.slug}/participants/{people['E'].pk}/"
    assert TYPED not in _text(client, participant)
    page = club_url(club, "competition:participant", args=[season.slug, people["E"].pk])
    assert TYPED not in _text(client, page)


def test_the_clubs_td_still_sees_the_note(client, season_with_notes) -> None:
    season, _people = season_with_notes
    td = User.objects.create_user("notes-td", password="td-pass-12345")
    td.groups.add(td_group(season.club))
    client.force_login(td)
    attendance = club_url(
        season.club.slug,
        "competition:td_attendance",
        kwargs={"season_slug": season.slug, "round_number": 3},
    )
    assert REPORTED in _text(client, attendance)
    calendar = club_url(
        season.club.slug, "competition:td_calendar", kwargs={"season_slug": season.slug}
    )
    assert REPORTED in _text(client, calendar)
