"""Wall time of the whole test suite and its 15 slowest tests (printed, never asserted).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubcomp .venv/bin/python bench/suite.py
    .venv/bin/python bench/suite.py            # SQLite
    .venv/bin/python bench/suite.py -- -m "not browser"   # extra pytest arguments after --
    .venv/bin/python bench/suite.py --smoke   # one small test file (CI's smoke run)

The target is under 4 minutes on PostgreSQL on a 2-core machine, browser tests
included, with the default (quick) hypothesis profile.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(extra: list[str]) -> int:
    command = [
        *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"),
        *("-n", "auto", "--durations=15"),  # as `make test` runs it
    ]
    started = time.perf_counter()
    run = subprocess.run([*command, *extra], cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    lines = run.stdout.splitlines()
    start = next((i for i, line in enumerate(lines) if "slowest 15 durations" in line), None)
    if start is not None:
        print("\n".join(line for line in lines[start : start + 16] if line.strip()))
    failures = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    if failures:
        print("\n".join(failures))
    summary = next(
        (line for line in reversed(lines) if re.search(r"\d+ (passed|failed)", line)), ""
    )
    database = (
        "PostgreSQL" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "SQLite"
    )
    profile = os.environ.get("HYPOTHESIS_PROFILE", "quick")
    print(f"suite on {database}, hypothesis profile {profile}: {summary.strip('= ')}")
    print(f"wall time: {wall:.1f} s ({wall / 60:.1f} min), pytest exit code {run.returncode}")
    return run.returncode


# CI's smoke run (bench/smoke.py): the same report over one small test file, on one worker.
SMOKE = ["-n", "0", "tests/test_setup_smoke.py"]

if __name__ == "__main__":
    arguments = sys.argv[1:]
    extra = arguments[arguments.index("--") + 1 :] if "--" in arguments else arguments
    sys.exit(main(SMOKE if "--smoke" in sys.argv[1:] else extra))
