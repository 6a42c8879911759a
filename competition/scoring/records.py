"""Each participant's season as one record per round: the shape every system and tie-break reads.

A round has exactly one record per participant: a game (over the board or forfeited), an entry
(absence, club duty, bye) or, when the round holds nothing for him, a ``not_paired`` record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from competition.scoring.model import EntryKind, Participant, Result, Round, SeasonInput


class ScoringInputError(ValueError):
    """The season handed to the engine is inconsistent (a participant twice in a round, ...)."""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    round_number: int
    points: Fraction  # game points awarded in this round
    opponent: int | None = None  # the opponent's id for a game (also a forfeited one)
    colour: str = ""  # "w", "b" or "" without a game
    result: Result | None = None  # the game's result, None without a game
    entry: EntryKind | None = None  # the kind of entry, None for a game
    before_joining: bool = False  # the round lies before the participant's joined_round

    @property
    def played(self) -> bool:
        """True for a game over the board (forfeits and entries are unplayed rounds)."""
        return self.result is not None and self.result.is_played

    @property
    def forfeit(self) -> bool:
        return self.result is not None and self.result.is_forfeit


def records_by_participant(
    season: SeasonInput, upto_round: int | None = None
) -> dict[int, tuple[RoundRecord, ...]]:
    """One record per round (rounds 1..upto_round of ``season.rounds``) for every participant.

    Raises :class:`ScoringInputError` naming the round and participant when a participant
    appears twice in a round, plays himself, or is unknown.
    """
    known = {p.id: p for p in season.participants}
    records: dict[int, list[RoundRecord]] = {pid: [] for pid in known}
    for rnd in season.rounds:
        if upto_round is not None and rnd.number > upto_round:
            break
        seen = _round_records(rnd, known)
        for pid, participant in known.items():
            record = seen.get(pid)
            if record is None:
                record = RoundRecord(rnd.number, Fraction(0), entry=EntryKind.NOT_PAIRED)
            if rnd.number < participant.joined_round:
                record = replace(record, before_joining=True)
            records[pid].append(record)
    return {pid: tuple(rows) for pid, rows in records.items()}


def _round_records(rnd: Round, known: Mapping[int, Participant]) -> dict[int, RoundRecord]:
    """The records the round itself holds (games and entries), refusing any participant twice."""
    seen: dict[int, RoundRecord] = {}

    def put(pid: int, record: RoundRecord) -> None:
        if pid not in known:
            raise ScoringInputError(f"round {rnd.number}: unknown participant {pid}")
        if pid in seen:
            raise ScoringInputError(
                f"round {rnd.number}: participant {known[pid].name} appears twice"
            )
        seen[pid] = record

    for game in rnd.games:
        if game.white == game.black:
            raise ScoringInputError(
                f"round {rnd.number}: participant {game.white} cannot play himself"
            )
        put(
            game.white,
            RoundRecord(rnd.number, game.result.white_points, game.black, "w", game.result),
        )
        put(
            game.black,
            RoundRecord(rnd.number, game.result.black_points, game.white, "b", game.result),
        )
    for entry in rnd.entries:
        put(entry.participant, RoundRecord(rnd.number, entry.points, entry=entry.kind))
    return seen
