"""The season archive carries the standings fingerprint (version 5) and ``import_season``
checks it: an archive edited by hand after the export is refused and nothing is imported; an
older archive, without a fingerprint, imports unchecked."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from competition.formats.archive_input import archive_fingerprint
from competition.formats.archive_reader import load_archive
from competition.models import Season
from competition.presentation import labels
from competition.scoring.fingerprint import season_fingerprint, short_form
from competition.selectors.common import season_input
from competition.services.transfer import archive_import, season_archive_text
from tests.formats.test_archive import as_version
from tests.services.test_archive_lossless import _counts, build_season

pytestmark = pytest.mark.django_db


def test_every_demo_season_gives_the_same_fingerprint_from_its_archive(demo_club) -> None:
    seasons = list(Season.objects.order_by("slug"))
    assert {s.system for s in seasons} >= {"internal-sb", "van-den-brink", "keizer"}
    for season in seasons:
        text = season_archive_text(season=season)
        fingerprint = season_fingerprint(season_input(season=season))
        assert json.loads(text)["fingerprint"] == fingerprint, season.slug
        assert archive_fingerprint(load_archive(text)) == fingerprint, season.slug


def test_the_imported_season_has_the_archives_fingerprint() -> None:
    season = build_season()
    document = json.loads(season_archive_text(season=season))
    document["season"]["slug"] = "kopie"  # the slug is no part of the fingerprint
    report = archive_import(data=json.dumps(document))
    copy = Season.objects.get(slug="kopie")
    assert season_fingerprint(season_input(season=copy)) == document["fingerprint"]
    assert report.warnings == []


def _edited(document: dict) -> dict:
    """The archive with one result changed by hand: a completed round's first game."""
    rnd = next(r for r in document["rounds"] if r["status"] == "completed" and r["games"])
    game = rnd["games"][0]
    game["result"] = "0-1" if game["result"] != "0-1" else "1-0"
    return document


def test_an_archive_edited_by_hand_is_refused_and_nothing_imported(tmp_path: Path) -> None:
    season = build_season()
    document = _edited(json.loads(season_archive_text(season=season)))
    document["season"]["slug"] = "kopie"
    path = tmp_path / "season.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    given = short_form(document["fingerprint"])
    found = short_form(archive_fingerprint(load_archive(path.read_text())))
    before = _counts()
    for dry_run in ((), ("--dry-run",)):
        with pytest.raises(CommandError) as caught:
            call_command("import_season", str(path), *dry_run, stdout=io.StringIO())
        assert str(caught.value) == (
            f"{path}: fingerprint: the archive's data do not match its fingerprint: it says "
            f"{given}, its data give {found}; the file was changed after it was exported, so "
            "nothing was imported"
        )
    assert _counts() == before
    assert not Season.objects.filter(slug="kopie").exists()


def test_what_the_fingerprint_does_not_cover_may_change() -> None:
    # A note, who entered a result, the season's name: not what the standings come from.
    season = build_season()
    document = json.loads(season_archive_text(season=season))
    document["season"]["slug"] = "kopie"
    document["season"]["name"] = "Kopie"
    for rnd in document["rounds"]:
        for entry in rnd["entries"]:
            entry["note"] = "anders"
    archive_import(data=json.dumps(document))
    assert Season.objects.filter(slug="kopie").exists()


def test_an_older_archive_without_a_fingerprint_imports_unchecked() -> None:
    season = build_season()
    document = as_version(_edited(json.loads(season_archive_text(season=season))), 4)
    assert "fingerprint" not in document
    document["season"]["slug"] = "oud"
    archive_import(data=json.dumps(document))
    old = Season.objects.get(slug="oud")
    assert season_fingerprint(season_input(season=old)) != season_fingerprint(
        season_input(season=season)
    )


def test_a_malformed_fingerprint_is_refused() -> None:
    document = json.loads(season_archive_text(season=build_season()))
    document["fingerprint"] = "19b4-b311-9ffb"
    with pytest.raises(Exception, match=r"^fingerprint: expected 64 hex digits \(SHA-256\)"):
        load_archive(json.dumps(document))


def test_members_matched_with_their_own_names_give_a_warning() -> None:
    season = build_season()
    document = json.loads(season_archive_text(season=season))
    document["season"]["slug"] = "kopie"
    # A member matched by his relatienummer keeps the name this database has for him.
    member = next(
        p.member for p in season.participants.select_related("member") if p.member.knsb_id
    )
    member.name = f"{member.name} (eigen spelling)"
    member.save()
    report = archive_import(data=json.dumps(document))
    copy = Season.objects.get(slug="kopie")
    imported = short_form(season_fingerprint(season_input(season=copy)))
    exported = short_form(document["fingerprint"])
    # A template with values, in the reader's language where it is shown.
    assert [labels.text_label(w, "en") for w in report.warnings] == [
        f"the imported season's standings fingerprint is {imported}, not the archive's "
        f"{exported}, because existing members keep their own names"
    ]
    assert [labels.text_label(w, "nl") for w in report.warnings] == [
        f"de vingerafdruk van de stand van het ingelezen seizoen is {imported}, niet die van "
        f"het archief ({exported}), omdat bestaande leden hun eigen namen houden"
    ]
