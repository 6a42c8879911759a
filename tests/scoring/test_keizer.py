"""The Keizer system: one round of every kind by hand, a small season in every mode, a 2-cycle,
cycles closing at the 19th, 20th and 21st ranking (the limit is 20),
and properties (the fixed point is one, frozen takes one pass, the iteration ends, the fast
whole-number path equals the rule computed plainly).

Every figure here is worked by hand from the rule in docs/scoring.md (issue 12); published club
tables rebuilt from their own start lists are in tests/scoring/test_keizer_published.py.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.scoring.engine import explain, standings_after, standings_history, system_context
from competition.scoring.model import EntryKind, Result, SeasonInput
from competition.scoring.parameters import ParameterError, parameters_from_json, parameters_to_json
from competition.scoring.registry import get_system
from competition.scoring.systems.keizer import (
    MAX_ITERATIONS,
    SETTLED_CYCLE,
    SETTLED_FIXED,
    SETTLED_LIMIT,
    SETTLED_ONE_PASS,
    Keizer,
    KeizerRound,
    place_values,
    round_term,
    top_value_of,
)
from competition.scoring.tiebreaks import TIEBREAK_CODES, UNPLAYED_POLICIES
from tests.profiles import examples
from tests.scoring.seasons import random_season, season_from_rounds

F = Fraction
KEIZER = Keizer()
A, B, C, D = 1, 2, 3, 4


def keizer_season(
    players: list[int], rounds: list[list[tuple]], **parameters: object
) -> SeasonInput:
    """Players with start ranks 1, 2, ... in the order given, the Keizer system."""
    season = season_from_rounds(players, rounds)
    participants = tuple(
        dataclasses.replace(p, start_rank=index, name="ABCDEFGH"[index - 1])
        for index, p in enumerate(season.participants, start=1)
    )
    return dataclasses.replace(
        season, participants=participants, system="keizer", parameters=parameters
    )


def scores(season: SeasonInput, after_round: int) -> dict[int, Fraction]:
    return {
        row.participant_id: row.values["KEIZER"]
        for row in standings_after(season, after_round).rows
    }


def order(season: SeasonInput, after_round: int) -> list[int]:
    return [row.participant_id for row in standings_after(season, after_round).rows]


def trace(season: SeasonInput, system: Keizer = KEIZER) -> tuple[KeizerRound, ...]:
    context = system_context(season, len(season.rounds))
    return system.run(context, system.validate(season.parameters))


# --- one round of every kind -------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "score_a", "score_b"),
    [
        # frozen values A 10, B 9, C 8. Own value + fraction × opponent's value (games) or
        # fraction × own value (forfeits). Win: A 10 + 1 × 9 = 19, B 9 + 0 × 10 = 9.
        ("1-0", F(19), F(9)),
        # draw: A 10 + ½ × 9 = 14½, B 9 + ½ × 10 = 14
        ("1/2", F(29, 2), F(14)),
        # loss: A 10 + 0, B 9 + 1 × 10 = 19
        ("0-1", F(10), F(19)),
        # forfeit win A: 10 + 1 × own 10 = 20; forfeit loss B: 9 + 0 × 9 = 9
        ("+-", F(20), F(9)),
        # forfeit win B: 9 + 9 = 18; A 10 + 0
        ("-+", F(10), F(18)),
        # double forfeit: both lose by forfeit, 0 × own value
        ("--", F(10), F(9)),
        # a pairing without a result counts nothing yet
        ("", F(10), F(9)),
    ],
)
def test_one_game_of_every_kind(result: str, score_a: Fraction, score_b: Fraction) -> None:
    season = keizer_season(
        [A, B, C], [[(A, B, result), (C, "not_paired", 0)]], top_value=10, recalculation="frozen"
    )
    assert scores(season, 1) == {A: score_a, B: score_b, C: F(8)}


@pytest.mark.parametrize(
    ("kind", "score_c"),
    [
        ("bye", F(8) + F(2, 3) * 8),  # 8 + 16/3 = 13⅓
        ("absent_notice", F(8) + F(1, 3) * 8),  # 8 + 8/3 = 10⅔
        ("absent_no_notice", F(8)),  # 8 + 0
        ("club_duty", F(8) + F(2, 3) * 8),  # 13⅓
        ("not_paired", F(8)),  # no record: nothing
    ],
)
def test_one_round_without_a_game_of_every_kind(kind: str, score_c: Fraction) -> None:
    """Frozen values A 10, B 9, C 8; C has no game: fraction × his own value 8."""
    season = keizer_season(
        [A, B, C], [[(A, B, "1-0"), (C, kind, 1)]], top_value=10, recalculation="frozen"
    )
    assert scores(season, 1)[C] == score_c


def test_parameters_change_the_fractions() -> None:
    """Win ¾, bye ½, own value not counted: A 0 + ¾ × 9 = 6¾; C ½ × 8 = 4."""
    season = keizer_season(
        [A, B, C],
        [[(A, B, "1-0"), (C, "bye", 1)]],
        top_value=10,
        recalculation="frozen",
        win="3/4",
        bye="1/2",
        own_value_in_score=False,
    )
    assert scores(season, 1) == {A: F(27, 4), B: F(0), C: F(4)}


def test_max_paid_absences() -> None:
    """C absent with notice three times, only two paid: 8 + 8/3 + 8/3 + 0 = 13⅓."""
    rounds = [[(A, B, "1/2"), (C, "absent_notice", 0)] for _ in range(3)]
    season = keizer_season(
        [A, B, C], rounds, top_value=10, recalculation="frozen", max_paid_absences=2
    )
    assert scores(season, 3)[C] == F(40, 3)
    lines = [
        line
        for line in explain(season, participant_id=C, after_round=3).lines
        if line.round_number == 3
    ]
    assert lines[0].amount == 0
    assert lines[0].note == "absent_notice; beyond the paid absences"


@pytest.mark.parametrize(("participants", "top"), [(3, 5), (24, 36), (25, 38), (27, 41)])
def test_top_value_is_one_and_a_half_times_the_participants_rounded_half_up(
    participants: int, top: int
) -> None:
    """1.5 × 25 = 37.5 → 38 (half up, not Python's round-half-even 38; 40.5 → 41, not 40)."""
    assert top_value_of({"top_value": ""}, participants) == top


def test_values_by_place_and_never_below_zero() -> None:
    """Top 3, step 2: values 3, 1, 0 (3 − 2 × 2 = −1 is clamped to 0)."""
    season = keizer_season([A, B, C], [], top_value=3, value_step=2)
    values = {row.participant_id: row.values["VALUE"] for row in standings_after(season, 0).rows}
    assert values == {A: F(3), B: F(1), C: F(0)}
    assert scores(season, 0) == {A: F(3), B: F(1), C: F(0)}  # own value only


# --- a small season by hand, in every mode -----------------------------------------------

# Start list A, B, C, D, top value 10: values 10, 9, 8, 7.
# Round 1: B beats A, D beats C.  Round 2: B–D draw, A beats C.
# Round 3: A absent with notice, C beats B, D bye.
SMALL = [
    [(A, B, "0-1"), (C, D, "0-1")],
    [(B, D, "1/2"), (A, C, "1-0")],
    [(A, "absent_notice", 0), (B, C, "0-1"), (D, "bye", 1)],
]


def test_small_season_frozen() -> None:
    """Values stay A 10, B 9, C 8, D 7.

    R1: A 10, B 9 + 10 = 19, C 8, D 7 + 8 = 15.
    R2: A 10 + 8 = 18, B 19 + ½ × 7 = 22½, C 8, D 15 + ½ × 9 = 19½.
    R3: A 18 + ⅓ × 10 = 21⅓, B 22½, C 8 + 9 = 17, D 19½ + ⅔ × 7 = 24⅙.
    """
    season = keizer_season([A, B, C, D], SMALL, top_value=10, recalculation="frozen")
    assert scores(season, 1) == {A: 10, B: 19, C: 8, D: 15}
    assert scores(season, 2) == {A: 18, B: F(45, 2), C: 8, D: F(39, 2)}
    assert scores(season, 3) == {A: F(64, 3), B: F(45, 2), C: 17, D: F(145, 6)}
    assert order(season, 3) == [D, B, A, C]
    assert all(keizer_round.passes == 1 for keizer_round in trace(season))


def test_small_season_previous_values() -> None:
    """Each round's recomputation uses the values of the ranking after the round before.

    R1 (start values A 10, B 9, C 8, D 7): A 10, B 19, C 8, D 15 → B, D, A, C.
    R2 (B 10, D 9, A 8, C 7): A 8 + 7 = 15, B 10 + 8 + ½ × 9 = 22½, C 7, D 9 + 7 + ½ × 10 = 21.
    R3 (same values): A 15 + ⅓ × 8 = 17⅔, B 22½, C 7 + 10 = 17, D 21 + ⅔ × 9 = 27.
    """
    season = keizer_season([A, B, C, D], SMALL, top_value=10, recalculation="previous_values")
    assert scores(season, 1) == {A: 10, B: 19, C: 8, D: 15}
    assert scores(season, 2) == {A: 15, B: F(45, 2), C: 7, D: 21}
    assert scores(season, 3) == {A: F(53, 3), B: F(45, 2), C: 17, D: 27}
    assert order(season, 3) == [D, B, A, C]


def test_small_season_fixed_point() -> None:
    """Each round iterates from the start list's values until the ranking repeats.

    R1: pass 1 (A 10, B 9, C 8, D 7) gives A 10, B 19, C 8, D 15 → B, D, A, C; pass 2
    (B 10, D 9, A 8, C 7) gives A 8, B 18, C 7, D 16 → B, D, A, C again: fixed, 2 passes.
    R2: pass 1 gives A 18, B 22½, C 8, D 19½ → B, D, A, C; pass 2: A 8 + 7 = 15,
    B 10 + 8 + 4½ = 22½, C 7, D 9 + 7 + 5 = 21 → the same: fixed.
    R3: pass 1 gives A 21⅓, B 22½, C 17, D 24⅙ → D, B, A, C; pass 2 (D 10, B 9, A 8, C 7):
    A 8 + 7 + 8/3 = 17⅔, B 9 + 8 + 5 = 22, C 7 + 9 = 16, D 10 + 7 + 4½ + 20/3 = 28⅙ → same.
    """
    season = keizer_season([A, B, C, D], SMALL, top_value=10)
    assert scores(season, 1) == {A: 8, B: 18, C: 7, D: 16}
    assert scores(season, 2) == {A: 15, B: F(45, 2), C: 7, D: 21}
    assert scores(season, 3) == {A: F(53, 3), B: 22, C: 16, D: F(169, 6)}
    assert order(season, 3) == [D, B, A, C]
    rows = standings_after(season, 3).rows
    assert [row.values["VALUE"] for row in rows] == [10, 9, 8, 7]
    assert [(r.passes, r.settled) for r in trace(season)] == [(1, SETTLED_FIXED)] + [
        (2, SETTLED_FIXED)
    ] * 3


def test_small_season_explanation() -> None:
    """A after round 3 (fixed point, ranking D, B, A, C): own value 8, loss to B (value 9 now;
    9 then, B being 2nd on the start list), win over C (7 now; 7 then, C last after round 1),
    absence ⅓ × 8; total 8 + 0 + 7 + 2⅔ = 17⅔; value 8 (place 3)."""
    season = keizer_season([A, B, C, D], SMALL, top_value=10)
    explanation = explain(season, participant_id=A, after_round=3)
    keizer_lines = [line for line in explanation.lines if line.figure == "KEIZER"]
    assert [(line.round_number, line.amount) for line in keizer_lines] == [
        (0, 8),
        (1, 0),
        (2, 7),
        (3, F(8, 3)),
    ]
    assert dict(keizer_lines[1].parts) == {
        "opponent_value": 9,
        "opponent_value_then": 9,
        "fraction": 0,
    }
    assert dict(keizer_lines[2].parts) == {
        "opponent_value": 7,
        "opponent_value_then": 7,
        "fraction": 1,
    }
    assert keizer_lines[3].note == "absent_notice"
    assert sum(line.amount for line in keizer_lines) == explanation.totals["KEIZER"] == F(53, 3)
    (value_line,) = [line for line in explanation.lines if line.figure == "VALUE"]
    assert (value_line.amount, value_line.note_values) == (8, {"n": 3})
    assert explanation.totals["VALUE"] == 8


# --- a 2-cycle ---------------------------------------------------------------------------


def test_two_cycle_is_settled_by_averaging_the_values() -> None:
    """Top 8: start values A 8, B 7, C 6, D 5. A and C draw three times; B beats D, draws,
    beats D. After round 2 the ranking is B, A, C, D. Round 3's scores:
    A = V(A) + 1½ V(C), C = V(C) + 1½ V(A), B = V(B) + 2½ V(D), D = V(D) + ½ V(B).

    pass 1 (A 8, B 7, C 6, D 5): A 17, C 18, B 19½, D 8½ → B, C, A, D
    pass 2 (B 8, C 7, A 6, D 5): A 16½, C 16, B 20½, D 9 → B, A, C, D
    pass 3 (B 8, A 7, C 6, D 5): A 16, C 16½ → B, C, A, D: pass 1's ranking again, a 2-cycle.
    pass 4, values averaged over the two rankings (A and C 6½, B 8, D 5): A = C = 6½ + 9¾ =
    16¼, B 20½, D 9; A and C tie and the ranking after round 2 puts A first.
    """
    rounds = [
        [(A, C, "1/2"), (D, B, "0-1")],
        [(D, B, "1/2"), (C, A, "1/2")],
        [(C, A, "1/2"), (B, D, "1-0")],
    ]
    season = keizer_season([A, B, C, D], rounds, top_value=8)
    assert order(season, 2) == [B, A, C, D]
    assert scores(season, 3) == {A: F(65, 4), B: F(41, 2), C: F(65, 4), D: 9}
    assert order(season, 3) == [B, A, C, D]
    last = trace(season)[-1]
    assert (last.passes, last.settled, last.cycle) == (4, SETTLED_CYCLE, 2)
    assert last.used == {A: F(13, 2), B: 8, C: F(13, 2), D: 5}
    explanation = explain(season, participant_id=A, after_round=3)
    games = [line for line in explanation.lines if line.figure == "KEIZER" and line.opponent_id]
    assert [line.parts["opponent_value"] for line in games] == [F(13, 2)] * 3
    assert explanation.totals["VALUE"] == 7  # place 2


# --- the limit of 20 rankings: a cycle closing at ranking 19, 20 and 21 ------------------

# Three seasons of 8 players (start list A..H, top value 12, step 1: values 12, 11, ..., 5) and
# two rounds of games, no tie-breaks, default parameters. They were found by a search over
# seeded random seasons (every player present every round, results drawn from 1-0, ½-½, 0-1),
# running the fixed-point iteration without a limit and keeping the smallest seasons whose
# round 2 first repeats an earlier ranking at ranking 19, 20 and 21; round 1 settles on a fixed
# point in each. Written out here so that they do not depend on a random generator.
E_, F_, G_, H_ = 5, 6, 7, 8
EIGHT = [A, B, C, D, E_, F_, G_, H_]
# round 2: ranking 19 repeats ranking 11, a cycle of the 8 rankings 11..18
CYCLE_CLOSES_AT_19 = [
    [(B, G_, "1-0"), (E_, A, "1/2"), (D, H_, "0-1"), (C, F_, "0-1")],
    [(E_, A, "0-1"), (B, D, "0-1"), (G_, H_, "1-0"), (C, F_, "1/2")],
]
# round 2: ranking 20 repeats ranking 12, a cycle of the 8 rankings 12..19
CYCLE_CLOSES_AT_20 = [
    [(F_, A, "0-1"), (B, G_, "0-1"), (E_, H_, "0-1"), (D, C, "1-0")],
    [(G_, F_, "1/2"), (B, A, "0-1"), (H_, C, "0-1"), (E_, D, "1-0")],
]
# round 2: ranking 21 would repeat ranking 9 (a cycle of 12): beyond the limit
CYCLE_CLOSES_AT_21 = [
    [(F_, G_, "1-0"), (C, D, "0-1"), (B, H_, "0-1"), (A, E_, "0-1")],
    [(B, F_, "1-0"), (E_, A, "1/2"), (H_, C, "0-1"), (D, G_, "0-1")],
]
_POINTS = {"1-0": (F(1), F(0)), "1/2": (F(1, 2), F(1, 2)), "0-1": (F(0), F(1))}


def _values_by_hand(ranking: tuple[int, ...]) -> dict[int, Fraction]:
    """Top value round(1.5 × 8) = 12, step 1."""
    return {pid: F(12 - place) for place, pid in enumerate(ranking)}


def _scores_by_hand(
    rounds: list[list[tuple]], number: int, values: dict[int, Fraction]
) -> dict[int, Fraction]:
    """Own value once + 1, ½ or 0 × the opponent's value per game of rounds 1..number."""
    score = dict(values)
    for games in rounds[:number]:
        for white, black, result in games:
            white_points, black_points = _POINTS[result]
            score[white] += white_points * values[black]
            score[black] += black_points * values[white]
    return score


def _ranked_by_hand(score: dict[int, Fraction], previous: tuple[int, ...]) -> tuple[int, ...]:
    """Score, highest first; equal scores by the ranking after the previous round."""
    return tuple(sorted(score, key=lambda pid: (-score[pid], previous.index(pid))))


def _iteration_by_hand(
    rounds: list[list[tuple]], number: int, previous: tuple[int, ...]
) -> tuple[list[tuple[int, ...]], list[dict[int, Fraction]]]:
    """Rankings 0 (the start list), 1, 2, ... of round ``number`` and the scores that gave
    each (none for ranking 0), without a limit, up to the first ranking that repeats one."""
    rankings: list[tuple[int, ...]] = [tuple(EIGHT)]
    scores: list[dict[int, Fraction]] = [{}]
    while rankings[-1] not in rankings[:-1]:
        score = _scores_by_hand(rounds, number, _values_by_hand(rankings[-1]))
        scores.append(score)
        rankings.append(_ranked_by_hand(score, previous))
    return rankings, scores


def _settled_by_hand(
    rounds: list[list[tuple]], limit: int = 20
) -> tuple[int, int, tuple[int, ...], dict[int, Fraction], dict[int, Fraction]]:
    """docs/scoring.md's rule for the last round: (the ranking that first repeats one, the
    length of the cycle, the final ranking, the values the scores were computed with, the
    scores), after the earlier rounds settled by the same rule."""
    previous = tuple(EIGHT)
    for number in range(1, len(rounds) + 1):
        rankings, scores = _iteration_by_hand(rounds, number, previous)
        closes = len(rankings) - 1
        first = rankings.index(rankings[closes])
        if first == closes - 1:  # a fixed point
            used, score, final = _values_by_hand(rankings[first]), scores[closes], rankings[first]
        elif closes <= limit:  # a cycle within the limit: values averaged over it
            cycle = rankings[first:closes]
            used = {
                pid: sum((_values_by_hand(member)[pid] for member in cycle), F(0)) / len(cycle)
                for pid in EIGHT
            }
            score = _scores_by_hand(rounds, number, used)
            final = _ranked_by_hand(score, previous)
        else:  # the limit: ranking ``limit`` with the scores that gave it
            used, score = _values_by_hand(rankings[limit - 1]), scores[limit]
            final = rankings[limit]
        previous = final
    return closes, closes - first, final, used, score


def _published(season: SeasonInput) -> tuple[list[int], dict[int, Fraction], dict[int, Fraction]]:
    rows = standings_after(season, 2).rows
    return (
        [row.participant_id for row in rows],
        {row.participant_id: row.values["KEIZER"] for row in rows},
        {row.participant_id: row.values["VALUE"] for row in rows},
    )


def _ids(letters: str) -> tuple[int, ...]:
    return tuple("ABCDEFGH".index(letter) + 1 for letter in letters)


def _by_letter(figures: dict[str, Fraction | int]) -> dict[int, Fraction]:
    return {"ABCDEFGH".index(letter) + 1: F(figure) for letter, figure in figures.items()}


def _check_averaged(rounds: list[list[tuple]], closes: int, length: int) -> None:
    """The engine publishes the rule's averaged round: ranking, scores, values, how it settled
    (one ranking more than the ones the cycle took), the explanation's values."""
    _closes, _length, final, used, score = _settled_by_hand(rounds)
    season = keizer_season(EIGHT, rounds)
    assert _published(season) == (list(final), score, _values_by_hand(final))
    first, last = trace(season)[1:]
    assert first.settled == SETTLED_FIXED
    assert (last.settled, last.cycle, last.passes) == (SETTLED_CYCLE, length, closes + 1)
    assert last.used == used
    explanation = explain(season, participant_id=C, after_round=2)
    assert explanation.lines[0].parts["own_value"] == used[C]
    assert explanation.totals["KEIZER"] == score[C]


def test_a_cycle_closing_at_ranking_19_is_averaged() -> None:
    """After round 1 (a fixed point): F, B, A, E, H, C, D, G. Round 2, from the start list:
    ranking 19 (H D G B A F E C) repeats ranking 11. In the cycle (rankings 11..18) B, D, G
    and H take places 1..4 in turn, so each averages (12 + 11 + 10 + 9) / 4 = 10½; A stays
    5th (8), F 6th (7), E 7th (6), C 8th (5). Scores with those values: B 10½ + 10½ (beat G)
    = 21; D 10½ + 10½ (beat B) = 21; G 10½ + 10½ (beat H) = 21; H 10½ + 10½ (beat D) = 21;
    A 8 + ½ × 6 (drew E) + 6 (beat E) = 17; F 7 + 5 (beat C) + ½ × 5 (drew C) = 14½;
    E 6 + ½ × 8 (drew A) = 10; C 5 + ½ × 7 (drew F) = 8½. The four on 21 in the order after
    round 1: B, H, D, G."""
    rounds = CYCLE_CLOSES_AT_19
    assert _settled_by_hand(rounds) == (
        19,
        8,
        _ids("BHDGAFEC"),
        _by_letter({"A": 8, "B": F(21, 2), "C": 5, "D": F(21, 2), "E": 6, "F": 7,
                    "G": F(21, 2), "H": F(21, 2)}),
        _by_letter({"A": 17, "B": 21, "C": F(17, 2), "D": 21, "E": 10, "F": F(29, 2),
                    "G": 21, "H": 21}),
    )  # fmt: skip
    _check_averaged(rounds, 19, 8)


def test_a_cycle_closing_at_ranking_20_is_averaged_not_the_limit() -> None:
    """Ranking 20 is the last the iteration computes, and it is still checked: a cycle that
    closes there settles the round like one that closes earlier (the limit is for a round
    whose 20th ranking repeats nothing).

    After round 1 (a fixed point): D, G, A, H, B, C, E, F. Round 2, from the start list:
    ranking 20 (A H E C D G F B) repeats ranking 12. In the cycle (rankings 12..19) C, D, E
    and H take places 2..5 in turn, so each averages (11 + 10 + 9 + 8) / 4 = 9½; A stays 1st
    (12), G 6th (7), F 7th (6), B 8th (5). Scores: A 12 + 6 (beat F) + 5 (beat B) = 23;
    C 9½ + 9½ (beat H) = 19; D 9½ + 9½ (beat C) = 19; E 9½ + 9½ (beat D) = 19; H 9½ + 9½
    (beat E) = 19; G 7 + 5 (beat B) + ½ × 6 = 15; F 6 + ½ × 7 = 9½; B 5. The four on 19 in
    the order after round 1: D, H, C, E. (Before, this round published ranking 20 with the
    scores of ranking 19's values, as if the limit had been hit.)"""
    rounds = CYCLE_CLOSES_AT_20
    assert _settled_by_hand(rounds) == (
        20,
        8,
        _ids("ADHCEGFB"),
        _by_letter({"A": 12, "B": 5, "C": F(19, 2), "D": F(19, 2), "E": F(19, 2), "F": 6,
                    "G": 7, "H": F(19, 2)}),
        _by_letter({"A": 23, "B": 5, "C": 19, "D": 19, "E": 19, "F": F(19, 2), "G": 15,
                    "H": 19}),
    )  # fmt: skip
    _check_averaged(rounds, 20, 8)


def test_a_cycle_that_would_close_at_ranking_21_meets_the_limit() -> None:
    """Ranking 21 would repeat an earlier one, but the iteration stops at ranking 20, which
    repeats nothing: ranking 20 stands, with the scores that gave it (computed with ranking
    19's values, not averaged), and VALUE is the value of its places.

    After round 1 (a fixed point): E, D, H, F, A, B, C, G. Round 2: ranking 19 is
    G F D B E C H A (values 12 down to 5); its scores: F 11 + 12 (beat G) = 23; G 12 + 10
    (beat D) = 22; B 9 + 11 (beat F) = 20; D 10 + 7 (beat C) = 17; E 8 + 5 (beat A) + ½ × 5
    = 15½; H 6 + 9 (beat B) = 15; C 7 + 6 (beat H) = 13; A 5 + ½ × 8 = 9: ranking 20 is
    F G B D E H C A. Ranking 21 (F B G H E D C A) would repeat ranking 9, a 12-cycle. With a
    limit of 21 the same round is that cycle, averaged."""
    rounds = CYCLE_CLOSES_AT_21
    assert _settled_by_hand(rounds, limit=1000)[:2] == (21, 12)
    ranking_20 = _ids("FGBDEHCA")
    expected = (
        21,
        12,
        ranking_20,
        _values_by_hand(_ids("GFDBECHA")),
        _by_letter({"A": 9, "B": 20, "C": 13, "D": 17, "E": F(31, 2), "F": 23, "G": 22,
                    "H": 15}),
    )  # fmt: skip
    assert _settled_by_hand(rounds) == expected
    season = keizer_season(EIGHT, rounds)
    assert _published(season) == (list(ranking_20), expected[4], _values_by_hand(ranking_20))
    first, last = trace(season)[1:]
    assert first.settled == SETTLED_FIXED
    assert (last.settled, last.cycle, last.passes) == (SETTLED_LIMIT, 1, 20)
    assert last.used == expected[3]

    _closes, _length, final, used, score = _settled_by_hand(rounds, limit=21)
    last = trace(season, Keizer(max_iterations=21))[-1]
    assert (last.settled, last.cycle, last.passes) == (SETTLED_CYCLE, 12, 22)
    assert (last.order, last.used, last.score) == (final, used, score)
    assert any(value.denominator != 1 for value in used.values())


# --- parameters --------------------------------------------------------------------------


def test_parameters_validate_and_round_trip() -> None:
    system = get_system("keizer")
    defaults = system.validate({})
    assert defaults["top_value"] == "" and defaults["max_paid_absences"] == ""
    assert defaults["external_game"] == "result" and defaults["recalculation"] == "fixed_point"
    chosen = system.validate(
        {"top_value": "60", "max_paid_absences": 5, "external_game": "1/2", "value_step": "0,5"}
    )
    assert (chosen["top_value"], chosen["external_game"], chosen["value_step"]) == (
        60,
        F(1, 2),
        F(1, 2),
    )
    for values in (defaults, chosen):
        assert system.validate(parameters_from_json(parameters_to_json(values))) == values
    with pytest.raises(ParameterError, match=r"top_value.*or empty"):
        system.validate({"top_value": "lots"})
    with pytest.raises(ParameterError, match="recalculation"):
        system.validate({"recalculation": "sometimes"})


# --- properties --------------------------------------------------------------------------


def _reference_scores(
    season: SeasonInput, after_round: int, values: dict[int, Fraction]
) -> dict[int, Fraction]:
    """The rule written out plainly (default parameters), to check the engine's integers."""
    own = {"bye": F(2, 3), "absent_notice": F(1, 3), "club_duty": F(2, 3)}
    total = dict(values)  # own value once
    for rnd in season.rounds[:after_round]:
        for game in rnd.games:
            if game.result.is_played:
                total[game.white] += game.result.white_points * values[game.black]
                total[game.black] += game.result.black_points * values[game.white]
            elif game.result is Result.WHITE_WINS_FORFEIT:
                total[game.white] += values[game.white]
            elif game.result is Result.BLACK_WINS_FORFEIT:
                total[game.black] += values[game.black]
        for entry in rnd.entries:
            total[entry.participant] += own.get(entry.kind.value, F(0)) * values[entry.participant]
    return total


@settings(max_examples=examples(100))
@given(seed=st.integers(0, 10**6), players=st.integers(4, 30), rounds=st.integers(1, 8))
def test_fixed_point_is_a_fixed_point(seed: int, players: int, rounds: int) -> None:
    """Where the iteration settled on a fixed point, scoring with the values of the ranking it
    gives yields the same scores, and sorting them (ties: the previous ranking) the same
    ranking. Where it settled otherwise, the published scores still sort into the ranking."""
    season = dataclasses.replace(random_season(seed, players, rounds), system="keizer")
    history = standings_history(season).history
    rounds_traced = trace(season)
    for standings, keizer_round in zip(history, rounds_traced[1:], strict=True):
        values = {row.participant_id: row.values["VALUE"] for row in standings.rows}
        score = {row.participant_id: row.values["KEIZER"] for row in standings.rows}
        previous = {pid: place for place, pid in enumerate(keizer_round.previous)}
        ranked = sorted(score, key=lambda pid: (-score[pid], previous[pid]))
        assert [row.participant_id for row in standings.rows] == ranked
        assert list(keizer_round.order) == ranked
        if keizer_round.settled == SETTLED_FIXED:
            assert _reference_scores(season, standings.round_number, values) == score
            assert keizer_round.used == values


@settings(max_examples=examples(50))
@given(seed=st.integers(0, 10**6), players=st.integers(4, 40), rounds=st.integers(1, 10))
def test_frozen_takes_one_pass(seed: int, players: int, rounds: int) -> None:
    season = dataclasses.replace(
        random_season(seed, players, rounds),
        system="keizer",
        parameters={"recalculation": "frozen"},
    )
    traced = trace(season)
    assert all(r.passes == 1 and r.settled == SETTLED_ONE_PASS for r in traced)
    start_values = traced[0].value
    for keizer_round in traced:
        assert keizer_round.used == start_values


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 10**6), players=st.integers(10, 120), rounds=st.integers(1, 12))
def test_recalculation_ends_within_max_iterations(seed: int, players: int, rounds: int) -> None:
    """At most 20 rankings of the iteration, and one more to settle a cycle."""
    season = dataclasses.replace(random_season(seed, players, rounds), system="keizer")
    for keizer_round in trace(season):
        settled, passes = keizer_round.settled, keizer_round.passes
        assert settled in (SETTLED_FIXED, SETTLED_CYCLE, SETTLED_LIMIT)
        assert 1 <= passes <= MAX_ITERATIONS + (settled == SETTLED_CYCLE)
        assert settled != SETTLED_LIMIT or passes == MAX_ITERATIONS


@settings(max_examples=examples(30))
@given(
    seed=st.integers(0, 10**6),
    mode=st.sampled_from(["fixed_point", "previous_values", "frozen"]),
    tiebreaks=st.sampled_from([(), ("BH", "DE"), ("SB/C1", "WIN")]),
)
def test_explanation_totals_are_the_standings(
    seed: int, mode: str, tiebreaks: tuple[str, ...]
) -> None:
    season = dataclasses.replace(
        random_season(seed, 8, 5, tiebreaks=tiebreaks),
        system="keizer",
        parameters={"recalculation": mode, "max_paid_absences": 1},
    )
    rows = {row.participant_id: row for row in standings_after(season, 5).rows}
    for pid, row in rows.items():
        explanation = explain(season, participant_id=pid, after_round=5)
        assert explanation.totals == row.values
        keizer = sum(line.amount for line in explanation.lines if line.figure == "KEIZER")
        assert keizer == row.values["KEIZER"]
    assert [r.rank for r in rows.values()] == sorted(r.rank for r in rows.values())
    assert len({r.rank for r in rows.values()}) == len(rows)  # the ranking is strict


def _plain_trace(season: SeasonInput, limit: int = MAX_ITERATIONS) -> tuple[KeizerRound, ...]:
    """The rule of the module docstring computed plainly: Fractions throughout, every pass
    ranks everybody with the engine's full ranking (no whole-number units, no updates of the
    scores a changed value touches, no ranking of the tied participants only); ``limit``
    rankings at most per round."""
    last = len(season.rounds)
    context = system_context(season, last)
    rank = context.rank
    assert rank is not None
    parameters = KEIZER.validate(season.parameters)
    people = context.participants
    start = tuple(
        sorted(
            people,
            key=lambda pid: (
                people[pid].start_rank is None,
                people[pid].start_rank or 0,
                people[pid].name,
                pid,
            ),
        )
    )
    place_value = place_values(
        top_value_of(parameters, len(start)), F(parameters["value_step"]), len(start)
    )
    terms = {}
    for pid in people:
        paid, own_terms = 0, []
        for record in context.records[pid]:
            own_terms.append(round_term(record, parameters, paid))
            paid += record.entry is EntryKind.ABSENT_NOTICE
        terms[pid] = own_terms
    own_once = F(1) if parameters["own_value_in_score"] else F(0)

    def values_of(ranking: tuple[int, ...]) -> dict[int, Fraction]:
        return {pid: place_value[place] for place, pid in enumerate(ranking)}

    def scored(number: int, used: dict[int, Fraction]) -> dict[int, Fraction]:
        return {
            pid: own_once * used[pid]
            + sum(
                (
                    term.fraction * used[pid if term.opponent is None else term.opponent]
                    for term in terms[pid][:number]
                ),
                F(0),
            )
            for pid in people
        }

    mode = parameters["recalculation"]
    previous, rounds = start, []
    for number in range(last + 1):
        tie_order = {pid: place for place, pid in enumerate(previous)}

        def ranked(score: dict[int, Fraction]) -> tuple[int, ...]:
            return rank(number, {pid: {"KEIZER": s} for pid, s in score.items()}, tie_order)  # noqa: B023

        cycle = 1
        if mode != "fixed_point":
            used = values_of(start if mode == "frozen" else previous)
            score = scored(number, used)
            ranking, passes, settled = ranked(score), 1, SETTLED_ONE_PASS
        else:
            seen, current, passes = [start], start, 0
            while True:
                used = values_of(current)
                score = scored(number, used)
                ranking = ranked(score)
                passes += 1
                if ranking == current:
                    settled = SETTLED_FIXED
                    break
                if ranking in seen:  # the last allowed ranking too
                    members = seen[seen.index(ranking) :]
                    cycle = len(members)
                    used = {
                        pid: sum((values_of(member)[pid] for member in members), F(0)) / cycle
                        for pid in people
                    }
                    score = scored(number, used)
                    ranking, settled = ranked(score), SETTLED_CYCLE
                    passes += 1
                    break
                if passes >= limit:
                    settled = SETTLED_LIMIT
                    break
                seen.append(ranking)
                current = ranking
        rounds.append(
            KeizerRound(
                number, ranking, previous, used, values_of(ranking), score, passes, settled, cycle
            )
        )
        previous = ranking
    return tuple(rounds)


@settings(max_examples=examples(100))
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 24),
    rounds=st.integers(0, 8),
    mode=st.sampled_from(["fixed_point", "fixed_point", "previous_values", "frozen"]),
    tiebreaks=st.sampled_from(
        [(), ("BH", "DE"), ("DE", "SB"), ("SB/C1", "WIN"), ("AOB", "DE", "TPR"), TIEBREAK_CODES]
    ),
    policy=st.sampled_from(UNPLAYED_POLICIES),
    round_robin=st.booleans(),
    parameters=st.sampled_from(
        [{}, {"max_paid_absences": 1}, {"top_value": 4, "value_step": "1/2"}, {"loss": "-1/3"}]
    ),
    limit=st.sampled_from([MAX_ITERATIONS, MAX_ITERATIONS, 2, 3, 4, 6]),
)
def test_fast_path_equals_the_plain_rule(
    seed: int,
    players: int,
    rounds: int,
    mode: str,
    tiebreaks: tuple[str, ...],
    policy: str,
    round_robin: bool,
    parameters: dict[str, object],
    limit: int,
) -> None:
    """``Keizer.run`` (whole numbers, updates of the touched scores, the engine asked to rank
    only the participants tied in score) gives exactly the plain rule's rankings, values,
    scores, passes and settling, in every mode, with and without tie-breaks (DE included).
    Small limits make a fixed point or a cycle at the last allowed ranking common."""
    season = dataclasses.replace(
        random_season(
            seed, players, rounds, policy=policy, round_robin=round_robin, tiebreaks=tiebreaks
        ),
        system="keizer",
        parameters={**parameters, "recalculation": mode},
    )
    assert trace(season, Keizer(max_iterations=limit)) == _plain_trace(season, limit)
