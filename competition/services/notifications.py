"""E-mail to members: the invitation link, the password reset, and the notices members opt in to.

Nothing here is sent inside a request: the services and views queue the mail with
:func:`competition.services.background.after_commit` (nothing is queued for a change that was
rolled back), and a worker runs the functions below as the tasks of :mod:`competition.tasks`.
A member gets a notice only when he asked for it (``Member.notify_pairing``,
``Member.notify_correction``) and has an e-mail address. Mail is written in the club's language
(``LANGUAGE_CODE``). A mail server that is down never undoes or slows the TD's action: the
task raises, is tried again later with a growing wait, and in the end shows in the admin as a
failed task with its error.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core.mail import EmailMessage, get_connection
from django.template import loader
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from competition.models import Game, Invitation, Participant, Round, RoundEntry, Season
from competition.presentation.numbers import points_text
from competition.selectors.common import member_public_name
from competition.services.background import after_commit

logger = logging.getLogger(__name__)


def _send(messages: Iterable[EmailMessage]) -> int:
    """Send ``messages`` over one connection; the number sent. A mail server's error is
    raised: the task is tried again later."""
    messages = list(messages)
    if not messages:
        return 0
    get_connection(fail_silently=False).send_messages(messages)
    return len(messages)


def _wants(participant: Participant, flag: str) -> bool:
    member = participant.member
    return bool(getattr(member, flag)) and bool(member.email) and member.anonymised_at is None


def invitation_mail(*, invitation: Invitation, link: str) -> None:
    """Queue the invitation link to the invitation's address (sent by a worker)."""
    after_commit("mail_invitation", invitation_id=invitation.pk, link=link)


def invitation_mail_send(*, invitation_id: int, link: str) -> int:
    """Send the invitation link to the invitation's address (the ``mail_invitation`` task);
    nothing when the invitation has no address or was used or replaced meanwhile."""
    invitation = (
        Invitation.objects.select_related("member__club")
        .filter(pk=invitation_id, used_at__isnull=True)
        .exclude(email="")
        .first()
    )
    if invitation is None:
        return 0
    member = invitation.member
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("Your account for %(club)s") % {"club": member.club.name}
        body = _(
            "Hello %(name)s,\n\n"
            "The tournament director of %(club)s invites you to make your own account for the "
            "club competition. With it you report absences in advance and see your pairing "
            "and results.\n\n"
            "Choose your username and password here (the link works once, until %(until)s):\n"
            "%(link)s\n\n"
            "If you did not expect this e-mail, ignore it."
        ) % {
            "name": member.name,
            "club": member.club.name,
            "until": date_format(invitation.expires_at, "j F Y H:i"),
            "link": link,
        }
    return _send([EmailMessage(subject, body, to=[invitation.email])])


def password_reset_request(*, email: str, domain: str, use_https: bool) -> None:
    """Queue the password-reset mail for ``email``: the same single write for every address,
    known or not; the worker looks up the accounts (:func:`password_reset_mail`)."""
    after_commit("mail_password_reset", email=email, domain=domain, use_https=use_https)


def password_reset_mail(*, email: str, domain: str, use_https: bool) -> int:
    """Mail a password-reset link to every active account with the address ``email`` (the
    ``mail_password_reset`` task; Django's own form, mail and token); the number of mails.
    The request that asked for it queued the same task whether or not such an account exists,
    so its answer and its time tell nothing about the address."""
    form = _PasswordResetMails({"email": email})
    if not form.is_valid():
        return 0
    with translation.override(settings.LANGUAGE_CODE):
        form.save(domain_override=domain, use_https=use_https)
    return _send(form.mails)


class _PasswordResetMails(PasswordResetForm):
    """Django's password-reset mails, gathered to be sent by :func:`_send`: Django's own
    ``send_mail`` logs a mail server's error and carries on, where the task should retry."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mails: list[EmailMessage] = []

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        self.mails.append(EmailMessage(subject, body, from_email, [to_email]))


def _board_values(
    game: Game, participant: Participant, season: Season
) -> tuple[bool, dict[str, object]]:
    """Whether ``participant`` has white, and the board and his opponent's public name."""
    white = game.white_id == participant.pk
    opponent = game.black if white else game.white
    name = member_public_name(member=opponent.member, season=season)
    return white, {"board": game.board, "opponent": name}


def _pairing_line(game: Game, participant: Participant, season: Season) -> str:
    white, values = _board_values(game, participant, season)
    if white:
        return _("Board %(board)s: you play white against %(opponent)s.") % values
    return _("Board %(board)s: you play black against %(opponent)s.") % values


def pairing_published_notify(*, round_id: int) -> int:
    """Mail each opted-in player of the published round his board, colour and opponent (or his
    bye); the number of mails sent."""
    round = Round.objects.select_related("season__club").get(pk=round_id)
    season = round.season
    messages = []
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("%(season)s, round %(round)s: your pairing") % {
            "season": season.name,
            "round": round.number,
        }
        games = Game.objects.filter(round=round).select_related("white__member", "black__member")
        for game in games:
            for participant in (game.white, game.black):
                if _wants(participant, "notify_pairing"):
                    line = _pairing_line(game, participant, season)
                    messages.append((participant, line))
        byes = RoundEntry.objects.filter(round=round, kind=RoundEntry.Kind.BYE).select_related(
            "participant__member"
        )
        for entry in byes:
            if _wants(entry.participant, "notify_pairing"):
                messages.append((entry.participant, _("You have a bye this round.")))
        mails = [
            EmailMessage(
                subject,
                _(
                    "Hello %(name)s,\n\n"
                    "The pairing of round %(round)s of %(season)s (%(date)s) is published.\n"
                    "%(line)s\n\n"
                    "You get this e-mail because you asked for it; switch it off on your page."
                )
                % {
                    "name": participant.member.name,
                    "round": round.number,
                    "season": season.name,
                    "date": date_format(round.date, "l j F"),
                    "line": line,
                },
                to=[participant.member.email],
            )
            for participant, line in messages
        ]
    return _send(mails)


def _result_line(game: Game, participant: Participant, season: Season) -> str:
    white, values = _board_values(game, participant, season)
    values["result"] = game.get_result_display()
    if white:
        return _("Board %(board)s, you with white against %(opponent)s: now %(result)s.") % values
    return _("Board %(board)s, you with black against %(opponent)s: now %(result)s.") % values


def result_corrected_notify(*, game_id: int | None = None, entry_id: int | None = None) -> int:
    """Mail the opted-in players whose result a correction changed (a game's result or a
    round entry); the number of mails sent."""
    lines: list[tuple[Participant, str]] = []
    with translation.override(settings.LANGUAGE_CODE):
        if game_id is not None:
            game = (
                Game.objects.select_related("round__season", "white__member", "black__member")
                .filter(pk=game_id)
                .first()
            )
            if game is None:
                return 0
            round, season = game.round, game.round.season
            for participant in (game.white, game.black):
                if _wants(participant, "notify_correction"):
                    lines.append((participant, _result_line(game, participant, season)))
        elif entry_id is not None:
            entry = (
                RoundEntry.objects.select_related("round__season", "participant__member")
                .filter(pk=entry_id)
                .first()
            )
            if entry is None:
                return 0
            round, season = entry.round, entry.round.season
            if _wants(entry.participant, "notify_correction"):
                lines.append(
                    (
                        entry.participant,
                        _("Now: %(kind)s, %(points)s points.")
                        % {
                            "kind": entry.get_kind_display(),
                            "points": points_text(entry.points),
                        },
                    )
                )
        else:
            return 0
        mails = [
            EmailMessage(
                _("%(season)s, round %(round)s: your result was corrected")
                % {"season": season.name, "round": round.number},
                _(
                    "Hello %(name)s,\n\n"
                    "The tournament director corrected your result of round %(round)s of "
                    "%(season)s.\n%(line)s\n\n"
                    "You get this e-mail because you asked for it; switch it off on your page."
                )
                % {
                    "name": participant.member.name,
                    "round": round.number,
                    "season": season.name,
                    "line": line,
                },
                to=[participant.member.email],
            )
            for participant, line in lines
        ]
    return _send(mails)


__all__ = [
    "invitation_mail",
    "invitation_mail_send",
    "pairing_published_notify",
    "password_reset_mail",
    "password_reset_request",
    "result_corrected_notify",
]
