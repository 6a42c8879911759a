"""Results the players enter on their own phones, and how they become the board's result.

The season's ``result_entry`` says who enters results (docs/club-evening.md#results-by-the-players):

- ``td``: the TD only; every player's report is refused.
- ``players_td_confirms``: a player enters his board's result; the TD confirms it in one tap
  (:func:`result_report_td_confirm`). The opponent may dispute it.
- ``players_agree``: a player enters it, the opponent confirms it (or enters the same result):
  the agreement saves it. A different result from the opponent, or his "that is not right",
  makes the board disputed.

A confirmed report is saved through :func:`competition.services.rounds.result_record`, the same
versioned service as the TD's own entry, by the user who confirmed it and with the reason
"entered by X, confirmed by Y" (the players' public names) in the board's history. A disputed
or missing result waits for the TD, whose own entry on the board is final: it marks every open
report superseded. Every function locks the round first, as ``result_record`` does, so two
players answering at the same moment take turns and the second sees the first.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.models import (
    OPEN_STATUSES,
    PLAYER_RESULTS,
    Game,
    Participant,
    ResultEntry,
    ResultReport,
    Round,
    Season,
)
from competition.selectors.common import public_names
from competition.selectors.corrections import td_public_name
from competition.services.errors import ServiceError
from competition.services.rounds import result_record, round_lock


@transaction.atomic
def season_result_entry_update(*, season: Season, result_entry: str) -> Season:
    """Who enters the season's results: the TD only, a player with the TD's confirmation, or
    both players in agreement. Reports already made stay as they are; the TD settles them."""
    if result_entry not in ResultEntry.values:
        raise ServiceError(
            _("Unknown way of entering results: %(value)s.") % {"value": result_entry}
        )
    season = Season.objects.select_for_update().get(pk=season.pk)
    season.result_entry = result_entry
    season.save(update_fields=["result_entry"])
    return season


def _board_locked(game_id: int) -> tuple[Round, Game]:
    """The game's round under its lock, then the game under its own."""
    round_id = Game.objects.filter(pk=game_id).values_list("round_id", flat=True).first()
    if round_id is None:
        raise ServiceError(_("This board no longer exists; reload the page."))
    round = round_lock(round_id)
    game = Game.objects.select_for_update(of=("self",)).filter(pk=game_id).first()
    if game is None:
        raise ServiceError(_("This board no longer exists; reload the page."))
    game.round = round
    return round, game


def _ensure_board_open(round: Round, game: Game) -> None:
    """Refuse while the pairing is a draft, once the round is closed, and once the board has
    its result (the TD's, or an agreement's): from then on only the TD changes it."""
    if round.is_planned:
        raise ServiceError(_("The pairing is not published yet."))
    if round.is_completed:
        raise ServiceError(
            _("Round %(round)s is closed: only the TD changes its results.")
            % {"round": round.number}
        )
    if game.result != Game.Result.NOT_PLAYED:
        raise ServiceError(
            _("Board %(board)s already has its result: %(result)s. Ask the TD if it is wrong.")
            % {"board": game.board, "result": game.get_result_display()}
        )


def _ensure_player(round: Round, game: Game, participant: Participant, user: User | None) -> None:
    """Refuse a season whose results only the TD enters, someone who does not play on this
    board, and a user who is not that player (members act only for themselves)."""
    if round.season.result_entry == ResultEntry.TD:
        raise ServiceError(_("In this competition the TD enters the results."))
    if participant.pk not in (game.white_id, game.black_id):
        raise ServiceError(
            _("You do not play on board %(board)s of round %(round)s.")
            % {"board": game.board, "round": round.number}
        )
    if user is None or participant.member.user_id != user.pk:
        raise ServiceError(_("Only the player himself can enter his result."))


def _open_reports(game: Game) -> list[ResultReport]:
    return list(
        ResultReport.objects.select_for_update()
        .filter(game=game, status__in=OPEN_STATUSES)
        .order_by("reported_at", "pk")
    )


def _confirm(
    round: Round,
    game: Game,
    report: ResultReport,
    *,
    confirmer: Participant | None,
    user: User | None,
) -> ResultReport:
    """Save ``report``'s result as the board's, by ``user``: confirmed by the opponent
    ``confirmer``, or (None) by the TD. Every open report of the same result is confirmed
    with it."""
    names = public_names(season_id=round.season_id)
    reason = _("entered by %(entered)s, confirmed by %(confirmed)s") % {
        "entered": names.get(report.participant_id, "?"),
        "confirmed": names.get(confirmer.pk, "?") if confirmer is not None else td_public_name(),
    }
    agreeing = [
        r.pk for r in _open_reports(game) if r.result == report.result and r.pk != report.pk
    ]
    result_record(
        game_id=game.pk,
        result=report.result,
        expected_version=game.version,
        user=user,
        reason=reason,
    )
    ResultReport.objects.filter(pk__in=[report.pk, *agreeing]).update(
        status=ResultReport.Status.CONFIRMED, confirmed_by=confirmer
    )
    report.refresh_from_db()
    return report


def _enter(
    round: Round, game: Game, participant: Participant, result: str, user: User | None
) -> ResultReport:
    """The player's result for his board, with what is open on it already (the caller holds
    the locks and checked the board and the player)."""
    reports = _open_reports(game)
    mine = next((r for r in reports if r.participant_id == participant.pk), None)
    theirs = next((r for r in reports if r.participant_id != participant.pk), None)
    if mine is not None and mine.result == result:
        return mine  # a second tap, or the same word again: nothing changes
    if any(r.status == ResultReport.Status.DISPUTED for r in reports):
        raise ServiceError(
            _("The result of board %(board)s is disputed: the TD decides it.")
            % {"board": game.board}
        )
    if theirs is not None and theirs.result != result:
        # Two different words on one board: neither counts, the TD decides.
        ResultReport.objects.filter(pk__in=[r.pk for r in reports]).update(
            status=ResultReport.Status.DISPUTED
        )
        if mine is None:
            return ResultReport.objects.create(
                game=game,
                participant=participant,
                result=result,
                status=ResultReport.Status.DISPUTED,
            )
        mine.refresh_from_db()
        return mine
    if theirs is not None and round.season.result_entry == ResultEntry.PLAYERS_AGREE:
        return _confirm(round, game, theirs, confirmer=participant, user=user)
    if mine is not None:  # he changes his word before anyone answered it
        mine.result, mine.reported_at = result, timezone.now()
        mine.save(update_fields=["result", "reported_at"])
        return mine
    return ResultReport.objects.create(game=game, participant=participant, result=result)


@transaction.atomic
def result_report(
    *, game_id: int, participant: Participant, result: str, user: User | None
) -> ResultReport:
    """``participant`` enters the result of his own board in the published round.

    The opponent's report of the same result is an agreement (saved as the board's result when
    the season's players agree; in a season where the TD confirms, both reports wait for him),
    a different one a dispute. Entering the same result again changes nothing; a player may
    change his own result until his opponent answered it. Refused for forfeits (the TD's),
    for a season whose results the TD enters, for someone not on this board, and once the
    board has its result or the round is closed.
    """
    if result not in PLAYER_RESULTS:
        raise ServiceError(_("Players enter 1-0, ½-½ or 0-1; forfeits are for the TD."))
    round, game = _board_locked(game_id)
    _ensure_player(round, game, participant, user)
    _ensure_board_open(round, game)
    report = _enter(round, game, participant, result, user)
    report.game = game
    return report


@transaction.atomic
def result_report_answer(
    *, report_id: int, participant: Participant, agree: bool, result: str, user: User | None
) -> ResultReport:
    """The opponent answers the result ``result`` (as his page showed it) that the other
    player entered: ``agree`` confirms it (in a season where the TD confirms, it waits for the
    TD), else it is disputed and the TD decides. A second tap of the same answer changes
    nothing; an answer to a result changed meanwhile is refused."""
    game_id = ResultReport.objects.filter(pk=report_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise ServiceError(_("This result is no longer there; reload the page."))
    round, game = _board_locked(game_id)
    _ensure_player(round, game, participant, user)
    report = ResultReport.objects.select_for_update().get(pk=report_id)
    report.game = game
    if report.participant_id == participant.pk:
        raise ServiceError(_("Your opponent confirms your result, not you."))
    if agree and report.status == ResultReport.Status.CONFIRMED and game.result == report.result:
        return report  # a second tap on "confirm"
    if not agree and report.status == ResultReport.Status.DISPUTED:
        return report  # a second tap on "not right"
    _ensure_board_open(round, game)
    if report.status != ResultReport.Status.ENTERED:
        raise ServiceError(_("This result is no longer open; reload the page."))
    if report.result != result:
        raise ServiceError(
            _("Your opponent changed the result to %(result)s meanwhile; look again.")
            % {"result": report.get_result_display()}
        )
    if agree:
        answered = _enter(round, game, participant, report.result, user)
        answered.game = game
        return answered
    report.status = ResultReport.Status.DISPUTED
    report.save(update_fields=["status"])
    return report


@transaction.atomic
def result_report_td_confirm(*, report_id: int, user: User | None) -> Game:
    """The TD confirms a result a player entered, in one tap: saved as the board's result
    (in either season where the players enter). A disputed result is not confirmed: the TD
    enters the board's result himself. A second tap changes nothing."""
    game_id = ResultReport.objects.filter(pk=report_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise ServiceError(_("This result is no longer there; reload the round."))
    round, game = _board_locked(game_id)
    report = ResultReport.objects.select_for_update().get(pk=report_id)
    if report.status == ResultReport.Status.CONFIRMED and game.result == report.result:
        return game  # a second tap
    _ensure_board_open(round, game)
    if report.status == ResultReport.Status.DISPUTED:
        raise ServiceError(
            _("The result of board %(board)s is disputed: enter it yourself.")
            % {"board": game.board}
        )
    if report.status != ResultReport.Status.ENTERED:
        raise ServiceError(_("This result is no longer open; reload the round."))
    _confirm(round, game, report, confirmer=None, user=user)
    game.refresh_from_db()
    return game
