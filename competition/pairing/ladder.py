"""Pairing a club evening: the standings ladder as a minimum-cost perfect matching.

Source: the club practice in DOMAIN.md ("Pairing a club evening"; see docs/sources.md). Present
players are sorted by the current standings and paired 1-2, 3-4, ...; a pair that met within the
last K rounds is not paired again if avoidable; the odd player out gets the bye; colours follow
whites, then the previous game between the two, then rank. The TD may fix boards and the bye;
the engine pairs the rest.

Example: four present players ranked 1-4, nobody has a bye problem, 1 and 2 met last round
(K = 3). Pairing 1-2, 3-4 would repeat a game, so the engine proposes 1-3 and 2-4: in squared
standing distances that costs 2² + 2² = 8, against 3² + 1² = 10 for 1-4, 2-3.

The cost of a pair, compared lexicographically (each level outweighs every total of the levels
below it, so a lower level only decides between equals of the levels above):

0. a season rule broken: a forbidden pair, or a pair that met the season's most times;
1. a rematch within the window (so one only happens when every pairing has as many);
2. how recent that rematch is (an unavoidable rematch goes to the pair that met longest ago);
3. a colour clash: neither colour keeps both players' colour difference within ±2;
4. the squared distance in the standings (convex, so 1-2, 3-4 beats 1-3, 2-4);
5. a tie-break by rank: distance weighs more for higher-ranked players.

The bye is chosen before the matching: a requested bye first (odd number to pair), else the
lowest-ranked player with the fewest byes, not twice in a row and not beyond the season's
pairing-allocated byes if avoidable. The proposal notes which pairs of the plain ladder
(1-2, 3-4, ... in standing order) a rule kept apart.

All costs are integers, the players enter the graph in standing order, and networkx's blossom
algorithm is deterministic, so the same request always gives the same proposal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from competition.pairing.model import (
    MAX_COLOUR_DIFFERENCE,
    Board,
    FixedBoard,
    PairingError,
    PairingProposal,
    PairingRequest,
    PlayedGame,
    PlayerId,
    PresentPlayer,
    Reason,
    ReasonKind,
)

# Edges first join players at most this many places apart in the standings; the window widens
# (up to the complete graph) whenever that cannot be proven to give the optimum.
_MIN_WINDOW = 6


def pair_round(request: PairingRequest) -> PairingProposal:
    """Propose the pairing of ``request.round_number``; see the module docstring for the rules."""
    _validate(request)
    ordered = _standing_order(request.players)
    position = {player.player_id: index for index, player in enumerate(ordered)}
    by_id = {player.player_id: player for player in ordered}
    last_meeting = _last_meetings(request.previous_games)
    rules = _Rules.of(request)

    fixed_ids = {pid for board in request.fixed_boards for pid in (board.white_id, board.black_id)}
    free = [player for player in ordered if player.player_id not in fixed_ids]
    bye, bye_reasons = _choose_bye(free, request.fixed_bye, request.max_allocated_byes)
    for player in ordered:  # a requester the TD put on a fixed board
        if player.requested_bye and player.player_id in fixed_ids:
            bye_reasons.append(
                Reason.of(
                    ReasonKind.BYE_REQUEST_TAKEN, player_id=player.player_id, bye_id=bye.player_id
                )
                if bye
                else Reason.of(ReasonKind.BYE_REQUEST_EVEN, player_id=player.player_id)
            )
    to_pair = [player for player in free if player is not bye]

    window = request.rematch_window
    matched = _match(to_pair, last_meeting, request.round_number, window, rules)
    rule_notes = _avoided(to_pair, matched, last_meeting, request.round_number, window, rules)
    pairs: list[tuple[PresentPlayer, PresentPlayer, FixedBoard | None]] = [
        (a, b, None) for a, b in matched
    ]
    pairs += [(by_id[f.white_id], by_id[f.black_id], f) for f in request.fixed_boards]
    pairs.sort(key=lambda pair: sorted((position[pair[0].player_id], position[pair[1].player_id])))

    boards: list[Board] = []
    rematches: list[Reason] = []
    colour_notes: list[Reason] = []
    for number, (a, b, fixed) in enumerate(pairs, start=1):
        if fixed is not None:
            white, black = by_id[fixed.white_id], by_id[fixed.black_id]
            colour_reason = Reason.of(ReasonKind.COLOUR_FIXED_BY_TD, board=number)
            notes: list[Reason] = []
        else:
            higher, lower = sorted((a, b), key=lambda p: position[p.player_id])
            previous = last_meeting.get(frozenset((a.player_id, b.player_id)))
            white, black, colour_reason, notes = _colours(
                higher,
                lower,
                previous,
                number,
                reverse_at_rematch=request.reverse_colours_at_rematch,
            )
        boards.append(
            Board(
                number=number,
                white_id=white.player_id,
                black_id=black.player_id,
                fixed_by_td=fixed is not None,
                colour_reason=colour_reason,
            )
        )
        colour_notes += [colour_reason, *notes]
        age = _rematch_age(last_meeting, a.player_id, b.player_id, request.round_number, window)
        if age is not None:
            kind = ReasonKind.REMATCH_FIXED_BY_TD if fixed else ReasonKind.REMATCH_UNAVOIDABLE
            rematches.append(
                Reason.of(
                    kind,
                    white_id=white.player_id,
                    black_id=black.player_id,
                    previous_round=request.round_number - age,
                )
            )
        rule_notes += rules.broken(white.player_id, black.player_id, fixed_by_td=fixed is not None)

    return PairingProposal(
        round_number=request.round_number,
        boards=tuple(boards),
        bye_id=bye.player_id if bye else None,
        bye_reasons=tuple(bye_reasons),
        rematches=tuple(rematches),
        colour_notes=tuple(colour_notes),
        rule_notes=tuple(rule_notes),
    )


@dataclass(frozen=True)
class _Rules:
    """The season's rules on who may meet: forbidden pairs and the most meetings per pair."""

    forbidden: frozenset[frozenset[PlayerId]]
    meetings: dict[frozenset[PlayerId], int]
    max_meetings: int | None

    @classmethod
    def of(cls, request: PairingRequest) -> _Rules:
        meetings: dict[frozenset[PlayerId], int] = {}
        if request.max_meetings is not None:
            for game in request.previous_games:
                pair = frozenset((game.white_id, game.black_id))
                meetings[pair] = meetings.get(pair, 0) + 1
        return cls(
            forbidden=frozenset(frozenset(pair) for pair in request.forbidden_pairs),
            meetings=meetings,
            max_meetings=request.max_meetings,
        )

    @property
    def active(self) -> bool:
        return bool(self.forbidden) or self.max_meetings is not None

    def is_forbidden(self, a: PlayerId, b: PlayerId) -> bool:
        return frozenset((a, b)) in self.forbidden

    def met_enough(self, a: PlayerId, b: PlayerId) -> int | None:
        """How often a and b met, when that already reaches the maximum; else None."""
        if self.max_meetings is None:
            return None
        count = self.meetings.get(frozenset((a, b)), 0)
        return count if count >= self.max_meetings else None

    def violations(self, a: PlayerId, b: PlayerId) -> int:
        return int(self.is_forbidden(a, b)) + int(self.met_enough(a, b) is not None)

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


_NO_RULES = _Rules(forbidden=frozenset(), meetings={}, max_meetings=None)


def _avoided(
    to_pair: Sequence[PresentPlayer],
    matched: Sequence[tuple[PresentPlayer, PresentPlayer]],
    last_meeting: dict[frozenset[PlayerId], PlayedGame],
    round_number: int,
    window: int,
    rules: _Rules,
) -> list[Reason]:
    """Which pairs of the plain ladder the rules kept apart, and which rule did it.

    The plain ladder pairs the players to pair in standing order 1-2, 3-4, ... (DOMAIN.md's
    rule before any exception). Each of its pairs that the proposal does not hold and that a
    rule forbids is named; the first rule that applies in the order forbidden pair, most
    meetings, rematch window. Example: ranks 1-4, 1 and 2 a forbidden pair: the ladder would
    pair 1-2, the proposal pairs 1-3 and 2-4, the note says "1 and 2 not paired: forbidden
    pair"; 3-4 is not noted (no rule keeps them apart, they moved because 1 and 2 did).
    """
    made = {frozenset((a.player_id, b.player_id)) for a, b in matched}
    notes: list[Reason] = []
    for a, b in zip(to_pair[::2], to_pair[1::2], strict=True):
        ids = {"a_id": a.player_id, "b_id": b.player_id}
        if frozenset(ids.values()) in made:
            continue
        meetings = rules.met_enough(a.player_id, b.player_id)
        age = _rematch_age(last_meeting, a.player_id, b.player_id, round_number, window)
        if rules.is_forbidden(a.player_id, b.player_id):
            notes.append(Reason.of(ReasonKind.FORBIDDEN_PAIR_AVOIDED, **ids))
        elif meetings is not None:
            notes.append(Reason.of(ReasonKind.MAX_MEETINGS_AVOIDED, **ids, meetings=meetings))
        elif age is not None:
            notes.append(
                Reason.of(ReasonKind.REMATCH_AVOIDED, **ids, previous_round=round_number - age)
            )
    return notes


def _validate(request: PairingRequest) -> None:
    if request.round_number < 1:
        raise PairingError(f"round number must be at least 1, got {request.round_number}")
    if request.rematch_window < 0:
        raise PairingError(f"rematch window must not be negative, got {request.rematch_window}")
    present: set[PlayerId] = set()
    for player in request.players:
        if player.player_id in present:
            raise PairingError(f"player {player.player_id} is listed twice")
        if min(player.whites, player.blacks, player.byes) < 0:
            raise PairingError(f"player {player.player_id} has a negative count")
        present.add(player.player_id)
    for game in request.previous_games:
        if game.round_number >= request.round_number:
            raise PairingError(
                f"game {game.white_id}-{game.black_id} of round {game.round_number} is not "
                f"before round {request.round_number}"
            )
    fixed: set[PlayerId] = set()
    for board in request.fixed_boards:
        for player_id in (board.white_id, board.black_id):
            if player_id not in present:
                raise PairingError(f"fixed board: player {player_id} is not present")
            if player_id in fixed:
                raise PairingError(f"fixed board: player {player_id} is on two boards")
            fixed.add(player_id)
    for a, b in request.forbidden_pairs:
        if a == b:
            raise PairingError(f"forbidden pair: player {a} cannot be paired with himself")
    if request.max_meetings is not None and request.max_meetings < 1:
        raise PairingError(f"max meetings must be at least 1, got {request.max_meetings}")
    if request.max_allocated_byes is not None and request.max_allocated_byes < 0:
        raise PairingError(f"max byes must not be negative, got {request.max_allocated_byes}")
    for player in request.players:
        if not 0 <= player.allocated_byes <= player.byes:
            raise PairingError(
                f"player {player.player_id}: allocated byes must be between 0 and his byes"
            )
    if request.fixed_bye is not None:
        if request.fixed_bye not in present:
            raise PairingError(f"fixed bye: player {request.fixed_bye} is not present")
        if request.fixed_bye in fixed:
            raise PairingError(f"fixed bye: player {request.fixed_bye} is on a fixed board")


def _standing_order(players: Iterable[PresentPlayer]) -> list[PresentPlayer]:
    """By rank; the request's order decides between equal ranks (``sorted`` is stable)."""
    return sorted(players, key=lambda player: player.rank)


def _last_meetings(games: Iterable[PlayedGame]) -> dict[frozenset[PlayerId], PlayedGame]:
    """The most recent game of every pair that has met."""
    last: dict[frozenset[PlayerId], PlayedGame] = {}
    for game in games:
        pair = frozenset((game.white_id, game.black_id))
        if pair not in last or game.round_number > last[pair].round_number:
            last[pair] = game
    return last


def _rematch_age(
    last_meeting: dict[frozenset[PlayerId], PlayedGame],
    a: PlayerId,
    b: PlayerId,
    round_number: int,
    window: int,
) -> int | None:
    """How many rounds ago a and b met, if that is within the window; else None.

    Pairing round 10 with K = 3, a game of round 7, 8 or 9 is within the window (age 3, 2, 1).
    """
    game = last_meeting.get(frozenset((a, b)))
    if game is None:
        return None
    age = round_number - game.round_number
    return age if age <= window else None


def _choose_bye(
    free: Sequence[PresentPlayer], fixed_bye: PlayerId | None, max_allocated: int | None = None
) -> tuple[PresentPlayer | None, list[Reason]]:
    """The bye: a requester's, else the lowest-ranked player with the fewest byes, not twice in
    a row and not beyond the season's pairing-allocated byes, if avoidable.

    ``free`` is in standing order and excludes the players on fixed boards. Example: five
    players with byes 1, 1, 1, 2, 1, the fifth had the bye last round. He is skipped (last
    round), the fourth is skipped (2 byes > 1), the third gets the bye. With several requests
    the requester with the fewest byes gets it, the lowest-ranked among equals.
    """
    requesters = [player for player in free if player.requested_bye]
    if fixed_bye is not None:
        if len(free) % 2 == 0:
            raise PairingError(
                f"fixed bye for player {fixed_bye} leaves an odd number of players to pair"
            )
        bye = next(player for player in free if player.player_id == fixed_bye)
        reasons = [Reason.of(ReasonKind.BYE_FIXED_BY_TD, player_id=bye.player_id)]
        return bye, reasons + _requests_taken(requesters, bye)
    if len(free) % 2 == 0:
        return None, [
            Reason.of(ReasonKind.BYE_REQUEST_EVEN, player_id=player.player_id)
            for player in requesters
        ]
    if requesters:
        fewest = min(player.byes for player in requesters)
        bye = [player for player in requesters if player.byes == fewest][-1]
        reasons = [Reason.of(ReasonKind.BYE_REQUESTED, player_id=bye.player_id, byes=bye.byes)]
        return bye, reasons + _requests_taken(requesters, bye)

    def under_limit(player: PresentPlayer) -> bool:
        return max_allocated is None or player.allocated_byes < max_allocated

    # Relax "not twice in a row" first, then the limit, then both.
    tiers = (
        [p for p in free if not p.had_bye_last_round and under_limit(p)],
        [p for p in free if under_limit(p)],
        [p for p in free if not p.had_bye_last_round],
        list(free),
    )
    tier = next(index for index, players in enumerate(tiers) if players)
    candidates = tiers[tier]
    limit_applied = max_allocated is not None and tier in (0, 1)
    fewest = min(player.byes for player in candidates)
    bye = [player for player in candidates if player.byes == fewest][-1]
    reasons = [
        Reason.of(ReasonKind.BYE_FEWEST_BYES_LOWEST_RANKED, player_id=bye.player_id, byes=fewest)
    ]
    if bye.had_bye_last_round:
        reasons.append(
            Reason.of(ReasonKind.BYE_TWICE_IN_A_ROW_UNAVOIDABLE, player_id=bye.player_id)
        )
    if not under_limit(bye):
        reasons.append(
            Reason.of(
                ReasonKind.BYE_LIMIT_UNAVOIDABLE, player_id=bye.player_id, byes=bye.allocated_byes
            )
        )
    # Everyone ranked below the bye was passed over; say why, lowest ranked first.
    below = list(free)[list(free).index(bye) + 1 :]
    for player in reversed(below):
        if player.byes > fewest:
            reasons.append(
                Reason.of(
                    ReasonKind.BYE_SKIPPED_MORE_BYES, player_id=player.player_id, byes=player.byes
                )
            )
        elif limit_applied and not under_limit(player):
            reasons.append(
                Reason.of(
                    ReasonKind.BYE_SKIPPED_LIMIT,
                    player_id=player.player_id,
                    byes=player.allocated_byes,
                )
            )
        else:
            reasons.append(
                Reason.of(ReasonKind.BYE_SKIPPED_HAD_BYE_LAST_ROUND, player_id=player.player_id)
            )
    return bye, reasons


def _requests_taken(requesters: Sequence[PresentPlayer], bye: PresentPlayer) -> list[Reason]:
    return [
        Reason.of(ReasonKind.BYE_REQUEST_TAKEN, player_id=player.player_id, bye_id=bye.player_id)
        for player in requesters
        if player is not bye
    ]


def _colour_legal(white: PresentPlayer, black: PresentPlayer) -> bool:
    """Whether these colours keep both colour differences within ±2."""
    return (
        white.colour_difference + 1 <= MAX_COLOUR_DIFFERENCE
        and black.colour_difference - 1 >= -MAX_COLOUR_DIFFERENCE
    )


def _colour_clash(a: PresentPlayer, b: PresentPlayer) -> bool:
    return not _colour_legal(a, b) and not _colour_legal(b, a)


def _fewest_possible_clashes(players: Sequence[PresentPlayer]) -> int:
    """A lower bound on the colour clashes of any perfect matching of ``players``.

    Two players clash exactly when both are at +2 or more (neither may have white) or both at
    -2 or less (neither may have black). With h players at +2 or more among m, at most m - h of
    them find a partner outside their group, so at least h - m/2 pairs inside it clash; the
    same holds for -2 or less. Example: m = 6 with h = 4 gives at least 4 - 3 = 1 clash.
    """
    m = len(players)
    must_black = sum(p.colour_difference >= MAX_COLOUR_DIFFERENCE for p in players)
    must_white = sum(p.colour_difference <= -MAX_COLOUR_DIFFERENCE for p in players)
    return max(0, must_black - m // 2) + max(0, must_white - m // 2)


def _colours(
    higher: PresentPlayer,
    lower: PresentPlayer,
    previous: PlayedGame | None,
    board: int,
    *,
    reverse_at_rematch: bool = False,
) -> tuple[PresentPlayer, PresentPlayer, Reason, list[Reason]]:
    """White and black for an engine board, the reason, and notes on colour differences.

    Order of the rules: keep both colour differences within ±2 when only one choice does; with
    ``reverse_at_rematch``, reverse their previous game against each other; the player with
    fewer whites; reverse their previous game; the lower-ranked player. Example: whites 5 and
    3 → the player with 3 gets white (3 < 5), unless the season reverses rematches and he had
    white in their latest game.
    """
    higher_white_ok = _colour_legal(higher, lower)
    lower_white_ok = _colour_legal(lower, higher)
    notes: list[Reason] = []
    if higher_white_ok != lower_white_ok:
        white, black = (higher, lower) if higher_white_ok else (lower, higher)
        # Name the player whose colour difference the other choice would push beyond 2.
        limited = black if black.colour_difference + 1 > MAX_COLOUR_DIFFERENCE else white
        reason = Reason.of(
            ReasonKind.COLOUR_DIFFERENCE_LIMIT, board=board, player_id=limited.player_id
        )
        return white, black, reason, notes

    if reverse_at_rematch and previous is not None:
        white, black = (higher, lower) if previous.black_id == higher.player_id else (lower, higher)
        reason = Reason.of(
            ReasonKind.COLOUR_REVERSED_REMATCH, board=board, previous_round=previous.round_number
        )
    elif higher.whites != lower.whites:
        white, black = (higher, lower) if higher.whites < lower.whites else (lower, higher)
        reason = Reason.of(
            ReasonKind.COLOUR_FEWER_WHITES,
            board=board,
            white_whites=white.whites,
            black_whites=black.whites,
        )
    elif previous is not None:
        white, black = (higher, lower) if previous.black_id == higher.player_id else (lower, higher)
        reason = Reason.of(
            ReasonKind.COLOUR_REVERSED_PREVIOUS_GAME,
            board=board,
            previous_round=previous.round_number,
        )
    else:
        white, black = lower, higher
        reason = Reason.of(ReasonKind.COLOUR_LOWER_RANKED_WHITE, board=board)

    if not higher_white_ok:  # neither choice is legal: say who goes beyond ±2
        if white.colour_difference + 1 > MAX_COLOUR_DIFFERENCE:
            notes.append(
                Reason.of(
                    ReasonKind.COLOUR_DIFFERENCE_EXCEEDED,
                    board=board,
                    player_id=white.player_id,
                    difference=white.colour_difference + 1,
                )
            )
        if black.colour_difference - 1 < -MAX_COLOUR_DIFFERENCE:
            notes.append(
                Reason.of(
                    ReasonKind.COLOUR_DIFFERENCE_EXCEEDED,
                    board=board,
                    player_id=black.player_id,
                    difference=black.colour_difference - 1,
                )
            )
    return white, black, reason, notes


@dataclass(frozen=True)
class _CostScale:
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
    def for_size(cls, m: int, window: int) -> _CostScale:
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


def _match(
    players: Sequence[PresentPlayer],
    last_meeting: dict[frozenset[PlayerId], PlayedGame],
    round_number: int,
    window: int,
    rules: _Rules = _NO_RULES,
) -> list[tuple[PresentPlayer, PresentPlayer]]:
    """A minimum-cost perfect matching of ``players`` (even count, in standing order).

    A pair that breaks a season rule (forbidden, or met the most times allowed) costs a
    violation unit, above every other level: such a pair is made only when every perfect
    matching breaks at least as many rules.
    """
    m = len(players)
    if m == 0:
        return []
    scale = _CostScale.for_size(m, window)

    def cost(i: int, j: int) -> int:
        a, b = players[i], players[j]
        distance = j - i
        total = scale.distance_unit * distance * distance
        total += scale.tie_break_unit * distance * (m - i)
        if _colour_clash(a, b):
            total += scale.clash_unit
        age = _rematch_age(last_meeting, a.player_id, b.player_id, round_number, window)
        if age is not None:
            total += scale.rematch_unit + scale.recency_unit * (window + 1 - age)
        if rules.active:
            total += scale.violation_unit * rules.violations(a.player_id, b.player_id)
        return total

    # Every weight is positive, so maximising Σ(ceiling - cost) over perfect matchings
    # minimises Σ cost (a pair breaks at most two rules).
    ceiling = scale.violation_unit * 3 if rules.active else scale.rematch_unit * 2
    span = _MIN_WINDOW + 2 * window
    while True:
        span = min(span, m - 1)
        graph = nx.Graph()
        graph.add_nodes_from(range(m))
        for i in range(m):
            for j in range(i + 1, min(i + span, m - 1) + 1):
                graph.add_edge(i, j, weight=ceiling - cost(i, j))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if len(matching) * 2 == m:
            total = sum(cost(min(e), max(e)) for e in matching)
            # Any matching with a pair more than `span` places apart costs at least
            # (span+1)² + (m/2 - 1) distance units plus the clashes no matching avoids;
            # below that, the window held the optimum.
            bound = scale.distance_unit * ((span + 1) ** 2 + m // 2 - 1)
            bound += scale.clash_unit * _fewest_possible_clashes(players)
            if span == m - 1 or total < bound:
                break
        span *= 2
    pairs = sorted(tuple(sorted(edge)) for edge in matching)
    return [(players[i], players[j]) for i, j in pairs]
