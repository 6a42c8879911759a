"""The packed fast path: every tie-break of every participant from flat integer lists.

:class:`TiebreakSheet` is the fast path. The readable rules (:mod:`.rules`) follow C.07 one
contribution at a time and make the explanations; the standings need every code for every
participant after every round, so :func:`compute_tiebreaks` and the engine use this instead.

What it packs: the season is read once (:func:`~competition.scoring.records.read_rows`) into,
per participant, running totals after every round (game points in halves; the score his
opponents' Buchholz/SB use under the season's policy, in quarters, including the C.07 16.2.5
draw for late requested byes; the progressive score; the sum of rated opponents' ratings) and
one integer that holds every counter that only grows (games, games over the board, FIDE
dummies, WIN, WON, BPG, BWG, Kashdan points, rated games and their points; 32 bits each), plus
the list of his regular games (opponent position, own halves) and of his FIDE dummies. Any
round's figures for everybody are then one pass over each participant's own contributions.

Why: the history of a 600-player season asks for every code after each of 40 rounds; the
readable rules would re-read every record each time. Integers and running totals make that
one slice per round, and values become :class:`~fractions.Fraction` only on the way out
(through a cache per denominator, as the same values recur).

It must equal the readable rules: tests/scoring/test_tiebreak_fast_path.py and
tests/scoring/test_engine_equivalence.py compare it with :func:`.rules.compute_tiebreaks_by_rules`
on random events (every code, every unplayed-round policy, Swiss and round robin, byes,
forfeits, absences, every round). A change to a rule belongs in both places.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from operator import mul

from competition.scoring.fide_tables import rating_difference
from competition.scoring.model import EntryKind, Result, SeasonInput
from competition.scoring.records import RoundRecord, Row, ScoringInputError, SeasonRows, read_rows
from competition.scoring.systems.units import FractionCache
from competition.scoring.tiebreaks.codes import (
    BUCHHOLZ_CUTS,
    KASHDAN,
    MEDIAN,
    MEDIAN_SWITCH,
    figure_codes,
    round_half_up,
)
from competition.scoring.unplayed import FIDE_POLICIES, UNPLAYED_POLICIES, Category, categorise

__all__ = ["Meetings", "TiebreakSheet", "compute_tiebreaks"]

# Own points (halves) of one participant against another, one entry per regular game.
Meetings = dict[tuple[int, int], list[int]]

_ZERO = Fraction(0)
# Shared by every computation: a figure's value recurs across rounds and seasons.
_FRACTIONS = {denominator: FractionCache(denominator, limit=50_000) for denominator in (1, 2, 4, 8)}
_NEEDS_ITEMS = frozenset({*BUCHHOLZ_CUTS, MEDIAN, "SB", "SB/C1", "AOB"})


def compute_tiebreaks(
    season: SeasonInput, *, upto_round: int, codes: Sequence[str]
) -> dict[int, dict[str, Fraction]]:
    """Every requested tie-break for every participant after ``upto_round``.

    ``DE`` is skipped: it only exists within a tied group (see
    :func:`~.direct_encounter.direct_encounter`). Example (seed 003's round robin): C drew
    A (5), B (4½), D (4), E (2½) and beat F (1) and G (0): SB = 2½ + 2¼ + 2 + 1¼ + 1 + 0 = 9.
    """
    wanted = figure_codes(codes)
    if season.unplayed_policy not in UNPLAYED_POLICIES:
        raise ScoringInputError(f"unknown unplayed-round policy {season.unplayed_policy!r}")
    return TiebreakSheet(season, read_rows(season, upto_round)).figures(upto_round, wanted)


@dataclass(slots=True)
class _Participant:
    """One participant's tie-break inputs; ``*_after[r]`` is a running total after round r."""

    points_after: list[int]  # game points, halves
    opponent_score_after: list[int]  # the score his opponents' BH/SB use (policy), quarters
    progressive_after: list[int]  # PS, halves
    counters_after: list[int]  # the _COUNTER fields, packed (see _counter)
    rating_sum_after: list[int]  # sum of the rated opponents' ratings over the board
    game_opponents: list[int]  # regular games (C.07 15.2 in a round robin): opponent position
    game_halves: list[int]  # ... and own points in that game
    played_opponents: list[int]  # opponents over the board (AOB)
    # FIDE policies: one dummy per unplayed round (Art. 16.4): (own halves, voluntary,
    # position of the scheduled opponent of a forfeit or -1)
    dummies: list[tuple[int, bool, int]]


# Counters that only grow (how many games, wins, ...) travel together in one integer, 32 bits
# each, so that a single running sum per participant gives all of them after every round. No
# counter can reach 2**32 (that would take millions of rounds).
_COUNTER_BITS = 32
_COUNTER_MASK = (1 << _COUNTER_BITS) - 1
(
    _GAMES,  # regular games
    _PLAYED,  # games over the board
    _DUMMIES,  # dummies (FIDE policies)
    _WIN,  # rounds with a win's points (Art. 7.1)
    _WON,  # wins in type-B games (Art. 7.2)
    _BPG,  # type-B games with black (Art. 7.3)
    _BWG,  # type-B wins with black (Art. 7.4)
    _KASH,  # Kashdan points (seed 002)
    _RATED,  # games over the board against rated opponents (Art. 10)
    _RATED_HALVES,  # own points in those games, halves
) = range(10)
_COUNTED = {"WIN": _WIN, "WON": _WON, "BPG": _BPG, "BWG": _BWG, "KASH": _KASH}


def _counter(packed: int, field: int) -> int:
    """One counter out of a packed running sum."""
    return (packed >> (field * _COUNTER_BITS)) & _COUNTER_MASK


def _count(field: int, amount: int = 1) -> int:
    """``amount`` added to one counter, as a packed increment."""
    return amount << (field * _COUNTER_BITS)


@dataclass(frozen=True, slots=True)
class _Kind:
    """What a round's record means for the tie-breaks; shared by every record of the same kind."""

    category: Category  # REQUESTED_BYE stands for 16.2.3 and 16.2.5 (decided per round)
    halves: int | None  # None: the points are not a multiple of ½
    regular: bool  # a regular game (over the board; in a round robin also a forfeit)
    played: bool  # over the board
    forfeit: bool  # a forfeit win or loss (also a double forfeit)
    voluntary: bool  # C.07 16.1.2
    increment: int  # packed counters, without the rated-opponent ones
    rated_increment: int  # added for a game over the board against a rated opponent


class TiebreakSheet:
    """The fast path: a season's tie-break inputs for rounds 1..rounds, packed per participant.

    Built once per season reading (``TiebreakSheet(season, rows)``); :meth:`figures` gives any
    round's figures, :meth:`meetings` the games within a group (for direct encounter). See the
    module docstring for what is packed and why; its figures must equal :mod:`.rules`.
    Example: after ``sheet = TiebreakSheet(season, read_rows(season, 3))``,
    ``sheet.figures(3, ["BH", "SB"])`` equals ``compute_tiebreaks(season, upto_round=3,
    codes=["BH", "SB"])``.
    """

    __slots__ = (
        "after_round", "bad_points", "fractions", "ids", "participants", "policy", "position",
        "rounds",
    )  # fmt: skip

    def __init__(self, season: SeasonInput, rows: SeasonRows) -> None:
        """Read ``rows`` (see :func:`read_rows`) under the season's policy."""
        ids = list(rows.rows)
        self.ids: list[int] = ids
        self.position: dict[int, int] = {pid: p for p, pid in enumerate(ids)}
        self.rounds: int = len(rows.round_numbers)
        self.policy: str = season.unplayed_policy
        # (round index, message): points not in half steps, raised when a figure reads them
        self.bad_points: list[tuple[int, str]] = []
        self.participants: list[_Participant] = []
        # Fraction caches by denominator (values repeat from round to round).
        self.fractions: dict[int, FractionCache] = _FRACTIONS
        # rounds read -> everybody's points (halves), score for opponents (quarters) and the
        # Buchholz (quarters, by position) found so far: figures() for a few members at a time
        # (the Keizer ranking) then reads them instead of computing them again
        self.after_round: dict[int, tuple[list[int], list[int], dict[int, int]]] = {}
        ratings = {p.id: p.rating for p in season.participants}
        rating_of = {pid: ratings.get(pid) or 0 for pid in ids}  # 0: unrated
        # A record's kind depends only on (result, entry, points, colour). Results and entry
        # kinds are singletons and the same Fraction objects recur, so their identities make a
        # cheap key (an Enum's own hash is computed in Python, a Fraction's too).
        kinds: dict[tuple[int, int, int, str], _Kind] = {}
        for pid in ids:
            own_rows = rows.rows[pid]
            own_kinds: list[_Kind] = []
            for index, row in enumerate(own_rows):
                key = (id(row[3]), id(row[4]), id(row[0]), row[2])
                kind = kinds.get(key)
                if kind is None:
                    kind = kinds[key] = _kind_of(
                        row[3], row[4], row[0], row[2], season.round_robin, self.policy
                    )
                if kind.halves is None:
                    message = (
                        f"round {rows.round_numbers[index]}: {row[0]} points is not a multiple "
                        "of 1/2"
                    )
                    self.bad_points.append((index, message))
                own_kinds.append(kind)
            self.participants.append(_participant(self, own_rows, own_kinds, rating_of))

    def _rounds_read(self, upto_round: int) -> int:
        return min(upto_round, self.rounds)  # the rounds read, as records_by_participant does

    def figures(
        self, upto_round: int, codes: Sequence[str], members: Collection[int] | None = None
    ) -> dict[int, dict[str, Fraction]]:
        """Every code in ``codes`` (validated, no ``DE``) after the round, for every participant
        or only for ``members`` (the same figures: each row reads only the sheet; AOB sums the
        Buchholz of the member's own opponents). The Keizer system's ranking asks for the few
        participants tied in score after each pass, not for everybody."""
        if members is None:
            positions: Sequence[int] = range(len(self.ids))
        else:
            unknown = set(members) - self.position.keys()
            if unknown:
                raise ScoringInputError(f"unknown participants: {sorted(unknown)}")
            positions = [self.position[pid] for pid in members]
        policy = self.policy
        if policy not in UNPLAYED_POLICIES:
            raise ScoringInputError(f"unknown unplayed-round policy {policy!r}")
        rounds = self._rounds_read(upto_round)
        for index, message in self.bad_points:
            if index < rounds:
                raise ScoringInputError(message)
        fide = policy in FIDE_POLICIES
        capped = policy == "fide-2026"
        people = self.participants
        after_round = self.after_round.get(rounds)
        if after_round is None:
            after_round = self.after_round[rounds] = (
                [person.points_after[rounds] for person in people],
                [person.opponent_score_after[rounds] for person in people],
                {},
            )
        # points in halves, scores for opponents in quarters, BH in quarters by position
        points, opponent_scores, buchholz = after_round
        by_quarter, by_eighth = self.fractions[4], self.fractions[8]
        by_half, by_one = self.fractions[2], self.fractions[1]
        # Which codes go where in a participant's row of figures (decided once, not per
        # participant).
        slot = {code: index for index, code in enumerate(codes)}
        buchholz_slot, sonneborn_slot, cut1_slot = slot.get("BH"), slot.get("SB"), slot.get("SB/C1")
        # BH itself cuts nothing (0, 0): its slot is filled with the total
        cuts = [
            (slot[code], *BUCHHOLZ_CUTS[code])
            for code in codes
            if code in BUCHHOLZ_CUTS and code != "BH"
        ]
        median_slot = slot.get(MEDIAN)
        koya_slot, koya_sum_slot = slot.get("KS"), slot.get("BH/KS")
        counted = [(slot[code], _COUNTED[code]) for code in codes if code in _COUNTED]
        progressive_slot, aro_slot, tpr_slot = slot.get("PS"), slot.get("ARO"), slot.get("TPR")
        aob_slot = slot.get("AOB")
        needs_items = any(code in _NEEDS_ITEMS for code in codes)
        needs_products = sonneborn_slot is not None or cut1_slot is not None
        needs_koya = koya_slot is not None or koya_sum_slot is not None
        needs_rated = aro_slot is not None or tpr_slot is not None

        two_rounds = 2 * rounds  # a draw per round in quarters, the 16.4.2 cap
        figures: list[list[Fraction]] = []
        for p in positions:
            person = people[p]
            row: list[Fraction] = [_ZERO] * len(codes)
            figures.append(row)
            counters = person.counters_after[rounds]
            opponents = person.game_opponents[: _counter(counters, _GAMES)]
            results = person.game_halves[: len(opponents)]
            if needs_items:
                # The Buchholz/SB contributions (Art. 8.1, 9.1): the opponents' scores, then
                # under FIDE one dummy per own unplayed round (Art. 16.4; capped by 16.4.1 and
                # 16.4.2 in 2026).
                bases = [opponent_scores[o] for o in opponents]
                own_results = list(results)
                volunteered: list[int] = []  # dummies of voluntary unplayed rounds (16.1.2)
                volunteered_results: list[int] = []
                if fide:
                    own_score = 2 * points[p]
                    for h, voluntary, scheduled in person.dummies[: _counter(counters, _DUMMIES)]:
                        basis = own_score
                        if capped:
                            cap = opponent_scores[scheduled] if scheduled >= 0 else two_rounds
                            if cap < basis:
                                basis = cap
                        if voluntary:
                            volunteered.append(basis)
                            volunteered_results.append(h)
                        else:
                            bases.append(basis)
                            own_results.append(h)
                total = sum(bases) + sum(volunteered)
                buchholz[p] = total  # kept for the round (AOB)
                if buchholz_slot is not None:
                    row[buchholz_slot] = by_quarter[total]
                if needs_products:
                    products = list(map(mul, bases, own_results))  # eighths
                    volunteered_products = list(map(mul, volunteered, volunteered_results))
                    sonneborn_berger = sum(products) + sum(volunteered_products)
                    if sonneborn_slot is not None:
                        row[sonneborn_slot] = by_eighth[sonneborn_berger]
                    if cut1_slot is not None:
                        cut = 0
                        if len(products) + len(volunteered_products) >= 2:
                            # Art. 14.1.1.d: the contribution of the lowest-scored opponent (the
                            # smaller product among equals); 16.5.1: a voluntary unplayed round's
                            # instead when its contribution is not lower than that.
                            _, cut = min(
                                zip(
                                    bases + volunteered,
                                    products + volunteered_products,
                                    strict=True,
                                )
                            )
                            if volunteered_products and min(volunteered_products) >= cut:
                                cut = min(volunteered_products)
                        row[cut1_slot] = by_eighth[sonneborn_berger - cut]
                if cuts or median_slot is not None:
                    bases.sort()
                    volunteered.sort()
                    for index, lowest, highest in cuts:
                        dropped = _cut_total(bases, volunteered, lowest, highest)
                        row[index] = by_quarter[total - dropped]
                    if median_slot is not None:
                        lowest = 1 if len(bases) + len(volunteered) <= MEDIAN_SWITCH else 2
                        dropped = _cut_total(bases, volunteered, lowest, lowest)
                        row[median_slot] = by_quarter[total - dropped]
            if needs_koya:
                # Art. 9.2: games against opponents with at least half the maximum
                # (halves >= rounds).
                koya = koya_scores = 0
                for o, h in zip(opponents, results, strict=True):
                    if points[o] >= rounds:
                        koya += h
                        koya_scores += points[o]
                if koya_slot is not None:
                    row[koya_slot] = by_half[koya]
                if koya_sum_slot is not None:
                    row[koya_sum_slot] = by_half[koya_scores]
            for index, field in counted:
                row[index] = by_one[_counter(counters, field)]
            if progressive_slot is not None:
                row[progressive_slot] = by_half[person.progressive_after[rounds]]
            if needs_rated:
                rated = _counter(counters, _RATED)
                rated_points = _counter(counters, _RATED_HALVES)
                rating_sum = person.rating_sum_after[rounds]
                aro = tpr = 0
                if rated:
                    aro = round_half_up(rating_sum, rated)  # Art. 10.1
                    # Art. 10.2: p = points / games rounded to hundredths, 0.005 up
                    tpr = aro + rating_difference(round_half_up(50 * rated_points, rated))
                if aro_slot is not None:
                    row[aro_slot] = by_one[aro]
                if tpr_slot is not None:
                    row[tpr_slot] = by_one[tpr]
        if aob_slot is not None:
            # Art. 8.2: the mean Buchholz of the opponents met over the board.
            met_of = [
                people[p].played_opponents[: _counter(people[p].counters_after[rounds], _PLAYED)]
                for p in positions
            ]
            if members is not None:
                # opponents outside ``members`` whose Buchholz this round has not found yet:
                # computing their BH keeps it in ``buchholz`` (the round's, shared)
                unknown = {o for met in met_of for o in met if o not in buchholz}
                if unknown:
                    self.figures(upto_round, ["BH"], [self.ids[o] for o in unknown])
            for row, met in zip(figures, met_of, strict=True):
                if met:
                    row[aob_slot] = Fraction(sum(buchholz[o] for o in met), 4 * len(met))
        ids = self.ids
        return {
            ids[p]: dict(zip(codes, row, strict=True))
            for p, row in zip(positions, figures, strict=True)
        }

    def meetings(self, upto_round: int, members: Collection[int]) -> Meetings:
        """Own points (halves) of each member against each other member, per regular game.

        In a Swiss a forfeit is no meeting (Art. 6.1.1); in a round robin it is (Art. 15.2).
        """
        members = frozenset(members)
        unknown = members - self.position.keys()
        if unknown:
            raise ScoringInputError(f"unknown participants in tied group: {sorted(unknown)}")
        rounds = self._rounds_read(upto_round)
        ids = self.ids
        meetings: Meetings = {}
        for pid in members:
            person = self.participants[self.position[pid]]
            count = _counter(person.counters_after[rounds], _GAMES)
            for o, h in zip(person.game_opponents[:count], person.game_halves[:count], strict=True):
                if ids[o] in members:
                    meetings.setdefault((pid, ids[o]), []).append(h)
        return meetings


@lru_cache(maxsize=1024)
def _kind_of(
    result: Result | None,
    entry: EntryKind | None,
    points: Fraction,
    colour: str,
    round_robin: bool,
    policy: str,
) -> _Kind:
    """The :class:`_Kind` of a record (cached: the same few kinds recur in every season)."""
    (category,) = categorise((RoundRecord(0, points, result=result, entry=entry),))
    if category is Category.LATE_REQUESTED_BYE:
        category = Category.REQUESTED_BYE  # as the last round; decided per round later
    halves = {1: 2 * points.numerator, 2: points.numerator}.get(points.denominator)
    forfeit = category in (Category.FORFEIT_WIN, Category.FORFEIT_LOSS)
    played = category is Category.PLAYED
    regular = played or (round_robin and result is not None and forfeit)  # a game has an opponent
    win = halves == 2
    increment = _count(_GAMES, regular) + _count(_PLAYED, played) + _count(_WIN, win)
    if not regular and policy in FIDE_POLICIES:
        increment += _count(_DUMMIES)
    # WON, BPG, BWG count type-B games: over the board and, in a round robin, forfeits;
    # since March 2026 not forfeit losses (Art. 15.2).
    if regular and not (policy == "fide-2026" and category is Category.FORFEIT_LOSS):
        black = colour == "b"
        increment += _count(_WON, win) + _count(_BPG, black) + _count(_BWG, black and win)
    rated_increment = 0
    if played:
        assert halves is not None  # a game's points are 0, ½ or 1
        increment += _count(_KASH, KASHDAN[halves])
        rated_increment = _count(_RATED) + _count(_RATED_HALVES, halves)
    return _Kind(
        category, halves, regular, played, forfeit, category.voluntary, increment, rated_increment
    )


def _participant(
    sheet: TiebreakSheet,
    own_rows: Sequence[Row],
    own_kinds: list[_Kind],
    rating_of: dict[int, int],
) -> _Participant:
    """One participant's running totals and contribution lists, built with C-level helpers
    (comprehensions, ``accumulate``) rather than one Python step per round and figure."""
    policy = sheet.policy
    fide = policy in FIDE_POLICIES
    position = sheet.position
    halves_list = [kind.halves or 0 for kind in own_kinds]
    points_after = list(accumulate(halves_list, initial=0))

    # Score for opponents (Art. 16.3 and the club policies), per round in quarters.
    if fide or policy == "plain":
        opponent_score_after = [2 * total for total in points_after]
        if fide and any(kind.category is Category.REQUESTED_BYE for kind in own_kinds):
            # A requested bye followed only by voluntary unplayed rounds up to round r is
            # 16.2.5 after round r and counts as a draw: add (½ - points) for each of them.
            late = 0
            for index, kind in enumerate(own_kinds):
                if not kind.voluntary:
                    late = 0
                elif kind.category is Category.REQUESTED_BYE:
                    late += 2 - 2 * halves_list[index]
                if late:
                    opponent_score_after[index + 1] += late
    else:
        # unplayed-as-draw: an unplayed round counts ½ (2 quarters); half-value: half its points
        as_draw = policy == "unplayed-as-draw"
        opponent_score_after = list(
            accumulate(
                [
                    2 * h if kind.regular else 2 if as_draw else h
                    for h, kind in zip(halves_list, own_kinds, strict=True)
                ],
                initial=0,
            )
        )

    # Rated games over the board add to RATED, RATED_HALVES and the rating sum (Art. 10).
    pairs = list(zip(own_rows, own_kinds, strict=True))
    ratings = [rating_of[row[1]] if kind.played else 0 for row, kind in pairs]  # type: ignore[index]
    counters_after = list(
        accumulate(
            [
                kind.increment + kind.rated_increment if rating else kind.increment
                for kind, rating in zip(own_kinds, ratings, strict=True)
            ],
            initial=0,
        )
    )
    rating_sum_after = list(accumulate(ratings, initial=0))
    dummies: list[tuple[int, bool, int]] = []
    if fide:
        dummies = [
            (
                kind.halves or 0,
                kind.voluntary,
                position[row[1]] if kind.forfeit and row[1] is not None else -1,
            )
            for row, kind in pairs
            if not kind.regular
        ]
    return _Participant(
        points_after,
        opponent_score_after,
        list(accumulate(points_after[1:], initial=0)),
        counters_after,
        rating_sum_after,
        [position[row[1]] for row, kind in pairs if kind.regular],  # type: ignore[index]
        [kind.halves or 0 for kind in own_kinds if kind.regular],
        [position[row[1]] for row, kind in pairs if kind.played],  # type: ignore[index]
        dummies,
    )


def _cut_total(regular: list[int], voluntary: list[int], lowest: int, highest: int) -> int:
    """What a Buchholz cut drops (C.07 Art. 14 with 16.5), from ascending contributions.

    ``lowest`` times the least significant contribution goes, a voluntary unplayed round's
    first (16.5.1; only FIDE policies pass any), then ``highest`` times the largest; the last
    contribution always stays. Example: regular [4, 6, 9], voluntary [7], lowest 1: drops 7.
    """
    alive = len(regular) + len(voluntary)
    if not voluntary:  # the usual case: the lowest and the highest of one sorted list
        low = min(lowest, alive - 1) if alive > 1 else 0
        high = min(highest, alive - low - 1) if alive - low > 1 else 0
        return sum(regular[:low]) + (sum(regular[alive - high :]) if high else 0)
    dropped = next_regular = next_voluntary = 0
    for _ in range(lowest):
        if alive <= 1:
            return dropped
        if next_voluntary < len(voluntary):
            dropped += voluntary[next_voluntary]
            next_voluntary += 1
        else:
            dropped += regular[next_regular]
            next_regular += 1
        alive -= 1
    if highest:
        rest = regular[next_regular:]
        if next_voluntary < len(voluntary):
            rest = sorted(rest + voluntary[next_voluntary:])
        for k in range(1, highest + 1):
            if alive <= 1:
                break
            dropped += rest[-k]
            alive -= 1
    return dropped
