"""The season's pairing rules hold on random seasons of 10 to 120 present players (hypothesis).

Forbidden pairs and the most meetings per pair are broken only when no perfect matching of the
players to pair keeps them; a rematch within the window only when no perfect matching keeps
the rules and the window; a rematch reverses the colours of the pair's latest game unless that
pushes a colour difference beyond ±2; the bye goes to a requester when the number is odd, else
to a player under the season's limit of pairing-allocated byes when there is one; every note
names a pair the proposal does not hold, kept apart by the rule it names.
"""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.pairing import (
    PairingProposal,
    PairingRequest,
    PlayedGame,
    PresentPlayer,
    ReasonKind,
    pair_round,
)
from tests.profiles import examples


@st.composite
def ruled_seasons(draw: st.DrawFn) -> PairingRequest:
    n = draw(st.integers(10, 120))
    round_number = draw(st.integers(2, 30))
    ranks = draw(st.permutations(range(1, n + 1)))
    players = []
    for pid, rank in zip(range(1, n + 1), ranks, strict=True):
        byes = draw(st.integers(0, 2))
        players.append(
            PresentPlayer(
                player_id=pid,
                rank=rank,
                whites=draw(st.integers(0, 8)),
                blacks=draw(st.integers(0, 8)),
                byes=byes,
                had_bye_last_round=draw(st.booleans()),
                allocated_byes=draw(st.integers(0, byes)),
                requested_bye=draw(st.integers(0, 15)) == 0,
            )
        )
    pool = list(range(1, n + 3))  # n + 1 and n + 2 are absent tonight
    pair = st.tuples(st.sampled_from(pool), st.sampled_from(pool)).filter(lambda p: p[0] != p[1])
    games = draw(
        st.lists(st.tuples(st.integers(1, round_number - 1), pair), min_size=n, max_size=4 * n)
    )
    forbidden = draw(st.lists(pair, max_size=n // 3))
    return PairingRequest(
        round_number=round_number,
        players=tuple(players),
        previous_games=tuple(PlayedGame(r, w, b) for r, (w, b) in games),
        rematch_window=draw(st.integers(0, 5)),
        forbidden_pairs=tuple(forbidden),
        max_meetings=draw(st.sampled_from([None, 1, 2, 3])),
        reverse_colours_at_rematch=draw(st.booleans()),
        max_allocated_byes=draw(st.sampled_from([None, 1])),
    )


def meetings(request: PairingRequest, a: int, b: int) -> list[PlayedGame]:
    return [g for g in request.previous_games if {g.white_id, g.black_id} == {a, b}]


def breaks_a_rule(request: PairingRequest, a: int, b: int) -> bool:
    forbidden = {frozenset(p) for p in request.forbidden_pairs}
    limit = request.max_meetings
    return frozenset((a, b)) in forbidden or (
        limit is not None and len(meetings(request, a, b)) >= limit
    )


def in_window(request: PairingRequest, a: int, b: int) -> bool:
    rounds = [g.round_number for g in meetings(request, a, b)]
    return bool(rounds) and request.round_number - max(rounds) <= request.rematch_window


def perfect_matching_exists(ids: list[int], allowed) -> bool:  # type: ignore[no-untyped-def]
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from((a, b) for i, a in enumerate(ids) for b in ids[i + 1 :] if allowed(a, b))
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(ids)


def paired_ids(proposal: PairingProposal) -> list[int]:
    return sorted(pid for b in proposal.boards for pid in b.player_ids)


def check_forbidden_pairs_and_most_meetings_only_when_unavoidable(
    request: PairingRequest, proposal: PairingProposal
) -> None:
    ids = paired_ids(proposal)
    assert len(ids) + (proposal.bye_id is not None) == len(request.players)
    broken = [b for b in proposal.boards if breaks_a_rule(request, b.white_id, b.black_id)]
    if broken:
        assert not perfect_matching_exists(ids, lambda a, b: not breaks_a_rule(request, a, b))
    noted = {
        frozenset((r["white_id"], r["black_id"]))
        for r in proposal.rule_notes
        if r.kind in (ReasonKind.FORBIDDEN_PAIR_UNAVOIDABLE, ReasonKind.MAX_MEETINGS_UNAVOIDABLE)
    }
    assert noted == {b.player_ids for b in broken}


def check_the_rematch_window_holds_when_the_rules_allow(
    request: PairingRequest, proposal: PairingProposal
) -> None:
    ids = paired_ids(proposal)
    broken = [b for b in proposal.boards if breaks_a_rule(request, b.white_id, b.black_id)]
    if proposal.rematches and not broken:
        assert not perfect_matching_exists(
            ids, lambda a, b: not breaks_a_rule(request, a, b) and not in_window(request, a, b)
        )


def check_a_rematch_reverses_the_colours_when_legal(
    request: PairingRequest, proposal: PairingProposal
) -> None:
    by_id = {p.player_id: p for p in request.players}
    for board in proposal.boards:
        games = meetings(request, board.white_id, board.black_id)
        if not request.reverse_colours_at_rematch or not games:
            continue
        latest = max(games, key=lambda g: g.round_number)
        reversed_ = board.white_id == latest.black_id
        white, black = by_id[latest.black_id], by_id[latest.white_id]
        reversal_legal = white.colour_difference + 1 <= 2 and black.colour_difference - 1 >= -2
        assert reversed_ or not reversal_legal, board
        if reversed_ and reversal_legal:
            assert board.colour_reason.kind in (
                ReasonKind.COLOUR_REVERSED_REMATCH,
                ReasonKind.COLOUR_DIFFERENCE_LIMIT,
            )


def check_the_bye_follows_requests_and_the_limit(
    request: PairingRequest, proposal: PairingProposal
) -> None:
    requesters = [p for p in request.players if p.requested_bye]
    by_id = {p.player_id: p for p in request.players}
    if len(request.players) % 2 == 0:
        assert proposal.bye_id is None
        assert {r["player_id"] for r in proposal.bye_reasons} == {p.player_id for p in requesters}
        assert all(r.kind == ReasonKind.BYE_REQUEST_EVEN for r in proposal.bye_reasons)
        return
    assert proposal.bye_id is not None
    bye = by_id[proposal.bye_id]
    if requesters:
        assert bye.requested_bye
        assert bye.byes == min(p.byes for p in requesters)
        taken = {
            r["player_id"] for r in proposal.bye_reasons if r.kind == ReasonKind.BYE_REQUEST_TAKEN
        }
        assert taken == {p.player_id for p in requesters} - {bye.player_id}
        return
    limit = request.max_allocated_byes
    if limit is not None and any(p.allocated_byes < limit for p in request.players):
        assert bye.allocated_byes < limit
    else:
        assert ReasonKind.BYE_LIMIT_UNAVOIDABLE in {r.kind for r in proposal.bye_reasons} or (
            limit is None
        )


def check_each_note_names_a_pair_kept_apart_by_its_rule(
    request: PairingRequest, proposal: PairingProposal
) -> None:
    made = {b.player_ids for b in proposal.boards}
    forbidden = {frozenset(p) for p in request.forbidden_pairs}
    for note in proposal.rule_notes:
        if note.kind not in (
            ReasonKind.FORBIDDEN_PAIR_AVOIDED,
            ReasonKind.MAX_MEETINGS_AVOIDED,
            ReasonKind.REMATCH_AVOIDED,
        ):
            continue
        a, b = note["a_id"], note["b_id"]
        assert frozenset((a, b)) not in made
        if note.kind == ReasonKind.FORBIDDEN_PAIR_AVOIDED:
            assert frozenset((a, b)) in forbidden
        elif note.kind == ReasonKind.MAX_MEETINGS_AVOIDED:
            assert request.max_meetings is not None
            assert len(meetings(request, a, b)) == note["meetings"] >= request.max_meetings
        else:
            assert in_window(request, a, b)
            latest = max(g.round_number for g in meetings(request, a, b))
            assert note["previous_round"] == latest


@settings(max_examples=examples(100), deadline=None)
@given(ruled_seasons())
def test_every_rule_holds_on_random_seasons(request: PairingRequest) -> None:
    """One proposal per random season, every rule checked on it (pairing 120 players takes a
    while, so the checks share it)."""
    proposal = pair_round(request)
    check_forbidden_pairs_and_most_meetings_only_when_unavoidable(request, proposal)
    check_the_rematch_window_holds_when_the_rules_allow(request, proposal)
    check_a_rematch_reverses_the_colours_when_legal(request, proposal)
    check_the_bye_follows_requests_and_the_limit(request, proposal)
    check_each_note_names_a_pair_kept_apart_by_its_rule(request, proposal)


def test_a_crowded_season_breaks_a_rule_only_when_it_must() -> None:
    """Ten players who all met twice, at most two meetings: every pair breaks the rule, so the
    engine pairs them by the ladder and notes each board as unavoidable."""
    players = tuple(PresentPlayer(player_id=pid, rank=pid) for pid in range(1, 11))
    games = tuple(
        PlayedGame(r, a, b) for r in (1, 2) for a in range(1, 11) for b in range(a + 1, 11)
    )
    request = PairingRequest(
        round_number=3, players=players, previous_games=games, rematch_window=0, max_meetings=2
    )
    proposal = pair_round(request)
    assert [sorted(b.player_ids) for b in proposal.boards] == [
        [1, 2],
        [3, 4],
        [5, 6],
        [7, 8],
        [9, 10],
    ]
    assert [r.kind for r in proposal.rule_notes] == [ReasonKind.MAX_MEETINGS_UNAVOIDABLE] * 5
    check_forbidden_pairs_and_most_meetings_only_when_unavoidable(request, proposal)
