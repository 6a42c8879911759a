"""Benchmark: "can I still win?" for 40 players with 15 rounds left, 1,000 simulations.

Run from the repository root: ``.venv/bin/python bench/simulate.py`` (``--smoke``: 20
simulations of 10 players; ``--system`` and ``--kind`` pick one case; ``--simulations``,
``--played``, ``--rounds-left``). The season so far is made up: 40 players rated 1200-2200,
``--played`` (10) completed rounds with random attendance and results. For every system it
simulates the ladder season and the round robin of the same size in one run and prints the CPU
time (``time.process_time``) of each, their ratio (the target: a ladder within 4 times the round
robin), the ladder's time in the pairing engine, and the time of working out what is certain
afterwards (``outlook``: bounds and chosen outcomes, once per computation); asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from competition.simulation import chances as chances_module
from competition.simulation.chances import (
    FirstPlace,
    SimulationInput,
    attendance_share,
    draw_rate_of,
    outlook,
    simulate,
)

SYSTEMS = ("internal-sb", "van-den-brink", "keizer", "points")
TARGET = 4  # a ladder season's simulations within this many times the round robin's


def made_up_season(
    system: str, round_robin: bool, played: int, players: int = 40, seed: int = 7
) -> SeasonInput:
    rng = random.Random(seed)
    participants = tuple(
        Participant(id=n, name=f"Player {n:02d}", start_rank=n, rating=2200 - 25 * n)
        for n in range(1, players + 1)
    )
    rounds: list[Round] = []
    for number in range(1, played + 1):
        present = [p.id for p in participants if rng.random() < 0.8]
        rng.shuffle(present)
        games = tuple(
            Game(a, b, rng.choice((Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)))
            for a, b in zip(present[0::2], present[1::2], strict=False)
        )
        entries = [
            Entry(p.id, EntryKind.ABSENT_NOTICE) for p in participants if p.id not in present
        ]
        if len(present) % 2:
            entries.append(Entry(present[-1], EntryKind.BYE, Fraction(1)))
        rounds.append(Round(number, games, tuple(entries)))
    return SeasonInput(
        participants=participants,
        rounds=tuple(rounds),
        system=system,
        round_robin=round_robin,
    )


def run(system: str, round_robin: bool, options: argparse.Namespace) -> dict[str, float]:
    season = made_up_season(system, round_robin, options.played, options.players)
    data = SimulationInput(
        season=season,
        rounds_left=options.rounds_left,
        ratings={p.id: p.rating or 0 for p in season.participants},
        attendance=attendance_share(season),
        draw_rate=draw_rate_of(season.rounds),
    )
    pairing = [0.0]
    real_pair_boards = chances_module.pair_boards

    def timed_pair_boards(*args, **kwargs):  # type: ignore[no-untyped-def]
        started = time.process_time()
        try:
            return real_pair_boards(*args, **kwargs)
        finally:
            pairing[0] += time.process_time() - started

    chances_module.pair_boards = timed_pair_boards
    try:
        started = time.process_time()
        result = simulate(data, simulations=options.simulations, seed=1)
        total = time.process_time() - started
    finally:
        chances_module.pair_boards = real_pair_boards
    started = time.process_time()
    views = outlook(data, result)
    certain = time.process_time() - started
    leader = result.players[0]
    statuses = [view.first_place for view in views]
    print(
        f"  {system:14s} {'round robin' if round_robin else 'ladder':11s} "
        f"{total:7.2f} s (pairing engine {pairing[0]:6.2f} s); outlook {certain:5.2f} s: "
        f"first place possible for {statuses.count(FirstPlace.POSSIBLE)}, "
        f"not decided {statuses.count(FirstPlace.OPEN)}, "
        f"impossible {statuses.count(FirstPlace.IMPOSSIBLE)}, "
        f"secured {statuses.count(FirstPlace.SECURED)}; "
        f"the leader's estimate {result.share(leader.first):.3f}"
    )
    return {"total": total, "pairing": pairing[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="20 simulations of 10 players")
    parser.add_argument("--system", choices=SYSTEMS)
    parser.add_argument("--kind", choices=("ladder", "round_robin"))
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--played", type=int, default=10)
    parser.add_argument("--rounds-left", type=int, default=15)
    options = parser.parse_args()
    options.players = 40
    if options.smoke:
        options.simulations, options.players, options.rounds_left = 20, 10, 3
    systems = [options.system] if options.system else list(SYSTEMS)
    kinds = [options.kind == "round_robin"] if options.kind else [False, True]
    print(
        f"{options.players} players, {options.played} rounds played, {options.rounds_left} "
        f"left, {options.simulations} simulations (CPU time)"
    )
    ratios = []
    for system in systems:
        times = {round_robin: run(system, round_robin, options) for round_robin in kinds}
        if len(times) == 2:
            ratio = times[False]["total"] / times[True]["total"]
            ratios.append(ratio)
            verdict = "within" if ratio <= TARGET else "NOT within"
            print(f"  {system:14s} ladder / round robin = {ratio:.1f} ({verdict} {TARGET}x)")
    if ratios:
        print(f"largest ratio {max(ratios):.1f} (target {TARGET})")


if __name__ == "__main__":
    main()
