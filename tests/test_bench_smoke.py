"""Every benchmark script has a smoke mode (``--smoke``), which CI's smoke run (bench/smoke.py)
runs: a new script without one fails here before it fails there."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import smoke  # noqa: E402


def test_the_smoke_run_finds_the_scripts_and_leaves_out_the_modules() -> None:
    found = smoke.scripts()
    assert {"engine", "hosting", "load", "pages", "pairing", "suite"} <= set(found)
    assert not {"season", "hosting_data", "load_settings", "load_urls", "smoke"} & set(found)


def test_every_bench_script_has_a_smoke_mode() -> None:
    for name in smoke.scripts():
        source = (ROOT / "bench" / f"{name}.py").read_text(encoding="utf-8")
        assert '"--smoke"' in source, f"bench/{name}.py has no --smoke mode for CI's smoke run"
