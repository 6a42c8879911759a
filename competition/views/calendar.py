"""The TD's calendar of a season's club evenings: adding, importing and deleting evenings, the
reports, the deadline for them (several small forms, :mod:`competition.views.actions`)."""

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

from competition.forms.calendar import (
    AbsenceSettingsForm,
    EveningAddForm,
    EveningDeleteForm,
    EveningsImportForm,
    PlannedRoundsForm,
)
from competition.forms.result_reports import ResultEntryForm
from competition.models import Season
from competition.permissions import AuthenticatedRequest, season_for_td
from competition.selectors import evenings as evenings_selectors
from competition.services import absences, result_reports
from competition.services.errors import ServiceError
from competition.views.absences import _day
from competition.views.actions import posted_action, season_settings, season_settings_action


def _calendar_add(request: AuthenticatedRequest, season: Season) -> forms.Form:
    form = EveningAddForm(request.POST)
    if form.is_valid():
        (evening,) = absences.evenings_add(
            season=season, dates=[form.cleaned_data["date"]], note=form.cleaned_data["note"]
        )
        messages.success(
            request,
            _("%(date)s added (round %(round)s).")
            % {"date": _day(evening), "round": evening.round_number},
        )
    return form


def _calendar_import(request: AuthenticatedRequest, season: Season) -> forms.Form:
    form = EveningsImportForm(request.POST, season=season)
    if form.is_valid():
        added = absences.evenings_add(season=season, dates=form.cleaned_data["dates"])
        messages.success(request, _("%(count)s evenings added.") % {"count": len(added)})
    return form


def _calendar_delete(request: AuthenticatedRequest, season: Season) -> forms.Form:
    form = EveningDeleteForm(request.POST)
    if form.is_valid():
        evening = evenings_selectors.season_evening(
            season=season, evening_id=form.cleaned_data["evening"]
        )
        if evening is None:
            raise ServiceError(_("This evening is no longer in the calendar."))
        absences.evening_delete(evening=evening)
        messages.success(request, _("%(date)s taken off the calendar.") % {"date": _day(evening)})
    return form


CALENDAR_FORMS: dict[str, type[forms.Form]] = {
    "add": EveningAddForm,
    "import": EveningsImportForm,
    "delete": EveningDeleteForm,
    "settings": AbsenceSettingsForm,
    "planned": PlannedRoundsForm,
    "results": ResultEntryForm,
}


CALENDAR_ACTIONS: dict[str, Callable[[AuthenticatedRequest, Season], forms.Form]] = {
    "add": _calendar_add,
    "import": _calendar_import,
    "delete": _calendar_delete,
    "settings": season_settings_action(
        AbsenceSettingsForm,
        absences.season_absence_settings_update,
        gettext_lazy("Report settings saved."),
    ),
    "planned": season_settings_action(
        PlannedRoundsForm,
        absences.season_planned_rounds_update,
        gettext_lazy("Planned rounds saved; the chances are being recomputed."),
    ),
    "results": season_settings_action(
        ResultEntryForm,
        result_reports.season_result_entry_update,
        gettext_lazy("Saved who enters the results."),
    ),
}


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def td_calendar(request: AuthenticatedRequest, season_slug: str) -> HttpResponse:
    """The season's club evenings with the members' reports; add, import, delete evenings;
    the deadline for reports and whether members may ask for a bye; the planned rounds; who
    enters the results.

    A refused or invalid post shows the page again with what was typed (nothing saved)."""
    season = season_for_td(request.user, season_slug, club=request.club)
    bound = posted_action(
        request,
        season,
        CALENDAR_ACTIONS,
        page="competition:td_calendar",
        rebind=lambda name: CALENDAR_FORMS[name](request.POST),
    )
    if isinstance(bound, HttpResponse):
        return bound
    return render(
        request,
        "competition/td/calendar.html",
        {
            "season": season,
            "rows": evenings_selectors.season_calendar(season=season),
            "add_form": bound.get("add") or EveningAddForm(),
            "import_form": bound.get("import") or EveningsImportForm(),
            "settings_form": bound.get("settings")
            or AbsenceSettingsForm(initial=season_settings(season, AbsenceSettingsForm)),
            "planned_form": bound.get("planned")
            or PlannedRoundsForm(initial=season_settings(season, PlannedRoundsForm)),
            "result_entry_form": bound.get("results")
            or ResultEntryForm(initial=season_settings(season, ResultEntryForm)),
        },
    )
