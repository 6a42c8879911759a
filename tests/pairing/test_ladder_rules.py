"""The season's pairing rules on small cases worked out by hand: forbidden pairs, most meetings
per pair, colours reversed at a rematch, one pairing-allocated bye, requested byes, and the
notes that say which rule forced what.

Players are numbered 100 + rank, so 101 is first in the standings. Pairs are written
(white, black) in board order.
"""

from __future__ import annotations

import pytest

from competition.pairing import (
    FixedBoard,
    PairingError,
    PairingRequest,
    PlayedGame,
    Reason,
    ReasonKind,
    pair_round,
)
from tests.pairing.test_ladder import field, player


def pairs_of(request: PairingRequest) -> set[frozenset[int]]:
    return {b.player_ids for b in pair_round(request).boards}


# --- forbidden pairs ---------------------------------------------------------------------------


def test_a_forbidden_pair_is_not_paired_and_the_note_says_so() -> None:
    # The ladder would pair 101-102, 103-104; with 101-102 forbidden, 1-3 and 2-4 cost
    # 4 + 4 = 8 squared places against 9 + 1 = 10 for 1-4, 2-3.
    request = PairingRequest(round_number=1, players=field(4), forbidden_pairs=((102, 101),))
    proposal = pair_round(request)
    assert pairs_of(request) == {frozenset((101, 103)), frozenset((102, 104))}
    assert proposal.rule_notes == (
        Reason.of(ReasonKind.FORBIDDEN_PAIR_AVOIDED, a_id=101, b_id=102),
    )
    assert "players 101 and 102 not paired: forbidden pair" in proposal.describe()


def test_a_forbidden_pair_far_apart_changes_nothing_and_says_nothing() -> None:
    request = PairingRequest(round_number=1, players=field(4), forbidden_pairs=((101, 104),))
    assert pairs_of(request) == {frozenset((101, 102)), frozenset((103, 104))}
    assert pair_round(request).rule_notes == ()


def test_a_forbidden_pair_is_broken_only_when_nothing_else_is_possible() -> None:
    request = PairingRequest(round_number=1, players=field(2), forbidden_pairs=((101, 102),))
    proposal = pair_round(request)
    board = proposal.boards[0]
    assert board.player_ids == {101, 102}
    assert proposal.rule_notes == (
        Reason.of(
            ReasonKind.FORBIDDEN_PAIR_UNAVOIDABLE, white_id=board.white_id, black_id=board.black_id
        ),
    )


def test_a_forbidden_pair_comes_before_the_rematch_window() -> None:
    # 101 met 102 and 104 last round and may not meet 103: one rematch (reported) rather
    # than the forbidden pair.
    request = PairingRequest(
        round_number=4,
        players=field(4),
        previous_games=(PlayedGame(3, 101, 102), PlayedGame(3, 104, 101)),
        forbidden_pairs=((101, 103),),
    )
    proposal = pair_round(request)
    assert frozenset((101, 103)) not in pairs_of(request)
    assert len(proposal.rematches) == 1


def test_a_forbidden_pair_fixed_by_the_td_is_noted_as_his() -> None:
    request = PairingRequest(
        round_number=1,
        players=field(4),
        forbidden_pairs=((101, 102),),
        fixed_boards=(FixedBoard(102, 101),),
    )
    proposal = pair_round(request)
    assert Reason.of(ReasonKind.FORBIDDEN_PAIR_FIXED_BY_TD, white_id=102, black_id=101) in (
        proposal.rule_notes
    )


# --- most meetings per season ------------------------------------------------------------------


def test_a_pair_that_met_the_most_times_is_not_paired_again() -> None:
    games = (PlayedGame(1, 101, 102), PlayedGame(5, 102, 101))
    request = PairingRequest(
        round_number=10, players=field(4), previous_games=games, max_meetings=2
    )
    assert pairs_of(request) == {frozenset((101, 103)), frozenset((102, 104))}
    assert pair_round(request).rule_notes == (
        Reason.of(ReasonKind.MAX_MEETINGS_AVOIDED, a_id=101, b_id=102, meetings=2),
    )
    # Met once, with the window passed: they may meet again.
    once = PairingRequest(
        round_number=10, players=field(4), previous_games=games[:1], max_meetings=2
    )
    assert pairs_of(once) == {frozenset((101, 102)), frozenset((103, 104))}
    # No limit: the same.
    assert pairs_of(PairingRequest(round_number=10, players=field(4), previous_games=games)) == {
        frozenset((101, 102)),
        frozenset((103, 104)),
    }


def test_most_meetings_broken_only_when_unavoidable() -> None:
    games = (PlayedGame(1, 101, 102),)
    request = PairingRequest(round_number=5, players=field(2), previous_games=games, max_meetings=1)
    proposal = pair_round(request)
    board = proposal.boards[0]
    assert proposal.rule_notes == (
        Reason.of(
            ReasonKind.MAX_MEETINGS_UNAVOIDABLE,
            white_id=board.white_id,
            black_id=board.black_id,
            meetings=1,
        ),
    )


def test_the_rematch_window_note_names_the_round() -> None:
    request = PairingRequest(
        round_number=5, players=field(4), previous_games=(PlayedGame(4, 101, 102),)
    )
    assert pair_round(request).rule_notes == (
        Reason.of(ReasonKind.REMATCH_AVOIDED, a_id=101, b_id=102, previous_round=4),
    )


# --- colours at a rematch ----------------------------------------------------------------------


def rematch_request(reverse: bool, **second: int) -> PairingRequest:
    # 101 had white against 102 in round 1. Now 101 has 1 white 1 black, 102 2 whites 1 black.
    return PairingRequest(
        round_number=6,
        players=(player(1, whites=1, blacks=1), player(2, **second)),
        previous_games=(PlayedGame(1, 101, 102),),
        rematch_window=0,
        reverse_colours_at_rematch=reverse,
    )


def test_a_rematch_reverses_the_colours_when_the_season_says_so() -> None:
    # Fewer whites would give 101 white (1 < 2); the rematch rule gives it to 102 (+1 → +2).
    board = pair_round(rematch_request(True, whites=2, blacks=1)).boards[0]
    assert (board.white_id, board.black_id) == (102, 101)
    assert board.colour_reason == Reason.of(
        ReasonKind.COLOUR_REVERSED_REMATCH, board=1, previous_round=1
    )
    plain = pair_round(rematch_request(False, whites=2, blacks=1)).boards[0]
    assert (plain.white_id, plain.black_id) == (101, 102)
    assert plain.colour_reason.kind == ReasonKind.COLOUR_FEWER_WHITES


def test_the_colour_limit_comes_before_the_rematch_reversal() -> None:
    # 102 at +2 may not have white: 101 gets white again.
    board = pair_round(rematch_request(True, whites=3, blacks=1)).boards[0]
    assert (board.white_id, board.black_id) == (101, 102)
    assert board.colour_reason.kind == ReasonKind.COLOUR_DIFFERENCE_LIMIT


# --- the bye -----------------------------------------------------------------------------------


def test_one_pairing_allocated_bye_per_player() -> None:
    # Everyone had one bye; 104 and 105 had theirs from the pairing, 101-103 had asked.
    players = tuple(
        player(rank, byes=1, allocated_byes=1 if rank >= 4 else 0) for rank in range(1, 6)
    )
    plain = pair_round(PairingRequest(round_number=5, players=players))
    assert plain.bye_id == 105
    limited = pair_round(PairingRequest(round_number=5, players=players, max_allocated_byes=1))
    assert limited.bye_id == 103
    assert limited.bye_reasons == (
        Reason.of(ReasonKind.BYE_FEWEST_BYES_LOWEST_RANKED, player_id=103, byes=1),
        Reason.of(ReasonKind.BYE_SKIPPED_LIMIT, player_id=105, byes=1),
        Reason.of(ReasonKind.BYE_SKIPPED_LIMIT, player_id=104, byes=1),
    )


def test_a_second_pairing_bye_when_everyone_had_one() -> None:
    players = tuple(player(rank, byes=1, allocated_byes=1) for rank in range(1, 4))
    proposal = pair_round(PairingRequest(round_number=5, players=players, max_allocated_byes=1))
    assert proposal.bye_id == 103
    assert Reason.of(ReasonKind.BYE_LIMIT_UNAVOIDABLE, player_id=103, byes=1) in (
        proposal.bye_reasons
    )


def test_a_requested_bye_is_granted_with_an_odd_number() -> None:
    players = tuple(player(rank, requested_bye=rank == 2) for rank in range(1, 6))
    proposal = pair_round(PairingRequest(round_number=3, players=players))
    assert proposal.bye_id == 102
    assert proposal.bye_reasons == (Reason.of(ReasonKind.BYE_REQUESTED, player_id=102, byes=0),)
    assert {pid for b in proposal.boards for pid in b.player_ids} == {101, 103, 104, 105}


def test_a_requested_bye_even_after_a_bye_last_round_and_beyond_the_limit() -> None:
    players = (
        player(1),
        player(2, byes=1, allocated_byes=1, had_bye_last_round=True, requested_bye=True),
        player(3),
    )
    proposal = pair_round(PairingRequest(round_number=3, players=players, max_allocated_byes=1))
    assert proposal.bye_id == 102


def test_several_requests_fewest_byes_then_lowest_place() -> None:
    players = (
        player(1, requested_bye=True),
        player(2, requested_bye=True),
        player(3, byes=1, requested_bye=True),
        player(4),
        player(5),
    )
    proposal = pair_round(PairingRequest(round_number=3, players=players))
    # 103 had a bye already; of 101 and 102 (none) the lower placed 102 gets it.
    assert proposal.bye_id == 102
    assert proposal.bye_reasons == (
        Reason.of(ReasonKind.BYE_REQUESTED, player_id=102, byes=0),
        Reason.of(ReasonKind.BYE_REQUEST_TAKEN, player_id=101, bye_id=102),
        Reason.of(ReasonKind.BYE_REQUEST_TAKEN, player_id=103, bye_id=102),
    )


def test_a_request_with_an_even_number_is_not_honoured_and_says_so() -> None:
    players = tuple(player(rank, requested_bye=rank == 2) for rank in range(1, 5))
    proposal = pair_round(PairingRequest(round_number=3, players=players))
    assert proposal.bye_id is None
    assert proposal.bye_reasons == (Reason.of(ReasonKind.BYE_REQUEST_EVEN, player_id=102),)


def test_the_tds_bye_comes_before_a_request() -> None:
    players = tuple(player(rank, requested_bye=rank == 2) for rank in range(1, 6))
    proposal = pair_round(PairingRequest(round_number=3, players=players, fixed_bye=105))
    assert proposal.bye_id == 105
    assert proposal.bye_reasons == (
        Reason.of(ReasonKind.BYE_FIXED_BY_TD, player_id=105),
        Reason.of(ReasonKind.BYE_REQUEST_TAKEN, player_id=102, bye_id=105),
    )


@pytest.mark.parametrize(
    "request_",
    [
        PairingRequest(round_number=1, players=field(2), forbidden_pairs=((101, 101),)),
        PairingRequest(round_number=1, players=field(2), max_meetings=0),
        PairingRequest(round_number=1, players=field(2), max_allocated_byes=-1),
        PairingRequest(round_number=1, players=(player(1, allocated_byes=1), player(2))),
    ],
)
def test_invalid_rules_raise(request_: PairingRequest) -> None:
    with pytest.raises(PairingError):
        pair_round(request_)


def test_every_rule_kind_has_english() -> None:
    for kind in ReasonKind:
        params = {
            name: 1
            for name in ("player_id", "byes", "bye_id", "a_id", "b_id", "white_id", "black_id")
        }
        params |= {"previous_round": 1, "meetings": 2, "board": 1, "difference": 3}
        params |= {"white_whites": 1, "black_whites": 2}
        assert Reason.of(kind, **params).describe()
