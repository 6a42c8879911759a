"""Benchmark: "can I still win?" for 40 players with 15 rounds left, 1,000 simulations.

Run from the repository root: ``.venv/bin/python bench/simulate.py`` (options: ``--smoke`` for
CI's tiny run, ``--system``, ``--kind ladder|round_robin``, ``--simulations``, ``--played``).
The season so far is made up: 40 players rated 1200-2200, ``--played`` (10) completed rounds
with random attendance and results. Prints the CPU time (``time.process_time``) of the
simulation, of its pairing-engine calls and of the rest (scoring, ranking, results); asserts
nothing."""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from competition.pairing import ladder as ladder_module
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
    SimulationInput,
    attendance_share,
    draw_rate_of,
    simulate,
)

PLAYERS = 40


def made_up_season(system: str, round_robin: bool, played: int, seed: int = 7) -> SeasonInput:
    rng = random.Random(seed)
    participants = tuple(
        Participant(id=n, name=f"Player {n:02d}", start_rank=n, rating=2200 - 25 * n)
        for n in range(1, PLAYERS + 1)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="internal-sb")
    parser.add_argument("--kind", choices=("ladder", "round_robin"), default="ladder")
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--played", type=int, default=10)
    parser.add_argument("--rounds-left", type=int, default=15)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (CI's smoke run)")
    options = parser.parse_args()
    if options.smoke:
        options.simulations, options.played, options.rounds_left = 5, 3, 2
    season = made_up_season(options.system, options.kind == "round_robin", options.played)
    data = SimulationInput(
        season=season,
        rounds_left=options.rounds_left,
        ratings={p.id: p.rating or 0 for p in season.participants},
        attendance=attendance_share(season),
        draw_rate=draw_rate_of(season.rounds),
    )
    pairing_time = [0.0]
    real_pair_round = ladder_module.pair_round

    def timed_pair_round(request):
        started = time.process_time()
        try:
            return real_pair_round(request)
        finally:
            pairing_time[0] += time.process_time() - started

    chances_module.pair_round = timed_pair_round
    started = time.process_time()
    result = simulate(data, simulations=options.simulations, seed=1)
    total = time.process_time() - started
    leader = result.players[0]
    print(
        f"{options.system} {options.kind}: {PLAYERS} players, {options.rounds_left} rounds left, "
        f"{options.simulations} simulations"
    )
    print(f"  CPU time       {total:8.2f} s")
    print(f"  pairing engine {pairing_time[0]:8.2f} s")
    print(
        f"  the rest       {total - pairing_time[0]:8.2f} s (attendance, results, scoring, ranking)"
    )
    print(f"  leader's chance of first place {result.share(leader.first):.3f}")


if __name__ == "__main__":
    main()
