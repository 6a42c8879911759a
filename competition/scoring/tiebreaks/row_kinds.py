"""What a round's record means for the tie-breaks (decided once per row class); packed counters.

:mod:`.packed` reads a season as row classes (:func:`~competition.scoring.records.read_rows`);
every record of a class means the same (:class:`Kind`), so :class:`Kinds` turns a class into
its values through per-class tables (``bytes.translate`` where they fit in bytes). The
counters that only grow travel together in one integer (:func:`packed_count`,
:func:`packed_counter`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from competition.scoring.model import EntryKind, Result
from competition.scoring.records import RoundRecord, Row
from competition.scoring.tiebreaks.codes import KASHDAN
from competition.scoring.unplayed import FIDE_POLICIES, Category, categorise

# Counters that only grow (how many games, wins, ...) travel together in one integer, 32 bits
# each, so that a single running sum per participant gives all of them after every round. No
# counter can reach 2**32 (that would take millions of rounds).
COUNTER_BITS = 32
COUNTER_MASK = (1 << COUNTER_BITS) - 1
(
    GAMES,  # regular games
    PLAYED,  # games over the board
    DUMMIES,  # dummies (FIDE policies)
    WIN,  # rounds with a win's points (Art. 7.1)
    WON,  # wins in type-B games (Art. 7.2)
    BPG,  # type-B games with black (Art. 7.3)
    BWG,  # type-B wins with black (Art. 7.4)
    KASH,  # Kashdan points (seed 002)
    VOLUNTARY_DUMMIES,  # dummies of voluntary unplayed rounds (FIDE policies, 16.1.2)
) = range(9)
COUNTED = {"WIN": WIN, "WON": WON, "BPG": BPG, "BWG": BWG, "KASH": KASH}
# Where each counter starts in a packed integer: the loop over the participants reads a
# counter as ``(packed >> shift) & COUNTER_MASK`` (what packed_counter does, without a call).
PLAYED_SHIFT = PLAYED * COUNTER_BITS
DUMMIES_SHIFT = DUMMIES * COUNTER_BITS
VOLUNTARY_SHIFT = VOLUNTARY_DUMMIES * COUNTER_BITS


def packed_counter(packed: int, field: int) -> int:
    """One counter out of a packed running sum."""
    return (packed >> (field * COUNTER_BITS)) & COUNTER_MASK


def packed_count(field: int, amount: int = 1) -> int:
    """``amount`` added to one counter, as a packed increment."""
    return amount << (field * COUNTER_BITS)


@dataclass(frozen=True, slots=True)
class Kind:
    """What a round's record means for the tie-breaks; shared by every record of the same kind."""

    category: Category  # REQUESTED_BYE stands for 16.2.3 and 16.2.5 (decided per round)
    halves: int | None  # None: the points are not a multiple of ½
    regular: bool  # a regular game (over the board; in a round robin also a forfeit)
    played: bool  # over the board
    forfeit: bool  # a forfeit win or loss (also a double forfeit)
    voluntary: bool  # C.07 16.1.2
    increment: int  # packed counters, without the rated-opponent ones


# The per-class tables of the row classes seen before, by (round robin, policy, the classes):
# a season has a handful of classes and every reading of it (each round of a history, each
# request) has the same ones, so the tables are decided once, not per reading (bounded).
_KINDS: dict[tuple[object, ...], tuple[Kinds, tuple[Row, ...]]] = {}
_KINDS_LIMIT = 256


def kinds_of(class_rows: tuple[Row, ...], round_robin: bool, policy: str) -> Kinds:
    """The :class:`Kinds` of a reading's row classes (``SeasonRows.class_rows``), cached.

    The key holds each class's points as (numerator, denominator) and its result and entry kind
    by identity (hashing a Fraction or an Enum runs Python code); the cache keeps the rows it
    was built from, so no identity in a key can be reused by another object while it is held.
    """
    key = (
        round_robin,
        policy,
        *[
            (row[0].numerator, row[0].denominator, row[2], id(row[3]), id(row[4]))
            for row in class_rows
        ],
    )
    cached = _KINDS.get(key)
    if cached is None:
        if len(_KINDS) >= _KINDS_LIMIT:
            _KINDS.clear()
        kinds = Kinds(
            [kind_of(row[3], row[4], row[0], row[2], round_robin, policy) for row in class_rows],
            policy,
        )
        cached = _KINDS[key] = (kinds, class_rows)
    return cached[0]


@lru_cache(maxsize=1024)
def kind_of(
    result: Result | None,
    entry: EntryKind | None,
    points: Fraction,
    colour: str,
    round_robin: bool,
    policy: str,
) -> Kind:
    """The :class:`Kind` of a record (cached: the same few kinds recur in every season)."""
    (category,) = categorise((RoundRecord(0, points, result=result, entry=entry),))
    if category is Category.LATE_REQUESTED_BYE:
        category = Category.REQUESTED_BYE  # as the last round; decided per round later
    halves = {1: 2 * points.numerator, 2: points.numerator}.get(points.denominator)
    forfeit = category in (Category.FORFEIT_WIN, Category.FORFEIT_LOSS)
    played = category is Category.PLAYED
    regular = played or (round_robin and result is not None and forfeit)  # a game has an opponent
    win = halves == 2
    increment = packed_count(GAMES, regular) + packed_count(PLAYED, played) + packed_count(WIN, win)
    if not regular and policy in FIDE_POLICIES:
        increment += packed_count(DUMMIES) + packed_count(VOLUNTARY_DUMMIES, category.voluntary)
    # WON, BPG, BWG count type-B games: over the board and, in a round robin, forfeits;
    # since March 2026 not forfeit losses (Art. 15.2).
    if regular and not (policy == "fide-2026" and category is Category.FORFEIT_LOSS):
        black = colour == "b"
        increment += (
            packed_count(WON, win) + packed_count(BPG, black) + packed_count(BWG, black and win)
        )
    if played:
        assert halves is not None  # a game's points are 0, ½ or 1
        increment += packed_count(KASH, KASHDAN[halves])
    return Kind(category, halves, regular, played, forfeit, category.voluntary, increment)


class Table:
    """A per-class field: ``table(classes)`` gives the field of every round.

    When the classes and the values fit in bytes (a season has a handful of classes; flags and
    points in halves are small), the lookup is one ``bytes.translate``; otherwise one list
    lookup per round. Both give the same numbers.
    """

    __slots__ = ("translation", "values")

    def __init__(self, values: list[int], bytewise: bool) -> None:
        self.values = values
        self.translation: bytes | None = None
        if bytewise and all(0 <= value < 256 for value in values):
            self.translation = bytes(values) + bytes(256 - len(values))

    def __call__(self, classes: bytes | list[int]) -> bytes | list[int]:
        if self.translation is not None and isinstance(classes, bytes):
            return classes.translate(self.translation)
        return list(map(self.values.__getitem__, classes))


class Kinds:
    """The :class:`Kind` of every row class and its fields as per-class tables, so that a
    participant's rounds are looked up at C speed."""

    __slots__ = (
        "any_forfeit_dummy", "bytewise", "dummy", "forfeit", "halves", "increment", "involuntary",
        "kinds", "late_draw", "opponent_quarters", "played", "regular", "requested", "unplayed",
        "voluntary", "voluntary_dummy",
    )  # fmt: skip

    def __init__(self, kinds: list[Kind], policy: str) -> None:
        self.kinds = kinds
        # classes as bytes (see Table) when every class number fits in one
        self.bytewise = len(kinds) <= 256
        bytewise = self.bytewise
        self.halves = Table([kind.halves or 0 for kind in kinds], bytewise)
        self.regular = Table([int(kind.regular) for kind in kinds], bytewise)
        self.unplayed = Table([int(not kind.regular) for kind in kinds], bytewise)
        self.played = Table([int(kind.played) for kind in kinds], bytewise)
        self.forfeit = [kind.forfeit for kind in kinds]
        self.voluntary = Table([int(kind.voluntary) for kind in kinds], bytewise)
        # unplayed rounds (dummies under the FIDE policies), voluntary ones and the others
        self.voluntary_dummy = Table(
            [int(not kind.regular and kind.voluntary) for kind in kinds], bytewise
        )
        self.involuntary = Table(
            [int(not kind.regular and not kind.voluntary) for kind in kinds], bytewise
        )
        # 16.2.5: what a requested bye adds when it counts as a draw (½ - points, quarters)
        self.late_draw = [
            2 - 2 * (kind.halves or 0) if kind.category is Category.REQUESTED_BYE else 0
            for kind in kinds
        ]
        self.requested = Table(
            [int(kind.category is Category.REQUESTED_BYE) for kind in kinds], bytewise
        )
        self.increment = [kind.increment for kind in kinds]  # packed counters
        # the dummy of an unplayed round (FIDE policies), without the scheduled opponent of a
        # forfeit (filled in per participant)
        self.dummy = [(kind.halves or 0, kind.voluntary, -1) for kind in kinds]
        self.any_forfeit_dummy = any(kind.forfeit and not kind.regular for kind in kinds)
        # The round's part of the score opponents use, in quarters, under the club policies
        # (unplayed-as-draw: an unplayed round counts ½; half-value: half its points).
        as_draw = policy == "unplayed-as-draw"
        self.opponent_quarters = Table(
            [
                2 * (kind.halves or 0) if kind.regular else 2 if as_draw else kind.halves or 0
                for kind in kinds
            ],
            bytewise,
        )


def scheduled_dummies(
    own_classes: list[int],
    opponents: list[int | None],
    kinds: Kinds,
    position: dict[int, int],
) -> list[tuple[int, bool, int]] | None:
    """fide-2026: a participant's dummies (own halves, voluntary, position of the scheduled
    opponent or -1) when one of them is a forfeit's with a scheduled opponent (its value is
    capped by that opponent's score, Art. 16.4.1); None when there is none."""
    dummies: list[tuple[int, bool, int]] = []
    scheduled = False
    for c, opponent in zip(own_classes, opponents, strict=True):
        kind = kinds.kinds[c]
        if kind.regular:
            continue
        if kind.forfeit and opponent is not None:
            scheduled = True
            dummies.append((kind.halves or 0, kind.voluntary, position[opponent]))
        else:
            dummies.append(kinds.dummy[c])
    return dummies if scheduled else None
