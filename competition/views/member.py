"""The member's own pages and the TD's calendar of club evenings.

- ``my_page``: the member's running seasons: coming evenings with his reports ("I can't come",
  "I ask for a bye", "Take back"), tonight's round, his results and place, his calendar address.
- ``my_evening_report`` / ``my_evening_withdraw``: a report for one evening, for himself only
  (the participant is found from ``request.user`` in the evening's season).
- ``member_feed``: the private iCal feed (no login: the address's token is the key).
- ``td_calendar``: the TD's calendar of a season's evenings, the reports, the deadline.

Every write is a POST that redirects back (post/redirect/get) with a message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from competition.clubs import club_url
from competition.formats.ical import calendar_text
from competition.forms.calendar import (
    AbsenceReportForm,
    AbsenceSettingsForm,
    EveningAddForm,
    EveningDeleteForm,
    EveningsImportForm,
    MemberPreferencesForm,
    PlannedRoundsForm,
)
from competition.forms.result_reports import ResultEntryForm
from competition.models import ClubEvening, Member, Participant, Season
from competition.permissions import (
    AuthenticatedRequest,
    found,
    present,
    request_club,
    season_for_td,
)
from competition.selectors import absences as absences_selectors
from competition.selectors import check_in as check_in_selectors
from competition.selectors import evenings as evenings_selectors
from competition.selectors import feeds as feeds_selectors
from competition.selectors import members as members_selectors
from competition.selectors import result_reports as report_selectors
from competition.services import absences, feeds, privacy, result_reports
from competition.services.errors import ServiceError
from competition.views.actions import (
    form_refused,
    posted_action,
    season_settings,
    season_settings_action,
    service_done,
)
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


# --- my page ---------------------------------------------------------------------------------


def _feed_url(request: HttpRequest, member: Member, season: Season) -> str:
    token = member.feed_token or feeds.member_feed_token(member=member)
    path = club_url(
        season.club.slug,
        "competition:member_feed",
        kwargs={"token": token, "season_slug": season.slug},
    )
    return request.build_absolute_uri(path)


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


def _my_participant(
    request: AuthenticatedRequest, evening_id: int
) -> tuple[ClubEvening, Participant]:
    """The evening and the user's own participant in its season: 403 for a user without a
    member account or not playing in that season, 404 for no such evening."""
    if not members_selectors.user_members(user=request.user):
        raise PermissionDenied(_("Only members with an account can report."))
    evening, participant = found(
        lambda: absences_selectors.evening_for_user(user=request.user, evening_id=evening_id),
        ClubEvening.DoesNotExist,
        _("No such club evening."),
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


@require_POST
@login_required
def my_feed_renew(request: AuthenticatedRequest) -> HttpResponse:
    """New calendar addresses for all the user's members: the old ones stop working."""
    members = members_selectors.user_members(user=request.user)
    if not members:
        raise PermissionDenied(_("Only members with an account have a calendar address."))
    for member in members:
        feeds.member_feed_token_renew(member=member)
    messages.success(
        request,
        _("Your calendar has a new address; the old one no longer works. Subscribe again."),
    )
    return redirect(reverse("competition:my_page") + "#calendar")


# --- the private calendar feed ---------------------------------------------------------------


@require_safe
def member_feed(request: HttpRequest, token: str, season_slug: str) -> HttpResponse:
    member = present(feeds_selectors.feed_member(token=token), _("No such calendar."))
    participant = present(
        feeds_selectors.feed_participant(
            member=member, season_slug=season_slug, club=request_club(request)
        ),
        _("No such calendar."),
    )
    host, _port = split_domain_port(request.get_host())
    text = calendar_text(
        feeds_selectors.feed_events(participant=participant, domain=host or "clubcomp"),
        name=participant.season.name,
        stamp=timezone.now(),
    )
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{participant.season.slug}.ics"'
    response["Cache-Control"] = "private, max-age=900"
    response["X-Robots-Tag"] = "noindex"
    return response


# --- the TD's calendar -----------------------------------------------------------------------


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
