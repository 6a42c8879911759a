"""The import/export commands: output, exit status 1 with the file's line for bad input, and
an unchanged database."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from competition.models import Member, Season
from tests.services.test_transfer import KNSB_LIST, SMALL_TRF
from tests.services.test_transfer_bad_input import row_counts

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_standings_json_contract(demo_club) -> None:
    text = run("standings", "vandenbrink-2026-2027", "--format", "json")
    document = json.loads(text, parse_float=Decimal)
    assert list(document) == [
        "season",
        "system",
        "unplayed",
        "after_round",
        "tiebreaks",
        "standings",
        "fingerprint",
        "rules_version",
    ]
    assert (document["season"], document["system"], document["after_round"]) == (
        "vandenbrink-2026-2027",
        "van-den-brink",
        10,
    )
    first = document["standings"][0]
    assert list(first) == [
        "rank",
        "start_number",
        "name",
        "points",
        "score",
        "values",
        "games",
        "eligible",
    ]
    assert "RV" in first["values"] and first["score"] == first["values"]["VDB"]
    # Van den Brink figures are multiples of 0.01 (factor 0.07 times whole rank values ± 3):
    # never a float artefact such as 211.92999999.
    for row in document["standings"]:
        for value in (row["score"], *row["values"].values()):
            assert Decimal(value) == Decimal(value).quantize(Decimal("0.01"))
    after_three = json.loads(
        run("standings", "vandenbrink-2026-2027", "--after-round", "3", "--format", "json")
    )
    assert after_three["after_round"] == 3


def test_standings_unknown_season_and_round(demo_club) -> None:
    with pytest.raises(CommandError, match="No season with slug 'nope'"):
        run("standings", "nope")
    with pytest.raises(CommandError, match="cannot show the standings after round 11"):
        run("standings", "interne-2026-2027", "--after-round", "11")


def test_trf_commands_round_trip(tmp_path: Path, demo_club) -> None:
    out = tmp_path / "rapid.trf"
    run("export_trf", "rapidgroep-a-2026", "--out", str(out))
    text = run(
        "import_trf",
        str(out),
        "--season-slug",
        "rapid-kopie",
        "--system",
        "points",
        "--unplayed",
        "plain",
        "--round-robin",
    )
    assert "8 participants (0 new members, 8 existing), 6 rounds, 24 games" in text
    original = run("standings", "rapidgroep-a-2026", "--format", "csv")
    copy = run("standings", "rapid-kopie", "--format", "csv")

    # The same standings; the fingerprint (the last two columns) differs, since TRF does not
    # carry everything the standings are computed from (see docs/commands.md, export_trf).
    def standings_only(text: str) -> list[str]:
        return [line.rsplit(",", 2)[0] for line in text.splitlines()]

    assert standings_only(original) == standings_only(copy)


def test_import_trf_bad_file_exit_status_and_unchanged(tmp_path: Path, demo_club) -> None:
    before = row_counts()
    path = tmp_path / "bad.trf"
    path.write_text(SMALL_TRF.replace("  3 b =", "  3 b Q"))
    with pytest.raises(CommandError) as caught:
        run("import_trf", str(path), "--club", "sc-de-toren")
    assert caught.value.returncode == 1
    assert str(caught.value) == (
        f"{path}: line 3, column 109: round 2: unknown result code 'Q' "
        "(expected one of 1 = 0 + - W D L H F U Z or blank)"
    )
    assert row_counts() == before


def test_import_trf_parameters_and_dry_run(tmp_path: Path, demo_club) -> None:
    path = tmp_path / "small.trf"
    path.write_text(SMALL_TRF)
    with pytest.raises(CommandError, match="unknown parameter nonsense"):
        run("import_trf", str(path), "--system", "van-den-brink", "--param", "nonsense=1")
    text = run(
        "import_trf", str(path), "--system", "van-den-brink", "--param", "factor=0.05", "--dry-run"
    )
    assert (
        "Dry run: nothing was changed." in text
        and not Season.objects.filter(slug="zomertoernooi").exists()
    )
    run("import_trf", str(path), "--system", "van-den-brink", "--param", "factor=0.05")
    assert Season.objects.get(slug="zomertoernooi").parameters == {"factor": "1/20"}


def test_season_commands(tmp_path: Path, demo_club) -> None:
    text = run("export_season", "vandenbrink-2026-2027")
    path = tmp_path / "vdb.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError, match="'vandenbrink-2026-2027' already exists"):
        run("import_season", str(path))
    path.write_text(text.replace('"slug": "vandenbrink-2026-2027"', '"slug": "vdb-kopie"'))
    out = run("import_season", str(path))
    assert "Imported season vdb-kopie" in out and "13 participants" in out
    assert (
        run("standings", "vdb-kopie").splitlines()[1:]
        == run("standings", "vandenbrink-2026-2027").splitlines()[1:]
    )


def test_import_ratings_command(tmp_path: Path, demo_club) -> None:
    path = tmp_path / "knsb.csv"
    path.write_bytes(KNSB_LIST)
    dry = run("import_ratings", str(path), "--dry-run", "--list-date", "2026-10-01")
    assert dry.startswith("Would create 1, updated 2, unchanged 0 (list of 2026-10-01")
    assert Member.objects.get(knsb_id="8100000").rating == 2105
    ids = tmp_path / "ids.txt"
    ids.write_text("8100000\n8100137\n")
    out = run("import_ratings", str(path), "--ids", str(ids), "--list-date", "2026-10-01")
    assert out.startswith("Created 0, updated 2, unchanged 0")
    out = run("import_ratings", str(path), "--only-club-members", "--list-date", "2026-10-01")
    assert out.startswith("Created 0, updated 0, unchanged 2")
    with pytest.raises(CommandError, match="--list-date needs YYYY-MM-DD"):
        run("import_ratings", str(path), "--list-date", "1-10-2026")
