"""Django set up for a benchmark script, on a database of its own.

    db_file = django_on_database(None)  # a new SQLite file in a temporary folder
    django_on_database("postgres://postgres@127.0.0.1:5432/cc_mine")

DEBUG is on unless the environment says otherwise; the settings are the project's.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def django_on_database(database_url: str | None) -> Path | None:
    """Point Django at ``database_url`` (None: a new SQLite file) and set it up; the SQLite
    file's path, for the script to remove when done (None for a database given)."""
    db_file = None
    if database_url is None:
        db_file = Path(tempfile.mkdtemp(prefix="clubcomp-bench-")) / "bench.sqlite3"
        database_url = f"sqlite:///{db_file}"
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubcomp.settings")
    import django

    django.setup()
    return db_file
