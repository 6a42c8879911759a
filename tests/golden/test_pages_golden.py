"""Every page, as each role reads it in each language, is exactly what it was: a refactoring
that changes one byte of one page fails here, naming the page.

The pages are those of tests/pages.py (the whole URL configuration filled in with the demo's
objects), asked for at a fixed moment (a Thursday club evening of the demo season) so that
"tonight" and "the next evening" do not move with the calendar. Each answer is kept as its
status and the SHA-256 of its body with the per-request values (CSRF tokens) blanked out, in
``pages_golden.json`` beside this file.

When a page is meant to change: ``UPDATE_GOLDEN=1 .venv/bin/python -m pytest
tests/golden/test_pages_golden.py`` and say in the commit which pages changed and why. To see
what changed, ``PAGES_DUMP=DIR`` writes every page's body as it is now into DIR, before and
after a change, for a plain ``diff -r``.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client

from tests.pages import LANGUAGES, ROLES, pages

GOLDEN = Path(__file__).with_name("pages_golden.json")
# A Thursday evening of the demo's internal competition, after its last played round.
MOMENT = datetime.datetime(2026, 11, 19, 20, 30, tzinfo=ZoneInfo("Europe/Amsterdam"))

# What differs between two runs without any change of code: the CSRF token of each request,
# the moments at which the session's demo club was built (its rows' timestamps, the clock time
# of its saved results) and its random feed tokens.
_PER_RUN = [
    (re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]+'), rb"\1-"),
    (re.compile(rb'(name="csrf-token" content=")[^"]+'), rb"\1-"),
    (re.compile(rb'(data-csrf(?:-token)?=")[^"]+'), rb"\1-"),
    (re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:\+00:00|Z)"), rb"<moment>"),
    (re.compile(rb'(saved-line">[^<]*?)\d\d:\d\d'), rb"\1<time>"),
    (re.compile(rb"(/ical/)[A-Za-z0-9_-]{20,}/"), rb"\1<token>/"),
]


def normalized(body: bytes) -> bytes:
    """The body with what differs between runs (see ``_PER_RUN``) blanked out."""
    for pattern, replacement in _PER_RUN:
        body = pattern.sub(replacement, body)
    return body


def _readers() -> dict[str, Client]:
    clients = {}
    for role, username in ROLES.items():
        client = Client()
        if username is not None:
            client.force_login(User.objects.get(username=username))
        clients[role] = client
    return clients


@pytest.mark.django_db
def test_every_page_is_as_before(demo_club) -> None:
    with time_machine.travel(MOMENT, tick=False):
        answers = _answers()
    dump = os.environ.get("PAGES_DUMP")
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(
            json.dumps(
                {key: [status, digest] for key, (status, digest, _b) in answers.items()},
                indent=0,
                sort_keys=True,
            )
            + "\n"
        )
    if dump:
        for key, (_status, _digest, body) in answers.items():
            path = Path(dump) / (re.sub(r"[^A-Za-z0-9._-]+", "_", key).strip("_") + ".html")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
    golden = json.loads(GOLDEN.read_text())
    now = {key: [status, digest] for key, (status, digest, _b) in answers.items()}
    changed = sorted(key for key in golden.keys() & now.keys() if golden[key] != now[key])
    added = sorted(now.keys() - golden.keys())
    gone = sorted(golden.keys() - now.keys())
    assert not (changed or added or gone), (
        f"{len(changed)} pages changed, {len(added)} new, {len(gone)} gone "
        f"(of {len(now)}); first: changed {changed[:10]} new {added[:10]} gone {gone[:10]}"
    )
    assert len(now) > 1000


def _answers() -> dict[str, tuple[int, str, bytes]]:
    """Anonymous readers in Dutch get every page of the inventory; every other role and
    language gets at most two addresses of each URL name (what differs between them is the
    frame and the words, not the data), and no page that only takes a POST (405)."""
    answers = {}
    inventory = pages()
    sample: list = []
    per_name: dict[str, int] = {}
    for page in inventory:
        per_name[page.name] = per_name.get(page.name, 0) + 1
        if per_name[page.name] <= 2:
            sample.append(page)
    only_post: set[str] = set()
    for role, client in _readers().items():
        for language in LANGUAGES:
            client.cookies["django_language"] = language
            full = role == "anonymous" and language == LANGUAGES[0]
            for page in inventory if full else sample:
                if page.name in only_post:
                    continue
                response = client.get(page.url, HTTP_ACCEPT_LANGUAGE=language)
                if full and response.status_code == 405:
                    only_post.add(page.name)
                body = normalized(response.content)
                key = f"{role} {language} {normalized(page.url.encode()).decode()}"
                answers[key] = (response.status_code, hashlib.sha256(body).hexdigest(), body)
    return answers
