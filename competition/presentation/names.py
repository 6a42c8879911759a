"""How a member's name shows in public (AVG/GDPR): full, or first name and initial.

The choice is the member's own when he made one; otherwise juniors (born in or after the
season's ``junior_birth_year``) show short and everyone else as the season says. The TD's
pages always show full names. Pure functions: the selectors pass plain values in.
"""

from __future__ import annotations

FULL = "full"
SHORT = "short"


def short_name(name: str) -> str:
    """First name and the initial of the last name: "Jan van der Berg" → "Jan B.".

    >>> short_name("Anna de Vries")
    'Anna V.'
    >>> short_name("Bob")
    'Bob'
    """
    words = name.split()
    if len(words) < 2:
        return name.strip()
    return f"{words[0]} {words[-1][0].upper()}."


def name_display(
    *,
    member_choice: str,
    birth_year: int | None,
    season_choice: str,
    junior_birth_year: int | None,
) -> str:
    """``FULL`` or ``SHORT`` for one member in one season."""
    if member_choice in (FULL, SHORT):
        return member_choice
    if junior_birth_year is not None and birth_year is not None and birth_year >= junior_birth_year:
        return SHORT
    return season_choice if season_choice in (FULL, SHORT) else FULL


def public_name(
    name: str,
    *,
    member_choice: str = "",
    birth_year: int | None = None,
    season_choice: str = FULL,
    junior_birth_year: int | None = None,
) -> str:
    """The name as public pages, exports and feeds show it."""
    shown = name_display(
        member_choice=member_choice,
        birth_year=birth_year,
        season_choice=season_choice,
        junior_birth_year=junior_birth_year,
    )
    return short_name(name) if shown == SHORT else name
