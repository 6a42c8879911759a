"""Every page of the demo club as its visitors reach it, for comparing the site before and after
a change that must not change what anyone sees.

:func:`crawl` starts at a visitor's first pages and follows every link on the site (``href`` and
``src`` to our own addresses, GET only) breadth first, in the order the links stand on the page.
Each answer is reduced to its status, content type, redirect target and body with what differs
from one request or test run to the next taken out (:func:`steady`): the CSRF token, the CSP
nonce, the seeding time, a member's calendar token and a workbook's own timestamp.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

from django.test import Client

# Addresses not followed: they log out, change state on GET by design (none should), or are
# files of the build (their digest is the static files' business, not the pages').
SKIPPED = (
    re.compile(r"^/static/"),
    re.compile(r"^/logout/"),
    re.compile(r"^/i18n/"),
    re.compile(r"^/taal/"),  # the language switch: the crawl of each language starts with it set
    re.compile(r"^/login/\?"),  # the sign-in page once per next= address: once is enough
    re.compile(r"^/([^/]+/)?admin/"),  # Django's own admin: not ours to keep identical
)

_CSRF = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]+(")')
_CSRF_META = re.compile(rb'(name="csrf-token" content=")[^"]+(")')
_NONCE = re.compile(rb'(nonce=")[^"]+(")')
# When the demo was seeded (at the start of the test run): saved-at times and account dates.
_SAVED_AT = re.compile(rb'(class="[^"]*saved-line">[^<]*?)\d\d:\d\d')
_MOMENT = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?")
_FEED_TOKEN = re.compile(rb"(/ical/)[\w-]+(/)")  # a member's calendar address, made at random
_XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@dataclass(frozen=True, slots=True)
class Page:
    """What a visitor gets at one address."""

    status: int
    content_type: str
    body: bytes
    location: str = ""  # where a redirect sends the visitor

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.body).hexdigest()


def steady(body: bytes, content_type: str) -> bytes:
    """``body`` without what changes from one request or test run to the next; a workbook as
    its sheets (the file's own time of writing left out)."""
    if content_type.startswith(_XLSX):
        with zipfile.ZipFile(io.BytesIO(body)) as workbook:
            return b"".join(
                name.encode() + b"\n" + workbook.read(name) + b"\n"
                for name in sorted(workbook.namelist())
                if name != "docProps/core.xml"
            )
    body = _CSRF.sub(rb"\1-\2", body)
    body = _CSRF_META.sub(rb"\1-\2", body)
    body = _NONCE.sub(rb"\1-\2", body)
    body = _SAVED_AT.sub(rb"\1HH:MM", body)
    body = _FEED_TOKEN.sub(rb"\1-\2", body)
    return _MOMENT.sub(b"YYYY-MM-DDTHH:MM:SS", body)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in {"href", "src"} and value:
                self.found.append(value)


def _followed(address: str, raw: str) -> str | None:
    """The address ``raw`` (a link or a redirect on page ``address``) leads to, without its
    fragment, when it is our own and not :data:`SKIPPED`."""
    target, _fragment = urldefrag(urljoin("http://testserver" + address, raw))
    parts = urlsplit(target)
    if parts.scheme not in {"http", "https"} or parts.netloc != "testserver":
        return None
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return None if any(pattern.match(path) for pattern in SKIPPED) else path


def links(address: str, page: Page) -> list[str]:
    """Our own addresses that ``page`` (HTML only) links to, in page order, without fragments."""
    if not page.content_type.startswith("text/html"):
        return []
    parser = _Links()
    parser.feed(page.body.decode("utf-8", "replace"))
    return [path for raw in parser.found if (path := _followed(address, raw)) is not None]


_NUMBER = re.compile(r"\d+")


def shape(address: str) -> str:
    """``address`` with its numbers left out: the kind of page it is."""
    return _NUMBER.sub("N", address)


def redirect_target(address: str, page: Page) -> list[str]:
    """Where a redirect to our own site leads (followed like a link)."""
    path = _followed(address, page.location) if page.location else None
    return [] if path is None else [path]


def crawl(client: Client, start: Iterable[str], *, per_shape: int) -> dict[str, Page]:
    """The pages reachable from ``start`` through links, at most ``per_shape`` of each
    :func:`shape` (the first found)."""
    pages: dict[str, Page] = {}
    queue = deque(start)
    seen = set(queue)
    shapes: dict[str, int] = {}
    for address in queue:
        shapes[shape(address)] = shapes.get(shape(address), 0) + 1
    while queue:
        address = queue.popleft()
        response = client.get(address)
        content_type = response.get("Content-Type", "")
        body = b"".join(response) if response.streaming else response.content
        page = Page(
            response.status_code,
            content_type,
            steady(body, content_type),
            response.get("Location", ""),
        )
        pages[address] = page
        for target in [*links(address, page), *redirect_target(address, page)]:
            kind = shape(target)
            if target not in seen and shapes.get(kind, 0) < per_shape:
                seen.add(target)
                shapes[kind] = shapes.get(kind, 0) + 1
                queue.append(target)
    return pages
