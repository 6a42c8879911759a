"""Writes to a club's own settings: the sites that may show its pages in a frame, who holds
the club's roles (its tournament directors and admins), and when its evenings start."""

from __future__ import annotations

import datetime
import re

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, User
from django.db import transaction
from django.utils.translation import gettext as _

from competition.models import Club, Member
from competition.permissions import admin_group, is_club_admin, td_group
from competition.services.errors import ServiceError

# A site as a frame's parent names it: scheme, host and port only (no path, no wildcard).
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
ORIGIN = re.compile(rf"^https?://{_LABEL}(?:\.{_LABEL})*(?::(?P<port>[0-9]{{1,5}}))?$")


def embed_origin(text: str) -> str | None:
    """``text`` as a site's origin (lower case, without the slash a copied address ends
    with), or None when it is not one.

    >>> embed_origin("https://www.MyClub.nl/"), embed_origin("http://localhost:8000")
    ('https://www.myclub.nl', 'http://localhost:8000')
    >>> embed_origin("www.myclub.nl"), embed_origin("https://myclub.nl/standings")
    (None, None)
    >>> embed_origin("https://myclub.nl:99999"), embed_origin("javascript:alert(1)")
    (None, None)
    """
    origin = text.strip().removesuffix("/").lower()
    match = ORIGIN.match(origin)
    if match is None:
        return None
    port = match.group("port")
    if port is not None and not 1 <= int(port) <= 65535:
        return None
    return origin


@transaction.atomic
def club_embed_origins_set(
    *, club: Club, text: str, user: AbstractBaseUser | AnonymousUser
) -> Club:
    """Set the sites that may show ``club``'s public pages in a frame: one origin a line,
    such as ``https://www.myclub.nl`` (empty lines skipped, duplicates dropped).

    Only a club admin of ``club``. Raises :class:`ServiceError` naming the first line that is
    no site's address; nothing changes then.
    """
    if not is_club_admin(user, club):
        raise ServiceError(_("Only the club's admins can change which sites embed its pages."))
    origins: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        origin = embed_origin(line)
        if origin is None:
            raise ServiceError(
                _(
                    "Line %(number)s (“%(line)s”) is not a site's address: write it as "
                    "https://www.myclub.nl, with no path after it."
                )
                % {"number": number, "line": line.strip()}
            )
        if origin not in origins:
            origins.append(origin)
    locked = Club.objects.select_for_update().get(pk=club.pk)
    locked.embed_origins = "\n".join(origins)
    locked.save(update_fields=["embed_origins"])
    club.embed_origins = locked.embed_origins
    return club


class ClubRole:
    """The roles a club admin hands out (competition.permissions)."""

    TD = "td"
    ADMIN = "admin"


def _role_group(club: Club, role: str) -> Group:
    if role == ClubRole.TD:
        return td_group(club)
    if role == ClubRole.ADMIN:
        return admin_group(club)
    raise ServiceError(_("Unknown role."))


@transaction.atomic
def club_role_grant(
    *, club: Club, member: Member, role: str, user: AbstractBaseUser | AnonymousUser
) -> None:
    """Make ``member`` (a member of ``club`` with an account) a TD or an admin of ``club``.

    Only a club admin of ``club``; a second grant of the same role changes nothing.
    """
    if not is_club_admin(user, club):
        raise ServiceError(_("Only the club's admins can choose its tournament directors."))
    if member.club_id != club.pk:
        raise ServiceError(_("%(name)s is not a member of this club.") % {"name": member.name})
    if member.user_id is None:
        raise ServiceError(
            _("%(name)s has no account yet: invite him from a season's members page first.")
            % {"name": member.name}
        )
    assert member.user is not None
    member.user.groups.add(_role_group(club, role))


@transaction.atomic
def club_role_revoke(
    *, club: Club, account: User, role: str, user: AbstractBaseUser | AnonymousUser
) -> None:
    """Take the TD's or admin's role of ``club`` from ``account``. Only a club admin of
    ``club``; the last admin stays (a club without admins could not choose new ones)."""
    if not is_club_admin(user, club):
        raise ServiceError(_("Only the club's admins can choose its tournament directors."))
    group = _role_group(club, role)
    Group.objects.select_for_update().get(pk=group.pk)  # two admins at once: one at a time
    if role == ClubRole.ADMIN and group.user_set.exclude(pk=account.pk).count() == 0:
        raise ServiceError(_("The club needs at least one admin: name another one first."))
    account.groups.remove(group)


@transaction.atomic
def club_evening_start_set(
    *, club: Club, evening_start: datetime.time, user: AbstractBaseUser | AnonymousUser
) -> Club:
    """When ``club``'s evenings begin (Dutch time; a season may have its own). Only a club
    admin of ``club``."""
    if not is_club_admin(user, club):
        raise ServiceError(_("Only the club's admins can change the club's settings."))
    club = Club.objects.select_for_update().get(pk=club.pk)
    club.evening_start = evening_start
    club.save(update_fields=["evening_start"])
    return club
