"""Timing a benchmark's call: the wall time and this process's CPU time of each run.

On a shared machine the wall time also counts the others' load and the disk; the CPU time is
this process's own. Each script reduces the runs as it reports them (the median, the best).
"""

from __future__ import annotations

import time
from collections.abc import Callable


def runs_ms(call: Callable[[], object], repeats: int) -> tuple[list[float], list[float]]:
    """``call()`` run ``repeats`` times: each run's wall time and CPU time, in milliseconds."""
    wall, cpu = [], []
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.process_time()
        call()
        wall.append(1000 * (time.perf_counter() - started))
        cpu.append(1000 * (time.process_time() - started_cpu))
    return wall, cpu
