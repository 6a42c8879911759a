"""The tournament director's club evening: the desk, starting an evening, attendance, the
latecomers and the pairing (the draft and the TD's changes to it).

Every view needs a login (Django's ``login_required``: anonymous users are sent to it) and TD
rights for the season's club (others get 403). Views validate a form and call one service.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from competition.clubs import club_url
from competition.forms.evening import (
    ATTENDANCE_LABELS,
    ATTENDANCE_SHORT,
    AttendanceForm,
    ByeForm,
    EveningStartForm,
    FixForm,
    LatecomerForm,
    LeavesForm,
    ProposeForm,
    SwapForm,
)
from competition.models import PRESENT, Round
from competition.permissions import AuthenticatedRequest, named_in, td_required, td_round_view
from competition.selectors import absences as absences_selectors
from competition.selectors import clubs as clubs_selectors
from competition.selectors import evening as evening_selectors
from competition.selectors import rounds as rounds_selectors
from competition.selectors.pairing_page import pairing_page
from competition.services import evening, leaving
from competition.services.errors import ServiceError
from competition.services.rounds import round_create
from competition.views.actions import form_refused, service_done
from competition.views.check_in import attendance_check_in
from competition.views.rounds import _refuse, _round_url


@require_safe
@td_required
def td_home(request: AuthenticatedRequest) -> HttpResponse:
    if request.club is None:
        # the site's /td/ for a TD of several clubs: which club's evening?
        clubs = clubs_selectors.td_clubs(user=request.user)
        return render(
            request,
            "competition/td/clubs.html",
            {"clubs": [(c, club_url(c.slug, "competition:td_home")) for c in clubs]},
        )
    desks = evening_selectors.td_desk(user=request.user, club=request.club)
    startable = [d.season for d in desks if d.open_round is None]
    return render(
        request,
        "competition/td/home.html",
        {
            "desks": desks,
            "start_form": EveningStartForm(seasons=startable) if startable else None,
            "today": timezone.localdate(),
        },
    )


@require_POST
@td_required
def td_evening_start(request: AuthenticatedRequest) -> HttpResponse:
    allowed = [d.season for d in evening_selectors.td_desk(user=request.user, club=request.club)]
    form = EveningStartForm(request.POST, seasons=allowed)
    if not form.is_valid():
        messages.error(request, _("Choose at least one competition and a date."))
        return redirect("competition:td_home")
    try:
        rounds = round_create(
            seasons=list(form.cleaned_data["seasons"]), date=form.cleaned_data["date"]
        )
    except ServiceError as error:
        _refuse(request, error)
        return redirect("competition:td_home")
    messages.success(
        request,
        _("Tonight: %(rounds)s.")
        % {"rounds": ", ".join(f"{r.season.name} {_('round')} {r.number}" for r in rounds)},
    )
    if len(rounds) == 1:
        return redirect(_round_url("td_round", rounds[0]))
    return redirect("competition:td_home")


@require_http_methods(["GET", "HEAD", "POST"])
@td_round_view
def td_attendance(request: AuthenticatedRequest, rnd: Round) -> HttpResponse:
    rows = evening_selectors.attendance_rows(round=rnd)
    form = AttendanceForm(request.POST or None, participant_ids=[r.participant.id for r in rows])
    if request.method == "POST" and form.is_valid():
        try:
            then_pair = request.POST.get("then") == "pair"
            outcome = evening.attendance_record(
                round=rnd, marks=form.marks(), user=request.user, then_pair=then_pair
            )
        except ServiceError as error:
            _refuse(request, error)
        else:
            if then_pair:
                return redirect(_round_url("td_pairing", rnd))
            if outcome.draft_discarded:
                messages.warning(
                    request, _("Attendance changed: the draft pairing was discarded. Pair again.")
                )
            else:
                messages.success(request, _("Attendance saved."))
            return redirect(_round_url("td_attendance", rnd))
    counts = {code: 0 for code, _label in ATTENDANCE_LABELS}
    for row in rows:
        counts[row.mark] += 1
    return render(
        request,
        "competition/td/attendance.html",
        {
            "round": rnd,
            "rows": rows,
            "choices": [(code, ATTENDANCE_SHORT[code], label) for code, label in ATTENDANCE_LABELS],
            "present_count": counts[PRESENT],
            "latecomer_form": LatecomerForm(
                members=evening_selectors.latecomer_candidates(round=rnd)
            ),
            "has_draft": rounds_selectors.round_has_games(round=rnd),
            "reports": absences_selectors.round_reports(round=rnd),
            **attendance_check_in(request, rnd),
        },
    )


def _posted_marks(request: AuthenticatedRequest, rnd: Round) -> dict[int, str]:
    """The attendance marks posted along (``p<id>`` fields), or none when there are none."""
    if not rnd.is_planned or not any(key.startswith("p") for key in request.POST):
        return {}
    ids = [p.id for p in evening_selectors.participants_in_round(round=rnd)]
    form = AttendanceForm(request.POST, participant_ids=ids)
    return form.marks() if form.is_valid() else {}


# The late-comer form is on the attendance, pairing and results pages; it goes back to its page.
LATECOMER_BACK = {"pairing": "td_pairing", "results": "td_results"}


@require_POST
@td_round_view
def td_latecomer(request: AuthenticatedRequest, rnd: Round) -> HttpResponse:
    """Add a late-comer. From the attendance page the post also carries the marks the TD made
    there: they are saved with the late-comer, so nothing marked is lost."""
    form = LatecomerForm(request.POST, members=evening_selectors.latecomer_candidates(round=rnd))
    marks = _posted_marks(request, rnd)
    back = _round_url(LATECOMER_BACK.get(request.POST.get("back", ""), "td_attendance"), rnd)
    if not form.is_valid():
        for error in form.non_field_errors() or [_("Choose a member or type a name.")]:
            messages.error(request, str(error))
        if marks:  # keep what was marked, as "Save" would have
            try:
                evening.attendance_record(round=rnd, marks=marks, user=request.user)
            except ServiceError as error:
                _refuse(request, error)
        return redirect(back)
    try:
        participant = evening.latecomer_add(
            round=rnd,
            member=form.cleaned_data["member"],
            name=form.cleaned_data["name"],
            user=request.user,
            marks=marks,
        )
    except ServiceError as error:
        _refuse(request, error)
    else:
        messages.success(
            request, evening_selectors.seat_sentence(round=rnd, participant=participant)
        )
    return redirect(back)


@require_safe
@td_round_view
def td_pairing(request: AuthenticatedRequest, rnd: Round) -> HttpResponse:
    page = pairing_page(round=rnd)
    players = [
        (pid, f"{name} ({page.ranks[pid]})" if pid in page.ranks else name)
        for pid, name in page.present
    ]
    return render(
        request,
        "competition/td/pairing.html",
        {
            "round": rnd,
            "page": page,
            "swap_form": SwapForm(players=players),
            "fix_form": FixForm(players=players),
            "bye_form": ByeForm(players=players),
            "leaves_form": LeavesForm(players=page.may_leave),
            "latecomer_form": LatecomerForm(
                members=evening_selectors.latecomer_candidates(round=rnd)
            ),
            "editable": rnd.is_planned,
        },
    )


@dataclass(frozen=True)
class PairingAction:
    """One of the TD's changes to the draft pairing: its form, its service and what it says."""

    form: Callable[[QueryDict, Round], forms.Form]
    run: Callable[[Round, dict[str, Any], User], object]
    success: Promise | Callable[[Any], str]  # the message, or what makes it of the outcome

    def said(self, done: object) -> str:
        return self.success(done) if callable(self.success) else str(self.success)


def _players_form(
    form_class: type[SwapForm | FixForm | ByeForm | LeavesForm],
) -> Callable[[QueryDict, Round], forms.Form]:
    """A form choosing among the round's participants (by id; the page shows the names)."""

    def make(data: QueryDict, rnd: Round) -> forms.Form:
        ids = [(p.id, str(p.id)) for p in evening_selectors.participants_in_round(round=rnd)]
        return form_class(data, players=ids)

    return make


PAIRING_ACTIONS: dict[str, PairingAction] = {
    "propose": PairingAction(
        lambda data, rnd: ProposeForm(data, has_draft=rounds_selectors.round_has_games(round=rnd)),
        lambda rnd, data, user: evening.pairing_propose(
            round=rnd, user=user, keep_fixed=data["keep_fixed"]
        ),
        gettext_lazy("Paired."),
    ),
    "swap": PairingAction(
        _players_form(SwapForm),
        lambda rnd, data, user: evening.pairing_swap(
            round=rnd, first=data["first"], second=data["second"], user=user
        ),
        gettext_lazy("Players swapped."),
    ),
    "fix": PairingAction(
        _players_form(FixForm),
        lambda rnd, data, user: evening.pairing_fix(
            round=rnd, white=data["white"], black=data["black"], user=user
        ),
        gettext_lazy("Pairing fixed; the others were paired again."),
    ),
    "bye": PairingAction(
        _players_form(ByeForm),
        lambda rnd, data, user: evening.pairing_move_bye(round=rnd, to=data["player"], user=user),
        gettext_lazy("Bye moved; the others were paired again."),
    ),
    # a published round: one tap when a player leaves before his game
    "leaves": PairingAction(
        _players_form(LeavesForm),
        lambda rnd, data, user: leaving.player_leaves(
            round=rnd, participant=data["player"], user=user
        ),
        lambda departure: departure.said,
    ),
}


@require_POST
@td_round_view
def td_pairing_action(request: AuthenticatedRequest, rnd: Round, action: str) -> HttpResponse:
    """One change to the draft pairing (see ``PAIRING_ACTIONS``), then back to the pairing."""
    pairing_action = named_in(PAIRING_ACTIONS, action)
    form = pairing_action.form(request.POST, rnd)
    if not form_refused(request, form):
        service_done(
            request,
            lambda: pairing_action.run(rnd, form.cleaned_data, request.user),
            pairing_action.said,
        )
    return redirect(_round_url("td_pairing", rnd))
