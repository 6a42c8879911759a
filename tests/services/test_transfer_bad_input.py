"""Malformed files: each import ends with a message naming the line (and column) and leaves
every table of the database exactly as it was."""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.utils import translation

from competition.formats.errors import FormatError
from competition.management.commands.seed_demo import DEMO_CLUB_SLUG
from competition.models import Season
from competition.services.errors import ServiceError
from competition.services.transfer import (
    archive_import,
    ratings_import,
    season_archive_text,
    trf_import,
)
from tests.services.test_transfer import KNSB_LIST, trf_player

pytestmark = pytest.mark.django_db

HEAD = "012 Kapotte toernooien"


def _trf(*lines: str) -> bytes:
    return ("\n".join([HEAD, *lines]) + "\n").encode()


def row_counts() -> dict[str, int]:
    """Rows of every model (competition, its history tables, users, groups)."""
    models = [
        *apps.get_app_config("competition").get_models(),
        *apps.get_app_config("auth").get_models(),
    ]
    return {model._meta.label: model.objects.count() for model in models}


@pytest.fixture
def demo_counts(demo_club) -> dict[str, int]:
    return row_counts()


TRF_CASES = [
    (
        "utf16",
        "\ufeff012 Toernooi\n".encode("utf-16-le"),
        "line 1: the file is UTF-16",
    ),
    (
        "undefined-cp1252-byte",
        HEAD.encode() + b"\n" + trf_player(1, "Anna").encode().replace(b"Anna", b"An\x81a") + b"\n",
        "line 2, column 17: byte 0x81",
    ),
    ("short-line", _trf("001    1      Anna"), "line 2, column 19: player record too short"),
    (
        "misaligned-round",
        _trf(
            trf_player(1, "Anna", [(2, "w", "1")]).replace("  2 w 1", "   2 w 1"),
            trf_player(2, "Bert", [(1, "b", "0")]),
        ),
        "line 2, column 96: misaligned round 1",
    ),
    (
        "unknown-result-code",
        _trf(trf_player(1, "Anna", [(2, "w", "X")]), trf_player(2, "Bert", [(1, "b", "0")])),
        "line 2, column 99: round 1: unknown result code 'X'",
    ),
    (
        "nonexistent-opponent",
        _trf(trf_player(1, "Anna", [(7, "w", "1")]), trf_player(2, "Bert")),
        "line 2, column 92: round 1: opponent 7 does not exist",
    ),
    (
        "paired-twice",
        _trf(
            trf_player(1, "Anna", [(3, "w", "1")]),
            trf_player(2, "Bert", [(3, "w", "1")]),
            trf_player(3, "Cees", [(1, "b", "0")]),
        ),
        "line 3, column 92: round 1: player 3 is paired twice",
    ),
    (
        "one-sided-pairing",
        _trf(trf_player(1, "Anna", [(2, "w", "1")]), trf_player(2, "Bert", [(0, "-", "H")])),
        "line 2, column 92: round 1: player 1 is paired with player 2, but line 3 gives",
    ),
    (
        "contradicting-results",
        _trf(trf_player(1, "Anna", [(2, "w", "1")]), trf_player(2, "Bert", [(1, "b", "1")])),
        "line 2, column 99: round 1: result '1' of player 1 contradicts result '1' of player 2",
    ),
]


@pytest.mark.parametrize(("name", "data", "message"), TRF_CASES, ids=[c[0] for c in TRF_CASES])
def test_malformed_trf(demo_counts: dict[str, int], name: str, data: bytes, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        trf_import(data=data, season_slug="kapot", club_slug=DEMO_CLUB_SLUG)
    assert str(caught.value).startswith(message)
    assert row_counts() == demo_counts


def test_trf_duplicate_relatienummer(demo_counts: dict[str, int]) -> None:
    national = "NED    {rank}      {name:<33} 1800         8999999"
    data = _trf(
        trf_player(1, "Anna"),
        trf_player(2, "Bert"),
        national.format(rank=1, name="Anna"),
        national.format(rank=2, name="Bert"),
    )
    # The service speaks the active language, Dutch by default ("Start ranks 1 and 2 have the
    # same relatienummer 8999999." in English).
    with (
        translation.override("nl"),
        pytest.raises(
            ServiceError, match=r"^Startnummers 1 en 2 hebben hetzelfde relatienummer 8999999\.$"
        ),
    ):
        trf_import(data=data, season_slug="kapot", club_slug=DEMO_CLUB_SLUG)
    assert row_counts() == demo_counts


KNSB_HEADER = "Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n"
RATING_CASES = [
    (
        "duplicate-relatienummer",
        (KNSB_HEADER + "8100000;A;;NED;2000;1;1990;\r\n8100000;B;;NED;2001;1;1991;\r\n").encode(
            "cp1252"
        ),
        "line 3, column 1: relatienummer 8100000 appears twice (also line 2)",
    ),
    (
        "short-line",
        (KNSB_HEADER + "8100000;A;;NED\r\n").encode("cp1252"),
        "line 2, column 15: expected 8 fields",
    ),
    (
        "not-a-number",
        (KNSB_HEADER + "8100000;A;;NED;20x0;1;1990;\r\n").encode("cp1252"),
        "line 2, column 16: Rating must be a number",
    ),
    ("wrong-header", b"Relnr;Naam\r\n1;A\r\n", "line 1, column 1: not a KNSB rating list"),
    ("utf16", KNSB_LIST.decode("cp1252").encode("utf-16"), "line 1: the file is UTF-16"),
]


@pytest.mark.parametrize(
    ("name", "data", "message"), RATING_CASES, ids=[c[0] for c in RATING_CASES]
)
def test_malformed_rating_list(
    demo_counts: dict[str, int], name: str, data: bytes, message: str
) -> None:
    with pytest.raises(FormatError) as caught:
        ratings_import(data=data, format="knsb", club_slug=DEMO_CLUB_SLUG)
    assert str(caught.value).startswith(message)
    assert row_counts() == demo_counts


def _archive_cases() -> tuple[str, list[tuple[str, str, str]]]:
    text = season_archive_text(season=Season.objects.get(slug="rapidgroep-a-2026"))
    # Another slug, so that only the defect can stop the import.
    text = text.replace('"slug": "rapidgroep-a-2026"', '"slug": "kopie"')
    unknown = json.loads(text)
    unknown["rounds"][2]["games"][1]["white"] = 17
    twice = json.loads(text)
    twice["rounds"][0]["games"][1]["white"] = twice["rounds"][0]["games"][0]["white"]
    bad_points = json.loads(text)
    bad_points["rounds"][0]["entries"] = [
        {
            "id": 999,
            "participant": 1,
            "kind": "bye",
            "points": "0.25",
            "note": "",
            "version": 1,
            "updated_by": None,
            "updated_at": None,
            "fixed_by_td": False,
            "external_result": "",
        }
    ]
    bad_points["rounds"][0]["games"] = bad_points["rounds"][0]["games"][1:]
    return text, [
        ("not-json", text[:200], "line 7, column 13: not JSON"),
        (
            "unknown-participant",
            json.dumps(unknown),
            "rounds[2].games[1].white: unknown participant 17",
        ),
        ("paired-twice", json.dumps(twice), "rounds[0].games[1].white: participant"),
        ("entry-points", json.dumps(bad_points), "rounds[0].entries[0].points: points must have"),
    ]


def test_malformed_archives(demo_club) -> None:
    valid, cases = _archive_cases()
    before = row_counts()
    for name, text, message in cases:
        with pytest.raises(FormatError) as caught:
            archive_import(data=text)
        assert str(caught.value).startswith(message), name
        assert row_counts() == before, name
    # Without the defects the same archive imports.
    assert archive_import(data=valid).season_slug == "kopie"
