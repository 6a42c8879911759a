"""Staff pages: a season's rules with a preview of what they would change.

Only the club's admins (``permissions.is_club_admin``) edit rules: anonymous visitors are sent
to the login page, other users get 403. The view validates the form and calls one
service.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from competition.forms.rules import SeasonRulesForm
from competition.permissions import AuthenticatedRequest, is_club_admin, season_of_address
from competition.selectors.rules import rule_history
from competition.services.errors import ServiceError
from competition.services.rules import rules_preview, rules_save


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def season_rules(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    """GET: the form. POST "preview": the standings under the new rules beside the current ones
    and what a game of the next round would give under both, above the form, nothing saved.
    POST "save": the new rules in force, the earlier ones kept."""
    season = season_of_address(request, slug)
    if not is_club_admin(request.user, season.club):
        raise PermissionDenied(_("Only this club's admins may change a season's rules."))
    preview = None
    form = SeasonRulesForm(request.POST or None, season=season)
    if request.method == "POST" and form.is_valid():
        try:
            rule_changes = form.cleaned_data.get("rule_changes") or season.rule_changes
            if "save" in request.POST:
                season = rules_save(
                    season=season, rules=form.rules, user=request.user, rule_changes=rule_changes
                )
                if season.rules_from_round > 1:
                    messages.success(
                        request,
                        _(
                            "The new rules are in force from round %(round)s on; the rounds "
                            "before keep their values."
                        )
                        % {"round": season.rules_from_round},
                    )
                else:
                    messages.success(
                        request, _("The new rules are in force; the earlier ones are kept.")
                    )
                return redirect(reverse("competition:standings", kwargs={"slug": season.slug}))
            preview = rules_preview(season=season, rules=form.rules, rule_changes=rule_changes)
        except ServiceError as error:
            form.add_error(None, str(error))
    return render(
        request,
        "competition/season_rules.html",
        {
            "season": season,
            "form": form,
            "preview": preview,
            "history": rule_history(season=season),
            "tab": "rules",
        },
    )
