"""Who may do what: tournament directors run a club's evenings; staff also edit seasons.

A club's tournament directors are the members of its ``td_group``. Staff users (admins) may
do everything a TD may, for every club. Everyone else only reads.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group

from competition.models import Club


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
