"""The packed fast path: every tie-break of every participant from flat integer lists.

:class:`TiebreakSheet` is the fast path. The readable rules (:mod:`.rules`) follow C.07 one
contribution at a time and make the explanations; the standings need every code for every
participant after every round, so :func:`compute_tiebreaks` and the engine use this instead.

What it packs: the season is read once (:func:`~competition.scoring.records.read_rows`, as
row classes and opponents) into flat lists, every participant's rounds one after the other:
running sums over all of them (game points in halves; under the club policies the score
opponents' Buchholz/SB use, in quarters; the progressive score; one integer that holds every
counter that only grows: games, games over the board, FIDE dummies and voluntary ones, WIN,
WON, BPG, BWG, Kashdan points, 32 bits each), so that anybody's total after any round is the
difference of two entries and everybody's is two slices; and, in the same order, the regular
games (opponent position, own halves), the games over the board (opponent, running sums of
ratings, rated games and their points) and the own points of the FIDE dummies. What a round
means is decided once per row class (:mod:`.row_kinds`) and looked up through per-class tables
(``bytes.translate`` where the values fit in bytes): building the sheet is a few C-level
passes over the whole season, not per participant. Under the FIDE policies and "plain" the
score for opponents is twice the points plus the C.07 16.2.5 draws of late requested byes,
found for the round asked. Any round's figures for everybody are then one pass over each
participant's own contributions; under fide-2024 (and in 2026 without a forfeit's dummy)
every dummy of a round has the same value, so no dummy is read one by one.

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

from collections.abc import Callable, Collection, Iterable, Sequence
from fractions import Fraction
from itertools import accumulate, chain, compress, repeat
from operator import itemgetter, mul, sub
from typing import Any, cast

from competition.scoring.fide_tables import rating_difference
from competition.scoring.model import SeasonInput
from competition.scoring.records import ScoringInputError, SeasonRows, read_rows
from competition.scoring.systems.units import FractionCache
from competition.scoring.tiebreaks.codes import (
    BUCHHOLZ_CUTS,
    MEDIAN,
    MEDIAN_SWITCH,
    figure_codes,
    round_half_up,
)
from competition.scoring.tiebreaks.row_kinds import (
    COUNTED,
    COUNTER_BITS,
    COUNTER_MASK,
    DUMMIES_SHIFT,
    GAMES,
    PLAYED_SHIFT,
    VOLUNTARY_SHIFT,
    Kinds,
    kinds_of,
    packed_counter,
    scheduled_dummies,
)
from competition.scoring.unplayed import FIDE_POLICIES, UNPLAYED_POLICIES

__all__ = ["Meetings", "TiebreakSheet", "compute_tiebreaks"]

# Own points (halves) of one participant against another, one entry per regular game.
Meetings = dict[tuple[int, int], list[int]]

_ZERO = Fraction(0)
# Shared by every computation: a figure's value recurs across rounds and seasons. Filled in
# blocks of neighbouring values (see FractionCache), bounded: a computation reads compact blocks
# whatever the process computed before it.
_FRACTIONS = {
    denominator: FractionCache(denominator, limit=1 << 15, block=64) for denominator in (1, 2, 4, 8)
}
# AOB's means (numerator, denominator) -> Fraction: normalising a Fraction costs ten times a
# lookup, and a round's means recur in the next figures asked (bounded like _FRACTIONS).
_MEANS: dict[tuple[int, int], Fraction] = {}
_MEANS_LIMIT = 1 << 15
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


class TiebreakSheet:
    """The fast path: a season's tie-break inputs for rounds 1..rounds, packed in flat lists.

    Built once per season reading (``TiebreakSheet(season, rows)``); :meth:`figures` gives any
    round's figures, :meth:`meetings` the games within a group (for direct encounter). See the
    module docstring for what is packed and why; its figures must equal :mod:`.rules`.
    Example: after ``sheet = TiebreakSheet(season, read_rows(season, 3))``,
    ``sheet.figures(3, ["BH", "SB"])`` equals ``compute_tiebreaks(season, upto_round=3,
    codes=["BH", "SB"])``.

    Layout: every participant's rounds one after the other (participant ``i``'s round ``r``
    at ``i * rounds + r - 1``), so that each table is one C-level pass over the whole season;
    the running sums (``*_sums``, with a leading 0) give participant ``i``'s total after round
    ``r`` as ``sums[i * rounds + r] - sums[i * rounds]``, for everybody with two slices. The
    games (regular, over the board) and the dummies are flat lists in the same order;
    participant ``i``'s start in each is his counter before his first round (``starts``).
    """

    __slots__ = (
        "after_round", "bad_points", "counter_sums", "dummies", "fractions", "game_halves",
        "game_opponents", "ids", "involuntary_halves", "late_classes", "late_draws",
        "late_participants", "opponent_quarter_sums", "played_opponents", "point_sums", "policy",
        "position", "progressive_sums", "rated_half_sums", "rated_sums", "rating_sums", "rounds",
        "starts", "voluntary", "voluntary_halves",
    )  # fmt: skip

    def __init__(self, season: SeasonInput, rows: SeasonRows) -> None:
        """Read ``rows`` (see :func:`read_rows`) under the season's policy."""
        ids = list(rows.rows)
        self.ids: list[int] = ids
        self.position = {pid: p for p, pid in enumerate(ids)}
        rounds = self.rounds = len(rows.round_numbers)
        policy = self.policy = season.unplayed_policy
        # Fraction caches by denominator (values repeat from round to round).
        self.fractions: dict[int, FractionCache] = _FRACTIONS
        # rounds read -> everybody's points (halves), score for opponents (quarters), packed
        # counters and the Buchholz (quarters, by position) found so far: figures() for a few
        # members at a time (the Keizer ranking) then reads them instead of computing them again
        self.after_round: dict[int, tuple[list[int], list[int], list[int], dict[int, int]]] = {}
        ratings = {p.id: p.rating for p in season.participants}
        rating_by_position = [ratings.get(pid) or 0 for pid in ids]  # 0: unrated
        # A record's kind depends only on its class (points, colour, result, entry): decided
        # once per class, then every round is looked up in per-class tables.
        kinds = kinds_of(rows.class_rows, season.round_robin, policy)
        # (round index, message): points not in half steps, raised when a figure reads them
        self.bad_points: list[tuple[int, str]] = _bad_points(rows, kinds)
        all_classes = list(chain.from_iterable(map(rows.classes.__getitem__, ids)))
        classes: bytes | list[int] = bytes(all_classes) if kinds.bytewise else all_classes
        opponents = list(chain.from_iterable(map(rows.opponents.__getitem__, ids)))
        halves = kinds.halves(classes)
        point_sums = self.point_sums = list(accumulate(halves, initial=0))
        # PS: participant i after round r is the sum of his points after rounds 1..r, i.e.
        # progressive_sums[i*R + r + 1] - progressive_sums[i*R + 1] - r * point_sums[i*R]
        self.progressive_sums: list[int] = list(accumulate(point_sums, initial=0))
        counter_sums = self.counter_sums = list(
            accumulate(map(kinds.increment.__getitem__, classes), initial=0)
        )
        # where each participant's games, games over the board and dummies start
        self.starts: list[int] = counter_sums[: len(ids) * rounds : rounds] if rounds else []

        self._read_opponent_scores(kinds, classes)
        self._read_games(kinds, classes, halves, opponents, rating_by_position)
        self._read_dummies(rows, kinds, classes, halves)

    def _read_opponent_scores(self, kinds: Kinds, classes: bytes | list[int]) -> None:
        """The score for opponents: running sums, or what the 16.2.5 draws need."""
        ids, rounds, policy = self.ids, self.rounds, self.policy
        fide = policy in FIDE_POLICIES
        # Score for opponents (Art. 16.3 and the club policies), quarters: under the FIDE
        # policies and "plain" twice the points plus, under FIDE, the 16.2.5 draws (late
        # requested byes, found for the round asked); under the club policies a running sum.
        self.opponent_quarter_sums: list[int] | None = None
        # 16.2.5, under the FIDE policies: every round's class and what a requested bye adds
        # when it counts as a draw (by class), read only for the late participants' last rounds
        self.late_classes: bytes | list[int] = b""
        self.late_draws: list[int] = []
        self.voluntary: bytes = b""
        self.late_participants: list[int] = []
        if not (fide or policy == "plain"):
            self.opponent_quarter_sums = list(
                accumulate(kinds.opponent_quarters(classes), initial=0)
            )
        elif fide and rounds:
            requested = kinds.requested(classes)
            if any(requested):
                self.late_classes = classes
                self.late_draws = kinds.late_draw
                self.voluntary = bytes(kinds.voluntary(classes))
                # the participants with a requested bye
                self.late_participants = [
                    p
                    for p, first in enumerate(range(0, len(ids) * rounds, rounds))
                    if any(requested[first : first + rounds])
                ]

    def _read_games(
        self,
        kinds: Kinds,
        classes: bytes | list[int],
        halves: bytes | list[int],
        opponents: list[int | None],
        rating_by_position: list[int],
    ) -> None:
        """The regular games and the games over the board, with the running sums of ARO/TPR."""
        position = self.position
        regular = kinds.regular(classes)
        played = kinds.played(classes)
        # regular games and games over the board always have an opponent
        self.game_opponents: list[int] = list(
            map(position.__getitem__, cast(Iterable[int], compress(opponents, regular)))
        )
        self.game_halves: list[int] = list(compress(halves, regular))
        # a game over the board is a regular game: its opponent's position is already found
        self.played_opponents: list[int] = list(
            compress(self.game_opponents, compress(played, regular))
        )
        # ARO, TPR (Art. 10): running sums over the games over the board of the opponents'
        # ratings, of the games against rated opponents and of their own points (halves)
        played_ratings = list(map(rating_by_position.__getitem__, self.played_opponents))
        self.rating_sums: list[int] = list(accumulate(played_ratings, initial=0))
        # when every participant is rated, so is every opponent: the count of rated games is
        # the count of games (decided from the participants, not game by game)
        everybody_rated = all(rating_by_position)
        rated_flags = [] if everybody_rated else list(map(bool, played_ratings))
        self.rated_sums: Sequence[int] = (
            range(len(played_ratings) + 1)
            if everybody_rated
            else list(accumulate(rated_flags, initial=0))
        )
        self.rated_half_sums: list[int] = list(
            accumulate(compress(halves, played), initial=0)
            if everybody_rated
            else accumulate(map(mul, compress(halves, played), rated_flags), initial=0)
        )

    def _read_dummies(
        self,
        rows: SeasonRows,
        kinds: Kinds,
        classes: bytes | list[int],
        halves: bytes | list[int],
    ) -> None:
        """The own points of the FIDE dummies, and the fide-2026 dummies capped one by one."""
        ids, position, policy = self.ids, self.position, self.policy
        fide = policy in FIDE_POLICIES
        self.voluntary_halves: list[int] = []
        self.involuntary_halves: list[int] = []
        # fide-2026 with a forfeit's dummy capped by its scheduled opponent's score (Art.
        # 16.4.1): position -> his dummies as (own halves, voluntary, position of the scheduled
        # opponent or -1). Everybody else's dummies of a round have one value, the own score.
        self.dummies: dict[int, list[tuple[int, bool, int]]] = {}
        if fide:
            self.voluntary_halves = list(compress(halves, kinds.voluntary_dummy(classes)))
            self.involuntary_halves = list(compress(halves, kinds.involuntary(classes)))
            if policy == "fide-2026" and kinds.any_forfeit_dummy:
                for p, pid in enumerate(ids):
                    own = scheduled_dummies(rows.classes[pid], rows.opponents[pid], kinds, position)
                    if own is not None:
                        self.dummies[p] = own

    def _rounds_read(self, upto_round: int) -> int:
        return min(upto_round, self.rounds)  # the rounds read, as records_by_participant does

    def _after(self, rounds: int) -> tuple[list[int], list[int], list[int], dict[int, int]]:
        """Everybody's points (halves), score for opponents (quarters) and packed counters
        after ``rounds``, and the Buchholz found so far (kept per round)."""
        after_round = self.after_round.get(rounds)
        if after_round is not None:
            return after_round
        count = len(self.ids)
        size = count * self.rounds
        if self.rounds:
            starts = slice(0, size, self.rounds)
            now = slice(rounds, rounds + size, self.rounds)
            point_sums, counter_sums = self.point_sums, self.counter_sums
            points = list(map(sub, point_sums[now], point_sums[starts]))
            counters = list(map(sub, counter_sums[now], counter_sums[starts]))
            if self.opponent_quarter_sums is not None:
                quarter_sums = self.opponent_quarter_sums
                opponent_scores = list(map(sub, quarter_sums[now], quarter_sums[starts]))
            else:
                opponent_scores = list(map(mul, points, repeat(2)))
                # 16.2.5: a requested bye followed only by voluntary unplayed rounds up to the
                # round counts as a draw: (½ - points) is added for each requested bye in the
                # run of voluntary unplayed rounds that ends the rounds read
                voluntary, late_draws = self.voluntary, self.late_draws
                late_classes = self.late_classes
                for p in self.late_participants if rounds else ():
                    first = p * self.rounds
                    end = first + rounds
                    start = voluntary.rfind(0, first, end) + 1
                    if start < first:
                        start = first
                    if start < end:
                        opponent_scores[p] += sum(
                            map(late_draws.__getitem__, late_classes[start:end])
                        )
        else:
            points = [0] * count
            counters = [0] * count
            opponent_scores = [0] * count
        after_round = self.after_round[rounds] = (points, opponent_scores, counters, {})
        return after_round

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
        # points in halves, scores for opponents in quarters, packed counters, BH in quarters
        # by position
        points, opponent_scores, counters_now, buchholz = self._after(rounds)
        starts = self.starts
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
        counted = [(slot[code], COUNTED[code] * COUNTER_BITS) for code in codes if code in COUNTED]
        progressive_slot, aro_slot, tpr_slot = slot.get("PS"), slot.get("ARO"), slot.get("TPR")
        aob_slot = slot.get("AOB")
        needs_items = any(code in _NEEDS_ITEMS for code in codes)
        needs_products = sonneborn_slot is not None or cut1_slot is not None
        needs_koya = koya_slot is not None or koya_sum_slot is not None
        needs_rated = aro_slot is not None or tpr_slot is not None
        needs_cuts = bool(cuts) or median_slot is not None
        # The cuts' reach: the most any cut drops from below, from above and in all. While a
        # participant has more contributions than that (and his voluntary dummies are none, or
        # all one value and enough for every lowest cut and still the highest), every cut is
        # read from the same few smallest and largest contributions, found once per participant.
        most_low = max((lowest for _, lowest, _ in cuts), default=0)
        most_high = max((highest for _, _, highest in cuts), default=0)
        cut_reach = max((lowest + highest for _, lowest, highest in cuts), default=0)
        game_opponents, game_halves = self.game_opponents, self.game_halves
        everybody = members is None
        if needs_items and everybody:
            # every game's opponent score, in one pass (each participant reads his slice)
            picked_scores = list(map(opponent_scores.__getitem__, game_opponents))

        two_rounds = 2 * rounds  # a draw per round in quarters, the 16.4.2 cap
        if needs_koya:
            # Art. 9.2: opponents with at least half the maximum (halves >= rounds), by position
            strong = [score >= rounds for score in points]
            if koya_sum_slot is not None:
                strong_points = [score if score >= rounds else 0 for score in points]
        if progressive_slot is not None and self.rounds:
            size = len(self.ids) * self.rounds
            progressive_sums = self.progressive_sums
            progressive = list(
                map(
                    sub,
                    map(
                        sub,
                        progressive_sums[rounds + 1 : rounds + 1 + size : self.rounds],
                        progressive_sums[1 : 1 + size : self.rounds],
                    ),
                    map(mul, self.point_sums[0 : size : self.rounds], repeat(rounds)),
                )
            )
        elif progressive_slot is not None:
            progressive = [0] * len(self.ids)
        figures: list[list[Fraction]] = []
        for p in positions:
            row: list[Fraction] = [_ZERO] * len(codes)
            figures.append(row)
            counters = counters_now[p]
            start = starts[p] if starts else 0
            game_start = start & COUNTER_MASK  # packed_counter(start, GAMES)
            games = counters & COUNTER_MASK
            game_end = game_start + games
            if needs_items:
                # The Buchholz/SB contributions (Art. 8.1, 9.1): the opponents' scores, then
                # under FIDE one dummy per own unplayed round (Art. 16.4; capped by 16.4.1 and
                # 16.4.2 in 2026).
                if everybody:
                    bases = picked_scores[game_start:game_end]
                else:
                    bases = list(
                        map(opponent_scores.__getitem__, game_opponents[game_start:game_end])
                    )
                own_results = game_halves[game_start:game_end]
                volunteered: list[int] = []  # dummies of voluntary unplayed rounds (16.1.2)
                volunteered_results: list[int] = []
                # every volunteered dummy is worth ``basis`` (the usual FIDE case): the sums,
                # the lowest and the cuts below are then read without a pass over them
                uniform = False
                if fide and p not in self.dummies:
                    # every dummy is worth the own score (capped at a draw per round in 2026)
                    basis = 2 * points[p]
                    if capped and two_rounds < basis:
                        basis = two_rounds
                    voluntary_count = (counters >> VOLUNTARY_SHIFT) & COUNTER_MASK
                    involuntary_count = (
                        (counters >> DUMMIES_SHIFT) & COUNTER_MASK
                    ) - voluntary_count
                    voluntary_first = (start >> VOLUNTARY_SHIFT) & COUNTER_MASK
                    if involuntary_count:
                        first = ((start >> DUMMIES_SHIFT) & COUNTER_MASK) - voluntary_first
                        bases += repeat(basis, involuntary_count)
                        own_results += self.involuntary_halves[first : first + involuntary_count]
                    if voluntary_count:
                        uniform = True
                        volunteered = [basis] * voluntary_count
                        volunteered_results = self.voluntary_halves[
                            voluntary_first : voluntary_first + voluntary_count
                        ]
                        least_result = min(volunteered_results)
                elif fide:
                    own_score = 2 * points[p]
                    dummy_count = (counters >> DUMMIES_SHIFT) & COUNTER_MASK
                    for h, voluntary, scheduled in self.dummies[p][:dummy_count]:
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
                total = sum(bases)
                if volunteered:
                    total += basis * len(volunteered) if uniform else sum(volunteered)
                buchholz[p] = total  # kept for the round (AOB)
                if buchholz_slot is not None:
                    row[buchholz_slot] = by_quarter[total]
                if needs_products:
                    sonneborn_berger = sum(map(mul, bases, own_results))  # eighths
                    if uniform:
                        sonneborn_berger += basis * sum(volunteered_results)
                    elif volunteered:
                        sonneborn_berger += sum(map(mul, volunteered, volunteered_results))
                    if sonneborn_slot is not None:
                        row[sonneborn_slot] = by_eighth[sonneborn_berger]
                    if cut1_slot is not None:
                        cut = 0
                        if len(bases) + len(volunteered) >= 2:
                            # Art. 14.1.1.d: the contribution of the lowest-scored opponent (the
                            # smaller product among equals: the smaller own result, as scores
                            # are not negative); 16.5.1: a voluntary unplayed round's instead
                            # when its contribution is not lower than that.
                            lowest = _lowest_contribution(bases, own_results)
                            if volunteered:
                                lowest_volunteered = (
                                    (basis, least_result)
                                    if uniform
                                    else _lowest_contribution(volunteered, volunteered_results)
                                )
                                if lowest_volunteered is not None and (
                                    lowest is None or lowest_volunteered < lowest
                                ):
                                    lowest = lowest_volunteered
                            assert lowest is not None
                            cut = lowest[0] * lowest[1]
                            if volunteered:
                                least = (
                                    basis * least_result
                                    if uniform
                                    else min(map(mul, volunteered, volunteered_results))
                                )
                                if least >= cut:
                                    cut = least
                        row[cut1_slot] = by_eighth[sonneborn_berger - cut]
                if needs_cuts:
                    bases.sort()
                    if not uniform:
                        volunteered.sort()
                    regular_count = len(bases)
                    alive = regular_count + len(volunteered)
                    if alive > cut_reach and (
                        not volunteered or (uniform and len(volunteered) >= most_low + most_high)
                    ):
                        # Every cut at once: the lowest go in order (16.5.1: the voluntary
                        # dummies, all worth ``basis``, first) and the highest are the largest
                        # of what is left (with voluntary dummies, at least ``most_high`` of
                        # them are left after any lowest cut).
                        if volunteered:
                            lowest_drops = [basis] * most_low
                            highest_drops = (
                                sorted(bases[regular_count - most_high :] + [basis] * most_high)[
                                    -most_high:
                                ]
                                if most_high
                                else []
                            )
                        else:
                            lowest_drops = bases[:most_low]
                            highest_drops = bases[regular_count - most_high :] if most_high else []
                        low_sums = list(accumulate(lowest_drops, initial=0))
                        high_sums = list(accumulate(reversed(highest_drops), initial=0))
                        for index, lowest_cut, highest_cut in cuts:
                            row[index] = by_quarter[
                                total - low_sums[lowest_cut] - high_sums[highest_cut]
                            ]
                        cuts_left: list[tuple[int, int, int]] = []
                    else:
                        cuts_left = cuts
                    for index, lowest_cut, highest_cut in cuts_left:
                        if alive <= lowest_cut + highest_cut or (volunteered and not uniform):
                            dropped = _cut_total(bases, volunteered, lowest_cut, highest_cut)
                        elif not volunteered:  # the usual case of _cut_total, inline
                            dropped = sum(bases[:lowest_cut]) + sum(
                                bases[regular_count - highest_cut :]
                            )
                        else:
                            dropped = _uniform_cut_total(
                                bases, basis, len(volunteered), lowest_cut, highest_cut
                            )
                        row[index] = by_quarter[total - dropped]
                    if median_slot is not None:
                        lowest_cut = 1 if len(bases) + len(volunteered) <= MEDIAN_SWITCH else 2
                        dropped = _cut_total(bases, volunteered, lowest_cut, lowest_cut)
                        row[median_slot] = by_quarter[total - dropped]
            if needs_koya:
                # Art. 9.2: games against opponents with at least half the maximum
                # (halves >= rounds).
                met = game_opponents[game_start:game_end]
                if koya_slot is not None:
                    row[koya_slot] = by_half[
                        sum(
                            compress(game_halves[game_start:game_end], map(strong.__getitem__, met))
                        )
                    ]
                if koya_sum_slot is not None:
                    row[koya_sum_slot] = by_half[sum(map(strong_points.__getitem__, met))]
            for index, shift in counted:
                row[index] = by_one[(counters >> shift) & COUNTER_MASK]
            if progressive_slot is not None:
                row[progressive_slot] = by_half[progressive[p]]
            if needs_rated:
                # Art. 10: the games over the board against rated opponents, read from the
                # games over the board when asked (the sheet keeps no running totals for them)
                played_start = (start >> PLAYED_SHIFT) & COUNTER_MASK
                played_end = played_start + ((counters >> PLAYED_SHIFT) & COUNTER_MASK)
                rated = self.rated_sums[played_end] - self.rated_sums[played_start]
                aro = tpr = 0
                if rated:
                    rating_sum = self.rating_sums[played_end] - self.rating_sums[played_start]
                    rated_points = (
                        self.rated_half_sums[played_end] - self.rated_half_sums[played_start]
                    )
                    aro = round_half_up(rating_sum, rated)  # Art. 10.1
                    # Art. 10.2: p = points / games rounded to hundredths, 0.005 up
                    tpr = aro + rating_difference(round_half_up(50 * rated_points, rated))
                if aro_slot is not None:
                    row[aro_slot] = by_one[aro]
                if tpr_slot is not None:
                    row[tpr_slot] = by_one[tpr]
        if aob_slot is not None:
            # Art. 8.2: the mean Buchholz of the opponents met over the board
            met_of = []
            played_opponents = self.played_opponents
            for p in positions:
                played_start = (starts[p] >> PLAYED_SHIFT) & COUNTER_MASK if starts else 0
                played_end = played_start + ((counters_now[p] >> PLAYED_SHIFT) & COUNTER_MASK)
                met_of.append(played_opponents[played_start:played_end])
            if not everybody:
                # opponents outside ``members`` whose Buchholz this round has not found yet:
                # computing their BH keeps it in ``buchholz`` (the round's, shared)
                unknown = {o for met in met_of for o in met if o not in buchholz}
                if unknown:
                    self.figures(upto_round, ["BH"], [self.ids[o] for o in unknown])
            for row, met in zip(figures, met_of, strict=True):
                if met:
                    key = (sum(map(buchholz.__getitem__, met)), 4 * len(met))
                    mean = _MEANS.get(key)
                    if mean is None:
                        if len(_MEANS) >= _MEANS_LIMIT:
                            _MEANS.clear()
                        mean = _MEANS[key] = Fraction(*key)
                    row[aob_slot] = mean
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
        counters_now = self._after(rounds)[2]
        meetings: Meetings = {}
        for pid in members:
            p = self.position[pid]
            start = packed_counter(self.starts[p], GAMES) if self.starts else 0
            end = start + packed_counter(counters_now[p], GAMES)
            for o, h in zip(
                self.game_opponents[start:end], self.game_halves[start:end], strict=True
            ):
                if ids[o] in members:
                    meetings.setdefault((pid, ids[o]), []).append(h)
        return meetings


def _bad_points(rows: SeasonRows, kinds: Kinds) -> list[tuple[int, str]]:
    """(round index, message) of every record whose points are not in half steps."""
    bad = {c for c, kind in enumerate(kinds.kinds) if kind.halves is None}
    found: list[tuple[int, str]] = []
    if bad:
        for pid in rows.rows:
            for index, c in enumerate(rows.classes[pid]):
                if c in bad:
                    message = (
                        f"round {rows.round_numbers[index]}: {rows.class_rows[c][0]} points "
                        "is not a multiple of 1/2"
                    )
                    found.append((index, message))
    return found


def _picker(positions: list[int]) -> Callable[[Any], tuple[int, ...]]:
    """``picker(values)`` is ``tuple(values[p] for p in positions)``, in one C call.

    >>> _picker([2, 0])([10, 11, 12])
    (12, 10)
    """
    if len(positions) >= 2:
        return itemgetter(*positions)
    if positions:
        (only,) = positions
        return lambda values: (values[only],)
    return lambda values: ()


def _lowest_contribution(bases: list[int], results: list[int]) -> tuple[int, int] | None:
    """The lowest opponent score and, among equals, the lowest own result (None if empty):
    ``min(zip(bases, results))`` without a tuple per contribution.

    >>> _lowest_contribution([6, 4, 4], [2, 1, 0])
    (4, 0)
    """
    if not bases:
        return None
    lowest = min(bases)
    if bases.count(lowest) == 1:
        return lowest, results[bases.index(lowest)]
    return lowest, min(compress(results, map(lowest.__eq__, bases)))


def _uniform_cut_total(
    regular: list[int], basis: int, count: int, lowest: int, highest: int
) -> int:
    """:func:`_cut_total` when ``count`` voluntary contributions are all ``basis`` (the FIDE
    dummies of one round share the own score) and the cuts leave at least one contribution
    (``len(regular) + count > lowest + highest``).

    Example: regular [4, 6, 9], two voluntary 7s, lowest 1, highest 1: drops 7 and 9, the
    same as ``_cut_total([4, 6, 9], [7, 7], 1, 1)``.
    """
    if lowest <= count:  # 16.5.1: the voluntary ones go first
        dropped = lowest * basis
        rest = regular
        left = count - lowest
    else:
        dropped = count * basis + sum(regular[: lowest - count])
        rest = regular[lowest - count :]
        left = 0
    if highest:
        largest = rest[-highest:]
        if left:
            largest = sorted(largest + [basis] * min(left, highest))[-highest:]
        dropped += sum(largest)
    return dropped


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
    if alive > lowest + highest:  # no cut reaches the last contribution: the loops below, flat
        if lowest <= len(voluntary):
            dropped = sum(voluntary[:lowest])
            rest_regular, rest_voluntary = regular, voluntary[lowest:]
        else:
            dropped = sum(voluntary) + sum(regular[: lowest - len(voluntary)])
            rest_regular, rest_voluntary = regular[lowest - len(voluntary) :], []
        if highest:
            # the largest of both ascending lists are among the last ``highest`` of each
            largest = rest_regular[-highest:]
            if rest_voluntary:
                largest = sorted(largest + rest_voluntary[-highest:])
            dropped += sum(largest[-highest:])
        return dropped
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
