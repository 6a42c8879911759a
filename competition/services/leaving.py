"""A player leaves after the pairing is published, before his game: one tap for the TD.

The season's rule (``Season.player_leaves``) says what the tap does:

- *repair* (a ladder's default): his game is taken off and his opponent is paired again on the
  same board, keeping his colour, against a present player who is still waiting for a game (a
  late-comer), else against the player who had the bye (the bye is taken back), else he gets
  the bye himself. The one who left is recorded absent with notice, with the board he left
  (``RoundEntry.left_board``), so the TD's pairing page can say what happened. Every other
  board stays as it is.
- *forfeit* (and always in a round robin, whose boards follow the Berger table): his opponent
  wins the board by forfeit, saved as a result through :func:`result_record`.

A player who had the bye simply loses it (absent with notice). A board with a result is not
changed: he played, and may go. Each call is one transaction that locks the round.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from competition.models import Game, Participant, Round, RoundEntry, Season
from competition.selectors.common import participant_names
from competition.selectors.evening import draft_of, participants_not_paired
from competition.services.errors import ServiceError
from competition.services.rounds import entry_record, result_record, round_lock


@dataclass(frozen=True)
class Departure:
    """What the tap did, in the words the TD reads (``said``)."""

    board: int | None  # the board he left (None: he had the bye)
    opponent_id: int | None
    new_opponent_id: int | None  # who the opponent plays now (repair)
    opponent_has_bye: bool
    forfeit: bool
    said: str


@transaction.atomic
def player_leaves(*, round: Round, participant: Participant | int, user: User | None) -> Departure:
    """``participant`` leaves ``round`` (published, not closed) before his game: see the module
    docstring for what happens to his board."""
    round = round_lock(round.pk)
    if round.is_planned:
        raise ServiceError(
            _("The pairing is not published yet: mark him absent and the draft is paired again.")
        )
    if round.is_completed:
        raise ServiceError(_("Round %(round)s is closed.") % {"round": round.number})
    pid = participant if isinstance(participant, int) else participant.pk
    names = participant_names(season_id=round.season_id)
    if pid not in names:
        raise ServiceError(_("This player does not take part in this round."))
    leaver = Participant.objects.get(pk=pid)
    game = Game.objects.filter(Q(white_id=pid) | Q(black_id=pid), round=round).first()
    if game is None:
        return _leaves_the_bye(round, leaver, names, user)
    if game.result != Game.Result.NOT_PLAYED:
        raise ServiceError(
            _("Board %(board)s already has a result; %(name)s played and may go.")
            % {"board": game.board, "name": names[pid]}
        )
    opponent_id = game.black_id if game.white_id == pid else game.white_id
    if round.season.is_round_robin or round.season.player_leaves == Season.PlayerLeaves.FORFEIT:
        result = (
            Game.Result.BLACK_WINS_FORFEIT
            if game.white_id == pid
            else Game.Result.WHITE_WINS_FORFEIT
        )
        result_record(game_id=game.pk, result=result, expected_version=game.version, user=user)
        said = _("%(name)s left: %(opponent)s wins board %(board)s by forfeit.") % {
            "name": names[pid],
            "opponent": names[opponent_id],
            "board": game.board,
        }
        return Departure(game.board, opponent_id, None, False, True, said)
    return _repair(round, game, leaver, opponent_id, names, user)


def _leaves_the_bye(
    round: Round, leaver: Participant, names: dict[int, str], user: User | None
) -> Departure:
    entry = RoundEntry.objects.filter(round=round, participant=leaver).first()
    if entry is None or entry.kind != RoundEntry.Kind.BYE:
        raise ServiceError(_("%(name)s has no board this evening.") % {"name": names[leaver.pk]})
    entry_record(round=round, participant=leaver, kind=RoundEntry.Kind.ABSENT_NOTICE, user=user)
    said = _("%(name)s left: the bye is taken back.") % {"name": names[leaver.pk]}
    return Departure(None, None, None, False, False, said)


def _repair(
    round: Round,
    game: Game,
    leaver: Participant,
    opponent_id: int,
    names: dict[int, str],
    user: User | None,
) -> Departure:
    """Take the leaver's game off and pair his opponent again on the same board."""
    board, opponent_is_white = game.board, game.white_id == opponent_id
    game.delete()
    entry = entry_record(
        round=round, participant=leaver, kind=RoundEntry.Kind.ABSENT_NOTICE, user=user
    )
    RoundEntry.objects.filter(pk=entry.pk).update(left_board=board)
    values = {"name": names[leaver.pk], "opponent": names[opponent_id], "board": board}
    waiting = [p.pk for p in participants_not_paired(round=round) if p.pk != opponent_id]
    new_id = waiting[0] if waiting else draft_of(round=round).bye_id
    if new_id is None:
        opponent = Participant.objects.get(pk=opponent_id)
        entry_record(round=round, participant=opponent, kind=RoundEntry.Kind.BYE, user=user)
        said = _("%(name)s left: %(opponent)s (board %(board)s) gets the bye.") % values
        return Departure(board, opponent_id, None, True, False, said)
    if not waiting:  # the bye becomes a game
        RoundEntry.objects.filter(round=round, participant_id=new_id).delete()
    white_id, black_id = (opponent_id, new_id) if opponent_is_white else (new_id, opponent_id)
    Game.objects.create(
        round=round, board=board, white_id=white_id, black_id=black_id, updated_by=user
    )
    said = _("%(name)s left: %(opponent)s now plays %(new)s on board %(board)s.") % {
        **values,
        "new": names[new_id],
    }
    return Departure(board, opponent_id, new_id, False, False, said)
