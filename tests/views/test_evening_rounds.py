"""One round number for one evening (selectors.evenings): the member page, the club page, the
TD's calendar and the iCal feed agree, with the demo's internal competition on the evening the
issue describes: ten rounds played up to 12 November, no round on 19 and 26 November, round 11
on Tuesday 1 December (not a club evening) and round 12 opened on Thursday 3 December."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from competition.clubs import club_url
from competition.models import ClubEvening, Member, Round, Season
from competition.selectors.evenings import evenings_with_rounds
from competition.services import feeds

pytestmark = pytest.mark.django_db

DEMO = "sc-de-toren"
TODAY = datetime.date(2026, 12, 3)
DAY = datetime.date


class Row:
    def __init__(self, day: datetime.date, number: int = 0) -> None:
        self.date, self.number = day, number


@pytest.mark.parametrize(
    ("evenings", "rounds", "today", "expected"),
    [
        # nothing played yet: the calendar counts from 1
        ([DAY(2026, 9, 3), DAY(2026, 9, 10)], [], DAY(2026, 9, 1), [1, 2]),
        # a past evening without a round has no number and takes none
        ([DAY(2026, 9, 3), DAY(2026, 9, 10)], [], DAY(2026, 9, 5), [None, 1]),
        # a round off the calendar is an evening of its own, and the next one counts on
        ([DAY(2026, 9, 10)], [(DAY(2026, 9, 8), 1)], DAY(2026, 9, 9), [1, 2]),
        # an evening with a round shows that round, whatever the calendar planned
        ([DAY(2026, 9, 3)], [(DAY(2026, 9, 3), 4)], DAY(2026, 9, 3), [4]),
        # a rapid evening plays several rounds: the evening is its first
        ([DAY(2026, 9, 3)], [(DAY(2026, 9, 3), 2), (DAY(2026, 9, 3), 1)], DAY(2026, 9, 3), [1]),
        # the evening after a rapid evening of three rounds is round 4, not 2
        (
            [DAY(2026, 9, 3), DAY(2026, 9, 10)],
            [(DAY(2026, 9, 3), 1), (DAY(2026, 9, 3), 2), (DAY(2026, 9, 3), 3)],
            DAY(2026, 9, 4),
            [1, 4],
        ),
    ],
)
def test_evenings_with_rounds(evenings, rounds, today, expected) -> None:
    lines = evenings_with_rounds(
        [Row(day) for day in evenings], [Row(day, n) for day, n in rounds], today=today
    )
    assert [line.number for line in lines] == expected


@pytest.fixture
def issue_evening(demo_club, monkeypatch) -> Season:
    """The demo's internal competition on 3 December 2026, as the issue saw it."""
    real_localdate = timezone.localdate

    def localdate(value=None, timezone=None):
        return TODAY if value is None else real_localdate(value, timezone)

    monkeypatch.setattr(timezone, "localdate", localdate)
    season = Season.objects.get(club__slug=DEMO, slug="interne-2026-2027")
    assert season.rounds.count() == 10 and not season.evenings.filter(date=DAY(2026, 12, 1))
    Round.objects.create(season=season, number=11, date=DAY(2026, 12, 1), status="completed")
    Round.objects.create(season=season, number=12, date=TODAY, status="planned")
    return season


def test_the_feed_has_the_round_off_the_calendar_and_no_number_for_evenings_without(
    client, issue_evening
) -> None:
    member = Member.objects.get(user__username="lid")
    token = feeds.member_feed_token(member=member)
    url = club_url(DEMO, "competition:member_feed", args=[token, issue_evening.slug])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    text = client.get(url).content.decode().replace("\r\n ", "")
    events = {
        re.search(r"DTSTART[^:]*:(\d{8})", event).group(1): re.search(
            r"SUMMARY:(.*)\r\n", event
        ).group(1)
        for event in text.split("BEGIN:VEVENT")[1:]
    }
    season = "Interne competitie 2026-2027"
    assert events["20261112"] == f"{season}\\, round 10"
    assert events["20261119"] == f"{season}\\, no round played"
    assert events["20261126"] == f"{season}\\, no round played"
    assert events["20261201"] == f"{season}\\, round 11"  # not a club evening, but played
    assert events["20261203"] == f"{season}\\, round 12"
    assert events["20261210"] == f"{season}\\, round 13"
    round_11 = Round.objects.get(season=issue_evening, number=11)
    assert f"UID:round-{round_11.pk}@testserver" in text


def test_the_member_page_and_the_club_page_agree(client, issue_evening) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(User.objects.get(username="lid"))
    page = client.get(club_url(DEMO, "competition:my_page")).content.decode()
    assert "Round 12 · Thursday 3 December" in page
    tonight = ClubEvening.objects.get(season=issue_evening, date=TODAY)
    evening = page.split(f'id="evening-{tonight.pk}"')[1].split("</li>")[0]
    assert "round 12" in evening and "round 13" not in evening

    home = client.get(club_url(DEMO, "competition:home")).content.decode()
    assert "Next club evening: Thursday 3 December (Interne competitie 2026-2027, round 12)" in (
        home
    )


def test_the_tds_calendar_says_no_round_for_a_past_evening_without_one(
    client, issue_evening
) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(User.objects.get(username="wedstrijdleider"))
    page = client.get(
        club_url(DEMO, "competition:td_calendar", args=[issue_evening.slug])
    ).content.decode()
    for day, shown in ((DAY(2026, 11, 19), "no round played"), (TODAY, "round 12")):
        evening = ClubEvening.objects.get(season=issue_evening, date=day)
        assert shown in page.split(f'id="evening-{evening.pk}"')[1].split("</li>")[0]


def test_my_page_at_the_sites_address_names_the_members_club(client, demo_club) -> None:
    client.force_login(User.objects.get(username="lid"))
    page = client.get("/me/").content.decode()
    assert "♞ Schaakclub De Toren</a>" in page
    assert "· Schaakclub De Toren</title>" in page


def test_the_td_home_links_the_ranking_rules(client, demo_club) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(User.objects.get(username="wedstrijdleider"))
    page = client.get(club_url(DEMO, "competition:td_home")).content.decode()
    rules = club_url(DEMO, "competition:how_it_works", args=["interne-2026-2027"])
    assert f'href="{rules}">Ranking rules</a>' in page
