"""Who may do what: tournament directors run a club's evenings; staff also edit seasons.

A club's tournament directors are the members of its ``td_group``. Staff users (admins) may
do everything a TD may, for every club. Everyone else only reads.

The view decorators are Django's ``user_passes_test``: anonymous users are sent to the login
page, a logged-in user without the right gets 403 (not the login page again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib.auth.decorators import user_passes_test
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.models import Club, Season


def td_group(club: Club | None = None) -> Group:
    """The tournament-director group of ``club`` (the first club when None), created if missing."""
    if club is None:
        club = Club.objects.order_by("pk").first() or Club.objects.create(
            name="Schaakclub", slug="schaakclub"
        )
    if club.td_group is None:
        group, _created = Group.objects.get_or_create(name=f"Wedstrijdleiders {club.name}")
        club.td_group = group
        club.save(update_fields=["td_group"])
        return group
    return club.td_group


def is_td(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    """True when ``user`` may run rounds and enter results for ``club``."""
    if not isinstance(user, User) or not user.is_active:
        return False
    if user.is_staff:
        return True
    return club.td_group_id is not None and user.groups.filter(pk=club.td_group_id).exists()


def is_td_anywhere(user: AbstractBaseUser | AnonymousUser) -> bool:
    if not isinstance(user, User) or not user.is_active:
        return False
    return user.is_staff or Club.objects.filter(td_group__user=user).exists()


def season_for_td(user: AbstractBaseUser | AnonymousUser, slug: str) -> Season:
    """The season ``slug`` if ``user`` may run it; 404 for no such season, 403 otherwise."""
    season = get_object_or_404(Season.objects.select_related("club"), slug=slug)
    if not is_td(user, season.club):
        raise PermissionDenied(_("Only this club's tournament directors may do this."))
    return season


class AuthenticatedRequest(HttpRequest):
    """The request of a view behind a login: ``request.user`` is a real user."""

    user: User


_View = TypeVar("_View", bound=Callable[..., HttpResponseBase])


def _logged_in_and(
    allowed: Callable[[AbstractBaseUser | AnonymousUser], bool], refusal: Promise
) -> Callable[[_View], _View]:
    def check(user: AbstractBaseUser | AnonymousUser) -> bool:
        if not user.is_authenticated:
            return False  # user_passes_test sends anonymous users to the login page
        if not allowed(user):
            raise PermissionDenied(refusal)
        return True

    return user_passes_test(check)


def is_staff(user: AbstractBaseUser | AnonymousUser) -> bool:
    return isinstance(user, User) and user.is_active and user.is_staff


td_required = _logged_in_and(
    is_td_anywhere, gettext_lazy("Only tournament directors may run club evenings.")
)
"""Views for TDs of some club (or staff); which club's seasons is checked by the view."""

staff_required = _logged_in_and(is_staff, gettext_lazy("Only staff may change a season's rules."))
"""Views for staff users only."""
