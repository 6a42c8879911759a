"""Time to read a national rating list: the KNSB list holds tens of thousands of players.

Run from the repository root: ``.venv/bin/python bench/ratings.py``. It writes a synthetic
KNSB list of 100,000 players (cp1252, CRLF, the real header) and prints the median time to
parse all of it, and to parse it keeping only a club's 60 members (the filter the import uses).
``--smoke``: a list of 200, one run (CI's smoke run).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from competition.formats.ratings import (
    RatingFilter,
    RatingRecord,
    parse_knsb,
    write_knsb,
)

PLAYERS = 100_000
REPEATS = 5


def national_list() -> bytes:
    return write_knsb(
        [
            RatingRecord(
                name=f"Speler{i:06d}, Jan",
                rating=1000 + (i * 37) % 1500,
                relatienummer=8_000_000 + i,
                federation="NED",
                games=i % 300,
                birth_year=1940 + i % 70,
                sex="m" if i % 5 else "w",
            )
            for i in range(PLAYERS)
        ]
    )


def median_ms(data: bytes, keep: RatingFilter | None) -> tuple[float, int]:
    times, kept = [], 0
    for _ in range(REPEATS):
        started = time.perf_counter()
        kept = len(parse_knsb(data, keep=keep).records)
        times.append(1000 * (time.perf_counter() - started))
    return statistics.median(times), kept


def main() -> None:
    data = national_list()
    club = RatingFilter(relatienummers=frozenset(8_000_000 + 1_613 * i for i in range(60)))
    print(f"KNSB list: {PLAYERS} players, {len(data) / 1e6:.1f} MB; median of {REPEATS} runs")
    for label, keep in (("whole list", None), ("club filter (60 members)", club)):
        ms, kept = median_ms(data, keep)
        print(f"  {label:28s} {ms:8.1f} ms  ({kept} records kept)")


if __name__ == "__main__":
    if "--smoke" in sys.argv:  # CI's smoke run (bench/smoke.py): a tiny list, one run
        PLAYERS, REPEATS = 200, 1
    main()
