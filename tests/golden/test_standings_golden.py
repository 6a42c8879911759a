"""The renovation changes no number: standings JSON before and after, compared.

``standings_golden.json`` was written by the code on main before the renovation (issue 9): the
standings document after every round of every demo season, and of imported TRF events under
every system with every tie-break code. Each test recomputes them and compares value by value.
Regenerate only when a change of figures is intended and explained:
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/golden``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from competition.models import Season
from competition.scoring.exact import exact_json
from competition.scoring.tiebreaks import TIEBREAK_CODES
from competition.services.transfer import standings_document, trf_import

GOLDEN = Path(__file__).with_name("standings_golden.json")
DATA = Path(__file__).parent.parent / "formats" / "data"

# (file, system): imported events under each system, with every tie-break code the system
# allows (internal SB has SB as a figure of its own).
IMPORTS = [
    ("valid_small.trf", "points"),
    ("valid_small.trf", "internal-sb"),
    ("bbp_dutch_2025_c5.trf", "points"),
    ("bbp_dutch_2025_c5.trf", "internal-sb"),
]
POLICIES = ["fide-2024", "fide-2026"]


def _every_round(season: Season) -> list[Any]:
    last = standings_document(season=season)["after_round"]
    return [
        json.loads(exact_json(standings_document(season=season, after_round=n)))
        for n in range(last + 1)
    ]


def _compare_or_write(key: str, documents: list[Any]) -> None:
    stored = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("UPDATE_GOLDEN"):
        stored[key] = documents
        GOLDEN.write_text(json.dumps(stored, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        return
    assert key in stored, f"{key} has no golden standings; see this module's docstring"
    assert len(documents) == len(stored[key])
    for after_round, (now, before) in enumerate(zip(documents, stored[key], strict=True)):
        assert now == before, f"{key}: standings after round {after_round} changed"


@pytest.mark.django_db
def test_demo_seasons_keep_their_standings(demo_club) -> None:
    seasons = list(Season.objects.order_by("slug"))
    assert len(seasons) >= 3
    for season in seasons:
        _compare_or_write(f"demo/{season.slug}", _every_round(season))


@pytest.mark.django_db
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "system"), IMPORTS)
def test_imported_events_keep_their_standings(name, system, policy) -> None:
    slug = f"{name.split('.')[0].replace('_', '-')}-{system}-{policy}"
    trf_import(
        data=(DATA / name).read_bytes(),
        season_slug=slug,
        system=system,
        tiebreaks=[
            code for code in TIEBREAK_CODES if not (system == "internal-sb" and code == "SB")
        ],
        unplayed=policy,
    )
    _compare_or_write(f"trf/{slug}", _every_round(Season.objects.get(slug=slug)))
