"""The TD's pairing page: the draft (or published) pairing with the engine's reasons as
sentences, who is absent, and in a published round who left and who may still leave."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from competition.models import ABSENCE_KINDS, Game, Round, RoundEntry
from competition.pairing import FixedBoard, PairingError, PairingProposal, ReasonKind, pair_round
from competition.presentation.reasons import describe_reason
from competition.selectors.common import participant_names
from competition.selectors.evening import Draft, draft_of, pairing_request, participants_in_round


@dataclass(frozen=True)
class PairingBoardRow:
    number: int
    game_id: int
    white_id: int
    black_id: int
    white: str
    black: str
    white_rank: int | None
    black_rank: int | None
    fixed: bool
    colour_note: str
    rematch: bool


@dataclass(frozen=True)
class PairingPage:
    boards: list[PairingBoardRow]
    bye_id: int | None
    bye_name: str
    bye_fixed: bool
    reasons: list[str]  # bye and rematch sentences, and colour differences beyond 2
    present: list[tuple[int, str]]  # (id, name) in standing order, for the TD's forms
    not_paired: list[str]
    absent: list[tuple[str, str]]  # (name, kind label)
    stale: bool  # the pairing no longer matches what the engine would give (attendance changed)
    present_count: int = 0
    ranks: dict[int, int] = field(default_factory=dict)
    # published: who left after publishing, with the board he left (services.leaving) ...
    departures: list[tuple[str, int]] = field(default_factory=list)
    # ... and who may still leave: the players of the boards without a result, and the bye
    may_leave: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class _EngineReasons:
    """The engine's reasons for a pairing, as sentences with the players' names."""

    colour_by_pair: dict[frozenset[int], str] = field(default_factory=dict)
    rematch_pairs: set[frozenset[int]] = field(default_factory=set)
    sentences: list[str] = field(default_factory=list)


def _engine_reasons(proposal: PairingProposal, names: Mapping[int, str]) -> _EngineReasons:
    """Why the engine paired as it did: each board's colours, the bye, the rematches, the
    rules it applied and the colour differences it had to exceed."""
    reasons = _EngineReasons(
        colour_by_pair={
            proposed.player_ids: describe_reason(proposed.colour_reason, names)
            for proposed in proposal.boards
        },
    )
    reasons.sentences.extend(describe_reason(r, names) for r in proposal.bye_reasons)
    for reason in proposal.rematches:
        reasons.rematch_pairs.add(frozenset((reason["white_id"], reason["black_id"])))
        reasons.sentences.append(describe_reason(reason, names))
    reasons.sentences.extend(describe_reason(r, names) for r in proposal.rule_notes)
    reasons.sentences.extend(
        describe_reason(r, names)
        for r in proposal.colour_notes
        if r.kind == ReasonKind.COLOUR_DIFFERENCE_EXCEEDED
    )
    return reasons


def _proposes_draft(proposal: PairingProposal, draft: Draft) -> bool:
    """Whether re-running the engine gives the stored draft (the same boards and bye)."""
    return {(b.white_id, b.black_id) for b in proposal.boards} == {
        (b.white_id, b.black_id) for b in draft.boards
    } and proposal.bye_id == draft.bye_id


def _pairing_rows(
    round: Round,
    draft: Draft,
    names: Mapping[int, str],
    ranks: Mapping[int, int],
    reasons: _EngineReasons,
) -> list[PairingBoardRow]:
    # the boards in board order, as the draft lists them; a published round can have a gap
    # (a player left and his opponent got the bye: services.leaving)
    games = list(Game.objects.filter(round=round).order_by("board"))
    rows = []
    for index, board in enumerate(draft.boards):
        game = games[index] if index < len(games) else None
        number = game.board if game is not None else index + 1
        pair = frozenset((board.white_id, board.black_id))
        rows.append(
            PairingBoardRow(
                number=number,
                game_id=game.id if game is not None else 0,
                white_id=board.white_id,
                black_id=board.black_id,
                white=names.get(board.white_id, "?"),
                black=names.get(board.black_id, "?"),
                white_rank=ranks.get(board.white_id),
                black_rank=ranks.get(board.black_id),
                fixed=board.fixed,
                colour_note=reasons.colour_by_pair.get(pair, ""),
                rematch=pair in reasons.rematch_pairs,
            )
        )
    return rows


def pairing_page(*, round: Round) -> PairingPage:
    """The draft (or published) pairing with the engine's reasons as sentences.

    The engine is deterministic, so the reasons are those of re-running it with the TD's fixed
    boards and bye; when that no longer gives the stored pairing (attendance changed since),
    the page says the pairing is stale instead of showing reasons that do not apply.
    """
    names = participant_names(season_id=round.season_id)
    draft = draft_of(round=round)
    reasons = _EngineReasons()
    absences = list(RoundEntry.objects.filter(round=round, kind__in=ABSENCE_KINDS))
    absent = [(names.get(e.participant_id, "?"), e.get_kind_display()) for e in absences]
    departures = [
        (names.get(e.participant_id, "?"), e.left_board) for e in absences if e.left_board
    ]
    fixed = [FixedBoard(b.white_id, b.black_id) for b in draft.boards if b.fixed]
    fixed_bye = draft.bye_id if draft.bye_fixed else None
    request = None
    proposal = None
    if not round.season.is_round_robin:
        request = pairing_request(round=round, fixed_boards=fixed, fixed_bye=fixed_bye)
        if draft.boards:
            try:
                proposal = pair_round(request)
            except PairingError:
                proposal = None
    ranks = {p.player_id: p.rank for p in request.players} if request else {}
    present_ids = (
        [p.player_id for p in request.players]
        if request
        else [p.id for p in participants_in_round(round=round)]
    )
    stale = False
    if proposal is not None:
        if _proposes_draft(proposal, draft):
            reasons = _engine_reasons(proposal, names)
        else:
            stale = round.is_planned
    rows = _pairing_rows(round, draft, names, ranks, reasons)
    covered = {pid for b in draft.boards for pid in (b.white_id, b.black_id)} | {draft.bye_id}
    not_paired = [names[pid] for pid in present_ids if pid not in covered] if draft.boards else []
    if not_paired and round.is_planned:
        stale = True
    return PairingPage(
        boards=rows,
        bye_id=draft.bye_id,
        bye_name=names.get(draft.bye_id, "") if draft.bye_id else "",
        bye_fixed=draft.bye_fixed,
        reasons=reasons.sentences,
        present=[(pid, names[pid]) for pid in present_ids],
        not_paired=not_paired,
        absent=absent,
        stale=stale,
        present_count=len(present_ids),
        ranks=ranks,
        departures=departures,
        may_leave=_may_leave(round, draft, names) if round.is_published else [],
    )


def _may_leave(round: Round, draft: Draft, names: Mapping[int, str]) -> list[tuple[int, str]]:
    """The players of a published round who have not played yet (boards without a result, in
    board order, then the bye): those the TD can mark as leaving."""
    open_boards = Game.objects.filter(round=round, result=Game.Result.NOT_PLAYED).order_by("board")
    ids = [pid for pair in open_boards.values_list("white_id", "black_id") for pid in pair]
    if draft.bye_id is not None:
        ids.append(draft.bye_id)
    return [(pid, names.get(pid, "?")) for pid in ids]
