"""Files the importers used to let through: each is refused with a message naming the field (its
JSON path, or its line and column) and what the app allows there, and nothing is written, through
the service, the command line and the upload preview."""

from __future__ import annotations

import hashlib
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition.formats.errors import FormatError
from competition.management.commands.seed_demo import DEMO_CLUB_SLUG
from competition.models import Season
from competition.permissions import td_group
from competition.presentation import labels
from competition.services.errors import ServiceError
from competition.services.transfer import archive_import, season_archive_text, trf_import
from tests.addresses import club_reverse
from tests.profiles import examples
from tests.services.test_transfer import trf_player
from tests.services.test_transfer_bad_input import _trf, row_counts

pytestmark = pytest.mark.django_db

GROUP_SEASON = "wintergroepen-2027-a1"  # group A of period 1 of the demo's competition in groups


def demo_archive(slug: str = "rapidgroep-a-2026") -> dict:
    """A demo season's archive under a free slug (its fingerprint stays valid: the slug is not
    part of it)."""
    document = json.loads(season_archive_text(season=Season.objects.get(slug=slug)))
    document["season"]["slug"] = "kopie"
    return document


def refused(document: dict | str | bytes) -> FormatError:
    """The archive's refusal by the service; nothing was written, also not by a dry run."""
    data = document if isinstance(document, str | bytes) else json.dumps(document)
    before = row_counts()
    for dry_run in (True, False):
        with pytest.raises(FormatError) as caught:
            archive_import(data=data, dry_run=dry_run)
    assert row_counts() == before
    return caught.value


def dutch(error: FormatError) -> str:
    return labels.format_error_text(error, "nl")


# --- season archive: a field longer than its column --------------------------------------------


def test_a_group_letter_longer_than_its_column(demo_club) -> None:
    document = demo_archive(GROUP_SEASON)
    document["season"]["group"]["letter"] = "A" * 500
    error = refused(document)
    assert str(error) == "season.group.letter: longer than 1 character"
    assert dutch(error) == "season.group.letter: langer dan 1 teken"


def test_a_group_period_beyond_the_periods(demo_club) -> None:
    document = demo_archive(GROUP_SEASON)
    document["season"]["group"]["period"] = 99
    error = refused(document)
    assert str(error) == (
        "season.group.period: period 99 of a group competition of 2 periods (group.periods)"
    )
    assert dutch(error) == (
        "season.group.period: periode 99 van een groepencompetitie van 2 perioden (group.periods)"
    )


def test_a_group_letter_the_app_does_not_give(demo_club) -> None:
    document = demo_archive(GROUP_SEASON)
    document["season"]["group"]["letter"] = "z"
    error = refused(document)
    assert str(error) == (
        "season.group.letter: 'z' is not a group letter (A to J, or \"\" for a season on its own)"
    )


def test_a_club_slug_the_site_keeps_for_itself(demo_club) -> None:
    document = demo_archive()
    document["club"]["slug"] = "admin"
    error = refused(document)
    assert labels.format_error_text(error, "en") == (
        "club.slug: 'admin' cannot be stored: “admin” is one of the site's own addresses; "
        "choose another web address."
    )


def test_a_season_slug_that_is_not_a_slug(demo_club) -> None:
    document = demo_archive()
    document["season"]["slug"] = "../kopie"
    error = refused(document)
    assert str(error).startswith("season.slug: '../kopie' cannot be stored: ")


def test_an_external_result_of_an_entry_that_is_not_a_club_duty(demo_club) -> None:
    document = demo_archive("interne-2026-2027")
    document["fingerprint"] = None
    entry = next(e for r in document["rounds"] for e in r["entries"] if e["kind"] != "club_duty")
    entry["external_result"] = "1"
    error = refused(document)
    assert error.path is not None and error.path.endswith(".external_result")
    assert "only a club duty has the result of an external game" in str(error)


# --- season archive: data that contradict each other ---------------------------------------


def test_a_completed_round_with_a_board_without_result(demo_club) -> None:
    document = demo_archive()
    document["fingerprint"] = None
    document["rounds"][0]["games"][1]["result"] = ""
    error = refused(document)
    assert str(error) == (
        "rounds[0].games[1].result: round 1 is completed, but board 2 has no result"
    )
    assert dutch(error) == (
        "rounds[0].games[1].result: ronde 1 is afgesloten, maar bord 2 heeft geen uitslag"
    )


def test_two_rounds_that_are_not_completed(demo_club) -> None:
    document = demo_archive()
    document["fingerprint"] = None
    document["rounds"][0]["status"] = "paired"
    document["rounds"][1]["status"] = "planned"
    error = refused(document)
    assert str(error) == (
        "rounds[1].status: round 2 is not completed, and neither is round 1: a season has one "
        "open round at a time"
    )


def test_periods_going_backwards(demo_club) -> None:
    document = demo_archive()
    document["season"]["periods"] = [{"last_round": 5}, {"last_round": 2}]
    error = refused(document)
    assert str(error) == (
        "season.periods[1].last_round: the periods must follow each other: round 2 comes "
        "before round 5 of the period before"
    )


def test_an_evening_outside_the_season(demo_club) -> None:
    document = demo_archive("interne-2026-2027")
    document["evenings"][0]["date"] = "0001-01-01"
    error = refused(document)
    assert str(error) == (
        "evenings[0].date: 0001-01-01 lies outside the season's calendar (2026-01-01 to 2027-12-31)"
    )
    document["evenings"][0]["date"] = "9999-12-31"
    assert str(refused(document)).startswith("evenings[0].date: 9999-12-31 lies outside")


# --- through the command line and the upload page --------------------------------------------


def _command(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_import_season_names_the_field(demo_club, tmp_path: Path) -> None:
    document = demo_archive(GROUP_SEASON)
    document["season"]["group"]["letter"] = "A" * 500
    archive = tmp_path / "groep.json"
    archive.write_text(json.dumps(document), encoding="utf-8")
    before = row_counts()
    for extra in ([], ["--dry-run"]):
        with pytest.raises(
            CommandError, match=rf"^{archive}: season\.group\.letter: longer than 1 character$"
        ):
            _command("import_season", str(archive), *extra)
    assert row_counts() == before


@pytest.fixture
def td(client: Client, demo_club) -> Client:
    user = User.objects.create_user("td22", password="td-pass-12345")
    user.groups.add(td_group(Season.objects.get(slug="interne-2026-2027").club))
    client.force_login(user)
    return client


def test_the_upload_preview_names_the_field(td: Client) -> None:
    document = demo_archive(GROUP_SEASON)
    document["season"]["group"]["letter"] = "A" * 500
    before = row_counts()
    page = td.post(
        club_reverse("competition:files_import_season"),
        {"file": SimpleUploadedFile("groep.json", json.dumps(document).encode())},
    )
    assert page.status_code == 400
    assert "groep.json: season.group.letter: langer dan 1 teken" in page.content.decode()
    assert row_counts() == before


# --- the backup directory ----------------------------------------------------------------------


def _backup(directory: Path, document: dict, **changes: object) -> dict:
    """A backup directory holding ``document`` as its one archive, and its manifest (with the
    counts the import gives), changed by ``changes``."""
    data = json.dumps(document).encode()
    name = "sc-de-toren--kopie.json"
    (directory / name).write_bytes(data)
    counts = {"participants": 8, "rounds": 6, "games": 24, "entries": 0, "corrections": 24}
    entry = {
        "file": name,
        "club": "sc-de-toren",
        "season": "kopie",
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        **counts,
    }
    manifest = {
        "format": "clubcomp-backup",
        "version": 1,
        "created_at": "2026-10-01T01:15:00.123456+00:00",
        "archive_format": "clubcomp-season",
        "archive_version": 6,
        "counts": {"clubs": 1, "seasons": 1, **counts},
        "files": [entry],
    }
    for key, value in changes.items():
        target, _, field = key.rpartition("__")
        (entry if target == "file" else manifest["counts"])[field] = value
    (directory / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return manifest


def test_a_backup_as_it_should_be_imports(demo_club, tmp_path: Path) -> None:
    document = demo_archive()
    _backup(tmp_path, document)
    out = _command("import_season", "--all", str(tmp_path), "--dry-run")
    assert "Would import 1 season of 1 club" in out


@pytest.mark.parametrize(
    "name", ["../outside.json", "/etc/outside.json", "sub/kopie.json", "..", "kopie.txt"]
)
def test_a_manifest_naming_a_file_outside_the_directory(
    demo_club, tmp_path: Path, name: str
) -> None:
    directory = tmp_path / "backup"
    directory.mkdir()
    (tmp_path / "outside.json").write_text(json.dumps(demo_archive()), encoding="utf-8")
    _backup(directory, demo_archive(), file__file=name)
    before = row_counts()
    with pytest.raises(
        CommandError,
        match=rf"manifest\.json: files\[0\]\.file: {json.dumps(name)} is not the name of a "
        r"\.json file in the backup directory; nothing was imported",
    ):
        _command("import_season", "--all", str(directory))
    assert row_counts() == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"total__games": 25}, r"the manifest's counts say 25 games in all, the files 24"),
        ({"total__seasons": 2}, r"the manifest's counts say 2 seasons in all, the files 1"),
        ({"total__clubs": 3}, r"the manifest's counts say 3 clubs in all, the files 1"),
        ({"file__club": "het-paard"}, r"files\[0\]\.club: the manifest says 'het-paard'"),
    ],
)
def test_a_manifest_whose_totals_disagree(
    demo_club, tmp_path: Path, change: dict, message: str
) -> None:
    _backup(tmp_path, demo_archive(), **change)
    before = row_counts()
    with pytest.raises(CommandError, match=message):
        _command("import_season", "--all", str(tmp_path))
    assert row_counts() == before


# --- TRF: the points column against the rounds -------------------------------------------------

CLUB = DEMO_CLUB_SLUG


def test_a_points_column_no_round_explains_is_refused(demo_club) -> None:
    data = _trf(
        trf_player(1, "Anna", [(2, "w", "1")], "99.0"),
        trf_player(2, "Bert", [(1, "b", "0")], "0.0"),
    )
    before = row_counts()
    with pytest.raises(FormatError) as caught:
        trf_import(data=data, season_slug="punten", club_slug=CLUB, dry_run=True)
    assert str(caught.value) == (
        "line 2, column 81: start rank 1 (Anna): the points column (81-84) says 99.0, but the "
        "rounds give 1 point, and at most 1 with every unplayed round scored in full"
    )
    assert row_counts() == before


def test_a_points_column_below_what_the_games_give_is_refused(demo_club) -> None:
    data = _trf(
        trf_player(1, "Anna", [(2, "w", "1"), (0, "-", "U")], "0.0"),
        trf_player(2, "Bert", [(1, "b", "0"), (0, "-", "Z")], "0.0"),
    )
    with pytest.raises(FormatError) as caught:
        trf_import(data=data, season_slug="punten", club_slug=CLUB, dry_run=True)
    assert str(caught.value) == (
        "line 2, column 81: start rank 1 (Anna): the points column (81-84) says 0.0, but the "
        "rounds give 2 points, and at least 1 with every unplayed round scored as nothing"
    )


def test_a_points_column_unplayed_rounds_explain_is_a_warning(demo_club) -> None:
    # The program gave the bye half a point (tag 162 gives it 1): a warning, no refusal.
    data = _trf(
        trf_player(1, "Anna", [(2, "w", "1"), (0, "-", "U")], "1.5"),
        trf_player(2, "Bert", [(1, "b", "0"), (0, "-", "Z")], "0.0"),
    )
    report = trf_import(data=data, season_slug="punten", club_slug=CLUB, dry_run=True)
    assert [str(w) for w in report.warnings] == [
        "start rank 1 (Anna): the points column (81-84) says 1.5, but the rounds give 2 points"
    ]


def test_the_points_column_message_in_dutch(demo_club) -> None:
    data = _trf(
        trf_player(1, "Anna", [(2, "w", "1")], "99.0"),
        trf_player(2, "Bert", [(1, "b", "0")], "0.0"),
    )
    with pytest.raises(FormatError) as caught:
        trf_import(data=data, season_slug="punten", club_slug=CLUB, dry_run=True)
    assert dutch(caught.value) == (
        "regel 2, kolom 81: startnummer 1 (Anna): de puntenkolom (81-84) zegt 99.0, maar de "
        "ronden geven 1 punt, en hoogstens 1 als elke niet gespeelde ronde volledig telt"
    )


def test_every_trf_file_of_the_corpus_still_imports(demo_club) -> None:
    data = Path(__file__).parent.parent / "formats" / "data"
    valid = ["valid_small.trf", "bbp_dutch_2025_c5.trf"]  # the others: a defect each
    for number, name in enumerate(valid):
        trf_import(data=(data / name).read_bytes(), season_slug=f"corpus-{number}", club_slug=CLUB)


def test_import_trf_refuses_the_points_column(demo_club, tmp_path: Path) -> None:
    trf = tmp_path / "punten.trf"
    trf.write_bytes(
        _trf(
            trf_player(1, "Anna", [(2, "w", "1")], "99.0"),
            trf_player(2, "Bert", [(1, "b", "0")], "0.0"),
        )
    )
    before = row_counts()
    with pytest.raises(CommandError, match=rf"^{trf}: line 2, column 81: start rank 1 \(Anna\)"):
        _command("import_trf", str(trf), "--club", CLUB)
    assert row_counts() == before


def test_a_trf_start_date_that_leaves_no_room_for_its_rounds(demo_club) -> None:
    data = (
        "012 Ver weg\n042 9999/12/31\n"
        + trf_player(1, "Anna", [(2, "w", "1"), (2, "b", "1")], "2.0")
        + "\n"
        + trf_player(2, "Bert", [(1, "b", "0"), (1, "w", "0")], "0.0")
        + "\n"
    ).encode()
    with pytest.raises((FormatError, ServiceError)) as caught:
        trf_import(data=data, season_slug="ver", club_slug=CLUB, dry_run=True)
    assert "9999/12/31" in str(caught.value)


def test_every_trf_file_of_the_corpus_still_reads_its_points() -> None:
    """No file of the corpus has a points column beyond what its rounds explain."""
    from competition.formats import trf as ft
    from competition.formats.trf_reader import parse_trf

    for path in sorted((Path(__file__).parent.parent / "formats" / "data").glob("*.trf")):
        try:
            tournament = parse_trf(path.read_text(encoding="utf-8"))
        except FormatError:
            continue  # a malformed file of the corpus: refused for its own defect
        ft.check_points_column(tournament)


# --- the TD's calendar -------------------------------------------------------------------------


def _calendar(client: Client, season: Season, dates: str):
    from django.contrib.messages import get_messages

    response = client.post(
        club_reverse("competition:td_calendar", args=[season.slug]),
        {"action": "import", "dates": dates},
    )
    return response, [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "0001-01-01",
            "Line 2: 0001-01-01 lies outside this season's calendar (1 January 2026 to "
            "31 December 2027); nothing was saved.",
        ),
        (
            "31-12-9999",
            "Line 2: 9999-12-31 lies outside this season's calendar (1 January 2026 to "
            "31 December 2027); nothing was saved.",
        ),
    ],
)
def test_calendar_dates_outside_the_season(client: Client, line: str, message: str) -> None:
    from competition.models import ClubEvening
    from tests.views.member_club import english, member_club

    club = member_club()
    english(client, club.td)
    response, said = _calendar(client, club.season, f"2027-01-14\n{line}\n2027-01-21")
    assert response.status_code == 200
    assert said == [message]
    assert not ClubEvening.objects.filter(season=club.season).exists()


def test_calendar_too_many_dates_in_one_post(client: Client) -> None:
    import datetime

    from competition.models import ClubEvening
    from tests.views.member_club import english, member_club

    club = member_club()
    english(client, club.td)
    start = datetime.date(2026, 1, 1)
    lines = "\n".join(str(start + datetime.timedelta(days=n)) for n in range(3000))
    response, said = _calendar(client, club.season, lines)
    assert response.status_code == 200
    assert said == [
        "Line 101: at most 100 dates at a time (a season of two evenings a week has about "
        "80); nothing was saved."
    ]
    assert not ClubEvening.objects.filter(season=club.season).exists()


def test_calendar_service_refuses_a_date_outside_the_season() -> None:
    import datetime

    from competition.models import ClubEvening
    from competition.services.absences import evenings_add
    from tests.views.member_club import member_club

    club = member_club()
    for day in (datetime.date(1, 1, 1), datetime.date(9999, 12, 31)):
        with pytest.raises(ServiceError, match=rf"^{day.isoformat()} lies outside"):
            evenings_add(season=club.season, dates=[datetime.date(2027, 1, 14), day])
    with pytest.raises(ServiceError, match=r"^At most 100 dates at a time"):
        evenings_add(
            season=club.season,
            dates=[datetime.date(2026, 1, 1) + datetime.timedelta(days=n) for n in range(101)],
        )
    assert not ClubEvening.objects.filter(season=club.season).exists()


def test_calendar_add_one_evening_outside_the_season(client: Client) -> None:
    from django.contrib.messages import get_messages

    from competition.models import ClubEvening
    from tests.views.member_club import english, member_club

    club = member_club()
    english(client, club.td)
    response = client.post(
        club_reverse("competition:td_calendar", args=[club.season.slug]),
        {"action": "add", "date": "0001-01-01"},
    )
    assert response.status_code == 200
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "0001-01-01 lies outside this season's calendar (1 January 2026 to 31 December 2027); "
        "nothing was saved."
    ]
    assert not ClubEvening.objects.filter(season=club.season).exists()


# --- rating lists ------------------------------------------------------------------------------

PLAYER_XML = (
    b"<player><fideid>1503014</fideid><name>Carlsen, Magnus</name><country>NOR</country>"
    b"<rating>2830</rating></player>"
)


def late_doctype_xml() -> bytes:
    head = b'<?xml version="1.0"?>\n<!--' + b"x" * 5000 + b"-->\n"
    doctype = b"<!DOCTYPE playerslist [ <!ELEMENT playerslist ANY> ]>\n"
    return head + doctype + b"<playerslist>" + PLAYER_XML + b"</playerslist>\n"


def test_a_doctype_after_the_first_4_kib_is_refused(demo_club) -> None:
    from competition.services.transfer import ratings_import

    before = row_counts()
    with pytest.raises(FormatError) as caught:
        ratings_import(data=late_doctype_xml(), club_slug=CLUB, format="fide-xml")
    assert str(caught.value) == "line 3: XML with a DOCTYPE or entities is not accepted"
    assert row_counts() == before


def test_import_ratings_refuses_a_late_doctype(demo_club, tmp_path: Path) -> None:
    xml = tmp_path / "players_list_xml_foa.xml"
    xml.write_bytes(late_doctype_xml())
    with pytest.raises(CommandError, match=rf"^{xml}: line 3: XML with a DOCTYPE"):
        _command("import_ratings", str(xml), "--club", CLUB)


# --- properties: any field beyond its column, any points column beyond its rounds ------------


def _columns_of(document: dict) -> list[tuple[str, type, str]]:
    """(archive path, model, model field) of every value of ``document`` that is stored in a
    column, as the import maps them (the one map, so the test follows the import)."""
    from competition.formats import archive as fa
    from competition.formats.archive_reader import load_archive
    from competition.services.transfer import archive_tables

    found = []
    archive = load_archive(json.dumps(document))
    for item, path in archive_tables.archive_objects(archive, ""):
        tables, _others = archive_tables.TABLES[type(item)]
        for table in tables:
            if table.applies is not None and not table.applies(item):
                continue
            for name, column_name in table.columns.items():
                key = fa.field_key(type(item), name)
                found.append((f"{path}.{key}" if path else key, table.model, column_name))
    return found


def _beyond(model: type, name: str) -> list[object]:
    """Values the column ``model.name`` does not take, worked out from the model field."""
    from django.db import models

    from competition.services.transfer.columns import column, integer_range

    field = column(model, name)
    history = getattr(model, "instance_type", None) is not None
    values: list[object] = []
    if isinstance(field, models.CharField | models.TextField):
        if field.max_length is not None:
            values.append("x" * (field.max_length + 1))
        if field.choices and not history:
            values.append("no-such-code")
    elif isinstance(field, models.IntegerField) and not isinstance(field, models.BooleanField):
        low, high = integer_range(field, rules=not history)
        values.extend([high + 1, low - 1] if low - 1 >= 0 or not history else [high + 1])
    elif isinstance(field, models.DecimalField):
        values.append("0." + "1" * (field.decimal_places + 1))
        values.append("1" + "0" * (field.max_digits - field.decimal_places))
    return values


def _set(document: dict, path: str, value: object) -> None:
    import re

    keys: list[str | int] = []
    for part in path.split("."):
        name, *indexes = re.split(r"\[(\d+)\]", part)
        keys.append(name)
        keys.extend(int(index) for index in indexes if index)
    node: object = document
    for key in keys[:-1]:
        node = node[key]  # type: ignore[index]
    node[keys[-1]] = value  # type: ignore[index]


@pytest.fixture
def interne_document(demo_club) -> dict:
    document = demo_archive("interne-2026-2027")
    document["fingerprint"] = None  # the data are changed on purpose
    return document


def test_every_column_of_the_archive_is_checked(interne_document: dict) -> None:
    """Every field beyond its column is refused naming its path, in both languages, and
    nothing is written (each column once; the property below draws from the same list)."""
    from django.utils import translation

    before = row_counts()
    cases = [
        (path, model, name, value)
        for path, model, name in _columns_of(interne_document)
        for value in _beyond(model, name)
    ]
    tried: set[tuple[type, str, str]] = set()
    for path, model, name, value in cases:
        if (model, name, type(value).__name__) in tried:
            continue
        tried.add((model, name, type(value).__name__))
        document = json.loads(json.dumps(interne_document))
        _set(document, path, value)
        with translation.override("en"), pytest.raises(FormatError) as caught:
            archive_import(data=json.dumps(document), dry_run=True)
        error = caught.value
        assert error.path == path, (path, str(error))
        english, dutch_text = labels.format_error_text(error, "en"), dutch(error)
        assert english.startswith(f"{path}: ") and dutch_text.startswith(f"{path}: ")
        assert dutch_text != english, english  # translated
    assert len(tried) > 60
    assert row_counts() == before


@settings(
    max_examples=examples(100),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_field_beyond_its_column_is_refused(interne_document: dict, data) -> None:
    cases = [
        (path, model, name, value)
        for path, model, name in _columns_of(interne_document)
        for value in _beyond(model, name)
    ]
    path, _model, _name, value = data.draw(st.sampled_from(cases))
    document = json.loads(json.dumps(interne_document))
    _set(document, path, value)
    error = refused(document)
    assert error.path == path
    assert dutch(error).startswith(f"{path}: ")
    assert dutch(error) != labels.format_error_text(error, "en")


@st.composite
def tournaments(
    draw: st.DrawFn,
) -> tuple[list[str], list[Fraction], list[tuple[int, Fraction, Fraction]]]:
    """A small TRF (its player lines), with a points column for each player drawn anywhere,
    and what the rounds give each (rank, least, most) as worked out here: games score 1, ½, 0;
    a bye (U) 1 and may have been scored 0 to 1; a zero-point bye (Z) 0 and may have been 0
    to 1."""
    players = draw(st.integers(2, 4))
    rounds = draw(st.integers(1, 3))
    blocks: dict[int, list[tuple[int, str, str]]] = {rank: [] for rank in range(1, players + 1)}
    given = {rank: Fraction(0) for rank in blocks}
    open_rounds = {rank: 0 for rank in blocks}
    byes = {rank: Fraction(0) for rank in blocks}
    for _ in range(rounds):
        order = draw(st.permutations(list(blocks)))
        for white, black in zip(order[::2], order[1::2], strict=False):
            result = draw(st.sampled_from(["1", "=", "0"]))
            other = {"1": "0", "=": "=", "0": "1"}[result]
            blocks[white].append((black, "w", result))
            blocks[black].append((white, "b", other))
            given[white] += {"1": 1, "=": Fraction(1, 2), "0": 0}[result]
            given[black] += {"1": 1, "=": Fraction(1, 2), "0": 0}[other]
        if len(order) % 2:
            code = draw(st.sampled_from(["U", "Z"]))
            blocks[order[-1]].append((0, "-", code))
            points = Fraction(1) if code == "U" else Fraction(0)
            given[order[-1]] += points
            byes[order[-1]] += points
            open_rounds[order[-1]] += 1
    columns = [Fraction(draw(st.integers(0, 2 * rounds + 4)), 2) for _ in blocks]
    lines = [
        trf_player(rank, f"Speler {rank}", blocks[rank], f"{float(columns[rank - 1]):.1f}")
        for rank in blocks
    ]
    expected = [
        (rank, given[rank] - byes[rank], given[rank] - byes[rank] + open_rounds[rank])
        for rank in blocks
    ]
    return lines, columns, expected


@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tournaments())
def test_the_points_column_is_refused_exactly_beyond_what_the_rounds_explain(
    demo_club, tournament
) -> None:
    lines, columns, expected = tournament
    data = _trf(*lines)
    outside = [
        (rank, column)
        for (rank, least, most), column in zip(expected, columns, strict=True)
        if not least <= column <= most
    ]
    before = row_counts()
    if outside:
        with pytest.raises(FormatError) as caught:
            trf_import(data=data, season_slug="eigenschap", club_slug=CLUB, dry_run=True)
        rank = outside[0][0]
        assert (caught.value.line, caught.value.column) == (rank + 1, 81)  # line 1: tag 012
        assert str(caught.value).startswith(f"line {rank + 1}, column 81: start rank {rank} ")
        assert dutch(caught.value).startswith(f"regel {rank + 1}, kolom 81: startnummer {rank} ")
    else:
        trf_import(data=data, season_slug="eigenschap", club_slug=CLUB, dry_run=True)
    assert row_counts() == before


def test_every_field_of_the_archive_schema_is_mapped() -> None:
    """Each field of each archive class is a column of a table, a username, or named as not a
    column (ids, references, lists of their own, the rules): a new field cannot be added
    without saying where it is stored, so none escapes the check."""
    import dataclasses

    from competition.formats import archive as fa
    from competition.services.transfer import archive_tables
    from competition.services.transfer.columns import column

    classes = {
        value
        for value in vars(fa).values()
        if isinstance(value, type)
        and dataclasses.is_dataclass(value)
        and value.__module__ == fa.__name__
        and value is not fa.Check
        and not value.__name__.startswith("_")
    }
    assert classes == set(archive_tables.TABLES)
    for cls, (tables, others) in archive_tables.TABLES.items():
        mapped = [name for table in tables for name in table.columns]
        usernames = archive_tables.USERNAMES & {f.name for f in dataclasses.fields(cls)}
        names = sorted([*mapped, *usernames, *others])
        assert names == sorted(f.name for f in dataclasses.fields(cls)), cls.__name__
        for table in tables:
            for column_name in table.columns.values():
                column(table.model, column_name)  # a concrete field of that table


def test_the_upload_previews_of_trf_and_ratings_name_the_line(td: Client) -> None:
    club = Season.objects.get(slug="interne-2026-2027").club
    before = row_counts()
    trf = _trf(
        trf_player(1, "Anna", [(2, "w", "1")], "99.0"),
        trf_player(2, "Bert", [(1, "b", "0")], "0.0"),
    )
    page = td.post(
        club_reverse("competition:files_import_trf"),
        {
            "file": SimpleUploadedFile("punten.trf", trf),
            "club": club.pk,
            "season_slug": "punten",
            "system": "points",
            "unplayed": "fide-2024",
            "min_games": 0,
        },
    )
    assert page.status_code == 400
    assert (
        "punten.trf: regel 2, kolom 81: startnummer 1 (Anna): de puntenkolom (81-84) zegt 99.0"
        in page.content.decode()
    )
    page = td.post(
        club_reverse("competition:files_import_ratings"),
        {"file": SimpleUploadedFile("players.xml", late_doctype_xml()), "club": club.pk},
    )
    assert page.status_code == 400
    assert "players.xml: regel 3: XML met een DOCTYPE" in page.content.decode()
    assert row_counts() == before
