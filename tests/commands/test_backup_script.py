"""``bin/backup --local`` against a real PostgreSQL: the demo club in a database of its own,
backed up, the dump restored with ``pg_restore`` into a fresh database, and the standings of
every season read through Django from both are the same JSON.

Skipped when ``pg_dump``/``pg_restore`` are missing or no PostgreSQL answers (the server of
``DATABASE_URL`` when it is one, else ``postgres://postgres@127.0.0.1:5432``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

pytestmark = pytest.mark.postgres

PROJECT = Path(__file__).resolve().parents[2]
# Databases of this test run's own: other runs of the suite may share the server.
SOURCE = f"clubcomp_backup_test_{os.getpid()}"
RESTORED = f"clubcomp_backup_test_{os.getpid()}_restored"
# Every season of the demo's two clubs as CLUB/SLUG (season slugs are unique per club only).
SEASONS = [
    *(
        f"sc-de-toren/{slug}"
        for slug in (
            "interne-2026-2027",
            "keizer-2026-2027",
            "rapidgroep-a-2026",
            "rapidserie-2026-2027",
            "vandenbrink-2026-2027",
            *(f"wintergroepen-2027-{group}" for group in ("a1", "a2", "b1", "b2")),
        )
    ),
    "sv-het-paard/clubavond-2026-2027",
]


def server_url() -> str:
    """The PostgreSQL server to use, as a URL without a database name."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        url = "postgres://postgres@127.0.0.1:5432/postgres"
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def recreate(server: str, *names: str, create: bool = True) -> None:
    """Drop the databases (and their connections) and, with ``create``, make them afresh."""
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=5) as connection:
        for name in names:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            if create:
                connection.execute(f'CREATE DATABASE "{name}"')


@pytest.fixture
def server() -> Iterator[str]:
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump and pg_restore are not installed")
    psycopg = pytest.importorskip("psycopg")
    url = server_url()
    try:
        recreate(url, SOURCE, RESTORED)
    except psycopg.OperationalError as error:
        pytest.skip(f"PostgreSQL is not reachable at {url}: {error}")
    yield url
    recreate(url, SOURCE, RESTORED, create=False)


def environment(database_url: str) -> dict[str, str]:
    """What manage.py needs in production settings, pointed at one database."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "clubcomp.settings",
        "DATABASE_URL": database_url,
        "SECRET_KEY": "backup-test-only",
        "PYTHON": sys.executable,
    }


def manage(database_url: str, *args: str) -> str:
    completed = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT,
        env=environment(database_url),
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, f"manage.py {' '.join(args)}: {completed.stderr}"
    return completed.stdout


def test_backup_script_dump_restores_the_same_standings(server: str, tmp_path: Path) -> None:
    source, restored = f"{server}/{SOURCE}", f"{server}/{RESTORED}"
    manage(source, "migrate", "--verbosity", "0")
    manage(source, "seed_demo")

    backup = subprocess.run(
        [str(PROJECT / "bin" / "backup"), "--local", "--keep", "1", str(tmp_path)],
        cwd=PROJECT,
        env=environment(source),
        capture_output=True,
        text=True,
    )
    assert backup.returncode == 0, backup.stderr
    (dump,) = tmp_path.glob("clubcomp-*.dump")
    (seasons,) = tmp_path.glob("clubcomp-*-seasons")
    assert "Backup written: " in backup.stdout
    assert oct(dump.stat().st_mode & 0o777) == "0o600"  # a dump holds password hashes
    manifest = json.loads((seasons / "manifest.json").read_text(encoding="utf-8"))
    assert [f"{f['club']}/{f['season']}" for f in manifest["files"]] == SEASONS
    assert not list(tmp_path.glob(".*"))  # no partial file left

    subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={restored}", str(dump)],
        check=True,
        capture_output=True,
    )
    for slug in SEASONS:
        before = manage(source, "standings", slug, "--format", "json")
        after = manage(restored, "standings", slug, "--format", "json")
        assert json.loads(before)["standings"], slug
        assert after == before, slug
