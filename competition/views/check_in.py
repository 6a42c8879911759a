"""Members check in on the club evening: the member's check-in page (the short link
``/in/<code>/``, which the QR code opens), and the TD's side on the attendance page: open and
close the window, the QR code, and the JSON ``static/js/check_in.js`` polls to show who checked in.

The member's page needs a login (Django's ``login_required`` sends him through the login and
back) and a member account; he checks in only himself, found from ``request.user``. The TD's
views need TD rights for the round's club (``round_for_td``).
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubcomp.addresses import site_url
from competition.forms.evening import AttendanceForm
from competition.models import Round
from competition.permissions import AuthenticatedRequest, present, request_club, td_round_view
from competition.presentation import labels
from competition.selectors import check_in as check_in_selectors
from competition.selectors import evening as evening_selectors
from competition.selectors import members as members_selectors
from competition.services import check_in as check_in_service
from competition.services.errors import ServiceError


def _at(moment: Any) -> str:
    return time_format(timezone.localtime(moment), "H:i")


# --- the member ------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def check_in_page(request: AuthenticatedRequest, code: str) -> HttpResponse:
    """The check-in link: the round it is for and "I am here" (or why not). A POST checks the
    user in; ``next=me`` sends him back to his page."""
    if not members_selectors.user_members(user=request.user):
        raise PermissionDenied(_("Only members with an account can check in."))
    rnd = present(
        check_in_selectors.round_by_check_in_code(code=code, club=request_club(request)),
        _("No such check-in code."),
    )
    if request.method == "POST":
        try:
            done = check_in_service.member_check_in(round=rnd, user=request.user)
        except ServiceError as error:
            if check_in_selectors.participant_of_user(round=rnd, user=request.user) is None:
                raise PermissionDenied(str(error)) from None
            messages.error(request, str(error))
        else:
            if done.created:
                messages.success(
                    request,
                    _("You are checked in for round %(round)s at %(time)s.")
                    % {"round": rnd.number, "time": _at(done.check_in.checked_in_at)},
                )
            else:
                messages.info(
                    request,
                    _("You had already checked in at %(time)s.")
                    % {"time": _at(done.check_in.checked_in_at)},
                )
        if request.POST.get("next") == "me":
            return redirect(reverse("competition:my_page") + f"#tonight-{rnd.season_id}")
        return redirect(reverse("competition:check_in", kwargs={"code": rnd.check_in_code}))
    mine = check_in_selectors.my_check_in(round=rnd, user=request.user)
    return render(
        request,
        "competition/member/check_in.html",
        {
            "round": rnd,
            "mine": mine,
            "mark_label": labels.entry_label(mine.mark) if mine.mark != "present" else "",
            "code": rnd.check_in_code,
        },
        status=403 if mine.participant is None else 200,
    )


# --- the TD ----------------------------------------------------------------------------------


def check_in_link(request: AuthenticatedRequest, rnd: Round) -> str:
    """The short link members open, absolute (the QR code holds it), at the site's address."""
    return request.build_absolute_uri(
        site_url("competition:check_in", kwargs={"code": rnd.check_in_code})
    )


def qr_code_svg(text: str) -> str:
    """``text`` as a QR code, an inline SVG element (segno; no script, no style attribute)."""
    qr = segno.make(text, error="m")
    return qr.svg_inline(scale=6, dark="#000", light="#fff", svgclass="check-in-qr", title=text)


def attendance_check_in(request: AuthenticatedRequest, rnd: Round) -> dict[str, Any]:
    """What the attendance page's check-in part shows (``td/_check_in.html``)."""
    state = check_in_selectors.check_in_state(round=rnd)
    link = check_in_link(request, rnd) if state.code else ""
    return {
        "check_in": state,
        "check_in_times": {pid: _at(at) for pid, at in state.checked_in().items()},
        "check_in_link": link,
        "check_in_qr": qr_code_svg(link) if state.is_open else "",
        "check_in_offered": rnd.is_planned
        and not rnd.season.is_round_robin
        and rnd.date == timezone.localdate(),
    }


def _posted_marks(request: AuthenticatedRequest, rnd: Round) -> dict[int, str]:
    """The attendance marks the attendance form posts along (``p<id>``), or none."""
    if not any(key.startswith("p") and key[1:].isdigit() for key in request.POST):
        return {}
    ids = [p.id for p in evening_selectors.participants_in_round(round=rnd)]
    form = AttendanceForm(request.POST, participant_ids=ids)
    return form.marks() if form.is_valid() else {}


def _attendance(rnd: Round) -> HttpResponse:
    return redirect(
        reverse(
            "competition:td_attendance",
            kwargs={"season_slug": rnd.season.slug, "round_number": rnd.number},
        )
        + "#check-in"
    )


@require_POST
@td_round_view
def td_check_in_open(request: AuthenticatedRequest, rnd: Round) -> HttpResponse:
    try:
        check_in_service.check_in_open(
            round=rnd, user=request.user, marks=_posted_marks(request, rnd)
        )
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Check-in is open: show the code to the members."))
    return _attendance(rnd)


@require_POST
@td_round_view
def td_check_in_close(request: AuthenticatedRequest, rnd: Round) -> HttpResponse:
    """Close check-in, saving the marks the attendance form posts along; ``absent=rest`` marks
    everyone who did not check in (and is marked present) absent without notice."""
    absent_rest = request.POST.get("absent") == "rest"
    try:
        done = check_in_service.check_in_close(
            round=rnd,
            user=request.user,
            absent_rest=absent_rest,
            marks=_posted_marks(request, rnd),
        )
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        if absent_rest:
            messages.success(
                request,
                ngettext(
                    "Check-in is closed; %(count)s player who did not check in is marked "
                    "absent without notice.",
                    "Check-in is closed; %(count)s players who did not check in are marked "
                    "absent without notice.",
                    done.marked_absent,
                )
                % {"count": done.marked_absent},
            )
        else:
            messages.success(request, _("Check-in is closed."))
    return _attendance(rnd)


@require_safe
@td_round_view
def td_check_in_state(request: AuthenticatedRequest, rnd: Round) -> JsonResponse:
    """Who checked in and everyone's mark now, for the attendance page to poll."""
    state = check_in_selectors.check_in_state(round=rnd)
    response = JsonResponse(
        {
            "open": state.is_open,
            "count": state.count,
            "checked_in": [
                {"participant": row.participant_id, "at": _at(row.checked_in_at)}
                for row in state.rows
            ],
            "marks": {str(pid): mark for pid, mark in state.marks.items()},
        }
    )
    response["Cache-Control"] = "no-store"
    return response
