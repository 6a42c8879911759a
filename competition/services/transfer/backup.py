"""Every season of every club as its archive in one directory, with a manifest, and the way
back: the second, program-independent backup next to ``pg_dump`` (README, *Backups*).

A directory holds one archive per season, ``<club>--<season>.json`` (the canonical text of
:func:`season_archive_text`), and ``manifest.json``: which files, when, the archive format's
version, counts and each file's SHA-256. Every file is written under a temporary name and then
renamed, the manifest last, so a crash leaves no half file and a directory without a manifest
is an export that did not finish.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from competition.formats import archive as fa
from competition.formats.errors import FormatError
from competition.models import Season
from competition.services.errors import ServiceError
from competition.services.transfer.archive import archive_import
from competition.services.transfer.archive_export import season_archive
from competition.services.transfer.common import ImportReport

MANIFEST_NAME = "manifest.json"
MANIFEST_FORMAT = "clubcomp-backup"
MANIFEST_VERSION = 1
# The figures of a season the manifest records and the import checks again (ImportReport's).
COUNTED = ("participants", "rounds", "games", "entries", "corrections")


def archive_file_name(*, club_slug: str, season_slug: str) -> str:
    """``het-paard--interne-2026-2027.json``: a season's archive in a backup directory."""
    return f"{club_slug}--{season_slug}.json"


def counted(number: int, noun: str) -> str:
    """``counted(1, "club")`` is ``"1 club"``, ``counted(3, "season")`` ``"3 seasons"``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def archive_counts(archive: fa.SeasonArchive) -> dict[str, int]:
    """What an import of ``archive`` reports: participants, rounds, games, entries and
    corrections (the history's changes and deletions)."""
    changes = sum(h.history_type != "+" for h in archive.game_history) + sum(
        h.history_type != "+" for h in archive.entry_history
    )
    return {
        "participants": len(archive.participants),
        "rounds": len(archive.rounds),
        "games": sum(len(r.games) for r in archive.rounds),
        "entries": sum(len(r.entries) for r in archive.rounds),
        "corrections": changes,
    }


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, flush it to disk and rename it to
    ``path``: readers (and a crash) see the old file or the whole new one, never half."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    # The rename itself survives a power cut only once the directory is on disk too.
    descriptor = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class BackupFile:
    """One archive of a backup directory as the manifest lists it."""

    file: str
    club: str
    season: str
    sha256: str
    size: int
    counts: dict[str, int]


@dataclass
class BackupExport:
    """What ``export_season --all`` wrote."""

    directory: Path
    created_at: datetime.datetime
    files: list[BackupFile] = field(default_factory=list)
    left_alone: list[str] = field(default_factory=list)  # older *.json not written again

    @property
    def clubs(self) -> int:
        return len({f.club for f in self.files})

    def manifest(self) -> dict[str, Any]:
        totals = {key: sum(f.counts[key] for f in self.files) for key in COUNTED}
        return {
            "format": MANIFEST_FORMAT,
            "version": MANIFEST_VERSION,
            "created_at": fa.moment_text(self.created_at),
            "archive_format": fa.FORMAT,
            "archive_version": fa.VERSION,
            "counts": {"clubs": self.clubs, "seasons": len(self.files), **totals},
            "files": [
                {
                    "file": f.file,
                    "club": f.club,
                    "season": f.season,
                    "sha256": f.sha256,
                    "bytes": f.size,
                    **f.counts,
                }
                for f in self.files
            ],
        }


def seasons_export_all(
    *, directory: Path, force: bool = False, now: datetime.datetime | None = None
) -> BackupExport:
    """Every season of every club as its archive in ``directory`` (created when missing), then
    the manifest. Refuses a directory that already holds ``*.json`` files unless ``force``;
    with ``force`` the old manifest goes first, so a crash never pairs it with new archives."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ServiceError(f"Cannot create {directory}: {error.strerror}.") from None
    existing = sorted(p.name for p in directory.glob("*.json"))
    if existing and not force:
        shown = ", ".join(existing[:3]) + (", ..." if len(existing) > 3 else "")
        raise ServiceError(
            f"{directory} already holds {len(existing)} JSON file(s) ({shown}); nothing was "
            "written. Choose an empty directory, or pass --force to overwrite."
        )
    (directory / MANIFEST_NAME).unlink(missing_ok=True)
    export = BackupExport(directory=directory, created_at=now or timezone.now())
    seasons = Season.objects.select_related("club").order_by("club__slug", "slug")
    for season in seasons:
        archive = season_archive(season=season)
        data = fa.dump_archive(archive).encode()
        name = archive_file_name(club_slug=season.club.slug, season_slug=season.slug)
        if any(f.file == name for f in export.files):
            raise ServiceError(f"Two seasons would both be written as {name}; rename one.")
        write_atomically(directory / name, data)
        export.files.append(
            BackupFile(
                file=name,
                club=season.club.slug,
                season=season.slug,
                sha256=_sha256(data),
                size=len(data),
                counts=archive_counts(archive),
            )
        )
    written = {f.file for f in export.files}
    export.left_alone = [name for name in existing if name not in written | {MANIFEST_NAME}]
    manifest = json.dumps(export.manifest(), indent=2, ensure_ascii=False) + "\n"
    write_atomically(directory / MANIFEST_NAME, manifest.encode())
    return export


@dataclass
class BackupImport:
    """What ``import_season --all`` did (or, for a dry run, would do)."""

    directory: Path
    dry_run: bool
    reports: list[tuple[str, ImportReport]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def clubs(self) -> int:
        return len({report.club_slug for _, report in self.reports})


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise ServiceError(f"Cannot read {path}: {error.strerror}; nothing was imported.") from None


def _manifest_files(
    directory: Path, manifest: Path
) -> tuple[list[dict[str, Any]], dict[str, Any], list[str]]:
    """The manifest's list of files (checked: each a ``.json`` file of ``directory`` itself,
    listed once), its totals, and warnings about JSON files it does not list."""
    try:
        document = json.loads(_read(manifest))
        if document.get("format") != MANIFEST_FORMAT or document.get("version") != 1:
            raise ValueError("not a clubcomp-backup manifest of version 1")
        files: list[dict[str, Any]] = document["files"]
        totals: dict[str, Any] = document["counts"]
        if not isinstance(files, list) or not isinstance(totals, dict):
            raise ValueError("'files' must be a list and 'counts' an object")
        names = [f["file"] for f in files]
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ServiceError(f"{manifest}: {error}; nothing was imported.") from None
    seen: set[str] = set()
    for index, name in enumerate(names):
        if not _inside(directory, name):
            raise ServiceError(
                f"{manifest}: files[{index}].file: {json.dumps(name)} is not the name of a "
                ".json file in the backup directory; nothing was imported."
            )
        if name in seen:
            raise ServiceError(
                f"{manifest}: files[{index}].file: {name} is listed twice; nothing was imported."
            )
        seen.add(name)
    others = sorted(
        p.name for p in directory.glob("*.json") if p.name not in {*names, MANIFEST_NAME}
    )
    warnings = [f"{name} is not in the manifest and was left out." for name in others]
    return files, totals, warnings


def _inside(directory: Path, name: object) -> bool:
    """Whether ``name`` is a plain ``*.json`` name of a file of ``directory`` itself: no
    directory part, no ``..``, and no link that leads out of it. A manifest is a file anyone
    may have edited; it never makes the import read a file elsewhere."""
    if not isinstance(name, str) or name != Path(name).name or name in ("", ".", ".."):
        return False
    if not name.endswith(".json") or name == MANIFEST_NAME:
        return False
    return (directory / name).resolve().parent == directory.resolve()


def _check_totals(manifest: Path, totals: dict[str, Any], result: BackupImport) -> None:
    """The manifest's totals (clubs, seasons and the sums of the files' counts) against what
    was imported."""
    found = {"clubs": result.clubs, "seasons": len(result.reports)}
    for key in COUNTED:
        found[key] = sum(report.counts()[key] for _, report in result.reports)
    for key, number in found.items():
        if totals.get(key) != number:
            raise ServiceError(
                f"{manifest}: the manifest's counts say {totals.get(key)} {key} in all, the "
                f"files {number}; nothing was imported."
            )


def _import_one(name: str, data: bytes) -> ImportReport:
    try:
        return archive_import(data=data)
    except FormatError as error:
        raise ServiceError(f"{name}: {error}; nothing was imported.") from None
    except ServiceError as error:
        raise ServiceError(f"{name}: {error}") from None


def archives_import_all(*, directory: Path, dry_run: bool = False) -> BackupImport:
    """Every archive of ``directory`` as new seasons, in one transaction: one refused file and
    nothing is imported. With a manifest, exactly its files, each checked against its SHA-256
    and, once imported, its counts, club and season, then the manifest's totals; a manifest
    names only ``*.json`` files of the directory itself. Without a manifest, every ``*.json``
    in name order (a warning says so). Clubs are created as needed, members matched as
    :func:`archive_import` does."""
    if not directory.is_dir():
        raise ServiceError(f"{directory} is not a directory; nothing was imported.")
    result = BackupImport(directory=directory, dry_run=dry_run)
    manifest = directory / MANIFEST_NAME
    totals: dict[str, Any] | None = None
    if manifest.exists():
        listed, totals, result.warnings = _manifest_files(directory, manifest)
    else:
        listed = [{"file": p.name} for p in sorted(directory.glob("*.json"))]
        if not listed:
            raise ServiceError(f"{directory} holds no season archive; nothing was imported.")
        result.warnings.append(
            f"{directory} has no {MANIFEST_NAME} (an export that did not finish, or archives "
            f"gathered by hand): importing every *.json file ({len(listed)})."
        )
    with transaction.atomic():
        for index, entry in enumerate(listed):
            name = str(entry["file"])
            data = _read(directory / name)
            if "sha256" in entry and _sha256(data) != entry["sha256"]:
                raise ServiceError(
                    f"{name}: the file differs from the one the manifest lists (SHA-256); "
                    "nothing was imported."
                )
            report = _import_one(name, data)
            expected = {key: entry[key] for key in COUNTED if key in entry}
            found = {key: report.counts()[key] for key in expected}
            if found != expected:
                raise ServiceError(
                    f"{name}: the manifest counts {expected}, the import {found}; "
                    "nothing was imported."
                )
            for key, slug in (("club", report.club_slug), ("season", report.season_slug)):
                if key in entry and entry[key] != slug:
                    raise ServiceError(
                        f"{manifest}: files[{index}].{key}: the manifest says {entry[key]!r}, "
                        f"the archive {slug!r}; nothing was imported."
                    )
            result.reports.append((name, report))
        if totals is not None:
            _check_totals(manifest, totals, result)
        if dry_run:
            transaction.set_rollback(True)
    return result
