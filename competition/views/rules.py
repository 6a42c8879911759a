"""A season's rules: how they work (the system, its parameters, a worked example), the systems
side by side (both public and cached, :mod:`competition.views.page_cache`), and the club
admin's rules page with a preview of what new rules would change.

Only the club's admins (``permissions.is_club_admin``) edit rules: anonymous visitors are sent
to the login page, other users get 403. The view validates the form and calls one
service.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from competition.forms.rules import SeasonRulesForm
from competition.permissions import AuthenticatedRequest, is_club_admin, season_of_address
from competition.presentation import numbers
from competition.presentation.descriptions import system_in_words
from competition.presentation.labels import (
    figure_label,
    parameter_label,
    system_description,
    system_name,
)
from competition.scoring.registry import get_system
from competition.selectors import categories as category_selectors
from competition.selectors import rules as rules_selectors
from competition.selectors import series as series_selectors
from competition.selectors import systems as systems_selectors
from competition.selectors.rules import rule_history
from competition.services.errors import ServiceError
from competition.services.rules import rules_preview, rules_save
from competition.views.page_cache import _cached_body, _page, anonymous_page_cache
from competition.views.participants import _participant_context


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


@require_safe
@anonymous_page_cache(keep=())
def how_it_works(request: HttpRequest, slug: str) -> HttpResponse:
    season = season_of_address(request, slug)

    def build() -> SafeString:
        data = rules_selectors.how_it_works(season=season)
        language = get_language() or "nl"
        context: dict[str, Any] = {
            "season": season,
            "data": data,
            "system_name": system_name(data.system, language),
            "description": system_description(data.system, language),
            "in_words": system_in_words(
                data.system.key,
                {spec.name: value for spec, value in data.parameters},
                participants=data.participants,
                language=language,
            ),
            "parameters": [
                (
                    parameter_label(spec, language),
                    value,
                    "word" if spec.words and isinstance(value, str) else spec.kind.value,
                )
                for spec, value in data.parameters
            ],
            "tiebreaks": [(code, figure_label(code, language)) for code in data.tiebreak_codes],
            "unplayed_policy": season.get_unplayed_policy_display(),
            "rule_changes": rules_selectors.rule_changes(season=season),
            "shown_rules_version": season.rules_version,
            "forbidden_pair_count": data.forbidden_pairs,
        }
        # the season's categories, prizes and periods with their own values
        context.update(category_selectors.categories_explained(season=season))
        # a rapid series: evenings, evening points and the best N
        context["series_rules"] = (
            series_selectors.series_rules(season=season) if season.is_rapid_series else None
        )
        if data.example is not None:
            context.update(
                {
                    f"example_{k}": v
                    for k, v in _participant_context(season, data.example, examples=True).items()
                }
            )
            # Keizer: the worked sentence takes the leader's first game over the board.
            context["example_game"] = next(
                (
                    line
                    for section in data.example.sections
                    if section.code == "KEIZER"
                    for line in section.lines
                    if line.opponent_id is not None
                ),
                None,
            )
        return render_to_string("competition/_how_it_works.html", context)

    body = _cached_body(request, season, "how", build, keep=(), tab="how")
    return _page(request, "competition/how_it_works.html", season, body, tab="how")


@require_safe
@anonymous_page_cache(keep=())
def systems(request: HttpRequest, slug: str) -> HttpResponse:
    season = season_of_address(request, slug)

    def build() -> SafeString:
        data = systems_selectors.systems_compared(season=season)
        language = get_language() or "nl"
        headers = [
            (key, system_name(get_system(key), language), code) for key, code in data.systems
        ]
        return render_to_string(
            "competition/_systems.html",
            {
                "season": season,
                "data": data,
                "headers": headers,
                "primary_labels": {key: figure_label(code, language) for key, code in data.systems},
                # Each system's score column in one style (7½, or the same decimals).
                "score_styles": {
                    key: numbers.column_style(
                        (row["scores"].get(key) for row in data.rows),
                        points=numbers.is_points(code),
                    )
                    for key, code in data.systems
                },
                "points_tiebreaks": ", ".join(data.points_tiebreaks),
                "disagreements": sum(row["differs"] for row in data.rows),
            },
        )

    body = _cached_body(request, season, "systems", build, keep=(), tab="systems")
    return _page(request, "competition/systems.html", season, body, tab="systems")
