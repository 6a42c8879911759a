"""Rules that apply from a later round: earlier rounds keep the values the earlier rules gave.

Every figure below is worked out by hand in the docstrings.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.scoring.engine import explain, standings_after, standings_history
from competition.scoring.model import (
    EarlierRules,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from competition.scoring.records import ScoringInputError
from tests.profiles import examples
from tests.scoring.seasons import random_season

F = Fraction
ANNA, BERT, COR, DIRK = 1, 2, 3, 4
PLAYERS = tuple(
    Participant(pid, name, start_rank=pid, start_points=F(points))
    for pid, name, points in (
        (ANNA, "Anna", 200),
        (BERT, "Bert", 200),
        (COR, "Cor", 190),
        (DIRK, "Dirk", 190),
    )
)
ROUNDS = (
    Round(1, games=(Game(ANNA, BERT, Result.WHITE_WINS), Game(COR, DIRK, Result.WHITE_WINS))),
    Round(2, games=(Game(ANNA, COR, Result.WHITE_WINS), Game(BERT, DIRK, Result.DRAW))),
    Round(3, games=(Game(ANNA, DIRK, Result.WHITE_WINS), Game(BERT, COR, Result.BLACK_WINS))),
)
VDB_OLD = {"win_part": F(3), "loss_part": F(-3), "factor": F(7, 100)}
VDB_NEW = {"win_part": F(4), "loss_part": F(-4), "factor": F(5, 100)}


def van_den_brink(rules_from_round: int) -> SeasonInput:
    """Van den Brink, 3 and 0,07 changed to 4 and 0,05 from ``rules_from_round`` on."""
    return SeasonInput(
        participants=PLAYERS,
        rounds=ROUNDS,
        system="van-den-brink",
        parameters=VDB_NEW,
        rules_from_round=rules_from_round,
        earlier_rules=(EarlierRules(1, 1, "van-den-brink", VDB_OLD),),
    )


def scores(season: SeasonInput, after: int) -> dict[int, Fraction]:
    return {row.participant_id: row.score for row in standings_after(season, after).rows}


def test_van_den_brink_change_from_round_three() -> None:
    """Rank values stay the start points (no one reaches 14 games).

    Round 1 (3, 0,07): Anna beats Bert, both 200: Anna 203, Bert 197; Cor beats Dirk, both
    190: Cor 193, Dirk 187. Round 2: Anna (200) beats Cor (190): 3 + 0,07 × (190 − 200) =
    2,3: Anna 205,3, Cor 190,7; Bert (200) draws Dirk (190): −0,7 and +0,7: Bert 196,3,
    Dirk 187,7. Round 3 under 4 and 0,05: Anna beats Dirk: 4 + 0,05 × (190 − 200) = 3,5:
    Anna 208,8, Dirk 184,2; Cor beats Bert: 4 + 0,05 × (200 − 190) = 4,5: Cor 195,2,
    Bert 191,8.
    """
    season = van_den_brink(3)
    assert scores(season, 1) == {ANNA: 203, BERT: 197, COR: 193, DIRK: 187}
    assert scores(season, 2) == {
        ANNA: F("205.3"),
        BERT: F("196.3"),
        COR: F("190.7"),
        DIRK: F("187.7"),
    }
    assert scores(season, 3) == {
        ANNA: F("208.8"),
        BERT: F("191.8"),
        COR: F("195.2"),
        DIRK: F("184.2"),
    }
    assert [row.participant_id for row in standings_after(season, 3).rows] == [
        ANNA,
        COR,
        BERT,
        DIRK,
    ]


def test_van_den_brink_change_for_the_whole_season_recomputes_every_round() -> None:
    """The same change applied to the whole season: round 1 gives 204 and 196, 194 and 186;
    round 2: Anna 4 − 0,5 = 3,5 (207,5), Cor 190,5, Bert −0,5 (195,5), Dirk 186,5; round 3:
    Anna 211, Dirk 183, Cor 195, Bert 191."""
    season = van_den_brink(1)
    assert scores(season, 1) == {ANNA: 204, BERT: 196, COR: 194, DIRK: 186}
    assert scores(season, 3) == {ANNA: 211, BERT: 191, COR: 195, DIRK: 183}


def test_history_equals_the_standings_after_each_round() -> None:
    season = van_den_brink(3)
    history = standings_history(season).history
    assert [standings.round_number for standings in history] == [1, 2, 3]
    for standings in history:
        assert standings == standings_after(season, standings.round_number)


def test_rounds_before_the_change_are_the_earlier_rules_standings() -> None:
    """Rounds 1 and 2 are exactly what the season showed before the change."""
    season = van_den_brink(3)
    before_change = SeasonInput(
        participants=PLAYERS, rounds=ROUNDS[:2], system="van-den-brink", parameters=VDB_OLD
    )
    for n in (1, 2):
        assert standings_after(season, n) == standings_after(before_change, n)


def test_explanation_carries_the_earlier_values() -> None:
    """Anna after round 3: the explanation under 4 and 0,05 gives 211; rounds 1 and 2 gave
    205,3 under the earlier rules against 207,5 under the new ones: a line of −2,2."""
    explanation = explain(van_den_brink(3), participant_id=ANNA, after_round=3)
    assert explanation.totals["VDB"] == F("208.8")
    carried = [line for line in explanation.lines if line.note.startswith("rounds 1 to")]
    assert [(line.figure, line.round_number, line.amount) for line in carried] == [
        ("VDB", 0, F("-2.2"))
    ]
    assert carried[0].note_values == {"last": 2, "version": 1}
    assert sum(line.amount for line in explanation.lines if line.figure == "VDB") == F("208.8")


def points_season(*earlier: EarlierRules, rules_from_round: int, **own: object) -> SeasonInput:
    """Round 1: Anna beats Bert, Cor draws Dirk. Round 2: Anna draws Cor, Bert beats Dirk.
    Round 3: Anna beats Dirk, Bert draws Cor."""
    return SeasonInput(
        participants=tuple(Participant(p.id, p.name, start_rank=p.id) for p in PLAYERS),
        rounds=(
            Round(1, games=(Game(ANNA, BERT, Result.WHITE_WINS), Game(COR, DIRK, Result.DRAW))),
            Round(2, games=(Game(ANNA, COR, Result.DRAW), Game(BERT, DIRK, Result.WHITE_WINS))),
            Round(3, games=(Game(ANNA, DIRK, Result.WHITE_WINS), Game(BERT, COR, Result.DRAW))),
        ),
        system="points",
        parameters=own,
        rules_from_round=rules_from_round,
        earlier_rules=earlier,
    )


def test_three_rule_sets_in_turn() -> None:
    """1-½-0 for round 1, 3-1-0 from round 2, 2-1-0 from round 3.

    After round 1: Anna 1, Bert 0, Cor ½, Dirk ½. Round 2 (3-1-0): Anna 2, Bert 3, Cor 1½,
    Dirk ½. Round 3 (2-1-0): Anna 4, Bert 4, Cor 2½, Dirk ½: Anna and Bert equal on every
    criterion share first place.
    """
    season = points_season(
        EarlierRules(1, 1, "points", {"win": F(1), "draw": F(1, 2)}),
        EarlierRules(2, 2, "points", {"win": F(3), "draw": F(1)}),
        rules_from_round=3,
        win=F(2),
        draw=F(1),
    )
    assert scores(season, 1) == {ANNA: 1, BERT: 0, COR: F(1, 2), DIRK: F(1, 2)}
    assert scores(season, 2) == {ANNA: 2, BERT: 3, COR: F(3, 2), DIRK: F(1, 2)}
    final = standings_after(season, 3).rows
    assert [(row.participant_id, row.rank, row.score) for row in final] == [
        (ANNA, 1, 4),
        (BERT, 1, 4),
        (COR, 3, F(5, 2)),
        (DIRK, 4, F(1, 2)),
    ]
    assert [row.game_points for row in final] == [F(5, 2), F(3, 2), F(3, 2), F(1, 2)]


def test_a_change_of_system_cannot_apply_from_a_later_round() -> None:
    season = points_season(
        EarlierRules(1, 1, "internal-sb"), rules_from_round=2, win=F(3), draw=F(1)
    )
    with pytest.raises(ScoringInputError, match="change of system applies to the whole season"):
        standings_after(season, 2)


def test_rule_sets_out_of_order_are_refused() -> None:
    season = points_season(
        EarlierRules(1, 1, "points"),
        EarlierRules(2, 3, "points"),
        rules_from_round=2,
    )
    with pytest.raises(ScoringInputError, match="in order"):
        standings_after(season, 3)


OTHER_PARAMETERS = {
    "points": ({"win": F(1), "draw": F(1, 2)}, {"win": F(3), "draw": F(1)}),
    "internal-sb": ({}, {}),
    "van-den-brink": (VDB_OLD, VDB_NEW),
    "keizer": ({}, {}),
}


def random_rules_season(seed: int, system: str, first: int) -> tuple[SeasonInput, ...]:
    """A random season with the earlier and the new rules applied from round ``first`` on, and
    the same season under the earlier rules alone and under the new rules alone."""
    base = random_season(seed, 8, 6, tiebreaks=("BH", "WIN"))
    participants = tuple(replace(p, start_points=F(200 - 3 * p.id)) for p in base.participants)
    old, new = OTHER_PARAMETERS[system]

    def season(parameters: dict[str, object], **extra: object) -> SeasonInput:
        return replace(
            base, participants=participants, system=system, parameters=parameters, **extra
        )

    earlier = EarlierRules(1, 1, system, old, base.tiebreaks)
    return (
        season(new, rules_from_round=first, earlier_rules=(earlier,)),
        season(old),
        season(new),
    )


@settings(max_examples=examples(300))
@given(
    seed=st.integers(0, 10_000),
    system=st.sampled_from(sorted(OTHER_PARAMETERS)),
    first=st.integers(2, 6),
)
def test_carried_scores_on_random_seasons(seed: int, system: str, first: int) -> None:
    """On random seasons of every system: before round R the standings are the earlier rules'
    exactly; from R on the score is the earlier rules' score after R − 1 plus the new rules'
    increase from R − 1; the explanation adds up to the row. With the same rules on both
    sides (internal SB, Keizer here) the carried standings are the plain ones."""
    carried, old, new = random_rules_season(seed, system, first)
    for n in range(len(carried.rounds) + 1):
        standings = standings_after(carried, n)
        if n < first:
            assert standings == standings_after(old, n)
            continue
        before_old = scores(old, first - 1)
        before_new = scores(new, first - 1)
        after_new = scores(new, n)
        assert {row.participant_id: row.score for row in standings.rows} == {
            pid: before_old[pid] + after_new[pid] - before_new[pid] for pid in after_new
        }
        if not OTHER_PARAMETERS[system][0]:
            assert standings == standings_after(new, n)
    last = len(carried.rounds)
    row = standings_after(carried, last).rows[0]
    explanation = explain(carried, participant_id=row.participant_id, after_round=last)
    primary = "PTS" if system == "points" else next(iter(explanation.totals))
    assert explanation.totals == row.values
    if system in ("points", "van-den-brink"):
        assert (
            sum(
                line.amount for line in explanation.lines if line.figure == primary and line.counted
            )
            == row.values[primary]
        )


def test_why_did_i_move_follows_the_carried_scores() -> None:
    """Anna in the Van den Brink example: 200 → 203 (+3), 203 → 205,3 (+2,3) under the earlier
    rules, 205,3 → 208,8 (+3,5) under the new ones: the parts of each change add up to the
    standings' scores."""
    from competition.scoring.movement import season_movements

    moves = season_movements(van_den_brink(3), ANNA)
    assert [(m.score.before, m.score.after, m.score.own_result) for m in moves] == [
        (200, 203, 3),
        (203, F("205.3"), F("2.3")),
        (F("205.3"), F("208.8"), F("3.5")),
    ]
    for move in moves:
        score = move.score
        assert score.own_result + score.revaluation + score.own_value == score.after - score.before
