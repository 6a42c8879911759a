"""The club admin's page: who runs the club's evenings and who are its admins, when the club's
evenings start, with links to what else a club admin sets (each season's rules, the embedding
on the club's own site)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from competition.forms.calendar import ClubEveningStartForm
from competition.forms.ratings import ClubRatingRulesForm
from competition.models import Club, Member, Season
from competition.permissions import AuthenticatedRequest, club_for_admin
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
    if club_group_id is None:
        return []
    users = User.objects.filter(groups__pk=club_group_id).order_by("username")
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
                member = get_object_or_404(Member, pk=_number(request, "member"), club=club)
                club_role_grant(club=club, member=member, role=role, user=request.user)
                messages.success(request, _("%(name)s has the role now.") % {"name": member.name})
            else:
                account = get_object_or_404(User, pk=_number(request, "account"))
                club_role_revoke(club=club, account=account, role=role, user=request.user)
                messages.success(request, _("The role is taken back."))
        except ServiceError as error:
            messages.error(request, str(error))
        return redirect("competition:club_admin")
    members = {
        m.user_id: m
        for m in Member.objects.filter(club=club, user__isnull=False).order_by("name")
        if m.user_id is not None
    }
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
            "seasons": Season.objects.filter(club=club).order_by("-start_date", "name"),
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
