"""Benchmark: median time to pair 20, 60 and 120 present players after 15 earlier rounds.

Run from the repository root: ``.venv/bin/python bench/pairing.py``. The history is simulated
with the engine itself (``--smoke``: tiny sizes, one run, for CI's smoke run): a club of 1.2 ×
the present count, everyone present with probability 0.85 per round, random results, standings
by points. Prints numbers; asserts nothing.

The last run switches every season rule on (docs/pairing.md, "The season's rules"), in the
history too: 12 forbidden pairs, at most 2 meetings per pair, colours reversed at a rematch,
one pairing-allocated bye per player, and 3 % of the players asking for a bye each round.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from competition.pairing import (
    PairingRequest,
    PlayedGame,
    PresentPlayer,
    ladder,
    pair_round,
)

EARLIER_ROUNDS = 15
REPEATS = 7


def simulated_request(
    present: int, rematch_window: int, seed: int, *, rules: bool = False
) -> PairingRequest:
    """The request for round 16 of a simulated season with about ``present`` players present
    (with ``rules``: every season rule on)."""
    rng = random.Random(seed)
    members = list(range(1, int(present * 1.2) + 1))
    forbidden = tuple((m, m + 1) for m in rng.sample(members[:-1], 12)) if rules else ()
    allocated = dict.fromkeys(members, 0)
    asking: set[int] = set()
    points = dict.fromkeys(members, 0.0)
    whites = dict.fromkeys(members, 0)
    blacks = dict.fromkeys(members, 0)
    byes = dict.fromkeys(members, 0)
    last_bye: set[int] = set()
    games: list[PlayedGame] = []

    def request_for(round_number: int, here: list[int]) -> PairingRequest:
        standing = sorted(here, key=lambda m: (-points[m], m))
        players = tuple(
            PresentPlayer(
                player_id=m,
                rank=rank,
                whites=whites[m],
                blacks=blacks[m],
                byes=byes[m],
                had_bye_last_round=m in last_bye,
                allocated_byes=allocated[m],
                requested_bye=m in asking,
            )
            for rank, m in enumerate(standing, start=1)
        )
        return PairingRequest(
            round_number=round_number,
            players=players,
            previous_games=tuple(games),
            rematch_window=rematch_window,
            forbidden_pairs=forbidden,
            max_meetings=2 if rules else None,
            reverse_colours_at_rematch=rules,
            max_allocated_byes=1 if rules else None,
        )

    for round_number in range(1, EARLIER_ROUNDS + 1):
        here = [m for m in members if rng.random() < 0.85]
        asking = {m for m in here if rules and rng.random() < 0.03}
        proposal = pair_round(request_for(round_number, here))
        for board in proposal.boards:
            games.append(PlayedGame(round_number, board.white_id, board.black_id))
            whites[board.white_id] += 1
            blacks[board.black_id] += 1
            outcome = rng.choice((1.0, 0.5, 0.0))
            points[board.white_id] += outcome
            points[board.black_id] += 1 - outcome
        last_bye = {proposal.bye_id} if proposal.bye_id is not None else set()
        for player in last_bye:
            byes[player] += 1
            points[player] += 1
            allocated[player] += player not in asking
    here = rng.sample(members, present)
    asking = {m for m in here if rules and rng.random() < 0.03}
    return request_for(EARLIER_ROUNDS + 1, here)


def report(label: str, request: PairingRequest) -> None:
    timings = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        proposal = pair_round(request)
        timings.append(time.perf_counter() - start)
    print(
        f"  {label}: {statistics.median(timings) * 1000:8.1f} ms "
        f"({len(proposal.boards)} boards, {len(proposal.rematches)} rematches, "
        f"{len(proposal.rule_notes)} rule notes)"
    )


def main() -> None:
    print(f"pairing round {EARLIER_ROUNDS + 1}, median of {REPEATS} runs")
    for rematch_window in (3, 8):
        for present in PRESENT:
            request = simulated_request(present, rematch_window, seed=present)
            report(f"K={rematch_window} {present:4d} present", request)
    for present in (PRESENT[-1], PRESENT[-1] + 1):
        request = simulated_request(present, 3, seed=present, rules=True)
        report(f"K=3 {present:4d} present, every rule on", request)
    # The fallback when the window cannot prove its optimum: the complete graph.
    ladder._MIN_WINDOW = 10**6
    largest = PRESENT[-1]
    report(f"K=3 {largest:4d} present, complete graph", simulated_request(largest, 3, seed=largest))


PRESENT = (20, 60, 120)

if __name__ == "__main__":
    if "--smoke" in sys.argv:  # CI's smoke run (bench/smoke.py): every path once, tiny sizes
        PRESENT, REPEATS = (12, 20), 1
    main()
