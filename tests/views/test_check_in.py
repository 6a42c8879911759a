"""Check-in's pages: the TD opens it on the attendance page (QR code, short link, code), polls
who checked in and closes it; a member opens the link (through the login) or his page and taps
"I am here"; refusals say why; nobody else's data reaches the check-in page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.urls import reverse

from competition.clubs import club_url
from competition.models import CheckIn, Round, RoundEntry
from competition.services import evening
from competition.services.check_in import check_in_open, member_check_in
from competition.services.rounds import round_create
from tests.addresses import club_reverse
from tests.factories import ClubFactory, MemberFactory
from tests.views.member_club import MemberClub, english, member_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> MemberClub:
    return member_club()


def round_url(name: str, rnd: Round) -> str:
    return club_reverse(
        f"competition:{name}",
        kwargs={"season_slug": rnd.season.slug, "round_number": rnd.number},
    )


def link(rnd: Round) -> str:
    return reverse("competition:check_in", kwargs={"code": rnd.check_in_code})


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def tonight(club: MemberClub, *, open_it: bool = True) -> Round:
    rnd = round_create(seasons=[club.season])[0]
    return check_in_open(round=rnd, user=club.td) if open_it else rnd


def marks_posted(club: MemberClub, **overrides: str) -> dict[str, str]:
    """The attendance form as the page posts it: everyone present unless said otherwise."""
    people = [club.me, *club.others]
    return {f"p{p.pk}": overrides.get(p.member.name.split()[0].lower(), "present") for p in people}


# --- the TD ----------------------------------------------------------------------------------


def test_the_td_opens_check_in_and_sees_the_qr_code_link_and_code(client, club) -> None:
    rnd = tonight(club, open_it=False)
    english(client, club.td)
    page = client.get(round_url("td_attendance", rnd)).content.decode()
    assert 'id="check-in-open"' in page and "<svg" not in page
    response = client.post(round_url("td_check_in_open", rnd), marks_posted(club, cor="club_duty"))
    assert response.status_code == 302 and response["Location"].endswith("/attendance/#check-in")
    assert said(response) == ["Check-in is open: show the code to the members."]
    rnd.refresh_from_db()
    assert rnd.check_in_is_open and len(rnd.check_in_code) == 6
    # the marks posted along were saved with it
    assert RoundEntry.objects.get(round=rnd).participant == club.others[1]
    page = client.get(round_url("td_attendance", rnd)).content.decode()
    assert re.search(r'<svg [^>]*class="check-in-qr"', page)
    assert f"http://testserver/in/{rnd.check_in_code}/" in page
    assert f'id="check-in-code">{rnd.check_in_code}</strong>' in page
    assert "js/check_in." in page and 'data-open="1"' in page


def test_a_check_in_shows_as_a_badge_and_in_the_json(client, club) -> None:
    rnd = tonight(club)
    done = member_check_in(round=rnd, user=club.user)
    english(client, club.td)
    page = client.get(round_url("td_attendance", rnd)).content.decode()
    row = re.search(rf'data-participant="{club.me.pk}">(.*?)</legend>', page, re.S).group(1)
    assert "check-in-badge" in row and "checked in" in row
    response = client.get(round_url("td_check_in_state", rnd))
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    state = response.json()
    at = done.check_in.checked_in_at
    from django.utils import timezone

    assert state == {
        "open": True,
        "count": 1,
        "checked_in": [{"participant": club.me.pk, "at": timezone.localtime(at).strftime("%H:%M")}],
        "marks": {str(p.pk): "present" for p in [club.me, *club.others]},
    }


def test_the_json_endpoint_is_refused_to_a_member_and_to_anonymous(client, club) -> None:
    rnd = tonight(club)
    assert client.get(round_url("td_check_in_state", rnd))["Location"].startswith("/login/")
    english(client, club.user)
    assert client.get(round_url("td_check_in_state", rnd)).status_code == 403
    assert client.post(round_url("td_check_in_open", rnd)).status_code == 403
    assert client.post(round_url("td_check_in_close", rnd), {"absent": "rest"}).status_code == 403
    rnd.refresh_from_db()
    assert rnd.check_in_is_open and not RoundEntry.objects.filter(round=rnd).exists()


def test_a_td_of_another_club_is_refused(client, club) -> None:
    rnd = tonight(club)
    from competition.permissions import td_group

    elders = ClubFactory(name="Elders", slug="elders")
    outsider = User.objects.create_user("elders-td", password="elders-pass-123")
    outsider.groups.add(td_group(elders))
    english(client, outsider)
    assert client.get(round_url("td_check_in_state", rnd)).status_code == 403
    assert client.post(round_url("td_check_in_close", rnd), {"absent": "rest"}).status_code == 403
    rnd.refresh_from_db()
    assert rnd.check_in_is_open


def test_closing_with_the_rest_absent_keeps_the_marks_posted_along(client, club) -> None:
    rnd = tonight(club)
    member_check_in(round=rnd, user=club.user)
    english(client, club.td)
    response = client.post(
        round_url("td_check_in_close", rnd),
        {**marks_posted(club, bram="club_duty"), "absent": "rest"},
    )
    assert said(response) == [
        "Check-in is closed; 2 players who did not check in are marked absent without notice."
    ]
    kinds = dict(RoundEntry.objects.filter(round=rnd).values_list("participant_id", "kind"))
    assert kinds == {
        club.others[0].pk: "club_duty",
        club.others[1].pk: "absent_no_notice",
        club.others[2].pk: "absent_no_notice",
    }
    page = client.get(round_url("td_attendance", rnd)).content.decode()
    assert "Check-in is closed; 1 player checked in." in page
    assert 'id="check-in-open"' in page and "<svg" not in page
    # a second "close" (the back button, a double tap) is refused and changes nothing
    again = client.post(round_url("td_check_in_close", rnd), {"absent": "rest"})
    assert said(again) == ["Check-in is not open."]


def test_the_td_overrides_a_check_in_with_the_usual_form(client, club) -> None:
    rnd = tonight(club)
    member_check_in(round=rnd, user=club.user)
    english(client, club.td)
    client.post(round_url("td_attendance", rnd), marks_posted(club, anna="absent_notice"))
    assert RoundEntry.objects.get(round=rnd).participant == club.me
    state = client.get(round_url("td_check_in_state", rnd)).json()
    assert state["marks"][str(club.me.pk)] == "absent_notice" and state["count"] == 1


def test_no_check_in_on_a_published_round(client, club) -> None:
    rnd = tonight(club)
    evening.pairing_propose(round=rnd, user=club.td)
    evening.round_publish(round=rnd, user=club.td)
    english(client, club.td)
    page = client.get(round_url("td_attendance", rnd)).content.decode()
    assert 'id="check-in"' not in page


# --- the member ------------------------------------------------------------------------------


def test_not_logged_in_the_link_goes_through_the_login_and_back(client, club) -> None:
    rnd = tonight(club)
    response = client.get(link(rnd))
    assert response.status_code == 302
    assert response["Location"] == f"/login/?next=/in/{rnd.check_in_code}/"
    response = client.post(
        response["Location"], {"username": "anna", "password": "anna-pass-12345"}
    )
    assert response.status_code == 302 and response["Location"] == link(rnd)
    assert client.post(link(rnd)).status_code == 302
    assert CheckIn.objects.get().participant == club.me


def test_the_member_taps_i_am_here_once_twice_harmless(client, club) -> None:
    rnd = tonight(club)
    english(client, club.user)
    page = client.get(link(rnd)).content.decode()
    assert "I am here</button>" in page and "Anna de Vries" in page
    first = client.post(link(rnd))
    assert first.status_code == 302 and first["Location"] == link(rnd)
    assert said(first)[0].startswith("You are checked in for round 1 at ")
    second = client.post(link(rnd))
    assert said(second)[-1].startswith("You had already checked in at ")
    assert CheckIn.objects.count() == 1
    page = client.get(link(rnd)).content.decode()
    assert "You checked in at" in page and "I am here</button>" not in page


def test_the_code_is_read_in_any_case_and_at_the_clubs_address(client, club) -> None:
    rnd = tonight(club)
    english(client, club.user)
    lower = reverse("competition:check_in", kwargs={"code": rnd.check_in_code.lower()})
    assert client.get(lower).status_code == 200
    at_club = club_url(
        club.season.club.slug, "competition:check_in", kwargs={"code": rnd.check_in_code}
    )
    assert client.get(at_club).status_code == 200
    ClubFactory(name="Elders", slug="elders")
    elsewhere = club_url("elders", "competition:check_in", kwargs={"code": rnd.check_in_code})
    assert client.get(elsewhere).status_code == 404
    assert client.post(elsewhere).status_code == 404
    assert client.get(reverse("competition:check_in", kwargs={"code": "ZZZZZZ"})).status_code == 404
    assert CheckIn.objects.count() == 0


def test_the_window_closed_says_so_and_changes_nothing(client, club) -> None:
    rnd = tonight(club, open_it=False)
    rnd = check_in_open(round=rnd, user=club.td)
    Round.objects.filter(pk=rnd.pk).update(check_in_closed_at=rnd.check_in_opened_at)
    english(client, club.user)
    page = client.get(link(rnd)).content.decode()
    assert "Check-in is closed; tell the tournament director you are here." in page
    assert "I am here</button>" not in page
    response = client.post(link(rnd))
    assert said(response) == ["Check-in is closed; tell the tournament director you are here."]
    assert CheckIn.objects.count() == 0


def test_once_paired_the_link_says_check_in_is_over(client, club) -> None:
    rnd = tonight(club)
    evening.pairing_propose(round=rnd, user=club.td)
    evening.round_publish(round=rnd, user=club.td)
    english(client, club.user)
    response = client.post(link(rnd))
    assert said(response) == ["The pairing of round 1 is published; check-in is over."]
    assert CheckIn.objects.count() == 0


def test_a_member_of_another_season_or_none_is_refused(client, club) -> None:
    rnd = tonight(club)
    second = member_club(slug="tweede")
    english(client, second.user)
    page = client.get(link(rnd))
    assert page.status_code == 403
    assert "You do not play in this season." in page.content.decode()
    assert client.post(link(rnd)).status_code == 403
    nobody = User.objects.create_user("geen-lid", password="geen-pass-12345")
    english(client, nobody)
    assert client.get(link(rnd)).status_code == 403
    assert client.post(link(rnd)).status_code == 403
    elders = ClubFactory(name="Elders", slug="elders")
    other = User.objects.create_user("elders-lid", password="elders-pass-123")
    MemberFactory(club=elders, user=other)
    english(client, other)
    assert client.post(link(rnd)).status_code == 403
    assert CheckIn.objects.count() == 0


def test_my_page_offers_i_am_here_and_comes_back(client, club) -> None:
    rnd = tonight(club)
    english(client, club.user)
    my_page = club_reverse("competition:my_page")
    page = client.get(my_page).content.decode()
    assert f'action="{link(rnd)}"' in page and 'name="next" value="me"' in page
    response = client.post(link(rnd), {"next": "me"})
    assert response["Location"] == f"{my_page}#tonight-{club.season.pk}"
    page = client.get(my_page).content.decode()
    assert "You checked in at" in page and "I am here</button>" not in page


def test_my_page_without_check_in_shows_no_button(client, club) -> None:
    tonight(club, open_it=False)
    english(client, club.user)
    page = client.get(club_reverse("competition:my_page")).content.decode()
    assert "I am here" not in page and "my-check-in" not in page


def test_the_check_in_page_shows_no_private_data(client, club) -> None:
    """Only the member's own name: nobody else's name, note, e-mail address or check-in."""
    rnd = tonight(club)
    bram = club.others[0]
    bram.member.email = "bram.geheim@example.org"
    bram.member.save()
    evening.attendance_record(
        round=rnd, marks={bram.pk: RoundEntry.Kind.ABSENT_NOTICE}, user=club.td
    )
    RoundEntry.objects.filter(round=rnd, participant=bram).update(note="geheime notitie")
    club.me.member.email = "anna.prive@example.org"
    club.me.member.save()
    other_user = User.objects.create_user("cor", password="cor-pass-123456")
    club.others[1].member.user = other_user
    club.others[1].member.save()
    member_check_in(round=rnd, user=other_user)
    english(client, club.user)
    for response in (client.get(link(rnd)), client.get(club_reverse("competition:my_page"))):
        page = response.content.decode()
        for secret in ("Bram Jansen", "bram.geheim", "geheime notitie", "Cor Visser"):
            assert secret not in page, secret
    page = client.get(link(rnd)).content.decode()
    assert "anna.prive" not in page  # not even his own address
