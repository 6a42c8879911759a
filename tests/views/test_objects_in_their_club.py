"""An object is found only under its own club's address: a member's profile, the member's
calendar feed and an invitation link of one club do not answer under another club's address
(with that club's header), and neither does any other page about one of its objects.

The walk takes every club page of the URL configuration that names an object (a season, a
round, a member, a token ...), fills it with the first demo club's objects and asks for it at
the second club's address as a superuser (who may open everything, so only the address can
refuse): it is never a page.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from competition.clubs import club_url
from competition.models import Member, Round, RoundEntry, Season
from competition.services import accounts
from competition.services.feeds import member_feed_token
from tests.views.test_permissions import demo_kwargs, project_patterns

pytestmark = [pytest.mark.django_db, pytest.mark.club_redirects_seen]

TOREN, PAARD = "sc-de-toren", "sv-het-paard"


@pytest.fixture
def toren(demo_club) -> dict[str, object]:
    """De Toren's objects: a member with a calendar address, an open invitation."""
    lid = Member.objects.get(user__username="lid")
    invited = (
        Member.objects.filter(club__slug=TOREN, user__isnull=True, anonymised_at__isnull=True)
        .order_by("pk")
        .first()
    )
    _invitation, token = accounts.invitation_create(
        member=invited, email="", user=User.objects.get(username="wedstrijdleider")
    )
    return {
        "member": lid,
        "feed_token": member_feed_token(member=lid),
        "invitation_token": token,
        "season": Season.objects.get(slug="interne-2026-2027"),
    }


def test_a_members_profile_is_found_under_his_own_club_only(client, toren) -> None:
    member = toren["member"]
    assert (
        client.get(club_url(TOREN, "competition:member_profile", args=[member.pk])).status_code
        == 200
    )
    response = client.get(club_url(PAARD, "competition:member_profile", args=[member.pk]))
    assert response.status_code == 404


def test_the_calendar_feed_answers_under_its_own_club_only(client, toren) -> None:
    kwargs = {"token": toren["feed_token"], "season_slug": toren["season"].slug}
    own = client.get(club_url(TOREN, "competition:member_feed", kwargs=kwargs))
    assert own.status_code == 200 and own["Content-Type"].startswith("text/calendar")
    assert client.get(club_url(PAARD, "competition:member_feed", kwargs=kwargs)).status_code == 404


def test_an_invitation_answers_at_the_sites_and_its_own_clubs_address_only(client, toren) -> None:
    kwargs = {"token": toren["invitation_token"]}
    assert client.get(reverse("competition:invitation_accept", kwargs=kwargs)).status_code == 200
    own = club_url(TOREN, "competition:invitation_accept", kwargs=kwargs)
    assert client.get(own).status_code == 200
    other = club_url(PAARD, "competition:invitation_accept", kwargs=kwargs)
    assert client.get(other).status_code == 404
    password = "zwarte-loper-42"
    data = {"username": "nieuwlid", "password1": password, "password2": password}
    assert client.post(other, data).status_code == 404
    assert not User.objects.filter(username="nieuwlid").exists()


# The object arguments of club pages: an address with one of them is about that object.
OBJECT_ARGUMENTS = {
    "slug",
    "season_slug",
    "group_slug",
    "member_id",
    "participant_id",
    "category_id",
    "number",
    "round_number",
    "game_id",
    "entry_id",
    "evening_id",
    "token",
}


def test_no_page_about_one_clubs_object_answers_under_another_clubs_address(client, toren) -> None:
    superuser = User.objects.create_superuser("eigenaar", "eigenaar@example.org", "x-pass-123")
    client.force_login(superuser)
    values = {**demo_kwargs(), "member_id": toren["member"].pk}
    latest = Round.objects.get(season=toren["season"], number=values["round_number"])
    values["entry_id"] = RoundEntry.objects.filter(round=latest).order_by("pk").first().pk
    # Pages whose object the first season lacks: another season that has it.
    rapid = {"slug": "rapidserie-2026-2027", "number": 1}  # the demo's rapid series
    fills = {
        "competition:member_feed": {"token": toren["feed_token"]},
        "competition:invitation_accept": {"token": toren["invitation_token"]},
        "competition:period": {"number": 1},
        "competition:series": rapid,
        "competition:evening": rapid,
    }
    own_failures = []
    walked = []
    for namespace, pattern in project_patterns():
        names = list(pattern.pattern.converters)
        if namespace != "competition:" or not OBJECT_ARGUMENTS & set(names):
            continue
        name = f"{namespace}{pattern.name}"
        filled = {**values, **fills.get(name, {})}
        kwargs = {key: filled[key] for key in names}
        own = client.get(club_url(TOREN, name, kwargs=kwargs))
        response = client.get(club_url(PAARD, name, kwargs=kwargs))
        if own.status_code == 405:  # a form's address: nothing to read anywhere
            assert response.status_code == 405, name
            continue
        if own.status_code not in (200, 302):
            own_failures.append((name, own.status_code))
            continue
        assert response.status_code == 404, (
            f"{name}: {club_url(PAARD, name, kwargs=kwargs)} answered {response.status_code}"
        )
        walked.append(name)
    assert not own_failures, "fill these pages with objects they have"
    assert {
        "competition:member_profile",
        "competition:member_feed",
        "competition:invitation_accept",
        "competition:standings",
        "competition:series",
        "competition:td_round",
    } <= set(walked)


def test_a_td_on_another_clubs_page_is_offered_only_what_he_may_open(client, demo_club) -> None:
    """The menu's "Club evening" leads to the TD pages of the club whose page it is: a TD of
    one club on the other club's pages gets no link that answers 403 (on the site's own pages,
    where no club is named, it leads to the choice of his clubs)."""
    from tests.golden.pages import Page, links

    client.force_login(User.objects.get(username="wedstrijdleider"))  # a TD of De Toren only
    for address, offered in (("/sv-het-paard/", False), ("/sc-de-toren/", True), ("/", True)):
        response = client.get(address)
        assert response.status_code == 200
        page = Page(200, response["Content-Type"], response.content)
        td_links = [target for target in links(address, page) if target.endswith("/td/")]
        assert bool(td_links) == offered, (address, td_links)
        for target in td_links:
            assert client.get(target, follow=True).status_code == 200, target
