"""Benchmark of the scoring engine on seeded random seasons (prints numbers; asserts nothing).

Run from the repository root: ``.venv/bin/python bench/engine.py``. For each size (participants ×
rounds, about 75% attendance, some byes and forfeits) and each system it prints the best
(least) time of several runs of the final standings with all tie-breaks and of the full
per-round history, then the two ratios the engine is held to:

- growth: 600x40 / 150x40 (four times the games) for the final standings and the history of
  every system, all tie-breaks (target: within 4.5x, i.e. linear in the games);
- tiebreak-core / ours: the same final tie-breaks (the 16 codes the tiebreak-core adapter in
  tests/scoring knows) computed by tiebreak-core and by ``compute_tiebreaks`` (target: at
  least 25x), when tiebreak-core is installed (the test extra).

The sizes (and ours against tiebreak-core) are timed in turns, one run of each and again, so
that a change in the load of the shared machine falls on both sides of a ratio, and each side
counts its best run: every run does the same work, so the least CPU time is the one the other
processes disturbed least (a median still moves by ±10% when the machine is busy). Every
figure is the best of the same number of runs on both sides of its ratio.

``--smoke`` runs every part at a tiny size (CI's smoke run, bench/smoke.py: no figure means
anything then). ``--keizer`` times only the Keizer system (60 × 35, fixed-point mode) and prints
the number of ranking passes per round; ``--tiebreak-core`` only the comparison with
tiebreak-core.

Times are the CPU time of this process (``time.process_time``): the targets are for one core,
and on a shared machine wall-clock time mostly measures the other processes. Pass ``--wall``
for wall-clock time instead. Nothing is cached between runs: every run reads the season anew.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from competition.scoring.engine import standings_after, standings_history, system_context
from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from competition.scoring.systems.keizer import Keizer
from competition.scoring.tiebreaks import TIEBREAK_CODES, compute_tiebreaks

SIZES = ((40, 30), (150, 40), (600, 40))
SYSTEMS = ("points", "internal-sb", "van-den-brink")
RESULTS = (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)
K = TypeVar("K")


def random_season(
    players: int, rounds: int, system: str, tiebreaks: tuple[str, ...], seed: int = 1
) -> SeasonInput:
    rng = random.Random(seed)
    participants = tuple(
        Participant(pid, f"Player {pid}", start_rank=pid, rating=rng.randint(1200, 2200))
        for pid in range(1, players + 1)
    )
    season_rounds = []
    for number in range(1, rounds + 1):
        present = [p.id for p in participants if rng.random() < 0.75]
        rng.shuffle(present)
        entries = [
            Entry(p.id, EntryKind.ABSENT_NOTICE) for p in participants if p.id not in present
        ]
        if len(present) % 2:
            entries.append(Entry(present.pop(), EntryKind.BYE, Fraction(1)))
        games = []
        for i in range(0, len(present), 2):
            roll = rng.random()
            if roll < 0.03:
                result = Result.WHITE_WINS_FORFEIT
            elif roll < 0.05:
                result = Result.BLACK_WINS_FORFEIT
            else:
                result = rng.choice(RESULTS)
            games.append(Game(present[i], present[i + 1], result, board=i // 2 + 1))
        season_rounds.append(Round(number, tuple(games), tuple(entries)))
    return SeasonInput(participants, tuple(season_rounds), system=system, tiebreaks=tiebreaks)


CLOCK = time.perf_counter if "--wall" in sys.argv else time.process_time


def median_ms(action: Callable[[], object], runs: int) -> float:
    timings = []
    for _ in range(runs):
        start = CLOCK()
        action()
        timings.append((CLOCK() - start) * 1000)
    return statistics.median(timings)


def main() -> None:
    try:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "scoring"))
        from tiebreak_core_adapter import compute_with_tiebreak_core  # type: ignore[import-not-found]
    except ImportError:
        compute_with_tiebreak_core = None
    clock = "wall-clock" if CLOCK is time.perf_counter else "CPU"
    print(f"best {clock} time in ms of runs taken in turns")
    # Sizes are timed in turns (a run of each size, then the next run of each), so that a change
    # in the load of a shared machine falls on every size alike and the ratios stay fair.
    timings: dict[tuple[int, str, str], tuple[float, float]] = {}
    for system in SYSTEMS:
        for label, codes in (("none", ()), ("all", _all_codes(system))):
            seasons = {
                (players, rounds): random_season(players, rounds, system, codes)
                for players, rounds in SIZES
            }
            finals = _interleaved(
                {
                    size: partial(standings_after, season, size[1])
                    for size, season in seasons.items()
                },
                runs=5,
            )
            histories = _interleaved(
                {size: partial(standings_history, season) for size, season in seasons.items()},
                runs=5 if codes else 3,  # the growth ratios are of the "all" rows
            )
            for players, rounds in SIZES:
                timings[players, system, label] = (
                    finals[players, rounds],
                    histories[players, rounds],
                )
    print(f"{'size':>8} {'system':>14} {'tie-breaks':>10} {'final ms':>9} {'history ms':>11}")
    for players, rounds in SIZES:
        for system in SYSTEMS:
            for label in ("none", "all"):
                final, history = timings[players, system, label]
                size = f"{players}x{rounds}"
                print(f"{size:>8} {system:>14} {label:>10} {final:9.1f} {history:11.1f}")
    (small, _), (large, rounds) = GROWTH
    print(
        f"growth {large}x{rounds} / {small}x{rounds} ({large // small}x the games; target "
        "within 4.5x), all tie-breaks:"
    )
    for system in SYSTEMS:
        final = timings[large, system, "all"][0] / timings[small, system, "all"][0]
        history = timings[large, system, "all"][1] / timings[small, system, "all"][1]
        print(f"  {system:>14}: final {final:4.2f}x, history {history:4.2f}x")
    if compute_with_tiebreak_core is not None:
        print("tiebreak-core / ours, the same final tie-breaks (target at least 25x):")
        for players, rounds in SIZES:
            _compare_with_tiebreak_core(compute_with_tiebreak_core, players, rounds)


def tiebreak_core_main() -> None:
    """Only the comparison with tiebreak-core, every size."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "scoring"))
    from tiebreak_core_adapter import compute_with_tiebreak_core  # type: ignore[import-not-found]

    print("tiebreak-core / ours, the same final tie-breaks (target at least 25x):")
    for players, rounds in SIZES:
        _compare_with_tiebreak_core(compute_with_tiebreak_core, players, rounds)


# the sizes whose ratio shows whether the cost grows linearly with the games
GROWTH = ((150, 40), (600, 40))


def _interleaved(actions: dict[K, Callable[[], object]], runs: int) -> dict[K, float]:
    """The best (least) time of each action, timed in turns: one run of each, ``runs`` times.

    Each run starts after a full garbage collection (not timed), so that no run pays for the
    garbage of the one before; the collector stays on during the run, so what the action's own
    allocations cost is counted."""
    timings: dict[K, list[float]] = {key: [] for key in actions}
    for _ in range(runs):
        for key, action in actions.items():
            gc.collect()
            start = CLOCK()
            action()
            timings[key].append((CLOCK() - start) * 1000)
    return {key: min(values) for key, values in timings.items()}


KEIZER_SIZE = (60, 35)
KEIZER = Keizer()


def keizer_main() -> None:
    """Keizer, fixed-point mode: full history and the latest round, with the passes per round.

    Targets: the whole history under 1 s, the latest round under 100 ms.
    """
    players, rounds = KEIZER_SIZE
    clock = "wall-clock" if CLOCK is time.perf_counter else "CPU"
    print(f"keizer {players}x{rounds}, fixed_point, median {clock} time in ms")
    for label, codes in (("none", ()), ("all", _all_codes("keizer"))):
        season = random_season(players, rounds, "keizer", codes)
        history = median_ms(partial(standings_history, season), 5)
        latest = median_ms(partial(standings_after, season, rounds), 5)
        keizer = KEIZER
        trace = keizer.run(system_context(season, rounds), keizer.validate({}))
        per_round = [keizer_round.passes for keizer_round in trace[1:]]
        print(
            f"  tie-breaks {label:>4}: history {history:7.1f} ms, latest round {latest:7.1f} ms; "
            f"passes per round: median {statistics.median(per_round)}, max {max(per_round)}, "
            f"total {sum(per_round)}; settled: "
            + ", ".join(f"{n} {kind}" for kind, n in Counter(r.settled for r in trace[1:]).items())
        )


def _compare_with_tiebreak_core(
    compute_with_tiebreak_core: Callable[..., object], players: int, rounds: int
) -> None:
    """Our final tie-breaks against tiebreak-core's, for the codes the adapter supports.

    Both are timed in turns on the same season; the ratio is of their best runs.
    """
    from tiebreak_core_adapter import CRITERIA  # type: ignore[import-not-found]

    codes = [code for code in TIEBREAK_CODES if code in CRITERIA]
    season = random_season(players, rounds, "points", tuple(codes))
    ours = partial(compute_tiebreaks, season, upto_round=rounds, codes=codes)
    theirs = partial(
        compute_with_tiebreak_core,
        season,
        upto_round=rounds,
        codes=codes,
        policy=season.unplayed_policy,
    )
    try:
        theirs()
    except Exception as error:  # the adapter may refuse a code or a policy
        print(f"{players}x{rounds}: tiebreak-core could not run: {error!r}")
        return
    # more runs than the other figures: the best of a few runs still depends on whether one of
    # them fell in a quiet moment of the shared machine
    timings = _interleaved({"ours": ours, "theirs": theirs}, runs=9 if players <= 150 else 7)
    print(
        f"  {players}x{rounds} ({len(codes)} codes: {', '.join(codes)}): ours "
        f"{timings['ours']:.1f} ms, tiebreak-core {timings['theirs']:.1f} ms (best runs), "
        f"tiebreak-core / ours {timings['theirs'] / timings['ours']:.1f}x"
    )


def _all_codes(system: str) -> tuple[str, ...]:
    clash = {"internal-sb": {"SB"}}.get(system, set())
    return tuple(code for code in TIEBREAK_CODES if code not in clash)


if __name__ == "__main__":
    if "--smoke" in sys.argv:  # CI's smoke run (bench/smoke.py): every path once, tiny sizes
        SIZES = ((8, 3), (16, 3))
        GROWTH = SIZES
        KEIZER_SIZE = (8, 3)
    if "--keizer" in sys.argv:
        keizer_main()
    elif "--tiebreak-core" in sys.argv:
        tiebreak_core_main()
    else:
        main()
        keizer_main()
