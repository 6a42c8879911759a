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
from django.urls import reverse
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
        evenings=[Row(day) for day in evenings],
        rounds=[Row(day, n) for day, n in rounds],
        today=today,
    )
    assert [line.number for line in lines] == expected


@pytest.fixture
def issue_evening(demo_club, monkeypatch) -> Season:
    """The demo's internal competition on 3 December 2026, as the issue saw it: the clock
    stands at noon that day, whatever the date the tests run on."""
    noon = timezone.make_aware(datetime.datetime.combine(TODAY, datetime.time(12)))
    monkeypatch.setattr(timezone, "now", lambda: noon)
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


def _feed_rounds(client, participant) -> dict[datetime.date, int | None]:
    """The round of each event of the participant's calendar feed, by date (None: no round)."""
    token = feeds.member_feed_token(member=participant.member)
    season = participant.season
    url = club_url(season.club.slug, "competition:member_feed", args=[token, season.slug])
    text = client.get(url).content.decode().replace("\r\n ", "")
    rounds: dict[datetime.date, int | None] = {}
    for event in text.split("BEGIN:VEVENT")[1:]:
        day = datetime.datetime.strptime(re.search(r"DTSTART[^:]*:(\d{8})", event)[1], "%Y%m%d")
        summary = re.search(r"SUMMARY:(.*)\r\n", event)[1]
        number = re.search(r"round (\d+)$", summary)
        assert number or summary.endswith("no round played"), summary
        rounds[day.date()] = int(number[1]) if number else None
    return rounds


def _api_rounds(client, season: Season) -> dict[datetime.date, int | None]:
    url = reverse("api-1:calendar", kwargs={"club": season.club.slug, "season": season.slug})
    answer = client.get(url).json()
    return {datetime.date.fromisoformat(item["date"]): item["round"] for item in answer}


def _member_page_rounds(client) -> dict[datetime.date, int | None]:
    """The round of each coming evening on the member's page, by date."""
    page = client.get(club_url(DEMO, "competition:my_page")).content.decode()
    rounds: dict[datetime.date, int | None] = {}
    for pk, item in re.findall(r'id="evening-(\d+)"(.*?)</li>', page, re.S):
        number = re.search(r"round (\d+)", item)
        assert number or "no round played" in item, item
        rounds[ClubEvening.objects.get(pk=pk).date] = int(number[1]) if number else None
    return rounds


def test_the_api_the_feed_and_the_member_page_agree_on_every_demo_evening(
    client, issue_evening, monkeypatch
) -> None:
    """Every demo season's evenings (the calendar's, and the rounds played off it: every
    season but the internal competition has no calendar), seen on each evening of the
    internal competition's calendar as today: the API gives each date the round the feed and
    the member's page give it (a rapid evening its first round, an evening after one the
    round after its last)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    seasons = list(Season.objects.order_by("pk"))
    expected_api = {
        # 3 December: round 10 up to 12 November, none on 19 and 26 November, round 11 on
        # Tuesday 1 December (off the calendar), round 12 tonight, 13 next week
        DAY(2026, 11, 12): 10,
        DAY(2026, 11, 19): None,
        DAY(2026, 11, 26): None,
        DAY(2026, 12, 1): 11,
        DAY(2026, 12, 3): 12,
        DAY(2026, 12, 10): 13,
    }
    api = _api_rounds(client, issue_evening)
    assert {day: api[day] for day in expected_api} == expected_api
    rapid = Season.objects.get(slug="rapidserie-2026-2027")
    first_days = sorted(set(rapid.rounds.values_list("date", flat=True)))
    # five rounds an evening: the evenings are rounds 1, 6 and 11
    assert [_api_rounds(client, rapid)[day] for day in first_days] == [1, 6, 11]

    evenings = list(issue_evening.evenings.order_by("date").values_list("date", flat=True))
    real_localdate, real_localtime = timezone.localdate, timezone.localtime
    member = User.objects.get(username="lid")
    compared = 0
    for today in evenings:
        noon = datetime.datetime.combine(today, datetime.time(12), real_localtime().tzinfo)
        monkeypatch.setattr(timezone, "now", lambda noon=noon: noon)
        monkeypatch.setattr(
            timezone,
            "localdate",
            lambda value=None, timezone=None, today=today: (
                today if value is None else real_localdate(value, timezone)
            ),
        )
        client.force_login(member)  # a session of that day (it lasts two weeks)
        member_page = _member_page_rounds(client)
        assert today in member_page  # the member's coming evenings start with today's
        api = _api_rounds(client, issue_evening)
        assert {day: api[day] for day in member_page} == member_page, today
        for season in seasons if today == evenings[0] else [issue_evening]:
            participant = season.participants.order_by("pk").first()
            api = _api_rounds(client, season)
            assert api == _feed_rounds(client, participant), (season.slug, today)
            assert set(api) >= set(season.rounds.values_list("date", flat=True))
            compared += len(api)
    assert compared > 34 * 30
