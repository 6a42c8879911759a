"""SQLite under two writers: a small club may run ``make run`` (SQLite) for real, with two TDs
publishing or saving results at the same moment. Each request ends well, or with the
"try again" message; never with a server error ("database is locked" used to give one).

The writes run in a subprocess (``tests/services/sqlite_writers.py``) on an SQLite *file*
with the project's settings: the test database of SQLite lives in memory, where the locking
of a file cannot be seen.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

BUSY = "The database was busy; please try again."


@pytest.fixture(autouse=True)
def _sqlite_only() -> None:
    if not settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("shows SQLite's locking (DATABASE_URL selects another database)")


def test_two_tds_publishing_and_saving_at_once_never_get_a_server_error(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "clubcomp.settings_test",
        "ALLOWED_HOSTS": "testserver",  # the test client's host
    }
    run = subprocess.run(
        [sys.executable, "-m", "tests.services.sqlite_writers"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert {a["action"] for a in answers} == {"publish", "save"}
    for answer in answers:
        if answer["action"] == "publish":
            assert answer["status"] == 302, answer
        else:
            assert answer["status"] in (200, 503), answer
        if answer["status"] == 503 or "busy" in answer["message"]:
            assert answer["message"] == BUSY, answer
    # WAL and immediate transactions make the TDs take turns: here nobody even had to retry.
    assert not [a for a in answers if a["message"] == BUSY], answers
