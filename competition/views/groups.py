"""Groups with promotion and relegation: the group competition's public page, the
TD's page that starts one (its settings and players, put in groups by rating) and the TD's page
that ends a period (a preview of who goes up and down, then one button).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from competition.forms.evening import DateInput
from competition.forms.groups import GroupCompetitionForm
from competition.permissions import (
    AuthenticatedRequest,
    clubs_run_by,
    group_competition_of_address,
    is_td,
)
from competition.scoring import groups as group_rules
from competition.selectors import groups as selectors
from competition.services import groups as services
from competition.services.errors import ServiceError
from competition.views.actions import service_done


@require_safe
def group_competition(request: HttpRequest, group_slug: str) -> HttpResponse:
    """Every period's groups with their standings, who goes up or down, and the champion."""
    competition = group_competition_of_address(request, group_slug)
    page = selectors.group_competition_page(competition=competition)
    return render(request, "competition/groups.html", {"page": page, "competition": competition})


class PromoteForm(forms.Form):
    start_date = forms.DateField(
        label=gettext_lazy("First evening of the next period"), required=False, widget=DateInput()
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def td_groups(request: AuthenticatedRequest, group_slug: str) -> HttpResponse:
    """The preview of the moves after the current period and the button that makes them."""
    competition = group_competition_of_address(request, group_slug)
    if not is_td(request.user, competition.club):
        raise PermissionDenied(_("Only this club's tournament directors may do this."))
    form = PromoteForm(request.POST if request.method == "POST" else None)
    if (
        request.method == "POST"
        and form.is_valid()
        and service_done(
            request,
            lambda: services.groups_promote(
                competition=competition, start_date=form.cleaned_data["start_date"]
            ),
            lambda created: (
                _("Period %(period)s has started with %(groups)s groups.")
                % {"period": created[0].group_period, "groups": len(created)}
            ),
        )
    ):
        return redirect("competition:group_competition", group_slug=competition.slug)
    preview, refusal = None, ""
    try:
        preview = services.groups_promotion_preview(competition=competition)
    except ServiceError as error:
        refusal = str(error)
    rows = []
    if preview is not None:
        for group, following in zip(preview.groups, preview.next_groups, strict=True):
            rows.append(
                {
                    "letter": group.season.group_letter,
                    "players": [
                        (preview.names[p], preview.moves[p]) for p in group.standing.players
                    ],
                    "next": [preview.names[p] for p in following.players],
                }
            )
    return render(
        request,
        "competition/td/groups.html",
        {
            "competition": competition,
            "preview": preview,
            "rows": rows,
            "refusal": refusal,
            "form": form,
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def td_group_new(request: AuthenticatedRequest) -> HttpResponse:
    """A new group competition: the first period's groups are made at once."""
    clubs = clubs_run_by(request.user, within=request.club)
    if not clubs.exists():
        raise PermissionDenied(_("Only a club's tournament directors may do this."))
    form = GroupCompetitionForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        by_rating = sorted(
            data["members"], key=lambda m: (m.rating is None, -(m.rating or 0), m.name)
        )
        try:
            ids = group_rules.split_into_groups([m.pk for m in by_rating], data["groups"])
            member_of = {m.pk: m for m in by_rating}
            competition = services.group_competition_create(
                club=data["club"],
                name=data["name"],
                slug=data["slug"],
                groups=[[member_of[pk] for pk in group] for group in ids],
                season_fields={"kind": data["kind"], "system": data["system"]},
                periods=data["periods"],
                rounds_per_period=data["rounds_per_period"],
                promoted=data["promoted"],
                relegated=data["relegated"],
                champion_rule=data["champion_rule"],
                start_date=data["start_date"],
            )
        except (ServiceError, ValueError) as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _("%(name)s has started with %(groups)s groups.")
                % {"name": competition.name, "groups": data["groups"]},
            )
            return redirect("competition:group_competition", group_slug=competition.slug)
    return render(request, "competition/td/group_new.html", {"form": form})
