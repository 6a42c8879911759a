"""``export_season --all`` and ``import_season --all``: every season of every club as its
archive in one directory, and back into an empty database with the same standings after every
round and the same bytes on a second export."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from competition.models import Club, Game, GroupCompetition, Round, Season
from competition.scoring.exact import exact_json
from competition.services.rounds import result_record
from competition.services.transfer import (
    archive_import,
    season_archive_text,
    standings_document,
)
from competition.services.transfer import backup as backup_module
from tests.factories import ClubFactory, SeasonFactory
from tests.services.test_transfer import _add_history

ARCHIVES = [
    "sc-de-toren--interne-2026-2027.json",
    "sc-de-toren--keizer-2026-2027.json",
    "sc-de-toren--rapidgroep-a-2026.json",
    "sc-de-toren--rapidserie-2026-2027.json",
    "sc-de-toren--vandenbrink-2026-2027.json",
    # the demo's competition in groups: groups A and B of periods 1 and 2
    "sc-de-toren--wintergroepen-2027-a1.json",
    "sc-de-toren--wintergroepen-2027-a2.json",
    "sc-de-toren--wintergroepen-2027-b1.json",
    "sc-de-toren--wintergroepen-2027-b2.json",
    # the second club of the demo (issue 16)
    "sv-het-paard--clubavond-2026-2027.json",
]

# Tests that flush the database commit their rows: PostgreSQL cannot TRUNCATE tables inside the
# test's own transaction while foreign-key checks are pending.
flushes = pytest.mark.django_db(transaction=True)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def every_standings() -> dict[str, list[str]]:
    """Every season's standings JSON after round 0, 1, ... up to its last completed round, by
    ``club/season`` (two clubs may have a season of the same slug)."""
    documents: dict[str, list[str]] = {}
    for season in Season.objects.select_related("club").order_by("club__slug", "slug"):
        completed = standings_document(season=season)["after_round"]
        documents[f"{season.club.slug}/{season.slug}"] = [
            exact_json(standings_document(season=season, after_round=n))
            for n in range(completed + 1)
        ]
    return documents


def archive_bytes(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*--*.json"))}


def manifest(directory: Path) -> dict[str, object]:
    return json.loads((directory / "manifest.json").read_text(encoding="utf-8"))


@flushes
def test_backup_restores_every_season_into_an_empty_database(
    tmp_path: Path, demo_club_committed
) -> None:
    # Corrections and rule-set history in one season, a correction in another.
    td = _add_history(Season.objects.get(slug="interne-2026-2027"))
    game = Game.objects.filter(round__season__slug="rapidgroep-a-2026").order_by("id").first()
    result_record(
        game_id=game.id,
        result="1/2" if game.result != "1/2" else "1-0",
        expected_version=game.version,
        user=td,
        reason="Remise afgesproken",
    )
    before = every_standings()
    rounds = sum(len(rounds) for rounds in before.values())
    # every season's standings before round 1 and after each completed round: De Toren's nine
    # seasons, then Het Paard's Keizer season of eight rounds
    assert len(before) == 10 and rounds == 10 + 10 + 15 + 6 + 15 + 10 + 4 * 3 + 8

    out = run("export_season", "--all", "--out-dir", str(tmp_path / "first"))
    assert out.splitlines()[-1].startswith("Exported 10 seasons of 2 clubs to ")
    first = archive_bytes(tmp_path / "first")
    assert list(first) == ARCHIVES
    listed = manifest(tmp_path / "first")
    assert listed["archive_format"] == "clubcomp-season" and listed["archive_version"] == 8
    assert [f["file"] for f in listed["files"]] == ARCHIVES
    assert not list((tmp_path / "first").glob(".*"))  # no temporary file left behind

    call_command("flush", interactive=False, verbosity=0)
    assert not Season.objects.exists() and not Club.objects.exists()
    out = run("import_season", "--all", str(tmp_path / "first"))
    assert "Imported 10 seasons of 2 clubs from" in out
    assert "sc-de-toren--interne-2026-2027.json: Imported season interne-2026-2027" in out
    assert (
        "sv-het-paard--clubavond-2026-2027.json: Imported season clubavond-2026-2027 of club "
        "sv-het-paard: 13 participants (13 new members, 0 existing)"
    ) in out
    assert dict(Club.objects.values_list("slug", "name")) == {
        "sc-de-toren": "Schaakclub De Toren",
        "sv-het-paard": "Schaakvereniging Het Paard",
    }

    assert every_standings() == before
    run("export_season", "--all", "--out-dir", str(tmp_path / "second"))
    assert archive_bytes(tmp_path / "second") == first
    again = manifest(tmp_path / "second")
    assert again["files"] == listed["files"] and again["counts"] == listed["counts"]


def copy_to_the_second_club(slug: str) -> None:
    """De Toren's season ``slug`` imported again as a season of Het Paard, under the same slug
    (a group season brings its group competition, of the same slug as De Toren's)."""
    season = Season.objects.get(club__slug="sc-de-toren", slug=slug)
    document = json.loads(season_archive_text(season=season))
    document["club"] = {
        **document["club"],
        "name": "Schaakvereniging Het Paard",
        "slug": "sv-het-paard",
    }
    archive_import(data=json.dumps(document))


SHARED = ("interne-2026-2027", "wintergroepen-2027-a1")


@flushes
def test_backup_of_two_clubs_with_seasons_of_the_same_slug(
    tmp_path: Path, demo_club_committed
) -> None:
    """Season slugs are unique per club only (issue 16): two clubs' seasons of one slug are
    two archives and come back as two seasons, each with its own club and standings."""
    for slug in SHARED:
        copy_to_the_second_club(slug)
    before = every_standings()
    assert {f"{club}/{slug}" for club in ("sc-de-toren", "sv-het-paard") for slug in SHARED} < set(
        before
    )
    assert before["sv-het-paard/interne-2026-2027"] == before["sc-de-toren/interne-2026-2027"]

    out = run("export_season", "--all", "--out-dir", str(tmp_path / "first"))
    assert out.splitlines()[-1].startswith("Exported 12 seasons of 2 clubs to ")
    first = archive_bytes(tmp_path / "first")
    assert list(first) == sorted([*ARCHIVES, *(f"sv-het-paard--{slug}.json" for slug in SHARED)])
    listed = manifest(tmp_path / "first")
    assert [
        (f["file"], f["club"], f["season"], f["participants"])
        for f in listed["files"]
        if f["season"] == "interne-2026-2027"
    ] == [
        ("sc-de-toren--interne-2026-2027.json", "sc-de-toren", "interne-2026-2027", 17),
        ("sv-het-paard--interne-2026-2027.json", "sv-het-paard", "interne-2026-2027", 17),
    ]
    assert listed["counts"]["clubs"] == 2 and listed["counts"]["seasons"] == 12

    call_command("flush", interactive=False, verbosity=0)
    out = run("import_season", "--all", str(tmp_path / "first"))
    assert "Imported 12 seasons of 2 clubs from" in out
    assert (
        "sv-het-paard--interne-2026-2027.json: Imported season interne-2026-2027 of club "
        "sv-het-paard: 17 participants (17 new members, 0 existing)"
    ) in out
    assert sorted(GroupCompetition.objects.values_list("club__slug", "slug")) == [
        ("sc-de-toren", "wintergroepen-2027"),
        ("sv-het-paard", "wintergroepen-2027"),
    ]
    assert every_standings() == before
    run("export_season", "--all", "--out-dir", str(tmp_path / "second"))
    assert archive_bytes(tmp_path / "second") == first
    assert manifest(tmp_path / "second")["files"] == listed["files"]


@pytest.mark.django_db(
    transaction=True
)  # flush: PostgreSQL cannot TRUNCATE in a test's transaction
def test_export_all_refuses_to_overwrite_without_force(tmp_path: Path, demo_club_committed) -> None:
    run("export_season", "--all", "--out-dir", str(tmp_path))
    (tmp_path / "old--season.json").write_text("{}", encoding="utf-8")
    with pytest.raises(CommandError, match=r"already holds 12 JSON file.*pass --force"):
        run("export_season", "--all", "--out-dir", str(tmp_path))
    out = run("export_season", "--all", "--out-dir", str(tmp_path), "--force")
    assert "Warning: old--season.json was left as it was; it is not in the manifest." in out
    # The stale file stays out of a restore: the manifest says which files make the backup.
    call_command("flush", interactive=False, verbosity=0)
    out = run("import_season", "--all", str(tmp_path), "--dry-run")
    assert "Warning: old--season.json is not in the manifest and was left out." in out
    assert out.splitlines()[-1] == "Dry run: nothing was changed."
    assert not Season.objects.exists()


@pytest.mark.django_db
def test_export_all_crash_leaves_no_half_file(
    tmp_path: Path, demo_club, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[str] = []
    real_replace = backup_module.os.replace

    def replace_then_crash(source: Path, target: Path) -> None:
        if written:
            raise OSError(28, "No space left on device")
        written.append(Path(target).name)
        real_replace(source, target)

    monkeypatch.setattr(backup_module.os, "replace", replace_then_crash)
    with pytest.raises(OSError, match="No space left"):
        run("export_season", "--all", "--out-dir", str(tmp_path))
    # The first archive is whole, the second was never renamed into place and its temporary
    # file is gone; without a manifest the directory says the export did not finish.
    assert sorted(p.name for p in tmp_path.iterdir()) == written == ARCHIVES[:1]
    json.loads((tmp_path / ARCHIVES[0]).read_text(encoding="utf-8"))


@pytest.mark.django_db(
    transaction=True
)  # flush: PostgreSQL cannot TRUNCATE in a test's transaction
def test_import_all_is_all_or_nothing(tmp_path: Path, demo_club_committed) -> None:
    run("export_season", "--all", "--out-dir", str(tmp_path))
    call_command("flush", interactive=False, verbosity=0)
    last = tmp_path / ARCHIVES[-1]
    last.write_text(last.read_text(encoding="utf-8").replace('"status": "completed"', '"x": 1'))
    with pytest.raises(CommandError, match=f"{ARCHIVES[-1]}: the file differs .* manifest"):
        run("import_season", "--all", str(tmp_path))
    assert not Season.objects.exists()
    # Without the manifest the broken file is read, refused with its JSON path, and the two
    # seasons imported before it are rolled back with it.
    (tmp_path / "manifest.json").unlink()
    with pytest.raises(CommandError, match=rf"{ARCHIVES[-1]}: rounds\[0\]: unknown field 'x'"):
        run("import_season", "--all", str(tmp_path))
    assert not Season.objects.exists() and not Round.objects.exists()
    last.unlink()
    out = run("import_season", "--all", str(tmp_path))
    assert out.startswith("Warning: ") and "has no manifest.json" in out
    assert sorted(Season.objects.values_list("club__slug", "slug")) == [
        tuple(name.removesuffix(".json").split("--")) for name in ARCHIVES[:-1]
    ]


@pytest.mark.django_db(
    transaction=True
)  # flush: PostgreSQL cannot TRUNCATE in a test's transaction
def test_import_all_refuses_a_taken_slug_and_changes_nothing(
    tmp_path: Path, demo_club_committed
) -> None:
    run("export_season", "--all", "--out-dir", str(tmp_path))
    call_command("flush", interactive=False, verbosity=0)
    club = ClubFactory(slug="sc-de-toren", name="Schaakclub De Toren")
    SeasonFactory(club=club, slug="vandenbrink-2026-2027")
    # Its archive is refused; those imported before it are rolled back with it.
    with pytest.raises(
        CommandError,
        match=r"^sc-de-toren--vandenbrink-2026-2027\.json: A season with the short name "
        r"'vandenbrink-2026-2027' already exists",
    ):
        run("import_season", "--all", str(tmp_path))
    assert list(Season.objects.values_list("club__slug", "slug")) == [
        ("sc-de-toren", "vandenbrink-2026-2027")
    ]
    assert not Round.objects.exists() and Club.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export_season"], "Give one season's slug"),
        (["export_season", "interne-2026-2027", "--force"], "Give one season's slug"),
        (["export_season", "--all"], "give --out-dir DIR"),
        (["import_season"], "Give one archive FILE.json, or --all DIR"),
        (["import_season", "x.json", "--all", "dir"], "Give one archive FILE.json, or --all"),
        (["import_season", "--all", "no-such-dir"], "no-such-dir is not a directory"),
    ],
)
def test_backup_argument_errors(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run(*args)


@pytest.mark.django_db
def test_import_all_of_an_empty_directory(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="holds no season archive; nothing was imported"):
        run("import_season", "--all", str(tmp_path))
    # An export of an empty database is a backup of nothing, and restores as nothing.
    out = run("export_season", "--all", "--out-dir", str(tmp_path / "empty"))
    assert out.splitlines()[-1].startswith("Exported 0 seasons of 0 clubs")
    assert "Imported 0 seasons of 0 clubs" in run("import_season", "--all", str(tmp_path / "empty"))
