"""CSV/formula injection: a member's name that a spreadsheet would read as a formula reaches every
standings export (the public page's CSV and XLSX, the TD's CSV, ``manage.py standings --format
csv``) as text with a leading apostrophe (OWASP, "CSV Injection"), and XLSX cells are text,
never formulas; numbers, negative ones too, stay numbers."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from competition.models import Round, Season
from competition.services.standings import standings_recompute
from competition.services.transfer import standings_dataset, standings_export
from competition.services.transfer.exports import spreadsheet_text
from tests.addresses import club_reverse
from tests.factories import GameFactory, ParticipantFactory, RoundFactory, SeasonFactory

# One name for each start a spreadsheet takes for a formula.
DANGEROUS = {
    "=": '=HYPERLINK("http://evil.example","Anna")',
    "+": "+31 Bram",
    "-": "-2+3+cmd|' /C calc'!A0",
    "@": "@SUM(1+1)*cmd|' /C calc'!A0",
    "tab": "\t=1+1",
    "carriage return": "\r=1+1",
}
SAFE = "Cor Cools"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@A1", "'@A1"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Anna = Bram", "Anna = Bram"),
        ("van der Berg-Smit", "van der Berg-Smit"),
        ("", ""),
    ],
)
def test_spreadsheet_text(text: str, expected: str) -> None:
    assert spreadsheet_text(text) == expected


def _season_with_dangerous_names() -> Season:
    """A completed round between the dangerous names (and one plain one) of a points season."""
    season = SeasonFactory(system="points", tiebreaks=["SB"], unplayed_policy="plain")
    participants = [
        ParticipantFactory(season=season, member__name=name, start_rank=n)
        for n, name in enumerate([*DANGEROUS.values(), SAFE, "Dirk"], start=1)
    ]
    r1 = RoundFactory(season=season, number=1, status=Round.Status.COMPLETED)
    for board, (white, black) in enumerate(
        zip(participants[::2], participants[1::2], strict=True), start=1
    ):
        GameFactory(round=r1, board=board, white=white, black=black, result="1-0")
    standings_recompute(season=season)
    return season


def _names_from_csv(text: str, delimiter: str = ",") -> set[str]:
    rows = list(
        csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), delimiter=delimiter)
    )
    name_column = 2  # rank, start number, name, ...
    return {row[name_column] for row in rows[1:]}


def _assert_neutralised(names: set[str]) -> None:
    # A carriage return arrives as a line feed (XLSX stores it so; a CSV row must not end there).
    expected = {f"'{name}".replace("\r", "\n") for name in DANGEROUS.values()}
    assert names == expected | {SAFE, "Dirk"}


@pytest.mark.django_db
def test_public_csv_neutralises_every_formula_start(client) -> None:
    season = _season_with_dangerous_names()
    response = client.get(
        club_reverse("competition:standings", args=[season.slug]) + "?_export=csv"
    )
    assert response.status_code == 200
    _assert_neutralised(_names_from_csv(response.content.decode(), ";"))  # Dutch Excel's CSV


@pytest.mark.django_db
def test_public_xlsx_holds_text_never_formulas(client) -> None:
    season = _season_with_dangerous_names()
    response = client.get(
        club_reverse("competition:standings", args=[season.slug]) + "?_export=xlsx"
    )
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    names = {row[2] for row in sheet.iter_rows(min_row=2)}
    assert {cell.data_type for cell in names} == {"s"}  # strings; a formula would be "f"
    _assert_neutralised({cell.value for cell in names})
    every_cell = [cell for row in sheet.iter_rows() for cell in row]
    assert all(cell.data_type != "f" for cell in every_cell)
    points = [row[3] for row in sheet.iter_rows(min_row=2)]
    assert {cell.data_type for cell in points} == {"n"}  # the numbers stay numbers


@pytest.mark.django_db
def test_tds_csv_download_neutralises_every_formula_start(client) -> None:
    season = _season_with_dangerous_names()
    client.force_login(User.objects.create_superuser("boss", "boss@example.org", "pw-12345678"))
    response = client.get(club_reverse("competition:season_standings_csv", args=[season.slug]))
    assert response.status_code == 200
    _assert_neutralised(_names_from_csv(response.content.decode(), ";"))


@pytest.mark.django_db
def test_standings_command_csv_neutralises_every_formula_start() -> None:
    season = _season_with_dangerous_names()
    out = io.StringIO()
    call_command("standings", season.slug, "--format", "csv", stdout=out)
    _assert_neutralised(_names_from_csv(out.getvalue()))


def _document(score: Decimal, name: str = "-Kees") -> dict:
    return {
        "season": "vdb",
        "system": "van-den-brink",
        "unplayed": "plain",
        "after_round": 1,
        "tiebreaks": [],
        "standings": [
            {
                "rank": 1,
                "start_number": 1,
                "name": name,
                "points": Decimal("0"),
                "score": score,
                "values": {"VDB": score},
                "games": 1,
                "eligible": True,
            }
        ],
    }


def test_a_negative_score_stays_a_number() -> None:
    """A Van den Brink score of -2.3 is a number in the dataset, the CSV and the XLSX."""
    document = _document(Decimal("-2.3"))
    dataset = standings_dataset(document)
    assert dataset[0][2] == "'-Kees"
    assert dataset[0][4] == Decimal("-2.3") and dataset[0][5] == Decimal("-2.3")
    line = standings_export(document, "csv").decode().splitlines()[1]
    assert line == "1,1,'-Kees,0,-2.3,-2.3,1,yes"
    sheet = openpyxl.load_workbook(io.BytesIO(standings_export(document, "xlsx"))).active
    score = sheet.cell(row=2, column=5)
    assert score.data_type == "n" and score.value == pytest.approx(-2.3)
    assert sheet.cell(row=2, column=3).data_type == "s"
