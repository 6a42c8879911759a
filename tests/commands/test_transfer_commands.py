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

from competition.management.commands.seed_demo import DEMO_CLUB_SLUG
from competition.models import Member, Season
from competition.services.transfer import archive_import
from tests.services.test_transfer import KNSB_LIST, SMALL_TRF
from tests.services.test_transfer_bad_input import row_counts

pytestmark = pytest.mark.django_db

CLUB = DEMO_CLUB_SLUG  # the demo holds two clubs: an import names the one it goes to


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
    with pytest.raises(CommandError) as caught:
        run("standings", "nope")
    # The known seasons as CLUB/SLUG, the form that names a season of either demo club.
    assert str(caught.value).startswith(
        "No season 'nope'. Known seasons: sc-de-toren/interne-2026-2027, "
        "sc-de-toren/keizer-2026-2027, "
    )
    assert str(caught.value).endswith(", sv-het-paard/clubavond-2026-2027.")
    with pytest.raises(CommandError, match=r"^No season 'sv-het-paard/interne-2026-2027'\. "):
        run("standings", "sv-het-paard/interne-2026-2027")  # a season of the other club
    with pytest.raises(CommandError, match="cannot show the standings after round 11"):
        run("standings", "interne-2026-2027", "--after-round", "11")


def test_a_slug_two_clubs_share_is_named_with_its_club(demo_club) -> None:
    """Het Paard gets a copy of De Toren's rapid group under the same slug (season slugs are
    unique per club only): the plain slug is refused naming both, CLUB/SLUG picks one."""
    document = json.loads(run("export_season", "rapidgroep-a-2026"))
    document["club"] = {
        **document["club"],
        "name": "Schaakvereniging Het Paard",
        "slug": "sv-het-paard",
    }
    archive_import(data=json.dumps(document))
    both = (
        "Several clubs have a season 'rapidgroep-a-2026'; name one of: "
        "sc-de-toren/rapidgroep-a-2026, sv-het-paard/rapidgroep-a-2026."
    )
    for command in ("standings", "export_season", "export_trf", "verify_standings"):
        with pytest.raises(CommandError) as caught:
            run(command, "rapidgroep-a-2026")
        assert str(caught.value) == both, command
    ours = run("standings", "sc-de-toren/rapidgroep-a-2026", "--format", "json")
    theirs = run("standings", "sv-het-paard/rapidgroep-a-2026", "--format", "json")
    assert json.loads(ours)["standings"] and theirs == ours  # the same games, the same figures
    copy = json.loads(run("export_season", "sv-het-paard/rapidgroep-a-2026"))
    assert (copy["club"]["name"], copy["club"]["slug"]) == (
        "Schaakvereniging Het Paard",
        "sv-het-paard",
    )
    assert copy["club"]["rating"] == document["club"]["rating"]  # Het Paard's rules: the import's
    assert run("verify_standings", "sv-het-paard/rapidgroep-a-2026").endswith(
        "rapidgroep-a-2026: the stored standings after rounds 1-6 equal a fresh computation "
        "(8 participants).\n"
    )


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
        "--club",
        CLUB,
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
    vdb = ("import_trf", str(path), "--club", CLUB, "--system", "van-den-brink")
    with pytest.raises(CommandError, match="unknown parameter nonsense"):
        run(*vdb, "--param", "nonsense=1")
    text = run(*vdb, "--param", "factor=0.05", "--dry-run")
    assert (
        "Dry run: nothing was changed." in text
        and not Season.objects.filter(slug="zomertoernooi").exists()
    )
    run(*vdb, "--param", "factor=0.05")
    season = Season.objects.get(slug="zomertoernooi")
    assert (season.club.slug, season.parameters) == (CLUB, {"factor": "0.05"})


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
    with pytest.raises(CommandError) as caught:
        run("import_ratings", str(path), "--list-date", "2026-10-01")
    assert str(caught.value) == (
        "There are several clubs; choose one with --club: sc-de-toren, sv-het-paard."
    )
    dry = run("import_ratings", str(path), "--club", CLUB, "--dry-run", "--list-date", "2026-10-01")
    assert dry.startswith("Would create 1, updated 2, unchanged 0 (list of 2026-10-01")
    assert Member.objects.get(knsb_id="8100000").rating == 2105
    ids = tmp_path / "ids.txt"
    ids.write_text("8100000\n8100137\n")
    out = run(
        "import_ratings", str(path), "--club", CLUB, "--ids", str(ids), "--list-date", "2026-10-01"
    )
    assert out.startswith("Created 0, updated 2, unchanged 0")
    out = run(
        "import_ratings",
        str(path),
        "--club",
        CLUB,
        "--only-club-members",
        "--list-date",
        "2026-10-01",
    )
    assert out.startswith("Created 0, updated 0, unchanged 2")
    with pytest.raises(CommandError, match="--list-date needs YYYY-MM-DD"):
        run("import_ratings", str(path), "--club", CLUB, "--list-date", "1-10-2026")
