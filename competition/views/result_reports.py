"""The players' own results: a player enters his board's result on his page, his opponent
confirms or disputes it, and the TD confirms an entered result in one tap.

Every write is a POST that redirects back (post/redirect/get) with a message. The player is
found from ``request.user`` on the board itself: a member acts only for himself, and anyone
else's board is refused (403).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from competition.forms.result_reports import ResultAnswerForm, ResultReportForm
from competition.models import Participant, ResultReport, Round
from competition.permissions import AuthenticatedRequest, present, td_round_view
from competition.selectors import result_reports as report_selectors
from competition.selectors import rounds as rounds_selectors
from competition.services import result_reports
from competition.services.errors import ServiceError
from competition.views.actions import form_refused, service_done
from competition.views.rounds import board_json


def _said(report: ResultReport) -> str:
    """What the player is told once his word is taken."""
    game = report.game
    values = {"board": game.board, "result": report.get_result_display()}
    if report.status == ResultReport.Status.CONFIRMED:
        return _("Board %(board)s: %(result)s saved.") % values
    if report.status == ResultReport.Status.DISPUTED:
        return _("Board %(board)s: you and your opponent differ; the TD decides.") % values
    return _("Board %(board)s: %(result)s entered; waiting for confirmation.") % values


def _my_page(participant: Participant | None = None) -> HttpResponse:
    anchor = f"#tonight-{participant.season_id}" if participant is not None else ""
    return redirect(reverse("competition:my_page") + anchor)


def _player(participant: Participant | None) -> Participant:
    if participant is None:
        raise PermissionDenied(_("You do not play on this board."))
    return participant


@require_POST
@login_required
def my_result_report(request: AuthenticatedRequest, game_id: int) -> HttpResponse:
    """The player enters the result of his own board tonight."""
    participant = _player(report_selectors.board_player(user=request.user, game_id=game_id))
    form = ResultReportForm(request.POST)
    if form_refused(request, form):
        return _my_page(participant)
    service_done(
        request,
        lambda: result_reports.result_report(
            game_id=game_id,
            participant=participant,
            result=form.cleaned_data["result"],
            user=request.user,
        ),
        _said,
    )
    return _my_page(participant)


@require_POST
@login_required
def my_result_answer(request: AuthenticatedRequest, report_id: int) -> HttpResponse:
    """The opponent confirms or disputes the result the other player entered."""
    participant = _player(report_selectors.report_player(user=request.user, report_id=report_id))
    form = ResultAnswerForm(request.POST)
    if form_refused(request, form):
        return _my_page(participant)
    service_done(
        request,
        lambda: result_reports.result_report_answer(
            report_id=report_id,
            participant=participant,
            agree=form.cleaned_data["answer"] == "confirm",
            result=form.cleaned_data["result"],
            user=request.user,
        ),
        _said,
    )
    return _my_page(participant)


@require_POST
@td_round_view
def td_result_report_confirm(
    request: AuthenticatedRequest, rnd: Round, report_id: int
) -> HttpResponse:
    """The TD confirms a result a player entered: one tap, saved as the board's result."""
    report = present(
        report_selectors.round_report(round=rnd, report_id=report_id),
        _("This result is no longer there; reload the round."),
    )
    back = (
        reverse("competition:td_results", args=[rnd.season.slug, rnd.number])
        + f"#board-{report.game.board}"
    )
    try:
        game = result_reports.result_report_td_confirm(report_id=report.pk, user=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Board %(board)s: %(result)s saved.")
            % {"board": game.board, "result": game.get_result_display()},
        )
    return redirect(back)


@require_safe
@td_round_view
def td_results_state(request: AuthenticatedRequest, rnd: Round) -> JsonResponse:
    """Every board's result and what its players said, for the TD's results page to poll while
    the players enter theirs: by game id, the board as a save answers it and the players'
    words as the page shows them (the same include, with its one-tap confirmation)."""
    reports = report_selectors.round_report_states(round=rnd)
    boards = {
        str(row.game_id): {
            **board_json(row),
            "reports": render_to_string(
                "competition/td/_board_reports.html",
                {"state": reports[row.game_id], "round": rnd},
                request=request,
            )
            if row.game_id in reports
            else "",
        }
        for row in rounds_selectors.result_boards(round=rnd)
    }
    response = JsonResponse(
        {
            "boards": boards,
            "missing": rounds_selectors.open_board_count(round=rnd),
            "open": rnd.is_published,
        }
    )
    response["Cache-Control"] = "no-store"
    return response
