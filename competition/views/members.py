"""The member's own page: his running seasons (coming evenings with his reports, tonight's
round, his results and place, his calendar address) and his settings.

Every write is a POST that redirects back (post/redirect/get) with a message.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from competition.forms.calendar import MemberPreferencesForm
from competition.permissions import AuthenticatedRequest
from competition.selectors import check_in as check_in_selectors
from competition.selectors import members as members_selectors
from competition.selectors import result_reports as report_selectors
from competition.services import privacy
from competition.views.actions import form_refused, service_done
from competition.views.feeds import _feed_url
from competition.views.push import push_settings


def _optional_url(name: str, *candidates: dict[str, Any]) -> str | None:
    """The URL of ``name`` with the first arguments that fit, or None when the project has no
    such URL (yet): pages built by others are linked only when they exist."""
    for kwargs in candidates or ({},):
        try:
            return reverse(name, kwargs=kwargs)
        except NoReverseMatch:
            continue
    return None


@require_safe
@login_required
def my_page(request: AuthenticatedRequest) -> HttpResponse:
    members = members_selectors.user_members(user=request.user)
    if not members:
        return render(request, "competition/member/no_member.html")
    seasons = members_selectors.my_seasons(user=request.user)
    check_ins = check_in_selectors.my_open_check_ins(
        rounds=[season.tonight.round for season in seasons if season.tonight is not None],
        user=request.user,
    )
    by_member = {member.pk: member for member in members}
    for season in seasons:  # one Member instance per member: its token is made once
        season.participant.member = by_member.get(
            season.participant.member_id, season.participant.member
        )
    return render(
        request,
        "competition/member/my_page.html",
        {
            # the page's club in the menu and the title, when all his member accounts share one
            "brand_club": members[0].club if len({m.club_id for m in members}) == 1 else None,
            "members": [
                (
                    member,
                    _optional_url("competition:member_profile", {"member_id": member.pk}),
                )
                for member in members
            ],
            "seasons": [
                (season, _feed_url(request, season.participant.member, season.season))
                for season in seasons
            ],
            "check_ins": check_ins,
            "data_url": _optional_url("competition:my_data"),
            # tonight's board where the players enter results, by season id
            "result_reports": report_selectors.my_result_reports(user=request.user),
            "push": push_settings(request, members),
            "preferences": [
                (
                    member,
                    MemberPreferencesForm(
                        initial={
                            "email": member.email,
                            "notify_pairing": member.notify_pairing,
                            "notify_correction": member.notify_correction,
                            "name_display": member.name_display,
                        },
                        auto_id=f"id_%s_{member.pk}",
                    ),
                )
                for member in members
            ],
        },
    )


@require_POST
@login_required
def my_preferences(request: AuthenticatedRequest, member_id: int) -> HttpResponse:
    """Save a member's own settings (e-mail, mails, name in public); only his own members."""
    member = next(
        (m for m in members_selectors.user_members(user=request.user) if m.pk == member_id), None
    )
    if member is None:
        raise PermissionDenied(_("You can only change your own settings."))
    form = MemberPreferencesForm(request.POST)
    if form_refused(request, form):
        return redirect(reverse("competition:my_page") + "#settings")
    service_done(
        request,
        lambda: privacy.member_preferences_set(
            member=member, user=request.user, **form.cleaned_data
        ),
        lambda _done: _("Your settings are saved."),
    )
    return redirect(reverse("competition:my_page") + "#settings")
