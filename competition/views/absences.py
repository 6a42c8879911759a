"""A member's report for one evening ("I can't come", "I ask for a bye") and taking it back,
for himself only: the participant is found from ``request.user`` in the evening's season."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competition.forms.calendar import AbsenceReportForm
from competition.models import ClubEvening, Participant
from competition.permissions import AuthenticatedRequest, evening_found
from competition.selectors import absences as absences_selectors
from competition.selectors import members as members_selectors
from competition.services import absences
from competition.views.actions import form_refused, service_done


def _my_participant(
    request: AuthenticatedRequest, evening_id: int
) -> tuple[ClubEvening, Participant]:
    """The evening and the user's own participant in its season: 403 for a user without a
    member account or not playing in that season, 404 for no such evening."""
    if not members_selectors.user_members(user=request.user):
        raise PermissionDenied(_("Only members with an account can report."))
    evening, participant = evening_found(
        lambda: absences_selectors.evening_for_user(user=request.user, evening_id=evening_id)
    )
    if participant is None:
        raise PermissionDenied(_("You do not play in this season."))
    return evening, participant


@require_POST
@login_required
def my_evening_report(request: AuthenticatedRequest, evening_id: int) -> HttpResponse:
    evening, participant = _my_participant(request, evening_id)
    form = AbsenceReportForm(request.POST)
    if form_refused(request, form):
        return redirect("competition:my_page")
    service_done(
        request,
        lambda: absences.absence_report(
            evening=evening,
            participant=participant,
            user=request.user,
            kind=form.cleaned_data["kind"],
            note=form.cleaned_data["note"],
        ),
        lambda report: (
            _("%(date)s: “%(report)s” reported.")
            % {"date": _day(evening), "report": report.get_kind_display()}
        ),
    )
    return redirect("competition:my_page")


@require_POST
@login_required
def my_evening_withdraw(request: AuthenticatedRequest, evening_id: int) -> HttpResponse:
    evening, participant = _my_participant(request, evening_id)
    service_done(
        request,
        lambda: absences.absence_withdraw(
            evening=evening, participant=participant, user=request.user
        ),
        lambda _done: _("%(date)s: report taken back.") % {"date": _day(evening)},
    )
    return redirect("competition:my_page")


def _day(evening: ClubEvening) -> str:
    return date_format(evening.date, "l j F")
