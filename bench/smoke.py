"""CI's smoke run of the benchmarks: every script in bench/ once with ``--smoke`` (a tiny size),
each bounded in time, so that none breaks unseen. Nothing is timed or asserted but that each
script ends well (exit status 0) within its time.

    .venv/bin/python bench/smoke.py             # every script
    .venv/bin/python bench/smoke.py pages load  # some of them

A script is a file of bench/ with a ``if __name__ == "__main__":`` block; every one of them runs,
so a new script without a ``--smoke`` mode fails here (and in tests/test_bench_smoke.py). The
others (``season.py``, ``hosting_data.py``, …) are modules the scripts import. Those that need
PostgreSQL (``hosting``, ``load``) use databases of their own (``clubcomp_bench_smoke…``) on
``postgres://postgres@127.0.0.1:5432``; ``load`` also a Redis at 127.0.0.1:6379, under a key
prefix of its own. Everything listens on the loopback only.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
# per script: the slowest (load, hosting: a database to migrate and fill, gunicorn) take a
# minute or two on an idle 2-core machine, several times that on a busy one
SECONDS = 900


def scripts() -> list[str]:
    """The names of bench/'s scripts (files with a main block), this one left out."""
    return sorted(
        path.stem
        for path in BENCH.glob("*.py")
        if path.name != Path(__file__).name
        and 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
    )


def _run(name: str) -> tuple[int | str, str]:
    """Run one script; past its time it is interrupted (Ctrl-C: its ``finally`` stops the
    servers it started and drops its databases), then killed."""
    script = subprocess.Popen(
        [sys.executable, f"bench/{name}.py", "--smoke"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output, _ = script.communicate(timeout=SECONDS)
        return script.returncode, output
    except subprocess.TimeoutExpired:
        script.send_signal(signal.SIGINT)
        try:
            output, _ = script.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            script.kill()
            output, _ = script.communicate()
        return f"timeout after {SECONDS} s", output


def main(names: list[str]) -> int:
    failed = []
    for name in names or scripts():
        started = time.monotonic()
        status, output = _run(name)
        seconds = time.monotonic() - started
        print(f"bench/{name}.py --smoke: {'ok' if status == 0 else status} ({seconds:.1f} s)")
        if status != 0:
            failed.append(name)
            print("\n".join("    " + line for line in output.splitlines()[-40:]))
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
