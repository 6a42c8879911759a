"""Who may do what: tournament directors run a club's evenings; staff also edit seasons.

A club's tournament directors are the members of its ``td_group``. Staff users (admins) may
do everything a TD may, for every club. Everyone else only reads.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from competition.models import Club, Season


def td_group(club: Club | None = None) -> Group:
    """The tournament-director group of ``club`` (the first club when None), created if missing."""
    if club is None:
        club = Club.objects.order_by("pk").first() or Club.objects.create(
            name="Schaakclub", slug="schaakclub"
        )
    if club.td_group_id is None:
        group, _created = Group.objects.get_or_create(name=f"Wedstrijdleiders {club.name}")
        club.td_group = group
        club.save(update_fields=["td_group"])
    return club.td_group


def is_td(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    """True when ``user`` may run rounds and enter results for ``club``."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_staff:
        return True
    return club.td_group_id is not None and user.groups.filter(pk=club.td_group_id).exists()


def is_td_anywhere(user: AbstractBaseUser | AnonymousUser) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    return user.is_staff or Club.objects.filter(td_group__user=user).exists()


def season_for_td(user: AbstractBaseUser | AnonymousUser, slug: str) -> Season:
    """The season ``slug`` if ``user`` may run it; 404 for no such season, 403 otherwise."""
    season = get_object_or_404(Season.objects.select_related("club"), slug=slug)
    if not is_td(user, season.club):
        raise PermissionDenied(_("Only this club's tournament directors may do this."))
    return season
