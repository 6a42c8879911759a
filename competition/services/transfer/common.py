"""What every import and export shares: reading file bytes as text, the club
an import goes to, matching a file's players to the club's members, and the dry-run machinery.

Every importer reads and validates the whole file first (``FormatError`` from the reader, a
:class:`~competition.services.errors.ServiceError` for what only the database can judge, such as
a season slug that is taken), and only then writes, in one transaction (:func:`run_import`). A
dry run performs the very same writes and rolls them back, so its counts are exactly what the
real run would do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from django.db import DataError, IntegrityError, transaction
from django.utils.translation import gettext, gettext_noop

from competition.formats import text as formats_text
from competition.models import Club, Member
from competition.presentation.labels import error_text
from competition.scoring.records import ScoringInputError
from competition.scoring.text import Text
from competition.services.errors import ServiceError

T = TypeVar("T")
MemberMatcher = tuple[dict[str, Member], dict[int, Member], dict[str, list[Member]]]


class _DryRun(Exception):
    """Raised inside the import transaction to roll a dry run back."""


# --- shared helpers for imports --------------------------------------------------------------


@dataclass
class ImportReport:
    """What an import did (or, for a dry run, would do)."""

    season_slug: str = ""
    club_slug: str = ""
    dry_run: bool = False
    members_created: int = 0
    members_matched: int = 0
    participants: int = 0
    rounds: int = 0
    games: int = 0
    entries: int = 0
    corrections: int = 0
    # A warning is in the reader's language already, or a pure package's Text (translated
    # where it is shown: competition.presentation.labels.text_label).
    warnings: list[str | Text] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "members_created": self.members_created,
            "members_matched": self.members_matched,
            "participants": self.participants,
            "rounds": self.rounds,
            "games": self.games,
            "entries": self.entries,
            "corrections": self.corrections,
        }


def decode_text(data: bytes | str) -> str:
    """File bytes as text: UTF-8 (with or without BOM), else Windows-1252.

    UTF-16, binary files (control characters) and bytes that are neither are refused with the
    line and column (:func:`competition.formats.text.decode_text`).
    """
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    return formats_text.decode_text(data, save_as=gettext_noop("UTF-8 text"))


def club_for_import(*, club_slug: str | None, create_name: str | None = None) -> Club | None:
    """The club an import goes to: ``club_slug``, else the only club.

    With no club at all, returns None when ``create_name`` is given (the caller creates it),
    else refuses. Several clubs and no slug: refused, naming them.
    """
    if club_slug:
        club = Club.objects.filter(slug=club_slug).first()
        if club is None:
            raise ServiceError(f"There is no club with slug {club_slug!r}.")
        return club
    clubs = list(Club.objects.order_by("slug")[:20])
    if len(clubs) == 1:
        return clubs[0]
    if not clubs:
        if create_name is not None:
            return None
        raise ServiceError("The database holds no club yet; create one first.")
    raise ServiceError(
        "There are several clubs; choose one with --club: " + ", ".join(c.slug for c in clubs) + "."
    )


def run_import(dry_run: bool, write: Callable[[], T]) -> T:
    """Run ``write()`` in one transaction; roll it back for a dry run (its result stays)."""
    result: T | None = None
    try:
        with transaction.atomic():
            result = write()
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    except (IntegrityError, DataError) as error:
        # A last net: the readers and columns.py refuse what a column cannot hold first, with
        # the field's path or line.
        raise ServiceError(f"The database refused the import: {error}") from None
    except ScoringInputError as error:
        # The standings computed at the end of an import refuse the season (a Van den Brink
        # participant without start points or start rank): the engine's message says why.
        raise ServiceError(
            gettext("The standings of this season cannot be computed: %(reason)s")
            % {"reason": error_text(error)}
        ) from None
    assert result is not None
    return result


def parse_parameters(pairs: Iterable[str]) -> dict[str, str]:
    """``["factor=0.07", "games_per_reset=14"]`` as a mapping; a pair without ``=`` is refused."""
    result: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ServiceError(f"--param needs NAME=VALUE, found {pair!r}.")
        result[name.strip()] = value.strip()
    return result


def member_matcher(club: Club | None) -> MemberMatcher:
    """The club's members by relatienummer, FIDE ID and folded name (for :func:`match_member`)."""
    if club is None:
        return {}, {}, {}
    members = list(Member.objects.filter(club=club))
    by_knsb = {m.knsb_id: m for m in members if m.knsb_id}
    by_fide = {m.fide_id: m for m in members if m.fide_id is not None}
    by_name: dict[str, list[Member]] = {}
    for m in members:
        by_name.setdefault(m.name.casefold(), []).append(m)
    return by_knsb, by_fide, by_name


def match_member(
    matcher: MemberMatcher,
    *,
    name: str,
    knsb_id: str,
    fide_id: int | None,
    match_name: bool = True,
) -> Member | None:
    """The club's member with this relatienummer, else FIDE ID, else (unique) name; with
    ``match_name`` false never by name (an anonymised member's name identifies nobody)."""
    by_knsb, by_fide, by_name = matcher
    if knsb_id and knsb_id in by_knsb:
        return by_knsb[knsb_id]
    if fide_id is not None and fide_id in by_fide:
        return by_fide[fide_id]
    if not match_name:
        return None
    candidates = [
        m
        for m in by_name.get(name.casefold(), [])
        if (not knsb_id or not m.knsb_id) and (fide_id is None or m.fide_id is None)
    ]
    return candidates[0] if len(candidates) == 1 else None
