"""Rating lists in: a KNSB or FIDE rating list creates or updates the club's members
(:func:`ratings_import`). The list formats themselves are :mod:`competition.formats.ratings`.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from competition.formats import ratings as fr
from competition.models import Club, Member, Season
from competition.services.errors import ServiceError
from competition.services.standings import seasons_touch
from competition.services.transfer.common import club_for_import, run_import

RATING_FORMATS = ("knsb", "fide-txt", "fide-xml")


@dataclass
class RatingsReport:
    dry_run: bool = False
    list_date: datetime.date | None = None
    read: int = 0  # records kept by the filter
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    warnings: list[str] = field(default_factory=list)


def guess_rating_format(data: bytes, filename: str = "") -> str:
    """``fide-xml`` for XML, ``knsb`` for a first line of ``;``-separated fields, ``fide-txt``
    for a header naming FIDE's columns; anything else is refused (FormatError, line 1)."""
    head = data[:1000].lstrip(b"\xef\xbb\xbf").lstrip()
    if filename.lower().endswith(".xml") or head.startswith(b"<"):
        return "fide-xml"
    first_line = head.split(b"\n", 1)[0].lower()
    if first_line.startswith(b"relatienummer") or b";" in first_line:
        return "knsb"
    if b"id number" in first_line or b"id_number" in first_line:
        return "fide-txt"
    fr.refuse_unknown_list(data)


def parse_ids(text: str) -> frozenset[int]:
    """Numbers separated by commas, semicolons or white space; anything else is refused."""
    numbers = set()
    for token in re.split(r"[\s,;]+", text.strip()):
        if not token:
            continue
        if not token.isdigit():
            raise ServiceError(f"{token!r} is not a relatienummer or FIDE ID.")
        numbers.add(int(token))
    return frozenset(numbers)


def ratings_import(
    *,
    data: bytes,
    format: str | None = None,
    club_slug: str | None = None,
    list_date: datetime.date | None = None,
    only_club_members: bool = False,
    ids: Iterable[int] | None = None,
    filename: str = "",
    dry_run: bool = False,
) -> RatingsReport:
    """Create or update the club's members from a KNSB or FIDE rating list.

    KNSB records are matched by relatienummer, FIDE records by FIDE ID. A matched member gets
    the list's rating and date (and birth year when unknown); his name is kept. An unmatched
    record becomes a new member. ``only_club_members`` keeps only records of the club's
    members; ``ids`` keeps only those numbers. The list date is ``list_date``, else the one
    the file gives (FIDE's month column, or the file name).
    """
    format = format or guess_rating_format(data, filename)
    if format not in RATING_FORMATS:
        raise ServiceError(
            f"Unknown rating list format {format!r}; use {', '.join(RATING_FORMATS)}."
        )
    club = club_for_import(club_slug=club_slug)
    assert club is not None
    wanted: frozenset[int] | None = None if ids is None else frozenset(ids)
    if only_club_members:
        members = Member.objects.filter(club=club)
        if format == "knsb":
            own = {_relatienummer(k) for k in members.values_list("knsb_id", flat=True)}
        else:
            own = set(members.exclude(fide_id=None).values_list("fide_id", flat=True))
        numbers = frozenset(number for number in own if number is not None)
        wanted = numbers if wanted is None else wanted & numbers
    keep: fr.RatingFilter | None = None
    if wanted is not None:
        keep = (
            fr.RatingFilter(relatienummers=wanted)
            if format == "knsb"
            else fr.RatingFilter(fide_ids=wanted)
        )
    date_from_name = fr.list_date_from_filename(filename) if filename else None
    if format == "knsb":
        rating_list = fr.parse_knsb(data, list_date=list_date or date_from_name, keep=keep)
    elif format == "fide-txt":
        rating_list = fr.parse_fide_txt(data, list_date=list_date, keep=keep)
    else:
        rating_list = fr.parse_fide_xml(data, list_date=list_date or date_from_name, keep=keep)
    effective_date = list_date or rating_list.list_date or date_from_name
    report = RatingsReport(dry_run=dry_run, list_date=effective_date, read=len(rating_list.records))
    if effective_date is None:
        report.warnings.append(
            "the list's date is unknown (give --list-date); rating dates were left as they were"
        )
    return run_import(dry_run, lambda: _write_ratings(club, rating_list, effective_date, report))


def _relatienummer(knsb_id: str) -> int | None:
    text = knsb_id.strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def _write_ratings(
    club: Club,
    rating_list: fr.RatingList,
    list_date: datetime.date | None,
    report: RatingsReport,
) -> RatingsReport:
    members = Member.objects.filter(club=club)
    if rating_list.source == "knsb":
        existing = {m.knsb_id.strip(): m for m in members.exclude(knsb_id="")}
    else:
        existing = {str(m.fide_id): m for m in members.exclude(fide_id=None)}
    new: list[Member] = []
    changed: list[Member] = []
    aged: list[int] = []
    for record in rating_list.records:
        number = record.relatienummer if rating_list.source == "knsb" else record.fide_id
        member = existing.get(str(number))
        if member is None:
            new.append(
                Member(
                    club=club,
                    name=record.name[:120] or str(number),
                    knsb_id=str(record.relatienummer or "")[:12],
                    fide_id=record.fide_id,
                    rating=record.rating,
                    rating_date=list_date if record.rating is not None else None,
                    birth_year=record.birth_year,
                )
            )
            continue
        before = (member.rating, member.rating_date, member.birth_year)
        member.rating = record.rating
        if list_date is not None:
            member.rating_date = list_date
        if member.birth_year is None and record.birth_year:
            member.birth_year = record.birth_year
            aged.append(member.pk)  # may make him a junior, shown by first name and initial
        if (member.rating, member.rating_date, member.birth_year) != before:
            changed.append(member)
        else:
            report.unchanged += 1
    Member.objects.bulk_create(new, batch_size=1000)
    Member.objects.bulk_update(changed, ["rating", "rating_date", "birth_year"], batch_size=1000)
    if aged:  # the public pages cached under the seasons' data_version show names anew
        seasons_touch(seasons=Season.objects.filter(participants__member__in=aged).distinct())
    report.created, report.updated = len(new), len(changed)
    return report
