"""The season archive's categories and periods (version 6): they round-trip, an archive of
version 5 loads without them and may not carry them, bad ones are refused with their JSON
path."""

from __future__ import annotations

import dataclasses
import json

import pytest

from competition.formats.archive import (
    ArchiveCategory,
    ArchiveChosen,
    ArchivePeriod,
    dump_archive,
)
from competition.formats.archive_reader import load_archive
from competition.formats.errors import FormatError
from tests.formats.test_archive import ARCHIVE, as_version

WITH_CATEGORIES = dataclasses.replace(
    ARCHIVE,
    season=dataclasses.replace(
        ARCHIVE.season,
        periods=(ArchivePeriod(12), ArchivePeriod(24)),
        several_prizes=False,
    ),
    categories=(
        ArchiveCategory(1, "Groep A", "rating", rating_from=1700),
        ArchiveCategory(
            2, "Groep B", "rating", rating_below=1700, unrated=True, most_improved=True
        ),
        ArchiveCategory(
            3, "Bestuur", "list", prizes=1, chosen=(ArchiveChosen(10), ArchiveChosen(12))
        ),
    ),
)


def test_categories_and_periods_round_trip() -> None:
    text = dump_archive(WITH_CATEGORIES)
    document = json.loads(text)
    assert document["season"]["periods"] == [{"last_round": 12}, {"last_round": 24}]
    assert document["season"]["several_prizes"] is False
    assert document["categories"][1] == {
        "order": 2,
        "name": "Groep B",
        "kind": "rating",
        "rating_from": None,
        "rating_below": 1700,
        "unrated": True,
        "born_from": None,
        "born_to": None,
        "prizes": 3,
        "most_improved": True,
        "chosen": [],
    }
    assert document["categories"][2]["chosen"] == [{"participant": 10}, {"participant": 12}]
    assert load_archive(text) == WITH_CATEGORIES
    keys = list(document)
    assert keys.index("forbidden_pairs") < keys.index("categories") < keys.index("evenings")


def test_a_version_5_archive_loads_without_them_and_may_not_carry_them() -> None:
    document = as_version(json.loads(dump_archive(WITH_CATEGORIES)), 5)
    loaded = load_archive(json.dumps(document))
    assert (loaded.categories, loaded.season.periods, loaded.season.several_prizes) == (
        (),
        (),
        True,
    )
    document["categories"] = []
    with pytest.raises(FormatError) as caught:
        load_archive(json.dumps(document))
    assert str(caught.value) == ": unknown field 'categories'"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["categories"][2]["chosen"].append({"participant": 99}),
            "categories[2].chosen[2].participant: unknown participant 99",
        ),
        (
            lambda d: d["categories"][2]["chosen"].append({"participant": 12}),
            "categories[2].chosen[2].participant: participant 12 appears twice",
        ),
        (
            lambda d: d["categories"][1].update(order=1),
            "categories[1].order: category order 1 appears twice (also categories[0].order)",
        ),
        (
            lambda d: d["categories"][0].update(rating_below=1600),
            "categories[0].rating_below: rating_from (1700) must be below rating_below (1600)",
        ),
        (
            lambda d: d["categories"][0].update(kind="young"),
            "categories[0].kind:",
        ),
        (
            lambda d: d["season"]["periods"].append({"last_round": 12}),
            "season.periods[2].last_round: period end 12 appears twice",
        ),
    ],
)
def test_bad_categories_are_refused(change, message: str) -> None:
    document = json.loads(dump_archive(WITH_CATEGORIES))
    change(document)
    with pytest.raises(FormatError) as caught:
        load_archive(json.dumps(document))
    assert str(caught.value).startswith(message)
