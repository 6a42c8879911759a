"""The demo's internal competition as the TD page tests address it (the TD's client is the
``td`` fixture of tests/views/conftest.py)."""

from __future__ import annotations

from tests.addresses import club_reverse

SLUG = "interne-2026-2027"


def url(name: str, number: int = 11, **extra: object) -> str:
    return club_reverse(
        f"competition:{name}", kwargs={"season_slug": SLUG, "round_number": number, **extra}
    )
