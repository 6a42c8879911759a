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

The matching is rustworkx's ``max_weight_matching`` (compiled; the blossom algorithm networkx
also implements, with integer weights of up to 128 bits). All costs are integers, the players
enter the graph in standing order, and the algorithm is deterministic, so the same request
always gives the same proposal. :func:`pair_boards` gives the same boards as
:func:`pair_round` without the reasons, from a :class:`PairingHistory` kept up to date by the
caller: what a simulation that pairs thousands of rounds needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from competition.pairing.history import PairingHistory
from competition.pairing.matching import WhoMayMeet, match_players
from competition.pairing.model import (
    MAX_COLOUR_DIFFERENCE,
    Board,
    FixedBoard,
    Pairable,
    PairingError,
    PairingProposal,
    PairingRequest,
    PairingRules,
    PlayedGame,
    PlayerId,
    PresentPlayer,
    Reason,
    ReasonKind,
)


@dataclass(frozen=True)
class _Paired:
    """The engine's decisions for one round, before any reason is written."""

    free: list[Pairable]  # the present players not on a fixed board, in standing order
    bye: Pairable | None
    bye_tier: int  # see _bye_of
    to_pair: list[Pairable]  # the players the matching paired, in standing order
    matched: list[tuple[Pairable, Pairable]]
    # every board in board order: (higher-ranked, lower-ranked, the TD's board or None)
    pairs: list[tuple[Pairable, Pairable, FixedBoard | None]]


def _pair(
    ordered: Sequence[Pairable],
    round_number: int,
    rules: PairingRules,
    history: PairingHistory,
    who_may_meet: WhoMayMeet,
    fixed_boards: Sequence[FixedBoard] = (),
    fixed_bye: PlayerId | None = None,
) -> _Paired:
    """The bye, the matching and the board order for the players in standing order."""
    fixed_ids = {pid for board in fixed_boards for pid in (board.white_id, board.black_id)}
    free = [player for player in ordered if player.player_id not in fixed_ids]
    bye, tier = _bye_of(free, fixed_bye, rules.max_allocated_byes)
    to_pair = [player for player in free if player is not bye]
    matched = match_players(to_pair, history, round_number, rules.rematch_window, who_may_meet)
    pairs: list[tuple[Pairable, Pairable, FixedBoard | None]] = [(a, b, None) for a, b in matched]
    if fixed_boards:
        position = {player.player_id: index for index, player in enumerate(ordered)}
        by_id = {player.player_id: player for player in ordered}
        for board in fixed_boards:
            a, b = by_id[board.white_id], by_id[board.black_id]
            if position[a.player_id] > position[b.player_id]:
                a, b = b, a
            pairs.append((a, b, board))
        pairs.sort(key=lambda pair: (position[pair[0].player_id], position[pair[1].player_id]))
    return _Paired(free, bye, tier, to_pair, matched, pairs)


_NO_RULES = PairingRules()


def pair_boards(
    standing: Sequence[Pairable],
    history: PairingHistory,
    *,
    round_number: int,
    rules: PairingRules = _NO_RULES,
) -> tuple[list[tuple[PlayerId, PlayerId]], PlayerId | None]:
    """The boards (white, black) in board order and the bye that :func:`pair_round` proposes,
    without its reasons, for the present players in ``standing`` (best first, each once) after
    the games in ``history``.

    For simulations, which pair many rounds of one season: ``pair_boards`` equals
    ``pair_round`` on the request with the same players (ranked in this order), the history's
    games and the same rules (``tests/pairing/test_pair_boards.py``); nothing is checked. It
    takes the same bye (:func:`_bye_of`) and matching (:func:`_match`) as :func:`_pair` without
    fixed boards, and gives the colours of :func:`_colour_rule` written out in one loop (a
    simulation pairs thousands of rounds; the function calls per board were a tenth of its time).
    """
    who_may_meet = WhoMayMeet.of(rules.forbidden_pairs, rules.max_meetings, history)
    bye, _tier = _bye_of(standing, None, rules.max_allocated_byes)
    to_pair = standing if bye is None else [player for player in standing if player is not bye]
    matched = match_players(to_pair, history, round_number, rules.rematch_window, who_may_meet)
    boards: list[tuple[PlayerId, PlayerId]] = []
    reverse = rules.reverse_colours_at_rematch
    latest = history._latest_meeting
    limit = MAX_COLOUR_DIFFERENCE
    for higher, lower in matched:
        high_id, low_id = higher.player_id, lower.player_id
        high_difference = higher.whites - higher.blacks
        low_difference = lower.whites - lower.blacks
        # _colour_legal for either choice: white's difference + 1 ≤ 2, black's − 1 ≥ −2
        higher_white_ok = high_difference < limit and low_difference > -limit
        lower_white_ok = low_difference < limit and high_difference > -limit
        if higher_white_ok != lower_white_ok:
            higher_white = higher_white_ok
        else:
            previous = latest(high_id, low_id)
            if reverse and previous is not None:
                higher_white = previous[2] == high_id
            elif higher.whites != lower.whites:
                higher_white = higher.whites < lower.whites
            elif previous is not None:
                higher_white = previous[2] == high_id
            else:
                higher_white = False
        boards.append((high_id, low_id) if higher_white else (low_id, high_id))
    return boards, (bye.player_id if bye is not None else None)


def pair_round(request: PairingRequest) -> PairingProposal:
    """Propose the pairing of ``request.round_number``; see the module docstring for the rules."""
    _validate(request)
    history = PairingHistory.of(request.previous_games)
    rules = PairingRules(
        rematch_window=request.rematch_window,
        forbidden_pairs=request.forbidden_pairs,
        max_meetings=request.max_meetings,
        reverse_colours_at_rematch=request.reverse_colours_at_rematch,
        max_allocated_byes=request.max_allocated_byes,
    )
    who_may_meet = WhoMayMeet.of(request.forbidden_pairs, request.max_meetings, history)
    paired = _pair(
        _standing_order(request.players),
        request.round_number,
        rules,
        history,
        who_may_meet,
        request.fixed_boards,
        request.fixed_bye,
    )
    bye = paired.bye
    bye_reasons = _bye_reasons(paired.free, bye, paired.bye_tier, request.max_allocated_byes)
    bye_reasons += _requests_on_fixed_boards(request, bye)

    window = request.rematch_window
    rule_notes = _avoided(
        paired.to_pair, paired.matched, history, request.round_number, window, who_may_meet
    )
    boards: list[Board] = []
    rematches: list[Reason] = []
    colour_notes: list[Reason] = []
    for number, (a, b, fixed) in enumerate(paired.pairs, start=1):
        if fixed is not None:
            white_id, black_id = fixed.white_id, fixed.black_id
            colour_reason = Reason.of(ReasonKind.COLOUR_FIXED_BY_TD, board=number)
            notes: list[Reason] = []
        else:
            previous = history.latest_game(a.player_id, b.player_id)
            white, black, colour_reason, notes = _colours(
                a, b, previous, number, reverse_at_rematch=request.reverse_colours_at_rematch
            )
            white_id, black_id = white.player_id, black.player_id
        boards.append(
            Board(
                number=number,
                white_id=white_id,
                black_id=black_id,
                fixed_by_td=fixed is not None,
                colour_reason=colour_reason,
            )
        )
        colour_notes += [colour_reason, *notes]
        age = history.rematch_age(a.player_id, b.player_id, request.round_number, window)
        if age is not None:
            kind = ReasonKind.REMATCH_FIXED_BY_TD if fixed else ReasonKind.REMATCH_UNAVOIDABLE
            rematches.append(
                Reason.of(
                    kind,
                    white_id=white_id,
                    black_id=black_id,
                    previous_round=request.round_number - age,
                )
            )
        rule_notes += who_may_meet.broken(white_id, black_id, fixed_by_td=fixed is not None)

    return PairingProposal(
        round_number=request.round_number,
        boards=tuple(boards),
        bye_id=bye.player_id if bye else None,
        bye_reasons=tuple(bye_reasons),
        rematches=tuple(rematches),
        colour_notes=tuple(colour_notes),
        rule_notes=tuple(rule_notes),
    )


def _requests_on_fixed_boards(request: PairingRequest, bye: Pairable | None) -> list[Reason]:
    """Why a bye requester the TD put on a fixed board has no bye, in standing order."""
    fixed_ids = _fixed_ids(request)
    return [
        Reason.of(ReasonKind.BYE_REQUEST_TAKEN, player_id=player.player_id, bye_id=bye.player_id)
        if bye
        else Reason.of(ReasonKind.BYE_REQUEST_EVEN, player_id=player.player_id)
        for player in _standing_order(request.players)
        if player.requested_bye and player.player_id in fixed_ids
    ]


def _fixed_ids(request: PairingRequest) -> set[PlayerId]:
    return {pid for board in request.fixed_boards for pid in (board.white_id, board.black_id)}


def _avoided(
    to_pair: Sequence[Pairable],
    matched: Sequence[tuple[Pairable, Pairable]],
    history: PairingHistory,
    round_number: int,
    window: int,
    rules: WhoMayMeet,
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
        age = history.rematch_age(a.player_id, b.player_id, round_number, window)
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
    return sorted(players, key=_rank_of)


def _rank_of(player: PresentPlayer) -> int:
    return player.rank


# How the bye was chosen (_bye_of): the TD's, a requester's, or the tier of candidates it came
# from (0: neither had the bye last round nor reached the limit ... 3: everyone).
_BYE_NONE, _BYE_FIXED, _BYE_REQUESTED = -3, -2, -1


def _bye_of(
    free: Sequence[Pairable], fixed_bye: PlayerId | None, max_allocated: int | None
) -> tuple[Pairable | None, int]:
    """The bye: a requester's, else the lowest-ranked player with the fewest byes, not twice in
    a row and not beyond the season's pairing-allocated byes, if avoidable; and how it was
    chosen (the TD's, requested, or the tier of candidates).

    ``free`` is in standing order and excludes the players on fixed boards. Example: five
    players with byes 1, 1, 1, 2, 1, the fifth had the bye last round. He is skipped (last
    round), the fourth is skipped (2 byes > 1), the third gets the bye. With several requests
    the requester with the fewest byes gets it, the lowest-ranked among equals.
    """
    if fixed_bye is not None:
        if len(free) % 2 == 0:
            raise PairingError(
                f"fixed bye for player {fixed_bye} leaves an odd number of players to pair"
            )
        return next(player for player in free if player.player_id == fixed_bye), _BYE_FIXED
    if len(free) % 2 == 0:
        return None, _BYE_NONE
    requesters = [player for player in free if player.requested_bye]
    if requesters:
        return _fewest_byes_lowest_ranked(requesters), _BYE_REQUESTED

    def under_limit(player: Pairable) -> bool:
        return max_allocated is None or player.allocated_byes < max_allocated

    # Relax "not twice in a row" first, then the limit, then both.
    tiers: tuple[Callable[[Pairable], bool], ...] = (
        lambda p: not p.had_bye_last_round and under_limit(p),
        under_limit,
        lambda p: not p.had_bye_last_round,
    )
    for tier, candidate in enumerate(tiers):
        candidates = [player for player in free if candidate(player)]
        if candidates:
            return _fewest_byes_lowest_ranked(candidates), tier
    return _fewest_byes_lowest_ranked(free), len(tiers)


def _fewest_byes_lowest_ranked(candidates: Sequence[Pairable]) -> Pairable:
    fewest = min(player.byes for player in candidates)
    return [player for player in candidates if player.byes == fewest][-1]


def _bye_reasons(
    free: Sequence[Pairable],
    bye: Pairable | None,
    tier: int,
    max_allocated: int | None,
) -> list[Reason]:
    """Why the bye went where :func:`_bye_of` put it, and the answer to every request."""
    requesters = [player for player in free if player.requested_bye]
    if bye is None:
        return [
            Reason.of(ReasonKind.BYE_REQUEST_EVEN, player_id=player.player_id)
            for player in requesters
        ]
    if tier == _BYE_FIXED:
        reasons = [Reason.of(ReasonKind.BYE_FIXED_BY_TD, player_id=bye.player_id)]
        return reasons + _requests_taken(requesters, bye)
    if tier == _BYE_REQUESTED:
        reasons = [Reason.of(ReasonKind.BYE_REQUESTED, player_id=bye.player_id, byes=bye.byes)]
        return reasons + _requests_taken(requesters, bye)

    def under_limit(player: Pairable) -> bool:
        return max_allocated is None or player.allocated_byes < max_allocated

    limit_applied = max_allocated is not None and tier in (0, 1)
    fewest = bye.byes
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
    return reasons


def _requests_taken(requesters: Sequence[Pairable], bye: Pairable) -> list[Reason]:
    return [
        Reason.of(ReasonKind.BYE_REQUEST_TAKEN, player_id=player.player_id, bye_id=bye.player_id)
        for player in requesters
        if player is not bye
    ]


def _colour_legal(white: Pairable, black: Pairable) -> bool:
    """Whether these colours keep both colour differences within ±2."""
    return (
        white.whites - white.blacks + 1 <= MAX_COLOUR_DIFFERENCE
        and black.whites - black.blacks - 1 >= -MAX_COLOUR_DIFFERENCE
    )


def _colour_rule(
    higher: Pairable,
    lower: Pairable,
    previous_black: PlayerId | None,
    reverse_at_rematch: bool,
) -> tuple[Pairable, Pairable, ReasonKind]:
    """White, black and the rule that chose them (see :func:`_colours`); ``previous_black``:
    who had black in their latest game (None: they never met)."""
    higher_white_ok = _colour_legal(higher, lower)
    if higher_white_ok != _colour_legal(lower, higher):
        white, black = (higher, lower) if higher_white_ok else (lower, higher)
        return white, black, ReasonKind.COLOUR_DIFFERENCE_LIMIT
    if reverse_at_rematch and previous_black is not None:
        white, black = (higher, lower) if previous_black == higher.player_id else (lower, higher)
        return white, black, ReasonKind.COLOUR_REVERSED_REMATCH
    if higher.whites != lower.whites:
        white, black = (higher, lower) if higher.whites < lower.whites else (lower, higher)
        return white, black, ReasonKind.COLOUR_FEWER_WHITES
    if previous_black is not None:
        white, black = (higher, lower) if previous_black == higher.player_id else (lower, higher)
        return white, black, ReasonKind.COLOUR_REVERSED_PREVIOUS_GAME
    return lower, higher, ReasonKind.COLOUR_LOWER_RANKED_WHITE


def _colours(
    higher: Pairable,
    lower: Pairable,
    previous: PlayedGame | None,
    board: int,
    *,
    reverse_at_rematch: bool = False,
) -> tuple[Pairable, Pairable, Reason, list[Reason]]:
    """White and black for an engine board, the reason, and notes on colour differences.

    Order of the rules: keep both colour differences within ±2 when only one choice does; with
    ``reverse_at_rematch``, reverse their previous game against each other; the player with
    fewer whites; reverse their previous game; the lower-ranked player. Example: whites 5 and
    3 → the player with 3 gets white (3 < 5), unless the season reverses rematches and he had
    white in their latest game.
    """
    previous_black = None if previous is None else previous.black_id
    white, black, kind = _colour_rule(higher, lower, previous_black, reverse_at_rematch)
    notes: list[Reason] = []
    if kind is ReasonKind.COLOUR_DIFFERENCE_LIMIT:
        # Name the player whose colour difference the other choice would push beyond 2.
        limited = black if black.whites - black.blacks + 1 > MAX_COLOUR_DIFFERENCE else white
        reason = Reason.of(kind, board=board, player_id=limited.player_id)
        return white, black, reason, notes
    if kind is ReasonKind.COLOUR_FEWER_WHITES:
        reason = Reason.of(kind, board=board, white_whites=white.whites, black_whites=black.whites)
    elif previous is not None and kind in (
        ReasonKind.COLOUR_REVERSED_REMATCH,
        ReasonKind.COLOUR_REVERSED_PREVIOUS_GAME,
    ):
        reason = Reason.of(kind, board=board, previous_round=previous.round_number)
    else:
        reason = Reason.of(kind, board=board)

    if not _colour_legal(higher, lower):  # neither choice is legal: say who goes beyond ±2
        white_after = white.whites - white.blacks + 1
        black_after = black.whites - black.blacks - 1
        for player, after in ((white, white_after), (black, black_after)):
            if abs(after) > MAX_COLOUR_DIFFERENCE:
                notes.append(
                    Reason.of(
                        ReasonKind.COLOUR_DIFFERENCE_EXCEEDED,
                        board=board,
                        player_id=player.player_id,
                        difference=after,
                    )
                )
    return white, black, reason, notes
