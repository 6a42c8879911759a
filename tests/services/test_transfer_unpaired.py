"""Rounds without a pairing in TRF (issue 10): a blank round, a record that stops early,
``0000 - -`` and ``0000 - Z`` are all the zero-point bye of TRF16, and a player who has
only such rounds after some round has withdrawn (C.07 16.1.1), so that for his opponents
those rounds count as draws (C.07 16.2.5)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from competition.formats.trf import RoundEntry, tournament_rounds
from competition.formats.trf_reader import parse_trf
from competition.models import Season
from competition.services.transfer import standings_document, trf_import
from tests.services.test_transfer import trf_player

# R1: 1-2 1-0, 3-4 ½-½; R2: 4-1 0-1, 2-3 ½-½; R3: 3-1 0-1, 2 pairing-allocated bye (U),
# 4 not paired (withdrawn), written three ways.
WAYS = {
    "record-stops": [],
    "0000 - -": [(0, "-", "-")],
    "0000 - Z": [(0, "-", "Z")],
}


def event(way: str) -> str:
    return (
        "\n".join(
            [
                "012 Teruggetrokken",
                trf_player(1, "Anna", [(2, "w", "1"), (4, "b", "1"), (3, "b", "1")], "3.0"),
                trf_player(2, "Bert", [(1, "b", "0"), (3, "w", "="), (0, "-", "U")], "1.5"),
                trf_player(3, "Cees", [(4, "w", "="), (2, "b", "="), (1, "w", "0")], "1.0"),
                trf_player(4, "Dirk", [(3, "b", "="), (1, "w", "0"), *WAYS[way]], "0.5"),
            ]
        )
        + "\n"
    )


@pytest.mark.parametrize("way", WAYS)
def test_unpaired_round_is_the_zero_point_bye(way: str) -> None:
    third = tournament_rounds(parse_trf(event(way)))[2]
    assert RoundEntry(4, "absent_notice", Fraction(0)) in third.entries


# Worked by hand (FIDE 2024). Scores for the opponents' tie-breaks (C.07 16.3): Anna 3,
# Bert 1½ (his bye is pairing-allocated: face value), Cees 1, Dirk ½ + ½ = 1 (his round 3
# after withdrawing is a zero-point bye in the last round, 16.2.5: a draw for his opponents).
# Own unplayed rounds meet a dummy with the participant's own score (16.4): Bert 1½, Dirk ½.
#   BH:  Anna 1½ + 1 + 1 = 3½;  Bert 3 + 1 + 1½ = 5½;  Cees 1 + 1½ + 3 = 5½;  Dirk 1 + 3 + ½ = 4½
#   SB:  Anna 1½ + 1 + 1 = 3½;  Bert ½×1 + 1×1½ = 2;  Cees ½×1 + ½×1½ = 1¼;  Dirk ½×1 = ½
# Read at face value (the old reading of a blank round), Dirk would count ½ for his opponents,
# giving Anna BH 3 and SB 3, Cees BH 5 and SB 1.
EXPECTED = {
    "Anna": (1, 3, {"BH": Fraction(7, 2), "SB": Fraction(7, 2)}),
    "Bert": (2, Fraction(3, 2), {"BH": Fraction(11, 2), "SB": Fraction(2)}),
    "Cees": (3, 1, {"BH": Fraction(11, 2), "SB": Fraction(5, 4)}),
    "Dirk": (4, Fraction(1, 2), {"BH": Fraction(9, 2), "SB": Fraction(1, 2)}),
}


@pytest.mark.django_db
def test_three_ways_give_the_same_standings() -> None:
    documents = []
    for number, way in enumerate(WAYS):
        report = trf_import(data=event(way), season_slug=f"way-{number}", tiebreaks=["BH", "SB"])
        assert report.warnings == []
        document = standings_document(season=Season.objects.get(slug=report.season_slug))
        rows = {
            row["name"]: (
                row["rank"],
                Fraction(str(row["points"])),
                {code: Fraction(str(row["values"][code])) for code in ("BH", "SB")},
            )
            for row in document["standings"]
        }
        assert rows == EXPECTED, way
        documents.append(document["standings"])
    assert documents[0] == documents[1] == documents[2]
