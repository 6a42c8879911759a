"""The tournament director's pages: one club evening from attendance to the closed round.

Every view needs a login (Django's ``login_required``: anonymous users are sent to it) and TD
rights for the season's club (others get 403). Views validate a form and call one service;
reads go through ``competition.selectors.td``. A board's result can be saved by ``fetch``
(``static/js/td.js``): the answer is then JSON instead of a redirect, so the page keeps its
state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
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
    CorrectionForm,
    EntryCorrectionForm,
    EveningStartForm,
    ExternalResultForm,
    FixForm,
    LatecomerForm,
    LeavesForm,
    ProposeForm,
    ResultForm,
    RoundNewForm,
    SwapForm,
)
from competition.models import PRESENT, ExternalResult, Game, Round, RoundEntry
from competition.permissions import (
    AuthenticatedRequest,
    present,
    round_for_td,
    season_for_td,
    td_required,
)
from competition.presentation import numbers
from competition.scoring.registry import get_system
from competition.scoring.series import evening_of
from competition.selectors import absences as absences_selectors
from competition.selectors import clubs as clubs_selectors
from competition.selectors import evening as evening_selectors
from competition.selectors import result_reports as report_selectors
from competition.selectors import rounds as rounds_selectors
from competition.selectors import series as series_selectors
from competition.selectors import standings as standings_selectors
from competition.selectors.corrections import corrections_for_round
from competition.selectors.pairing_page import pairing_page
from competition.services import evening, leaving, rounds
from competition.services import series as rapid_series
from competition.services.errors import ServiceError
from competition.services.rounds import result_record, round_complete, round_create
from competition.views.actions import form_errors, form_refused, service_done
from competition.views.check_in import attendance_check_in

# Result buttons on a board, in the order a TD reads them; forfeits after the played results.
RESULT_BUTTONS = [
    (Game.Result.WHITE_WINS, "1-0"),
    (Game.Result.DRAW, "½-½"),
    (Game.Result.BLACK_WINS, "0-1"),
    (Game.Result.WHITE_WINS_FORFEIT, "+/−"),
    (Game.Result.BLACK_WINS_FORFEIT, "−/+"),
    (Game.Result.DOUBLE_FORFEIT, "−/−"),
]


def _round_url(name: str, round: Round, **extra: Any) -> str:
    return reverse(
        f"competition:{name}",
        kwargs={"season_slug": round.season.slug, "round_number": round.number, **extra},
    )


def _refuse(request: AuthenticatedRequest, error: ServiceError) -> None:
    messages.error(request, str(error))


def _wants_json(request: AuthenticatedRequest) -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


# --- the desk --------------------------------------------------------------------------------


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
@login_required
def td_round_new(request: AuthenticatedRequest, season_slug: str) -> HttpResponse:
    season = season_for_td(request.user, season_slug, club=request.club)
    form = RoundNewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            (rnd,) = round_create(seasons=[season], date=form.cleaned_data["date"])
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
            "next_number": rounds_selectors.new_round_number(season=season),
        },
    )


@require_safe
@login_required
def td_round(request: AuthenticatedRequest, season_slug: str, round_number: int) -> HttpResponse:
    """The round's current step: attendance, pairing, results, or the closed round."""
    rnd = round_for_td(request, season_slug, round_number)
    step = rounds_selectors.current_step(round=rnd)
    target = {
        rounds_selectors.Step.ATTENDANCE: "td_attendance",
        rounds_selectors.Step.PAIRING: "td_pairing",
        rounds_selectors.Step.RESULTS: "td_results",
        rounds_selectors.Step.CLOSED: "td_round_summary",
    }[step]
    return redirect(_round_url(target, rnd))


# --- attendance ------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def td_attendance(
    request: AuthenticatedRequest, season_slug: str, round_number: int
) -> HttpResponse:
    rnd = round_for_td(request, season_slug, round_number)
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
@login_required
def td_latecomer(
    request: AuthenticatedRequest, season_slug: str, round_number: int
) -> HttpResponse:
    """Add a late-comer. From the attendance page the post also carries the marks the TD made
    there: they are saved with the late-comer, so nothing marked is lost."""
    rnd = round_for_td(request, season_slug, round_number)
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


# --- pairing ---------------------------------------------------------------------------------


@require_safe
@login_required
def td_pairing(request: AuthenticatedRequest, season_slug: str, round_number: int) -> HttpResponse:
    rnd = round_for_td(request, season_slug, round_number)
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


Entry = TypeVar("Entry")


def _named(table: Mapping[str, Entry], name: str) -> Entry:
    """The entry of the table that the address names: the URLs name only the table's entries,
    any other name is no page (404)."""
    try:
        return table[name]
    except KeyError:
        raise Http404 from None


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
@login_required
def td_pairing_action(
    request: AuthenticatedRequest, season_slug: str, round_number: int, action: str
) -> HttpResponse:
    """One change to the draft pairing (see ``PAIRING_ACTIONS``), then back to the pairing."""
    rnd = round_for_td(request, season_slug, round_number)
    pairing_action = _named(PAIRING_ACTIONS, action)
    form = pairing_action.form(request.POST, rnd)
    if not form_refused(request, form):
        service_done(
            request,
            lambda: pairing_action.run(rnd, form.cleaned_data, request.user),
            pairing_action.said,
        )
    return redirect(_round_url("td_pairing", rnd))


@dataclass(frozen=True)
class RoundStep:
    """A step in the round's life: the service that takes it, the message when it was taken,
    and the pages to go to when it was taken (``done``) or refused (``refused``)."""

    run: Callable[[Round, User], object]
    success: Promise
    done: str
    refused: str
    confirm: bool = False  # the form must carry a ticked ``confirm`` (nothing is undone by a tap)


ROUND_STEPS: dict[str, RoundStep] = {
    "publish": RoundStep(
        lambda rnd, user: evening.round_publish(round=rnd, user=user),
        gettext_lazy("Pairing published. Print it for the wall, then enter results."),
        done="td_results",
        refused="td_pairing",
    ),
    "unpublish": RoundStep(
        lambda rnd, user: evening.round_unpublish(round=rnd, user=user),
        gettext_lazy("Pairing withdrawn; you can change it again."),
        done="td_pairing",
        refused="td_results",
        confirm=True,
    ),
    "close": RoundStep(
        lambda rnd, user: round_complete(round=rnd, user=user),
        gettext_lazy("Round closed; the standings are published."),
        done="td_round_summary",
        refused="td_results",
    ),
}


@require_POST
@login_required
def td_round_step(
    request: AuthenticatedRequest, season_slug: str, round_number: int, step: str
) -> HttpResponse:
    """Publish, withdraw or close the round (see ``ROUND_STEPS``)."""
    rnd = round_for_td(request, season_slug, round_number)
    round_step = _named(ROUND_STEPS, step)
    if round_step.confirm and not request.POST.get("confirm"):
        messages.error(request, _("Tick the box to confirm."))
        return redirect(_round_url(round_step.refused, rnd))
    try:
        round_step.run(rnd, request.user)
    except ServiceError as error:
        _refuse(request, error)
        return redirect(_round_url(round_step.refused, rnd))
    messages.success(request, str(round_step.success))
    return redirect(_round_url(round_step.done, rnd))


@require_safe
@login_required
def td_round_print(
    request: AuthenticatedRequest, season_slug: str, round_number: int
) -> HttpResponse:
    """The pairing for the wall: A4, large type, 40 boards on a page."""
    rnd = round_for_td(request, season_slug, round_number)
    return render(
        request,
        "competition/td/print.html",
        {
            "round": rnd,
            "page": pairing_page(round=rnd),
            "entries": rounds_selectors.round_entries(round=rnd),
        },
    )


# --- results ---------------------------------------------------------------------------------


def board_json(row: rounds_selectors.ResultBoardRow) -> dict[str, Any]:
    return {
        "game_id": row.game_id,
        "board": row.board,
        "result": row.result,
        "result_label": row.result_label,
        "version": row.version,
        "saved": _saved_line(row),
    }


def _saved_line(row: rounds_selectors.ResultBoardRow) -> str:
    if row.saved_at is None:
        return ""
    return _("saved by %(who)s at %(time)s") % {
        "who": row.saved_by or "?",
        "time": time_format(timezone.localtime(row.saved_at), "H:i"),
    }


@require_safe
@login_required
def td_results(request: AuthenticatedRequest, season_slug: str, round_number: int) -> HttpResponse:
    rnd = round_for_td(request, season_slug, round_number)
    boards = rounds_selectors.result_boards(round=rnd)
    return render(
        request,
        "competition/td/results.html",
        {
            "round": rnd,
            "boards": [(row, _saved_line(row)) for row in boards],
            "entries": rounds_selectors.round_entries(round=rnd),
            "external_results": [
                ("", _("no external game")),
                *(
                    (code, _("external game %(result)s") % {"result": label})
                    for code, label in ExternalResult.choices
                ),
            ],
            "buttons": RESULT_BUTTONS,
            "missing": sum(1 for row in boards if not row.result),
            "corrections": corrections_for_round(round=rnd),
            # what the players entered on each board, by game id (seasons where they enter)
            "reports": report_selectors.round_report_states(round=rnd),
            "latecomer_form": LatecomerForm(
                members=evening_selectors.latecomer_candidates(round=rnd)
            )
            if rnd.is_published
            else None,
            # A rapid evening's round with more to come tonight: *Close and pair round N*.
            "next_tonight": rapid_series.has_next_round_tonight(rnd),
        },
    )


@require_POST
@login_required
def td_result_save(
    request: AuthenticatedRequest, season_slug: str, round_number: int, game_id: int
) -> HttpResponse:
    rnd = round_for_td(request, season_slug, round_number)
    form = ResultForm(request.POST)
    error_message = ""
    if not form.is_valid():
        error_message = " ".join(form_errors(form))
    elif rounds_selectors.round_game(rnd, game_id) is None:
        error_message = _("This board no longer exists; reload the round.")
    else:
        try:
            result_record(
                game_id=game_id,
                result=form.cleaned_data["result"],
                expected_version=form.cleaned_data["version"],
                user=request.user,
            )
        except ServiceError as error:
            error_message = str(error)
    game = rounds_selectors.round_game(rnd, game_id)
    if _wants_json(request):
        body: dict[str, Any] = {"ok": not error_message, "message": error_message}
        if game is not None:
            body["board"] = board_json(rounds_selectors.result_board(game=game))
        body["missing"] = rounds_selectors.open_board_count(round=rnd)
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


@require_safe
@login_required
def td_round_summary(
    request: AuthenticatedRequest, season_slug: str, round_number: int
) -> HttpResponse:
    """The closed round: who moved in the standings, every board and entry, the corrections."""
    rnd = round_for_td(request, season_slug, round_number)
    change = standings_selectors.standings_change(round=rnd)
    summary = {
        "round": rnd,
        "change": change,
        # One style for the score column (58,25 or 7½): competition/presentation/numbers.py.
        "score_style": numbers.column_style(
            [row.score for row in change.top],
            points=numbers.is_points(get_system(rnd.season.system).primary),
        ),
        "boards": rounds_selectors.result_boards(round=rnd),
        "entries": rounds_selectors.round_entries(round=rnd),
        "corrections": corrections_for_round(round=rnd),
        # A rapid evening: the evening's ranking and points so far (competition.selectors.series).
        "evening": series_selectors.evening_page(
            season=rnd.season,
            number=evening_of(rnd.number, rnd.season.rounds_per_evening),
        )
        if rnd.season.is_rapid_series and rnd.is_completed
        else None,
    }
    return render(request, "competition/td/summary.html", summary)


# --- corrections -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CorrectionPage:
    """A correction of what a TD recorded (a board's result, an entry): how the page finds the
    record in the round, its form, the service that saves it, and what the page says."""

    load: Callable[[Round, int], Game | RoundEntry | None]
    missing: Promise
    form: type[CorrectionForm | EntryCorrectionForm]
    initial: Callable[[Any], dict[str, Any]]
    save: Callable[[Any, dict[str, Any], User], object]
    success: Callable[[Any], str]
    template: str
    name: str  # the record's name in the template


def _correct(
    request: AuthenticatedRequest, rnd: Round, record_id: int, page: CorrectionPage
) -> HttpResponse:
    """The correction form; a refusal (someone changed the record meanwhile) shows the form
    again with the message and the version the record has now, so sending it once more is a
    knowing change."""
    record = present(page.load(rnd, record_id), page.missing)
    form = page.form(
        request.POST or None, initial={**page.initial(record), "version": record.version}
    )
    if request.method == "POST" and form.is_valid():
        try:
            page.save(record, form.cleaned_data, request.user)
        except ServiceError as error:
            _refuse(request, error)
            current = page.load(rnd, record_id) or record
            form = page.form({**request.POST.dict(), "version": current.version})
        else:
            messages.success(request, page.success(record))
            target = "td_round_summary" if rnd.is_completed else "td_results"
            return redirect(_round_url(target, rnd))
    return render(
        request,
        page.template,
        {"round": rnd, page.name: record, "form": form, "closed": rnd.is_completed},
    )


RESULT_CORRECTION = CorrectionPage(
    load=rounds_selectors.round_game,
    missing=gettext_lazy("This board no longer exists; reload the round."),
    form=CorrectionForm,
    initial=lambda game: {"result": game.result},
    save=lambda game, data, user: result_record(
        game_id=game.id,
        result=data["result"],
        expected_version=data["version"],
        user=user,
        reason=data["reason"],
    ),
    success=lambda game: (
        _("Board %(board)s corrected; the standings are recomputed.") % {"board": game.board}
    ),
    template="competition/td/correct.html",
    name="game",
)

ENTRY_CORRECTION = CorrectionPage(
    load=rounds_selectors.round_entry,
    missing=gettext_lazy("This entry no longer exists; reload the round."),
    form=EntryCorrectionForm,
    initial=lambda entry: {
        "kind": entry.kind,
        "points": entry.points,
        "external_result": entry.external_result,
    },
    save=lambda entry, data, user: evening.entry_correct(
        entry_id=entry.id,
        kind=data["kind"],
        points=data["points"],
        reason=data["reason"],
        user=user,
        expected_version=data["version"],
        external_result=data.get("external_result") or "",
    ),
    success=lambda entry: _("Corrected; the standings are recomputed."),
    template="competition/td/correct_entry.html",
    name="entry",
)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def td_result_correct(
    request: AuthenticatedRequest, season_slug: str, round_number: int, game_id: int
) -> HttpResponse:
    rnd = round_for_td(request, season_slug, round_number)
    return _correct(request, rnd, game_id, RESULT_CORRECTION)


@require_POST
@login_required
def td_external_result_save(
    request: AuthenticatedRequest, season_slug: str, round_number: int, entry_id: int
) -> HttpResponse:
    """The result of an external game (a club duty that was a team match) in an open round."""
    rnd = round_for_td(request, season_slug, round_number)
    form = ExternalResultForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form_errors(form)))
    elif rounds_selectors.round_entry(rnd, entry_id) is None:
        messages.error(request, _("This entry no longer exists; reload the round."))
    else:
        try:
            rounds.external_result_record(
                entry_id=entry_id,
                result=form.cleaned_data["result"],
                expected_version=form.cleaned_data["version"],
                user=request.user,
            )
        except ServiceError as error:
            messages.error(request, str(error))
    return redirect(_round_url("td_results", rnd) + "#entries")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def td_entry_correct(
    request: AuthenticatedRequest, season_slug: str, round_number: int, entry_id: int
) -> HttpResponse:
    rnd = round_for_td(request, season_slug, round_number)
    return _correct(request, rnd, entry_id, ENTRY_CORRECTION)
