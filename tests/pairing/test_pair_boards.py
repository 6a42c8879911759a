"""``pair_boards`` (the simulation's pairing) gives the boards and bye of ``pair_round``.

The simulation keeps a :class:`PairingHistory` and adds each simulated round's games instead
of passing every earlier game again; on random seasons, with and without the season's rules and
the TD's fixed boards, the boards (white, black, in board order) and the bye are those of the
engine's proposal, and a history built game by game over several calls is the one built at once.
"""

from __future__ import annotations

from hypothesis import given, settings

from competition.pairing import (
    PairingHistory,
    PairingRequest,
    PairingRules,
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
    """``pair_boards`` on the request's players in standing order, with a history built round
    by round from its games (as a simulation adds them)."""
    history = PairingHistory()
    for number in sorted({g.round_number for g in request.previous_games}):
        history.add_round(
            number,
            [(g.white_id, g.black_id) for g in request.previous_games if g.round_number == number],
        )
    standing = sorted(request.players, key=lambda player: player.rank)  # stable: ties in order
    rules = PairingRules(
        rematch_window=request.rematch_window,
        forbidden_pairs=request.forbidden_pairs,
        max_meetings=request.max_meetings,
        reverse_colours_at_rematch=request.reverse_colours_at_rematch,
        max_allocated_byes=request.max_allocated_byes,
    )
    boards, bye = pair_boards(standing, history, round_number=request.round_number, rules=rules)
    return tuple(boards), bye


@settings(max_examples=examples(300), deadline=None)
@given(seasons())
def test_small_seasons(request: PairingRequest) -> None:
    assert quick_boards(request) == engine_boards(request)


@settings(max_examples=examples(100), deadline=None)
@given(ruled_seasons())
def test_seasons_with_every_rule(request: PairingRequest) -> None:
    assert quick_boards(request) == engine_boards(request)


def test_a_history_of_played_games_reads_as_one_of_rounds() -> None:
    games = (PlayedGame(1, 101, 102), PlayedGame(4, 102, 101), PlayedGame(4, 103, 104))
    at_once = PairingHistory.of(games)
    by_round = PairingHistory()
    by_round.add_round(1, [(101, 102)])
    by_round.add_round(4, [(102, 101), (103, 104)])
    for history in (at_once, by_round, by_round.copy()):
        assert history.latest_game(101, 102) == PlayedGame(4, 102, 101)
        assert history.meetings(102, 101) == 2
        assert history.rematch_age(101, 102, 6, 3) == 2
        assert history.rematch_age(103, 104, 8, 3) is None  # four rounds ago, beyond K = 3
        assert history.latest_game(101, 103) is None


def test_a_pair_twice_in_one_round_keeps_the_first_as_its_latest_game() -> None:
    # add_round (a simulation's, written out) reads a round as extend reads its games.
    games = (PlayedGame(2, 101, 102), PlayedGame(2, 102, 101), PlayedGame(2, 103, 104))
    by_round = PairingHistory()
    by_round.add_round(2, [(101, 102), (102, 101), (103, 104)])
    at_once = PairingHistory.of(games)
    for history in (at_once, by_round):
        assert history.latest_game(102, 101) == PlayedGame(2, 101, 102)
        assert history.meetings(101, 102) == 2
        assert list(history.pairs_of_round(2)) == [(101, 102), (101, 102), (103, 104)]
    by_round.add_round(3, [])
    assert list(by_round.pairs_of_round(3)) == []


def test_pair_boards_on_running_figures() -> None:
    # Any object with the figures will do (a simulation updates its own round by round):
    # five players, 101 and 102 met last round, 105 has the most byes and 104 had it last.
    class Figures:
        def __init__(self, pid: int, byes: int = 0, last: bool = False) -> None:
            self.player_id, self.whites, self.blacks = pid, 1, 1
            self.byes, self.allocated_byes = byes, byes
            self.had_bye_last_round, self.requested_bye = last, False

    standing = [Figures(101), Figures(102), Figures(103), Figures(104, 1, True), Figures(105, 2)]
    history = PairingHistory()
    history.add_round(1, [(101, 102), (103, 105)])
    boards, bye = pair_boards(standing, history, round_number=2)
    # The bye: 104 had it last round, 101-103 and 105 are left, 105 has more byes: the lowest
    # of 101-103, 103. Then 101-102 met last round, so 101-104, 102-105 (2² + 2² = 8) beats
    # 101-105, 102-104 (9 + 1); equal whites and no earlier game: the lower-ranked has white.
    assert (boards, bye) == ([(104, 101), (105, 102)], 103)
    players = tuple(
        PresentPlayer(f.player_id, rank, 1, 1, f.byes, f.had_bye_last_round, f.allocated_byes)
        for rank, f in enumerate(standing, start=1)
    )
    games = (PlayedGame(1, 101, 102), PlayedGame(1, 103, 105))
    assert (tuple(boards), bye) == engine_boards(PairingRequest(2, players, games))
