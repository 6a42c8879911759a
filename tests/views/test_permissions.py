"""Every URL of the project refuses writes from anonymous users and from plain members.

The walk resolves the whole URL configuration (whatever the other modules add), fills each
URL's arguments from the demo data by argument name, and POSTs to it: anonymous users must be
sent to the login page (or get 403 / 405), a logged-in member without TD rights must get 403
(or 405 for a read-only page), and the database must be exactly as before.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterator

import pytest
from django.apps import apps
from django.conf import settings
from django.shortcuts import resolve_url
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from competition.clubs import club_url
from competition.models import Category, Game, Participant, Round, RoundEntry, Season
from tests.addresses import club_reverse

pytestmark = pytest.mark.django_db

# Django's own views have their own checks and are meant to answer anonymous POSTs: the login
# form, logout, the language switch (i18n/setlang) and the admin (its own staff login). They
# are not the project's write views. Every view under the admin site (simple-history's
# included) sits behind the admin's own staff check.
DJANGO_OWN_MODULES = ("django.contrib.", "django.views.")
ADMIN_NAMESPACE = "admin:"


def walk(
    resolvers: list[URLPattern | URLResolver], namespace: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    for entry in resolvers:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from walk(entry.url_patterns, inner)
        else:
            yield namespace, entry


def project_patterns() -> list[tuple[str, URLPattern]]:
    found = []
    for namespace, pattern in walk(get_resolver().url_patterns):
        module = getattr(pattern.callback, "__module__", "")
        if module.startswith(DJANGO_OWN_MODULES) or namespace.startswith(ADMIN_NAMESPACE):
            continue
        found.append((namespace, pattern))
    return found


def demo_kwargs() -> dict[str, object]:
    """A real value from the demo data for every URL argument name the project uses."""
    season = Season.objects.get(slug="interne-2026-2027")
    rnd = Round.objects.filter(season=season).order_by("-number").first()
    game = Game.objects.filter(round=rnd).order_by("board").first()
    entry = RoundEntry.objects.filter(round__season=season).order_by("pk").first()
    participant = Participant.objects.filter(season=season).order_by("pk").first()
    evening = season.evenings.order_by("date").last()
    return {
        "slug": season.slug,
        "season_slug": season.slug,
        "club_slug": season.club.slug,
        "club": season.club.slug,  # the API's names
        "season": season.slug,
        "group_slug": "wintergroepen-2027",  # the demo's competition in groups
        "number": rnd.number,
        "round_number": rnd.number,
        "game_id": game.id,
        "entry_id": entry.id,
        "participant_id": participant.id,
        "member_id": participant.member_id,
        "pk": season.pk,
        "token": "no-such-token",  # an invitation link (or private feed) that does not exist
        "evening_id": evening.pk,  # a club evening to come (the demo's calendar runs to May)
        "category_id": Category.objects.filter(season=season).order_by("order").first().pk,
        "code": "NOSUCH",  # a check-in code that does not exist
        "report_id": 1,  # a player's result report: the demo has none, so one that is not there
    }


def database_fingerprint() -> str:
    """A hash over every row of the project's tables (users and groups included)."""
    digest = hashlib.sha256()
    for model in apps.get_models():
        if model._meta.app_label not in {"competition", "auth"}:
            continue
        digest.update(model._meta.label.encode())
        for row in model.objects.order_by("pk").values_list():
            digest.update(repr(row).encode())
    return digest.hexdigest()


@pytest.fixture
def demo(demo_club):
    return None


def urls_to_check() -> list[tuple[str, str]]:
    values = demo_kwargs()
    urls = []
    for namespace, pattern in project_patterns():
        assert pattern.name, f"every project URL needs a name: {pattern.pattern}"
        names = list(pattern.pattern.converters) if hasattr(pattern.pattern, "converters") else []
        missing = [name for name in names if name not in values]
        assert not missing, (
            f"URL {namespace}{pattern.name} takes {missing}: add a demo value to demo_kwargs()"
        )
        kwargs = {name: values[name] for name in names}
        name = f"{namespace}{pattern.name}"
        # the club's pages at the demo club's address (/sc-de-toren/…), the rest at the site's
        url = (
            club_url("sc-de-toren", name, kwargs=kwargs)
            if namespace == "competition:"
            else reverse(name, kwargs=kwargs)
        )
        urls.append((name, url))
    return urls


def test_the_walk_covers_every_td_url(demo) -> None:
    from competition.urls_td import urlpatterns

    walked = {name for name, _url in urls_to_check()}
    assert {f"competition:{p.name}" for p in urlpatterns} <= walked


def test_anonymous_posts_are_sent_to_login(client, demo) -> None:
    login = resolve_url(settings.LOGIN_URL)
    before = database_fingerprint()
    for name, url in urls_to_check():
        response = client.post(url, {"result": "1-0", "version": 1})
        refused = response.status_code in (403, 405) or (
            response.status_code == 302 and response["Location"].startswith(login)
        )
        assert refused, f"{name} ({url}) answered {response.status_code} to an anonymous POST"
    assert database_fingerprint() == before


def test_member_posts_are_forbidden(client, demo, member_user) -> None:
    client.force_login(member_user)
    before = database_fingerprint()
    for name, url in urls_to_check():
        response = client.post(url, {"result": "1-0", "version": 1})
        assert response.status_code in (403, 405), (
            f"{name} ({url}) answered {response.status_code} to a member's POST"
        )
    assert database_fingerprint() == before


def test_member_cannot_open_td_pages(client, demo, member_user) -> None:
    from competition.urls_td import urlpatterns

    client.force_login(member_user)
    values = demo_kwargs()
    for pattern in urlpatterns:
        kwargs = {name: values[name] for name in pattern.pattern.converters}
        response = client.get(club_reverse(f"competition:{pattern.name}", kwargs=kwargs))
        assert response.status_code in (403, 405), pattern.name


def test_a_td_of_another_club_cannot_write_to_this_clubs_seasons(client, demo) -> None:
    """TD rights are per club: every URL about a season of the demo club refuses a POST (and a
    GET of the TD's own pages) from a TD of another club, and nothing changes."""
    from django.contrib.auth.models import User

    from competition.models import Club
    from competition.permissions import td_group

    other = Club.objects.create(name="Schaakclub Elders", slug="elders")
    outsider = User.objects.create_user("elders-td", password="elders-pass-123")
    outsider.groups.add(td_group(other))
    client.force_login(outsider)
    season_args = {"slug", "season_slug"}
    urls = [
        (name, url)
        for (name, url), (_namespace, pattern) in zip(
            urls_to_check(), project_patterns(), strict=True
        )
        if season_args & set(pattern.pattern.converters)
    ]
    assert any(name == "competition:td_result_save" for name, _url in urls)
    before = database_fingerprint()
    for name, url in urls:
        response = client.post(url, {"result": "1-0", "version": 1})
        assert response.status_code in (403, 405), (
            f"{name} ({url}) answered {response.status_code} to another club's TD"
        )
    assert database_fingerprint() == before


def test_a_member_cannot_touch_another_members_objects(client, demo) -> None:
    """The member role in the walk: the demo member "lid" (internal competition only) POSTs to
    every URL filled with another member's objects: a Keizer player with an account and a
    calendar address, his participant, an evening of the Keizer season, his feed token. Every
    one is refused (403, 404 or 405) and nothing changes. Only "new calendar address" acts on
    his own data and is left out."""
    import secrets

    from competition.models import ClubEvening, Member
    from competition.services.feeds import member_feed_token

    lid = Member.objects.get(user__username="lid")
    keizer = Season.objects.get(slug="keizer-2026-2027")
    assert not keizer.participants.filter(member=lid).exists()
    other = keizer.participants.exclude(member__participations__season__slug="interne-2026-2027")
    other = other.select_related("member").order_by("pk").first()
    from django.contrib.auth.models import User

    other_user = User.objects.create_user("ander-lid", password=secrets.token_urlsafe())
    Member.objects.filter(pk=other.member_id).update(user=other_user)
    other.member.refresh_from_db()
    token = member_feed_token(member=other.member)
    evening = ClubEvening.objects.create(
        season=keizer, date=datetime.date(2027, 6, 1), round_number=16
    )
    values = {
        **demo_kwargs(),
        "slug": keizer.slug,
        "season_slug": keizer.slug,
        "participant_id": other.pk,
        "member_id": other.member_id,
        "evening_id": evening.pk,
        # a board of the Keizer season (he plays on none of them)
        "game_id": Game.objects.filter(round__season=keizer).order_by("pk").first().pk,
        "token": token,
        "number": 15,
        "round_number": 15,
    }
    client.force_login(lid.user)
    before = database_fingerprint()
    checked = 0
    for namespace, pattern in project_patterns():
        name = f"{namespace}{pattern.name}"
        if name == "competition:my_feed_renew":
            continue
        kwargs = {key: values[key] for key in pattern.pattern.converters}
        url = reverse(name, kwargs=kwargs)
        response = client.post(url, {"result": "1-0", "version": 1, "kind": "absent"})
        assert response.status_code in (403, 404, 405), (
            f"{name} ({url}) answered {response.status_code} to another member's POST"
        )
        checked += 1
    assert checked > 30
    assert database_fingerprint() == before


def _second_club_people() -> dict[str, object]:
    """The demo's second club (Het Paard) with a user in each role."""
    from django.contrib.auth.models import User

    from competition.models import Club, Member
    from competition.permissions import admin_group, td_group

    paard = Club.objects.get(slug="sv-het-paard")
    admin = User.objects.create_user("paard-admin", password="paard-pass-123")
    admin.groups.add(admin_group(paard))
    td = User.objects.get(username="paardenwl")
    assert td.groups.filter(pk=td_group(paard).pk).exists()
    member_user = User.objects.create_user("paard-lid", password="paard-pass-123")
    Member.objects.filter(pk=Member.objects.filter(club=paard).order_by("pk")[0].pk).update(
        user=member_user
    )
    return {"club": paard, "club admin": admin, "TD": td, "member": member_user}


@pytest.mark.parametrize("role", ["club admin", "TD", "member"])
def test_each_role_of_another_club_is_refused_on_this_clubs_objects(client, demo, role) -> None:
    """The walk per role of the second demo club (Het Paard): every URL filled with the first
    club's objects (De Toren's seasons, rounds, boards, members) is refused, both at De Toren's
    address and at Het Paard's own address (where De Toren's objects do not exist): 403, 404 or
    405, and the database is exactly as before."""
    from competition.clubs import club_url

    people = _second_club_people()
    client.force_login(people[role])
    values = demo_kwargs()
    before = database_fingerprint()
    checked = 0
    for namespace, pattern in project_patterns():
        names = list(pattern.pattern.converters)
        if not {"slug", "season_slug", "group_slug", "member_id"} & set(names):
            continue
        kwargs = {name: values[name] for name in names}
        for club_slug in ("sc-de-toren", "sv-het-paard"):
            url = club_url(club_slug, f"{namespace}{pattern.name}", kwargs=kwargs)
            response = client.post(url, {"result": "1-0", "version": 1})
            assert response.status_code in (403, 404, 405), (
                f"{role} of Het Paard: {url} answered {response.status_code} to a POST"
            )
            checked += 1
    assert checked > 60
    assert database_fingerprint() == before


def test_a_club_admin_sets_the_rules_of_his_own_club_only(client, demo) -> None:
    """The club admin's own right: De Toren's admin opens its rules page; Het Paard's admin
    gets 403 there and opens his own club's."""
    from django.contrib.auth.models import User

    from competition.clubs import club_url

    people = _second_club_people()
    own = club_url("sv-het-paard", "competition:season_rules", args=["clubavond-2026-2027"])
    theirs = club_url("sc-de-toren", "competition:season_rules", args=["interne-2026-2027"])
    client.force_login(people["club admin"])
    assert client.get(own).status_code == 200
    assert client.get(theirs).status_code == 403
    client.force_login(User.objects.get(username="clubbeheerder"))
    assert client.get(theirs).status_code == 200
    assert client.get(own).status_code == 403
    # a TD runs evenings but does not set rules
    client.force_login(User.objects.get(username="wedstrijdleider"))
    assert client.get(theirs).status_code == 403


def test_site_staff_has_no_rights_in_a_club(client, demo) -> None:
    """Site staff (is_staff, not a superuser) look after the site, not a club's competition."""
    from django.contrib.auth.models import User

    from competition.clubs import club_url

    staff = User.objects.create_user("site-staff", password="staff-pass-123", is_staff=True)
    client.force_login(staff)
    rules = club_url("sc-de-toren", "competition:season_rules", args=["interne-2026-2027"])
    assert client.get(rules).status_code == 403
    assert client.get(club_url("sc-de-toren", "competition:td_home")).status_code == 403
