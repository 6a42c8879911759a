"""Each participant's season as one record per round: the shape every system and tie-break reads.

A round has exactly one record per participant: a game (over the board or forfeited), an entry
(absence, club duty, bye) or, when the round holds nothing for him, a ``not_paired`` record.

The engine reads a season once into :class:`SeasonRows` (plain tuples, cheap to build) and turns
rows into :class:`RoundRecord` objects only where a reader needs them (explanations, services).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
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


# A round as a plain tuple, the fields of RoundRecord without round_number and before_joining:
# (points, opponent, colour, result, entry).
Row = tuple[Fraction, int | None, str, Result | None, EntryKind | None]
_NOT_PAIRED: Row = (Fraction(0), None, "", None, EntryKind.NOT_PAIRED)


@dataclass(frozen=True, slots=True)
class SeasonRows:
    """Every participant's rounds 1..R as :data:`Row` tuples, read from the season once.

    ``rows[pid][i]`` is round ``round_numbers[i]``; participants are in the season's order.
    """

    round_numbers: tuple[int, ...]
    rows: dict[int, list[Row]]
    joined_round: dict[int, int]

    def records_of(self, pid: int) -> tuple[RoundRecord, ...]:
        """One participant's rows as :class:`RoundRecord` objects."""
        joined = self.joined_round[pid]
        return tuple(
            RoundRecord(number, *row, before_joining=number < joined)
            for number, row in zip(self.round_numbers, self.rows[pid], strict=True)
        )

    def records(self) -> LazyRecords:
        """A mapping participant id -> records that builds each participant's records on use."""
        return LazyRecords(self)


class LazyRecords(Mapping[int, tuple[RoundRecord, ...]]):
    """``records_by_participant`` as a mapping that builds a participant's records when read.

    The engine's inner loops read :class:`SeasonRows`; explanations and systems that want
    :class:`RoundRecord` objects get them from here without paying for everybody's.
    """

    __slots__ = ("_built", "_rows")

    def __init__(self, rows: SeasonRows) -> None:
        self._rows = rows
        self._built: dict[int, tuple[RoundRecord, ...]] = {}

    def __getitem__(self, pid: int) -> tuple[RoundRecord, ...]:
        built = self._built.get(pid)
        if built is None:
            if pid not in self._rows.rows:
                raise KeyError(pid)
            built = self._built[pid] = self._rows.records_of(pid)
        return built

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows.rows)

    def __len__(self) -> int:
        return len(self._rows.rows)

    def __contains__(self, pid: object) -> bool:
        return pid in self._rows.rows


def read_rows(season: SeasonInput, upto_round: int | None = None) -> SeasonRows:
    """Every participant's rows for rounds 1..upto_round of ``season.rounds``.

    Raises :class:`ScoringInputError` naming the round and participant when a participant
    appears twice in a round, plays himself, or is unknown.
    """
    known = {p.id: p for p in season.participants}
    rows: dict[int, list[Row]] = {pid: [] for pid in known}
    numbers: list[int] = []
    for rnd in season.rounds:
        if upto_round is not None and rnd.number > upto_round:
            break
        seen = _round_rows(rnd, known)
        numbers.append(rnd.number)
        get = seen.get
        for pid, own in rows.items():
            own.append(get(pid, _NOT_PAIRED))
    joined = {pid: participant.joined_round for pid, participant in known.items()}
    return SeasonRows(tuple(numbers), rows, joined)


def records_by_participant(
    season: SeasonInput, upto_round: int | None = None
) -> dict[int, tuple[RoundRecord, ...]]:
    """One record per round (rounds 1..upto_round of ``season.rounds``) for every participant.

    Raises :class:`ScoringInputError` naming the round and participant when a participant
    appears twice in a round, plays himself, or is unknown.
    """
    season_rows = read_rows(season, upto_round)
    return {pid: season_rows.records_of(pid) for pid in season_rows.rows}


def participant_records(
    season: SeasonInput, participant_id: int, upto_round: int | None = None
) -> tuple[RoundRecord, ...]:
    """``records_by_participant(season, upto_round)[participant_id]`` without the others' records.

    Reads only the participant's own games and entries; the season is taken to be valid (the
    engine's :func:`read_rows` refuses one that is not). Raises ``KeyError`` for an unknown id.
    """
    joined = next(p.joined_round for p in season.participants if p.id == participant_id)
    records: list[RoundRecord] = []
    for rnd in season.rounds:
        if upto_round is not None and rnd.number > upto_round:
            break
        row = _NOT_PAIRED
        for game in rnd.games:
            if game.white == participant_id:
                row = (game.result.white_points, game.black, "w", game.result, None)
                break
            if game.black == participant_id:
                row = (game.result.black_points, game.white, "b", game.result, None)
                break
        else:
            for entry in rnd.entries:
                if entry.participant == participant_id:
                    row = (entry.points, None, "", None, entry.kind)
                    break
        records.append(RoundRecord(rnd.number, *row, before_joining=rnd.number < joined))
    return tuple(records)


def _round_rows(rnd: Round, known: Mapping[int, Participant]) -> dict[int, Row]:
    """The rows the round itself holds (games and entries), refusing any participant twice."""
    seen: dict[int, Row] = {}

    def put(pid: int, row: Row) -> None:
        if pid not in known:
            raise ScoringInputError(f"round {rnd.number}: unknown participant {pid}")
        if pid in seen:
            raise ScoringInputError(
                f"round {rnd.number}: participant {known[pid].name} appears twice"
            )
        seen[pid] = row

    for game in rnd.games:
        white, black, result = game.white, game.black, game.result
        if white == black:
            raise ScoringInputError(f"round {rnd.number}: participant {white} cannot play himself")
        if white in known and black in known and white not in seen and black not in seen:
            # the usual case, without the checks of put()
            seen[white] = (result.white_points, black, "w", result, None)
            seen[black] = (result.black_points, white, "b", result, None)
        else:
            put(white, (result.white_points, black, "w", result, None))
            put(black, (result.black_points, white, "b", result, None))
    for entry in rnd.entries:
        put(entry.participant, (entry.points, None, "", None, entry.kind))
    return seen
