"""The standings' legend (``competition.presentation.legend``): a line per column shown, and
the order of equal scores, in Dutch and English."""

from __future__ import annotations

import pytest
from django.utils import translation

from competition.presentation.legend import order_sentence, separation_labels, standings_legend
from competition.presentation.ties import EARLIER_STANDINGS


@pytest.mark.parametrize(
    ("criteria", "strict", "english"),
    [
        (
            ["IP", "BH/C1"],
            False,
            "Equal scores are ordered by Internal points (IP), then Buchholz Cut 1 (BH/C1); "
            "participants equal on all of them share their place.",
        ),
        ([], False, "Participants with equal scores share their place."),
        (
            ["SB/C1"],
            True,
            "Equal scores are ordered by Sonneborn-Berger Cut 1 (SB/C1), then by the standings "
            "after the round before.",
        ),
        ([], True, "Equal scores are ordered by the standings after the round before."),
    ],
)
def test_order_sentence(criteria: list[str], strict: bool, english: str) -> None:
    with translation.override("en"):
        assert order_sentence(criteria, strict=strict) == english


def test_order_sentence_in_dutch() -> None:
    with translation.override("nl"):
        assert order_sentence(["IP"], strict=False) == (
            "Bij gelijke score beslist Interne punten (IP); wie op alles gelijk staat, deelt de "
            "plaats."
        )


def test_a_line_for_every_column_shown_and_none_for_others() -> None:
    """A Van den Brink season with BH and SB, a prize minimum: the rank value has its line."""
    columns = [
        ("rank", "#"),
        ("name", "Name"),
        ("score", "Points"),
        ("figure_0", "Rank value"),
        ("game_points", "Pts"),
        ("tiebreak_0", "BH"),
        ("tiebreak_1", "SB"),
        ("separated_by", "Decided by"),
        ("games", "Games"),
        ("eligible", "Prize"),
        ("movement", "Move"),
    ]
    with translation.override("en"):
        lines = standings_legend(
            columns, primary="VDB", figure_codes=["RV"], tiebreak_codes=["BH", "SB"]
        )
    assert [heading for heading, _text in lines] == [
        heading for name, heading in columns if name != "name"
    ]
    text = dict(lines)
    assert text["Rank value"].startswith("the rank value your next game's compensation")
    assert text["Points"] == "start points plus the result part and compensation of every game"
    assert text["BH"] == "tie-break 1: Buchholz"
    assert text["SB"] == "tie-break 2: Sonneborn-Berger"
    with translation.override("en"):
        assert standings_legend(
            [("rank", "#"), ("games", "Games")], primary="PTS", figure_codes=[], tiebreak_codes=[]
        ) == [
            ("#", "place in the standings"),
            ("Games", "games played over the board (forfeits, byes and absences are not games)"),
        ]


def test_separation_labels() -> None:
    with translation.override("en"):
        labels = separation_labels(["IP", "BH"])
    assert labels["IP"] == ("IP", "Same score as the participant above; Internal points decided.")
    assert labels[EARLIER_STANDINGS][0] == "earlier"
    with translation.override("nl"):
        assert separation_labels([])[EARLIER_STANDINGS][0] == "eerder"
