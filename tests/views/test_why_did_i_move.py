"""The participant page says, per round, why he moved (issue 15, "Why did I move?"), in Dutch
and in English, and which correction of a closed round moved him; figures worked by hand on
``tests/views/public_data.small_season`` (its docstring has the standings after each round).

Round 2, worked: after round 1 C and D share place 1 (SB ¼), A is 3rd (SB 0, IP 1); after
round 2 C is 1st (SB 1½), A and D share place 2 (SB ½, IP 1½).
- A: up 1 (3 → 2): D was above him and is level now, so A passed D; C stays above. SB 0 → ½:
  own result ½ (a draw with C, whose IP after round 2 is 1: ½ × 1), earlier rounds 0 (his
  round-1 win over B is worth 1 × IP(B) = 0 after both rounds).
- D: down 1 (1 → 2): nobody was above him, C is now: passed by C. SB ¼ → ½: own result 0 (a
  win over B, IP 0), earlier rounds +¼ (his round-1 draw with C: ½ × (IP(C) 1 − ½)).

Round 1 has no standings before it: his place and score after it. A: place 3, SB 0 (his win
over B is worth 1 × IP(B) 0); D: place 1, SB ¼ (a draw with C: ½ × IP(C) ½), own result +¼.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from competition.models import Game, Participant, Season
from competition.presentation.labels import figure_label
from competition.scoring.movement import Movement, PlaceChange, ScoreChange
from competition.selectors.snapshots import ranking_in_snapshot_text
from competition.services.rounds import result_record
from competition.views.participant_rows import CellTexts, movement_sentence
from tests.addresses import club_reverse
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


def _page(client, season: Season, participant: Participant, language: str) -> str:
    cache.clear()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(
        club_reverse("competition:participant", args=[season.slug, participant.pk])
    )
    assert response.status_code == 200
    return response.content.decode()


def _round_item(html: str, number: int) -> str:
    return html.split(f'<li data-round="{number}">')[1].split("</li>")[0]


def test_sentences_in_english(client) -> None:
    season, people = small_season()
    html = _page(client, season, people["A"], "en")
    assert "Why did I move?" in html
    # his SB in its style on his page (as the chart's table writes it): one decimal for A,
    # whose SB figures are 0 and 0.5; two for D (0.25)
    assert _round_item(html, 2) == (
        "Round 2: up 1 place (3 → 2); SB score +0.5 (0.0 → 0.5): own result +0.5; "
        "passed Dirk Dekker."
    )
    assert _round_item(_page(client, season, people["D"], "en"), 2) == (
        "Round 2: down 1 place (1 → 2); SB score +0.25 (0.25 → 0.50): own result 0.00, "
        "earlier rounds revalued +0.25; passed by Cor Cools."
    )


def test_round_one_gives_the_place_after_it(client) -> None:
    season, people = small_season()
    assert _round_item(_page(client, season, people["A"], "en"), 1) == (
        "Round 1: place 3 (SB score 0.0): own result 0.0."
    )
    assert _round_item(_page(client, season, people["D"], "en"), 1) == (
        "Round 1: place 1 (SB score 0.25): own result +0.25."
    )
    assert _round_item(_page(client, season, people["D"], "nl"), 1) == (
        "Ronde 1: plaats 1 (SB-score 0,25): eigen uitslag +0,25."
    )


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Round 1: place 2 (Points 200 → 203.07): own result +3.07."),
        ("nl", "Ronde 1: plaats 2 (Punten 200 → 203,07): eigen uitslag +3,07."),
    ],
)
def test_round_one_from_start_points(language: str, expected: str) -> None:
    """Van den Brink: the score before round 1 is his start points (200), so the sentence
    gives it: 200 + own result 3,07 = 203,07."""
    move = Movement(
        1,
        ScoreChange(1, F(200), F(20307, 100), F(307, 100), F(0), F(0)),
        PlaceChange(1, None, 2, (), (), level=True),
    )
    with translation.override(language):
        figure = figure_label("VDB", language)
        assert movement_sentence(move, figure=figure, cells=CellTexts({})) == expected


def test_sentences_in_dutch(client) -> None:
    season, people = small_season()
    html = _page(client, season, people["D"], "nl")
    assert "Waarom ben ik gestegen of gedaald?" in html
    assert _round_item(html, 2) == (
        "Ronde 2: 1 plaats gedaald (1 → 2); SB-score +0,25 (0,25 → 0,50): eigen uitslag 0,00, "
        "herwaardering van eerdere ronden +0,25; gepasseerd door Cor Cools."
    )


def test_the_latest_round_comes_first(client) -> None:
    season, people = small_season()
    html = _page(client, season, people["A"], "en")
    assert html.index('<li data-round="2">') < html.index('<li data-round="1">')


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ("Why did I move?", "Round 1:", "own result")),
        ("nl", ("Waarom ben ik gestegen of gedaald?", "Ronde 1:", "eigen uitslag")),
    ],
)
def test_demo_participant_page(client, demo_club, language: str, expected) -> None:
    for slug in ("interne-2026-2027", "vandenbrink-2026-2027"):
        season = Season.objects.get(slug=slug)
        participant = Participant.objects.filter(season=season).order_by("start_rank").first()
        html = _page(client, season, participant, language)
        for text in expected:
            assert text in html, (slug, text)
        rounds = season.rounds.filter(status="completed").count()
        assert rounds > 1
        assert html.count("<li data-round=") == rounds


def test_a_correction_says_what_it_did_to_him(client, td_user) -> None:
    """Round 1 board 1 (A–B 1-0) corrected to 0-1. Round 1 as closed: A 3rd (SB 0, IP 1).
    Corrected: IP after round 1 A 0, B 1, C ½, D ½, E ½; SB A = 0, B = 1 × IP(A) 0 = 0, C and
    D ¼: C, D share 1st, then SB 0 by IP: B (1) 3rd, E (½) 4th, A (0) 5th. So for A: place
    3 → 5, SB +0; for B: place 5 → 3."""
    season, people = small_season()
    game = Game.objects.get(round__season=season, round__number=1, board=1)
    result_record(
        game_id=game.id,
        result="0-1",
        expected_version=game.version,
        user=td_user,
        reason="Scoresheet swapped",
    )
    item = _round_item(_page(client, season, people["A"], "en"), 1)
    assert item.endswith(
        "Corrected after the round closed: board 1, Anna Aalders – Bart Bos: 1-0 → 0-1 "
        "(Scoresheet swapped). Effect after this round: place 3 → 5, SB score 0.0."
    )
    item = _round_item(_page(client, season, people["B"], "nl"), 1)
    assert item.endswith(
        "Gecorrigeerd na het sluiten van de ronde: bord 1, Anna Aalders – Bart Bos: 1-0 → 0-1 "
        "(Scoresheet swapped). Gevolg na deze ronde: plaats 5 → 3, SB-score 0,0."
    )
    # round 2 was not corrected: its sentence has no correction
    assert "Corrected" not in _round_item(_page(client, season, people["A"], "en"), 2)


@pytest.mark.parametrize(
    "layout",
    [
        {"participant_id": 0, "rank": 0, "score": "1"},  # json.dumps: one pass
        {"rank": 0, "score": "1", "participant_id": 0},  # PostgreSQL: the id last
    ],
)
def test_every_rank_read_from_a_snapshot_text(layout) -> None:
    """The ranking read from a snapshot's text without decoding it is the decoded one, in
    either layout, for ids that are prefixes of one another (7, 76) and shared ranks."""
    rows = [
        {
            key: {"participant_id": pid, "rank": rank}.get(key, value)
            for key, value in layout.items()
        }
        for pid, rank in ((76, 1), (7, 1), (770, 3), (5, 4))
    ]
    text = json.dumps(rows)
    assert ranking_in_snapshot_text(text=text) == {76: 1, 7: 1, 770: 3, 5: 4}
