"""The pairing engine's input and output: frozen dataclasses, no Django.

Services build a :class:`PairingRequest` from the attendance and the current standings; the
engine answers with a :class:`PairingProposal` that the tournament director (TD) may accept or
override. Every decision the engine takes is recorded as a :class:`Reason`: a kind code plus
integer parameters, so the web layer can translate it; :meth:`Reason.describe` gives English for
logs and tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

__all__ = [
    "DEFAULT_REMATCH_WINDOW",
    "MAX_COLOUR_DIFFERENCE",
    "Board",
    "FixedBoard",
    "Pairable",
    "PairingError",
    "PairingProposal",
    "PairingRequest",
    "PairingRules",
    "PlayedGame",
    "PlayerId",
    "PresentPlayer",
    "Reason",
    "ReasonKind",
]

PlayerId = int

DEFAULT_REMATCH_WINDOW = 3
MAX_COLOUR_DIFFERENCE = 2


class PairingError(ValueError):
    """The request cannot be paired as given (unknown or doubly used player, two byes, ...)."""


@dataclass(frozen=True)
class PresentPlayer:
    """A player present at the club evening, with his figures before this round.

    ``rank`` is his place in the current standings (1 = top). Equal ranks are allowed (shared
    places); the order of the request then decides between them.
    """

    player_id: PlayerId
    rank: int
    whites: int = 0
    blacks: int = 0
    byes: int = 0
    had_bye_last_round: bool = False
    # Pairing-allocated byes this season (byes minus requested ones); the one-bye rule counts them.
    allocated_byes: int = 0
    # He asked for a bye tonight (only set when the season allows requested byes).
    requested_bye: bool = False

    @property
    def colour_difference(self) -> int:
        """Whites minus blacks, as in FIDE C.04: +2 means two whites more than blacks."""
        return self.whites - self.blacks


class Pairable(Protocol):
    """What the ladder reads of a player to pair: a :class:`PresentPlayer`, or any object with
    these figures (a simulation keeps one per participant and updates it round by round)."""

    @property
    def player_id(self) -> PlayerId: ...
    @property
    def whites(self) -> int: ...
    @property
    def blacks(self) -> int: ...
    @property
    def byes(self) -> int: ...
    @property
    def had_bye_last_round(self) -> bool: ...
    @property
    def allocated_byes(self) -> int: ...
    @property
    def requested_bye(self) -> bool: ...


@dataclass(frozen=True)
class PlayedGame:
    """A game of an earlier round (forfeits included or not: the caller decides)."""

    round_number: int
    white_id: PlayerId
    black_id: PlayerId


@dataclass(frozen=True)
class FixedBoard:
    """A game the TD fixed by hand, colours included."""

    white_id: PlayerId
    black_id: PlayerId


@dataclass(frozen=True)
class PairingRequest:
    """Everything the engine needs to pair one round.

    ``rematch_window`` K: a pair that met in one of the K rounds before ``round_number`` is not
    paired again if avoidable (K = 0 switches the rule off). ``fixed_boards`` and ``fixed_bye``
    are the TD's overrides; the engine pairs everyone else.

    The season's pairing rules: ``forbidden_pairs`` (family, carpool) and ``max_meetings`` M
    (a pair that met M times in ``previous_games`` does not meet again; None: no limit) are
    broken only when no pairing of the players keeps them; ``reverse_colours_at_rematch``
    gives each player of a rematch the other colour than in their latest game (within the ±2
    limit); ``max_allocated_byes`` limits the pairing-allocated byes per player (None: no
    limit); a player with ``requested_bye`` gets the bye when the number to pair is odd.
    """

    round_number: int
    players: tuple[PresentPlayer, ...]
    previous_games: tuple[PlayedGame, ...] = ()
    rematch_window: int = DEFAULT_REMATCH_WINDOW
    fixed_boards: tuple[FixedBoard, ...] = ()
    fixed_bye: PlayerId | None = None
    forbidden_pairs: tuple[tuple[PlayerId, PlayerId], ...] = ()
    max_meetings: int | None = None
    reverse_colours_at_rematch: bool = False
    max_allocated_byes: int | None = None


@dataclass(frozen=True, slots=True)
class PairingRules:
    """A season's pairing rules, as :class:`PairingRequest` carries them (same names and
    defaults), for a caller that pairs many rounds (:func:`~competition.pairing.pair_boards`)."""

    rematch_window: int = DEFAULT_REMATCH_WINDOW
    forbidden_pairs: tuple[tuple[PlayerId, PlayerId], ...] = ()
    max_meetings: int | None = None
    reverse_colours_at_rematch: bool = False
    max_allocated_byes: int | None = None


class ReasonKind(StrEnum):
    """What a :class:`Reason` says; the value is a stable code for translations."""

    # The bye.
    BYE_FEWEST_BYES_LOWEST_RANKED = "bye_fewest_byes_lowest_ranked"  # player_id, byes
    BYE_SKIPPED_HAD_BYE_LAST_ROUND = "bye_skipped_had_bye_last_round"  # player_id
    BYE_SKIPPED_MORE_BYES = "bye_skipped_more_byes"  # player_id, byes
    BYE_TWICE_IN_A_ROW_UNAVOIDABLE = "bye_twice_in_a_row_unavoidable"  # player_id
    BYE_FIXED_BY_TD = "bye_fixed_by_td"  # player_id
    BYE_REQUESTED = "bye_requested"  # player_id, byes
    BYE_REQUEST_EVEN = "bye_request_even"  # player_id (an even number to pair: no bye)
    BYE_REQUEST_TAKEN = "bye_request_taken"  # player_id, bye_id (the bye went to another)
    BYE_SKIPPED_LIMIT = "bye_skipped_limit"  # player_id, byes (pairing-allocated byes)
    BYE_LIMIT_UNAVOIDABLE = "bye_limit_unavoidable"  # player_id, byes
    # Rematches within the window.
    REMATCH_UNAVOIDABLE = "rematch_unavoidable"  # white_id, black_id, previous_round
    REMATCH_FIXED_BY_TD = "rematch_fixed_by_td"  # white_id, black_id, previous_round
    # The season's rules on who meets whom (pairs of ids in standing order: a_id above b_id).
    REMATCH_AVOIDED = "rematch_avoided"  # a_id, b_id, previous_round
    FORBIDDEN_PAIR_AVOIDED = "forbidden_pair_avoided"  # a_id, b_id
    MAX_MEETINGS_AVOIDED = "max_meetings_avoided"  # a_id, b_id, meetings
    FORBIDDEN_PAIR_UNAVOIDABLE = "forbidden_pair_unavoidable"  # white_id, black_id
    FORBIDDEN_PAIR_FIXED_BY_TD = "forbidden_pair_fixed_by_td"  # white_id, black_id
    MAX_MEETINGS_UNAVOIDABLE = "max_meetings_unavoidable"  # white_id, black_id, meetings
    MAX_MEETINGS_FIXED_BY_TD = "max_meetings_fixed_by_td"  # white_id, black_id, meetings
    # Colours, one per board.
    COLOUR_FIXED_BY_TD = "colour_fixed_by_td"  # board
    COLOUR_DIFFERENCE_LIMIT = "colour_difference_limit"  # board, player_id (who must not get it)
    COLOUR_FEWER_WHITES = "colour_fewer_whites"  # board, white_whites, black_whites
    COLOUR_REVERSED_PREVIOUS_GAME = "colour_reversed_previous_game"  # board, previous_round
    COLOUR_REVERSED_REMATCH = "colour_reversed_rematch"  # board, previous_round (season rule)
    COLOUR_LOWER_RANKED_WHITE = "colour_lower_ranked_white"  # board
    COLOUR_DIFFERENCE_EXCEEDED = "colour_difference_exceeded"  # board, player_id, difference


_ENGLISH: dict[ReasonKind, str] = {
    ReasonKind.BYE_FEWEST_BYES_LOWEST_RANKED: (
        "bye to player {player_id}: lowest ranked among those with the fewest byes ({byes})"
    ),
    ReasonKind.BYE_SKIPPED_HAD_BYE_LAST_ROUND: (
        "player {player_id} skipped for the bye: he had the bye last round"
    ),
    ReasonKind.BYE_SKIPPED_MORE_BYES: (
        "player {player_id} skipped for the bye: he already had {byes} bye(s)"
    ),
    ReasonKind.BYE_TWICE_IN_A_ROW_UNAVOIDABLE: (
        "player {player_id} gets the bye twice in a row: every candidate had it last round"
    ),
    ReasonKind.BYE_FIXED_BY_TD: "bye to player {player_id}: set by the TD",
    ReasonKind.BYE_REQUESTED: "bye to player {player_id}: requested ({byes} bye(s) before)",
    ReasonKind.BYE_REQUEST_EVEN: (
        "player {player_id} asked for a bye: an even number is paired, so there is none"
    ),
    ReasonKind.BYE_REQUEST_TAKEN: (
        "player {player_id} asked for a bye: it went to player {bye_id}"
    ),
    ReasonKind.BYE_SKIPPED_LIMIT: (
        "player {player_id} skipped for the bye: he had his {byes} pairing-allocated bye(s)"
    ),
    ReasonKind.BYE_LIMIT_UNAVOIDABLE: (
        "player {player_id} gets another bye ({byes} before): every candidate had his byes"
    ),
    ReasonKind.REMATCH_UNAVOIDABLE: (
        "rematch {white_id}-{black_id} (met in round {previous_round}) could not be avoided"
    ),
    ReasonKind.REMATCH_FIXED_BY_TD: (
        "rematch {white_id}-{black_id} (met in round {previous_round}) fixed by the TD"
    ),
    ReasonKind.REMATCH_AVOIDED: (
        "players {a_id} and {b_id} not paired: they met in round {previous_round} (rematch window)"
    ),
    ReasonKind.FORBIDDEN_PAIR_AVOIDED: "players {a_id} and {b_id} not paired: forbidden pair",
    ReasonKind.MAX_MEETINGS_AVOIDED: (
        "players {a_id} and {b_id} not paired: they met {meetings} times, the season's maximum"
    ),
    ReasonKind.FORBIDDEN_PAIR_UNAVOIDABLE: (
        "forbidden pair {white_id}-{black_id} could not be avoided"
    ),
    ReasonKind.FORBIDDEN_PAIR_FIXED_BY_TD: "forbidden pair {white_id}-{black_id} fixed by the TD",
    ReasonKind.MAX_MEETINGS_UNAVOIDABLE: (
        "{white_id}-{black_id} meet again after {meetings} games: could not be avoided"
    ),
    ReasonKind.MAX_MEETINGS_FIXED_BY_TD: (
        "{white_id}-{black_id} meet again after {meetings} games: fixed by the TD"
    ),
    ReasonKind.COLOUR_FIXED_BY_TD: "board {board}: colours set by the TD",
    ReasonKind.COLOUR_DIFFERENCE_LIMIT: (
        "board {board}: colours chosen so that player {player_id} stays within a colour "
        "difference of 2"
    ),
    ReasonKind.COLOUR_FEWER_WHITES: (
        "board {board}: white has fewer whites ({white_whites} against {black_whites})"
    ),
    ReasonKind.COLOUR_REVERSED_PREVIOUS_GAME: (
        "board {board}: colours reversed from their game in round {previous_round}"
    ),
    ReasonKind.COLOUR_REVERSED_REMATCH: (
        "board {board}: a rematch, colours reversed from their game in round {previous_round}"
    ),
    ReasonKind.COLOUR_LOWER_RANKED_WHITE: (
        "board {board}: equal whites and no earlier game, the lower-ranked player has white"
    ),
    ReasonKind.COLOUR_DIFFERENCE_EXCEEDED: (
        "board {board}: player {player_id} reaches a colour difference of {difference}; "
        "no pairing avoided it"
    ),
}


@dataclass(frozen=True)
class Reason:
    """One decision of the engine: a kind code and named integer parameters.

    >>> Reason.of(ReasonKind.BYE_SKIPPED_HAD_BYE_LAST_ROUND, player_id=7).describe()
    'player 7 skipped for the bye: he had the bye last round'
    """

    kind: ReasonKind
    params: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, kind: ReasonKind, **params: int) -> Reason:
        return cls(kind=kind, params=tuple(sorted(params.items())))

    @property
    def parameters(self) -> dict[str, int]:
        return dict(self.params)

    def __getitem__(self, name: str) -> int:
        return self.parameters[name]

    def describe(self) -> str:
        return _ENGLISH[self.kind].format(**self.parameters)


@dataclass(frozen=True)
class Board:
    """One game of the proposal; board 1 holds the highest-ranked pair."""

    number: int
    white_id: PlayerId
    black_id: PlayerId
    fixed_by_td: bool
    colour_reason: Reason

    @property
    def player_ids(self) -> frozenset[PlayerId]:
        return frozenset((self.white_id, self.black_id))


@dataclass(frozen=True)
class PairingProposal:
    """The engine's answer for one round.

    ``bye_reasons`` explain the bye (empty without one) and answer every bye request,
    ``rematches`` list the pairs that meet again within the rematch window, ``colour_notes``
    hold every board's colour reason plus any colour difference beyond 2 that could not be
    avoided, ``rule_notes`` say which pairs the season's rules kept apart (pairs the ladder
    alone would have made) and which rule a board breaks because nothing else was possible
    (or the TD fixed it).
    """

    round_number: int
    boards: tuple[Board, ...]
    bye_id: PlayerId | None
    bye_reasons: tuple[Reason, ...] = ()
    rematches: tuple[Reason, ...] = ()
    colour_notes: tuple[Reason, ...] = ()
    rule_notes: tuple[Reason, ...] = ()

    @property
    def reasons(self) -> tuple[Reason, ...]:
        return self.bye_reasons + self.rematches + self.rule_notes + self.colour_notes

    def describe(self) -> str:
        """A plain-English summary, one line per board and one per reason."""
        lines = [f"Round {self.round_number}"]
        lines += [f"  board {b.number}: {b.white_id} - {b.black_id}" for b in self.boards]
        if self.bye_id is not None:
            lines.append(f"  bye: {self.bye_id}")
        lines += [f"  - {reason.describe()}" for reason in self.reasons]
        return "\n".join(lines)
