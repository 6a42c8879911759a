"""The matching under the ladder: a minimum-cost perfect matching of the players to pair, in
standing order, with the cost levels of :mod:`competition.pairing.ladder` as integer weights.

:func:`match_players` builds a band of the pairs at most a window of places apart (widened, up
to the complete graph, whenever the band cannot be proven to hold the optimum), weighs each pair
``ceiling − cost`` (:class:`CostScale` makes every level outweigh all totals of the levels below
it) and lets rustworkx's ``max_weight_matching`` find the maximum. :class:`WhoMayMeet` holds the
season's rules on who may meet (level 0). Example: four players in standing order, the first two
met last round: the band weighs 1-2 down by a rematch unit, and the matching is 1-3, 2-4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import rustworkx as rx

from competition.pairing.history import PairingHistory
from competition.pairing.model import (
    MAX_COLOUR_DIFFERENCE,
    Pairable,
    PairingError,
    PlayerId,
    Reason,
    ReasonKind,
)

# Edges first join players at most this many places apart in the standings; the window widens
# (up to the complete graph) whenever that cannot be proven to give the optimum.
MIN_WINDOW = 6
# rustworkx reads integer weights as 128-bit integers, and the blossom algorithm works with
# twice a weight (its dual variables); a margin below 2^127 keeps every sum exact.
WEIGHT_LIMIT = 2**125


@dataclass(frozen=True)
class WhoMayMeet:
    """The season's rules on who may meet: forbidden pairs and the most meetings per pair."""

    forbidden: frozenset[frozenset[PlayerId]]
    forbidden_pairs: tuple[tuple[PlayerId, PlayerId], ...]
    max_meetings: int | None
    history: PairingHistory

    @classmethod
    def of(
        cls,
        forbidden_pairs: tuple[tuple[PlayerId, PlayerId], ...],
        max_meetings: int | None,
        history: PairingHistory,
    ) -> WhoMayMeet:
        forbidden = frozenset(frozenset(pair) for pair in forbidden_pairs)
        return cls(forbidden, forbidden_pairs, max_meetings, history)

    @property
    def active(self) -> bool:
        return bool(self.forbidden) or self.max_meetings is not None

    def is_forbidden(self, a: PlayerId, b: PlayerId) -> bool:
        return frozenset((a, b)) in self.forbidden

    def met_enough(self, a: PlayerId, b: PlayerId) -> int | None:
        """How often a and b met, when that already reaches the maximum; else None."""
        if self.max_meetings is None:
            return None
        count = self.history.meetings(a, b)
        return count if count >= self.max_meetings else None

    def broken(self, white_id: PlayerId, black_id: PlayerId, *, fixed_by_td: bool) -> list[Reason]:
        """Notes for a board that breaks a rule (the TD's, or because nothing else was possible)."""
        notes: list[Reason] = []
        if self.is_forbidden(white_id, black_id):
            kind = (
                ReasonKind.FORBIDDEN_PAIR_FIXED_BY_TD
                if fixed_by_td
                else ReasonKind.FORBIDDEN_PAIR_UNAVOIDABLE
            )
            notes.append(Reason.of(kind, white_id=white_id, black_id=black_id))
        meetings = self.met_enough(white_id, black_id)
        if meetings is not None:
            kind = (
                ReasonKind.MAX_MEETINGS_FIXED_BY_TD
                if fixed_by_td
                else ReasonKind.MAX_MEETINGS_UNAVOIDABLE
            )
            notes.append(Reason.of(kind, white_id=white_id, black_id=black_id, meetings=meetings))
        return notes


def fewest_possible_clashes(m: int, colour_groups: tuple[list[int], list[int]]) -> int:
    """A lower bound on the colour clashes of any perfect matching of m players, with the
    positions of those at +2 or more and at -2 or less in ``colour_groups``.

    Two players clash exactly when both are at +2 or more (neither may have white) or both at
    -2 or less (neither may have black). With h players at +2 or more among m, at most m - h of
    them find a partner outside their group, so at least h - m/2 pairs inside it clash; the
    same holds for -2 or less. Example: m = 6 with h = 4 gives at least 4 - 3 = 1 clash.
    """
    must_black, must_white = colour_groups
    return max(0, len(must_black) - m // 2) + max(0, len(must_white) - m // 2)


@dataclass(frozen=True)
class CostScale:
    """Integer weights of the cost levels for m players to pair and rematch window K.

    Each unit exceeds the largest total the levels below it can reach in one matching of m/2
    pairs, which makes the sum of costs compare lexicographically.
    """

    tie_break_unit: int
    distance_unit: int
    clash_unit: int
    recency_unit: int
    rematch_unit: int
    violation_unit: int

    @classmethod
    def for_size(cls, m: int, window: int) -> CostScale:
        pairs = m // 2
        # Tie-break per pair ≤ (m-1)·m, so a matching's total < m³/2.
        distance_unit = m * m * m // 2 + 1
        # Squared distances per pair ≤ (m-1)², plus the tie-breaks below one distance unit.
        clash_unit = (pairs * m * m + 1) * distance_unit
        recency_unit = (pairs + 1) * clash_unit
        rematch_unit = (pairs * max(window, 1) + 1) * recency_unit
        # A pair's cost below this level stays under 2 rematch units.
        violation_unit = (2 * pairs + 1) * rematch_unit
        return cls(1, distance_unit, clash_unit, recency_unit, rematch_unit, violation_unit)

    def ceiling(self, rules_active: bool) -> int:
        """More than any pair's cost, so that every weight ``ceiling − cost`` is positive (a
        pair breaks at most two rules)."""
        return self.violation_unit * 3 if rules_active else self.rematch_unit * 2


@lru_cache(maxsize=256)
def _scale(m: int, window: int) -> CostScale:
    return CostScale.for_size(m, window)


@dataclass(frozen=True, eq=False)  # hashed by identity: a key of _place_weights
class _Band:
    """The graph of the pairs of m players in standing order at most ``span`` places apart.

    Node i is the player at position i; edge payloads number the edges (i, j) in the order
    i = 0, 1, ...; j = i + 1, ..., so that ``edge_of[i] + (j − i − 1)`` is the number of edge
    (i, j) and a list of weights by edge number is the matching's ``weight_fn``. The graph and
    the costs that depend only on the places (distance and rank tie-break) are the same for
    every round with m players: built once and kept.
    """

    graph: rx.PyGraph
    edge_of: tuple[int, ...]
    place_costs: tuple[int, ...]  # distance and tie-break cost of each edge, by edge number


@lru_cache(maxsize=256)
def _band(m: int, span: int, distance_unit: int) -> _Band:
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(m))
    edges: list[tuple[int, int, int]] = []
    edge_of: list[int] = []
    place_costs: list[int] = []
    for i in range(m):
        edge_of.append(len(edges))
        for j in range(i + 1, min(i + span, m - 1) + 1):
            distance = j - i
            edges.append((i, j, len(edges)))
            place_costs.append(distance_unit * distance * distance + distance * (m - i))
    graph.add_edges_from(edges)
    return _Band(graph, tuple(edge_of), tuple(place_costs))


@lru_cache(maxsize=256)
def _place_weights(band: _Band, ceiling: int) -> tuple[int, ...]:
    """``ceiling`` minus each edge's place costs: the weights before rules, rematches and
    colours, the same for every round with the band's size, window and rules."""
    return tuple(ceiling - cost for cost in band.place_costs)


def _pair_costs(
    players: Sequence[Pairable],
    history: PairingHistory,
    round_number: int,
    window: int,
    rules: WhoMayMeet,
    scale: CostScale,
) -> dict[tuple[int, int], int]:
    """The costs of levels 0-2 (rules, rematches) of the pairs that have any, by positions
    (i, j), i < j. Few pairs have one: they are found from the recent rounds and the rules,
    not by looking at every pair."""
    position = {player.player_id: index for index, player in enumerate(players)}
    find = position.get
    costs: dict[tuple[int, int], int] = {}
    for age in range(1, window + 1):  # the latest meeting first: it sets the cost
        cost = scale.rematch_unit + scale.recency_unit * (window + 1 - age)
        for a, b in history.pairs_of_round(round_number - age):
            i = find(a)
            if i is None:
                continue
            j = find(b)
            if j is None:
                continue
            key = (i, j) if i < j else (j, i)
            if key not in costs:
                costs[key] = cost
    if rules.active:
        violations: dict[tuple[int, int], int] = {}
        for a, b in rules.forbidden_pairs:
            i, j = position.get(a), position.get(b)
            if i is not None and j is not None and i != j:
                key = (i, j) if i < j else (j, i)
                violations[key] = 1  # a pair listed twice is one forbidden pair
        if rules.max_meetings is not None:
            for (a, b), count in history.meeting_counts().items():
                if count >= rules.max_meetings:
                    i, j = position.get(a), position.get(b)
                    if i is not None and j is not None:
                        key = (i, j) if i < j else (j, i)
                        violations[key] = violations.get(key, 0) + 1
        for key, count in violations.items():
            costs[key] = costs.get(key, 0) + scale.violation_unit * count
    return costs


def _colour_groups(players: Sequence[Pairable]) -> tuple[list[int], list[int]]:
    """The positions of the players at +2 or more (neither may have white: they clash with
    each other) and of those at -2 or less."""
    must_black: list[int] = []
    must_white: list[int] = []
    for i, player in enumerate(players):
        difference = player.whites - player.blacks
        if difference >= MAX_COLOUR_DIFFERENCE:
            must_black.append(i)
        elif difference <= -MAX_COLOUR_DIFFERENCE:
            must_white.append(i)
    return must_black, must_white


def _clash_pairs(groups: tuple[list[int], list[int]], span: int) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j ≤ i + span, whose colours clash: both in one of ``groups``."""
    pairs: list[tuple[int, int]] = []
    for flagged in groups:
        for index, i in enumerate(flagged):
            for j in flagged[index + 1 :]:
                if j - i > span:
                    break
                pairs.append((i, j))
    return pairs


def match_players(
    players: Sequence[Pairable],
    history: PairingHistory,
    round_number: int,
    window: int,
    rules: WhoMayMeet,
) -> list[tuple[Pairable, Pairable]]:
    """A minimum-cost perfect matching of ``players`` (even count, in standing order).

    A pair that breaks a season rule (forbidden, or met the most times allowed) costs a
    violation unit, above every other level: such a pair is made only when every perfect
    matching breaks at least as many rules.
    """
    m = len(players)
    if m == 0:
        return []
    scale = _scale(m, window)
    ceiling = scale.ceiling(rules.active)
    if ceiling >= WEIGHT_LIMIT:
        raise PairingError(f"{m} players to pair is more than the matching's weights can hold")
    pair_costs = _pair_costs(players, history, round_number, window, rules, scale)
    colour_groups = _colour_groups(players)
    unavoidable_clashes = fewest_possible_clashes(m, colour_groups)
    span = MIN_WINDOW + 2 * window
    while True:
        span = min(span, m - 1)
        band = _band(m, span, scale.distance_unit)
        edge_of = band.edge_of
        # Maximising Σ(ceiling − cost) over perfect matchings minimises Σ cost.
        weights = list(_place_weights(band, ceiling))
        for (i, j), cost in pair_costs.items():
            if j - i <= span:
                weights[edge_of[i] + j - i - 1] -= cost
        for i, j in _clash_pairs(colour_groups, span):
            weights[edge_of[i] + j - i - 1] -= scale.clash_unit
        matching = rx.max_weight_matching(
            band.graph, max_cardinality=True, weight_fn=weights.__getitem__
        )
        pairs = [(a, b) if a < b else (b, a) for a, b in matching]
        if len(pairs) * 2 == m:
            total = len(pairs) * ceiling - sum([weights[edge_of[i] + j - i - 1] for i, j in pairs])
            # Any matching with a pair more than `span` places apart costs at least
            # (span+1)² + (m/2 - 1) distance units plus the clashes no matching avoids;
            # below that, the window held the optimum.
            bound = scale.distance_unit * ((span + 1) ** 2 + m // 2 - 1)
            bound += scale.clash_unit * unavoidable_clashes
            if span == m - 1 or total < bound:
                break
        span *= 2
    pairs.sort()
    return [(players[i], players[j]) for i, j in pairs]
