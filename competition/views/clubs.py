"""A club: its home page (or, at the site's own address, the directory of clubs), the language
switch, and the club admin's page: who runs the club's evenings and who are its admins, when the
club's evenings start, with links to what else a club admin sets (each season's rules, the
embedding on the club's own site)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from competition.forms.calendar import ClubEveningStartForm
from competition.forms.ratings import ClubRatingRulesForm
from competition.models import Club, Member
from competition.permissions import (
    AuthenticatedRequest,
    account_of,
    club_for_admin,
    club_member,
    request_club,
)
from competition.selectors import clubs as clubs_selectors
from competition.selectors import groups as group_selectors
from competition.selectors.accounts import club_accounts, club_seasons, group_accounts
from competition.selectors.evenings import club_next_evening
from competition.selectors.ratings import club_rating_rules
from competition.services.clubs import (
    ClubRole,
    club_evening_start_set,
    club_role_grant,
    club_role_revoke,
)
from competition.services.errors import ServiceError
from competition.views.actions import form_refused, service_done

_ROLES = (ClubRole.TD, ClubRole.ADMIN)


def _holders(club_group_id: int | None, members: dict[int, Member]) -> list[tuple[User, str]]:
    """The accounts in a role group, each with the member's name where it is a member's."""
    users = group_accounts(group_id=club_group_id)
    return [(u, members[u.pk].name if u.pk in members else u.get_username()) for u in users]


def _number(request: AuthenticatedRequest, key: str) -> int:
    """The id the form sent under ``key``; 0 (found nowhere: 404) for anything else."""
    value = request.POST.get(key, "")
    return int(value) if value.isdigit() else 0


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_admin(request: AuthenticatedRequest) -> HttpResponse:
    club = club_for_admin(
        request, refusal=_("Only the club's admins can change which sites embed its pages.")
    )
    if request.method == "POST" and request.POST.get("action") == "evening_start":
        return _evening_start(request, club)
    if request.method == "POST":
        role = request.POST.get("role", "")
        try:
            if role not in _ROLES:
                raise ServiceError(_("Unknown role."))
            if request.POST.get("action") == "grant":
                member = club_member(club, _number(request, "member"))
                club_role_grant(club=club, member=member, role=role, user=request.user)
                messages.success(request, _("%(name)s has the role now.") % {"name": member.name})
            else:
                account = account_of(_number(request, "account"))
                club_role_revoke(club=club, account=account, role=role, user=request.user)
                messages.success(request, _("The role is taken back."))
        except ServiceError as error:
            messages.error(request, str(error))
        return redirect("competition:club_admin")
    members = club_accounts(club=club)
    roles = []
    for role, title, group_id in (
        (ClubRole.TD, _("Tournament directors"), club.td_group_id),
        (ClubRole.ADMIN, _("Club admins"), club.admin_group_id),
    ):
        holders = _holders(group_id, members)
        held = {account.pk for account, _name in holders}
        candidates = [m for m in members.values() if m.user_id not in held]
        roles.append((role, title, holders, candidates))
    return render(
        request,
        "competition/club/admin.html",
        {
            "club": club,
            "roles": roles,
            "seasons": club_seasons(club=club),
            "start_form": ClubEveningStartForm(initial={"evening_start": club.evening_start}),
            "rating_form": ClubRatingRulesForm(instance=club_rating_rules(club=club)),
        },
    )


def _evening_start(request: AuthenticatedRequest, club: Club) -> HttpResponse:
    form = ClubEveningStartForm(request.POST)
    if form_refused(request, form):
        return redirect("competition:club_admin")
    start = form.cleaned_data["evening_start"]
    service_done(
        request,
        lambda: club_evening_start_set(club=club, evening_start=start, user=request.user),
        lambda _done: _("The club evenings start at %(time)s.") % {"time": f"{start:%H:%M}"},
    )
    return redirect("competition:club_admin")


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """A club's home page (its running seasons with their latest standings, its next evening,
    its group competitions), or at the site's own address the directory of clubs."""
    club = request_club(request)
    if club is None:
        return render(
            request, "competition/clubs.html", {"clubs": clubs_selectors.club_directory()}
        )
    return render(
        request,
        "competition/home.html",
        {
            "club": club,
            "summaries": clubs_selectors.season_summaries(club=club),
            "next_evening": club_next_evening(club=club, today=timezone.localdate()),
            # competitions played in groups, each linking to its page
            "group_competitions": group_selectors.group_competitions_listed(club=club),
        },
    )


@never_cache
@require_safe
def language(request: HttpRequest) -> HttpResponse:
    """The language switch: ``?language=en&next=/season/…/`` sets the language cookie the way
    Django's ``set_language`` does and goes back to ``next``.

    A GET, so that the pages carry plain links instead of a form with a CSRF token (which would
    tie a cached page to one reader). An unknown code leaves the cookie alone; a ``next``
    pointing off this site (or missing) leads to the home page.
    """
    next_url = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        url=next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    code = request.GET.get("language", "")
    if code in dict(settings.LANGUAGES) and check_for_language(code):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response
