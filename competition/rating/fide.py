"""The arithmetic of the FIDE Rating Regulations (edition effective 1 March 2024, with the
amendment of 8.3.1 effective 1 October 2025), articles 8.1.2 and 8.3, as the club rating uses it.

- :func:`expected_score`: the table of 8.1.2 converting a rating difference D into the
  scoring probability PD of the higher (H) and the lower (L) rated player, two decimals;
- :func:`counted_difference`: the 400-point rule of 8.3.1 (a larger difference counts as 400,
  for a player rated below 2650; from 2650 on the difference counts as it is);
- :func:`k_factor`: the development coefficient K of 8.3.3, with the cap K × n ≤ 700;
- :func:`rounded_change`: the rounding of the rating change of 8.3.4 (0.5 is rounded away from
  zero: +2.5 → +3, −2.5 → −3).

Worked example (8.3.2): a player rated 1850 meets one rated 1720 (D = 130, PD = 0.68 from the
table) and wins: W − We = 1 − 0.68 = 0.32; with K = 20 the change is 20 × 0.32 = 6.4, rounded 6.

>>> expected_score(counted_difference(1850 - 1720, rating=1850))
Fraction(17, 25)
>>> rounded_change(20 * (1 - expected_score(130)))
6
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

# Table 8.1.2: the largest difference D of each band and PD of the higher rated player, in
# hundredths; above 735 the higher rated player's PD is 1.00. The lower rated player's PD is
# 1 − PD(H).
_EXPECTED_BANDS: tuple[tuple[int, int], ...] = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57),
    (61, 58), (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65),
    (121, 66), (129, 67), (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73),
    (188, 74), (197, 75), (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81),
    (267, 82), (278, 83), (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89),
    (374, 90), (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97),
    (619, 98), (735, 99),
)  # fmt: skip

MAX_DIFFERENCE = 400  # 8.3.1
NO_LIMIT_FROM = 2650  # 8.3.1 (from 1 October 2025): the 400-point rule only below this rating
TOP_RATING = 2400  # 8.3.3: K = 10 once reached
NEW_PLAYER_GAMES = 30  # 8.3.3: K = 40 until this many games
JUNIOR_BELOW = 2300  # 8.3.3: juniors keep K = 40 below this rating
JUNIOR_AGE = 18  # 8.3.3: until the end of the year of the 18th birthday
MOST_K_TIMES_GAMES = 700  # 8.3.3: K × n in one rating period at most


def higher_rated_expectation(difference: int) -> Fraction:
    """PD of the higher rated player for a rating difference ``difference`` ≥ 0 (table 8.1.2).

    >>> higher_rated_expectation(0), higher_rated_expectation(4)
    (Fraction(1, 2), Fraction(51, 100))
    >>> higher_rated_expectation(400), higher_rated_expectation(736)
    (Fraction(23, 25), Fraction(1, 1))
    """
    if difference < 0:
        raise ValueError(f"a difference of ratings is at least 0, not {difference}")
    for largest, hundredths in _EXPECTED_BANDS:
        if difference <= largest:
            return Fraction(hundredths, 100)
    return Fraction(1)


def _hundredths_by_difference() -> tuple[int, ...]:
    """PD(H) in hundredths for every difference from 0 to 736 (the last: 736 and above)."""
    table = []
    band = 0
    for difference in range(737):
        while band < len(_EXPECTED_BANDS) and difference > _EXPECTED_BANDS[band][0]:
            band += 1
        table.append(_EXPECTED_BANDS[band][1] if band < len(_EXPECTED_BANDS) else 100)
    return tuple(table)


_BY_DIFFERENCE = _hundredths_by_difference()


def expected_hundredths(difference: int) -> int:
    """We in hundredths (table 8.1.2) for a player ``difference`` points above his opponent
    (below for a negative difference): the ledger's fast path.

    >>> expected_hundredths(100), expected_hundredths(-100), expected_hundredths(-900)
    (64, 36, 0)
    """
    if difference >= 0:
        return _BY_DIFFERENCE[min(difference, 736)]
    return 100 - _BY_DIFFERENCE[min(-difference, 736)]


def expected_score(difference: int) -> Fraction:
    """We: the expected score of a player whose rating is ``difference`` above his opponent's
    (below for a negative difference), from table 8.1.2; PD(L) = 1 − PD(H).

    >>> expected_score(100), expected_score(-100)
    (Fraction(16, 25), Fraction(9, 25))
    """
    if difference >= 0:
        return higher_rated_expectation(difference)
    return 1 - higher_rated_expectation(-difference)


def counted_difference(difference: int, *, rating: int) -> int:
    """The difference ``difference`` (own rating − opponent's) as the calculation of a player
    rated ``rating`` counts it (8.3.1): beyond ±400 it counts as ±400 for a player rated below
    2650; for a player rated 2650 or more the difference counts as it is. The two players of
    one game may therefore count one difference differently (2813 against 2400: +413 for the
    first, −400 for the second).

    >>> counted_difference(512, rating=2000), counted_difference(-401, rating=1800)
    (400, -400)
    >>> counted_difference(-399, rating=1800), counted_difference(413, rating=2813)
    (-399, 413)
    >>> counted_difference(-413, rating=2400)
    -400
    """
    if rating >= NO_LIMIT_FROM:
        return difference
    return max(-MAX_DIFFERENCE, min(MAX_DIFFERENCE, difference))


@dataclass(frozen=True, slots=True)
class KRules:
    """The K values (8.3.3); a club may set its own, the thresholds are FIDE's."""

    new_player: int = 40  # until NEW_PLAYER_GAMES games
    standard: int = 20  # below TOP_RATING
    top: int = 10  # once TOP_RATING was reached
    junior: int = 40  # juniors below JUNIOR_BELOW
    new_player_games: int = NEW_PLAYER_GAMES


FIDE_K = KRules()


def k_factor(
    *,
    rating: int,
    games_before: int,
    reached_top: bool,
    reached_junior_limit: bool = False,
    birth_year: int | None,
    year: int,
    games: int,
    rules: KRules = FIDE_K,
) -> int:
    """K for a rating period of ``games`` games in ``year`` (8.3.3).

    ``rating`` is the rating before the period, ``games_before`` the rated games before it,
    ``reached_top`` whether the rating was ever 2400 or more, ``reached_junior_limit`` whether
    it was ever 2300 or more. 8.3.3 lists its four rules without an order; they are applied in
    the order FIDE's published K values follow (docs/ratings.md): K = 10 once 2400 was reached
    (also for a player with fewer than 30 games); a junior (until the end of the year of his
    18th birthday, when the birth year is known) whose rating has remained under 2300 has
    K = 40; else K = 40 until 30 games, 20 otherwise. If K × n exceeds 700, K becomes the
    largest whole number with K × n ≤ 700.

    >>> k_factor(rating=1800, games_before=12, reached_top=False, birth_year=None,
    ...          year=2026, games=2)
    40
    >>> k_factor(rating=2250, games_before=80, reached_top=False, birth_year=2008,
    ...          year=2026, games=3)
    40
    >>> k_factor(rating=2250, games_before=80, reached_top=True, birth_year=2008,
    ...          year=2026, games=3)
    10
    >>> k_factor(rating=2390, games_before=80, reached_top=True, birth_year=1990,
    ...          year=2026, games=3)
    10
    >>> k_factor(rating=1800, games_before=5, reached_top=False, birth_year=None,
    ...          year=2026, games=18)
    38
    """
    if games < 1:
        raise ValueError("a rating period without games has no K")
    junior = birth_year is not None and year <= birth_year + JUNIOR_AGE
    if reached_top:
        k = rules.top
    elif junior and not reached_junior_limit and rating < JUNIOR_BELOW:
        k = rules.junior
    elif games_before < rules.new_player_games:
        k = rules.new_player
    else:
        k = rules.standard
    if k * games > MOST_K_TIMES_GAMES:
        k = MOST_K_TIMES_GAMES // games
    return k


def rounded_change(change: Fraction) -> int:
    """The rating change rounded to the nearest whole number, 0.5 rounded away from zero
    (8.3.4): a gain of 2.5 becomes a gain of 3, a loss of 2.5 a loss of 3.

    >>> rounded_change(Fraction(64, 10)), rounded_change(Fraction(5, 2))
    (6, 3)
    >>> rounded_change(Fraction(-5, 2))
    -3
    >>> rounded_change(Fraction(-26, 10)), rounded_change(Fraction(-24, 10))
    (-3, -2)
    """
    magnitude = math.floor(abs(change) + Fraction(1, 2))
    return magnitude if change >= 0 else -magnitude


def rounded_hundredths(hundredths: int) -> int:
    """:func:`rounded_change` of ``hundredths`` / 100, in whole numbers only (the ledger's
    fast path).

    >>> rounded_hundredths(640), rounded_hundredths(-250), rounded_hundredths(-1440)
    (6, -3, -14)
    """
    magnitude = (abs(hundredths) + 50) // 100
    return magnitude if hundredths >= 0 else -magnitude
