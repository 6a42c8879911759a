"""The TD's pairing rules of a season: forbidden pairs (add with a note, remove) and the
settings the ladder pairing follows. Every write is a POST that redirects back with a message;
a refused or invalid post shows the page again with what was typed and what is wrong."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from competition.forms.pairing_rules import (
    ForbiddenPairForm,
    ForbiddenPairRemoveForm,
    PairingRulesForm,
)
from competition.models import Season
from competition.permissions import AuthenticatedRequest, season_for_td
from competition.selectors import pairing_rules as pairing_rules_selectors
from competition.selectors import participants as participants_selectors
from competition.services import pairing_rules
from competition.views.actions import posted_action, season_settings, season_settings_action


def _form_errors(form: forms.Form) -> list[str]:
    """Each error with the label of the field it belongs to, so the TD sees what is wrong."""
    said = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = f"{field.label}: " if field is not None and field.label else ""
        said += [f"{label}{message}" for message in errors]
    return said


def _add(request: AuthenticatedRequest, season: Season) -> forms.Form:
    form = ForbiddenPairForm(
        request.POST, players=participants_selectors.season_players(season=season)
    )
    if form.is_valid():
        pair = pairing_rules.forbidden_pair_add(
            season=season,
            first_id=form.cleaned_data["first"],
            second_id=form.cleaned_data["second"],
            note=form.cleaned_data["note"],
        )
        messages.success(
            request,
            _("%(first)s and %(second)s will not be paired against each other.")
            % {"first": pair.first.member.name, "second": pair.second.member.name},
        )
    return form


def _remove(request: AuthenticatedRequest, season: Season) -> forms.Form:
    form = ForbiddenPairRemoveForm(request.POST)
    if form.is_valid():
        pairing_rules.forbidden_pair_remove(season=season, pair_id=form.cleaned_data["pair"])
        messages.success(request, _("Forbidden pair removed."))
    return form


ACTIONS: dict[str, Callable[[AuthenticatedRequest, Season], forms.Form]] = {
    "add": _add,
    "remove": _remove,
    "settings": season_settings_action(
        PairingRulesForm,
        pairing_rules.season_pairing_rules_update,
        gettext_lazy("Pairing rules saved."),
    ),
}


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def td_pairing_rules(request: AuthenticatedRequest, season_slug: str) -> HttpResponse:
    """The season's forbidden pairs and pairing settings; only this club's TDs."""
    season = season_for_td(request.user, season_slug, club=request.club)
    players = participants_selectors.season_players(season=season)
    rebind = {
        "add": lambda: ForbiddenPairForm(request.POST, players=players),
        "settings": lambda: PairingRulesForm(request.POST),
    }
    bound = posted_action(
        request,
        season,
        ACTIONS,
        page="competition:td_pairing_rules",
        rebind=lambda name: rebind[name]() if name in rebind else None,
        errors=_form_errors,
    )
    if isinstance(bound, HttpResponse):
        return bound
    add_form = bound.get("add") or ForbiddenPairForm(players=players)
    settings_form = bound.get("settings") or PairingRulesForm(
        initial=season_settings(season, PairingRulesForm)
    )
    return render(
        request,
        "competition/td/pairing_rules.html",
        {
            "season": season,
            "pairs": pairing_rules_selectors.forbidden_pairs(season=season),
            "add_form": add_form,
            "settings_form": settings_form,
        },
    )
