"""The compiled matching (rustworkx) against networkx's, the algorithm the engine used before.

networkx stays a test-only oracle: on random graphs both find matchings of the same cardinality
and total weight, and the same matching where the optimum is unique; the engine's proposals at
the real cost scale (from about 125 present with every rule on, weights beyond a signed
64-bit integer) are those it gives with
networkx's matching in its place.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import networkx as nx
import pytest
import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.pairing import PairingRequest, PlayedGame, PresentPlayer, matching, pair_round
from tests.profiles import examples

Edges = dict[tuple[int, int], int]


@st.composite
def weighted_graphs(draw: st.DrawFn) -> tuple[int, Edges]:
    """Up to 12 nodes, any edges, integer weights from small to far beyond 64 bits (the ladder's
    weights at 120 present and K = 8 need 64 bits and more)."""
    n = draw(st.integers(0, 12))
    bits = draw(st.sampled_from([4, 40, 63, 64, 90, 120]))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    edges = {pair: draw(st.integers(1, 2**bits)) for pair in chosen}
    return n, edges


def networkx_matching(n: int, edges: Edges) -> set[tuple[int, int]]:
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((i, j, w) for (i, j), w in edges.items())
    return {tuple(sorted(e)) for e in nx.max_weight_matching(graph, maxcardinality=True)}


def rustworkx_matching(n: int, edges: Edges) -> set[tuple[int, int]]:
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from([(i, j, w) for (i, j), w in edges.items()])
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return {(min(e), max(e)) for e in matching}


def value(matching: set[tuple[int, int]], edges: Edges) -> tuple[int, int]:
    """(cardinality, total weight): what a maximum-cardinality matching of maximum weight
    maximises, in that order."""
    return len(matching), sum(edges[pair] for pair in matching)


def unique_optimum(n: int, edges: Edges, matching: set[tuple[int, int]]) -> bool:
    """Whether ``matching`` is the only optimum: another optimum would miss one of its edges
    and stay optimal without it, so the optimum is unique exactly when leaving out any one of
    its edges makes the best value worse."""
    best = value(matching, edges)
    for pair in matching:
        without = {other: w for other, w in edges.items() if other != pair}
        if value(networkx_matching(n, without), without) == best:
            return False
    return True


@settings(max_examples=examples(400), deadline=None)
@given(weighted_graphs())
def test_rustworkx_finds_the_optimum_networkx_finds(graph: tuple[int, Edges]) -> None:
    n, edges = graph
    compiled, oracle = rustworkx_matching(n, edges), networkx_matching(n, edges)
    assert value(compiled, edges) == value(oracle, edges)
    if unique_optimum(n, edges, oracle):
        assert compiled == oracle


def test_a_hand_worked_graph() -> None:
    # A path 0-1-2-3 with weights 5, 10, 5: the heaviest edge alone (10) loses to the two
    # outer ones (5 + 5 = 10) on cardinality, so both give {0-1, 2-3}; with 2^100 added to
    # every weight the same holds, far beyond 64 bits.
    for base in (0, 2**100):
        edges = {(0, 1): base + 5, (1, 2): base + 10, (2, 3): base + 5}
        assert rustworkx_matching(4, edges) == networkx_matching(4, edges) == {(0, 1), (2, 3)}
    # Without max cardinality the heavy middle edge would win; a triangle plus a pendant edge
    # decides by weight among the perfect matchings: 0-1 + 2-3 (7 + 1) beats 0-2 + 1-3 (3 + 4).
    edges = {(0, 1): 7, (1, 2): 9, (0, 2): 3, (2, 3): 1, (1, 3): 4}
    assert rustworkx_matching(4, edges) == {(0, 1), (2, 3)}


def test_the_weights_are_128_bit_integers() -> None:
    # The installed rustworkx reads integer weights as i128: one above 2^64 still decides
    # exactly (two edges differing by 1 at 2^120), and one beyond 2^127 is refused instead of
    # being wrapped around silently.
    edges = {(0, 1): 2**120 + 2, (1, 2): 2**120 + 3, (2, 3): 2**120 + 2, (0, 3): 2**120}
    # {0-1, 2-3} weighs 2^121 + 4, {1-2, 0-3} 2^121 + 3.
    assert rustworkx_matching(4, edges) == {(0, 1), (2, 3)}
    edges[(0, 3)] = 2**120 + 2  # now {1-2, 0-3} weighs 2^121 + 5
    assert rustworkx_matching(4, edges) == {(0, 3), (1, 2)}
    with pytest.raises(OverflowError):
        rustworkx_matching(2, {(0, 1): 2**128})
    assert matching.WEIGHT_LIMIT < 2**127


def networkx_in_place_of_rustworkx() -> Callable[..., set[tuple[int, int]]]:
    """A stand-in for ``rx.max_weight_matching`` that asks networkx on the same graph."""

    def matching(
        graph: rx.PyGraph, *, max_cardinality: bool, weight_fn: Callable[[int], int]
    ) -> set[tuple[int, int]]:
        assert max_cardinality
        edges = {(a, b): weight_fn(payload) for a, b, payload in graph.weighted_edge_list()}
        return networkx_matching(graph.num_nodes(), edges)

    return matching


def busy_season(present: int, rematch_window: int, seed: int) -> PairingRequest:
    """Round 11 of a season whose earlier rounds the engine paired, random results, with a
    forbidden pair and at most two meetings (so the violation level is in the weights)."""
    rng = random.Random(seed)
    ids = list(range(1, present + 1))
    points = dict.fromkeys(ids, 0)
    whites, blacks = dict.fromkeys(ids, 0), dict.fromkeys(ids, 0)
    games: list[PlayedGame] = []

    def request(number: int) -> PairingRequest:
        standing = sorted(ids, key=lambda pid: (-points[pid], pid))
        return PairingRequest(
            round_number=number,
            players=tuple(
                PresentPlayer(pid, rank, whites=whites[pid], blacks=blacks[pid])
                for rank, pid in enumerate(standing, start=1)
            ),
            previous_games=tuple(games),
            rematch_window=rematch_window,
            forbidden_pairs=((1, 2), (3, 4)),
            max_meetings=2,
        )

    for number in range(1, 11):
        for board in pair_round(request(number)).boards:
            games.append(PlayedGame(number, board.white_id, board.black_id))
            whites[board.white_id] += 1
            blacks[board.black_id] += 1
            winner = rng.choice((board.white_id, board.black_id))
            points[winner] += 2
    return request(11)


@pytest.mark.parametrize(("present", "rematch_window"), [(130, 8), (150, 3), (200, 5)])
def test_proposals_at_the_real_cost_scale_equal_networkx(
    present: int, rematch_window: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = busy_season(present, rematch_window, seed=present)
    scale = matching.CostScale.for_size(present, rematch_window)
    # beyond a signed 64-bit integer, the largest weight many matching libraries take
    assert scale.ceiling(rules_active=True) > 2**63 - 1
    compiled = pair_round(request)
    monkeypatch.setattr(matching.rx, "max_weight_matching", networkx_in_place_of_rustworkx())
    assert pair_round(request) == compiled
