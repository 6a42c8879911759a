"""CPU time of ``participant_detail`` alone (the participant page's data, without rendering) on a
150-participant × 40-round season, best of ``--repeats``.

Run from the repository root: ``.venv/bin/python bench/participant_detail.py``. It builds the
season (``bench/season.py``, internal SB) in its own temporary SQLite database and prints the
best CPU and wall time of ``participant_detail`` for the first participant after the last round,
then the same with the season switched to each system of ``--systems`` (the standings recomputed
first). ``--profile`` prints the functions taking the most time (cProfile) for the first system.
``--smoke``: tiny sizes, one run (CI's smoke run). Options: ``--players``, ``--rounds``,
``--repeats``, ``--systems``."""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.django_setup import django_on_database  # noqa: E402

DB_FILE = django_on_database(None)


from bench.season import add_size_options, season_of_size  # noqa: E402
from bench.timing import runs_ms  # noqa: E402


def best_ms(call, repeats: int) -> tuple[float, float]:
    """The best CPU time and the best wall time of ``call()``, in ms."""
    call()  # warm up
    wall, cpu = runs_ms(call, repeats)
    return min(cpu), min(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_size_options(parser, players=150, rounds=40, repeats=5)
    parser.add_argument("--systems", default="internal-sb,keizer")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (CI's smoke run)")
    options = parser.parse_args()
    season, participants = season_of_size(options)
    from competition.selectors.participants import participant_detail
    from competition.services.standings import standings_recompute

    participant_id = participants[0].pk
    print(
        f"{options.players} participants × {options.rounds} rounds; "
        f"participant_detail, best of {options.repeats}"
    )
    for number, system in enumerate(options.systems.split(",")):
        if season.system != system:
            season.system = system
            season.save(update_fields=["system"])
            standings_recompute(season=season)

        def page(system: str = system) -> None:
            detail = participant_detail(season=season, participant_id=participant_id)
            assert not detail.error, (system, detail.error)

        cpu, wall = best_ms(page, options.repeats)
        print(f"  {system:16s} CPU {cpu:8.2f} ms   wall {wall:8.2f} ms")
        if options.profile and number == 0:
            profile = cProfile.Profile()
            profile.runcall(page)
            pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
    if DB_FILE is not None:
        DB_FILE.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
