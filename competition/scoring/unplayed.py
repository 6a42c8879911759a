"""How unplayed rounds enter the tie-breaks: FIDE C.07 Art. 16 and the clubs' simpler policies.

Every round of a participant falls in one category. Played games have none; unplayed rounds
get the C.07 Art. 16.2 category their club kind maps to (see docs/tiebreaks.md):

========================  ==========================================  ===========
record                    category                                    voluntary?
========================  ==========================================  ===========
bye (odd player out)      16.2.1 pairing-allocated bye                no
forfeit win               16.2.2 forfeit win                          no
absent_notice, club_duty  16.2.3 / 16.2.5 requested bye (½ or 0)     yes (VUR)
forfeit loss (also --)    16.2.4 forfeit loss                         yes (VUR)
absent_no_notice,         voluntary, no request: scored like 16.2.4   yes (VUR)
not_paired, before join   (face value), capped like 16.2.1 in 2026
game without result       pending: a zero-point non-voluntary round   no
========================  ==========================================  ===========

A requested bye is 16.2.5 (counts as a draw for the opponents, Art. 16.3) when every later
round up to the round the standings are computed for is voluntary, or when it is that round.

All values are exact integers: points in halves, scores used for Buchholz in quarters (the
``half-value`` policy needs quarters).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import IntEnum

from competition.scoring.model import EntryKind
from competition.scoring.records import RoundRecord, ScoringInputError
from competition.scoring.text import gettext_noop

UNPLAYED_POLICIES: tuple[str, ...] = (
    "fide-2024",
    "fide-2026",
    "unplayed-as-draw",
    "half-value",
    "plain",
)
FIDE_POLICIES: frozenset[str] = frozenset({"fide-2024", "fide-2026"})


class Category(IntEnum):
    """A round's category (C.07 Art. 16.2 numbers in the comments)."""

    PLAYED = 0
    PAIRING_BYE = 1  # 16.2.1 (also a full-point requested bye)
    FORFEIT_WIN = 2  # 16.2.2
    REQUESTED_BYE = 3  # 16.2.3: the participant came back afterwards
    FORFEIT_LOSS = 4  # 16.2.4
    LATE_REQUESTED_BYE = 5  # 16.2.5: followed only by voluntary unplayed rounds
    ABSENT_VOLUNTARY = 6  # absent without notice, not paired, before joining
    PENDING = 7  # a published pairing without a result

    @property
    def voluntary(self) -> bool:
        """C.07 Art. 16.1.2: voluntary unplayed rounds (VUR)."""
        return self in _VOLUNTARY


_VOLUNTARY = frozenset(
    {
        Category.REQUESTED_BYE,
        Category.FORFEIT_LOSS,
        Category.LATE_REQUESTED_BYE,
        Category.ABSENT_VOLUNTARY,
    }
)
_REQUESTED = frozenset({EntryKind.ABSENT_NOTICE, EntryKind.CLUB_DUTY})

CATEGORY_NOTES: Mapping[Category, str] = {
    Category.PLAYED: "",
    Category.PAIRING_BYE: gettext_noop("pairing-allocated bye (C.07 16.2.1)"),
    Category.FORFEIT_WIN: gettext_noop("forfeit win (C.07 16.2.2)"),
    Category.REQUESTED_BYE: gettext_noop("requested bye (C.07 16.2.3)"),
    Category.FORFEIT_LOSS: gettext_noop("forfeit loss (C.07 16.2.4)"),
    Category.LATE_REQUESTED_BYE: gettext_noop(
        "requested bye, not followed by a game (C.07 16.2.5)"
    ),
    Category.ABSENT_VOLUNTARY: gettext_noop("absent without a request (voluntary unplayed round)"),
    Category.PENDING: gettext_noop("game without a result"),
}


def halves(record: RoundRecord) -> int:
    """The round's points in half points; tie-breaks need half-point steps."""
    points = record.points  # read numerator/denominator: Fraction arithmetic is slow here
    if points.denominator == 1:
        return 2 * points.numerator
    if points.denominator == 2:
        return points.numerator
    raise ScoringInputError(
        f"round {record.round_number}: {points} points is not a multiple of 1/2"
    )


def categorise(records: Sequence[RoundRecord]) -> tuple[Category, ...]:
    """The Art. 16.2 category of every round of one participant (records in round order).

    Example: absent with notice in round 3 of 3 after two games gives
    (PLAYED, PLAYED, LATE_REQUESTED_BYE); with a game in round 4 it would be REQUESTED_BYE.
    """
    categories: list[Category] = [Category.PLAYED] * len(records)
    only_voluntary_after = True  # walking backwards: every later round is voluntary
    for index in range(len(records) - 1, -1, -1):
        record = records[index]
        if record.result is not None:
            if record.result.is_played:
                category = Category.PLAYED
            elif record.result.is_forfeit:
                category = Category.FORFEIT_WIN if record.points > 0 else Category.FORFEIT_LOSS
            else:
                category = Category.PENDING
        elif record.entry == EntryKind.BYE or (record.entry in _REQUESTED and record.points >= 1):
            category = Category.PAIRING_BYE
        elif record.entry in _REQUESTED:
            category = (
                Category.LATE_REQUESTED_BYE if only_voluntary_after else Category.REQUESTED_BYE
            )
        else:
            category = Category.ABSENT_VOLUNTARY
        categories[index] = category
        only_voluntary_after = only_voluntary_after and category.voluntary
    return tuple(categories)


def is_regular_game(category: Category, record: RoundRecord, *, round_robin: bool) -> bool:
    """A game over the board; in a round robin also a forfeit (C.07 Art. 15.2)."""
    if category is Category.PLAYED:
        return True
    return (
        round_robin
        and record.opponent is not None
        and category in (Category.FORFEIT_WIN, Category.FORFEIT_LOSS)
    )


def score_for_opponents(
    records: Sequence[RoundRecord],
    categories: Sequence[Category],
    *,
    policy: str,
    round_robin: bool,
) -> int:
    """A participant's score as his opponents' Buchholz and SB use it, in quarter points.

    - fide-2024/2026 (C.07 Art. 16.3): points awarded, except 16.2.5 rounds count as a draw.
    - unplayed-as-draw (seed 000's internal points): every unplayed round counts ½.
    - half-value (seed 002): points from unplayed rounds count half.
    - plain: the points awarded.
    Round robin: forfeits are regular games (Art. 15.2) and count at face value.

    Example: 1, bye(1), absent with notice (0) as the last round: fide 1 + 1 + ½ = 2½
    (10 quarters); unplayed-as-draw 1 + ½ + ½ = 2; half-value 1 + ½ + 0 = 1½; plain 2.
    """
    total = 0
    for record, category in zip(records, categories, strict=True):
        points = 2 * halves(record)  # quarters
        if policy in FIDE_POLICIES or policy == "plain":
            if policy != "plain" and category is Category.LATE_REQUESTED_BYE:
                points = 2
        elif not is_regular_game(category, record, round_robin=round_robin):
            points = 2 if policy == "unplayed-as-draw" else points // 2
        total += points
    return total


def dummy_score(
    category: Category,
    record: RoundRecord,
    *,
    own_score: int,
    policy: str,
    rounds: int,
    scores_for_opponents: Mapping[int, int],
) -> tuple[int, str]:
    """The dummy opponent's score (quarters) for an own unplayed round, with an explanation.

    C.07 Art. 16.4 (2024 edition): the dummy finished with the participant's own score.
    March 2026 edition: not more than the scheduled opponent's adjusted score for forfeits
    (16.4.1), not more than a draw times the number of rounds otherwise (16.4.2).
    Example (the Arbiters' Manual's Laxman, 7/10 with a zero-point bye): 2024 dummy 7,
    2026 dummy min(7, ½ × 10) = 5.
    """
    if policy == "fide-2026":
        if (
            category in (Category.FORFEIT_WIN, Category.FORFEIT_LOSS)
            and record.opponent is not None
        ):
            cap = scores_for_opponents[record.opponent]
            if cap < own_score:
                return cap, gettext_noop(
                    "dummy opponent, capped at the scheduled opponent's score (16.4.1)"
                )
        else:
            cap = 2 * rounds  # ½ point × rounds, in quarters
            if cap < own_score:
                return cap, gettext_noop("dummy opponent, capped at a draw per round (16.4.2)")
    return own_score, gettext_noop("dummy opponent with the participant's own score (16.4)")
