"""The club evening as the tournament director (TD) runs it: attendance, pairing, publishing
and corrections of entries. Opening rounds, results and closing are in
:mod:`competition.services.rounds`; the reads (the draft, who is present, the pairing engine's
input) in :mod:`competition.selectors.evening`.

A round moves planned → paired (published) → completed. While it is planned, the pairing is a
*draft*: ordinary ``Game`` rows and a ``bye`` entry that the TD may swap, fix, re-run or throw
away; members only see it once it is published. Which draft boards (and which bye) the TD set
by hand is kept on the rows themselves (``Game.fixed_by_td``, ``RoundEntry.fixed_by_td``), so a
re-run "on the rest" keeps them whichever TD or device asks for it.

Every function is one transaction that locks the round first, so two TDs editing the same
evening take turns; a refused action raises :class:`ServiceError` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from competition.models import (
    ABSENCE_KINDS,
    ATTENDANCE_CHOICES,
    DRAFT_ENTRY_KINDS,
    PRESENT,
    ExternalResult,
    Game,
    Member,
    Participant,
    Round,
    RoundEntry,
)
from competition.pairing import (
    FixedBoard,
    PairingError,
    PairingProposal,
    PairingRequest,
    pair_round,
)
from competition.pairing.berger import berger_cycle_round
from competition.presentation.numbers import points_text
from competition.scoring.series import round_in_evening
from competition.selectors.common import participant_names
from competition.selectors.evening import (
    Draft,
    DraftBoard,
    absent_ids,
    draft_of,
    pairing_request,
    participants_in_round,
    participants_not_paired,
    present_participants,
    round_has_draft,
)
from competition.selectors.rounds import round_has_games
from competition.services.background import after_commit
from competition.services.errors import ServiceError
from competition.services.push import pairing_push_queue
from competition.services.ratings import club_ratings_replay
from competition.services.rounds import changed_by, entry_record, round_lock
from competition.services.standings import standings_recompute

# --- checks and the pairing engine ----------------------------------------------------------


def _require_planned(round: Round) -> None:
    if round.is_published:
        raise ServiceError(
            _("The pairing of round %(round)s is published; withdraw it first to change it.")
            % {"round": round.number}
        )
    if round.is_completed:
        raise ServiceError(_("Round %(round)s is closed.") % {"round": round.number})


def _engine(request: PairingRequest) -> PairingProposal:
    try:
        return pair_round(request)
    except PairingError as error:  # the services validate first; this is a last safety net
        raise ServiceError(_("The pairing could not be made: %(error)s") % {"error": error}) from (
            error
        )


def _berger_draft(round: Round) -> Draft:
    """The round-robin round from the Berger tables (FIDE C.05 Annex 1), by start number."""
    players = participants_in_round(round=round)
    if len(players) < 2:
        raise ServiceError(_("A round robin needs at least two participants."))
    number = round.number
    if round.season.is_rapid_series:  # every evening is a round robin of its own
        number = round_in_evening(number, round.season.rounds_per_evening)
    games, bye_no = berger_cycle_round(len(players), number)
    boards = tuple(
        DraftBoard(players[white_no - 1].id, players[black_no - 1].id, fixed=False)
        for white_no, black_no in games
    )
    return Draft(boards, players[bye_no - 1].id if bye_no else None, bye_fixed=False)


# --- writing the draft -----------------------------------------------------------------------


def _clear_draft(round: Round) -> None:
    Game.objects.filter(round=round).delete()
    RoundEntry.objects.filter(round=round, kind__in=DRAFT_ENTRY_KINDS).delete()


def _write_draft(round: Round, draft: Draft, user: User | None) -> None:
    """Replace the round's pairing by ``draft`` after checking it covers the present exactly."""
    present = {p.id for p in present_participants(round=round)}
    seen: list[int] = [pid for b in draft.boards for pid in (b.white_id, b.black_id)]
    if draft.bye_id is not None:
        seen.append(draft.bye_id)
    names = participant_names(season_id=round.season_id)
    for board in draft.boards:
        if board.white_id == board.black_id:
            raise ServiceError(_("A player cannot play himself."))
    for pid in seen:
        if seen.count(pid) > 1:
            raise ServiceError(
                _("%(name)s would be paired twice.") % {"name": names.get(pid, str(pid))}
            )
        if pid not in present:
            raise ServiceError(
                _("%(name)s is not present and cannot be paired.")
                % {"name": names.get(pid, str(pid))}
            )
    _clear_draft(round)
    for number, board in enumerate(draft.boards, start=1):
        Game.objects.create(
            round=round,
            board=number,
            white_id=board.white_id,
            black_id=board.black_id,
            fixed_by_td=board.fixed,
            updated_by=user,
        )
    if draft.bye_id is not None:
        RoundEntry.objects.create(
            round=round,
            participant_id=draft.bye_id,
            kind=RoundEntry.Kind.BYE,
            points=round.season.bye_points,
            fixed_by_td=draft.bye_fixed,
            updated_by=user,
        )


def _draft_from_proposal(proposal: PairingProposal, bye_fixed: bool) -> Draft:
    return Draft(
        boards=tuple(DraftBoard(b.white_id, b.black_id, b.fixed_by_td) for b in proposal.boards),
        bye_id=proposal.bye_id,
        bye_fixed=bye_fixed and proposal.bye_id is not None,
    )


def _pair_rest(
    round: Round,
    fixed: Sequence[DraftBoard],
    fixed_bye: int | None,
    user: User | None,
) -> PairingProposal:
    request = pairing_request(
        round=round,
        fixed_boards=[FixedBoard(b.white_id, b.black_id) for b in fixed],
        fixed_bye=fixed_bye,
    )
    proposal = _engine(request)
    _write_draft(round, _draft_from_proposal(proposal, fixed_bye is not None), user)
    return proposal


def _participant(round: Round, participant: Participant | int) -> Participant:
    pid = participant.pk if isinstance(participant, Participant) else participant
    found = Participant.objects.select_related("member").filter(pk=pid).first()
    if found is None or found.season_id != round.season_id:
        raise ServiceError(_("This player does not take part in this season."))
    return found


# --- attendance ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttendanceOutcome:
    changed: int
    draft_discarded: bool


@transaction.atomic
def attendance_record(
    *,
    round: Round,
    marks: Mapping[int, str],
    user: User | None,
    then_pair: bool = False,
) -> AttendanceOutcome:
    """Record who is present; ``marks`` maps participant ids to "present" or an absence kind.

    Participants not in ``marks`` keep what they have. A change throws the draft pairing away
    (it may pair someone who is now absent); the TD pairs again, or ``then_pair`` pairs afresh
    in the same transaction (when the pairing is refused, the attendance is not saved either).
    """
    round = round_lock(round.pk)
    _require_planned(round)
    if round.season.is_round_robin:
        raise ServiceError(
            _("A round-robin round follows the Berger table; record an absence as a forfeit.")
        )
    in_round = {p.id: p for p in participants_in_round(round=round)}
    current = dict(
        RoundEntry.objects.filter(round=round, kind__in=ABSENCE_KINDS).values_list(
            "participant_id", "kind"
        )
    )
    changes: dict[int, str] = {}
    for pid, mark in marks.items():
        if mark not in ATTENDANCE_CHOICES:
            raise ServiceError(_("Unknown attendance: %(mark)s.") % {"mark": mark})
        if pid not in in_round:
            raise ServiceError(_("This player does not take part in this round."))
        if current.get(pid, PRESENT) != mark:
            changes[pid] = mark
    discard = bool(changes) and round_has_draft(round=round)
    if discard:
        _clear_draft(round)
    for pid, mark in changes.items():
        if mark == PRESENT:
            RoundEntry.objects.filter(round=round, participant_id=pid).delete()
        else:
            entry_record(round=round, participant=in_round[pid], kind=mark, user=user)
    if then_pair:
        pairing_propose(round=round, user=user, keep_fixed=False)
    return AttendanceOutcome(changed=len(changes), draft_discarded=discard)


@transaction.atomic
def latecomer_add(
    *,
    round: Round,
    member: Member | None = None,
    name: str = "",
    user: User | None = None,
    marks: Mapping[int, str] | None = None,
) -> Participant:
    """Add a late-comer to ``round``: a club member (or a new one by name) joins as present.

    An existing participant who was marked absent is simply marked present. A draft pairing is
    re-run on the rest (the TD's fixed boards stay), so the late-comer is paired at once. In a
    published round the boards stay as they are (see :func:`_seat_in_published_round`).
    ``marks`` is the attendance the TD marked on the page but had not saved yet: it is recorded
    first (``attendance_record``), in the same transaction, so adding a late-comer loses nothing.
    """
    round = round_lock(round.pk)
    if round.is_completed:
        raise ServiceError(_("Round %(round)s is closed.") % {"round": round.number})
    if round.season.is_round_robin:
        raise ServiceError(_("A round robin cannot take new players during the season."))
    if marks and round.is_planned:
        attendance_record(round=round, marks=marks, user=user)
    club = round.season.club
    if member is None:
        name = name.strip()
        if not name:
            raise ServiceError(_("Choose a member or type the late-comer's name."))
        member = Member.objects.filter(club=club, name__iexact=name).first() or (
            Member.objects.create(club=club, name=name)
        )
    elif member.club_id != club.pk:
        raise ServiceError(_("%(name)s is not a member of this club.") % {"name": member.name})
    participant = Participant.objects.filter(season=round.season, member=member).first()
    if participant is None:
        last = Participant.objects.filter(season=round.season).aggregate(m=Max("start_rank"))["m"]
        participant = Participant.objects.create(
            season=round.season,
            member=member,
            start_rank=(last or 0) + 1,
            joined_round=round.number,
            rating=member.rating,  # the event rating, frozen now (C.07 10.1)
        )
    elif (
        participant.withdrawn_from_round is not None
        and participant.withdrawn_from_round <= round.number
    ):
        raise ServiceError(
            _(
                "%(name)s withdrew from the season from round %(round)s; take the withdrawal "
                "back on the members page first."
            )
            % {"name": member.name, "round": participant.withdrawn_from_round}
        )
    elif participant.joined_round > round.number:
        participant.joined_round = round.number
        participant.save(update_fields=["joined_round"])
    RoundEntry.objects.filter(round=round, participant=participant, kind__in=ABSENCE_KINDS).delete()
    if round.is_published:
        _seat_in_published_round(round, participant, user)
    elif round_has_games(round=round):
        draft = draft_of(round=round)
        if draft.slot_of(participant.id) is None:
            fixed_bye = draft.bye_id if draft.bye_fixed else None
            _pair_rest(round, [b for b in draft.boards if b.fixed], fixed_bye, user)
    return participant


def _seat_in_published_round(round: Round, latecomer: Participant, user: User | None) -> None:
    """Seat a late-comer in a published round without touching a board that is there.

    He plays another present player who is still unpaired, else the player who has the bye
    (that bye becomes a game); each on a new board after the last. With nobody free he gets the
    bye. White goes to the one who has had white less often than black so far (games played
    over the board), and when that is even to the one who was there first.
    """
    draft = draft_of(round=round)
    if draft.slot_of(latecomer.pk) is not None:
        return
    waiting = [p.pk for p in participants_not_paired(round=round) if p.pk != latecomer.pk]
    opponent_id = waiting[0] if waiting else draft.bye_id
    if opponent_id is None:
        entry_record(round=round, participant=latecomer, kind=RoundEntry.Kind.BYE, user=user)
        return
    if not waiting:
        RoundEntry.objects.filter(round=round, participant_id=opponent_id).delete()
    balance = {p.player_id: p.whites - p.blacks for p in pairing_request(round=round).players}
    if balance.get(latecomer.pk, 0) < balance.get(opponent_id, 0):
        white_id, black_id = latecomer.pk, opponent_id
    else:
        white_id, black_id = opponent_id, latecomer.pk
    last_board = Game.objects.filter(round=round).aggregate(last=Max("board"))["last"] or 0
    Game.objects.create(
        round=round, board=last_board + 1, white_id=white_id, black_id=black_id, updated_by=user
    )


# --- pairing ---------------------------------------------------------------------------------


@transaction.atomic
def pairing_propose(
    *, round: Round, user: User | None, keep_fixed: bool = True
) -> PairingProposal | None:
    """Pair the round: the engine's proposal (ladder) or the Berger table (round robin).

    With ``keep_fixed`` the boards and bye the TD set by hand stay and the engine pairs the
    rest; without, everything is proposed afresh. Returns the engine's proposal (None for a
    round robin).
    """
    round = round_lock(round.pk)
    _require_planned(round)
    if round.season.is_round_robin:
        _write_draft(round, _berger_draft(round), user)
        return None
    present = present_participants(round=round)
    if len(present) < 2:
        raise ServiceError(_("At least two players must be present to pair a round."))
    draft = draft_of(round=round)
    fixed = [b for b in draft.boards if b.fixed] if keep_fixed else []
    fixed_bye = draft.bye_id if keep_fixed and draft.bye_fixed else None
    return _pair_rest(round, fixed, fixed_bye, user)


@transaction.atomic
def pairing_swap(
    *,
    round: Round,
    first: Participant | int,
    second: Participant | int,
    user: User | None,
) -> None:
    """Exchange two players' places: between boards, with the bye, or colours on one board.

    The boards (and bye) touched become fixed by the TD.
    """
    round, a, b = _two_players(round, first, second, _("Choose two different players to swap."))
    draft = draft_of(round=round)
    if not draft.boards:
        raise ServiceError(_("Pair the round first."))
    slot_a, slot_b = draft.slot_of(a.pk), draft.slot_of(b.pk)
    for player, slot in ((a, slot_a), (b, slot_b)):
        if slot is None:
            raise ServiceError(
                _("%(name)s is not in the pairing (absent?).") % {"name": player.member.name}
            )
    assert slot_a is not None and slot_b is not None
    boards = list(draft.boards)
    bye_id, bye_fixed = draft.bye_id, draft.bye_fixed

    def put(slot: tuple[int, str], pid: int) -> None:
        nonlocal bye_id, bye_fixed
        index, side = slot
        if side == "bye":
            bye_id, bye_fixed = pid, True
        elif side == "white":
            boards[index] = DraftBoard(pid, boards[index].black_id, fixed=True)
        else:
            boards[index] = DraftBoard(boards[index].white_id, pid, fixed=True)

    put(slot_a, b.pk)
    put(slot_b, a.pk)
    _write_draft(round, Draft(tuple(boards), bye_id, bye_fixed), user)


def _two_players(
    round: Round, first: Participant | int, second: Participant | int, same: str
) -> tuple[Round, Participant, Participant]:
    """The round, locked and still to be published, and the two players of a change by hand;
    ``same`` is the refusal when both are one player."""
    round = round_lock(round.pk)
    _require_planned(round)
    a, b = _participant(round, first), _participant(round, second)
    if a.pk == b.pk:
        raise ServiceError(same)
    return round, a, b


@transaction.atomic
def pairing_fix(
    *,
    round: Round,
    white: Participant | int,
    black: Participant | int,
    user: User | None,
) -> PairingProposal:
    """Pair ``white`` against ``black`` by hand; their former opponents are paired anew.

    The engine re-runs on everyone not on a fixed board.
    """
    round, w, b = _two_players(round, white, black, _("A player cannot play himself."))
    absent = absent_ids(round=round)
    for player in (w, b):
        if player.pk in absent or not player.takes_part_in(round.number):
            raise ServiceError(
                _("%(name)s is not present and cannot be paired.") % {"name": player.member.name}
            )
    draft = draft_of(round=round)
    both = {w.pk, b.pk}
    fixed = [
        board
        for board in draft.boards
        if board.fixed and not ({board.white_id, board.black_id} & both)
    ]
    fixed.append(DraftBoard(w.pk, b.pk, fixed=True))
    fixed_bye = draft.bye_id if draft.bye_fixed and draft.bye_id not in both else None
    return _pair_rest(round, fixed, fixed_bye, user)


@transaction.atomic
def pairing_move_bye(*, round: Round, to: Participant | int, user: User | None) -> PairingProposal:
    """Give the bye to ``to`` by hand; the engine re-pairs everyone not on a fixed board."""
    round = round_lock(round.pk)
    _require_planned(round)
    player = _participant(round, to)
    if player.pk in absent_ids(round=round) or not player.takes_part_in(round.number):
        raise ServiceError(
            _("%(name)s is not present and cannot get the bye.") % {"name": player.member.name}
        )
    if len(present_participants(round=round)) % 2 == 0:
        raise ServiceError(_("An even number of players is present: nobody gets a bye."))
    draft = draft_of(round=round)
    fixed = [
        board
        for board in draft.boards
        if board.fixed and player.pk not in (board.white_id, board.black_id)
    ]
    return _pair_rest(round, fixed, player.pk, user)


@transaction.atomic
def round_publish(*, round: Round, user: User | None) -> Round:
    """Publish the draft pairing: members see it, and results can be entered."""
    round = round_lock(round.pk)
    _require_planned(round)
    draft = draft_of(round=round)
    if not draft.boards:
        raise ServiceError(_("Pair the round before publishing it."))
    present = {p.id: p for p in present_participants(round=round)}
    covered = {pid for board in draft.boards for pid in (board.white_id, board.black_id)}
    if draft.bye_id is not None:
        covered.add(draft.bye_id)
    missing = [p.member.name for pid, p in present.items() if pid not in covered]
    if missing:
        raise ServiceError(
            _("Not paired yet: %(names)s. Re-run the pairing.") % {"names": ", ".join(missing)}
        )
    stray = covered - set(present)
    if stray:
        raise ServiceError(_("An absent player is in the pairing. Re-run the pairing."))
    round.status = Round.Status.PAIRED
    round.save(update_fields=["status"])
    after_commit("mail_pairing_published", round_id=round.pk)
    pairing_push_queue(round_id=round.pk)
    return round


@transaction.atomic
def round_unpublish(*, round: Round, user: User | None) -> Round:
    """Withdraw a published pairing (back to draft) as long as no result has been entered."""
    round = round_lock(round.pk)
    if not round.is_published:
        raise ServiceError(_("Only a published, unfinished pairing can be withdrawn."))
    if Game.objects.filter(round=round).exclude(result=Game.Result.NOT_PLAYED).exists():
        raise ServiceError(_("Results have been entered; the pairing can no longer be withdrawn."))
    round.status = Round.Status.PLANNED
    round.save(update_fields=["status"])
    return round


# --- corrections of a closed round ----------------------------------------------------------


@transaction.atomic
def entry_correct(
    *,
    entry_id: int,
    kind: str,
    points: Decimal | None,
    reason: str,
    user: User | None,
    expected_version: int,
    external_result: str | None = None,
) -> RoundEntry:
    """Correct a closed round's absence, club duty or bye (kind, points and, for a club duty,
    the result of the external game it was: ``external_result``, None keeps it) with a reason,
    unless someone else changed it since ``expected_version`` (then nothing is overwritten and
    the TD is told who changed it, when, and what it holds now)."""
    round_id = RoundEntry.objects.filter(pk=entry_id).values_list("round_id", flat=True).first()
    if round_id is None:
        raise ServiceError(_("This entry no longer exists; reload the round."))
    round = round_lock(round_id)
    if not round.is_completed:
        raise ServiceError(_("Only entries of a closed round are corrected this way."))
    if not reason.strip():
        raise ServiceError(_("A correction needs a reason."))
    if kind not in (*ABSENCE_KINDS, RoundEntry.Kind.BYE):
        raise ServiceError(_("Unknown kind of entry: %(kind)s.") % {"kind": kind})
    if points is not None and points < 0:
        raise ServiceError(_("Points cannot be negative."))
    # Only the entry row is locked; who saved it last is read after the lock (see result_record).
    entry = RoundEntry.objects.select_for_update(of=("self",)).filter(pk=entry_id).first()
    if entry is None:
        raise ServiceError(_("This entry no longer exists; reload the round."))
    if entry.version != expected_version:
        raise ServiceError(
            _(
                "The entry of %(name)s was changed by %(who)s at %(when)s meanwhile; "
                "now %(kind)s (%(points)s)."
            )
            % {
                "name": entry.participant.member.name,
                "kind": entry.get_kind_display(),
                "points": points_text(entry.points),
                **changed_by(entry),
            }
        )
    new_points = points if points is not None else entry.points
    if kind != RoundEntry.Kind.CLUB_DUTY:
        external_result = ""  # only a club duty can be an external game
    new_external = entry.external_result if external_result is None else external_result
    if new_external not in ("", *ExternalResult.values):
        raise ServiceError(
            _("Unknown result of an external game: %(result)s.") % {"result": new_external}
        )
    if entry.kind == kind and entry.points == new_points and entry.external_result == new_external:
        return entry
    external_changed = entry.external_result != new_external
    entry.kind, entry.points, entry.updated_by = kind, new_points, user
    entry.external_result = new_external
    entry.version += 1
    entry._change_reason = reason.strip()
    entry.save()
    standings_recompute(season=round.season, from_round=round.number)  # this round and later
    if external_changed:  # only an external game can count for the club rating
        club_ratings_replay(club=round.season.club, from_date=round.date)
    after_commit("mail_result_corrected", entry_id=entry.pk)
    return entry


__all__ = [
    "AttendanceOutcome",
    "attendance_record",
    "entry_correct",
    "latecomer_add",
    "pairing_fix",
    "pairing_move_bye",
    "pairing_propose",
    "pairing_swap",
    "round_publish",
    "round_unpublish",
]
