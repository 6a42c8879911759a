"""Member accounts: invitations, accepting one, linking, anonymising, the member's data, and the
e-mail notices members opt in to."""

from __future__ import annotations

import datetime
import hashlib
import json
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db.models import Q
from django.utils import timezone, translation

from competition.models import (
    AbsenceReport,
    ClubEvening,
    Game,
    Invitation,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
)
from competition.permissions import td_group
from competition.services import accounts, evening
from competition.services.errors import ServiceError
from competition.services.rounds import result_record, round_complete, round_create
from competition.services.transfer.exports import standings_document
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RoundFactory,
    SeasonFactory,
)
from tests.tasks import run_worker

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_messages():
    """The messages are asserted in the source language; the app's default is Dutch."""
    with translation.override("en"):
        yield


@pytest.fixture
def club():
    return ClubFactory()


@pytest.fixture
def club_td(club) -> User:
    user = User.objects.create_user("club-td", password="td-pass-12345")
    user.groups.add(td_group(club))
    return user


@pytest.fixture
def member(club) -> Member:
    return MemberFactory(club=club, name="Anna de Vries", email="")


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --- invitations ----------------------------------------------------------------------------


def test_an_invitation_stores_only_the_hash_and_is_valid_for_a_week(member, club_td) -> None:
    before = timezone.now()
    invitation, token = accounts.invitation_create(
        member=member, email="anna@example.org", user=club_td
    )
    assert len(token) >= 40
    assert invitation.token_hash == _sha(token)
    stored = Invitation.objects.filter(pk=invitation.pk).values().get()
    assert token not in json.dumps(stored, default=str)
    assert invitation.email == "anna@example.org"
    assert invitation.created_by == club_td
    assert datetime.timedelta(days=7) <= invitation.expires_at - before
    assert invitation.expires_at - before < datetime.timedelta(days=7, minutes=1)
    assert accounts.invitation_for_token(token) == invitation


def test_a_new_invitation_ends_the_earlier_one_at_once(member, club_td) -> None:
    _first, first_token = accounts.invitation_create(member=member, email="", user=club_td)
    second, second_token = accounts.invitation_create(member=member, email="", user=club_td)
    with pytest.raises(ServiceError) as refused:
        accounts.invitation_for_token(first_token)
    assert refused.value.code == "expired"
    assert "expired" in str(refused.value)
    assert accounts.invitation_for_token(second_token) == second


def test_unknown_expired_and_used_links_say_so(member, club_td) -> None:
    with pytest.raises(ServiceError, match="unknown") as unknown:
        accounts.invitation_for_token("no-such-token")
    assert unknown.value.code == "unknown"

    invitation, token = accounts.invitation_create(member=member, email="", user=club_td)
    later = invitation.expires_at + datetime.timedelta(seconds=1)
    with pytest.raises(ServiceError, match="expired on") as expired:
        accounts.invitation_for_token(token, now=later)
    assert expired.value.code == "expired"

    accounts.invitation_accept(token=token, username="anna", password="zwarte-loper-42")
    with pytest.raises(ServiceError, match="already been used") as used:
        accounts.invitation_for_token(token)
    assert used.value.code == "used"


def test_no_invitation_for_an_anonymised_member_or_one_with_an_account(member, club_td) -> None:
    member.user = User.objects.create_user("anna-old")
    member.save()
    with pytest.raises(ServiceError, match="already has an account \\(anna-old\\)"):
        accounts.invitation_create(member=member, email="", user=club_td)
    other = MemberFactory(club=member.club, anonymised_at=timezone.now())
    with pytest.raises(ServiceError, match="anonymised"):
        accounts.invitation_create(member=other, email="", user=club_td)
    assert not Invitation.objects.exists()


def test_only_the_clubs_td_invites_and_the_address_must_be_valid(member, club_td) -> None:
    elders = ClubFactory(name="Elders", slug="elders")
    outsider = User.objects.create_user("elders-td")
    outsider.groups.add(td_group(elders))
    plain = User.objects.create_user("plain-member")
    for user in (outsider, plain):
        with pytest.raises(ServiceError, match="Only this club's tournament directors"):
            accounts.invitation_create(member=member, email="", user=user)
    with pytest.raises(ServiceError, match="not a valid e-mail address"):
        accounts.invitation_create(member=member, email="anna@", user=club_td)
    assert not Invitation.objects.exists()


def test_accepting_makes_the_account_links_it_and_uses_the_link(member, club_td) -> None:
    invitation, token = accounts.invitation_create(
        member=member, email="anna@example.org", user=club_td
    )
    user = accounts.invitation_accept(token=token, username=" anna ", password="zwarte-loper-42")
    member.refresh_from_db()
    invitation.refresh_from_db()
    assert user.username == "anna"
    assert user.check_password("zwarte-loper-42")
    assert user.email == "anna@example.org"
    assert member.user == user
    assert member.email == "anna@example.org"
    assert invitation.used_at is not None
    assert not user.is_staff and not user.groups.exists()  # no TD rights

    with pytest.raises(ServiceError, match="already been used"):
        accounts.invitation_accept(token=token, username="anna2", password="zwarte-loper-42")
    assert User.objects.filter(username__startswith="anna").count() == 1


@pytest.mark.parametrize(
    ("username", "password", "message"),
    [
        ("anna", "123", "too short"),
        ("anna", "password", "too common"),
        ("anna", "83920174655", "entirely numeric"),
        ("Taken", "zwarte-loper-42", "is taken"),
        ("anna de vries", "zwarte-loper-42", "Enter a valid username"),
        ("", "zwarte-loper-42", "Choose a username"),
    ],
)
def test_a_refused_account_changes_nothing(member, club_td, username, password, message) -> None:
    User.objects.create_user("taken")
    invitation, token = accounts.invitation_create(
        member=member, email="a@example.org", user=club_td
    )
    users = User.objects.count()
    with pytest.raises(ServiceError, match=message):
        accounts.invitation_accept(token=token, username=username, password=password)
    member.refresh_from_db()
    invitation.refresh_from_db()
    assert User.objects.count() == users
    assert member.user is None and member.email == ""
    assert invitation.used_at is None


# --- an existing account, linked by its owner ---------------------------------------------------


def test_the_owner_links_his_existing_account_with_the_invitation(member, club_td) -> None:
    """A TD who also plays (an account already) opens his invitation logged in and links it:
    the member gets the account, the invitation's address (the one the TD typed), never the
    account's own; the link is used up."""
    account = User.objects.create_user("anna", email="anna-prive@example.org")
    invitation, token = accounts.invitation_create(
        member=member, email="anna@club.example", user=club_td
    )
    linked = accounts.invitation_accept_with_account(token=token, account=account)
    assert linked == member
    member.refresh_from_db()
    invitation.refresh_from_db()
    assert member.user == account
    assert member.email == "anna@club.example"
    account.refresh_from_db()
    assert account.email == "anna-prive@example.org"  # the account stays as it was
    assert invitation.used_at is not None
    with pytest.raises(ServiceError, match="already been used"):
        accounts.invitation_accept_with_account(token=token, account=account)


def test_an_invitation_without_an_address_copies_nothing_of_the_account(member, club_td) -> None:
    account = User.objects.create_user("anna", email="anna-prive@example.org")
    _invitation, token = accounts.invitation_create(member=member, email="", user=club_td)
    accounts.invitation_accept_with_account(token=token, account=account)
    member.refresh_from_db()
    assert member.user == account and member.email == ""


def test_one_account_per_club_but_several_clubs_may_share_it(member, club_td) -> None:
    account = User.objects.create_user("anna")
    namesake = MemberFactory(club=member.club, name="Bert Bakker", user=account)
    _invitation, token = accounts.invitation_create(member=member, email="", user=club_td)
    with pytest.raises(ServiceError, match="already belongs to Bert Bakker"):
        accounts.invitation_accept_with_account(token=token, account=account)
    member.refresh_from_db()
    assert member.user is None
    assert accounts.invitation_for_token(token)  # still usable: nothing changed

    elders = ClubFactory(name="Elders", slug="elders")
    elders_td = User.objects.create_user("elders-td")
    elders_td.groups.add(td_group(elders))
    in_elders = MemberFactory(club=elders, name="Anna de Vries")
    _invitation, elders_token = accounts.invitation_create(
        member=in_elders, email="", user=elders_td
    )
    accounts.invitation_accept_with_account(token=elders_token, account=account)
    assert set(account.memberships.all()) == {namesake, in_elders}


def test_unlinking_takes_the_accounts_address_and_mail_choices_off_the_member(
    member, club_td
) -> None:
    """After unlinking, the club keeps nothing that came with the account: the member's address
    when it is the account's, and the mails the account's owner chose."""
    account = User.objects.create_user("anna", email="Anna@Example.org")
    _invitation, token = accounts.invitation_create(
        member=member, email="anna@example.org", user=club_td
    )
    accounts.invitation_accept_with_account(token=token, account=account)
    Member.objects.filter(pk=member.pk).update(notify_pairing=True, notify_correction=True)
    accounts.account_unlink(member=member, user=club_td)
    member.refresh_from_db()
    assert member.user is None
    assert (member.email, member.notify_pairing, member.notify_correction) == ("", False, False)
    assert User.objects.filter(username="anna").exists()  # the account itself stays
    with pytest.raises(ServiceError, match="has no account"):
        accounts.account_unlink(member=member, user=club_td)

    # an address of the member's own (not the account's) stays with the club
    other = MemberFactory(club=member.club, name="Bert Bakker", email="bert@club.example")
    Member.objects.filter(pk=other.pk).update(user=account)
    other.refresh_from_db()
    accounts.account_unlink(member=other, user=club_td)
    other.refresh_from_db()
    assert other.email == "bert@club.example"


def test_only_the_clubs_td_unlinks(member, club_td) -> None:
    account = User.objects.create_user("anna")
    Member.objects.filter(pk=member.pk).update(user=account)
    member.refresh_from_db()
    outsider = User.objects.create_user("outsider")
    with pytest.raises(ServiceError, match="Only this club's tournament directors"):
        accounts.account_unlink(member=member, user=outsider)
    member.refresh_from_db()
    assert member.user == account


# --- anonymising and the member's data -----------------------------------------------------------


def _without_names(document: dict) -> dict:
    return {
        **document,
        "standings": [
            {key: value for key, value in row.items() if key != "name"}
            for row in document["standings"]
        ],
    }


def test_anonymise_keeps_every_standings_table_and_clears_the_person(demo_club) -> None:
    season = Season.objects.get(slug="interne-2026-2027")
    member = (
        Member.objects.filter(
            participations__season=season, participations__games_as_white__isnull=False
        )
        .distinct()
        .order_by("pk")
        .first()
    )
    old_name = member.name
    member.email, member.knsb_id, member.fide_id, member.birth_year = (
        "x@example.org",
        "123",
        7,
        1990,
    )
    member.feed_token = "f" * 43
    member.user = User.objects.create_user("leaver")
    member.save()
    Invitation.objects.create(
        member=member, token_hash="0" * 64, email="x@example.org", expires_at=timezone.now()
    )
    seasons = list(Season.objects.filter(participants__member=member).distinct())
    assert seasons
    documents = {s.pk: standings_document(season=s) for s in seasons}
    versions = {s.pk: s.data_version for s in seasons}
    games = (
        Game.objects.filter(white__member=member).count()
        + Game.objects.filter(black__member=member).count()
    )
    admin = User.objects.get(username="beheerder")

    accounts.member_anonymise(member=member, user=admin)

    member.refresh_from_db()
    assert member.name == f"Oud-lid {member.pk}"  # in the club's language (Dutch)
    assert old_name not in member.name
    assert (member.email, member.knsb_id, member.fide_id, member.birth_year) == ("", "", None, None)
    assert member.rating is None and member.user is None and member.feed_token is None
    assert member.anonymised_at is not None and not member.active
    assert not Invitation.objects.filter(member=member).exists()
    assert User.objects.filter(username="leaver").exists()
    for s in seasons:
        s.refresh_from_db()
        after = standings_document(season=s)
        assert _without_names(after) == _without_names(documents[s.pk])
        names = [row["name"] for row in after["standings"]]
        assert old_name not in names
        assert s.data_version > versions[s.pk]  # cached pages are rebuilt
    assert (
        games
        == Game.objects.filter(white__member=member).count()
        + Game.objects.filter(black__member=member).count()
    )

    with pytest.raises(ServiceError, match="already been anonymised"):
        accounts.member_anonymise(member=member, user=admin)


def test_only_the_clubs_td_or_staff_anonymise(member) -> None:
    plain = User.objects.create_user("plain")
    with pytest.raises(ServiceError):
        accounts.member_anonymise(member=member, user=plain)
    member.refresh_from_db()
    assert member.name == "Anna de Vries" and member.anonymised_at is None


def test_anonymise_clears_the_notes_of_his_absence_reports(member, club_td) -> None:
    season = SeasonFactory(club=member.club)
    participant = ParticipantFactory(season=season, member=member)
    evening_ = ClubEvening.objects.create(
        season=season, date=datetime.date(2026, 10, 1), round_number=1
    )
    AbsenceReport.objects.create(
        evening=evening_, participant=participant, note="in het ziekenhuis"
    )
    accounts.member_anonymise(member=member, user=club_td)
    report = AbsenceReport.objects.get()
    assert report.note == ""
    assert report.kind == AbsenceReport.Kind.ABSENT
    assert all(h.note == "" for h in report.history.all())


def test_anonymise_clears_every_note_about_him(member, club_td) -> None:
    """The notes his absences were copied into (and their history), the reason of his
    withdrawal and the note of a pair he may not be paired in are free text about him: gone.
    Other players' notes stay."""
    from competition.models import ForbiddenPair
    from competition.services.rounds import entry_record

    season = SeasonFactory(club=member.club)
    participant = ParticipantFactory(season=season, member=member, start_rank=1)
    brother = ParticipantFactory(season=season, start_rank=2)
    other = ParticipantFactory(season=season, start_rank=3)
    round_ = RoundFactory(season=season, number=1)
    mine = entry_record(
        round=round_, participant=participant, kind="absent_notice", note="ziekenhuis"
    )
    entry_record(round=round_, participant=participant, kind="absent_notice", note="nog ziek")
    theirs = entry_record(round=round_, participant=other, kind="club_duty", note="bar")
    Participant.objects.filter(pk=participant.pk).update(
        withdrawn_from_round=2, withdrawal_note="verhuisd naar Groningen"
    )
    ForbiddenPair.objects.create(
        season=season, first=participant, second=brother, note="Anna en haar broer"
    )
    ForbiddenPair.objects.create(season=season, first=brother, second=other, note="buren")

    accounts.member_anonymise(member=member, user=club_td)

    mine.refresh_from_db()
    assert mine.note == "" and mine.kind == "absent_notice"
    assert [h.note for h in mine.history.all()] == ["", ""]
    theirs.refresh_from_db()
    assert theirs.note == "bar"
    participant.refresh_from_db()
    assert (participant.withdrawn_from_round, participant.withdrawal_note) == (2, "")
    notes = dict(ForbiddenPair.objects.values_list("first_id", "note"))
    assert notes == {participant.pk: "", brother.pk: "buren"}


def test_member_data_holds_everything_about_him_and_no_secrets(member, club_td) -> None:
    member.email, member.knsb_id, member.birth_year = "anna@example.org", "8123456", 1980
    member.save()
    season = SeasonFactory(club=member.club, name="Interne 2026")
    me = ParticipantFactory(season=season, member=member, start_rank=1)
    opponent = ParticipantFactory(
        season=season, member=MemberFactory(club=member.club, name="Bert Bakker"), start_rank=2
    )
    first = RoundFactory(season=season, number=1, date=datetime.date(2026, 9, 3))
    GameFactory(round=first, board=1, white=opponent, black=me, result=Game.Result.BLACK_WINS)
    second = RoundFactory(season=season, number=2, date=datetime.date(2026, 9, 10))
    RoundEntry.objects.create(
        round=second, participant=me, kind=RoundEntry.Kind.ABSENT_NOTICE, points=Decimal("0.5")
    )
    evening_ = ClubEvening.objects.create(
        season=season, date=datetime.date(2026, 9, 17), round_number=3
    )
    AbsenceReport.objects.create(evening=evening_, participant=me, note="op vakantie")
    invitation, token = accounts.invitation_create(
        member=member, email="anna@example.org", user=club_td
    )

    data = accounts.member_data(member=member)
    text = json.dumps(data)  # JSON-serialisable as it is
    assert token not in text and invitation.token_hash not in text
    assert data["member"]["name"] == "Anna de Vries"
    assert data["member"]["knsb_id"] == "8123456"
    assert data["member"]["birth_year"] == 1980
    (participation,) = data["participations"]
    assert participation["season"]["name"] == "Interne 2026"
    assert participation["rounds"] == [
        {
            "round": 1,
            "date": "2026-09-03",
            "status": "completed",
            "board": 1,
            "colour": "black",
            "opponent": "Bert Bakker",
            "result": "0-1",
            "score": "1",
        },
        {
            "round": 2,
            "date": "2026-09-10",
            "status": "completed",
            "entry": "absent_notice",
            "entry_label": "absent with notice",
            "points": "0.5",
            "note": "",
        },
    ]
    (report,) = data["absence_reports"]
    assert report["date"] == "2026-09-17" and report["note"] == "op vakantie"
    (invite,) = data["invitations"]
    assert invite["email"] == "anna@example.org" and invite["used_at"] is None
    assert set(invite) == {"email", "created_at", "expires_at", "used_at"}


# --- notices by e-mail --------------------------------------------------------------------------


@pytest.fixture
def four(club, club_td):
    """A points season with four players; P1 and P3 asked for notices (P4 without an address)."""
    season = SeasonFactory(club=club, name="Interne", system="points", bye_points=Decimal("1"))
    names = ["Anna Aap", "Bert Beer", "Chris Cobra", "Dirk Das"]
    players = [
        ParticipantFactory(
            season=season, start_rank=i + 1, member=MemberFactory(club=club, name=name)
        )
        for i, name in enumerate(names)
    ]
    for index, email in ((0, "anna@example.org"), (2, "chris@example.org"), (3, "")):
        member = players[index].member
        member.email, member.notify_pairing, member.notify_correction = email, True, True
        member.save()
    players[1].member.email = "bert@example.org"  # an address but no notices asked for
    players[1].member.save()
    rnd = round_create(seasons=[season], date=datetime.date(2026, 9, 10))[0]
    return rnd, players


def test_publishing_mails_the_opted_in_players_their_board(
    four, club_td, django_capture_on_commit_callbacks
) -> None:
    rnd, players = four
    evening.pairing_propose(round=rnd, user=club_td)
    games = {g.board: g for g in Game.objects.filter(round=rnd)}
    with django_capture_on_commit_callbacks(execute=True):
        evening.round_publish(round=rnd, user=club_td)
    assert mail.outbox == []  # queued, not sent: a worker sends it
    run_worker()
    by_address = {m.to[0]: m for m in mail.outbox}
    assert set(by_address) == {"anna@example.org", "chris@example.org"}
    for participant, address in (
        (players[0], "anna@example.org"),
        (players[2], "chris@example.org"),
    ):
        game = next(g for g in games.values() if participant.pk in (g.white_id, g.black_id))
        white = game.white_id == participant.pk
        opponent = game.black if white else game.white
        body = by_address[address].body
        colour = "wit" if white else "zwart"
        expected = f"Bord {game.board}: je speelt met {colour} tegen {opponent.member.name}."
        assert expected in body, body
        assert "ronde 1" in by_address[address].subject


def test_no_mail_when_publishing_is_refused(
    four, club_td, django_capture_on_commit_callbacks
) -> None:
    rnd, _players = four
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ServiceError):
        evening.round_publish(round=rnd, user=club_td)  # nothing paired yet
    run_worker()
    assert mail.outbox == []


def test_a_correction_mails_the_opted_in_players_only(
    four, club_td, django_capture_on_commit_callbacks
) -> None:
    rnd, players = four
    evening.pairing_propose(round=rnd, user=club_td)
    evening.round_publish(round=rnd, user=club_td)
    for game in Game.objects.filter(round=rnd):
        result_record(
            game_id=game.pk, result=Game.Result.DRAW, expected_version=game.version, user=club_td
        )
    round_complete(round=rnd, user=club_td)
    mail.outbox.clear()
    anna_game = Game.objects.get(Q(white=players[0]) | Q(black=players[0]), round=rnd)
    with django_capture_on_commit_callbacks(execute=True):
        result_record(
            game_id=anna_game.pk,
            result=Game.Result.WHITE_WINS,
            expected_version=anna_game.version,
            user=club_td,
            reason="wrong form",
        )
    run_worker()
    assert [m.to for m in mail.outbox] == [["anna@example.org"]]
    assert "1-0" in mail.outbox[0].body
    assert "gecorrigeerd" in mail.outbox[0].subject

    # A result saved in an open round is no correction: no mail.
    rnd2 = round_create(seasons=[rnd.season], date=datetime.date(2026, 9, 17))[0]
    evening.pairing_propose(round=rnd2, user=club_td)
    evening.round_publish(round=rnd2, user=club_td)
    mail.outbox.clear()
    game = Game.objects.filter(round=rnd2).first()
    with django_capture_on_commit_callbacks(execute=True):
        result_record(
            game_id=game.pk, result=Game.Result.DRAW, expected_version=game.version, user=club_td
        )
    run_worker()
    assert mail.outbox == []


def test_an_anonymised_or_unsubscribed_member_gets_no_notice(
    four, club_td, django_capture_on_commit_callbacks
) -> None:
    rnd, players = four
    accounts.member_anonymise(member=players[0].member, user=club_td)
    chris = players[2].member
    chris.notify_pairing = False
    chris.save()
    evening.pairing_propose(round=rnd, user=club_td)
    with django_capture_on_commit_callbacks(execute=True):
        evening.round_publish(round=rnd, user=club_td)
    run_worker()
    assert mail.outbox == []
    assert Round.objects.get(pk=rnd.pk).is_published
    assert Participant.objects.filter(season=rnd.season).count() == 4


def test_a_bye_and_a_corrected_absence_are_mailed_too(
    four, club_td, django_capture_on_commit_callbacks
) -> None:
    rnd, players = four
    _anna, bert, chris, dirk = players
    evening.attendance_record(
        round=rnd, marks={dirk.pk: RoundEntry.Kind.ABSENT_NOTICE}, user=club_td
    )
    evening.pairing_propose(round=rnd, user=club_td)
    with django_capture_on_commit_callbacks(execute=True):
        evening.round_publish(round=rnd, user=club_td)
    run_worker()
    # Three present: Anna and Bert play, the lowest ranked (Chris) has the bye.
    assert RoundEntry.objects.get(round=rnd, kind=RoundEntry.Kind.BYE).participant == chris
    sent = {m.to[0]: m.body for m in mail.outbox}
    assert set(sent) == {"anna@example.org", "chris@example.org"}
    assert "Je bent deze ronde vrij (bye)." in sent["chris@example.org"]
    assert "Bord 1: je speelt met" in sent["anna@example.org"]
    assert "tegen Bert Beer." in sent["anna@example.org"]

    for game in Game.objects.filter(round=rnd):
        result_record(
            game_id=game.pk, result=Game.Result.DRAW, expected_version=game.version, user=club_td
        )
    round_complete(round=rnd, user=club_td)
    dirk.member.email = "dirk@example.org"
    dirk.member.save()
    mail.outbox.clear()
    entry = RoundEntry.objects.get(round=rnd, participant=dirk)
    with django_capture_on_commit_callbacks(execute=True):
        evening.entry_correct(
            entry_id=entry.pk,
            kind=RoundEntry.Kind.CLUB_DUTY,
            points=Decimal("1"),
            reason="was wedstrijdleider",
            user=club_td,
            expected_version=entry.version,
        )
    run_worker()
    (message,) = mail.outbox
    assert message.to == ["dirk@example.org"]
    assert "Nu: clubverplichting, 1 punten." in message.body
    assert bert.member.email not in message.to
