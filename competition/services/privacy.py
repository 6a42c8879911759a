"""Privacy (AVG/GDPR): how a member's name shows on public pages, exports and feeds, and the
other settings a member makes for himself (his e-mail address and the mails he wants).

A member chooses for himself ("" as the season says, "full", "short"); the rule that combines
his choice with the season's setting is :func:`competition.presentation.names.public_name`.
Every page cached
under a season's ``data_version`` may show his name, so a change touches all his seasons.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from competition.models import Member, NameDisplay, Season
from competition.permissions import is_td
from competition.services.errors import ServiceError
from competition.services.standings import seasons_touch

NAME_DISPLAY_CHOICES = ("", *NameDisplay.values)


def email_address(text: str) -> str:
    """``text`` as an e-mail address (stripped; empty stays empty), or a ServiceError saying
    it is not one."""
    email = text.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ServiceError(
                _("“%(email)s” is not a valid e-mail address.") % {"email": email}
            ) from None
    return email


@transaction.atomic
def member_name_display_set(
    *, member: Member, choice: str, user: AbstractBaseUser | AnonymousUser
) -> Member:
    """Set how ``member``'s name shows in public: ``""`` (as the season says; juniors short),
    ``"full"`` or ``"short"``. The member himself or a TD (or admin) of his club may change it.

    Raises :class:`ServiceError` for another user or an unknown choice; nothing changes then.
    Setting the choice he already has changes nothing and touches no season.
    """
    own = user.is_authenticated and member.user_id is not None and member.user_id == user.pk
    if not (own or is_td(user, member.club)):
        raise ServiceError(_("You can only change how your own name is shown."))
    if choice not in NAME_DISPLAY_CHOICES:
        raise ServiceError(_("Choose how your name is shown: full, or first name and initial."))
    locked = Member.objects.select_for_update().get(pk=member.pk)
    if locked.anonymised_at is not None:
        raise ServiceError(_("This member is anonymised; his name is no longer shown."))
    if locked.name_display == choice:
        member.name_display = choice
        return member
    locked.name_display = choice
    locked.save(update_fields=["name_display"])
    member.name_display = choice
    seasons_touch(seasons=Season.objects.filter(participants__member=locked))
    return member


@transaction.atomic
def member_preferences_set(
    *,
    member: Member,
    user: AbstractBaseUser | AnonymousUser,
    email: str,
    notify_pairing: bool,
    notify_correction: bool,
    name_display: str,
) -> Member:
    """The member's own settings from his page: his e-mail address, the mails he wants (a
    published pairing, a correction of his result) and how his name shows in public.

    Only the member himself; a notice needs an address. All or nothing.
    """
    if not (user.is_authenticated and member.user_id is not None and member.user_id == user.pk):
        raise ServiceError(_("You can only change your own settings."))
    email = email_address(email)
    if not email and (notify_pairing or notify_correction):
        raise ServiceError(_("Give your e-mail address to receive mails."))
    locked = Member.objects.select_for_update().get(pk=member.pk)
    locked.email, locked.notify_pairing, locked.notify_correction = (
        email,
        notify_pairing,
        notify_correction,
    )
    locked.save(update_fields=["email", "notify_pairing", "notify_correction"])
    member.email, member.notify_pairing, member.notify_correction = (
        email,
        notify_pairing,
        notify_correction,
    )
    return member_name_display_set(member=member, choice=name_display, user=user)
