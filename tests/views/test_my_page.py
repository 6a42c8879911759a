"""My page: the member's coming evenings and reports, tonight's round, his results and place,
his calendar address; reports for himself only, before the deadline, for his own seasons."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages

from competition.models import AbsenceReport, ClubEvening, Game, Member, Round, RoundEntry
from competition.services.rounds import round_complete
from competition.views.members import _optional_url
from tests.addresses import club_reverse
from tests.factories import ParticipantFactory, SeasonFactory
from tests.views.member_club import english, member_club, today

pytestmark = pytest.mark.django_db

MY_PAGE = club_reverse("competition:my_page")
WEEK = datetime.timedelta(days=7)


def report_url(evening: ClubEvening) -> str:
    return club_reverse("competition:my_evening_report", args=[evening.pk])


def withdraw_url(evening: ClubEvening) -> str:
    return club_reverse("competition:my_evening_withdraw", args=[evening.pk])


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_anonymous_is_sent_to_login(client) -> None:
    response = client.get(MY_PAGE)
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_an_account_without_member_gets_a_friendly_page(client, member_user) -> None:
    english(client, member_user)
    response = client.get(MY_PAGE)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Ask the tournament director for an invitation" in page
    assert "My page</a>" not in page  # no menu item without a member account


def test_my_page_lists_the_coming_evenings(client) -> None:
    club = member_club()
    club.evening(today() - WEEK)  # passed: not shown
    coming = [
        club.evening(today() + WEEK * n, note="Bekeravond" if n == 1 else "") for n in range(1, 6)
    ]
    english(client, club.user)
    page = client.get(MY_PAGE).content.decode()
    assert "Interne competitie" in page
    assert f'href="{MY_PAGE}"' in page  # "My page" in the menu
    shown = [e for e in coming if f'id="evening-{e.pk}"' in page]
    assert shown == coming[:4]
    assert "Bekeravond" in page
    assert "t come</button>" in page
    assert "I ask for a bye" not in page  # the season has no requested byes
    profile = _optional_url("competition:member_profile", {"member_id": club.me.member_id})
    if profile is not None:  # the profile page (built elsewhere) is linked when it exists
        assert f'href="{profile}"' in page


def test_report_take_back_and_double_submit(client) -> None:
    club = member_club(requested_byes=True)
    evening = club.evening(today() + WEEK)
    english(client, club.user)
    for _twice in range(2):
        response = client.post(report_url(evening), {"kind": "absent", "note": "op vakantie"})
        assert response.status_code == 302 and response["Location"] == MY_PAGE
    report = AbsenceReport.objects.get()
    assert (report.participant, report.kind, report.note) == (club.me, "absent", "op vakantie")
    page = client.get(MY_PAGE).content.decode()
    assert "op vakantie" in page and "Take back" in page

    # A second report replaces the first.
    client.post(report_url(evening), {"kind": "bye"})
    assert list(AbsenceReport.objects.values_list("kind", "note")) == [("bye", "")]

    response = client.post(withdraw_url(evening))
    assert "report taken back" in said(response)[-1]
    assert not AbsenceReport.objects.exists()
    response = client.post(withdraw_url(evening))  # a second tap changes nothing
    assert said(response)[-1] == "There is no report to take back."
    assert not AbsenceReport.objects.exists()


def test_no_bye_when_the_season_has_none(client) -> None:
    club = member_club(requested_byes=False)
    evening = club.evening(today() + WEEK)
    english(client, club.user)
    response = client.post(report_url(evening), {"kind": "bye"})
    assert said(response) == ["This season has no requested byes."]
    assert not AbsenceReport.objects.exists()


def test_after_the_deadline_the_page_says_why(client) -> None:
    club = member_club(deadline=datetime.time(0, 0))  # closed from midnight on the day itself
    evening = club.evening(today())
    later = club.evening(today() + WEEK)
    english(client, club.user)
    response = client.post(report_url(evening), {"kind": "absent"})
    assert said(response)[0].startswith("Reports for this evening closed at")
    assert not AbsenceReport.objects.exists()
    page = client.get(MY_PAGE).content.decode()
    block = page.split(f'id="evening-{evening.pk}"')[1].split("</li>")[0]
    assert "closed at" in block and report_url(evening) not in block
    assert report_url(later) in page


def test_only_his_own_seasons(client) -> None:
    club = member_club()
    evening = club.evening(today() + WEEK)
    # Another member of the club with an account, not in this season.
    stranger = User.objects.create_user("stranger", password="stranger-pass-1")
    other_season = SeasonFactory(club=club.season.club, slug="rapid")
    outsider = ParticipantFactory(season=other_season)
    Member.objects.filter(pk=outsider.member_id).update(user=stranger)
    english(client, stranger)
    assert client.post(report_url(evening), {"kind": "absent"}).status_code == 403
    assert client.post(withdraw_url(evening)).status_code == 403
    assert (
        client.post(club_reverse("competition:my_evening_report", args=[99999])).status_code == 404
    )
    assert not AbsenceReport.objects.exists()


def test_a_member_changes_only_his_own_report(client) -> None:
    club = member_club()
    evening = club.evening(today() + WEEK)
    english(client, club.user)
    client.post(report_url(evening), {"kind": "absent", "note": "ziek"})
    bram = User.objects.create_user("bram", password="bram-pass-12345")
    Member.objects.filter(pk=club.others[0].member_id).update(user=bram)
    english(client, bram)
    response = client.post(withdraw_url(evening))
    assert said(response)[-1] == "There is no report to take back."
    assert list(AbsenceReport.objects.values_list("participant", "note")) == [(club.me.pk, "ziek")]
    client.post(report_url(evening), {"kind": "absent"})  # his own report, beside hers
    assert AbsenceReport.objects.filter(participant=club.others[0]).exists()
    assert AbsenceReport.objects.get(participant=club.me).note == "ziek"


def test_an_account_without_member_cannot_report(client, member_user) -> None:
    club = member_club()
    evening = club.evening(today() + WEEK)
    english(client, member_user)
    assert client.post(report_url(evening), {"kind": "absent"}).status_code == 403
    assert client.post(club_reverse("competition:my_feed_renew")).status_code == 403
    assert not AbsenceReport.objects.exists()


def test_a_report_is_a_post(client) -> None:
    club = member_club()
    evening = club.evening(today() + WEEK)
    english(client, club.user)
    assert client.get(report_url(evening)).status_code == 405
    assert client.post(MY_PAGE).status_code == 405


def _play_round(club, *, result: str = "1-0") -> Round:
    """Round 1 today: me (white) against Bram on board 1, Cor against Dirk on board 2."""
    rnd = Round.objects.create(
        season=club.season, number=1, date=today(), status=Round.Status.PAIRED
    )
    bram, cor, dirk = club.others
    Game.objects.create(round=rnd, board=1, white=club.me, black=bram)
    Game.objects.create(round=rnd, board=2, white=cor, black=dirk)
    return rnd


def test_tonight_shows_the_published_pairing_then_the_result_and_place(client) -> None:
    club = member_club()
    Member.objects.filter(pk=club.others[0].member_id).update(name_display="short")
    rnd = _play_round(club)
    english(client, club.user)
    page = client.get(MY_PAGE).content.decode()
    assert "You are marked present." in page
    assert "Board 1, white, against Bram J." in page  # public names, as on the public pages

    Game.objects.filter(round=rnd).update(result="1-0")
    round_complete(round=rnd, user=club.td)
    page = client.get(MY_PAGE).content.decode()
    assert "You are marked" not in page  # no open round
    results = page.split('class="table table-sm my-results"')[1].split("</table>")[0]
    assert "Bram J." in results and "1-0" in results and "(1)" in results
    assert "Place 1 of 4, score" in page
    participant_url = club_reverse("competition:participant", args=[club.season.slug, club.me.pk])
    assert participant_url in page


def test_tonight_before_publishing_and_when_absent(client) -> None:
    club = member_club()
    rnd = Round.objects.create(season=club.season, number=1, date=today())
    RoundEntry.objects.create(round=rnd, participant=club.me, kind="absent_notice")
    english(client, club.user)
    page = client.get(MY_PAGE).content.decode()
    assert "You are marked: absent with notice." in page
    assert "The pairing is not published yet." in page


def test_the_calendar_address_and_a_new_one(client) -> None:
    club = member_club()
    club.evening(today() + WEEK)
    english(client, club.user)
    page = client.get(MY_PAGE).content.decode()
    member = Member.objects.get(pk=club.me.member_id)
    old = club_reverse("competition:member_feed", args=[member.feed_token, club.season.slug])
    assert f"http://testserver{old}" in page
    assert client.get(old).status_code == 200
    response = client.post(club_reverse("competition:my_feed_renew"))
    assert response.status_code == 302
    member.refresh_from_db()
    new = club_reverse("competition:member_feed", args=[member.feed_token, club.season.slug])
    assert new != old
    assert client.get(old).status_code == 404
    assert client.get(new).status_code == 200


def test_links_to_pages_that_do_not_exist_are_left_out() -> None:
    assert _optional_url("competition:no_such_page") is None
    assert _optional_url("competition:standings", {"member_id": 1}, {"slug": "x"}) == (
        club_reverse("competition:standings", args=["x"])
    )


# --- my settings: e-mail, mails, my name in public -----------------------------------------


def preferences_url(member: Member) -> str:
    return club_reverse("competition:my_preferences", args=[member.pk])


def test_a_member_saves_his_settings_and_the_public_pages_follow(client) -> None:
    """E-mail address, both notices and "first name and initial": saved, shown again on his
    page, and his public page (cached before) shows "Anna V." at once."""
    club = member_club()
    standings = club_reverse("competition:participant", args=[club.season.slug, club.me.pk])
    assert "Anna de Vries" in client.get(standings).content.decode()  # anonymous: cached
    english(client, club.user)
    response = client.post(
        preferences_url(club.me.member),
        {
            "email": "anna@example.org",
            "notify_pairing": "on",
            "notify_correction": "on",
            "name_display": "short",
        },
    )
    assert response.status_code == 302 and response["Location"].endswith("#settings")
    assert said(response) == ["Your settings are saved."]
    member = Member.objects.get(pk=club.me.member_id)
    assert (member.email, member.notify_pairing, member.notify_correction, member.name_display) == (
        "anna@example.org",
        True,
        True,
        "short",
    )
    page = client.get(MY_PAGE).content.decode()
    assert 'value="anna@example.org"' in page and '<option value="short" selected>' in page
    client.logout()
    public = client.get(standings).content.decode()
    assert "Anna V." in public and "Anna de Vries" not in public


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"email": "geen-adres"}, "Enter a valid email address."),
        ({"email": "", "notify_pairing": "on"}, "Give your e-mail address to receive mails."),
        ({"email": "a@example.org", "name_display": "nickname"}, "Select a valid choice."),
    ],
)
def test_bad_settings_say_what_is_wrong_and_change_nothing(client, fields, message) -> None:
    club = member_club()
    english(client, club.user)
    response = client.post(preferences_url(club.me.member), fields)
    assert response.status_code == 302
    assert any(message in text for text in said(response)), said(response)
    member = Member.objects.get(pk=club.me.member_id)
    assert (member.email, member.notify_pairing, member.name_display) == ("", False, "")


def test_only_his_own_settings(client) -> None:
    """Another member's settings (with or without an account) are refused and unchanged."""
    club = member_club()
    other = club.others[0].member
    english(client, club.user)
    response = client.post(preferences_url(other), {"email": "x@example.org"})
    assert response.status_code == 403
    other.refresh_from_db()
    assert other.email == ""
    assert client.get(preferences_url(club.me.member)).status_code == 405
