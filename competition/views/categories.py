"""Categories, prizes and periods: a public page per category (its ranking and
prizes, CSV and XLSX) and per period (its ranking from its own games and its champion), both
linked from the standings and cached like them; and the TD's page that edits them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from competition.forms.categories import CategoryForm, CategoryRemoveForm, PrizeSettingsForm
from competition.models import Category, Season
from competition.permissions import (
    AuthenticatedRequest,
    category_found,
    found,
    season_for_td,
    season_of_address,
)
from competition.selectors import categories as selectors
from competition.selectors import participants as participants_selectors
from competition.services import categories as services
from competition.views.actions import posted_action, season_settings_action
from competition.views.page_cache import _cached_body, _page, _round_param, anonymous_page_cache
from competition.views.standings import (
    _export_format,
    _export_response,
    _standings_legend,
    _standings_table,
)

# --------------------------------------------------------------------------------------------
# Public pages


def _export_headers() -> dict[str, str]:
    return {
        "rank": _("Place"),
        "start_number": capfirst(_("start number")),
        "name": _("Name"),
        "points": _("Pts"),
        "score": _("Score"),
        "games": _("Games"),
        "eligible": _("Prize"),
        "award": _("Won"),
        "fingerprint": _("Fingerprint"),
        "rules_version": capfirst(_("rules version")),
    }


def _export(document: dict[str, Any], export_format: str, filename: str) -> HttpResponse:
    return _export_response(
        document, export_format, headers=_export_headers(), filename=f"{filename}.{export_format}"
    )


@require_safe
@anonymous_page_cache(keep=("round",))
def category(request: HttpRequest, slug: str, category_id: int) -> HttpResponse:
    """A category's ranking (the standings filtered, places renumbered) with its prizes."""
    season = season_of_address(request, slug)
    if export_format := _export_format(request):
        document = category_found(
            lambda: selectors.category_document(
                season=season, category_id=category_id, after_round=_round_param(request)
            )
        )
        return _export(document, export_format, f"{season.slug}-{document['category']}")

    def build() -> SafeString:
        data = category_found(
            lambda: selectors.category_page(
                season=season, category_id=category_id, after_round=_round_param(request)
            )
        )
        return render_to_string(
            "competition/_category.html", {"season": season, "data": data}, request=request
        )

    body = _cached_body(request, season, f"category:{category_id}", build, keep=("round",))
    return _page(request, "competition/category.html", season, body, tab="standings")


@require_safe
@anonymous_page_cache(keep=("sort",))
def period(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A period's ranking from its own games, and its champion."""
    season = season_of_address(request, slug)
    if export_format := _export_format(request):
        document = found(
            lambda: selectors.period_document(season=season, number=number),
            LookupError,
            _("No such period."),
        )
        return _export(document, export_format, f"{season.slug}-period-{number}")

    def build() -> SafeString:
        data = found(
            lambda: selectors.period_page(season=season, number=number),
            LookupError,
            _("No such period."),
        )
        standings = data.standings
        table = _standings_table(request, season, standings) if standings.rows else None
        legend = _standings_legend(season, standings, table) if table is not None else None
        return render_to_string(
            "competition/_period.html",
            {"season": season, "data": data, "table": table, "legend": legend},
            request=request,
        )

    body = _cached_body(request, season, f"period:{number}", build, keep=("sort",))
    return _page(request, "competition/period.html", season, body, tab="standings")


# --------------------------------------------------------------------------------------------
# The TD's page


def _fields(form: CategoryForm) -> services.CategoryFields:
    data = form.cleaned_data
    return services.CategoryFields(
        name=data["name"],
        kind=data["kind"],
        rating_from=data["rating_from"],
        rating_below=data["rating_below"],
        unrated=data["unrated"],
        born_from=data["born_from"],
        born_to=data["born_to"],
        prizes=data["prizes"],
        most_improved=data["most_improved"],
        chosen=tuple(data["chosen"]),
        order=data["order"],
    )


def _bound_category_form(
    request: AuthenticatedRequest, players: list[tuple[int, str]]
) -> CategoryForm:
    """The posted category form: each category's form on the page has its own prefix ("new",
    or "c<id>"), named by the posted ``form``."""
    prefix = request.POST.get("form", "new")
    if not re.fullmatch(r"new|c[0-9]{1,10}", prefix):
        prefix = "new"
    return CategoryForm(request.POST, players=players, prefix=prefix)


def _save(request: AuthenticatedRequest, season: Season) -> forms.Form:
    form = _bound_category_form(request, participants_selectors.season_players(season=season))
    if form.is_valid():
        category_id = form.cleaned_data["category"]
        if category_id:
            saved = services.category_change(
                season=season, category_id=category_id, fields=_fields(form)
            )
        else:
            saved = services.category_add(season=season, fields=_fields(form))
        messages.success(request, _("Category %(name)s saved.") % {"name": saved.name})
    return form


def _remove(request: AuthenticatedRequest, season: Season) -> forms.Form:
    form = CategoryRemoveForm(request.POST)
    if form.is_valid():
        services.category_remove(season=season, category_id=form.cleaned_data["category"])
        messages.success(request, _("Category removed."))
    return form


ACTIONS: dict[str, Callable[[AuthenticatedRequest, Season], forms.Form]] = {
    "save": _save,
    "remove": _remove,
    "settings": season_settings_action(
        PrizeSettingsForm, services.season_prizes_update, gettext_lazy("Periods and prizes saved.")
    ),
}


def _category_form(category: Category, players: list[tuple[int, str]]) -> CategoryForm:
    return CategoryForm(
        players=players,
        prefix=f"c{category.pk}",
        initial={
            "category": category.pk,
            "name": category.name,
            "order": category.order,
            "kind": category.kind,
            "rating_from": category.rating_from,
            "rating_below": category.rating_below,
            "unrated": category.unrated,
            "born_from": category.born_from,
            "born_to": category.born_to,
            "prizes": category.prizes,
            "most_improved": category.most_improved,
            "chosen": [p.pk for p in category.chosen.all()],
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def td_categories(request: AuthenticatedRequest, season_slug: str) -> HttpResponse:
    """The season's categories with their prizes, and its periods; only this club's TDs."""
    season = season_for_td(request.user, season_slug, club=request.club)
    players = participants_selectors.season_players(season=season)
    bound = posted_action(
        request,
        season,
        ACTIONS,
        page="competition:td_categories",
        rebind=lambda name: (
            _bound_category_form(request, players)
            if name == "save"
            else PrizeSettingsForm(request.POST)
            if name == "settings"
            else None
        ),
    )
    if isinstance(bound, HttpResponse):
        return bound
    categories = selectors.season_categories(season=season)
    editing = bound.get("save")
    edited = editing.prefix if isinstance(editing, CategoryForm) else None
    category_forms = [
        (
            category,
            selectors.category_description(category=category),
            selectors.prizes_description(category=category),
            editing if edited == f"c{category.pk}" else _category_form(category, players),
        )
        for category in categories
    ]
    new_form = editing if edited == "new" else CategoryForm(players=players, prefix="new")
    settings_form = bound.get("settings") or PrizeSettingsForm(
        initial={
            "period_ends": ", ".join(str(end) for end in season.period_ends or ()),
            "several_prizes": season.several_prizes,
        }
    )
    return render(
        request,
        "competition/td/categories.html",
        {
            "season": season,
            "categories": category_forms,
            "new_form": new_form,
            "settings_form": settings_form,
            "periods": selectors.season_periods(season=season),
        },
    )
