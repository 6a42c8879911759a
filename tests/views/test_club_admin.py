"""The club admin's page (issue 16): the club's tournament directors and admins, given and taken
back by a club admin only, with clear refusals that change nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages

from competition.clubs import club_url
from competition.models import Club, Member
from competition.permissions import admin_group, is_club_admin, is_td, td_group
from tests.factories import ClubFactory, MemberFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_and_admin(client):
    club = ClubFactory()
    admin = User.objects.create_user("voorzitter", password="x-pass-12345")
    admin.groups.add(admin_group(club))
    client.force_login(admin)
    client.cookies["django_language"] = "en"
    return club, admin


def _url(club: Club) -> str:
    return club_url(club.slug, "competition:club_admin")


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_a_club_admin_makes_a_member_a_td_and_takes_it_back(client, club_and_admin) -> None:
    club, _admin = club_and_admin
    account = User.objects.create_user("anna", password="x-pass-12345")
    anna = MemberFactory(club=club, name="Anna Aalders", user=account)
    page = client.get(_url(club)).content.decode()
    assert f'<option value="{anna.pk}">Anna Aalders</option>' in page
    response = client.post(_url(club), {"action": "grant", "role": "td", "member": anna.pk})
    assert response.status_code == 302
    assert _messages(response) == ["Anna Aalders has the role now."]
    club.refresh_from_db()  # the TD group was made by the grant
    assert is_td(account, club) and not is_club_admin(account, club)
    page = client.get(_url(club)).content.decode()
    assert "Anna Aalders <span" in page  # listed among the TDs
    response = client.post(_url(club), {"action": "revoke", "role": "td", "account": account.pk})
    assert _messages(response) == ["The role is taken back."]
    assert not is_td(User.objects.get(pk=account.pk), club)


def test_a_member_without_an_account_gets_no_role(client, club_and_admin) -> None:
    club, _admin = club_and_admin
    bert = MemberFactory(club=club, name="Bert Bos")
    response = client.post(_url(club), {"action": "grant", "role": "td", "member": bert.pk})
    assert _messages(response) == [
        "Bert Bos has no account yet: invite him from a season's members page first."
    ]
    assert not td_group(club).user_set.exists()


def test_a_member_of_another_club_is_not_found(client, club_and_admin) -> None:
    club, _admin = club_and_admin
    other = Club.objects.create(name="Het Paard", slug="het-paard")
    stranger = MemberFactory(
        club=other, name="Sietse", user=User.objects.create_user("sietse", password="x-12345678")
    )
    response = client.post(_url(club), {"action": "grant", "role": "admin", "member": stranger.pk})
    assert response.status_code == 404
    assert not is_club_admin(stranger.user, club)


def test_the_last_admin_stays(client, club_and_admin) -> None:
    club, admin = club_and_admin
    response = client.post(_url(club), {"action": "revoke", "role": "admin", "account": admin.pk})
    assert _messages(response) == ["The club needs at least one admin: name another one first."]
    assert is_club_admin(User.objects.get(pk=admin.pk), club)


def test_only_the_clubs_admins_open_the_page(client) -> None:
    club = ClubFactory()
    url = _url(club)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    td = User.objects.create_user("td", password="x-pass-12345")
    td.groups.add(td_group(club))
    client.force_login(td)
    assert client.get(url).status_code == 403
    before = set(Member.objects.values_list("pk", flat=True))
    assert client.post(url, {"action": "grant", "role": "admin", "member": 1}).status_code == 403
    assert set(Member.objects.values_list("pk", flat=True)) == before
    assert not is_club_admin(User.objects.get(pk=td.pk), club)


def test_a_form_with_no_member_or_a_word_changes_nothing(client, club_and_admin) -> None:
    club, _admin = club_and_admin
    for data in (
        {"action": "grant", "role": "td", "member": "abc"},
        {"action": "grant", "role": "td"},
    ):
        assert client.post(_url(club), data).status_code == 404
    response = client.post(_url(club), {"action": "grant", "role": "boss", "member": "1"})
    assert _messages(response) == ["Unknown role."]
    assert not td_group(club).user_set.exists()


def test_a_double_tap_on_add_or_take_back_changes_nothing_more(client, club_and_admin) -> None:
    """The same form sent twice (a double tap, or the back button and send again)."""
    club, _admin = club_and_admin
    account = User.objects.create_user("cor", password="x-pass-12345")
    cor = MemberFactory(club=club, name="Cor Cools", user=account)
    grant = {"action": "grant", "role": "td", "member": cor.pk}
    for _tap in range(2):
        assert client.post(_url(club), grant).status_code == 302
    assert list(td_group(club).user_set.values_list("username", flat=True)) == ["cor"]
    revoke = {"action": "revoke", "role": "td", "account": account.pk}
    for _tap in range(2):
        assert client.post(_url(club), revoke).status_code == 302
    assert not td_group(club).user_set.exists()


def test_a_club_admin_sets_when_the_club_evenings_start(client, club_and_admin) -> None:
    import datetime

    club, _admin = club_and_admin
    assert club.evening_start == datetime.time(20, 0)  # the default
    assert 'name="evening_start" value="20:00"' in client.get(_url(club)).content.decode()
    data = {"action": "evening_start", "evening_start": "19:45"}
    response = client.post(_url(club), data, follow=True)
    assert _messages(response) == ["The club evenings start at 19:45."]
    club.refresh_from_db()
    assert club.evening_start == datetime.time(19, 45)
    for wrong in ("", "25:00", "acht uur"):
        data = {"action": "evening_start", "evening_start": wrong}
        response = client.post(_url(club), data, follow=True)
        assert _messages(response) == ["Give the time the club evenings start, such as 20:00."]
        club.refresh_from_db()
        assert club.evening_start == datetime.time(19, 45)


@pytest.mark.parametrize("change", ["grant", "revoke"])
def test_the_role_services_refuse_anyone_but_a_club_admin_in_the_readers_words(change) -> None:
    from django.utils import translation

    from competition.services.clubs import ClubRole, club_role_grant, club_role_revoke
    from competition.services.errors import ServiceError

    club = ClubFactory()
    member = MemberFactory(club=club, user=User.objects.create_user("lid-met-account"))
    stranger = User.objects.create_user("buurman", password="x-pass-12345")
    with (
        translation.override("nl"),
        pytest.raises(
            ServiceError, match=r"^Alleen de beheerders van de club kunnen haar wedstrijdleiders"
        ),
    ):
        if change == "grant":
            club_role_grant(club=club, member=member, role=ClubRole.TD, user=stranger)
        else:
            club_role_revoke(club=club, account=member.user, role=ClubRole.TD, user=stranger)
    assert not is_td(member.user, club)
