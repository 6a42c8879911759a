"""The ladder pairing of a club evening, on small cases worked out by hand.

Players are numbered 100 + rank, so 101 is first in the standings. Pairs are written
(white, black) in board order. Costs in the comments are squared standing distances.
"""

from __future__ import annotations

import pytest

from competition.pairing import (
    FixedBoard,
    PairingError,
    PairingRequest,
    PlayedGame,
    PresentPlayer,
    Reason,
    ReasonKind,
    pair_round,
)


def player(rank: int, **figures: int | bool) -> PresentPlayer:
    return PresentPlayer(player_id=100 + rank, rank=rank, **figures)  # type: ignore[arg-type]


def field(n: int, **figures: int | bool) -> tuple[PresentPlayer, ...]:
    return tuple(player(rank, **figures) for rank in range(1, n + 1))


def games_of(request: PairingRequest) -> list[tuple[int, int]]:
    return [(b.white_id, b.black_id) for b in pair_round(request).boards]


# --- pairing order and rematches -----------------------------------------------------------

LADDER_CASES = [
    pytest.param(
        # No history: 1-2, 3-4 with the lower-ranked player in white (equal whites, never met).
        PairingRequest(round_number=1, players=field(4)),
        [(102, 101), (104, 103)],
        None,
        id="4 players round 1",
    ),
    pytest.param(
        # Odd: 105 (lowest, 0 byes) sits out; 1-2, 3-4.
        PairingRequest(round_number=1, players=field(5)),
        [(102, 101), (104, 103)],
        105,
        id="5 players round 1",
    ),
    pytest.param(
        # 1-2 met last round (K = 3). 1-3, 2-4, 5-6 costs 4 + 4 + 1 = 9;
        # 1-4, 2-3, 5-6 costs 9 + 1 + 1 = 11; 1-3, 2-5, 4-6 costs 4 + 9 + 4 = 17.
        PairingRequest(round_number=4, players=field(6), previous_games=(PlayedGame(3, 101, 102),)),
        [(103, 101), (104, 102), (106, 105)],
        None,
        id="6 players, 1-2 met last round",
    ),
    pytest.param(
        # Met in round 1, pairing round 5 with K = 3: 5 - 1 = 4 > 3, so 1-2 may meet again.
        # Equal whites (1 each): reverse round 1, where 102 had white, so 101 gets white.
        PairingRequest(
            round_number=5,
            players=field(4, whites=1, blacks=1),
            previous_games=(PlayedGame(1, 102, 101),),
        ),
        [(101, 102), (104, 103)],
        None,
        id="meeting outside the window is allowed",
    ),
    pytest.param(
        # Same with K = 4: age 4 ≤ 4, so avoid it: 1-3, 2-4 (4 + 4 = 8 < 1-4, 2-3 = 9 + 1).
        PairingRequest(
            round_number=5,
            players=field(4, whites=1, blacks=1),
            previous_games=(PlayedGame(1, 102, 101),),
            rematch_window=4,
        ),
        [(103, 101), (104, 102)],
        None,
        id="meeting inside a wider window is avoided",
    ),
    pytest.param(
        # K = 0 switches rematch avoidance off: 1-2 met last round and meet again.
        PairingRequest(
            round_number=2,
            players=field(4, whites=1, blacks=1),
            previous_games=(PlayedGame(1, 101, 102),),
            rematch_window=0,
        ),
        [(102, 101), (104, 103)],
        None,
        id="window 0",
    ),
    pytest.param(
        # Round 1 was 1-2, 3-4, 5-6, 7-8 (odd ranks white). Without those pairs the cheapest is
        # 1-3, 2-4, 5-7, 6-8 = 4·4 = 16 (2-3, 4-5, 6-7, 1-8 = 3 + 49; 2-3, 1-4, 5-7, 6-8 = 18).
        # Colours: odd ranks 1 white each, even 0; within each pair whites are equal and the
        # two never met, so the lower-ranked player has white.
        PairingRequest(
            round_number=2,
            players=tuple(player(r, whites=r % 2, blacks=1 - r % 2) for r in range(1, 9)),
            previous_games=tuple(PlayedGame(1, 100 + r, 101 + r) for r in (1, 3, 5, 7)),
        ),
        [(103, 101), (104, 102), (107, 105), (108, 106)],
        None,
        id="8 players, round-1 pairs avoided",
    ),
]


@pytest.mark.parametrize(("request_", "expected_games", "expected_bye"), LADDER_CASES)
def test_ladder_pairing(
    request_: PairingRequest, expected_games: list[tuple[int, int]], expected_bye: int | None
) -> None:
    proposal = pair_round(request_)
    assert [(b.white_id, b.black_id) for b in proposal.boards] == expected_games
    assert [b.number for b in proposal.boards] == list(range(1, len(expected_games) + 1))
    assert proposal.bye_id == expected_bye
    assert proposal.rematches == ()


def test_unavoidable_rematch_goes_to_the_oldest_pair_and_is_reported() -> None:
    # Four players played the Berger table of 4 in rounds 1-3: 1-4, 2-3 / 4-3, 1-2 / 2-4, 3-1.
    # Every pairing in round 4 repeats two games; the round-1 pairs met longest ago (age 3), so
    # 1-4, 2-3 again. Whites: 101 W,W,B = 2; 102 W,B,W = 2; 103 B,B,W = 1; 104 B,W,B = 1.
    # Fewer whites: 104 (1) beats 101 (2), 103 (1) beats 102 (2).
    history = [
        PlayedGame(1, 101, 104),
        PlayedGame(1, 102, 103),
        PlayedGame(2, 104, 103),
        PlayedGame(2, 101, 102),
        PlayedGame(3, 102, 104),
        PlayedGame(3, 103, 101),
    ]
    request = PairingRequest(
        round_number=4,
        players=(
            player(1, whites=2, blacks=1),
            player(2, whites=2, blacks=1),
            player(3, whites=1, blacks=2),
            player(4, whites=1, blacks=2),
        ),
        previous_games=tuple(history),
    )
    proposal = pair_round(request)
    assert games_of(request) == [(104, 101), (103, 102)]
    assert proposal.rematches == (
        Reason.of(ReasonKind.REMATCH_UNAVOIDABLE, white_id=104, black_id=101, previous_round=1),
        Reason.of(ReasonKind.REMATCH_UNAVOIDABLE, white_id=103, black_id=102, previous_round=1),
    )
    assert proposal.rematches[0].describe() == (
        "rematch 104-101 (met in round 1) could not be avoided"
    )


def test_one_rematch_rather_than_two() -> None:
    # 1-2 met in round 3 and 3-4 in round 3 and 1-3 in round 2, 2-4 in round 2, K = 3,
    # round 4: 1-2, 3-4 repeats two, 1-3, 2-4 repeats two, 1-4, 2-3 repeats none.
    request = PairingRequest(
        round_number=4,
        players=field(4),
        previous_games=(
            PlayedGame(3, 101, 102),
            PlayedGame(3, 103, 104),
            PlayedGame(2, 101, 103),
            PlayedGame(2, 102, 104),
        ),
    )
    # Colours: whites are given as 0 (the counts are the caller's), so lower-ranked white.
    assert games_of(request) == [(104, 101), (103, 102)]
    assert pair_round(request).rematches == ()


# --- the bye ---------------------------------------------------------------------------------

BYE_CASES = [
    pytest.param(
        (0, 0, 0, 0, 0),
        None,
        105,
        [Reason.of(ReasonKind.BYE_FEWEST_BYES_LOWEST_RANKED, player_id=105, byes=0)],
        id="lowest ranked",
    ),
    pytest.param(
        # 104 and 105 had one bye; 103 is the lowest with 0.
        (0, 0, 0, 1, 1),
        None,
        103,
        [
            Reason.of(ReasonKind.BYE_FEWEST_BYES_LOWEST_RANKED, player_id=103, byes=0),
            Reason.of(ReasonKind.BYE_SKIPPED_MORE_BYES, player_id=105, byes=1),
            Reason.of(ReasonKind.BYE_SKIPPED_MORE_BYES, player_id=104, byes=1),
        ],
        id="fewest byes first",
    ),
    pytest.param(
        # Everyone has 1 bye except 104 (2); 105 had it last round: 105 skipped (last round),
        # 104 skipped (2 > 1), 103 gets it.
        (1, 1, 1, 2, 1),
        105,
        103,
        [
            Reason.of(ReasonKind.BYE_FEWEST_BYES_LOWEST_RANKED, player_id=103, byes=1),
            Reason.of(ReasonKind.BYE_SKIPPED_HAD_BYE_LAST_ROUND, player_id=105),
            Reason.of(ReasonKind.BYE_SKIPPED_MORE_BYES, player_id=104, byes=2),
        ],
        id="not twice in a row",
    ),
    pytest.param(
        # 105 has the fewest byes (1 against 2) but had it last round: 104 gets it.
        (2, 2, 2, 2, 1),
        105,
        104,
        [
            Reason.of(ReasonKind.BYE_FEWEST_BYES_LOWEST_RANKED, player_id=104, byes=2),
            Reason.of(ReasonKind.BYE_SKIPPED_HAD_BYE_LAST_ROUND, player_id=105),
        ],
        id="last round's bye excluded even with fewest byes",
    ),
]


@pytest.mark.parametrize(("byes", "last_bye", "expected_bye", "expected_reasons"), BYE_CASES)
def test_bye(
    byes: tuple[int, ...],
    last_bye: int | None,
    expected_bye: int,
    expected_reasons: list[Reason],
) -> None:
    players = tuple(
        player(rank, byes=count, had_bye_last_round=100 + rank == last_bye)
        for rank, count in enumerate(byes, start=1)
    )
    proposal = pair_round(PairingRequest(round_number=6, players=players))
    assert proposal.bye_id == expected_bye
    assert list(proposal.bye_reasons) == expected_reasons
    paired = sorted(pid for b in proposal.boards for pid in (b.white_id, b.black_id))
    assert paired == sorted({101, 102, 103, 104, 105} - {expected_bye})


def test_bye_twice_in_a_row_when_unavoidable() -> None:
    # The TD fixed 101-102, so 103 is the only one left: he gets the bye again.
    request = PairingRequest(
        round_number=3,
        players=(player(1), player(2), player(3, byes=1, had_bye_last_round=True)),
        fixed_boards=(FixedBoard(white_id=101, black_id=102),),
    )
    proposal = pair_round(request)
    assert proposal.bye_id == 103
    assert proposal.bye_reasons == (
        Reason.of(ReasonKind.BYE_FEWEST_BYES_LOWEST_RANKED, player_id=103, byes=1),
        Reason.of(ReasonKind.BYE_TWICE_IN_A_ROW_UNAVOIDABLE, player_id=103),
    )


def test_bye_rotates_over_a_season() -> None:
    # Five players, always present, standings unchanged, each round's bye fed back: the bye
    # goes 105, 104, 103, 102, 101, then 105 again (everyone has 1, 101 had it last).
    byes = dict.fromkeys(range(101, 106), 0)
    last: int | None = None
    given = []
    for round_number in range(1, 7):
        players = tuple(
            player(r, byes=byes[100 + r], had_bye_last_round=100 + r == last) for r in range(1, 6)
        )
        proposal = pair_round(PairingRequest(round_number=round_number, players=players))
        assert proposal.bye_id is not None
        last = proposal.bye_id
        byes[last] += 1
        given.append(last)
    assert given == [105, 104, 103, 102, 101, 105]


# --- colours ---------------------------------------------------------------------------------

COLOUR_CASES = [
    pytest.param(
        # 101 has 2 whites, 102 has 3: 101 gets white although higher ranked.
        player(1, whites=2, blacks=3),
        player(2, whites=3, blacks=3),
        (),
        (101, 102),
        Reason.of(ReasonKind.COLOUR_FEWER_WHITES, board=1, white_whites=2, black_whites=3),
        id="fewer whites",
    ),
    pytest.param(
        # Equal whites (2); 102 had white in their round-2 game, so reversed 101 has white
        # (the lower-ranked rule alone would have given 102 white).
        player(1, whites=2, blacks=2),
        player(2, whites=2, blacks=2),
        (PlayedGame(2, 102, 101),),
        (101, 102),
        Reason.of(ReasonKind.COLOUR_REVERSED_PREVIOUS_GAME, board=1, previous_round=2),
        id="reverse their previous game",
    ),
    pytest.param(
        # Two earlier games: the latest (round 4, 101 white) counts, so 102 gets white.
        player(1, whites=2, blacks=2),
        player(2, whites=2, blacks=2),
        (PlayedGame(1, 102, 101), PlayedGame(4, 101, 102)),
        (102, 101),
        Reason.of(ReasonKind.COLOUR_REVERSED_PREVIOUS_GAME, board=1, previous_round=4),
        id="reverse the latest of their games",
    ),
    pytest.param(
        player(1, whites=2, blacks=2),
        player(2, whites=2, blacks=2),
        (),
        (102, 101),
        Reason.of(ReasonKind.COLOUR_LOWER_RANKED_WHITE, board=1),
        id="lower ranked gets white",
    ),
    pytest.param(
        # 101: 3 whites, 5 blacks (-2); 102: 2 whites, 1 black (+1). Fewer whites would give 102
        # white: 102 → +2 and 101 → -3, beyond 2. 101 white: 101 → -1, 102 → 0. So 101 white.
        player(1, whites=3, blacks=5),
        player(2, whites=2, blacks=1),
        (),
        (101, 102),
        Reason.of(ReasonKind.COLOUR_DIFFERENCE_LIMIT, board=1, player_id=101),
        id="colour difference limit beats fewer whites",
    ),
]


@pytest.mark.parametrize(("first", "second", "history", "expected", "reason"), COLOUR_CASES)
def test_colours(
    first: PresentPlayer,
    second: PresentPlayer,
    history: tuple[PlayedGame, ...],
    expected: tuple[int, int],
    reason: Reason,
) -> None:
    request = PairingRequest(
        round_number=9, players=(first, second), previous_games=history, rematch_window=0
    )
    proposal = pair_round(request)
    assert games_of(request) == [expected]
    assert proposal.boards[0].colour_reason == reason
    assert proposal.colour_notes == (reason,)


def test_colour_clash_avoided_by_pairing() -> None:
    # 101 and 102 are both at +2 (3 whites, 1 black): neither may have white, so 1-2 clashes.
    # 1-3, 2-4 (cost 8) has no clash; 3 and 4 (0) take white, which only they may.
    request = PairingRequest(
        round_number=5,
        players=(
            player(1, whites=3, blacks=1),
            player(2, whites=3, blacks=1),
            player(3, whites=2, blacks=2),
            player(4, whites=2, blacks=2),
        ),
    )
    proposal = pair_round(request)
    assert games_of(request) == [(103, 101), (104, 102)]
    assert [b.colour_reason.kind for b in proposal.boards] == [
        ReasonKind.COLOUR_DIFFERENCE_LIMIT,
        ReasonKind.COLOUR_DIFFERENCE_LIMIT,
    ]


def test_unavoidable_colour_clash_is_noted() -> None:
    # Both at +2 and alone: equal whites, never met, so 102 (lower) has white and reaches +3.
    request = PairingRequest(
        round_number=5, players=(player(1, whites=3, blacks=1), player(2, whites=3, blacks=1))
    )
    proposal = pair_round(request)
    assert games_of(request) == [(102, 101)]
    assert proposal.colour_notes == (
        Reason.of(ReasonKind.COLOUR_LOWER_RANKED_WHITE, board=1),
        Reason.of(ReasonKind.COLOUR_DIFFERENCE_EXCEEDED, board=1, player_id=102, difference=3),
    )


# --- the TD's overrides ----------------------------------------------------------------------


def test_fixed_board_honoured_and_rest_repaired() -> None:
    # The TD fixes 101 (white) - 106. The rest, 2-5, pair 2-3, 4-5, lower-ranked white.
    # Boards follow the higher-ranked player: 101's board first.
    request = PairingRequest(
        round_number=2,
        players=field(6),
        fixed_boards=(FixedBoard(white_id=101, black_id=106),),
    )
    proposal = pair_round(request)
    assert games_of(request) == [(101, 106), (103, 102), (105, 104)]
    assert [b.fixed_by_td for b in proposal.boards] == [True, False, False]
    assert proposal.boards[0].colour_reason == Reason.of(ReasonKind.COLOUR_FIXED_BY_TD, board=1)


def test_fixed_board_in_the_middle_keeps_board_order() -> None:
    # The TD fixes 104 (white) - 103; the rest 1, 2, 5, 6 pair 1-2, 5-6.
    request = PairingRequest(
        round_number=2,
        players=field(6),
        fixed_boards=(FixedBoard(white_id=104, black_id=103),),
    )
    assert games_of(request) == [(102, 101), (104, 103), (106, 105)]


def test_fixed_rematch_is_reported_as_the_tds() -> None:
    request = PairingRequest(
        round_number=3,
        players=field(4),
        previous_games=(PlayedGame(2, 101, 102),),
        fixed_boards=(FixedBoard(white_id=102, black_id=101),),
    )
    proposal = pair_round(request)
    assert games_of(request) == [(102, 101), (104, 103)]
    assert proposal.rematches == (
        Reason.of(ReasonKind.REMATCH_FIXED_BY_TD, white_id=102, black_id=101, previous_round=2),
    )


def test_fixed_bye_honoured_and_rest_repaired() -> None:
    # The TD gives the bye to 101; 2-3 and 4-5 play, lower-ranked white.
    request = PairingRequest(round_number=3, players=field(5), fixed_bye=101)
    proposal = pair_round(request)
    assert proposal.bye_id == 101
    assert proposal.bye_reasons == (Reason.of(ReasonKind.BYE_FIXED_BY_TD, player_id=101),)
    assert games_of(request) == [(103, 102), (105, 104)]


def test_fixed_board_and_bye_together() -> None:
    # 7 players: TD fixes 105-101 and gives the bye to 107; left 2, 3, 4, 6: 2-3, 4-6.
    request = PairingRequest(
        round_number=3,
        players=field(7),
        fixed_boards=(FixedBoard(white_id=105, black_id=101),),
        fixed_bye=107,
    )
    assert games_of(request) == [(105, 101), (103, 102), (106, 104)]
    assert pair_round(request).bye_id == 107


def test_engine_bye_among_the_players_not_fixed() -> None:
    # 5 players, the TD fixes 104-105: the bye goes to 103, the lowest of the rest.
    request = PairingRequest(
        round_number=3, players=field(5), fixed_boards=(FixedBoard(white_id=104, black_id=105),)
    )
    proposal = pair_round(request)
    assert proposal.bye_id == 103
    assert games_of(request) == [(102, 101), (104, 105)]


# --- input checks and small things -----------------------------------------------------------

INVALID = [
    pytest.param(PairingRequest(round_number=1, players=(player(1), player(1))), id="twice"),
    pytest.param(PairingRequest(round_number=0, players=field(2)), id="round 0"),
    pytest.param(PairingRequest(round_number=1, players=field(2), rematch_window=-1), id="K<0"),
    pytest.param(
        PairingRequest(round_number=1, players=field(2), previous_games=(PlayedGame(1, 1, 2),)),
        id="game not before the round",
    ),
    pytest.param(
        PairingRequest(round_number=1, players=field(2), fixed_boards=(FixedBoard(101, 109),)),
        id="fixed board with absent player",
    ),
    pytest.param(
        PairingRequest(
            round_number=1,
            players=field(4),
            fixed_boards=(FixedBoard(101, 102), FixedBoard(102, 103)),
        ),
        id="player on two fixed boards",
    ),
    pytest.param(PairingRequest(round_number=1, players=field(3), fixed_bye=109), id="bye absent"),
    pytest.param(
        PairingRequest(round_number=1, players=field(4), fixed_bye=101), id="bye with even count"
    ),
    pytest.param(
        PairingRequest(
            round_number=1, players=field(3), fixed_boards=(FixedBoard(101, 102),), fixed_bye=101
        ),
        id="bye on a fixed board",
    ),
    pytest.param(
        PairingRequest(round_number=1, players=(player(1, whites=-1), player(2))),
        id="negative count",
    ),
]


@pytest.mark.parametrize("request_", INVALID)
def test_invalid_requests_raise(request_: PairingRequest) -> None:
    with pytest.raises(PairingError):
        pair_round(request_)


def test_nobody_present() -> None:
    proposal = pair_round(PairingRequest(round_number=1, players=()))
    assert proposal.boards == ()
    assert proposal.bye_id is None


def test_describe_lists_boards_bye_and_reasons() -> None:
    proposal = pair_round(PairingRequest(round_number=1, players=field(3)))
    assert proposal.describe() == (
        "Round 1\n"
        "  board 1: 102 - 101\n"
        "  bye: 103\n"
        "  - bye to player 103: lowest ranked among those with the fewest byes (0)\n"
        "  - board 1: equal whites and no earlier game, the lower-ranked player has white"
    )
