"""Standings out: one document, one dataset, every format.

:func:`standings_document` is the JSON contract of ``manage.py standings --format json`` (numbers
as exact Decimals). :func:`standings_dataset` turns that document into the one
:class:`tablib.Dataset` every other export is written from, so that the columns and the numbers
are decided once: the tournament director's CSV and the command line's CSV (:func:`standings_csv`),
the public page's CSV and XLSX (:func:`standings_export`) and the command line's table
(:func:`standings_text_table`). The columns are documented in docs/commands.md.

Every text cell of that dataset is made safe for spreadsheets once, here: a member's name that
starts like a formula would otherwise run as one when a reader opens the CSV or XLSX
(:func:`spreadsheet_text`).

A spreadsheet's CSV follows its language (:data:`CSV_STYLES`): Dutch Excel reads ``;`` as the
separator and ``58,25`` as a number, English ``,`` and ``58.25``; both files start with a UTF-8
byte order mark, so that Excel reads the names' accents right. The minus is ASCII (``-2,3``).
Without a language the CSV is the program's form of docs/commands.md (``,`` and ``58.25``, no
mark). XLSX holds numbers as numbers, each column with a number format of its decimals
(:func:`competition.presentation.numbers.column_places`).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import openpyxl  # type: ignore[import-untyped]
import tablib
from openpyxl.utils import get_column_letter  # type: ignore[import-untyped]

from competition.models import Season, SeasonRules
from competition.presentation.numbers import column_places
from competition.scoring.engine import standings_after
from competition.scoring.exact import decimal_text, written_decimal
from competition.scoring.fingerprint import short_fingerprint
from competition.selectors.common import season_input, season_input_with_public_names
from competition.services.errors import ServiceError

__all__ = [
    "EXPORT_FORMATS",
    "standings_csv",
    "standings_dataset",
    "standings_document",
    "standings_export",
    "standings_text_table",
]

# A spreadsheet reads a text cell starting with one of these as a formula (OWASP, "CSV
# Injection"): "=1+1", "+1", "-1", "@SUM(...)", and a tab or carriage return before any of them.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# The formats the public standings page offers, with their content types.
EXPORT_FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
UTF8_BOM = "\ufeff"


@dataclass(frozen=True)
class CsvStyle:
    """How a CSV for a spreadsheet in one language writes its cells."""

    delimiter: str
    decimal_separator: str
    yes: str
    no: str


# The program's form (no language) and the spreadsheets' forms per language.
PROGRAM_CSV = CsvStyle(",", ".", "yes", "no")
CSV_STYLES = {"en": PROGRAM_CSV, "nl": CsvStyle(";", ",", "ja", "nee")}


def csv_style(language: str | None) -> CsvStyle:
    """The style of a CSV in ``language`` ("nl", "en"); None: the program's form."""
    if not language:
        return PROGRAM_CSV
    return CSV_STYLES.get(language.split("-")[0], CSV_STYLES["nl"])


# The terminal table's short headers for the fixed columns; a figure keeps its code.
TABLE_HEADERS = {
    "rank": "#",
    "start_number": "Nr",
    "name": "Name",
    "points": "Pts",
    "score": "Score",
    "games": "G",
    "eligible": "Elig",
}


def standings_document(
    *,
    season: Season,
    after_round: int | None = None,
    public_names: bool = False,
    fingerprint: bool = False,
    rules_version: int | None = None,
) -> dict[str, Any]:
    """The standings as the ``standings --format json`` contract (numbers as Decimals).

    ``after_round`` defaults to the last completed round; 0 gives the standings before round 1.
    Names are full (the TD's files and commands) unless ``public_names`` asks for the names
    as the public pages show them (the public page's CSV and XLSX). ``fingerprint`` adds the
    short form of the season's standings fingerprint and its rules version after the rows
    (``"fingerprint": "19b4-b311-9ffb", "rules_version": 2``), computed from the same engine
    input (no query more); every export passes it. ``rules_version`` gives the standings as an
    earlier rule set of the season scores them (default: the rules in force).
    """
    version = season.rules_version if rules_version is None else rules_version
    try:
        if public_names:
            engine_input, names = season_input_with_public_names(
                season=season, rules_version=version
            )
        else:
            engine_input = season_input(season=season, rules_version=version)
            names = {p.id: p.name for p in engine_input.participants}
    except SeasonRules.DoesNotExist:
        raise ServiceError(
            f"{season.slug} has no rule set version {version}; "
            f"its rules are version {season.rules_version}."
        ) from None
    completed = len(engine_input.rounds)
    if after_round is None:
        after_round = completed
    if not 0 <= after_round <= completed:
        raise ServiceError(
            f"{season.slug} has {completed} completed rounds; "
            f"cannot show the standings after round {after_round}."
        )
    standings = standings_after(engine_input, after_round)
    participants = {p.id: p for p in engine_input.participants}
    document: dict[str, Any] = {
        "season": season.slug,
        "system": engine_input.system,
        "unplayed": engine_input.unplayed_policy,
        "after_round": after_round,
        "tiebreaks": list(engine_input.tiebreaks),
        "standings": [
            {
                "rank": row.rank,
                "start_number": participants[row.participant_id].start_rank,
                "name": names[row.participant_id],
                "points": written_decimal(row.game_points),
                "score": written_decimal(row.score),
                "values": {code: written_decimal(v) for code, v in row.values.items()},
                "games": row.games_played,
                "eligible": row.eligible,
            }
            for row in standings.rows
        ],
    }
    if fingerprint:
        document["fingerprint"] = short_fingerprint(engine_input)
        document["rules_version"] = version
    return document


def spreadsheet_text(text: str) -> str:
    r"""``text`` as a spreadsheet shows it and never runs it: a leading apostrophe when it would
    start a formula (OWASP's advice for CSV injection). Numbers are never text here: a negative
    score stays a number.

    >>> spreadsheet_text("=HYPERLINK(\"http://x\")")
    '\'=HYPERLINK("http://x")'
    >>> spreadsheet_text("-Kees"), spreadsheet_text("Anna de Vries")
    ("'-Kees", 'Anna de Vries')
    """
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _value_codes(document: Mapping[str, Any]) -> list[str]:
    codes: list[str] = []
    for row in document["standings"]:
        for code in row["values"]:
            if code not in codes:
                codes.append(code)
    return codes


def standings_dataset(
    document: Mapping[str, Any],
    *,
    headers: Mapping[str, str] | None = None,
    fingerprint_columns: bool = True,
    eligible_words: tuple[str, str] = ("yes", "no"),
) -> tablib.Dataset:
    """The standings as one row per participant in rank order, for every export format.

    Columns: ``rank, start_number, name, points, score``, then every figure by code (the
    system's own and the season's tie-breaks, as in the JSON's ``values``), then ``games,
    eligible``, and for a document with a fingerprint ``fingerprint, rules_version`` (the same on
    every row: a reader that takes columns by name or by position keeps working, unlike with a
    line of its own; ``fingerprint_columns=False`` leaves them out). Numbers are the
    document's exact Decimals; a missing start number or figure is
    ``""``; ``eligible`` is ``yes`` or ``no`` (``eligible_words`` in a reader's language).
    ``headers`` renames columns for readers (the
    public page's language); the columns themselves never change. Text cells (the names) pass
    through :func:`spreadsheet_text`.
    """
    codes = _value_codes(document)
    keys = ["rank", "start_number", "name", "points", "score", *codes, "games", "eligible"]
    # a category's export adds the prizes won (competition.selectors.categories)
    awards = any("award" in row for row in document["standings"])
    if awards:
        keys.append("award")
    verifiable = fingerprint_columns and "fingerprint" in document
    if verifiable:
        keys += ["fingerprint", "rules_version"]
    names = headers or {}
    dataset = tablib.Dataset(
        headers=[names.get(key, key) for key in keys], title=str(document["season"])[:31]
    )
    for row in document["standings"]:
        cells = [
            row["rank"],
            "" if row["start_number"] is None else row["start_number"],
            row["name"],
            row["points"],
            row["score"],
            *(row["values"].get(code, "") for code in codes),
            row["games"],
            eligible_words[0] if row["eligible"] else eligible_words[1],
        ]
        if awards:
            cells.append(row.get("award", ""))
        if verifiable:
            cells += [document["fingerprint"], document["rules_version"]]
        dataset.append([spreadsheet_text(c) if isinstance(c, str) else c for c in cells])
    return dataset


def _cell_text(value: object, decimal_separator: str = ".") -> str:
    """A dataset cell as text: a Decimal in plain notation (``1E+1`` would be ``10``), with the
    CSV's decimal separator and an ASCII minus.

    A carriage return in a text becomes a line feed, as XLSX stores it: the CSV writer quotes a
    cell with a line feed (our line end), but would leave a lone carriage return bare, and a
    reader would then end the row there.
    """
    if isinstance(value, Decimal):
        return decimal_text(value).replace(".", decimal_separator)
    return str(value).replace("\r\n", "\n").replace("\r", "\n")


def _text_rows(dataset: tablib.Dataset, decimal_separator: str = ".") -> list[list[str]]:
    return [[_cell_text(value, decimal_separator) for value in row] for row in dataset]


def _csv_text(dataset: tablib.Dataset, style: CsvStyle = PROGRAM_CSV) -> str:
    text = tablib.Dataset(*_text_rows(dataset, style.decimal_separator), headers=dataset.headers)
    return str(text.export("csv", lineterminator="\n", delimiter=style.delimiter))


def _dataset(
    document: Mapping[str, Any], style: CsvStyle, headers: Mapping[str, str] | None = None
) -> tablib.Dataset:
    return standings_dataset(document, headers=headers, eligible_words=(style.yes, style.no))


def standings_csv(
    document: Mapping[str, Any],
    *,
    language: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> str:
    """The standings as CSV: the dataset's header row and rows, numbers exact; without a
    ``language`` the program's form (``,`` and a decimal point), else the spreadsheet's form in
    that language (Dutch: ``;``, ``58,25``, ``ja``/``nee``), starting with a byte order mark."""
    style = csv_style(language)
    text = _csv_text(_dataset(document, style, headers), style)
    return f"{UTF8_BOM}{text}" if language else text


def standings_export(
    document: Mapping[str, Any],
    export_format: str,
    *,
    headers: Mapping[str, str] | None = None,
    language: str = "en",
) -> bytes:
    """The standings as a file of ``export_format`` (a key of :data:`EXPORT_FORMATS`) for a
    reader in ``language``: CSV in that language's spreadsheet form (with the byte order
    mark), XLSX with numbers as numbers."""
    if export_format == "csv":
        return standings_csv(document, language=language, headers=headers).encode("utf-8")
    if export_format == "xlsx":
        return _xlsx(_dataset(document, csv_style(language), headers))
    raise ValueError(f"unknown standings export format {export_format!r}")


def _xlsx(dataset: tablib.Dataset) -> bytes:
    """``dataset`` as a workbook: numbers as numeric cells, each column with a number format of
    its decimals (``0``, ``0.0``, ``0.00``; the spreadsheet shows its own decimal separator),
    text as text (already neutralised, :func:`spreadsheet_text`)."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = dataset.title or "Sheet1"
    sheet.append(list(dataset.headers or []))
    for row in dataset:
        sheet.append(list(row))
    for index in range(len(dataset.headers or [])):
        column = [row[index] for row in dataset]
        numbers = [value for value in column if isinstance(value, Decimal)]
        if not numbers:
            continue
        places = column_places(numbers)
        number_format = "0." + "0" * places if places else "0"
        for cell in sheet[get_column_letter(index + 1)][1:]:
            if cell.data_type == "n":
                cell.number_format = number_format
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def standings_text_table(document: Mapping[str, Any]) -> str:
    """The standings as a plain-text table for a terminal (the dataset with short headers)."""
    dataset = standings_dataset(document, headers=TABLE_HEADERS, fingerprint_columns=False)
    header: Sequence[str] = dataset.headers or []
    rows = _text_rows(dataset)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [f"{document['season']} · {document['system']} · after round {document['after_round']}"]
    if "fingerprint" in document:
        lines[0] += (
            f" · fingerprint {document['fingerprint']} · rules version {document['rules_version']}"
        )
    for cells in [header, *rows]:
        lines.append(
            "  ".join(
                cell.ljust(widths[i]) if i == 2 else cell.rjust(widths[i])
                for i, cell in enumerate(cells)
            ).rstrip()
        )
    return "\n".join(lines) + "\n"
