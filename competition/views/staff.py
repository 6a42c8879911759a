"""Staff pages: a season's rules with a preview of what they would change.

Only staff users (``is_staff``) edit rules: anonymous visitors are sent to the login page,
other users get 403. The view validates the form and calls one service.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from competition import selectors
from competition.forms.rules import SeasonRulesForm
from competition.models import Season
from competition.services.errors import ServiceError
from competition.services.rules import rule_history, rules_preview, rules_save
from competition.tables import RulesPreviewTable


def season_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the form. POST "preview": the standings under the new rules beside the current ones,
    nothing saved. POST "save": the new rules in force, the earlier ones kept."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not (request.user.is_active and request.user.is_staff):
        raise PermissionDenied(_("Only staff may change a season's rules."))
    try:
        season = selectors.season_get(slug=slug)
    except Season.DoesNotExist:
        raise Http404(_("No such season.")) from None
    preview = None
    table = None
    form = SeasonRulesForm(request.POST or None, season=season)
    if request.method == "POST" and form.is_valid():
        try:
            if "save" in request.POST:
                rules_save(season=season, rules=form.rules, user=request.user)
                messages.success(
                    request, _("The new rules are in force; the earlier ones are kept.")
                )
                return redirect(reverse("competition:standings", kwargs={"slug": season.slug}))
            preview = rules_preview(season=season, rules=form.rules)
            table = RulesPreviewTable(
                [
                    {
                        "name": row.name,
                        "current_rank": row.current_rank,
                        "current_score": row.current_score,
                        "new_rank": row.new_rank,
                        "new_score": row.new_score,
                        "moved": row.moved,
                    }
                    for row in preview.rows
                ]
            )
        except ServiceError as error:
            form.add_error(None, str(error))
    elif request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405)
    return render(
        request,
        "competition/season_rules.html",
        {
            "season": season,
            "form": form,
            "preview": preview,
            "table": table,
            "history": rule_history(season=season),
            "tab": "rules",
        },
    )
