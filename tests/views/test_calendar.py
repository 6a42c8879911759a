"""The TD's calendar of club evenings, the members' reports on his attendance screen, the whole
road from a report to the explanation page, and the member's private iCal feed."""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.messages import get_messages

from competition.models import (
    AbsenceReport,
    Club,
    ClubEvening,
    Game,
    Member,
    Round,
    RoundEntry,
    Season,
    SeasonChancesJob,
)
from competition.permissions import td_group
from competition.services import feeds
from tests.addresses import club_reverse
from tests.views.member_club import english, member_club, today

pytestmark = pytest.mark.django_db

WEEK = datetime.timedelta(days=7)


def calendar_url(season: Season) -> str:
    return club_reverse("competition:td_calendar", args=[season.slug])


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def dates(season: Season) -> list[tuple[datetime.date, int]]:
    return list(
        ClubEvening.objects.filter(season=season)
        .order_by("date")
        .values_list("date", "round_number")
    )


# --- the TD's calendar -----------------------------------------------------------------------


def test_the_calendar_lists_evenings_with_the_reports(client) -> None:
    club = member_club(requested_byes=True)
    evening = club.evening(today() + WEEK, note="Bekeravond")
    empty = club.evening(today() + 2 * WEEK)
    english(client, club.user)
    client.post(
        club_reverse("competition:my_evening_report", args=[evening.pk]),
        {"kind": "absent", "note": "op vakantie"},
    )
    english(client, club.td)
    page = client.get(calendar_url(club.season)).content.decode()
    block = page.split(f'id="evening-{evening.pk}"')[1].split(f'id="evening-{empty.pk}"')[0]
    assert "Bekeravond" in block and "round 1" in block
    assert "1 report" in block
    assert "Anna de Vries" in block and "I can&#x27;t come" in block and "op vakantie" in block
    assert 'name="action" value="delete"' not in block  # an evening with reports stays
    empty_block = page.split(f'id="evening-{empty.pk}"')[1]
    assert 'name="action" value="delete"' in empty_block.split("</li>")[0]
    assert "Members may ask for a bye." in page


def test_the_td_home_links_to_the_calendar(td) -> None:
    page = td.get(club_reverse("competition:td_home")).content.decode()
    assert club_reverse("competition:td_calendar", args=["interne-2026-2027"]) in page


def test_add_one_evening_and_many(client) -> None:
    club = member_club()
    english(client, club.td)
    url = calendar_url(club.season)
    response = client.post(url, {"action": "add", "date": "2027-01-21", "note": "Bekeravond"})
    assert response.status_code == 302 and response["Location"] == url
    response = client.post(url, {"action": "import", "dates": "14-01-2027\n\n 2027-01-28 \n"})
    assert response.status_code == 302
    assert said(response)[-1] == "2 evenings added."
    assert dates(club.season) == [
        (datetime.date(2027, 1, 14), 1),
        (datetime.date(2027, 1, 21), 2),
        (datetime.date(2027, 1, 28), 3),
    ]
    assert ClubEvening.objects.get(date=datetime.date(2027, 1, 21)).note == "Bekeravond"


def test_a_bad_line_names_the_line_and_saves_nothing(client) -> None:
    club = member_club()
    english(client, club.td)
    response = client.post(
        calendar_url(club.season),
        {"action": "import", "dates": "2027-01-14\n2027-01-21\n31-02-2027\n2027-01-28"},
    )
    assert response.status_code == 200
    assert said(response) == ["Line 3: “31-02-2027” is not a date; write 2027-01-14 or 14-01-2027."]
    assert "2027-01-28" in response.content.decode()  # what was typed stays in the box
    assert dates(club.season) == []


def test_a_date_already_in_the_calendar_is_refused(client) -> None:
    club = member_club()
    club.evening(datetime.date(2027, 1, 14))
    english(client, club.td)
    response = client.post(
        calendar_url(club.season), {"action": "import", "dates": "2027-01-21\n14-01-2027"}
    )
    assert response.status_code == 200
    assert said(response)[-1].startswith("Already in the calendar:")
    assert dates(club.season) == [(datetime.date(2027, 1, 14), 1)]


def test_delete_an_evening_only_without_reports(client) -> None:
    club = member_club()
    reported = club.evening(today() + WEEK)
    free = club.evening(today() + 2 * WEEK)
    AbsenceReport.objects.create(evening=reported, participant=club.me, reported_by=club.user)
    english(client, club.td)
    url = calendar_url(club.season)
    response = client.post(url, {"action": "delete", "evening": reported.pk})
    assert said(response)[-1] == "1 member reported for this evening; it stays in the calendar."
    assert ClubEvening.objects.filter(pk=reported.pk).exists()
    response = client.post(url, {"action": "delete", "evening": free.pk})
    assert response.status_code == 302
    assert not ClubEvening.objects.filter(pk=free.pk).exists()
    response = client.post(url, {"action": "delete", "evening": free.pk})  # a second tap
    assert said(response)[-1] == "This evening is no longer in the calendar."


def test_an_evening_of_another_season_is_not_deleted_here(client) -> None:
    club = member_club()
    other = member_club(slug="rapid")  # same club, second season
    theirs = other.evening(today() + WEEK)
    english(client, club.td)
    client.post(calendar_url(club.season), {"action": "delete", "evening": theirs.pk})
    assert ClubEvening.objects.filter(pk=theirs.pk).exists()


def test_the_deadline_and_requested_byes(client) -> None:
    club = member_club()
    english(client, club.td)
    url = calendar_url(club.season)
    client.post(url, {"action": "settings", "absence_deadline": "18:00", "requested_byes": "on"})
    club.season.refresh_from_db()
    assert club.season.absence_deadline == datetime.time(18, 0)
    assert club.season.requested_byes
    assert "Members report until 18:00" in client.get(url).content.decode()
    client.post(url, {"action": "settings", "absence_deadline": ""})
    club.season.refresh_from_db()
    assert club.season.absence_deadline is None and not club.season.requested_byes
    response = client.post(url, {"action": "settings", "absence_deadline": "25:99"})
    assert response.status_code == 200 and said(response)
    club.season.refresh_from_db()
    assert club.season.absence_deadline is None


def test_only_this_clubs_tds(client, member_user) -> None:
    club = member_club()
    url = calendar_url(club.season)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    english(client, member_user)
    assert client.get(url).status_code == 403
    english(client, club.user)  # a member with an account is no TD
    assert client.post(url, {"action": "add", "date": "2027-01-21"}).status_code == 403
    elders = Club.objects.create(name="Elders", slug="elders")
    outsider = User.objects.create_user("elders-td", password="elders-pass-123")
    outsider.groups.add(td_group(elders))
    english(client, outsider)
    assert client.post(url, {"action": "add", "date": "2027-01-21"}).status_code == 403
    assert not ClubEvening.objects.exists()
    assert client.get(club_reverse("competition:td_calendar", args=["nope"])).status_code == 404


# --- the attendance screen, and the road to the explanation ----------------------------------


def _round_url(name: str, season: Season, number: int = 1) -> str:
    return club_reverse(f"competition:{name}", args=[season.slug, number])


def test_from_a_report_to_the_explanation_page(client) -> None:
    club = member_club(requested_byes=True)
    evening = club.evening(today())
    bram = User.objects.create_user("bram", password="bram-pass-12345")
    Member.objects.filter(pk=club.others[0].member_id).update(user=bram)

    english(client, club.user)
    client.post(
        club_reverse("competition:my_evening_report", args=[evening.pk]),
        {"kind": "absent", "note": "op vakantie"},
    )
    english(client, bram)
    client.post(club_reverse("competition:my_evening_report", args=[evening.pk]), {"kind": "bye"})

    # The TD opens the evening: Anna is absent with notice, Bram asks for a bye.
    english(client, club.td)
    response = client.post(
        club_reverse("competition:td_round_new", args=[club.season.slug]),
        {"date": today().isoformat()},
    )
    assert response.status_code == 302
    rnd = Round.objects.get(season=club.season)
    entry = RoundEntry.objects.get(round=rnd)
    assert (entry.participant, entry.kind, entry.updated_by) == (
        club.me,
        "absent_notice",
        club.user,
    )
    page = client.get(_round_url("td_attendance", club.season)).content.decode()
    anna = page.split('data-name="Anna de Vries"')[1].split("</li>")[0]
    assert (
        f'id="p{club.me.pk}-absent_notice" value="absent_notice" autocomplete="off" checked' in anna
    )
    assert "absent with notice — reported by Anna de Vries on" in anna
    assert ": op vakantie" in anna
    bram_row = page.split('data-name="Bram Jansen"')[1].split("</li>")[0]
    assert "asks for a bye" in bram_row and "reported by Bram Jansen on" in bram_row

    # The TD pairs, publishes; the member sees his pairing... (Anna is absent: Bram has his
    # pairing instead; the page and the feed show it.)
    marks = {f"p{p.pk}": "present" for p in club.others}
    marks[f"p{club.me.pk}"] = "absent_notice"
    client.post(_round_url("td_attendance", club.season), {**marks, "then": "pair"})
    assert client.post(_round_url("td_round_publish", club.season)).status_code == 302
    rnd.refresh_from_db()
    assert rnd.is_published
    english(client, club.user)
    page = client.get(club_reverse("competition:my_page")).content.decode()
    assert "You are marked: absent with notice." in page

    english(client, club.td)
    for game in Game.objects.filter(round=rnd):
        client.post(
            club_reverse(
                "competition:td_result_save",
                args=[club.season.slug, rnd.number, game.pk],
            ),
            {"result": "1-0", "version": game.version},
        )
    response = client.post(_round_url("td_round_close", club.season))
    rnd.refresh_from_db()
    assert rnd.is_completed, said(response)

    english(client, club.user)
    page = client.get(
        club_reverse("competition:participant", args=[club.season.slug, club.me.pk])
    ).content.decode()
    assert "absent with notice" in page
    my_page = client.get(club_reverse("competition:my_page")).content.decode()
    results = my_page.split("my-results")[1].split("</table>")[0]
    assert "absent with notice" in results


def test_the_td_can_overrule_a_report(client) -> None:
    club = member_club()
    evening = club.evening(today())
    english(client, club.user)
    client.post(
        club_reverse("competition:my_evening_report", args=[evening.pk]), {"kind": "absent"}
    )
    english(client, club.td)
    client.post(
        club_reverse("competition:td_round_new", args=[club.season.slug]),
        {"date": today().isoformat()},
    )
    client.post(_round_url("td_attendance", club.season), {f"p{club.me.pk}": "present"})
    rnd = Round.objects.get(season=club.season)
    assert not RoundEntry.objects.filter(round=rnd, participant=club.me).exists()
    # The report stays, shown beside the TD's mark; the entry's history keeps the trail.
    page = client.get(_round_url("td_attendance", club.season)).content.decode()
    anna = page.split('data-name="Anna de Vries"')[1].split("</li>")[0]
    assert "reported by Anna de Vries" in anna
    assert f'id="p{club.me.pk}-present" value="present" autocomplete="off" checked' in anna
    assert RoundEntry.history.filter(participant_id=club.me.pk).count() == 2


# --- the iCal feed ---------------------------------------------------------------------------


def feed_url(member: Member, season: Season) -> str:
    token = feeds.member_feed_token(member=member)
    return club_reverse("competition:member_feed", args=[token, season.slug])


def unfolded_lines(response) -> list[str]:
    return response.content.decode().replace("\r\n ", "").split("\r\n")


def test_the_feed_has_the_evenings_with_the_pairing(client) -> None:
    club = member_club()
    Member.objects.filter(pk=club.others[0].member_id).update(birth_year=2012)
    Season.objects.filter(pk=club.season.pk).update(junior_birth_year=2008)
    tonight = club.evening(today(), note="Simultaan, daarna")
    coming = club.evening(today() + WEEK)
    AbsenceReport.objects.create(evening=coming, participant=club.me, reported_by=club.user)
    rnd = Round.objects.create(season=club.season, number=1, date=today(), status="paired")
    Game.objects.create(round=rnd, board=2, white=club.others[0], black=club.me)
    url = feed_url(club.me.member, club.season)

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(url)  # no login: the token is the key
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    lines = unfolded_lines(response)
    assert lines.count("BEGIN:VEVENT") == 2
    assert f"UID:evening-{tonight.pk}@testserver" in lines  # the site's host: globally unique
    # A junior shows as first name and initial; the evening's note follows the pairing.
    assert "DESCRIPTION:Board 2\\, black\\, against Bram J.\\nSimultaan\\, daarna" in lines
    assert "Jansen" not in response.content.decode()
    assert "SUMMARY:Interne competitie\\, round 1" in lines
    assert "DESCRIPTION:absent (reported)" in lines
    # The same evening keeps its UID when the pairing changes.
    Game.objects.all().delete()
    again = unfolded_lines(client.get(url))
    assert f"UID:evening-{tonight.pk}@testserver" in again
    assert "DESCRIPTION:Simultaan\\, daarna" in again


AMSTERDAM = ZoneInfo("Europe/Amsterdam")


def test_the_feed_gives_each_evening_its_start_in_dutch_time(client) -> None:
    """Read with a real parser (icalendar): each club evening starts at the club's time (20:00
    unless the club says otherwise), or the season's own, in Dutch time summer and winter, and
    ends three hours later; every UID is unique and carries the site's domain."""
    club = member_club()
    winter = club.evening(datetime.date(2027, 1, 14))
    summer = club.evening(datetime.date(2027, 4, 1))  # summer time since 28 March
    url = feed_url(club.me.member, club.season)

    def events() -> dict[str, Any]:
        response = client.get(url)
        calendar = icalendar.Calendar.from_ical(response.content)
        found = {str(event["UID"]): event for event in calendar.walk("VEVENT")}
        assert len(found) == len(calendar.walk("VEVENT")) == 2
        return found

    found = events()
    january = found[f"evening-{winter.pk}@testserver"]
    assert january.decoded("DTSTART") == datetime.datetime(2027, 1, 14, 20, tzinfo=AMSTERDAM)
    assert january.decoded("DTEND") == datetime.datetime(2027, 1, 14, 23, tzinfo=AMSTERDAM)
    april = found[f"evening-{summer.pk}@testserver"]
    assert april.decoded("DTSTART") == datetime.datetime(2027, 4, 1, 20, tzinfo=AMSTERDAM)
    lines = unfolded_lines(client.get(url))
    assert "DTSTART:20270114T190000Z" in lines  # 20:00 winter time is 19:00 UTC
    assert "DTSTART:20270401T180000Z" in lines  # 20:00 summer time is 18:00 UTC

    club.season.club.evening_start = datetime.time(19, 45)
    club.season.club.save()
    start = events()[f"evening-{winter.pk}@testserver"].decoded("DTSTART")
    assert start == datetime.datetime(2027, 1, 14, 19, 45, tzinfo=AMSTERDAM)
    Season.objects.filter(pk=club.season.pk).update(evening_start=datetime.time(20, 15))
    start = events()[f"evening-{summer.pk}@testserver"].decoded("DTSTART")
    assert start == datetime.datetime(2027, 4, 1, 20, 15, tzinfo=AMSTERDAM)


def test_the_td_sets_the_seasons_start_time(client) -> None:
    club = member_club()
    english(client, club.td)
    url = calendar_url(club.season)
    assert 'name="evening_start"' in client.get(url).content.decode()
    client.post(url, {"action": "settings", "absence_deadline": "", "evening_start": "19:30"})
    club.season.refresh_from_db()
    assert club.season.evening_start == datetime.time(19, 30)
    response = client.post(url, {"action": "settings", "evening_start": "24:61"})
    assert response.status_code == 200 and said(response)
    club.season.refresh_from_db()
    assert club.season.evening_start == datetime.time(19, 30)
    client.post(url, {"action": "settings", "evening_start": ""})  # empty: the club's time
    club.season.refresh_from_db()
    assert club.season.evening_start is None


def test_the_feed_in_dutch_for_a_phone_without_cookies(client) -> None:
    club = member_club()
    coming = club.evening(today() + WEEK)
    AbsenceReport.objects.create(evening=coming, participant=club.me, reported_by=club.user)
    lines = unfolded_lines(client.get(feed_url(club.me.member, club.season)))
    assert "DESCRIPTION:afwezig (afgemeld)" in lines
    assert "SUMMARY:Interne competitie\\, ronde 1" in lines


def test_an_unknown_token_or_another_season_is_not_found(client) -> None:
    club = member_club()
    other = member_club(slug="rapid")
    url = feed_url(club.me.member, club.season)
    assert client.get(url).status_code == 200
    token = Member.objects.get(pk=club.me.member_id).feed_token
    assert (
        client.get(
            club_reverse("competition:member_feed", args=["x" * 43, club.season.slug])
        ).status_code
        == 404
    )
    # A season he does not play in, even of his own club.
    assert (
        client.get(
            club_reverse("competition:member_feed", args=[token, other.season.slug])
        ).status_code
        == 404
    )
    assert client.post(url).status_code == 405


# --- planned rounds ----------------------------------------------------------------------------


def test_the_calendar_fills_the_planned_rounds_and_the_td_sets_them(client) -> None:
    club = member_club()
    english(client, club.td)
    url = calendar_url(club.season)
    assert "Planned rounds" in client.get(url).content.decode()
    client.post(url, {"action": "import", "dates": "2027-01-14\n2027-01-21\n2027-01-28"})
    club.season.refresh_from_db()
    assert club.season.planned_rounds == 3  # the calendar's last planned round
    job = SeasonChancesJob.objects.get(season=club.season)
    assert job.pending  # the chances follow the new calendar

    response = client.post(url, {"action": "planned", "planned_rounds": "11"})
    assert response.status_code == 302
    assert said(response)[-1] == "Planned rounds saved; the chances are being recomputed."
    club.season.refresh_from_db()
    assert club.season.planned_rounds == 11
    assert SeasonChancesJob.objects.get(season=club.season).requested == job.requested + 1
    page = client.get(url).content.decode()
    assert 'name="planned_rounds" value="11"' in page

    # An evening deleted: the calendar fills it again (now two evenings).
    evening = ClubEvening.objects.filter(season=club.season).order_by("date").last()
    client.post(url, {"action": "delete", "evening": evening.pk})
    club.season.refresh_from_db()
    assert club.season.planned_rounds == 2

    client.post(url, {"action": "planned", "planned_rounds": ""})
    club.season.refresh_from_db()
    assert club.season.planned_rounds is None


def test_planned_rounds_below_the_rounds_played_or_zero_are_refused(client) -> None:
    club = member_club()
    english(client, club.td)
    url = calendar_url(club.season)
    for number in (1, 2, 3):
        Round.objects.create(
            season=club.season,
            number=number,
            date=datetime.date(2026, 9, number),
            status=Round.Status.COMPLETED,
        )
    response = client.post(url, {"action": "planned", "planned_rounds": "2"})
    assert said(response) == ["The season already has 3 rounds: plan at least that many."]
    response = client.post(url, {"action": "planned", "planned_rounds": "0"})
    assert response.status_code == 200
    assert said(response) == ["Ensure this value is greater than or equal to 1."]
    club.season.refresh_from_db()
    assert club.season.planned_rounds is None
