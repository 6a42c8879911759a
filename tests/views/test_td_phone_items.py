"""Issue 10, the TD's phone: attendance kept with a late-comer, the attendance list, confirmations,
the correction form's choices, drafts kept off the public round page, earlier rounds reachable,
where a TD lands after logging in, HEAD requests."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse

from competition.models import Game, Participant, Round, RoundEntry, Season
from tests.addresses import club_reverse
from tests.views.td_evening import SLUG, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned(td) -> Round:
    """Round 11 of the demo season, nobody marked yet."""
    td.post(club_reverse("competition:td_round_new", args=[SLUG]), {"date": "2026-11-19"})
    return Round.objects.get(season__slug=SLUG, number=11)


@pytest.fixture
def draft(td, planned) -> Round:
    marks = {f"p{p.id}": "present" for p in Participant.objects.filter(season=planned.season)}
    td.post(url("td_attendance"), {**marks, "then": "pair"})
    return planned


def game_ids(rnd: Round) -> set[int]:
    return set(Game.objects.filter(round=rnd).values_list("id", flat=True))


# --- 1. the late-comer keeps the attendance marked on the page ---------------------------------


def test_latecomer_keeps_the_unsaved_attendance(td, planned) -> None:
    players = list(Participant.objects.filter(season=planned.season).order_by("start_rank"))
    marks = {f"p{p.id}": "present" for p in players}
    absent = players[:3]
    for p in absent:
        marks[f"p{p.id}"] = "absent_notice"
    response = td.post(url("td_latecomer"), {**marks, "name": "Lena Laatkomer"})
    assert response.status_code == 302
    kinds = dict(
        RoundEntry.objects.filter(round=planned).values_list("participant__member__name", "kind")
    )
    assert {kinds.get(p.member.name) for p in absent} == {"absent_notice"}
    assert "Lena Laatkomer" not in kinds  # the late-comer is present
    assert Participant.objects.filter(season=planned.season, member__name="Lena Laatkomer")


def test_attendance_page_posts_the_latecomer_with_the_marks(td, planned) -> None:
    page = td.get(url("td_attendance")).content.decode()
    form = page[page.index('id="attendance-form"') :]
    form = form[: form.index("</form>")]
    # The late-comer's fields and button sit in the attendance form: one post carries both.
    assert 'name="name"' in form and f'formaction="{url("td_latecomer")}"' in form


# --- 3. the attendance list --------------------------------------------------------------------


def test_attendance_list_is_alphabetical_with_start_numbers_and_a_filter(td, planned) -> None:
    page = td.get(url("td_attendance")).content.decode()
    names = re.findall(r'data-name="([^"]*)"', page)
    participants = Participant.objects.filter(season=planned.season).select_related("member")
    # everyone taking part: the demo's withdrawn member is not on the list
    assert len(names) == participants.filter(withdrawn_from_round__isnull=True).count() == 16
    assert names == sorted(names, key=str.casefold)
    first = min(participants, key=lambda p: p.member.name.casefold())
    assert f'<span class="start-number">{first.start_rank}</span>' in page
    assert 'id="attendance-filter"' in page and static("js/attendance.js") in page


# --- 4. confirmations --------------------------------------------------------------------------


def test_start_over_needs_confirmation(td, draft) -> None:
    before = game_ids(draft)
    response = td.post(url("td_pairing_propose"))
    assert response["Location"] == url("td_pairing")
    assert game_ids(draft) == before  # nothing re-paired without the confirmation
    td.post(url("td_pairing_propose"), {"confirm": "on"})
    assert game_ids(draft) != before
    # Re-running on the rest keeps the fixed boards and needs no confirmation.
    before = game_ids(draft)
    td.post(url("td_pairing_propose"), {"keep_fixed": "on"})
    assert game_ids(draft) != before


def test_first_pairing_needs_no_confirmation(td, planned) -> None:
    td.post(url("td_pairing_propose"))
    assert game_ids(planned)


def test_withdraw_needs_confirmation(td, draft) -> None:
    td.post(url("td_round_publish"))
    response = td.post(url("td_round_unpublish"))
    assert response["Location"] == url("td_results")
    draft.refresh_from_db()
    assert draft.is_published
    td.post(url("td_round_unpublish"), {"confirm": "on"})
    draft.refresh_from_db()
    assert draft.is_planned


def test_pages_offer_the_confirmations(td, draft) -> None:
    page = td.get(url("td_pairing")).content.decode()
    assert 'name="confirm" id="start-over-confirm" required' in page
    td.post(url("td_round_publish"))
    page = td.get(url("td_results")).content.decode()
    assert 'name="confirm" id="withdraw-confirm" required' in page
    assert "data-confirm-change" in page and static("js/confirm.js") in page


# --- 5. the correction form offers only what it accepts ----------------------------------------


def test_correction_form_does_not_offer_not_yet_played(td) -> None:
    game = Game.objects.filter(round__season__slug=SLUG, round__number=10).first()
    page = td.get(url("td_result_correct", 10, game_id=game.id)).content.decode()
    assert "not yet played" not in page
    assert 'value=""' not in page.split('name="result"', 1)[0][-200:]
    assert page.count('name="result"') == 6


# --- 6. a draft pairing stays off the public round page ----------------------------------------


def test_public_round_page_hides_a_draft(client, td, draft) -> None:
    games = Game.objects.filter(round=draft).select_related("white__member")
    assert games
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(club_reverse("competition:round", args=[SLUG, 11])).content.decode()
    assert "The pairing is not published yet." in page
    for game in games:
        assert game.white.member.name not in page


# --- 7. earlier rounds reachable ---------------------------------------------------------------


def test_td_home_lists_every_round_of_the_season(td) -> None:
    page = td.get(club_reverse("competition:td_home")).content.decode()
    rounds = Round.objects.filter(
        season__status=Season.Status.RUNNING, season__club__slug="sc-de-toren"
    )
    assert rounds.count() > 10  # the demo's running seasons: a loop over nothing proves nothing
    for rnd in rounds:
        target = club_reverse(
            "competition:td_round",
            kwargs={"season_slug": rnd.season.slug, "round_number": rnd.number},
        )
        assert f'href="{target}"' in page


def test_td_sees_a_correction_link_on_the_public_round_page(client, td, member_user) -> None:
    public = club_reverse("competition:round", args=[SLUG, 10])
    assert f'href="{url("td_round_summary", 10)}"' in td.get(public).content.decode()
    client.logout()
    assert url("td_round_summary", 10) not in client.get(public).content.decode()
    client.force_login(member_user)
    assert url("td_round_summary", 10) not in client.get(public).content.decode()


# --- 8. where a TD lands after logging in ------------------------------------------------------


def test_td_lands_on_the_td_home_after_login(client, demo_club, member_user) -> None:
    login = reverse("login")
    response = client.post(login, {"username": "wedstrijdleider", "password": "schaak-demo-2026"})
    assert client.get(response["Location"])["Location"] == club_reverse("competition:td_home")
    client.logout()
    response = client.post(login, {"username": "member", "password": "member-pass-123"})
    assert client.get(response["Location"])["Location"] == club_reverse("competition:home")
    client.logout()
    # A member with his own account lands on his page.
    from competition.models import Member

    Member.objects.filter(club__seasons__slug=SLUG).order_by("pk").update(user=None)
    Member.objects.filter(
        pk=Member.objects.filter(club__seasons__slug=SLUG).order_by("pk")[0].pk
    ).update(user=member_user)
    response = client.post(login, {"username": "member", "password": "member-pass-123"})
    assert client.get(response["Location"])["Location"] == club_reverse("competition:my_page")
    client.logout()
    standings = club_reverse("competition:standings", args=[SLUG])
    response = client.post(
        login,
        {"username": "wedstrijdleider", "password": "schaak-demo-2026", "next": standings},
    )
    assert response["Location"] == standings  # ?next= still wins


def test_menu_login_link_from_the_home_page_has_no_next(client, demo_club) -> None:
    page = client.get(club_reverse("competition:home")).content.decode()
    assert f'href="{reverse("login")}"' in page


# --- 10. HEAD answers like GET -----------------------------------------------------------------


def test_head_answers_like_get(client, td) -> None:
    participant = Participant.objects.filter(season__slug=SLUG).first()
    td_pages = [
        club_reverse("competition:td_home"),
        url("td_round", 10),
        url("td_round_summary", 10),
        url("td_results", 10),
        url("td_pairing", 10),
        url("td_attendance", 10),
        club_reverse("competition:files_home"),
    ]
    public_pages = [
        club_reverse("competition:home"),
        club_reverse("competition:language") + "?language=nl&next=/",
        reverse("login"),
        club_reverse("competition:standings", args=[SLUG]),
        club_reverse("competition:round_latest", args=[SLUG]),
        club_reverse("competition:round", args=[SLUG, 10]),
        club_reverse("competition:participant", args=[SLUG, participant.id]),
        club_reverse("competition:crosstable", args=[SLUG]),
        club_reverse("competition:how_it_works", args=[SLUG]),
        club_reverse("competition:systems", args=[SLUG]),
    ]
    for page in td_pages:
        get, head = td.get(page), td.head(page)
        assert get.status_code in (200, 302), page
        assert (head.status_code, head.get("Location")) == (get.status_code, get.get("Location"))
        assert head.content == b"", page
    client.logout()
    for page in public_pages:
        get, head = client.get(page), client.head(page)
        assert get.status_code in (200, 302), page
        assert head.status_code == get.status_code, page


# --- 9. headings the checks asked for ----------------------------------------------------------


def test_crosstable_and_systems_pages_have_an_h2(client, demo_club) -> None:
    for name in ("crosstable", "systems"):
        page = client.get(club_reverse(f"competition:{name}", args=[SLUG])).content.decode()
        assert "<h2" in page, name
