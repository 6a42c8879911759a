"""The collected static files the suite serves, checked before a test starts.

The tests use production's storage (``CompressedManifestStaticFilesStorage``) on the files that
``collectstatic`` wrote to ``STATIC_ROOT``: a page then links exactly the hashed addresses a
deployment links, and a template naming a file that is not collected fails as it fails there.
``make test`` (``make static``) collects them first. A run that finds them missing, or older than
a file of ``static/`` (or of an app's static files), stops at once and says what to run, instead
of failing here and there on addresses of the day before.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders

COLLECT = "make static"


def collected_problem() -> str | None:
    """Why the collected files cannot serve this run (``None``: they can)."""
    root = Path(settings.STATIC_ROOT)
    manifest = root / "staticfiles.json"
    if not manifest.is_file():
        return f"no static files collected in {root} (no staticfiles.json): run `{COLLECT}`"
    hashed = json.loads(manifest.read_text(encoding="utf-8")).get("paths", {})
    ignore = apps.get_app_config("staticfiles").ignore_patterns
    seen: set[str] = set()
    for finder in finders.get_finders():
        for path, storage in finder.list(ignore):
            if path in seen:  # collectstatic takes the first finder's file too
                continue
            seen.add(path)
            if path not in hashed:
                return f"{path} is not among the collected static files in {root}: run `{COLLECT}`"
            with storage.open(path) as source:
                current = source.read()
            copy = root / path
            if not copy.is_file() or copy.read_bytes() != current:
                return f"{path} changed since the static files were collected: run `{COLLECT}`"
    return None
