"""No inline script, event handler or style in the templates: front-end code lives in static/.

A page then works under a Content-Security-Policy without 'unsafe-inline', and behaviour is
found in one place (static/js/page.js and the page scripts beside it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
INLINE = {
    "event handler": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE),
    "style attribute": re.compile(r"\sstyle\s*=", re.IGNORECASE),
    "style element": re.compile(r"<style\b", re.IGNORECASE),
}


@pytest.mark.parametrize("path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: p.name)
def test_template_has_no_inline_code(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for what, pattern in INLINE.items():
        match = pattern.search(text)
        assert match is None, f"{path.relative_to(TEMPLATES)}: {what} {match.group(0)!r}"


def test_the_check_finds_what_it_looks_for() -> None:
    found = {what for what, p in INLINE.items() if p.search('<b onclick="x()" style="a">')}
    assert found == {"event handler", "style attribute"}
    assert INLINE["inline script"].search("<script>alert(1)</script>")
    assert not INLINE["inline script"].search('<script src="/static/js/page.js"></script>')
