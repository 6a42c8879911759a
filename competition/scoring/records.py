"""Each participant's season as one record per round: the shape every system and tie-break reads.

A round has exactly one record per participant: a game (over the board or forfeited), an entry
(absence, club duty, bye) or, when the round holds nothing for him, a ``not_paired`` record.

The engine reads a season once into :class:`SeasonRows` (per round a row class and an opponent:
small integers, cheap to build) and turns them into :class:`RoundRecord` objects only where a
reader needs them (explanations, services).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from typing import TypeVar

from competition.scoring.model import EntryKind, Participant, Result, Round, SeasonInput
from competition.scoring.text import TextError

V = TypeVar("V")


class ScoringInputError(TextError):
    """The season handed to the engine is inconsistent (a participant twice in a round, ...).

    The message is an English template plus values (:class:`TextError`): one the reader may see
    is marked with ``gettext_noop``."""


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
    """Every participant's rounds 1..R, read from the season once, as row classes and opponents.

    A row's class is everything in it but the opponent (points, colour, result, entry):
    ``classes[pid][i]`` is the class of round ``round_numbers[i]``, ``opponents[pid][i]`` the
    opponent (None without a game) and ``class_rows[c]`` class ``c`` as a :data:`Row` without
    an opponent (class 0 is ``not_paired``). A season has a handful of classes, so a reader
    decides once per class what a round means and maps the class numbers (``digest_rows``,
    the tie-breaks' ``TiebreakSheet``) instead of looking at every row; ``rows`` gives the
    :data:`Row` tuples themselves, built when read. Participants are in the season's order.
    """

    round_numbers: tuple[int, ...]
    classes: dict[int, list[int]]
    opponents: dict[int, list[int | None]]
    class_rows: tuple[Row, ...]
    joined_round: dict[int, int]

    @property
    def rows(self) -> Mapping[int, list[Row]]:
        """Participant id -> his rows (:data:`Row` tuples), built for the participant read."""
        return _Rows(self)

    def rows_of(self, pid: int) -> list[Row]:
        """One participant's rounds as :data:`Row` tuples."""
        return [
            (row[0], opponent, row[2], row[3], row[4])
            for row, opponent in zip(
                map(self.class_rows.__getitem__, self.classes[pid]),
                self.opponents[pid],
                strict=True,
            )
        ]

    def records_of(self, pid: int) -> tuple[RoundRecord, ...]:
        """One participant's rows as :class:`RoundRecord` objects."""
        joined = self.joined_round[pid]
        return tuple(
            RoundRecord(number, row[0], opponent, row[2], row[3], row[4], number < joined)
            for number, row, opponent in zip(
                self.round_numbers,
                map(self.class_rows.__getitem__, self.classes[pid]),
                self.opponents[pid],
                strict=True,
            )
        )

    def records(self) -> LazyRecords:
        """A mapping participant id -> records that builds each participant's records on use."""
        return LazyRecords(self)


class _PerParticipant(Mapping[int, V]):
    """A mapping participant id -> what is built for him from the season's rows when read: the
    participants are those of the rows; each kind says what it builds (``__getitem__``)."""

    __slots__ = ("_rows",)

    def __init__(self, rows: SeasonRows) -> None:
        self._rows = rows

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows.classes)

    def __len__(self) -> int:
        return len(self._rows.classes)

    def __contains__(self, pid: object) -> bool:
        return pid in self._rows.classes


class _Rows(_PerParticipant[list[Row]]):
    """:attr:`SeasonRows.rows`: a participant's rows are built when read."""

    __slots__ = ()

    def __getitem__(self, pid: int) -> list[Row]:
        if pid not in self._rows.classes:
            raise KeyError(pid)
        return self._rows.rows_of(pid)


class LazyRecords(_PerParticipant[tuple[RoundRecord, ...]]):
    """``records_by_participant`` as a mapping that builds a participant's records when read.

    The engine's inner loops read :class:`SeasonRows`; explanations and systems that want
    :class:`RoundRecord` objects get them from here without paying for everybody's.
    """

    __slots__ = ("_built",)

    def __init__(self, rows: SeasonRows) -> None:
        super().__init__(rows)
        self._built: dict[int, tuple[RoundRecord, ...]] = {}

    def __getitem__(self, pid: int) -> tuple[RoundRecord, ...]:
        built = self._built.get(pid)
        if built is None:
            if pid not in self._rows.classes:
                raise KeyError(pid)
            built = self._built[pid] = self._rows.records_of(pid)
        return built


def read_rows(season: SeasonInput, upto_round: int | None = None) -> SeasonRows:
    """Every participant's rounds 1..upto_round of ``season.rounds`` (see :class:`SeasonRows`).

    Raises :class:`ScoringInputError` naming the round and participant when a participant
    appears twice in a round, plays himself, or is unknown.
    """
    known = {p.id: p for p in season.participants}
    ids = list(known)
    position = {pid: index for index, pid in enumerate(ids)}
    table = _ClassTable()
    numbers: list[int] = []
    # one column per round (everybody's class and opponent, in the season's order), turned into
    # one list per participant at the end: the per-participant work is C-level (map, zip)
    class_columns: list[list[int]] = []
    opponent_columns: list[list[int | None]] = []
    for rnd in season.rounds:
        if upto_round is not None and rnd.number > upto_round:
            break
        columns = _round_columns(rnd, position, table)
        if columns is None:
            classes_of, opponents_of = _checked_round_classes(rnd, known, table)
            columns = list(map(classes_of.get, ids, repeat(0))), list(map(opponents_of.get, ids))
        numbers.append(rnd.number)
        class_columns.append(columns[0])
        opponent_columns.append(columns[1])
    if numbers:
        classes = dict(zip(ids, map(list, zip(*class_columns, strict=True)), strict=True))
        opponents = dict(zip(ids, map(list, zip(*opponent_columns, strict=True)), strict=True))
    else:
        classes = {pid: [] for pid in ids}
        opponents = {pid: [] for pid in ids}
    joined = {pid: participant.joined_round for pid, participant in known.items()}
    return SeasonRows(tuple(numbers), classes, opponents, tuple(table.rows), joined)


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


_NO_RESULT = id(None)


class _ClassTable:
    """The row classes of one season reading (see :class:`SeasonRows`), numbered from 0.

    Keys use the identities of the result, the entry kind and the points (they recur, and
    hashing an Enum or a Fraction runs Python code); an object seen for the first time is
    looked up by value once (the points as numerator and denominator, for the same reason), so
    equal points in distinct objects (a new Fraction per bye) share one class.
    """

    __slots__ = ("by_value", "games", "numbers", "rows")

    def __init__(self) -> None:
        self.rows: list[Row] = [_NOT_PAIRED]
        self.numbers: dict[tuple[int, int, str, int], int] = {
            (id(_NOT_PAIRED[0]), id(None), "", id(EntryKind.NOT_PAIRED)): 0
        }
        self.by_value: dict[tuple[int, int, str, int, int], int] = {
            (0, 1, "", id(None), id(EntryKind.NOT_PAIRED)): 0
        }
        # id(result) -> (white's class, black's class)
        self.games: dict[int, tuple[int, int]] = {}

    def number(
        self, points: Fraction, colour: str, result: Result | None, entry: EntryKind | None
    ) -> int:
        key = (id(points), id(result), colour, id(entry))
        number = self.numbers.get(key)
        if number is None:
            value_key = (points.numerator, points.denominator, colour, id(result), id(entry))
            number = self.by_value.get(value_key)
            if number is None:
                number = self.by_value[value_key] = len(self.rows)
                self.rows.append((points, None, colour, result, entry))
            self.numbers[key] = number
        return number

    def game(self, result: Result) -> tuple[int, int]:
        """The classes of white's and black's rows in a game with ``result``."""
        known = self.games.get(id(result))
        if known is None:
            known = self.games[id(result)] = (
                self.number(result.white_points, "w", result, None),
                self.number(result.black_points, "b", result, None),
            )
        return known


def _round_columns(
    rnd: Round, position: Mapping[int, int], table: _ClassTable
) -> tuple[list[int], list[int | None]] | None:
    """The round's row classes and opponents as columns: one entry per participant, in the
    season's order (``position``), class 0 (``not_paired``) and no opponent where the round
    holds nothing for him.

    The rows are stored without a check each. None when a row names an unknown participant or
    the rows fill fewer places than there are rows (a participant twice, or playing himself;
    also an explicit ``not_paired`` entry, whose class is 0): such a round is read again by
    :func:`_checked_round_classes`, which names the fault.
    """
    count = len(position)
    classes = [0] * count
    opponents: list[int | None] = [None] * count
    games, numbers = table.games, table.numbers
    try:
        for match in rnd.games:
            white, black, result = match.white, match.black, match.result
            white_at, black_at = position[white], position[black]
            classes[white_at], classes[black_at] = games.get(id(result)) or table.game(result)
            opponents[white_at] = black
            opponents[black_at] = white
        for entry in rnd.entries:
            points, kind = entry.points, entry.kind
            row_class = numbers.get((id(points), _NO_RESULT, "", id(kind)))
            if row_class is None:
                row_class = table.number(points, "", None, kind)
            classes[position[entry.participant]] = row_class
    except KeyError:  # an unknown participant
        return None
    # game rows have a class other than 0, so every row filled its own place exactly when the
    # places left at class 0 are the participants without a row
    if classes.count(0) != count - 2 * len(rnd.games) - len(rnd.entries):
        return None
    return classes, opponents


def _checked_round_classes(
    rnd: Round, known: Mapping[int, Participant], table: _ClassTable
) -> tuple[dict[int, int], dict[int, int]]:
    """:func:`_round_columns` with a check per row: raises :class:`ScoringInputError` at the
    first participant who is unknown, plays himself or appears twice."""
    classes: dict[int, int] = {}
    opponents: dict[int, int] = {}

    def put(pid: int, row_class: int, opponent: int | None) -> None:
        if pid not in known:
            raise ScoringInputError(f"round {rnd.number}: unknown participant {pid}")
        if pid in classes:
            raise ScoringInputError(
                f"round {rnd.number}: participant {known[pid].name} appears twice"
            )
        classes[pid] = row_class
        if opponent is not None:
            opponents[pid] = opponent

    games, numbers = table.games, table.numbers
    for match in rnd.games:
        white, black, result = match.white, match.black, match.result
        if white == black:
            raise ScoringInputError(f"round {rnd.number}: participant {white} cannot play himself")
        white_class, black_class = games.get(id(result)) or table.game(result)
        if white in known and black in known and white not in classes and black not in classes:
            # the usual case, without the checks of put()
            classes[white] = white_class
            classes[black] = black_class
            opponents[white] = black
            opponents[black] = white
        else:
            put(white, white_class, black)
            put(black, black_class, white)
    for entry in rnd.entries:
        pid, points, kind = entry.participant, entry.points, entry.kind
        row_class = numbers.get((id(points), _NO_RESULT, "", id(kind)))
        if row_class is None:
            row_class = table.number(points, "", None, kind)
        if pid in known and pid not in classes:
            classes[pid] = row_class
        else:
            put(pid, row_class, None)
    return classes, opponents
