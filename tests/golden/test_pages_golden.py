"""The renovation changes no page: every kind of page of the demo club, for each kind of
visitor, byte for byte as the code before it wrote them.

``pages_golden.json`` holds, per visitor, every address the crawl reaches (:mod:`.pages`: the
first two of each kind of address, through the site's own links) with its status, content type
and the SHA-256 of its body. A change that is meant to change what a page says regenerates it
and says why in its commit: ``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/golden``.
To see what differs, ``GOLDEN_PAGES_DIR=/tmp/after`` writes every page crawled into that folder
(one file per address); run it on the code before too, into another folder, and ``diff -r``.
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from competition.management.commands.seed_demo import DEMO_TODAY
from tests.golden.pages import Page, crawl

GOLDEN = Path(__file__).with_name("pages_golden.json")

# Who visits, in which language: (visitor, username or None for the public, language).
VISITORS = {
    "public-nl": (None, "nl"),
    "public-en": (None, "en"),
    "td": ("wedstrijdleider", "nl"),
    "member": ("lid", "nl"),
    "club-admin": ("clubbeheerder", "nl"),
}
PER_SHAPE = 2
# The pages speak of today (the next club evening, a member's coming rounds): the crawl runs on
# the demo's own day, an evening at the club.
CLUB_EVENING = datetime.datetime.combine(DEMO_TODAY, datetime.time(20), tzinfo=datetime.UTC)


def _record(page: Page) -> str:
    moved = f" -> {page.location}" if page.location else ""
    return f"{page.status} {page.content_type} {page.digest}{moved}"


def _written(visitor: str, pages: dict[str, Page], folder: Path) -> None:
    for address, page in pages.items():
        target = folder / visitor / quote(address, safe="")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(f"{page.status} {page.content_type}\n".encode() + page.body)


@pytest.mark.parametrize("visitor", list(VISITORS))
def test_every_page_as_before(
    client: Client, demo_club: None, visitor: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timezone, "now", lambda: CLUB_EVENING)
    username, language = VISITORS[visitor]
    if username is not None:
        client.force_login(User.objects.get(username=username))
    client.cookies["django_language"] = language
    pages = crawl(client, ["/"], per_shape=PER_SHAPE)
    if folder := os.environ.get("GOLDEN_PAGES_DIR"):
        _written(visitor, pages, Path(folder))
    found = {address: _record(page) for address, page in pages.items()}
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("UPDATE_GOLDEN"):
        golden[visitor] = found
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    expected = golden[visitor]
    assert len(found) > 100, f"the crawl reached only {len(found)} pages"
    missing = sorted(set(expected) - set(found))
    new = sorted(set(found) - set(expected))
    changed = sorted(a for a in set(found) & set(expected) if found[a] != expected[a])
    assert not (missing or new or changed), (
        f"{visitor}: {len(changed)} pages changed, {len(missing)} no longer reached, "
        f"{len(new)} new; changed: {changed[:10]}, missing: {missing[:10]}, new: {new[:10]}"
    )
