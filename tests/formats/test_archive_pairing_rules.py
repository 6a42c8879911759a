"""The season archive's pairing rules (version 5): the season's settings and forbidden pairs
round-trip, an older archive loads with the defaults and may not carry them, bad pairs are
refused with their JSON path."""

from __future__ import annotations

import dataclasses
import json

import pytest

from competition.formats.archive import (
    ArchiveForbiddenPair,
    dump_archive,
)
from competition.formats.archive_reader import load_archive
from competition.formats.errors import FormatError
from tests.formats.test_archive import ARCHIVE, as_version

RULED = dataclasses.replace(
    ARCHIVE,
    season=dataclasses.replace(
        ARCHIVE.season, max_meetings=2, rematch_colours_reversed=True, one_pairing_bye=True
    ),
    forbidden_pairs=(
        ArchiveForbiddenPair(10, 12, "broers"),
        ArchiveForbiddenPair(11, 12),
    ),
)


def test_the_pairing_rules_round_trip() -> None:
    text = dump_archive(RULED)
    document = json.loads(text)
    assert document["version"] == 8
    assert document["forbidden_pairs"] == [
        {"first": 10, "second": 12, "note": "broers"},
        {"first": 11, "second": 12, "note": ""},
    ]
    season = document["season"]
    assert (season["max_meetings"], season["rematch_colours_reversed"]) == (2, True)
    assert season["one_pairing_bye"] is True
    assert load_archive(text) == RULED
    # Written before the calendar, after the rounds.
    keys = list(document)
    assert keys.index("rounds") < keys.index("forbidden_pairs") < keys.index("evenings")


def test_a_version_4_archive_loads_with_the_defaults() -> None:
    loaded = load_archive(json.dumps(as_version(json.loads(dump_archive(RULED)), 4)))
    assert loaded.forbidden_pairs == ()
    season = loaded.season
    assert (season.max_meetings, season.rematch_colours_reversed, season.one_pairing_bye) == (
        None,
        False,
        False,
    )


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("forbidden_pairs", ": unknown field 'forbidden_pairs'"),
        ("max_meetings", "season: unknown field 'max_meetings'"),
    ],
)
def test_a_version_4_archive_may_not_carry_the_pairing_rules(key: str, message: str) -> None:
    document = as_version(json.loads(dump_archive(RULED)), 4)
    if key == "forbidden_pairs":
        document[key] = []
    else:
        document["season"][key] = 2
    with pytest.raises(FormatError) as caught:
        load_archive(json.dumps(document))
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        (
            [{"first": 10, "second": 99, "note": ""}],
            "forbidden_pairs[0].second: unknown participant 99",
        ),
        (
            [{"first": 12, "second": 10, "note": ""}],
            "forbidden_pairs[0].second: second (10) must be greater than first (12)",
        ),
        (
            [{"first": 10, "second": 10, "note": ""}],
            "forbidden_pairs[0].second: second (10) must be greater than first (10)",
        ),
        (
            [{"first": 10, "second": 11, "note": ""}, {"first": 10, "second": 11, "note": "x"}],
            "forbidden_pairs[1]: the pair 10-11 appears twice (also forbidden_pairs[0])",
        ),
    ],
)
def test_bad_forbidden_pairs_are_refused(pairs: list[dict], message: str) -> None:
    document = json.loads(dump_archive(RULED))
    document["forbidden_pairs"] = pairs
    with pytest.raises(FormatError) as caught:
        load_archive(json.dumps(document))
    assert str(caught.value) == message


def test_max_meetings_must_be_at_least_one() -> None:
    document = json.loads(dump_archive(RULED))
    document["season"]["max_meetings"] = 0
    with pytest.raises(FormatError) as caught:
        load_archive(json.dumps(document))
    assert str(caught.value).startswith("season.max_meetings:")
