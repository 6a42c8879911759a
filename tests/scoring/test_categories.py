"""Categories, prizes and periods (competition.scoring.categories), with worked figures.

The standings used throughout (rank, participant, event rating, birth year, start number):

    rank  pid  rating  born  start  eligible
     1     1    1850   1970    2
     2     2    1650   2010    5
     3     3    1700   1985    1
     3     4     —     2009    7      (shares rank 3 with 3)
     5     5    1600    —      3      no (too few games)
     6     6    1699   2012    8
     7     7    1500   1960    4
     8     8     —      —      6
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from competition.scoring import engine
from competition.scoring.categories import (
    AGE,
    HAND_LIST,
    NEWCOMERS,
    RATING,
    Candidate,
    CategoryRule,
    Period,
    Standing,
    award_prizes,
    category_rows,
    period_input,
    periods_of,
)
from competition.scoring.model import Game, Participant, Result, Round, SeasonInput

CANDIDATES = [
    Candidate(1, rating=1850, birth_year=1970, start_rank=2),
    Candidate(2, rating=1650, birth_year=2010, start_rank=5),
    Candidate(3, rating=1700, birth_year=1985, start_rank=1),
    Candidate(4, rating=None, birth_year=2009, start_rank=7),
    Candidate(5, rating=1600, birth_year=None, start_rank=3),
    Candidate(6, rating=1699, birth_year=2012, start_rank=8, newcomer=True),
    Candidate(7, rating=1500, birth_year=1960, start_rank=4),
    Candidate(8, rating=None, birth_year=None, start_rank=6, newcomer=True),
]
STANDINGS = [
    Standing(1, 1),
    Standing(2, 2),
    Standing(3, 3),
    Standing(4, 3),
    Standing(5, 5, eligible=False),
    Standing(6, 6),
    Standing(7, 7),
    Standing(8, 8),
]
START = {c.participant_id: c.start_rank for c in CANDIDATES}


def places(rule: CategoryRule) -> list[tuple[int, int]]:
    return [(row.participant_id, row.place) for row in category_rows(rule, CANDIDATES, STANDINGS)]


def test_rating_from_is_inclusive_and_below_exclusive() -> None:
    # A: 1700 or more: 1 (1850) and 3 (exactly 1700); 6 (1699) is not in it.
    assert places(CategoryRule(RATING, rating_from=1700)) == [(1, 1), (3, 2)]
    # B: below 1700, unrated left out: 2 (1650), 5 (1600), 6 (1699), 7 (1500).
    assert places(CategoryRule(RATING, rating_below=1700)) == [(2, 1), (5, 2), (6, 3), (7, 4)]


def test_unrated_players_are_in_a_rating_category_only_when_it_says_so() -> None:
    # B with the unrated: 4 and 8 join; ranks 2, 3, 5, 6, 7, 8 become places 1 … 6.
    rule = CategoryRule(RATING, rating_below=1700, unrated=True)
    assert places(rule) == [(2, 1), (4, 2), (5, 3), (6, 4), (7, 5), (8, 6)]


def test_shared_ranks_stay_shared_in_the_category() -> None:
    # 1600 to below 1900 with the unrated: ranks 1, 2, 3, 3, 5, 6, 8 (7 has 1500, out)
    # become places 1, 2, 3, 3, 5, 6, 7.
    rule = CategoryRule(RATING, rating_from=1600, rating_below=1900, unrated=True)
    assert places(rule) == [(1, 1), (2, 2), (3, 3), (4, 3), (5, 5), (6, 6), (8, 7)]


def test_age_by_birth_year_both_bounds_inclusive() -> None:
    # Born 2009 to 2012: 2 (2010), 4 (2009), 6 (2012); 5 and 8 have no birth year.
    assert places(CategoryRule(AGE, born_from=2009, born_to=2012)) == [(2, 1), (4, 2), (6, 3)]
    # Born 2010 or later: 2 and 6.
    assert places(CategoryRule(AGE, born_from=2010)) == [(2, 1), (6, 2)]


def test_newcomers_and_a_hand_made_list() -> None:
    assert places(CategoryRule(NEWCOMERS)) == [(6, 1), (8, 2)]
    assert places(CategoryRule(HAND_LIST, chosen=frozenset({7, 3}))) == [(3, 1), (7, 2)]


def awarded(
    rules: list[CategoryRule], *, several: bool = True
) -> list[list[tuple[int, int | None, bool]]]:
    result = award_prizes(
        [(rule, category_rows(rule, CANDIDATES, STANDINGS)) for rule in rules],
        several_prizes=several,
        start_ranks=START,
    )
    return [
        [
            (row.participant_id, row.prize, row.most_improved)
            for row in rows
            if row.prize or row.most_improved
        ]
        for rows in result
    ]


def test_three_prizes_skip_a_player_without_enough_games() -> None:
    # B with the unrated: places 1, 2, 3 are 2, 4, 5; 5 is not eligible, so the third prize
    # goes to 6 (place 4).
    rule = CategoryRule(RATING, rating_below=1700, unrated=True, prizes=3)
    assert awarded([rule]) == [[(2, 1, False), (4, 2, False), (6, 3, False)]]


def test_the_number_of_prizes() -> None:
    rule = CategoryRule(RATING, rating_below=1700, unrated=True, prizes=1)
    assert awarded([rule]) == [[(2, 1, False)]]
    assert awarded([CategoryRule(RATING, rating_below=1700, prizes=0)]) == [[]]


def test_a_tie_on_the_last_prize_place_gives_the_prize_to_both() -> None:
    # Prize places among the eligible 1, 2, 3, 4 (ranks 1, 2, 3, 3): 3 prizes, 4 winners.
    rule = CategoryRule(RATING, rating_from=1600, rating_below=1900, unrated=True, prizes=3)
    assert awarded([rule]) == [[(1, 1, False), (2, 2, False), (3, 3, False), (4, 3, False)]]


def test_most_improved_is_start_number_minus_final_rank() -> None:
    # B with the unrated: gains 2: 5−2 = 3, 4: 7−3 = 4, 5: 3−5 = −2, 6: 8−6 = 2,
    # 7: 4−7 = −3, 8: 6−8 = −2. The largest is 4's (4), who also wins the second prize.
    rule = CategoryRule(RATING, rating_below=1700, unrated=True, prizes=3, most_improved=True)
    rows = category_rows(rule, CANDIDATES, STANDINGS)
    assert {row.participant_id: row.gain for row in rows} == {
        2: 3,
        4: 4,
        5: -2,
        6: 2,
        7: -3,
        8: -2,
    }
    assert awarded([rule]) == [[(2, 1, False), (4, 2, True), (6, 3, False)]]


def test_equal_gains_go_to_the_better_final_rank() -> None:
    # Hand list 2 (gain 5−2 = 3) and a participant with start 9 at rank 6 (gain 3): 2 wins.
    candidates = [*CANDIDATES[:5], Candidate(6, rating=1699, start_rank=9), *CANDIDATES[6:]]
    rule = CategoryRule(HAND_LIST, chosen=frozenset({2, 6}), prizes=0, most_improved=True)
    (rows,) = award_prizes([(rule, category_rows(rule, candidates, STANDINGS))], start_ranks=START)
    assert [(row.participant_id, row.gain, row.most_improved) for row in rows] == [
        (2, 3, True),
        (6, 3, False),
    ]


def test_no_most_improved_prize_without_a_gain_of_at_least_one() -> None:
    # A: 1 went from start 2 to rank 1 (gain 1); 3 from start 1 to rank 3 (gain −2).
    rule = CategoryRule(RATING, rating_from=1700, prizes=0, most_improved=True)
    assert awarded([rule]) == [[(1, None, True)]]
    # Only 3: gain −2, no prize.
    only_three = CategoryRule(HAND_LIST, chosen=frozenset({3}), prizes=0, most_improved=True)
    assert awarded([only_three]) == [[]]


def test_one_prize_per_player_passes_the_prize_on() -> None:
    # The hand list (2 and 6, one prize) comes first: 2 wins it. In B (3 prizes) 2 cannot win
    # again: 4, 6 and 7 win (5 is not eligible). The most improved of B would be 4 (gain 4),
    # who already won; 7 (−3) and 8 (−2) have no gain, so nobody gets it.
    hand = CategoryRule(HAND_LIST, chosen=frozenset({2, 6}), prizes=1)
    b = CategoryRule(RATING, rating_below=1700, unrated=True, prizes=3, most_improved=True)
    assert awarded([hand, b], several=False) == [
        [(2, 1, False)],
        [(4, 1, False), (6, 2, False), (7, 3, False)],
    ]
    # With several prizes allowed (the default) 2 wins in both.
    assert awarded([hand, b]) == [[(2, 1, False)], [(2, 1, False), (4, 2, True), (6, 3, False)]]


# --- periods ---------------------------------------------------------------------------------


def test_periods_from_their_last_rounds() -> None:
    assert periods_of([12, 24]) == (Period(1, 1, 12), Period(2, 13, 24))
    assert periods_of([]) == ()
    assert periods_of([5, 5, 3]) == (Period(1, 1, 3), Period(2, 4, 5))


def _four_rounds() -> SeasonInput:
    """A, B, C, D (ids 1-4), points system, four rounds.

    R1 A–B 1-0, C–D 1-0; R2 A–C 1-0, B–D 1-0; R3 D–A 1-0, B–C ½; R4 D–B 1-0, A–C 0-1.
    Whole season: A 2, B 1½, C 2½, D 2 (C first). Rounds 1–2: A 2, B 1, C 1, D 0 (A first).
    Rounds 3–4: D 2, C 1½, B ½, A 0 (D first).
    """
    win, draw, loss = Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS
    return SeasonInput(
        participants=tuple(
            Participant(pid, name, start_rank=pid) for pid, name in enumerate("ABCD", 1)
        ),
        rounds=(
            Round(1, (Game(1, 2, win, 1), Game(3, 4, win, 2))),
            Round(2, (Game(1, 3, win, 1), Game(2, 4, win, 2))),
            Round(3, (Game(4, 1, win, 1), Game(2, 3, draw, 2))),
            Round(4, (Game(4, 2, win, 1), Game(1, 3, loss, 2))),
        ),
        system="points",
    )


def test_each_period_has_its_own_champion() -> None:
    season = _four_rounds()
    whole = engine.standings_after(season, 4)
    assert [(row.participant_id, row.score) for row in whole.rows][:1] == [(3, Fraction(5, 2))]
    first = period_input(season, Period(1, 1, 2))
    rows = engine.standings_after(first, 2).rows
    assert [(row.participant_id, row.rank, row.score) for row in rows] == [
        (1, 1, 2),
        (2, 2, 1),
        (3, 2, 1),
        (4, 4, 0),
    ]
    second = period_input(season, Period(2, 3, 4))
    assert [rnd.number for rnd in second.rounds] == [1, 2]
    rows = engine.standings_after(second, 2).rows
    assert [(row.participant_id, row.rank, row.score) for row in rows] == [
        (4, 1, 2),
        (3, 2, Fraction(3, 2)),
        (2, 3, Fraction(1, 2)),
        (1, 4, 0),
    ]


@pytest.mark.parametrize("system", ["internal-sb", "van-den-brink", "keizer", "points"])
def test_a_period_is_ranked_by_every_system_from_its_games_alone(system: str) -> None:
    # The period 3–4 is the same as a season of just those two rounds.
    season = _four_rounds()
    season = SeasonInput(participants=season.participants, rounds=season.rounds, system=system)
    alone = SeasonInput(
        participants=season.participants,
        rounds=(Round(1, season.rounds[2].games), Round(2, season.rounds[3].games)),
        system=system,
    )
    restricted = period_input(season, Period(2, 3, 4))
    assert engine.standings_after(restricted, 2) == engine.standings_after(alone, 2)


def test_joining_and_withdrawing_are_renumbered_with_the_period() -> None:
    season = SeasonInput(
        participants=(
            Participant(1, "joins in 14", joined_round=14),
            Participant(2, "joins in 30", joined_round=30),
            Participant(3, "withdraws from 20", withdrawn_round=20),
            Participant(4, "withdraws from 10", withdrawn_round=10),
            Participant(5, "withdraws from 30", withdrawn_round=30),
        ),
        rounds=tuple(Round(n) for n in range(1, 25)),
    )
    restricted = period_input(season, Period(2, 13, 24))
    assert len(restricted.rounds) == 12
    # 1 joins in the period's round 2; 2 joins after it and 4 withdrew before it (left out);
    # 3 withdraws from the period's round 8; 5 withdraws after it.
    assert [(p.id, p.joined_round, p.withdrawn_round) for p in restricted.participants] == [
        (1, 2, None),
        (3, 1, 8),
        (5, 1, None),
    ]
