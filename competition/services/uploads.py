"""Uploaded files waiting for the TD's confirmation.

A preview is a dry run that saves nothing; the file itself waits under a random token in
``UPLOAD_DIR`` until the TD presses *Import* (the token is kept in the TD's session). Previews
nobody confirmed are removed after a day (``MAX_AGE``): by the next upload and by
``manage.py prune_uploads``.
"""

from __future__ import annotations

import datetime
import secrets
import tempfile
import time
from pathlib import Path

UPLOAD_DIR = Path(tempfile.gettempdir()) / "clubcomp-uploads"
MAX_AGE = datetime.timedelta(days=1)


def upload_keep(*, data: bytes) -> str:
    """Keep ``data`` until it is confirmed; gives its token (32 hex digits)."""
    uploads_prune()
    token = secrets.token_hex(16)
    UPLOAD_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
    (UPLOAD_DIR / token).write_bytes(data)
    return token


def upload_take(*, token: str) -> bytes | None:
    """The file kept under ``token``, removed from the store; None when it is gone."""
    path = UPLOAD_DIR / token
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    path.unlink(missing_ok=True)
    return data


def uploads_prune(*, max_age: datetime.timedelta = MAX_AGE) -> int:
    """Remove the previews older than ``max_age``; gives how many were removed."""
    if not UPLOAD_DIR.is_dir():
        return 0
    oldest = time.time() - max_age.total_seconds()
    removed = 0
    for path in UPLOAD_DIR.iterdir():
        try:
            if path.is_file() and path.stat().st_mtime < oldest:
                path.unlink()
                removed += 1
        except FileNotFoundError:  # confirmed or pruned meanwhile
            continue
    return removed
