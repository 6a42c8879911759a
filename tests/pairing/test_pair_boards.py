"""``pair_boards`` (the simulation's pairing) gives the boards and bye of ``pair_round``.

The simulation keeps a :class:`PairingHistory` and adds each simulated round's games instead
of passing every earlier game again; on random seasons, with and without the season's rules and
the TD's fixed boards, the boards (white, black, in board order) and the bye are those of the
engine's proposal, and a history built game by game over several calls is the one built at once.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings

from competition.pairing import (
    FixedBoard,
    PairingHistory,
    PairingRequest,
    PlayedGame,
    PresentPlayer,
    pair_boards,
    pair_round,
)
from tests.pairing.test_ladder_properties import seasons
from tests.pairing.test_ladder_rules_properties import ruled_seasons
from tests.profiles import examples


def engine_boards(request: PairingRequest) -> tuple[tuple[tuple[int, int], ...], int | None]:
    proposal = pair_round(request)
    return tuple((b.white_id, b.black_id) for b in proposal.boards), proposal.bye_id


def quick_boards(request: PairingRequest) -> tuple[tuple[tuple[int, int], ...], int | None]:
    history = PairingHistory()
    for number in sorted({g.round_number for g in request.previous_games}):
        history.extend(g for g in request.previous_games if g.round_number == number)
    return pair_boards(replace(request, previous_games=()), history)


@settings(max_examples=examples(300), deadline=None)
@given(seasons())
def test_small_seasons(request: PairingRequest) -> None:
    assert quick_boards(request) == engine_boards(request)


@settings(max_examples=examples(100), deadline=None)
@given(ruled_seasons())
def test_seasons_with_every_rule(request: PairingRequest) -> None:
    assert quick_boards(request) == engine_boards(request)


def test_fixed_boards_and_a_fixed_bye() -> None:
    players = tuple(PresentPlayer(100 + rank, rank, whites=rank % 3) for rank in range(1, 10))
    request = PairingRequest(
        round_number=3,
        players=players,
        previous_games=(PlayedGame(1, 101, 102), PlayedGame(2, 103, 104)),
        fixed_boards=(FixedBoard(105, 101),),
        fixed_bye=102,
    )
    boards, bye = quick_boards(request)
    assert (boards, bye) == engine_boards(request)
    assert bye == 102
    assert (105, 101) in boards
