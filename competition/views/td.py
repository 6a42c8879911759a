"""The tournament director's pages: one club evening from attendance to the closed round.

Every view needs a login (anonymous users are sent to it) and TD rights for the season's club
(others get 403). Views validate a form and call one service; reads go through
``selectors_td``. A board's result can be saved by ``fetch`` (``static/js/td.js``): the answer
is then JSON instead of a redirect, so the page keeps its state.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from competition import selectors_td
from competition.forms.evening import (
    ATTENDANCE_LABELS,
    ATTENDANCE_SHORT,
    AttendanceForm,
    ByeForm,
    CorrectionForm,
    EntryCorrectionForm,
    EveningStartForm,
    FixForm,
    LatecomerForm,
    ProposeForm,
    ResultForm,
    RoundNewForm,
    SwapForm,
)
from competition.models import Game, Member, Round, RoundEntry
from competition.permissions import is_td_anywhere, season_for_td
from competition.services import evening
from competition.services.errors import ServiceError

View = Callable[..., HttpResponse]

# Result buttons on a board, in the order a TD reads them; forfeits after the played results.
RESULT_BUTTONS = [
    (Game.Result.WHITE_WINS, "1-0"),
    (Game.Result.DRAW, "½-½"),
    (Game.Result.BLACK_WINS, "0-1"),
    (Game.Result.WHITE_WINS_FORFEIT, "+/−"),
    (Game.Result.BLACK_WINS_FORFEIT, "−/+"),
    (Game.Result.DOUBLE_FORFEIT, "−/−"),
]


def td_login_required(view: View) -> View:
    """Anonymous users go to the login page; the view itself checks the club's TD rights."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def _round_for_td(request: HttpRequest, season_slug: str, round_number: int) -> Round:
    season = season_for_td(request.user, season_slug)
    return get_object_or_404(
        Round.objects.select_related("season__club"), season=season, number=round_number
    )


def _round_url(name: str, round: Round, **extra: Any) -> str:
    return reverse(
        f"competition:{name}",
        kwargs={"season_slug": round.season.slug, "round_number": round.number, **extra},
    )


def _refuse(request: HttpRequest, error: ServiceError) -> None:
    messages.error(request, str(error))


def _wants_json(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


def _form_errors(form: forms.Form) -> list[str]:
    """The form's own messages, in field order (the forms word them to name the field)."""
    return [str(message) for errors in form.errors.values() for message in errors]


# --- the desk --------------------------------------------------------------------------------


@require_GET
@td_login_required
def td_home(request: HttpRequest) -> HttpResponse:
    if not is_td_anywhere(request.user):
        raise PermissionDenied(_("Only tournament directors may run club evenings."))
    desks = selectors_td.td_desk(request.user)
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
@td_login_required
def td_evening_start(request: HttpRequest) -> HttpResponse:
    if not is_td_anywhere(request.user):
        raise PermissionDenied(_("Only tournament directors may run club evenings."))
    allowed = [d.season for d in selectors_td.td_desk(request.user)]
    form = EveningStartForm(request.POST, seasons=allowed)
    if not form.is_valid():
        messages.error(request, _("Choose at least one competition and a date."))
        return redirect("competition:td_home")
    try:
        rounds = evening.evening_start(
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


@require_http_methods(["GET", "POST"])
@td_login_required
def td_round_new(request: HttpRequest, season_slug: str) -> HttpResponse:
    season = season_for_td(request.user, season_slug)
    form = RoundNewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            (rnd,) = evening.evening_start(seasons=[season], date=form.cleaned_data["date"])
        except ServiceError as error:
            _refuse(request, error)
        else:
            return redirect(_round_url("td_round", rnd))
    return render(
        request,
        "competition/td/round_new.html",
        {
            "season": season,
            "form": form,
            "next_number": selectors_td.next_round_number(season),
        },
    )


@require_GET
@td_login_required
def td_round(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    """The round's current step: attendance, pairing, results, or the closed round."""
    rnd = _round_for_td(request, season_slug, round_number)
    step = selectors_td.current_step(rnd)
    target = {
        selectors_td.Step.ATTENDANCE: "td_attendance",
        selectors_td.Step.PAIRING: "td_pairing",
        selectors_td.Step.RESULTS: "td_results",
        selectors_td.Step.CLOSED: "td_round_summary",
    }[step]
    return redirect(_round_url(target, rnd))


# --- attendance ------------------------------------------------------------------------------


def _club_members_not_in(rnd: Round) -> Any:
    return Member.objects.filter(club=rnd.season.club, active=True).exclude(
        participations__season=rnd.season
    )


@require_http_methods(["GET", "POST"])
@td_login_required
def td_attendance(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    rows = selectors_td.attendance_rows(rnd)
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
            "present_count": counts[evening.PRESENT],
            "latecomer_form": LatecomerForm(members=_club_members_not_in(rnd)),
            "has_draft": Game.objects.filter(round=rnd).exists(),
        },
    )


@require_POST
@td_login_required
def td_latecomer(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    form = LatecomerForm(request.POST, members=_club_members_not_in(rnd))
    if not form.is_valid():
        for error in form.non_field_errors() or [_("Choose a member or type a name.")]:
            messages.error(request, error)
        return redirect(_round_url("td_attendance", rnd))
    try:
        participant = evening.latecomer_add(
            round=rnd,
            member=form.cleaned_data["member"],
            name=form.cleaned_data["name"],
            user=request.user,
        )
    except ServiceError as error:
        _refuse(request, error)
    else:
        messages.success(request, _("%(name)s is present.") % {"name": participant.member.name})
    back = request.POST.get("back")
    return redirect(_round_url("td_pairing" if back == "pairing" else "td_attendance", rnd))


# --- pairing ---------------------------------------------------------------------------------


@require_GET
@td_login_required
def td_pairing(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    page = selectors_td.pairing_page(rnd)
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
            "latecomer_form": LatecomerForm(members=_club_members_not_in(rnd)),
            "editable": rnd.status == Round.Status.PLANNED,
        },
    )


def _pairing_action(
    request: HttpRequest,
    season_slug: str,
    round_number: int,
    form_class: type,
    action: Callable[[Round, dict[str, Any]], object],
    success: str,
) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    ids = [(p.id, str(p.id)) for p in evening.participants_in_round(rnd)]
    form = (
        form_class(request.POST, players=ids)
        if form_class is not ProposeForm
        else ProposeForm(request.POST)
    )
    if not form.is_valid():
        for message in _form_errors(form):
            messages.error(request, message)
    else:
        try:
            action(rnd, form.cleaned_data)
        except ServiceError as error:
            _refuse(request, error)
        else:
            messages.success(request, success)
    return redirect(_round_url("td_pairing", rnd))


@require_POST
@td_login_required
def td_pairing_propose(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    return _pairing_action(
        request,
        season_slug,
        round_number,
        ProposeForm,
        lambda rnd, data: evening.pairing_propose(
            round=rnd, user=request.user, keep_fixed=data["keep_fixed"]
        ),
        _("Paired."),
    )


@require_POST
@td_login_required
def td_pairing_swap(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    return _pairing_action(
        request,
        season_slug,
        round_number,
        SwapForm,
        lambda rnd, data: evening.pairing_swap(
            round=rnd, first=data["first"], second=data["second"], user=request.user
        ),
        _("Players swapped."),
    )


@require_POST
@td_login_required
def td_pairing_fix(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    return _pairing_action(
        request,
        season_slug,
        round_number,
        FixForm,
        lambda rnd, data: evening.pairing_fix(
            round=rnd, white=data["white"], black=data["black"], user=request.user
        ),
        _("Pairing fixed; the others were paired again."),
    )


@require_POST
@td_login_required
def td_pairing_bye(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    return _pairing_action(
        request,
        season_slug,
        round_number,
        ByeForm,
        lambda rnd, data: evening.pairing_move_bye(round=rnd, to=data["player"], user=request.user),
        _("Bye moved; the others were paired again."),
    )


@require_POST
@td_login_required
def td_round_publish(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    try:
        evening.round_publish(round=rnd, user=request.user)
    except ServiceError as error:
        _refuse(request, error)
        return redirect(_round_url("td_pairing", rnd))
    messages.success(request, _("Pairing published. Print it for the wall, then enter results."))
    return redirect(_round_url("td_results", rnd))


@require_POST
@td_login_required
def td_round_unpublish(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    try:
        evening.round_unpublish(round=rnd, user=request.user)
    except ServiceError as error:
        _refuse(request, error)
        return redirect(_round_url("td_results", rnd))
    messages.success(request, _("Pairing withdrawn; you can change it again."))
    return redirect(_round_url("td_pairing", rnd))


@require_GET
@td_login_required
def td_round_print(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    """The pairing for the wall: A4, large type, 40 boards on a page."""
    rnd = _round_for_td(request, season_slug, round_number)
    return render(
        request,
        "competition/td/print.html",
        {
            "round": rnd,
            "page": selectors_td.pairing_page(rnd),
            "entries": selectors_td.round_entries(rnd),
        },
    )


# --- results ---------------------------------------------------------------------------------


def board_json(row: selectors_td.ResultBoardRow) -> dict[str, Any]:
    return {
        "game_id": row.game_id,
        "board": row.board,
        "result": row.result,
        "result_label": row.result_label,
        "version": row.version,
        "saved": _saved_line(row),
    }


def _saved_line(row: selectors_td.ResultBoardRow) -> str:
    if row.saved_at is None:
        return ""
    return _("saved by %(who)s at %(time)s") % {
        "who": row.saved_by or "?",
        "time": time_format(timezone.localtime(row.saved_at), "H:i"),
    }


@require_GET
@td_login_required
def td_results(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    boards = selectors_td.result_boards(rnd)
    return render(
        request,
        "competition/td/results.html",
        {
            "round": rnd,
            "boards": [(row, _saved_line(row)) for row in boards],
            "entries": selectors_td.round_entries(rnd),
            "buttons": RESULT_BUTTONS,
            "missing": sum(1 for row in boards if not row.result),
            "corrections": selectors_td.corrections_for_round(rnd),
        },
    )


@require_POST
@td_login_required
def td_result_save(
    request: HttpRequest, season_slug: str, round_number: int, game_id: int
) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    form = ResultForm(request.POST)
    error_message = ""
    if not form.is_valid():
        error_message = " ".join(_form_errors(form))
    elif not Game.objects.filter(pk=game_id, round=rnd).exists():
        error_message = _("This board no longer exists; reload the round.")
    else:
        try:
            evening.board_result_save(
                game_id=game_id,
                result=form.cleaned_data["result"],
                expected_version=form.cleaned_data["version"],
                user=request.user,
            )
        except ServiceError as error:
            error_message = str(error)
    game = (
        Game.objects.select_related("white__member", "black__member", "updated_by")
        .filter(pk=game_id, round=rnd)
        .first()
    )
    if _wants_json(request):
        body: dict[str, Any] = {"ok": not error_message, "message": error_message}
        if game is not None:
            body["board"] = board_json(selectors_td.result_board(game))
        body["missing"] = Game.objects.filter(round=rnd, result=Game.Result.NOT_PLAYED).count()
        return JsonResponse(body, status=200 if not error_message else 409)
    if error_message:
        messages.error(request, error_message)
    elif game is not None:
        messages.success(
            request,
            _("Board %(board)s: %(result)s saved.")
            % {"board": game.board, "result": game.get_result_display()},
        )
    anchor = f"#board-{game.board}" if game else ""
    return redirect(_round_url("td_results", rnd) + anchor)


@require_POST
@td_login_required
def td_round_close(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    try:
        evening.round_close(round=rnd, user=request.user)
    except ServiceError as error:
        _refuse(request, error)
        return redirect(_round_url("td_results", rnd))
    messages.success(request, _("Round closed; the standings are published."))
    return redirect(_round_url("td_round_summary", rnd))


@require_GET
@td_login_required
def td_round_summary(request: HttpRequest, season_slug: str, round_number: int) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    return render(
        request,
        "competition/td/summary.html",
        {
            "round": rnd,
            "change": selectors_td.standings_change(rnd),
            "boards": selectors_td.result_boards(rnd),
            "entries": selectors_td.round_entries(rnd),
            "corrections": selectors_td.corrections_for_round(rnd),
        },
    )


# --- corrections -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@td_login_required
def td_result_correct(
    request: HttpRequest, season_slug: str, round_number: int, game_id: int
) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    game = get_object_or_404(
        Game.objects.select_related("white__member", "black__member", "updated_by"),
        pk=game_id,
        round=rnd,
    )
    form = CorrectionForm(
        request.POST or None, initial={"result": game.result, "version": game.version}
    )
    if request.method == "POST" and form.is_valid():
        try:
            evening.board_result_save(
                game_id=game.id,
                result=form.cleaned_data["result"],
                expected_version=form.cleaned_data["version"],
                user=request.user,
                reason=form.cleaned_data["reason"],
            )
        except ServiceError as error:
            _refuse(request, error)
        else:
            messages.success(
                request,
                _("Board %(board)s corrected; the standings are recomputed.")
                % {"board": game.board},
            )
            target = "td_round_summary" if rnd.status == Round.Status.COMPLETED else "td_results"
            return redirect(_round_url(target, rnd))
    return render(
        request,
        "competition/td/correct.html",
        {"round": rnd, "game": game, "form": form, "closed": rnd.status == Round.Status.COMPLETED},
    )


@require_http_methods(["GET", "POST"])
@td_login_required
def td_entry_correct(
    request: HttpRequest, season_slug: str, round_number: int, entry_id: int
) -> HttpResponse:
    rnd = _round_for_td(request, season_slug, round_number)
    entry = get_object_or_404(
        RoundEntry.objects.select_related("participant__member"), pk=entry_id, round=rnd
    )
    form = EntryCorrectionForm(
        request.POST or None, initial={"kind": entry.kind, "points": entry.points}
    )
    if request.method == "POST" and form.is_valid():
        try:
            evening.entry_correct(
                entry_id=entry.id,
                kind=form.cleaned_data["kind"],
                points=form.cleaned_data["points"],
                reason=form.cleaned_data["reason"],
                user=request.user,
            )
        except ServiceError as error:
            _refuse(request, error)
        else:
            messages.success(request, _("Corrected; the standings are recomputed."))
            return redirect(_round_url("td_round_summary", rnd))
    return render(
        request,
        "competition/td/correct_entry.html",
        {"round": rnd, "entry": entry, "form": form},
    )
