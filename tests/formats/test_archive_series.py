"""The rapid series in the season archive (version 6): rounds per evening, the evening points
by place and the best N evenings; an older archive loads without a series."""

from __future__ import annotations

import json

import pytest

from competition.formats.archive import dump_archive
from competition.formats.archive_reader import load_archive
from competition.formats.errors import FormatError
from tests.formats.test_archive import ARCHIVE, as_version


def test_the_series_round_trips() -> None:
    document = json.loads(dump_archive(ARCHIVE))
    document["season"]["rounds_per_evening"] = 5
    document["season"]["evening_points"] = [
        {"place": 2, "points": 8},
        {"place": 1, "points": 10},
    ]
    document["season"]["best_evenings"] = 2
    loaded = load_archive(json.dumps(document))
    assert loaded.season.rounds_per_evening == 5
    assert [(r.place, r.points) for r in loaded.season.evening_points] == [(2, 8), (1, 10)]
    assert loaded.season.best_evenings == 2
    # Written back sorted by place.
    again = json.loads(dump_archive(loaded))
    assert again["season"]["evening_points"] == [
        {"place": 1, "points": 10},
        {"place": 2, "points": 8},
    ]


def test_places_must_follow_each_other() -> None:
    document = json.loads(dump_archive(ARCHIVE))
    document["season"]["evening_points"] = [
        {"place": 1, "points": 10},
        {"place": 3, "points": 6},
    ]
    with pytest.raises(FormatError, match="places must be 1 to 2"):
        load_archive(json.dumps(document))


def test_a_version_5_archive_has_no_series() -> None:
    document = as_version(json.loads(dump_archive(ARCHIVE)), 5)
    season = load_archive(json.dumps(document)).season
    assert (season.rounds_per_evening, season.evening_points, season.best_evenings) == (
        0,
        (),
        None,
    )
