"""Who may do what, club by club: club admins set the club's rules, members and tournament
directors; tournament directors run the club's evenings; members read and act for themselves.

A club's admins are the members of its ``admin_group``, its tournament directors the members of
its ``td_group``; a club admin may also do what a TD of that club may. Being site staff gives no
rights in a club (site matters only); a superuser may do everything. Everyone else only reads.

The view decorators are Django's ``user_passes_test``: anonymous users are sent to the login
page, a logged-in user without the right gets 403 (not the login page again).

The access helpers give a view the object its address names, one helper per kind of object
(``club_of_address``, ``season_of_address``, ``rapid_series_of_address``, ``season_for_td``,
``round_for_td``, ``group_competition_of_address``, ``season_member``, ``club_member``,
``invitation_of_address``, ...), always within the club of the address: 404 when that club has
no such thing, 403 when the user may not act on it. Where a selector reads the page of an object
in one go (a round's page, a participant's breakdown), the helper of that object
(``round_found``, ``participant_found``, ...) turns the selector's "no such thing" into that 404.
The TD's views of one round take it from ``td_round_view``. Views write no 404 of their own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from django.contrib.auth.decorators import login_required, user_passes_test
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, User
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.models import (
    Category,
    Club,
    ClubEvening,
    GroupCompetition,
    Invitation,
    Member,
    Participant,
    Round,
    Season,
    SeasonRules,
)


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


def admin_group(club: Club) -> Group:
    """The club-admin group of ``club``, created if missing."""
    if club.admin_group is None:
        group, _created = Group.objects.get_or_create(name=f"Clubbeheerders {club.name}")
        club.admin_group = group
        club.save(update_fields=["admin_group"])
        return group
    return club.admin_group


def is_td(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    """True when ``user`` may run rounds and enter results for ``club``."""
    if not isinstance(user, User) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    groups = [pk for pk in (club.td_group_id, club.admin_group_id) if pk is not None]
    return bool(groups) and user.groups.filter(pk__in=groups).exists()


def is_club_admin(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    """True when ``user`` may set ``club``'s rules, members and tournament directors (a member of
    its ``admin_group``, or a superuser)."""
    if not isinstance(user, User) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return club.admin_group_id is not None and user.groups.filter(pk=club.admin_group_id).exists()


def is_td_anywhere(user: AbstractBaseUser | AnonymousUser) -> bool:
    if not isinstance(user, User) or not user.is_active:
        return False
    return user.is_superuser or clubs_run_by(user).exists()


def clubs_run_by(user: User, *, within: Club | None = None) -> QuerySet[Club]:
    """The clubs whose evenings ``user`` may run (as TD or club admin; all for a superuser);
    ``within``: only that club, when he runs it (on the pages of a club's address)."""
    clubs = (
        Club.objects.all()
        if user.is_superuser
        else Club.objects.filter(Q(td_group__user=user) | Q(admin_group__user=user)).distinct()
    )
    return clubs if within is None else clubs.filter(pk=within.pk)


def club_for_admin(request: HttpRequest, *, refusal: str) -> Club:
    """The club of the address if the user is one of its admins; 404 for an address without a
    club, 403 with ``refusal`` otherwise."""
    club = request_club(request)
    if club is None:
        raise Http404(_("No such club."))
    if not is_club_admin(request.user, club):
        raise PermissionDenied(refusal)
    return club


Found = TypeVar("Found")


def found(lookup: Callable[[], Found], missing: type[Exception], message: str) -> Found:
    """What ``lookup()`` finds, or 404 saying ``message`` when it raises ``missing`` (the
    selectors raise the model's ``DoesNotExist``, or ``LookupError``, for what is not there)."""
    try:
        return lookup()
    except missing:
        raise Http404(message) from None


def present(value: Found | None, message: str | Promise) -> Found:
    """``value``, or 404 saying ``message`` when a selector found nothing (None)."""
    if value is None:
        raise Http404(message)
    return value


def named_in(table: Mapping[str, Found], name: str, message: str | Promise | None = None) -> Found:
    """The entry of ``table`` that the address names (the URLs name only the table's entries);
    any other name is no page: 404, saying ``message`` when given."""
    try:
        return table[name]
    except KeyError:
        raise (Http404() if message is None else Http404(message)) from None


def round_found(lookup: Callable[[], Found]) -> Found:
    """What ``lookup()`` reads about a round of the season of the address; 404 when the season
    has no such round."""
    return found(lookup, Round.DoesNotExist, _("No such round."))


def participant_found(lookup: Callable[[], Found]) -> Found:
    """What ``lookup()`` reads about a participant of the season of the address; 404 when the
    season has no such participant."""
    return found(lookup, Participant.DoesNotExist, _("No such participant."))


def category_found(lookup: Callable[[], Found]) -> Found:
    """What ``lookup()`` reads about a category of the season of the address; 404 when the
    season has no such category."""
    return found(lookup, Category.DoesNotExist, _("No such category."))


def rule_set_found(lookup: Callable[[], Found]) -> Found:
    """What ``lookup()`` reads under an earlier rule set of the season (``?rules=N``); 404 when
    the season had no such rule set."""
    return found(lookup, SeasonRules.DoesNotExist, _("This season has no such rule set."))


def evening_found(lookup: Callable[[], Found]) -> Found:
    """What ``lookup()`` reads about a club evening for the user; 404 when there is no such
    evening."""
    return found(lookup, ClubEvening.DoesNotExist, _("No such club evening."))


def player_found(
    request: HttpRequest,
    lookup: Callable[[], Found],
    *,
    member: Callable[[Found], Member] | None = None,
) -> Found:
    """What ``lookup()`` reads about a member (his profile, his rating); 404 "No such player."
    when there is none or, given ``member`` (the member of what was read), when the address is
    another club's."""
    read = found(lookup, Member.DoesNotExist, _("No such player."))
    club = request_club(request)
    if member is not None and club is not None and member(read).club_id != club.pk:
        raise Http404(_("No such player."))
    return read


def invitation_of_address(request: HttpRequest, invitation: Invitation) -> Invitation:
    """``invitation``, if the address has no club (the link is the site's) or is the club of the
    invited member: under a club's address only that club's own invitations; 404 otherwise."""
    club = request_club(request)
    if club is not None and invitation.member.club_id != club.pk:
        raise Http404(_("No such invitation."))
    return invitation


def export_format_of(request: HttpRequest, formats: Mapping[str, object]) -> str | None:
    """The export the address asks for (``?_export=csv``), None for the page; 404 for a format
    not among ``formats``."""
    export_format = request.GET.get("_export")
    if not export_format:
        return None
    named_in(formats, export_format, _("Unknown export format."))
    return export_format


def club_of_address(request: HttpRequest) -> Club:
    """The club of the address; 404 for the site's own addresses (no club in them)."""
    club = request_club(request)
    if club is None:
        raise Http404(_("No such club."))
    return club


def season_of_address(request: HttpRequest, slug: str) -> Season:
    """The season ``slug`` of the club of the address, for everyone (the public pages), with
    its club and group competition (one query); 404 when the club has none."""
    club = request_club(request)
    if club is None:
        raise Http404(_("No such season."))
    seasons = Season.objects.select_related("club", "group_competition")
    return get_object_or_404(seasons, club=club, slug=slug)


def rapid_series_of_address(request: HttpRequest, slug: str) -> Season:
    """The season ``slug`` of the club of the address (:func:`season_of_address`) if it is a
    rapid series; 404 otherwise."""
    season = season_of_address(request, slug)
    if not season.is_rapid_series:
        raise Http404(_("This competition is not a rapid series."))
    return season


def group_competition_of_address(request: HttpRequest, slug: str) -> GroupCompetition:
    """The group competition ``slug`` of the club of the address with its club (one query); 404
    when it has none."""
    club = request_club(request)
    if club is None:
        raise Http404(_("No such group competition."))
    competitions = GroupCompetition.objects.select_related("club")
    return get_object_or_404(competitions, club=club, slug=slug)


def season_for_td(
    user: AbstractBaseUser | AnonymousUser, slug: str, *, club: Club | None
) -> Season:
    """The season ``slug`` of ``club`` if ``user`` may run it; 404 for no such season (or no
    club: the address had no club in it), 403 otherwise."""
    if club is None:
        raise Http404(_("No such season."))
    season = get_object_or_404(Season.objects.select_related("club"), club=club, slug=slug)
    if not is_td(user, season.club):
        raise PermissionDenied(_("Only this club's tournament directors may do this."))
    return season


def round_for_td(request: HttpRequest, season_slug: str, number: int) -> Round:
    """Round ``number`` of the season ``season_slug`` of the club of the address, if the user
    may run it (:func:`season_for_td`), with its season and club; 404 for no such round."""
    season = season_for_td(request.user, season_slug, club=request_club(request))
    return get_object_or_404(
        Round.objects.select_related("season__club"), season=season, number=number
    )


class AuthenticatedRequest(HttpRequest):
    """The request of a view behind a login: ``request.user`` is a real user."""

    user: User
    club: Club | None


def request_club(request: HttpRequest) -> Club | None:
    """The club whose address (``/<club>/…``) the request is for; None for the site's own pages
    (competition.middleware.ClubAddressMiddleware)."""
    return getattr(request, "club", None)


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


_td_of_some_club = _logged_in_and(
    is_td_anywhere, gettext_lazy("Only tournament directors may run club evenings.")
)


def td_required(view: _View) -> _View:
    """Views for the TDs (and admins) of a club: at a club's address (``/<club>/td/…``) of that
    club; at the site's own address of some club. Which club's seasons is checked by the view
    too (``season_for_td``)."""

    @functools.wraps(view)
    def check_club(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        club = request_club(request)
        if club is not None and not is_td(request.user, club):
            raise PermissionDenied(_("Only this club's tournament directors may do this."))
        return view(request, *args, **kwargs)

    return cast(_View, _td_of_some_club(check_club))


_Args = ParamSpec("_Args")


def td_round_view(
    view: Callable[Concatenate[AuthenticatedRequest, Round, _Args], HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """A view of one round for the TDs of its club, at ``td/<season_slug>/<round_number>/…``: a
    login is needed (anonymous users are sent to it), then the view gets the round of the address
    (:func:`round_for_td`: 404 for no such round, 403 for someone else) instead of the season's
    slug and the round's number."""

    @functools.wraps(view)
    def with_round(
        request: AuthenticatedRequest,
        season_slug: str,
        round_number: int,
        *args: _Args.args,
        **kwargs: _Args.kwargs,
    ) -> HttpResponseBase:
        return view(request, round_for_td(request, season_slug, round_number), *args, **kwargs)

    return login_required(with_round)


def season_member(season: Season, member_id: int) -> Member:
    """A member who plays in ``season``, with his club and account; 404 otherwise."""
    return get_object_or_404(
        Member.objects.select_related("club", "user").distinct(),
        pk=member_id,
        participations__season=season,
    )


def season_participant(season: Season, member_id: int) -> Participant:
    """The participant of member ``member_id`` in ``season``, with the member; 404 otherwise."""
    return get_object_or_404(
        Participant.objects.select_related("member"), season=season, member_id=member_id
    )


def club_member(club: Club, member_id: int) -> Member:
    """Member ``member_id`` of ``club``; 404 for anyone else's."""
    return get_object_or_404(Member, pk=member_id, club=club)


def account_of(account_id: int) -> User:
    """The account ``account_id``; 404 when there is none."""
    return get_object_or_404(User, pk=account_id)
