"""The files clubcomp writes stay the same bytes: every demo season's archive and TRF export,
compared with the files the code wrote before the format and transfer modules were split up.
The moments the demo rows get when the test inserts them (``updated_at``, ``history_date``:
today) are written as ``<inserted>``; every other byte is compared as written.

The recorded files are in ``data/written/``. Regenerate them only when a change of what is
written is intended and explained: ``UPDATE_WRITTEN=1 .venv/bin/python -m pytest
tests/formats/test_written_bytes.py``.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from competition.models import Season
from competition.services.transfer import season_archive_text, season_trf

WRITTEN = Path(__file__).parent / "data" / "written"


def _compare_or_write(name: str, text: str) -> None:
    today = re.escape(datetime.now(UTC).date().isoformat())
    text = re.sub(f'"{today}T[0-9:.]+\\+00:00"', '"<inserted>"', text)
    path = WRITTEN / name
    data = text.encode("utf-8")
    if os.environ.get("UPDATE_WRITTEN"):
        path.write_bytes(data)
        return
    assert path.exists(), f"{name} has no recorded file; see this module's docstring"
    assert data == path.read_bytes(), f"{name}: the written bytes changed"


@pytest.mark.django_db
def test_demo_seasons_are_written_as_before(demo_club) -> None:
    seasons = list(Season.objects.order_by("slug"))
    assert len(seasons) >= 3
    for season in seasons:
        _compare_or_write(f"{season.slug}.json", season_archive_text(season=season))
        _compare_or_write(f"{season.slug}.trf", season_trf(season=season))
