"""FIDE's rating arithmetic (Rating Regulations 8.1.2 and 8.3): tables of cases worked out by
hand from the regulations' text, not from the code."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from competition.rating.fide import (
    FIDE_K,
    KRules,
    counted_difference,
    expected_hundredths,
    expected_score,
    higher_rated_expectation,
    k_factor,
    rounded_change,
    rounded_hundredths,
)

F = Fraction


@pytest.mark.parametrize(
    ("difference", "hundredths"),
    [
        # Both ends of bands of table 8.1.2, as the regulations print them.
        (0, 50), (3, 50), (4, 51), (10, 51), (11, 52), (25, 53), (26, 54), (61, 58), (62, 59),
        (99, 64), (106, 64), (107, 65), (129, 67), (130, 68), (153, 70), (154, 71), (235, 79),
        (236, 80), (302, 85), (303, 86), (344, 88), (345, 89), (357, 89), (358, 90), (391, 91),
        (392, 92), (411, 92), (412, 93), (456, 94), (457, 95), (517, 96), (518, 97), (619, 98),
        (620, 99), (735, 99), (736, 100), (1200, 100),
    ],
)  # fmt: skip
def test_the_table_of_expected_scores(difference: int, hundredths: int) -> None:
    assert higher_rated_expectation(difference) == F(hundredths, 100)
    # The lower rated player's PD is 1 − PD(H).
    assert expected_score(-difference) == F(100 - hundredths, 100)


# Table 8.1.2 as FIDE prints it: the range of D and PD of the higher rated player; above 735,
# 1.0 (checked against a verbatim transcription of the handbook's chapter).
TABLE_8_1_2 = """
    0-3 .50   4-10 .51   11-17 .52   18-25 .53   26-32 .54   33-39 .55   40-46 .56
    47-53 .57   54-61 .58   62-68 .59   69-76 .60   77-83 .61   84-91 .62   92-98 .63
    99-106 .64   107-113 .65   114-121 .66   122-129 .67   130-137 .68   138-145 .69   146-153 .70
    154-162 .71   163-170 .72   171-179 .73   180-188 .74   189-197 .75   198-206 .76   207-215 .77
    216-225 .78   226-235 .79   236-245 .80   246-256 .81   257-267 .82   268-278 .83   279-290 .84
    291-302 .85   303-315 .86   316-328 .87   329-344 .88   345-357 .89   358-374 .90   375-391 .91
    392-411 .92   412-432 .93   433-456 .94   457-484 .95   485-517 .96   518-559 .97   560-619 .98
    620-735 .99
"""


def test_every_row_of_table_8_1_2() -> None:
    words = TABLE_8_1_2.split()
    rows = list(zip(words[::2], words[1::2], strict=True))
    assert len(rows) == 50
    for band, pd in rows:
        low, high = (int(end) for end in band.split("-"))
        for difference in range(low, high + 1):
            assert higher_rated_expectation(difference) == F(pd), difference
            assert expected_score(-difference) == 1 - F(pd), difference
    assert higher_rated_expectation(736) == 1 and expected_score(-736) == 0


def test_the_table_has_a_band_for_every_difference_and_never_goes_down() -> None:
    values = [higher_rated_expectation(d) for d in range(0, 800)]
    assert all(a <= b for a, b in itertools.pairwise(values))
    assert {v * 100 for v in values} == set(range(50, 101))  # every hundredth from .50 to 1


def test_the_fast_table_gives_the_same_hundredths() -> None:
    for difference in range(-900, 901):
        assert F(expected_hundredths(difference), 100) == expected_score(difference)


def test_a_negative_difference_is_not_a_higher_rated_players() -> None:
    with pytest.raises(ValueError):
        higher_rated_expectation(-1)


@pytest.mark.parametrize(
    ("difference", "counted", "expected"),
    [(400, 400, F(92, 100)), (401, 400, F(92, 100)), (500, 400, F(92, 100)),
     (-650, -400, F(8, 100)), (399, 399, F(92, 100)), (-12, -12, F(48, 100))],
)  # fmt: skip
def test_the_400_point_rule(difference: int, counted: int, expected: Fraction) -> None:
    """8.3.1: a difference of more than 400 counts as 400; without the rule 500 would be .95."""
    assert counted_difference(difference, rating=2000) == counted
    assert counted_difference(difference, rating=2649) == counted
    assert expected_score(counted_difference(difference, rating=2000)) == expected


@pytest.mark.parametrize(
    ("difference", "rating", "expected"),
    [(470, 2650, F(95, 100)), (800, 2700, F(1)), (413, 2813, F(93, 100)),
     (-500, 2650, F(4, 100)), (401, 2800, F(92, 100)), (736, 2736, F(1))],
)  # fmt: skip
def test_from_2650_the_difference_counts_as_it_is(
    difference: int, rating: int, expected: Fraction
) -> None:
    """8.3.1 as amended from 1 October 2025: the 400-point rule is for players rated below
    2650; for a player rated 2650 or more the difference counts as it is (470 → .95, not .92)."""
    assert counted_difference(difference, rating=rating) == difference
    assert expected_score(counted_difference(difference, rating=rating)) == expected


def test_fides_published_calculation_of_a_2813_player_against_a_2400() -> None:
    """FIDE's published rating calculation (December 2025 list) of a game between players rated
    2813 and 2400, as a public transcription of it reports: the 2813 player counts D = +413 as
    it is, PD .93 (table 412–432); his 2400 opponent sees him as 2800 (D = −400, PD .08, not
    .07). The two PDs no longer add up to 1. The same transcription reports the 2813 player's
    change for the rating period, −2.50, published as −3: 0.5 is rounded away from zero."""
    assert expected_score(counted_difference(2813 - 2400, rating=2813)) == F(93, 100)
    assert counted_difference(2400 - 2813, rating=2400) == -400
    assert expected_score(counted_difference(2400 - 2813, rating=2400)) == F(8, 100)
    assert rounded_change(F(-250, 100)) == -3


def test_fides_cap_for_39_games_in_a_period() -> None:
    """FIDE's published calculation of a player with 39 games on one list (K 20): 20 × 39 = 780
    exceeds 700, so K is 17 (17 × 39 = 663; 18 × 39 = 702 would exceed it)."""
    assert k(games=39) == 17


def k(rating: int = 1800, games_before: int = 40, reached_top: bool = False,
      reached_junior_limit: bool = False, birth_year: int | None = None, year: int = 2026,
      games: int = 2, rules: KRules = FIDE_K) -> int:  # fmt: skip
    return k_factor(
        rating=rating,
        games_before=games_before,
        reached_top=reached_top,
        reached_junior_limit=reached_junior_limit,
        birth_year=birth_year,
        year=year,
        games=games,
        rules=rules,
    )


def test_k_is_40_until_30_games_then_20() -> None:
    assert k(games_before=0) == 40
    assert k(games_before=29) == 40
    assert k(games_before=30) == 20


def test_k_is_10_once_2400_was_reached_even_below_it_again() -> None:
    assert k(rating=2450, reached_top=True) == 10
    assert k(rating=2380, reached_top=True) == 10
    assert k(rating=2380, reached_top=False) == 20


def test_k_10_comes_first_also_for_a_new_player_and_a_junior() -> None:
    """8.3.3 gives no order; FIDE's lists publish K 10 for every player rated 2400 or more with
    fewer than 30 games, so 2400 reached decides first (docs/ratings.md)."""
    assert k(rating=2450, games_before=3, reached_top=True) == 10
    assert k(rating=2250, reached_top=True, birth_year=2010) == 10


def test_juniors_keep_40_below_2300_until_the_end_of_the_year_they_turn_18() -> None:
    assert k(birth_year=2008, year=2026) == 40  # 18 this year
    assert k(birth_year=2008, year=2027) == 20  # 19 next year
    assert k(birth_year=2010, year=2026, rating=2299) == 40
    assert k(birth_year=2010, year=2026, rating=2300) == 20
    assert k(birth_year=None, year=2026) == 20  # unknown birth year: no junior rule
    # "as long as their rating remains under 2300": once 2300 was reached, back below it is
    # no longer enough.
    assert k(birth_year=2010, rating=2290, reached_junior_limit=True) == 20
    assert k(birth_year=2010, rating=2290, reached_junior_limit=True, games_before=5) == 40


def test_k_times_games_is_at_most_700() -> None:
    """8.3.3: K becomes the largest whole number such that K × n does not exceed 700."""
    assert k(games_before=0, games=17) == 40  # 680
    assert k(games_before=0, games=18) == 38  # 720 > 700: 700 // 18 = 38 (684)
    assert k(games_before=0, games=20) == 35
    assert k(games=35) == 20  # 700 exactly
    assert k(games=36) == 19


def test_the_clubs_own_k_values() -> None:
    rules = KRules(new_player=32, standard=16, top=8, junior=24)
    assert k(games_before=3, rules=rules) == 32
    assert k(rules=rules) == 16
    assert k(reached_top=True, rating=2500, rules=rules) == 8
    assert k(birth_year=2012, rules=rules) == 24


@pytest.mark.parametrize(
    ("change", "rounded"),
    [(F(64, 10), 6), (F(66, 10), 7), (F(5, 2), 3), (F(-5, 2), -3), (F(-26, 10), -3),
     (F(-24, 10), -2), (F(1, 2), 1), (F(-1, 2), -1), (F(0), 0), (F(-144, 10), -14),
     (F(-251, 100), -3), (F(-249, 100), -2), (F(15, 2), 8), (F(-15, 2), -8)],
)  # fmt: skip
def test_the_change_is_rounded_with_half_away_from_zero(change: Fraction, rounded: int) -> None:
    """8.3.4: to the nearest whole number, 0.5 rounded away from zero (−2.5 → −3)."""
    assert rounded_change(change) == rounded
    assert rounded_hundredths(int(change * 100)) == rounded


def test_a_worked_game() -> None:
    """1850 beats 1720: D = 130, PD = .68, ΔR = 1 − .68 = .32; K 20: +6.4 → +6. The loser:
    PD = .32, ΔR = −.32; K 20: −6.4 → −6."""
    we = expected_score(counted_difference(1850 - 1720, rating=1850))
    assert we == F(68, 100)
    assert rounded_change(20 * (1 - we)) == 6
    assert rounded_change(20 * (0 - expected_score(1720 - 1850))) == -6
