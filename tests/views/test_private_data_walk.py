"""Private means private: values planted in the first demo club (members' absence notes and the
notes they were copied into, e-mail addresses of members, accounts and an invitation, account
names, calendar-feed tokens, an anonymised member's old name and notes, the TD's notes about
members) never reach a page, API answer, embed, export or feed that anonymous readers, a member
or another club's TD can open.

The walk is built from the URL configuration itself: every route (the site's, the API's,
Django's login and password-reset pages, every club page at both clubs' addresses) is filled
with the demo's real objects, so a page added later is walked without a change here; a route
with an argument the walk cannot fill fails, naming it. A page that answers is walked again for
each season, round and participant the planted values live in. A leak fails with the address,
the reader and the value.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse

from competition.clubs import club_url
from competition.models import (
    AbsenceReport,
    Category,
    ClubEvening,
    Game,
    GroupCompetition,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
)
from competition.services import accounts
from competition.services.feeds import member_feed_token
from competition.services.rounds import round_create
from tests.views.test_permissions import walk

pytestmark = pytest.mark.django_db

TOREN, PAARD = "sc-de-toren", "sv-het-paard"
INTERNE = "interne-2026-2027"
NEXT_EVENING = datetime.date(2026, 11, 19)  # the demo's internal competition played 10 rounds

# Routes the three readers cannot open and that hold no club data: the admin (site staff) and
# the admin's own pages.
SKIPPED_NAMESPACES = ("admin:",)


@dataclass
class Planted:
    """The private values, each with the people it belongs to (who may see it on his pages)."""

    owners: dict[str, set[str]] = field(default_factory=dict)  # value -> usernames
    feed_tokens: dict[str, str] = field(default_factory=dict)  # username -> token
    invitation_token: str = ""
    participants: list[int] = field(default_factory=list)
    members: list[int] = field(default_factory=list)
    evening_id: int = 0
    entry_id: int = 0
    entry_round: int = 0

    def plant(self, value: str, *owners: str) -> str:
        self.owners[value.casefold()] = set(owners)
        return value


def _rename(user: User, username: str, email: str) -> None:
    User.objects.filter(pk=user.pk).update(username=username, email=email)


@pytest.fixture
def planted(demo_club) -> Planted:
    cache.clear()
    secret = Planted()
    season = Season.objects.get(club__slug=TOREN, slug=INTERNE)
    by_rank = list(season.participants.select_related("member__user").order_by("start_rank"))

    # The demo member "lid" (the member who reads) with his own private values.
    lid = Member.objects.get(user__username="lid")
    secret.plant(lid.email, "lid")  # lid@example.org, his account's too
    secret.plant("lid-club-q7@mail.example", "lid")
    Member.objects.filter(pk=lid.pk).update(email="lid-club-q7@mail.example")
    User.objects.filter(username="lid").update(
        email=secret.plant("lid-acct-q7@mail.example", "lid")
    )
    secret.feed_tokens["lid"] = secret.plant(member_feed_token(member=lid), "lid")
    for report in AbsenceReport.objects.filter(participant__member=lid).exclude(note=""):
        secret.plant(report.note, "lid")  # "Op vakantie"

    # Another member with an account: his address, account, token, his absence note (copied
    # into tonight's round, which is not published yet) and a note on a closed round's entry.
    other = next(p for p in by_rank if p.member.user_id is None and p.member_id != lid.pk)
    account = User.objects.create_user(
        secret.plant("acct-other-q7", "acct-other-q7"),
        secret.plant("other-acct-q7@mail.example", "acct-other-q7"),
        "x-pass-12345",
    )
    Member.objects.filter(pk=other.member_id).update(
        user=account, email=secret.plant("other-club-q7@mail.example", "acct-other-q7")
    )
    other.member.refresh_from_db()
    secret.feed_tokens["acct-other-q7"] = secret.plant(
        member_feed_token(member=other.member), "acct-other-q7"
    )
    evening = ClubEvening.objects.get(season=season, date=NEXT_EVENING)
    AbsenceReport.objects.create(
        evening=evening,
        participant=other,
        reported_by=account,
        note=secret.plant("note-planned-q7 ziekenhuis", "acct-other-q7"),
    )
    (tonight,) = round_create(seasons=[season], date=NEXT_EVENING)
    assert tonight.is_planned
    copied = RoundEntry.objects.get(round=tonight, participant=other)
    assert copied.note == "note-planned-q7 ziekenhuis"
    closed = RoundEntry.objects.filter(round__season=season, round__number=10).order_by("pk")[0]
    RoundEntry.objects.filter(pk=closed.pk).update(note=secret.plant("note-closed-q7"))

    # A member anonymised after he gave notes: his old name and notes are gone everywhere.
    leaver = next(
        p
        for p in by_rank
        if p.member.user_id is None
        and p.pk != other.pk
        and Game.objects.filter(white=p).exists()
        and not Member.objects.filter(club__slug=PAARD, name=p.member.name).exists()
    )
    Member.objects.filter(pk=leaver.member_id).update(
        name=secret.plant("Quirijn Zwartbolq"), email=secret.plant("leaver-q7@mail.example")
    )
    secret.plant("Zwartbolq")
    AbsenceReport.objects.create(
        evening=ClubEvening.objects.get(season=season, date=NEXT_EVENING + datetime.timedelta(7)),
        participant=leaver,
        note=secret.plant("note-leaver-q7"),
    )
    RoundEntry.objects.filter(round__season=season, participant=leaver).update(
        note=secret.plant("note-leaver-entry-q7")
    )
    admin = User.objects.get(username="beheerder")
    accounts.member_anonymise(member=Member.objects.get(pk=leaver.member_id), user=admin)

    # An invitation with its address; the TD's and the club admin's accounts.
    invited = next(
        p.member for p in by_rank if p.member.user_id is None and p.pk not in (other.pk, leaver.pk)
    )
    td = User.objects.get(username="wedstrijdleider")
    _invitation, secret.invitation_token = accounts.invitation_create(
        member=invited, email=secret.plant("invite-q7@mail.example"), user=td
    )
    secret.plant(secret.invitation_token)
    _rename(td, secret.plant("acct-td-q7"), secret.plant("td-q7@mail.example"))
    club_admin = User.objects.get(username="clubbeheerder")
    _rename(club_admin, secret.plant("acct-admin-q7"), secret.plant("admin-q7@mail.example"))

    # The TD's own notes about members (a withdrawal's reason, a forbidden pair's note).
    for participant in Participant.objects.filter(season__club__slug=TOREN).exclude(
        withdrawal_note=""
    ):
        secret.plant(participant.withdrawal_note)
    for note in season.forbidden_pairs.exclude(note="").values_list("note", flat=True):
        secret.plant(note)

    secret.participants = [other.pk, leaver.pk, by_rank[0].pk]
    secret.members = [other.member_id, leaver.member_id, lid.pk]
    secret.evening_id = evening.pk
    secret.entry_id, secret.entry_round = copied.pk, tonight.number
    return secret


# --- the addresses ---------------------------------------------------------------------------


def _routes() -> list[tuple[str, URLPattern]]:
    return [
        (namespace, pattern)
        for namespace, pattern in walk(get_resolver().url_patterns)
        if pattern.name and not namespace.startswith(SKIPPED_NAMESPACES)
    ]


def _url(namespace: str, pattern: URLPattern, context: dict[str, object], club: str) -> str:
    names = list(pattern.pattern.converters) if hasattr(pattern.pattern, "converters") else []
    missing = [name for name in names if name not in context]
    assert not missing, f"{namespace}{pattern.name} takes {missing}: give the walk a value for it"
    kwargs = {name: context[name] for name in names}
    name = f"{namespace}{pattern.name}"
    if namespace == "competition:" and not _site_page(pattern.name or ""):
        return club_url(club, name, kwargs=kwargs)
    return reverse(name, kwargs=kwargs)


# The competition app's pages that are the site's, not a club's: a member's own pages, the
# invitation link (the site's address), the language switch and the after-login landing.
SITE_PAGES = {"language", "after_login", "invitation_accept"}


def _site_page(name: str) -> bool:
    return name in SITE_PAGES or name.startswith("my_")


def addresses(secret: Planted) -> list[list[str]]:
    """Per route: its addresses, the first one filled with the first context."""
    contexts = list(_all_contexts(secret))
    found = []
    for namespace, pattern in _routes():
        urls: list[str] = []
        names = set(getattr(pattern.pattern, "converters", {}))
        club_page = namespace == "competition:" and not _site_page(pattern.name or "")
        for context in contexts:
            clubs = [str(context["_club"])]
            if club_page and not names:
                clubs = [TOREN, PAARD]  # a club page without an object: both clubs'
            for club in clubs:
                url = _url(namespace, pattern, context, club)
                if url not in urls:
                    urls.append(url)
            if not names and not club_page:
                break
        found.append(urls)
    return found


def _all_contexts(secret: Planted) -> Iterator[dict[str, object]]:
    seasons = list(_season_contexts(secret))
    yield from seasons
    interne = next(c for c in seasons if c["season"] == INTERNE and c["club"] == TOREN)
    for number in Round.objects.filter(season__slug=INTERNE, season__club__slug=TOREN).values_list(
        "number", flat=True
    ):
        yield {**interne, "number": number, "round_number": number}
    for participant_id, member_id in zip(secret.participants, secret.members, strict=True):
        yield {**interne, "participant_id": participant_id, "member_id": member_id}
    yield {**interne, "entry_id": secret.entry_id, "round_number": secret.entry_round}
    for token in secret.feed_tokens.values():
        yield {**interne, "token": token}
    yield {**interne, "number": 1}  # the first period


def _season_contexts(secret: Planted) -> Iterator[dict[str, object]]:
    group = GroupCompetition.objects.get()
    for season in Season.objects.select_related("club").order_by("club__slug", "pk"):
        latest = Round.objects.filter(season=season).order_by("-number").first()
        number = latest.number if latest else 1
        game = Game.objects.filter(round=latest).order_by("board").first() if latest else None
        entry = RoundEntry.objects.filter(round=latest).order_by("pk").first() if latest else None
        participant = Participant.objects.filter(season=season).order_by("start_rank").first()
        category = Category.objects.filter(season=season).order_by("order").first()
        yield {
            "club": season.club.slug,
            "season": season.slug,
            "slug": season.slug,
            "season_slug": season.slug,
            "group_slug": group.slug,
            "number": number,
            "round_number": number,
            "game_id": game.pk if game else 1,
            "entry_id": entry.pk if entry else 1,
            "report_id": 1,
            "participant_id": participant.pk if participant else 1,
            "member_id": participant.member_id if participant else 1,
            "category_id": category.pk if category else 1,
            "evening_id": secret.evening_id,
            "token": secret.invitation_token,
            "code": (latest.check_in_code if latest else None) or "NOSUCH",
            "uidb64": "MQ",
            "_club": season.club.slug,
        }


# --- the readers and the walk ----------------------------------------------------------------

READERS = {"anonymous": "", "member": "lid", "another club's TD": "paardenwl"}
LOGIN = "/login/"


def _text(response) -> str:
    body = (
        b"".join(response.streaming_content) if response.streaming else response.content
    ).decode("utf-8", errors="replace")
    headers = " ".join(f"{key}: {value}" for key, value in response.items())
    return f"{headers}\n{body}".casefold()


def _leaks(secret: Planted, url: str, text: str, reader: str) -> list[str]:
    asked = url.casefold()
    return [
        value
        for value, owners in secret.owners.items()
        if reader not in owners and value not in asked and value in text
    ]


@pytest.mark.parametrize("reader", READERS)
def test_no_private_value_reaches_a_reader_it_does_not_belong_to(
    client: Client, planted: Planted, reader: str
) -> None:
    username = READERS[reader]
    if username:
        client.force_login(User.objects.get(username=username))
    found: list[str] = []
    walked = answered = 0
    for urls in addresses(planted):
        for index, url in enumerate(urls):
            response = client.get(url)
            walked += 1
            answered += response.status_code == 200
            found += [
                f"{url} ({response.status_code}) shows {value!r} to {reader}"
                for value in _leaks(planted, url, _text(response), username)
            ]
            location = response.get("Location", "")
            if index == 0 and response.status_code == 302 and location.startswith(LOGIN):
                break  # a page behind the login: so are its other objects
    assert not found, "\n".join(found)
    assert answered > 40 and walked > answered


def test_the_walk_reaches_every_route_and_the_planted_values(planted: Planted) -> None:
    """The walk has an address for every route, and the planted values are where the walk
    looks: the member's own page and feed show his own, the TD's pages the members' notes."""
    routes = _routes()
    urls = addresses(planted)
    assert len(urls) == len(routes) > 90
    walked = {url for group in urls for url in group}
    token = planted.feed_tokens["acct-other-q7"]
    assert (
        club_url(TOREN, "competition:member_feed", kwargs={"token": token, "season_slug": INTERNE})
        in walked
    )
    client = Client()
    client.force_login(User.objects.get(username="acct-td-q7"))
    attendance = club_url(
        TOREN,
        "competition:td_attendance",
        kwargs={"season_slug": INTERNE, "round_number": planted.entry_round},
    )
    assert attendance in walked
    assert "note-planned-q7 ziekenhuis" in client.get(attendance).content.decode()
    client.force_login(User.objects.get(username="lid"))
    assert "lid-club-q7@mail.example" in client.get(reverse("competition:my_page")).content.decode()


def test_the_clubs_own_exports_carry_no_address_token_or_old_name(planted: Planted) -> None:
    """The club's TD downloads every export of every season (TRF, archive, CSV, JSON): no
    e-mail address, calendar or invitation token, nor the anonymised member's old name. (The
    archive keeps the notes and, by username, who recorded what: docs/decisions.md.)"""
    client = Client()
    client.force_login(User.objects.get(username="acct-td-q7"))
    kept_out = {
        value
        for value in planted.owners
        if "@" in value
        or value in {token.casefold() for token in planted.feed_tokens.values()}
        or value in {planted.invitation_token.casefold(), "quirijn zwartbolq", "zwartbolq"}
    }
    assert len(kept_out) >= 10
    downloads = [
        pattern.name
        for namespace, pattern in _routes()
        if namespace == "competition:" and str(pattern.pattern).startswith("files/seasons/")
    ]
    assert len(downloads) >= 4
    found = []
    for season in Season.objects.filter(club__slug=TOREN):
        for name in downloads:
            url = club_url(TOREN, f"competition:{name}", kwargs={"slug": season.slug})
            response = client.get(url)
            assert response.status_code == 200, url
            text = _text(response)
            found += [f"{url} carries {value!r}" for value in kept_out if value in text]
    assert not found, "\n".join(found)
