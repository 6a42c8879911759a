"""Member accounts: invitations, linking an account, and a member's privacy (his data, anonymising).

A member account is an ordinary Django user linked to one ``Member`` (``Member.user``; one per
club, a database constraint). It gives no TD rights: those come from the club's TD group only.
A club's TDs (or staff) invite a member with a one-time link that is valid for a week; only the
SHA-256 of the link's secret is stored, so the invitation table cannot be used to make an
account. Making a new invitation ends the member's earlier unused ones at once. An account is
linked to a member only by its owner, with the link: he makes a new account with it, or links
the account he is logged in with; a TD never picks an account (he would see its address).

``member_anonymise`` replaces a departing member's name everywhere ("Former member 12") and
clears what identifies him; his games and entries stay, so every standings table stays true.
``member_data`` is everything stored about a member, for "download my data".
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from competition.models import (
    AbsenceReport,
    ForbiddenPair,
    Game,
    Invitation,
    Member,
    Participant,
    PushSubscription,
    RoundEntry,
    Season,
)
from competition.permissions import is_td
from competition.selectors.common import member_public_name
from competition.services.errors import ServiceError
from competition.services.privacy import email_address
from competition.services.standings import seasons_touch

INVITATION_VALID = datetime.timedelta(days=7)


def token_hash(token: str) -> str:
    """What is stored of an invitation link's secret: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def _require_td(user: AbstractBaseUser | AnonymousUser | None, member: Member) -> None:
    if user is None or not is_td(user, member.club):
        raise ServiceError(_("Only this club's tournament directors may do this."))


def _locked_member(member: Member) -> Member:
    return Member.objects.select_for_update(of=("self",)).select_related("club").get(pk=member.pk)


def _end_open_invitations(member: Member, now: datetime.datetime) -> None:
    Invitation.objects.filter(member=member, used_at__isnull=True, expires_at__gt=now).update(
        expires_at=now
    )


# --- invitations ----------------------------------------------------------------------------


@transaction.atomic
def invitation_create(*, member: Member, email: str, user: User) -> tuple[Invitation, str]:
    """A one-time link for ``member`` to make his account: the invitation and the link's secret
    (shown once, never stored). His earlier unused invitations end now."""
    member = _locked_member(member)
    _require_td(user, member)
    if member.anonymised_at is not None:
        raise ServiceError(_("This member has been anonymised and cannot be invited."))
    if member.user_id is not None:
        raise ServiceError(
            _("%(name)s already has an account (%(username)s).")
            % {"name": member.name, "username": member.user.get_username() if member.user else ""}
        )
    email = email_address(email)
    now = timezone.now()
    _end_open_invitations(member, now)
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        member=member,
        token_hash=token_hash(token),
        email=email,
        created_by=user,
        created_at=now,
        expires_at=now + INVITATION_VALID,
    )
    return invitation, token


def _usable(invitation: Invitation | None, now: datetime.datetime) -> Invitation:
    if invitation is None or invitation.member.anonymised_at is not None:
        raise ServiceError(
            _(
                "This invitation link is unknown. Check that you copied the whole link, "
                "or ask the tournament director for a new one."
            ),
            code="unknown",
        )
    if invitation.used_at is not None:
        raise ServiceError(
            _(
                "This invitation link has already been used. Log in with the account made "
                "with it; if you forgot the password, reset it from the login page."
            ),
            code="used",
        )
    if invitation.member.user_id is not None:
        raise ServiceError(
            _("This member already has an account. Log in with it."), code="has_account"
        )
    if invitation.expires_at <= now:
        raise ServiceError(
            _(
                "This invitation link expired on %(date)s. "
                "Ask the tournament director for a new one."
            )
            % {"date": date_format(timezone.localtime(invitation.expires_at), "j F Y H:i")},
            code="expired",
        )
    return invitation


def invitation_for_token(token: str, *, now: datetime.datetime | None = None) -> Invitation:
    """The usable invitation behind a link's secret; otherwise a clear :class:`ServiceError`
    (code ``unknown``, ``used``, ``has_account`` or ``expired``)."""
    invitation = (
        Invitation.objects.select_related("member__club", "member__user")
        .filter(token_hash=token_hash(token))
        .first()
    )
    return _usable(invitation, now or timezone.now())


def _check_username(username: str) -> str:
    username = username.strip()
    if not username:
        raise ServiceError(_("Choose a username."))
    field = User._meta.get_field("username")
    if len(username) > (field.max_length or 150):
        raise ServiceError(
            _("A username has at most %(max)s characters.") % {"max": field.max_length}
        )
    try:
        User.username_validator(username)
    except ValidationError as error:
        raise ServiceError(error.messages) from None
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(
            _("The username “%(username)s” is taken; choose another.") % {"username": username}
        )
    return username


def _invitation_to_accept(token: str, now: datetime.datetime) -> tuple[Invitation, Member]:
    """The usable invitation ``token`` and its member, both locked; refused when the member has
    an account already. Inside the caller's transaction."""
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("member__club", "member__user")
        .filter(token_hash=token_hash(token))
        .first()
    )
    invitation = _usable(invitation, now)
    member = _locked_member(invitation.member)
    if member.user_id is not None:
        raise ServiceError(_("This member already has an account. Log in with it."))
    return invitation, member


@transaction.atomic
def invitation_accept(*, token: str, username: str, password: str) -> User:
    """Make the member's account from his invitation: username free, password as Django's
    validators ask. The account is linked to the member and the invitation is used up."""
    now = timezone.now()
    invitation, member = _invitation_to_accept(token, now)
    username = _check_username(username)
    email = invitation.email or member.email
    try:
        validate_password(password, user=User(username=username, email=email))
    except ValidationError as error:
        raise ServiceError(error.messages) from None
    try:
        with transaction.atomic():
            account = User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        raise ServiceError(
            _("The username “%(username)s” is taken; choose another.") % {"username": username}
        ) from None
    member.user = account
    if invitation.email:
        member.email = invitation.email
    member.save(update_fields=["user", "email"])
    invitation.used_at = now
    invitation.save(update_fields=["used_at"])
    return account


# --- an existing account, linked by its owner ------------------------------------------------


@transaction.atomic
def invitation_accept_with_account(*, token: str, account: User) -> Member:
    """Link the member of the invitation ``token`` to ``account``, the logged-in user who
    opened the link (a TD who also plays): the owner's consent, as making a new account is.

    Nothing of the account goes to the club: the member's address becomes the invitation's
    (the one the TD typed), if it had one. Refused when the account already belongs to another
    member of the same club (one account per club); the link is then still usable."""
    now = timezone.now()
    invitation, member = _invitation_to_accept(token, now)
    other = Member.objects.filter(club=member.club, user=account).exclude(pk=member.pk).first()
    if other is not None:
        raise ServiceError(
            _("Your account already belongs to %(name)s of this club.") % {"name": other.name}
        )
    member.user = account
    if invitation.email:
        member.email = invitation.email
    try:
        with transaction.atomic():
            member.save(update_fields=["user", "email"])
    except IntegrityError:
        raise ServiceError(_("This account already belongs to a member of this club.")) from None
    invitation.used_at = now
    invitation.save(update_fields=["used_at"])
    return member


@transaction.atomic
def account_unlink(*, member: Member, user: User) -> Member:
    """Take the account off ``member`` (the account itself stays), and with it what came from
    the account's owner: the member's address when it is the account's, and his choice of
    mails (he can no longer change it)."""
    member = _locked_member(member)
    _require_td(user, member)
    account = member.user
    if account is None:
        raise ServiceError(_("%(name)s has no account.") % {"name": member.name})
    if account.email and member.email.casefold() == account.email.casefold():
        member.email = ""
    member.user = None
    member.notify_pairing = member.notify_correction = False
    member.save(update_fields=["user", "email", "notify_pairing", "notify_correction"])
    PushSubscription.objects.filter(member=member).delete()  # the account owner's devices
    return member


# --- privacy ---------------------------------------------------------------------------------


def anonymous_name(member_id: int) -> str:
    """The neutral name an anonymised member gets, in the club's language."""
    with translation.override(settings.LANGUAGE_CODE):
        return _("Former member %(number)s") % {"number": member_id}


def member_notes_clear(*, member: Member) -> None:
    """Clear the free text about ``member``: the notes of his absence reports and of the round
    entries they were copied into (with their history), the reason of his withdrawals and the
    notes of the pairs he may not be paired in. Part of :func:`member_anonymise` (the
    migration that anonymised members before it cleared all of these calls it too)."""
    participant_ids = list(Participant.objects.filter(member=member).values_list("pk", flat=True))
    AbsenceReport.objects.filter(participant_id__in=participant_ids).update(note="")
    AbsenceReport.history.filter(participant_id__in=participant_ids).update(note="")
    RoundEntry.objects.filter(participant_id__in=participant_ids).update(note="")
    RoundEntry.history.filter(participant_id__in=participant_ids).update(note="")
    Participant.objects.filter(pk__in=participant_ids).update(withdrawal_note="")
    ForbiddenPair.objects.filter(
        Q(first_id__in=participant_ids) | Q(second_id__in=participant_ids)
    ).update(note="")


@transaction.atomic
def member_anonymise(*, member: Member, user: User) -> Member:
    """Replace ``member``'s name everywhere and clear what identifies him (e-mail, KNSB and
    FIDE ids, birth year, rating, account, calendar feed, invitations, push subscriptions, and
    every note about him: :func:`member_notes_clear`). His games and entries stay, so the
    standings stay exactly as they were; the event rating of each season
    (``Participant.rating``) stays too, as ARO/TPR use it."""
    member = _locked_member(member)
    _require_td(user, member)
    if member.anonymised_at is not None:
        raise ServiceError(_("%(name)s has already been anonymised.") % {"name": member.name})
    member.name = anonymous_name(member.pk)
    member.email = ""
    member.knsb_id = ""
    member.fide_id = None
    member.birth_year = None
    member.rating = None
    member.rating_date = None
    member.user = None
    member.feed_token = None
    member.name_display = ""
    member.notify_pairing = False
    member.notify_correction = False
    member.active = False
    member.anonymised_at = timezone.now()
    member.save()
    Invitation.objects.filter(member=member).delete()
    PushSubscription.objects.filter(member=member).delete()
    member_notes_clear(member=member)
    seasons_touch(seasons=Season.objects.filter(participants__member=member).distinct())
    return member


def _iso(value: datetime.date | datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _points(result: str, colour: str) -> str | None:
    """The member's own score of a game result code: "1", "½" or "0" (None: not played)."""
    scores = {
        Game.Result.WHITE_WINS: ("1", "0"),
        Game.Result.WHITE_WINS_FORFEIT: ("1", "0"),
        Game.Result.DRAW: ("½", "½"),
        Game.Result.BLACK_WINS: ("0", "1"),
        Game.Result.BLACK_WINS_FORFEIT: ("0", "1"),
        Game.Result.DOUBLE_FORFEIT: ("0", "0"),
    }
    pair = scores.get(Game.Result(result))
    if pair is None:
        return None
    return pair[0] if colour == "white" else pair[1]


def _participation_data(participant: Participant) -> dict[str, Any]:
    season = participant.season
    rounds: dict[int, dict[str, Any]] = {}
    games = (
        Game.objects.filter(Q(white=participant) | Q(black=participant))
        .select_related("round", "white__member", "black__member")
        .order_by("round__number")
    )
    for game in games:
        colour = "white" if game.white_id == participant.pk else "black"
        opponent = game.black if colour == "white" else game.white
        rounds[game.round.number] = {
            "round": game.round.number,
            "date": _iso(game.round.date),
            "status": game.round.status,
            "board": game.board,
            "colour": colour,
            "opponent": member_public_name(member=opponent.member, season=season),
            "result": game.get_result_display(),
            "score": _points(game.result, colour),
        }
    for entry in RoundEntry.objects.filter(participant=participant).select_related("round"):
        rounds[entry.round.number] = {
            "round": entry.round.number,
            "date": _iso(entry.round.date),
            "status": entry.round.status,
            "entry": entry.kind,
            "entry_label": str(entry.get_kind_display()),
            "points": str(entry.points),
            "note": entry.note,
        }
    return {
        "season": {
            "name": season.name,
            "slug": season.slug,
            "start_date": _iso(season.start_date),
            "end_date": _iso(season.end_date),
        },
        "start_rank": participant.start_rank,
        "start_points": participant.start_points,
        "event_rating": participant.rating,
        "initial_value": str(participant.initial_value)
        if participant.initial_value is not None
        else None,
        "joined_round": participant.joined_round,
        "rounds": [rounds[number] for number in sorted(rounds)],
    }


def member_data(*, member: Member) -> dict[str, Any]:
    """Everything stored about ``member``, as JSON-ready values ("download my data"). Other
    players appear only by their public names; invitations without their secrets."""
    member = Member.objects.select_related("club", "user").get(pk=member.pk)
    participations = (
        Participant.objects.filter(member=member)
        .select_related("season")
        .order_by("season__start_date", "season__pk")
    )
    reports = (
        AbsenceReport.objects.filter(participant__member=member)
        .select_related("evening__season")
        .order_by("evening__date")
    )
    return {
        "member": {
            "id": member.pk,
            "club": {"name": member.club.name, "slug": member.club.slug},
            "name": member.name,
            "email": member.email,
            "knsb_id": member.knsb_id,
            "fide_id": member.fide_id,
            "rating": member.rating,
            "rating_date": _iso(member.rating_date),
            "birth_year": member.birth_year,
            "active": member.active,
            "account": member.user.get_username() if member.user else None,
            "name_display": member.name_display,
            "notify_pairing": member.notify_pairing,
            "notify_correction": member.notify_correction,
            "calendar_feed": member.feed_token is not None,
            "anonymised_at": _iso(member.anonymised_at),
        },
        "participations": [_participation_data(p) for p in participations],
        "absence_reports": [
            {
                "season": report.evening.season.name,
                "date": _iso(report.evening.date),
                "planned_round": report.evening.round_number,
                "kind": report.kind,
                "note": report.note,
                "reported_at": _iso(report.reported_at),
                "reported_by_member": report.reported_by_id is not None
                and report.reported_by_id == member.user_id,
            }
            for report in reports
        ],
        "invitations": [
            {
                "email": invitation.email,
                "created_at": _iso(invitation.created_at),
                "expires_at": _iso(invitation.expires_at),
                "used_at": _iso(invitation.used_at),
            }
            for invitation in member.invitations.order_by("created_at")
        ],
        "push_subscriptions": [
            {
                "push_service": urlsplit(subscription.endpoint).hostname,
                "endpoint": subscription.endpoint,
                "language": subscription.language,
                "subscribed_at": _iso(subscription.created_at),
                "last_error": subscription.last_error,
                "last_error_at": _iso(subscription.last_error_at),
            }
            for subscription in member.push_subscriptions.order_by("created_at")
        ],
    }


__all__ = [
    "INVITATION_VALID",
    "account_unlink",
    "anonymous_name",
    "invitation_accept",
    "invitation_accept_with_account",
    "invitation_create",
    "invitation_for_token",
    "member_anonymise",
    "member_data",
    "member_notes_clear",
    "token_hash",
]
