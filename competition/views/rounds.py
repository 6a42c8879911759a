"""A round: its public page (cached per round, :mod:`competition.views.page_cache`) and the
tournament director's pages from opening a round to the closed round: the round's steps
(publish, unpublish, close), the printed pairing, the results, the summary, the corrections.

The TD's views need a login (Django's ``login_required``: anonymous users are sent to it) and TD
rights for the season's club (others get 403). Views validate a form and call one service. A
board's result can be saved by ``fetch`` (``static/js/td.js``): the answer is then JSON instead
of a redirect, so the page keeps its state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from competition.forms.evening import (
    CorrectionForm,
    EntryCorrectionForm,
    ExternalResultForm,
    LatecomerForm,
    ResultForm,
    RoundNewForm,
)
from competition.models import ExternalResult, Game, ResultEntry, Round, RoundEntry, Season
from competition.permissions import (
    AuthenticatedRequest,
    is_td,
    named_in,
    present,
    round_found,
    season_for_td,
    season_of_address,
    td_round_view,
)
from competition.presentation import numbers
from competition.scoring.registry import get_system
from competition.scoring.series import evening_of
from competition.selectors import evening as evening_selectors
from competition.selectors import result_reports as report_selectors
from competition.selectors import rounds as rounds_selectors
from competition.selectors import series as series_selectors
from competition.selectors import standings as standings_selectors
from competition.selectors.corrections import corrections_for_round
from competition.selectors.pairing_page import pairing_page
from competition.services import evening, rounds
from competition.services import series as rapid_series
from competition.services.errors import ServiceError
from competition.services.rounds import result_record, round_complete, round_create
from competition.views.actions import form_errors
from competition.views.page_cache import _round_versions, anonymous_page_cache
from competition.views.tables import PairingsTable, table_rows_html


def _pairings_table(season: Season, data: rounds_selectors.RoundPage) -> PairingsTable:
    results = dict(Game.Result.choices)
    return PairingsTable(
        [
            {
                "board": game.board,
                "white": data.names[game.white_id],
                "white_id": game.white_id,
                "black": data.names[game.black_id],
                "black_id": game.black_id,
                "white_place": data.places.get(game.white_id),
                "black_place": data.places.get(game.black_id),
                "result": game.result,
                "result_display": results.get(game.result, game.result),
            }
            for game in data.games
        ],
        season_slug=season.slug,
    )


@require_safe
@anonymous_page_cache(keep=(), versions=_round_versions)
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round: pairings and results, absences by kind, byes, corrections.

    Not keyed by the season's versions like the other pages (a result saved in the open round
    changes this page before any standings): anonymous readers get it from the cache under
    :func:`~competition.selectors.page_cache.round_versions`, which every change to the round's
    boards, entries or status moves."""
    season = season_of_address(request, slug)
    data = round_found(lambda: rounds_selectors.round_detail(season=season, number=number))
    table = _pairings_table(season, data)
    table.rows_html = table_rows_html(table)  # the rows without the template's per-cell work
    # The club's TDs get a way to correct the round from here (the page is never cached).
    td_url = ""
    if is_td(request.user, season.club):
        step = "td_round_summary" if data.round.is_completed else "td_round"
        td_url = reverse(
            f"competition:{step}", kwargs={"season_slug": season.slug, "round_number": number}
        )
    return render(
        request,
        "competition/round.html",
        {"season": season, "data": data, "table": table, "tab": "rounds", "td_url": td_url},
    )


@require_safe
def round_latest(request: HttpRequest, slug: str) -> HttpResponse:
    """The latest round of the season (the one being played, else the last one)."""
    season = season_of_address(request, slug)
    number = rounds_selectors.latest_round_number(season=season)
    if number is None:
        return render(
            request, "competition/round.html", {"season": season, "data": None, "tab": "rounds"}
        )
    return redirect("competition:round", slug=season.slug, number=number)


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
@td_round_view
def td_round(request: AuthenticatedRequest, rnd: Round) -> HttpResponse:
    """The round's current step: attendance, pairing, results, or the closed round."""
    step = rounds_selectors.current_step(round=rnd)
    target = {
        rounds_selectors.Step.ATTENDANCE: "td_attendance",
        rounds_selectors.Step.PAIRING: "td_pairing",
        rounds_selectors.Step.RESULTS: "td_results",
        rounds_selectors.Step.CLOSED: "td_round_summary",
    }[step]
    return redirect(_round_url(target, rnd))


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
@td_round_view
def td_round_step(request: AuthenticatedRequest, rnd: Round, step: str) -> HttpResponse:
    """Publish, withdraw or close the round (see ``ROUND_STEPS``)."""
    round_step = named_in(ROUND_STEPS, step)
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
@td_round_view
def td_round_print(request: AuthenticatedRequest, rnd: Round) -> HttpResponse:
    """The pairing for the wall: A4, large type, 40 boards on a page."""
    return render(
        request,
        "competition/td/print.html",
        {
            "round": rnd,
            "page": pairing_page(round=rnd),
            "entries": rounds_selectors.round_entries(round=rnd),
        },
    )


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
@td_round_view
def td_results(request: AuthenticatedRequest, rnd: Round) -> HttpResponse:
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
            # the page follows the players' entries by itself (static/js/td.js)
            "reports_live": rnd.is_published and rnd.season.result_entry != ResultEntry.TD,
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
@td_round_view
def td_result_save(request: AuthenticatedRequest, rnd: Round, game_id: int) -> HttpResponse:
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
@td_round_view
def td_round_summary(request: AuthenticatedRequest, rnd: Round) -> HttpResponse:
    """The closed round: who moved in the standings, every board and entry, the corrections."""
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
@td_round_view
def td_result_correct(request: AuthenticatedRequest, rnd: Round, game_id: int) -> HttpResponse:
    return _correct(request, rnd, game_id, RESULT_CORRECTION)


@require_POST
@td_round_view
def td_external_result_save(
    request: AuthenticatedRequest, rnd: Round, entry_id: int
) -> HttpResponse:
    """The result of an external game (a club duty that was a team match) in an open round."""
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
@td_round_view
def td_entry_correct(request: AuthenticatedRequest, rnd: Round, entry_id: int) -> HttpResponse:
    return _correct(request, rnd, entry_id, ENTRY_CORRECTION)
