"""The participant page's reads give what the general ones give: the season's input with only
the columns it needs (``season_input_for_page``) and only his row of each standings snapshot
(``own_snapshot_rows``), on every demo season and for every participant.
"""

from __future__ import annotations

import json

import pytest

from competition.models import Season
from competition.selectors.common import season_input_with_public_names
from competition.selectors.participants import season_input_for_page
from competition.selectors.snapshots import (
    own_snapshot_rows,
    own_snapshot_rows_decoded,
    row_in_snapshot_text,
)
from tests.views.public_data import large_season


def test_season_input_for_page_equals_the_general_one(demo_club) -> None:
    seasons = list(Season.objects.order_by("pk"))
    assert {season.system for season in seasons} >= {"internal-sb", "keizer", "points"}
    for season in seasons:
        assert season_input_for_page(season=season) == season_input_with_public_names(
            season=season
        ), season


@pytest.mark.django_db
def test_season_input_for_page_on_a_large_season() -> None:
    season = large_season(players=41, rounds=12)
    fast, names = season_input_for_page(season=season)
    assert (fast, names) == season_input_with_public_names(season=season)
    assert len(fast.rounds) == 12 and len(names) == 41


def test_own_rows_equal_the_decoded_snapshots(demo_club) -> None:
    checked = 0
    for season in Season.objects.order_by("pk"):
        for participant_id in season.participants.values_list("pk", flat=True):
            own = own_snapshot_rows(season_id=season.pk, participant_id=participant_id)
            assert own == own_snapshot_rows_decoded(
                season_id=season.pk, participant_id=participant_id
            )
            assert [number for number, _row in own] == sorted(
                season.snapshots.values_list("round_number", flat=True)
            )
            checked += 1
    assert checked > 30


ROWS = [
    {"participant_id": 7, "rank": 2, "score": "3.5", "values": {"SB": "1/3"}, "eligible": True},
    {"participant_id": 76, "rank": 1, "score": "4", "values": {}, "eligible": False},
    {"participant_id": 700, "rank": 3, "score": "0", "values": {"BH": "2"}, "eligible": False},
]
# PostgreSQL's jsonb writes the keys by length: participant_id comes last, after "values".
JSONB = [dict(sorted(row.items(), key=lambda item: (len(item[0]), item[0]))) for row in ROWS]


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(ROWS),
        json.dumps(list(reversed(ROWS))),
        json.dumps(JSONB),
        json.dumps(ROWS, separators=(",", ":")),  # no "key": value text: decoded whole
        json.dumps(ROWS, indent=2),
        json.dumps([{"note": '"participant_id": 7, {', **ROWS[1]}, *ROWS]),
        json.dumps([*ROWS, {**ROWS[0], "rank": 9}]),  # twice: the first
    ],
)
@pytest.mark.parametrize("participant_id", [7, 76, 700, 70, 6])
def test_his_row_is_the_first_one_with_his_id(text: str, participant_id: int) -> None:
    expected = next(
        (row for row in json.loads(text) if row["participant_id"] == participant_id), None
    )
    assert row_in_snapshot_text(text=text, participant_id=participant_id) == expected
    assert (expected is None) == (participant_id in (70, 6))


def test_an_empty_snapshot_has_no_row() -> None:
    assert row_in_snapshot_text(text="[]", participant_id=7) is None
