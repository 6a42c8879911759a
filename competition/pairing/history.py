"""The games a pairing must know about: who met whom, in which round and with which colours.

:class:`PairingHistory` is what :mod:`.ladder` reads for rematches and colours; a simulation
keeps one up to date round by round instead of rebuilding it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from competition.pairing.model import PlayedGame, PlayerId

# A game as the history keeps it: (round number, white, black).
_Meeting = tuple[int, PlayerId, PlayerId]


class PairingHistory:
    """The season's games as the ladder reads them: the latest game of every pair, how often
    each pair met, and who met in which round.

    :func:`.ladder.pair_round` builds one from ``request.previous_games``; a simulation keeps
    one per simulated season and adds each simulated round's boards (:meth:`add_round`),
    instead of handing the engine a growing tuple of games to read again every round. Example: after
    round 1 (101-102) and round 4 (102-101), ``latest_game(101, 102)`` is the game of round 4
    and ``meetings(101, 102)`` is 2.
    """

    __slots__ = ("_latest", "_meetings", "_rounds")

    def __init__(self) -> None:
        # pairs as (lower id, higher id)
        self._latest: dict[tuple[PlayerId, PlayerId], _Meeting] = {}
        self._meetings: dict[tuple[PlayerId, PlayerId], int] = {}
        self._rounds: dict[int, list[tuple[PlayerId, PlayerId]]] = {}

    @classmethod
    def of(cls, games: Iterable[PlayedGame]) -> PairingHistory:
        history = cls()
        history.extend(games)
        return history

    def extend(self, games: Iterable[PlayedGame]) -> None:
        """More games; of two games of one pair in the same round the first counts as the
        latest (the order of ``previous_games``)."""
        self._add((game.round_number, game.white_id, game.black_id) for game in games)

    def add_round(self, round_number: int, boards: Iterable[tuple[PlayerId, PlayerId]]) -> None:
        """The games (white, black) of one round, later than every game so far.

        :meth:`_add` written out for one round (a simulation adds thousands): of two games of
        one pair in the round the first stays the latest, as there.
        """
        latest, meetings = self._latest, self._meetings
        pairs = self._rounds.get(round_number)
        for white, black in boards:
            pair = (white, black) if white < black else (black, white)
            known = latest.get(pair)
            if known is None or round_number > known[0]:
                latest[pair] = (round_number, white, black)
            meetings[pair] = meetings.get(pair, 0) + 1
            if pairs is None:
                pairs = self._rounds[round_number] = [pair]
            else:
                pairs.append(pair)

    def _add(self, games: Iterable[_Meeting]) -> None:
        latest, meetings, rounds = self._latest, self._meetings, self._rounds
        for game in games:
            number, white, black = game
            pair = (white, black) if white < black else (black, white)
            known = latest.get(pair)
            if known is None or number > known[0]:
                latest[pair] = game
            meetings[pair] = meetings.get(pair, 0) + 1
            pairs = rounds.get(number)
            if pairs is None:
                rounds[number] = [pair]
            else:
                pairs.append(pair)

    def copy(self) -> PairingHistory:
        twin = PairingHistory()
        twin._latest = dict(self._latest)
        twin._meetings = dict(self._meetings)
        twin._rounds = {number: list(pairs) for number, pairs in self._rounds.items()}
        return twin

    def latest_game(self, a: PlayerId, b: PlayerId) -> PlayedGame | None:
        game = self._latest_meeting(a, b)
        return None if game is None else PlayedGame(*game)

    def _latest_meeting(self, a: PlayerId, b: PlayerId) -> _Meeting | None:
        return self._latest.get((a, b) if a < b else (b, a))

    def meetings(self, a: PlayerId, b: PlayerId) -> int:
        return self._meetings.get((a, b) if a < b else (b, a), 0)

    def meeting_counts(self) -> Mapping[tuple[PlayerId, PlayerId], int]:
        """How often each pair (lower id first) met."""
        return self._meetings

    def pairs_of_round(self, round_number: int) -> Sequence[tuple[PlayerId, PlayerId]]:
        """The pairs (lower id first) that met in that round."""
        return self._rounds.get(round_number, ())

    def rematch_age(self, a: PlayerId, b: PlayerId, round_number: int, window: int) -> int | None:
        """How many rounds ago a and b met, if that is within the window; else None.

        Pairing round 10 with K = 3, a game of round 7, 8 or 9 is within the window (age 3, 2, 1).
        """
        game = self._latest_meeting(a, b)
        if game is None:
            return None
        age = round_number - game[0]
        return age if age <= window else None
