"""Rating lists: the KNSB list (CSV) and FIDE's lists (fixed-width TXT and XML).

All three readers take the file's bytes and return a :class:`RatingList`. They check every line
(even those a filter leaves out) and raise :class:`FormatError` naming the line and field for a
wrong encoding, a wrong header, a short line, a non-numeric number or a duplicate identifier.
A :class:`RatingFilter` keeps only the players a club needs while parsing, so a 100,000-line
national list never becomes 100,000 objects.

- KNSB: ``;``-separated, cp1252, header ``Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S``
  (Nv = number of rated games, Geboren = year of birth, S = ``w`` for women).
- FIDE TXT (``players_list_foa.txt``, ``standard_<mmmyy>frl.txt``): column offsets are taken
  from the header line, so both the combined list (``SRtng SGm SK RRtng ...``) and the single
  lists (``SEP26 Gms K``) are read.
- FIDE XML: ``<playerslist><player><fideid>..<name>..<country>..<sex>..<title>..<rating>..
  <games>..<k>..<birthday>..<flag>..</player>...``.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import NoReturn

import defusedxml.ElementTree as defused
from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import DefusedXMLParser

from competition.formats.errors import FormatError, refuse_repeat
from competition.formats.text import BIG, NAME_LENGTH, RELATIENUMMER_LENGTH, SMALL, decode_text
from competition.scoring.text import gettext_noop

_FIDE_ID_TWICE = gettext_noop("FIDE ID %(id)s appears twice (also line %(other)s)")
_RELATIENUMMER_TWICE = gettext_noop("relatienummer %(number)s appears twice (also line %(other)s)")

KNSB_HEADER = "Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S"
_KNSB_FIELDS = KNSB_HEADER.split(";")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_YEAR = re.compile(r"(?i)(" + "|".join(_MONTHS) + r")[-_ ]?([0-9]{2})(?![0-9])")
_SAVE_AS = gettext_noop("CSV (cp1252 or UTF-8)")
_YEAR_MONTH = re.compile(r"(20[0-9]{2})[-_]?(0[1-9]|1[0-2])(?![0-9])")


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """One player of a rating list. KNSB records carry ``relatienummer``, FIDE ``fide_id``."""

    name: str
    rating: int | None
    relatienummer: int | None = None
    fide_id: int | None = None
    title: str = ""
    federation: str = ""
    games: int | None = None
    birth_year: int | None = None
    sex: str = ""  # "m", "w", or "" when the list does not say
    flag: str = ""  # FIDE's flag: "i" inactive, "w" woman, "wi" both


@dataclass(frozen=True, slots=True)
class RatingList:
    source: str  # "knsb", "fide-txt" or "fide-xml"
    list_date: date | None
    records: tuple[RatingRecord, ...]

    def by_relatienummer(self) -> dict[int, RatingRecord]:
        return {r.relatienummer: r for r in self.records if r.relatienummer is not None}

    def by_fide_id(self) -> dict[int, RatingRecord]:
        return {r.fide_id: r for r in self.records if r.fide_id is not None}


@dataclass(frozen=True, slots=True)
class RatingFilter:
    """Which records to keep; every given condition must hold (None = no condition)."""

    relatienummers: frozenset[int] | None = None
    fide_ids: frozenset[int] | None = None
    federations: frozenset[str] | None = None

    def keeps(self, record: RatingRecord) -> bool:
        if self.relatienummers is not None and record.relatienummer not in self.relatienummers:
            return False
        if self.fide_ids is not None and record.fide_id not in self.fide_ids:
            return False
        return self.federations is None or record.federation in self.federations


def list_date_from_filename(filename: str) -> date | None:
    """The first day of the list's month, read from a file name, or None.

    >>> list_date_from_filename("standard_sep25frl.txt")
    datetime.date(2025, 9, 1)
    >>> list_date_from_filename("KNSB-ratinglijst-2024-12.csv")
    datetime.date(2024, 12, 1)
    """
    found = _YEAR_MONTH.search(filename)
    if found:
        return date(int(found.group(1)), int(found.group(2)), 1)
    found = _MONTH_YEAR.search(filename)
    if found:
        return date(2000 + int(found.group(2)), _MONTHS.index(found.group(1).lower()) + 1, 1)
    return None


def _int_field(
    text: str, line: int, column: int, field: str, maximum: int | None = SMALL
) -> int | None:
    """A number field; above ``maximum`` (the database column's limit) it is refused."""
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()):
        raise FormatError(
            gettext_noop("%(field)s must be a number, found %(found)s"),
            {"field": field, "found": repr(text)},
            line=line,
            column=column,
        )
    value = int(text)
    if maximum is not None and value > maximum:
        raise FormatError(
            gettext_noop("%(field)s must be at most %(maximum)s, found %(found)s"),
            {"field": field, "maximum": maximum, "found": value},
            line=line,
            column=column,
        )
    return value


def refuse_unknown_list(data: bytes) -> NoReturn:
    """Raise the FormatError for a file that is neither a KNSB nor a FIDE list (after the
    text checks: a binary file is "not a text file")."""
    text = decode_text(data, save_as=_SAVE_AS)
    header = text.split("\n", 1)[0].strip()
    raise FormatError(
        gettext_noop(
            "not a rating list: expected the KNSB header %(header)s or a FIDE header naming "
            "the columns 'ID Number', 'Name' and 'Fed' (found %(found)s)"
        ),
        {"header": repr(KNSB_HEADER), "found": repr(header[:60])},
        line=1,
        column=1,
    )


# --- KNSB ----------------------------------------------------------------------------------


def parse_knsb(
    data: bytes,
    *,
    list_date: date | None = None,
    keep: RatingFilter | None = None,
) -> RatingList:
    """Read a KNSB rating list (``Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S``).

    >>> rows = "Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\\r\\n" \\
    ...        "8012345;Jansen, Anna;WFM;NED;2051;412;1990;w\\r\\n"
    >>> parse_knsb(rows.encode("cp1252")).records[0].rating
    2051
    """
    text = decode_text(data, save_as=_SAVE_AS)
    lines = iter(text.splitlines())
    header = next(lines, "")
    _check_knsb_header(header)
    records: list[RatingRecord] = []
    seen: dict[int, int] = {}
    for number, line in enumerate(lines, start=2):
        if not line.strip():
            continue
        record = _knsb_record(line, number)
        assert record.relatienummer is not None
        refuse_repeat(
            seen, record.relatienummer, _RELATIENUMMER_TWICE, "number", line=number, column=1
        )
        if keep is None or keep.keeps(record):
            records.append(record)
    return RatingList("knsb", list_date, tuple(records))


def _check_knsb_header(header: str) -> None:
    found = header.strip().split(";")
    if found == _KNSB_FIELDS:
        return
    column = 1
    for index, expected in enumerate(_KNSB_FIELDS):
        got = found[index] if index < len(found) else ""
        if got != expected:
            raise FormatError(
                gettext_noop(
                    "not a KNSB rating list: header field %(index)s is %(found)s, expected "
                    "%(expected)s (header %(header)s)"
                ),
                {
                    "index": index + 1,
                    "found": repr(got),
                    "expected": repr(expected),
                    "header": repr(KNSB_HEADER),
                },
                line=1,
                column=column,
            )
        column += len(got) + 1
    raise FormatError(
        gettext_noop(
            "not a KNSB rating list: the header has %(found)s fields, expected %(expected)s "
            "(%(header)s)"
        ),
        {"found": len(found), "expected": len(_KNSB_FIELDS), "header": repr(KNSB_HEADER)},
        line=1,
        column=column,
    )


def _knsb_record(line: str, number: int) -> RatingRecord:
    fields = line.split(";")
    if len(fields) != len(_KNSB_FIELDS):
        raise FormatError(
            gettext_noop("expected %(expected)s fields separated by ';', found %(found)s"),
            {"expected": len(_KNSB_FIELDS), "found": len(fields)},
            line=number,
            column=len(line) + 1 if len(fields) < len(_KNSB_FIELDS) else None,
        )
    columns = [1]
    for field in fields[:-1]:
        columns.append(columns[-1] + len(field) + 1)
    relatienummer = _int_field(fields[0], number, columns[0], "Relatienummer", maximum=None)
    if relatienummer is None:
        raise FormatError(gettext_noop("Relatienummer is empty"), line=number, column=1)
    if len(str(relatienummer)) > RELATIENUMMER_LENGTH:
        raise FormatError(
            gettext_noop("Relatienummer must have at most %(maximum)s digits, found %(found)s"),
            {"maximum": RELATIENUMMER_LENGTH, "found": len(str(relatienummer))},
            line=number,
            column=1,
        )
    sex = fields[7].strip().lower()
    if sex not in ("", "m", "w", "v"):
        raise FormatError(
            gettext_noop("S must be 'w', 'm' or empty, found %(found)s"),
            {"found": repr(fields[7])},
            line=number,
            column=columns[7],
        )
    name = fields[1].strip()
    if len(name) > NAME_LENGTH:
        raise FormatError(
            gettext_noop("Naam is longer than %(maximum)s characters"),
            {"maximum": NAME_LENGTH},
            line=number,
            column=columns[1],
        )
    return RatingRecord(
        name=name,
        rating=_int_field(fields[4], number, columns[4], "Rating"),
        relatienummer=relatienummer,
        title=fields[2].strip(),
        federation=fields[3].strip(),
        games=_int_field(fields[5], number, columns[5], "Nv", maximum=None),
        birth_year=_int_field(fields[6], number, columns[6], "Geboren") or None,
        sex="w" if sex == "v" else sex,  # vrouw
    )


def write_knsb(records: tuple[RatingRecord, ...] | list[RatingRecord]) -> bytes:
    """A KNSB list holding ``records`` (cp1252, CRLF), for tests and exports."""
    rows = [KNSB_HEADER]
    for r in records:
        values = (
            r.relatienummer,
            r.name,
            r.title,
            r.federation,
            r.rating,
            r.games,
            r.birth_year,
            r.sex,
        )
        rows.append(";".join("" if v is None else str(v) for v in values))
    return ("\r\n".join(rows) + "\r\n").encode("cp1252")


# --- FIDE TXT ------------------------------------------------------------------------------

_RATING_COLUMNS = {
    "standard": ("SRTNG", "SGM"),
    "rapid": ("RRTNG", "RGM"),
    "blitz": ("BRTNG", "BGM"),
}
_NO_RATING_COLUMN = {
    "standard": gettext_noop("no standard rating column in the header"),
    "rapid": gettext_noop("no rapid rating column in the header"),
    "blitz": gettext_noop("no blitz rating column in the header"),
}


@dataclass(frozen=True, slots=True)
class _Column:
    name: str
    start: int  # 0-based
    end: int | None


def _header_columns(header: str) -> list[_Column]:
    tokens = [(m.group(), m.start()) for m in re.finditer(r"\S+", header)]
    merged: list[tuple[str, int]] = []
    for token, start in tokens:
        if merged and merged[-1][0].upper() == "ID" and token.upper() == "NUMBER":
            merged[-1] = ("ID NUMBER", merged[-1][1])
        else:
            merged.append((token.upper(), start))
    return [
        _Column(name, start, merged[i + 1][1] if i + 1 < len(merged) else None)
        for i, (name, start) in enumerate(merged)
    ]


def _fide_txt_header(
    header: str, rating_kind: str
) -> tuple[dict[str, _Column], _Column, _Column | None, str | None]:
    """The columns the header line of a FIDE TXT list names, its rating and games columns for
    ``rating_kind``, and the month a single list names its rating column after (or None)."""
    columns = {c.name: c for c in _header_columns(header)}
    if "ID NUMBER" not in columns or "NAME" not in columns or "FED" not in columns:
        raise FormatError(
            gettext_noop(
                "not a FIDE rating list: the header must name the columns 'ID Number', 'Name' "
                "and 'Fed' (found %(found)s)"
            ),
            {"found": repr(header[:60])},
            line=1,
            column=1,
        )
    rating_name, games_name = _RATING_COLUMNS[rating_kind]
    month = None
    if rating_name not in columns:
        # A single list (standard, rapid or blitz) names its rating column after the month.
        month = next((c for c in columns if _MONTH_YEAR.fullmatch(c)), None)
        if month is None:
            raise FormatError(_NO_RATING_COLUMN[rating_kind], line=1, column=1)
        rating_name, games_name = month, "GMS" if "GMS" in columns else "GAMES"
    return columns, columns[rating_name], columns.get(games_name), month


def parse_fide_txt(
    data: bytes,
    *,
    list_date: date | None = None,
    keep: RatingFilter | None = None,
    rating_kind: str = "standard",
) -> RatingList:
    """Read FIDE's fixed-width TXT list; column offsets come from the header line.

    In the combined list (``SRtng SGm SK RRtng RGm Rk BRtng BGm BK``) ``rating_kind`` picks
    standard, rapid or blitz; a single list has one rating column named after its month
    (``SEP26``), which also gives the list date when ``list_date`` is not given.
    """
    if rating_kind not in _RATING_COLUMNS:
        raise ValueError(f"rating_kind must be one of {sorted(_RATING_COLUMNS)}")
    text = decode_text(data, save_as=gettext_noop("text (cp1252 or UTF-8)"))
    lines = iter(text.splitlines())
    columns, rating_column, games_column, month = _fide_txt_header(next(lines, ""), rating_kind)
    if list_date is None and month is not None:
        list_date = list_date_from_filename(month)
    birth_column = columns.get("B-DAY") or columns.get("BDAY") or columns.get("BORN")
    minimum = columns["FED"].start + 3
    records: list[RatingRecord] = []
    seen: dict[int, int] = {}
    for number, line in enumerate(lines, start=2):
        if not line.strip():
            continue
        if len(line) < minimum:
            raise FormatError(
                gettext_noop(
                    "line too short (%(length)s characters; the Fed column ends at %(minimum)s)"
                ),
                {"length": len(line), "minimum": minimum},
                line=number,
                column=len(line) + 1,
            )

        def cut(column: _Column | None, line: str = line) -> str:
            return "" if column is None else line[column.start : column.end].strip()

        id_column = columns["ID NUMBER"]
        fide_id = _int_field(cut(id_column), number, id_column.start + 1, "ID Number", maximum=BIG)
        if fide_id is None:
            raise FormatError(gettext_noop("ID Number is empty"), line=number, column=1)
        refuse_repeat(seen, fide_id, _FIDE_ID_TWICE, "id", line=number, column=1)
        birth = _int_field(
            cut(birth_column), number, (birth_column.start + 1) if birth_column else 0, "B-day"
        )
        sex = cut(columns.get("SEX")).lower()
        record = RatingRecord(
            name=cut(columns["NAME"]),
            rating=_int_field(
                cut(rating_column), number, rating_column.start + 1, rating_column.name
            ),
            fide_id=fide_id,
            title=cut(columns.get("TIT")),
            federation=cut(columns["FED"]),
            games=_int_field(
                cut(games_column),
                number,
                (games_column.start + 1) if games_column else 0,
                games_column.name if games_column else "",
                maximum=None,
            ),
            birth_year=birth or None,
            sex={"m": "m", "f": "w", "w": "w"}.get(sex, ""),
            flag=cut(columns.get("FLAG")),
        )
        if keep is None or keep.keeps(record):
            records.append(record)
    return RatingList("fide-txt", list_date, tuple(records))


# --- FIDE XML ------------------------------------------------------------------------------

_XML_RATING = {
    "standard": (("rating", "standard_rating"), ("games", "standard_games")),
    "rapid": (("rapid_rating",), ("rapid_games",)),
    "blitz": (("blitz_rating",), ("blitz_games",)),
}


def parse_fide_xml(
    data: bytes,
    *,
    list_date: date | None = None,
    keep: RatingFilter | None = None,
    rating_kind: str = "standard",
) -> RatingList:
    """Read FIDE's XML list, one ``<player>`` at a time (memory stays flat).

    Errors name the player by position: ``player[17].rating: must be a number``.
    """
    if rating_kind not in _XML_RATING:
        raise ValueError(f"rating_kind must be one of {sorted(_XML_RATING)}")
    rating_tags, games_tags = _XML_RATING[rating_kind]
    records: list[RatingRecord] = []
    seen: dict[int, int] = {}
    for index, fields in enumerate(_xml_players(data), start=1):
        path = f"player[{index}]"

        def number(
            tags: tuple[str, ...],
            maximum: int | None = SMALL,
            fields: dict[str, str] = fields,
            path: str = path,
        ) -> int | None:
            for tag in tags:
                text = fields.get(tag, "").strip()
                if text:
                    if not (text.isascii() and text.isdigit()):
                        raise FormatError(
                            gettext_noop("must be a number, found %(found)s"),
                            {"found": repr(text)},
                            path=f"{path}.{tag}",
                        )
                    if maximum is not None and int(text) > maximum:
                        raise FormatError(
                            gettext_noop("must be at most %(maximum)s, found %(found)s"),
                            {"maximum": maximum, "found": text},
                            path=f"{path}.{tag}",
                        )
                    return int(text)
            return None

        fide_id = number(("fideid",), BIG)
        if fide_id is None:
            raise FormatError(gettext_noop("missing"), path=f"{path}.fideid")
        if fide_id in seen:
            raise FormatError(
                gettext_noop("FIDE ID %(id)s appears twice (also %(other)s)"),
                {"id": fide_id, "other": f"player[{seen[fide_id]}]"},
                path=f"{path}.fideid",
            )
        seen[fide_id] = index
        birthday = fields.get("birthday", "").strip()[:4]
        birth_year = int(birthday) if birthday.isascii() and birthday.isdigit() else None
        sex = fields.get("sex", "").strip().lower()
        record = RatingRecord(
            name=fields.get("name", "").strip(),
            rating=number(rating_tags),
            fide_id=fide_id,
            title=fields.get("title", "").strip(),
            federation=fields.get("country", "").strip(),
            games=number(games_tags, None),
            birth_year=birth_year or None,
            sex={"m": "m", "f": "w", "w": "w"}.get(sex, ""),
            flag=fields.get("flag", "").strip(),
        )
        if keep is None or keep.keeps(record):
            records.append(record)
    return RatingList("fide-xml", list_date, tuple(records))


def _xml_players(data: bytes) -> Iterator[dict[str, str]]:
    """Each ``<player>``'s child elements as a dict, streaming.

    defusedxml's parser refuses a DOCTYPE, an entity declaration and an external reference
    wherever they stand in the file (FIDE's list has none; a DTD would let the file define what
    its elements contain, up to an entity expanding a billion times)."""
    parser = DefusedXMLParser(target=ElementTree.TreeBuilder(), forbid_dtd=True)
    events = defused.iterparse(io.BytesIO(data), events=("start", "end"), parser=parser)
    depth = 0
    try:
        for event, element in events:
            if event == "start":
                depth += 1
                if depth == 1 and element.tag != "playerslist":
                    raise FormatError(
                        gettext_noop(
                            "not a FIDE XML list: the root element is %(found)s, expected "
                            "<playerslist>"
                        ),
                        {"found": f"<{element.tag}>"},
                        line=1,
                    )
                continue
            depth -= 1
            if depth == 1:
                if element.tag != "player":
                    raise FormatError(
                        gettext_noop("unexpected element %(found)s in <playerslist>"),
                        {"found": f"<{element.tag}>"},
                    )
                yield {child.tag: child.text or "" for child in element}
                element.clear()
    except (DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden):
        raise FormatError(
            gettext_noop("XML with a DOCTYPE or entities is not accepted"),
            line=parser.parser.CurrentLineNumber,
        ) from None
    except ElementTree.ParseError as error:
        line, column = error.position
        raise FormatError(
            gettext_noop("not well-formed XML (%(detail)s)"),
            {"detail": error.msg},
            line=line,
            column=column + 1,
        ) from None
