"""Member accounts on the pages: the TD's members page (invite, link, unlink), the invitation
link, password reset, "download my data" and the admin's anonymise action."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from competition.models import Club, Invitation, Member, Participant, Season
from competition.permissions import td_group
from competition.services import accounts
from tests.addresses import club_reverse
from tests.tasks import queued, run_worker

pytestmark = pytest.mark.django_db

SLUG = "interne-2026-2027"


def members_url(slug: str = SLUG) -> str:
    return club_reverse("competition:td_members", kwargs={"season_slug": slug})


def action_url(action: str, member: Member, slug: str = SLUG) -> str:
    return club_reverse(
        f"competition:td_member_{action}", kwargs={"season_slug": slug, "member_id": member.pk}
    )


def english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def player(demo_club) -> Member:
    """A member who plays in the demo's season and has no account."""
    return (
        Member.objects.filter(participations__season__slug=SLUG, user__isnull=True)
        .order_by("pk")
        .first()
    )


@pytest.fixture
def demo_td(demo_club) -> User:
    return User.objects.get(username="wedstrijdleider")


def _link_in(text: str) -> str:
    match = re.search(r"https?://[^\s\"<]+/account/invite/[A-Za-z0-9_-]+/", text)
    assert match, text
    return match.group(0)


def _path(link: str) -> str:
    return "/" + link.split("/", 3)[3]


def _state(member: Member) -> tuple:
    member.refresh_from_db()
    return (
        member.user_id,
        member.email,
        Invitation.objects.filter(member=member).count(),
        User.objects.count(),
    )


# --- the TD's members page -----------------------------------------------------------------------


def test_members_page_shows_every_participant_and_his_account_status(td, player) -> None:
    season = Season.objects.get(slug=SLUG)
    linked = Member.objects.filter(participations__season=season).exclude(pk=player.pk).first()
    linked.user = User.objects.create_user("linked-player")
    linked.save()
    invitation, _token = accounts.invitation_create(
        member=player, email="", user=User.objects.get(username="wedstrijdleider")
    )
    response = td.get(members_url())
    assert response.status_code == 200
    html = response.content.decode()
    for participant in Participant.objects.filter(season=season).select_related("member"):
        assert participant.member.name in html
    assert "has account: linked-player" in html
    local = timezone.localtime(invitation.expires_at)
    assert f"valid until {local.day} {local:%b} {local.year}" in html  # 10 Dec 2026
    assert "no account" in html
    assert action_url("invite", player) in html and action_url("unlink", linked) in html


def test_the_td_home_links_to_the_members_page(td) -> None:
    assert members_url() in td.get(club_reverse("competition:td_home")).content.decode()


def test_invite_with_an_address_mails_the_link_and_shows_it(
    td, player, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = td.post(action_url("invite", player), {"email": "speler@example.org"})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    html = response.content.decode()
    link = _link_in(html)
    assert "The link is being e-mailed to speler@example.org." in html
    assert mail.outbox == []  # queued: a worker sends it, never the TD's request
    run_worker()
    (message,) = mail.outbox
    assert message.to == ["speler@example.org"]
    assert link in message.body
    assert player.club.name in message.subject
    invitation = Invitation.objects.get(member=player)
    assert invitation.email == "speler@example.org"
    assert link.rstrip("/").rsplit("/", 1)[1] not in invitation.token_hash
    # The link works: the member's page to make his account.
    landing = english(Client()).get(_path(link))
    assert landing.status_code == 200
    assert "Make your account" in landing.content.decode()


def test_invite_without_an_address_only_shows_the_link(td, player) -> None:
    response = td.post(action_url("invite", player), {"email": ""})
    assert response.status_code == 200
    assert _link_in(response.content.decode())
    assert mail.outbox == []
    assert Invitation.objects.filter(member=player, email="").count() == 1


def test_a_refused_invitation_says_why(td, player) -> None:
    player.user = User.objects.create_user("already")
    player.save()
    response = td.post(action_url("invite", player), {"email": ""}, follow=True)
    assert "already has an account (already)" in response.content.decode()
    assert not Invitation.objects.filter(member=player).exists()


def test_no_td_links_an_account_by_its_username(td, player) -> None:
    """Linking by username let any club's TD read any account's e-mail address (it was copied
    into the member) and learn which usernames exist: the page offers no such form, and the
    address it posted to is no page."""
    User.objects.create_user("bestaand", email="prive@example.org")
    html = td.get(members_url()).content.decode()
    assert 'name="username"' not in html
    link = members_url() + f"{player.pk}/link/"
    assert td.post(link, {"username": "bestaand"}).status_code == 404
    player.refresh_from_db()
    assert player.user is None and player.email == ""


def test_unlink_on_the_members_page(td, player) -> None:
    account = User.objects.create_user("bestaand", email="b@example.org")
    Member.objects.filter(pk=player.pk).update(user=account, email="b@example.org")
    response = td.post(action_url("unlink", player), follow=True)
    assert f"{player.name} has no account any more." in response.content.decode()
    player.refresh_from_db()
    assert player.user is None and player.email == ""


def test_another_clubs_td_is_refused_and_nothing_changes(client, player) -> None:
    elders = Club.objects.create(name="Schaakclub Elders", slug="elders")
    outsider = User.objects.create_user("elders-td", password="elders-pass-123")
    outsider.groups.add(td_group(elders))
    client.force_login(outsider)
    before = _state(player)
    assert client.get(members_url()).status_code == 403
    for action, data in (("invite", {"email": "x@example.org"}), ("unlink", {})):
        assert client.post(action_url(action, player), data).status_code == 403, action
    assert _state(player) == before
    assert mail.outbox == []


def test_a_member_account_has_no_td_rights(client, player, member_user) -> None:
    player.user = member_user
    player.save()
    client.force_login(member_user)
    before = _state(player)
    assert client.get(members_url()).status_code == 403
    assert client.post(action_url("unlink", player)).status_code == 403
    assert client.post(action_url("invite", player), {"email": ""}).status_code == 403
    assert _state(player) == before


def test_anonymous_users_are_sent_to_login(client, player) -> None:
    response = client.get(members_url())
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    response = client.post(action_url("invite", player), {"email": ""})
    assert response.status_code == 302
    assert not Invitation.objects.exists()


def test_a_member_of_another_season_is_no_page(td, player) -> None:
    stranger = Member.objects.create(club=player.club, name="Niet Ingeschreven")
    assert td.post(action_url("invite", stranger), {"email": ""}).status_code == 404
    assert not Invitation.objects.filter(member=stranger).exists()


# --- the invitation link -------------------------------------------------------------------------


def _invite(member: Member, email: str = "") -> str:
    _invitation, token = accounts.invitation_create(
        member=member, email=email, user=User.objects.get(username="wedstrijdleider")
    )
    return club_reverse("competition:invitation_accept", kwargs={"token": token})


def _accept(client: Client, url: str, password: str = "zwarte-loper-42", **extra):
    data = {"username": "nieuwlid", "password1": password, "password2": password, **extra}
    return client.post(url, data)


def test_accepting_makes_the_account_and_logs_the_member_in(client, player) -> None:
    url = _invite(player, "nieuw@example.org")
    response = _accept(english(client), url)
    assert response.status_code == 302
    try:
        expected = club_reverse("competition:my_page")
    except NoReverseMatch:
        expected = club_reverse("competition:home")
    assert response["Location"] == expected
    user = User.objects.get(username="nieuwlid")
    player.refresh_from_db()
    assert player.user == user and user.email == "nieuw@example.org"
    assert client.session["_auth_user_id"] == str(user.pk)
    assert not user.is_staff and not user.groups.exists()

    # The same link a second time: used, says so, and makes nothing.
    again = _accept(Client(), url, username="tweede")
    assert again.status_code == 403
    assert "already been used" in again.content.decode() or "al gebruikt" in again.content.decode()
    assert not User.objects.filter(username="tweede").exists()


def test_a_logged_in_owner_links_his_own_account_with_the_link(client, player) -> None:
    """A TD who also plays has an account: he opens his invitation logged in and links it
    himself (his consent); the member gets the invitation's address, not the account's."""
    account = User.objects.create_user("bestaand", email="prive@example.org")
    url = _invite(player, "club@example.org")
    english(client).force_login(account)
    page = client.get(url).content.decode()
    assert "Link to my account bestaand" in page
    response = client.post(url, {"action": "link"})
    assert response.status_code == 302
    assert response["Location"] == club_reverse("competition:my_page")
    player.refresh_from_db()
    assert player.user == account and player.email == "club@example.org"
    assert Invitation.objects.get(member=player).used_at is not None
    account.refresh_from_db()
    assert account.email == "prive@example.org"
    assert _accept(client, url).status_code == 403  # used up


def test_an_anonymous_visitor_cannot_link_an_account(client, player) -> None:
    url = _invite(player)
    before = _state(player)
    response = client.post(url, {"action": "link"})
    assert response.status_code == 200  # the page again, to make an account
    assert _state(player) == before


def test_a_weak_password_shows_the_error_and_changes_nothing(client, player) -> None:
    url = _invite(player, "nieuw@example.org")
    before = _state(player)
    response = _accept(english(client), url, password="12345678")
    assert response.status_code == 200
    html = response.content.decode()
    assert "This password is too common." in html
    assert "This password is entirely numeric." in html
    assert _state(player) == before
    assert Invitation.objects.get(member=player).used_at is None
    assert "_auth_user_id" not in client.session


def test_different_passwords_are_refused(client, player) -> None:
    url = _invite(player)
    response = english(client).post(
        url, {"username": "nieuwlid", "password1": "zwarte-loper-42", "password2": "zwart"}
    )
    assert response.status_code == 200
    assert "The two passwords differ." in response.content.decode()
    assert not User.objects.filter(username="nieuwlid").exists()


def test_unknown_and_expired_links_say_so(client, player) -> None:
    english(client)
    unknown = club_reverse("competition:invitation_accept", kwargs={"token": "nonsense"})
    response = client.get(unknown)
    assert response.status_code == 403
    assert "This invitation link is unknown." in response.content.decode()
    assert _accept(client, unknown).status_code == 403

    url = _invite(player)
    Invitation.objects.filter(member=player).update(
        expires_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    response = client.get(url)
    assert response.status_code == 403
    assert "This invitation link expired on" in response.content.decode()
    assert _accept(client, url).status_code == 403
    assert not User.objects.filter(username="nieuwlid").exists()


def test_the_refusal_reads_dutch_by_default(client) -> None:
    response = client.get(
        club_reverse("competition:invitation_accept", kwargs={"token": "nonsense"})
    )
    assert "Deze uitnodigingslink is onbekend." in response.content.decode()


# --- password reset ------------------------------------------------------------------------------


def test_the_login_page_links_to_password_reset(client) -> None:
    html = english(client).get(reverse("login")).content.decode()
    assert reverse("password_reset") in html and "Forgot your password?" in html


def test_password_reset_mails_a_working_link(
    client, demo_club, django_capture_on_commit_callbacks
) -> None:
    user = User.objects.get(username="lid")  # the demo member, lid@example.org
    english(client)
    assert client.get(reverse("password_reset")).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("password_reset"), {"email": "lid@example.org"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []
    run_worker()
    (message,) = mail.outbox
    assert message.to == ["lid@example.org"]
    link = re.search(r"https?://\S+/account/password-reset/\S+/\S+/", message.body).group(0)
    form = client.get(_path(link), follow=True)
    assert form.status_code == 200 and "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "nieuw-wachtwoord-7", "new_password2": "nieuw-wachtwoord-7"},
    )
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password("nieuw-wachtwoord-7")


def _reset_request(client, email: str, on_commit):
    """The password-reset post for ``email`` (its transaction's callbacks run, as after a
    commit): its answer, and the SQL statements it ran (the values left out: the same
    statements whatever the address)."""
    with CaptureQueriesContext(connection) as queries, on_commit(execute=True):
        response = client.post(reverse("password_reset"), {"email": email})
    return response, [re.sub(r"'[^']*'|\b\d+\b", "?", q["sql"]) for q in queries]


def test_password_reset_answers_alike_for_a_known_and_an_unknown_address(
    client, demo_club, django_capture_on_commit_callbacks
) -> None:
    english(client)
    client.get(reverse("password_reset"))
    DBTaskResult.objects.all().delete()
    known, known_sql = _reset_request(client, "lid@example.org", django_capture_on_commit_callbacks)
    unknown, unknown_sql = _reset_request(
        client, "niemand@example.org", django_capture_on_commit_callbacks
    )
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert known.content == unknown.content
    # The same code path: the same statements (one queued task each, no account looked up),
    # and no mail sent inside either request.
    assert known_sql == unknown_sql
    assert not any("auth_user" in sql for sql in known_sql)
    assert mail.outbox == []
    tasks = queued("mail_password_reset")
    assert [t.args_kwargs["kwargs"]["email"] for t in tasks] == [
        "lid@example.org",
        "niemand@example.org",
    ]
    run_worker()
    assert [m.to for m in mail.outbox] == [["lid@example.org"]]  # the unknown one: no mail
    assert [t.return_value for t in DBTaskResult.objects.order_by("enqueued_at")] == [1, 0]


def test_a_mail_server_that_is_down_makes_the_mail_task_retry(
    client, demo_club, settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    from django.core.mail.backends.locmem import EmailBackend

    def refused(self, messages):
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr(EmailBackend, "send_messages", refused)
    settings.TASK_ATTEMPTS = 3
    DBTaskResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        response = english(client).post(reverse("password_reset"), {"email": "lid@example.org"})
    assert response.status_code == 302  # the member's request never sees the mail server
    run_worker()
    (failed,) = DBTaskResult.objects.filter(status="FAILED")
    assert "no mail server" in failed.traceback
    (retry,) = queued("mail_password_reset")
    assert retry.args_kwargs["kwargs"]["attempt"] == 2


# --- my data -------------------------------------------------------------------------------------


def test_my_data_is_his_own_as_a_download(client, player, member_user) -> None:
    player.user = member_user
    player.email = "eigen@example.org"
    player.save()
    other = Member.objects.exclude(pk=player.pk).filter(club=player.club).first()
    client.force_login(member_user)
    response = client.get(club_reverse("competition:my_data"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["account"]["username"] == "member"
    (mine,) = data["members"]
    assert mine["member"]["name"] == player.name
    assert mine["member"]["email"] == "eigen@example.org"
    assert mine["participations"] and mine["participations"][0]["rounds"]
    assert all(m["member"]["id"] != other.pk for m in data["members"])
    assert client.post(club_reverse("competition:my_data")).status_code == 405


def test_my_data_needs_a_login(client, demo_club) -> None:
    response = client.get(club_reverse("competition:my_data"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# --- admin ---------------------------------------------------------------------------------------


def test_the_admin_anonymises_a_member(client, player, superuser) -> None:
    client.force_login(superuser)
    name = player.name
    response = client.post(
        reverse("admin:competition_member_changelist"),
        {"action": "anonymise", "_selected_action": [player.pk]},
        follow=True,
    )
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.anonymised_at is not None
    assert player.name == f"Oud-lid {player.pk}"
    standings = client.get(club_reverse("competition:standings", kwargs={"slug": SLUG}))
    assert name not in standings.content.decode()
    assert f"Oud-lid {player.pk}" in standings.content.decode()


def test_invitations_are_read_only_in_the_admin(client, player, superuser) -> None:
    invitation, _token = accounts.invitation_create(member=player, email="", user=superuser)
    client.force_login(superuser)
    assert client.get(reverse("admin:competition_invitation_changelist")).status_code == 200
    change = client.get(reverse("admin:competition_invitation_change", args=[invitation.pk]))
    assert change.status_code == 200
    assert invitation.token_hash not in change.content.decode()
    assert client.get(reverse("admin:competition_invitation_add")).status_code == 403
