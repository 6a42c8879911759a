"""``manage.py club_ratings``: every member's rating after each evening, exact values as JSON
numbers (the hand-worked club of tests/rating_data.py)."""

from __future__ import annotations

import io
import json
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from competition.models import ClubRatingChange
from competition.services.ratings import club_ratings_replay
from tests.rating_data import four_player_club

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("club_ratings", *args, stdout=out)
    return out.getvalue()


def test_the_json_gives_each_evening_with_exact_numbers() -> None:
    club = four_player_club()["club"]
    club_ratings_replay(club=club)
    text = run(club.slug, "--format", "json")
    assert '"change": -14.4' in text and '"expected": 0.86' in text  # numbers, not strings
    document = json.loads(text, parse_float=Decimal)
    assert document["club"] == "rating-club" and document["as_of"] is None
    assert document["rules"]["k_new_player"] == 40
    by_name = {m["name"]: m for m in document["members"]}
    assert [m["name"] for m in document["members"]] == [
        "P1 Eerste",
        "P2 Tweede",
        "P4 Vierde",
        "P3 Derde",
    ]  # fmt: skip  (1798, 1610, 1528, 1514)
    p1 = by_name["P1 Eerste"]
    assert (p1["start_rating"], p1["rating"], p1["games"]) == (1800, 1798, 2)
    assert [(e["date"], e["rating_after"], e["change"]) for e in p1["evenings"]] == [
        ("2026-09-03", 1812, Decimal("12")),
        ("2026-09-10", 1798, Decimal("-14.4")),
    ]
    assert p1["evenings"][1]["games"] == [
        {
            "season": "intern",
            "round": 2,
            "opponent": "P3 Derde",
            "opponent_rating": 1500,
            "difference": 312,
            "expected": Decimal("0.86"),
            "score": Decimal("0.5"),
        }
    ]


def test_as_of_a_date_gives_the_evenings_up_to_it() -> None:
    club = four_player_club()["club"]
    club_ratings_replay(club=club)
    document = json.loads(run(club.slug, "--as-of", "2026-09-09"), parse_float=Decimal)
    assert document["as_of"] == "2026-09-09"
    assert {m["name"]: m["rating"] for m in document["members"]} == {
        "P1 Eerste": 1812, "P2 Tweede": 1638, "P3 Derde": 1500, "P4 Vierde": 1500,
    }  # fmt: skip
    assert "1812" in run(club.slug, "--as-of", "2026-09-09", "--format", "table")


def test_an_unknown_club_is_named() -> None:
    with pytest.raises(CommandError, match="No club 'nope'"):
        run("nope")


def test_replay_rebuilds_a_ledger_written_by_older_arithmetic() -> None:
    """A ledger stored before migration 0020 (here: P1's last row as an older rounding or K
    might have left it) is rebuilt by --replay; without it the stored rows are printed."""
    club = four_player_club()["club"]
    club_ratings_replay(club=club)
    stale = ClubRatingChange.objects.get(member__name="P1 Eerste", date="2026-09-10")
    stale.rating_after, stale.k = 1799, 20
    stale.save()
    as_stored = json.loads(run(club.slug), parse_float=Decimal)
    assert {m["name"]: m["rating"] for m in as_stored["members"]}["P1 Eerste"] == 1799
    replayed = json.loads(run(club.slug, "--replay"), parse_float=Decimal)
    p1 = {m["name"]: m for m in replayed["members"]}["P1 Eerste"]
    assert (p1["rating"], p1["evenings"][1]["k"]) == (1798, 40)
    assert ClubRatingChange.objects.filter(club=club).count() == 8
