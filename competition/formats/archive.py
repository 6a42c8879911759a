"""The season archive: one JSON document holding everything that makes up a season.

``{"format": "clubcomp-season", "version": 1, ...}`` with the club, the members involved, the
season and its rule-set history, participants, rounds (games and entries) and the correction
history. :func:`dump_archive` is canonical and byte-stable (fixed key order, lists sorted by
their identifiers, corrections in history order, two-space indentation, UTF-8 text, trailing
newline, numbers that must stay exact written as decimal strings); :func:`load_archive`
validates the whole document and raises :class:`FormatError` with the JSON path of the first
problem, e.g.
``rounds[3].games[2].white: unknown participant 17``. The schema is in ``docs/formats.md``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from competition.formats.errors import FormatError

FORMAT = "clubcomp-season"
VERSION = 1
SUPPORTED_VERSIONS = frozenset({1})
RESULTS = frozenset({"1-0", "1/2", "0-1", "+-", "-+", "--", ""})
ENTRY_KINDS = frozenset({"bye", "absent_notice", "absent_no_notice", "club_duty", "not_paired"})
_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")

T = TypeVar("T")


def exact(value: str) -> Fraction:
    """An archive decimal string as an exact fraction: ``exact("0.07") == Fraction(7, 100)``."""
    return Fraction(Decimal(value))


@dataclass(frozen=True, slots=True)
class ArchiveClub:
    name: str
    slug: str


@dataclass(frozen=True, slots=True)
class ArchiveMember:
    id: int  # archive-local identifier, referred to by participants
    name: str
    knsb_relatienummer: int | None = None
    fide_id: int | None = None
    rating: int | None = None
    birth_year: int | None = None
    active: bool = True


@dataclass(frozen=True, slots=True)
class ArchiveRuleSet:
    """One version of the season's rules, in force from round ``valid_from``."""

    version: int
    valid_from: int  # round number
    system: str
    parameters: tuple[tuple[str, str], ...] = ()  # (name, exact string), sorted by name
    tiebreaks: tuple[str, ...] = ()
    unplayed: str = "fide-2024"
    min_games: int = 0


@dataclass(frozen=True, slots=True)
class ArchiveSeason:
    name: str
    slug: str
    start_date: date | None
    end_date: date | None
    system: str
    parameters: tuple[tuple[str, str], ...] = ()  # (name, exact string), sorted by name
    tiebreaks: tuple[str, ...] = ()
    unplayed_policy: str = "fide-2024"
    min_games: int = 0
    status: str = "open"
    round_robin: bool = False


@dataclass(frozen=True, slots=True)
class ArchiveParticipant:
    id: int  # archive-local identifier, referred to by games and entries
    member: int  # an ArchiveMember.id
    start_rank: int | None = None
    start_points: str | None = None  # exact decimal string, e.g. "199"
    joined_round: int = 1


@dataclass(frozen=True, slots=True)
class ArchiveGame:
    board: int
    white: int  # participant id
    black: int
    result: str  # "1-0", "1/2", "0-1", "+-", "-+", "--" or "" (no result yet)
    version: int = 1  # how often the result was entered or corrected


@dataclass(frozen=True, slots=True)
class ArchiveEntry:
    participant: int
    kind: str  # bye, absent_notice, absent_no_notice, club_duty, not_paired
    points: str = "0"  # exact decimal string


@dataclass(frozen=True, slots=True)
class ArchiveRound:
    number: int
    date: date | None
    status: str
    games: tuple[ArchiveGame, ...] = ()
    entries: tuple[ArchiveEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class ArchiveCorrection:
    """A change to a result or entry after the fact; board or participant names the object."""

    timestamp: datetime
    user: str
    round: int
    board: int | None  # for a game
    participant: int | None  # for an entry
    before: str
    after: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SeasonArchive:
    club: ArchiveClub
    season: ArchiveSeason
    members: tuple[ArchiveMember, ...] = ()
    rule_sets: tuple[ArchiveRuleSet, ...] = ()
    participants: tuple[ArchiveParticipant, ...] = ()
    rounds: tuple[ArchiveRound, ...] = ()
    corrections: tuple[ArchiveCorrection, ...] = ()


# --- writing -------------------------------------------------------------------------------


def dump_archive(archive: SeasonArchive) -> str:
    """The canonical JSON text of ``archive``: the same archive always gives the same bytes.

    Lists are written sorted by their identifiers (members and participants by id, rounds by
    number, games by board, entries by participant; corrections stay in history order), so
    ``load_archive(dump_archive(a)) == a`` for an archive whose lists are in that order.
    """
    season = archive.season
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "club": {"name": archive.club.name, "slug": archive.club.slug},
        "season": {
            "name": season.name,
            "slug": season.slug,
            "start_date": _date_text(season.start_date),
            "end_date": _date_text(season.end_date),
            "system": season.system,
            "parameters": dict(sorted(season.parameters)),
            "tiebreaks": list(season.tiebreaks),
            "unplayed_policy": season.unplayed_policy,
            "min_games": season.min_games,
            "status": season.status,
            "round_robin": season.round_robin,
        },
        "rule_sets": [
            {
                "version": r.version,
                "valid_from": r.valid_from,
                "system": r.system,
                "parameters": dict(sorted(r.parameters)),
                "tiebreaks": list(r.tiebreaks),
                "unplayed": r.unplayed,
                "min_games": r.min_games,
            }
            for r in sorted(archive.rule_sets, key=lambda r: r.version)
        ],
        "members": [
            {
                "id": m.id,
                "name": m.name,
                "knsb_relatienummer": m.knsb_relatienummer,
                "fide_id": m.fide_id,
                "rating": m.rating,
                "birth_year": m.birth_year,
                "active": m.active,
            }
            for m in sorted(archive.members, key=lambda m: m.id)
        ],
        "participants": [
            {
                "id": p.id,
                "member": p.member,
                "start_rank": p.start_rank,
                "start_points": p.start_points,
                "joined_round": p.joined_round,
            }
            for p in sorted(archive.participants, key=lambda p: p.id)
        ],
        "rounds": [
            {
                "number": r.number,
                "date": _date_text(r.date),
                "status": r.status,
                "games": [
                    {
                        "board": g.board,
                        "white": g.white,
                        "black": g.black,
                        "result": g.result,
                        "version": g.version,
                    }
                    for g in sorted(r.games, key=lambda g: g.board)
                ],
                "entries": [
                    {"participant": e.participant, "kind": e.kind, "points": e.points}
                    for e in sorted(r.entries, key=lambda e: e.participant)
                ],
            }
            for r in sorted(archive.rounds, key=lambda r: r.number)
        ],
        "corrections": [
            {
                "timestamp": c.timestamp.isoformat(),
                "user": c.user,
                "round": c.round,
                "board": c.board,
                "participant": c.participant,
                "before": c.before,
                "after": c.after,
                "reason": c.reason,
            }
            for c in archive.corrections  # kept in history order
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _date_text(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


# --- reading -------------------------------------------------------------------------------


class _Object:
    """A JSON object being read: typed field access that reports the JSON path."""

    def __init__(self, value: object, path: str, fields: tuple[str, ...]) -> None:
        if not isinstance(value, dict):
            raise FormatError(f"expected an object, found {_kind(value)}", path=path)
        unknown = sorted(set(value) - set(fields))
        if unknown:
            raise FormatError(f"unknown field {unknown[0]!r}", path=path)
        self.value = value
        self.path = path

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str) -> object:
        if key not in self.value:
            raise FormatError("missing", path=self.at(key))
        return self.value[key]

    def str(self, key: str, *, choices: frozenset[str] | None = None) -> str:
        value = self.raw(key)
        if not isinstance(value, str):
            raise FormatError(f"expected a string, found {_kind(value)}", path=self.at(key))
        if choices is not None and value not in choices:
            raise FormatError(
                f"{value!r} is not one of {', '.join(sorted(repr(c) for c in choices))}",
                path=self.at(key),
            )
        return value

    def int(self, key: str, *, minimum: int | None = None, optional: bool = False) -> Any:
        value = self.raw(key)
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise FormatError(f"expected an integer, found {_kind(value)}", path=self.at(key))
        if minimum is not None and value < minimum:
            raise FormatError(f"must be at least {minimum}, found {value}", path=self.at(key))
        return value

    def bool(self, key: str) -> bool:
        value = self.raw(key)
        if not isinstance(value, bool):
            raise FormatError(f"expected true or false, found {_kind(value)}", path=self.at(key))
        return value

    def decimal(self, key: str, *, optional: bool = False) -> Any:
        value = self.raw(key)
        if value is None and optional:
            return None
        if not isinstance(value, str) or not _DECIMAL.fullmatch(value):
            raise FormatError(
                f'expected an exact decimal string such as "0.5", found {_kind(value)}',
                path=self.at(key),
            )
        return value

    def date(self, key: str) -> date | None:
        value = self.raw(key)
        if value is None:
            return None
        try:
            if not isinstance(value, str):
                raise ValueError
            return date.fromisoformat(value) if len(value) == 10 else _bad_date()
        except ValueError:
            raise FormatError(
                f"expected a date YYYY-MM-DD or null, found {_kind(value)}", path=self.at(key)
            ) from None

    def parameters(self, key: str) -> tuple[tuple[str, str], ...]:
        value = self.raw(key)
        if not isinstance(value, dict):
            raise FormatError(f"expected an object, found {_kind(value)}", path=self.at(key))
        for name, text in value.items():
            if not isinstance(text, str):
                raise FormatError(
                    f"expected an exact string, found {_kind(text)}", path=f"{self.at(key)}.{name}"
                )
        return tuple(sorted(value.items()))

    def strings(self, key: str) -> tuple[str, ...]:
        items = self.list(key)
        for index, item in enumerate(items):
            if not isinstance(item, str):
                raise FormatError(
                    f"expected a string, found {_kind(item)}", path=f"{self.at(key)}[{index}]"
                )
        return tuple(items)

    def list(self, key: str) -> list[Any]:
        value = self.raw(key)
        if not isinstance(value, list):
            raise FormatError(f"expected a list, found {_kind(value)}", path=self.at(key))
        return value

    def objects(
        self, key: str, fields: tuple[str, ...], build: Callable[[_Object], T]
    ) -> tuple[T, ...]:
        return tuple(
            build(_Object(item, f"{self.at(key)}[{index}]", fields))
            for index, item in enumerate(self.list(key))
        )


def _bad_date() -> date:
    raise ValueError


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else "a long string"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "a list"
    return "an object"


_TOP = (
    "format",
    "version",
    "club",
    "season",
    "rule_sets",
    "members",
    "participants",
    "rounds",
    "corrections",
)
_SEASON = (
    "name",
    "slug",
    "start_date",
    "end_date",
    "system",
    "parameters",
    "tiebreaks",
    "unplayed_policy",
    "min_games",
    "status",
    "round_robin",
)
_RULE_SET = ("version", "valid_from", "system", "parameters", "tiebreaks", "unplayed", "min_games")
_MEMBER = ("id", "name", "knsb_relatienummer", "fide_id", "rating", "birth_year", "active")
_PARTICIPANT = ("id", "member", "start_rank", "start_points", "joined_round")
_ROUND = ("number", "date", "status", "games", "entries")
_GAME = ("board", "white", "black", "result", "version")
_ENTRY = ("participant", "kind", "points")
_CORRECTION = ("timestamp", "user", "round", "board", "participant", "before", "after", "reason")


def load_archive(text: str) -> SeasonArchive:
    """Read and validate a season archive (format ``clubcomp-season``, version 1)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(
            f"not JSON ({error.msg})", line=error.lineno, column=error.colno
        ) from None
    except RecursionError:
        raise FormatError("not JSON (nested too deeply)") from None
    if not isinstance(document, dict):
        raise FormatError(f"expected an object, found {_kind(document)}", path="$")
    if document.get("format") != FORMAT:
        raise FormatError(f"not a season archive (expected {FORMAT!r})", path="format")
    version = document.get("version")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or version not in SUPPORTED_VERSIONS
    ):
        raise FormatError(
            f"version {_kind(version)} is not supported (supported: 1)", path="version"
        )
    top = _Object(document, "", _TOP)
    club_object = _Object(top.raw("club"), "club", ("name", "slug"))
    club = ArchiveClub(club_object.str("name"), club_object.str("slug"))
    season = _season(_Object(top.raw("season"), "season", _SEASON))
    rule_sets = top.objects("rule_sets", _RULE_SET, _rule_set)
    members = top.objects("members", _MEMBER, _member)
    participants = top.objects("participants", _PARTICIPANT, _participant)
    rounds = top.objects("rounds", _ROUND, _round)
    corrections = top.objects("corrections", _CORRECTION, _correction)
    archive = SeasonArchive(club, season, members, rule_sets, participants, rounds, corrections)
    _check_references(archive)
    return archive


def _season(o: _Object) -> ArchiveSeason:
    return ArchiveSeason(
        name=o.str("name"),
        slug=o.str("slug"),
        start_date=o.date("start_date"),
        end_date=o.date("end_date"),
        system=o.str("system"),
        parameters=o.parameters("parameters"),
        tiebreaks=o.strings("tiebreaks"),
        unplayed_policy=o.str("unplayed_policy"),
        min_games=o.int("min_games", minimum=0),
        status=o.str("status"),
        round_robin=o.bool("round_robin"),
    )


def _rule_set(o: _Object) -> ArchiveRuleSet:
    return ArchiveRuleSet(
        version=o.int("version", minimum=1),
        valid_from=o.int("valid_from", minimum=1),
        system=o.str("system"),
        parameters=o.parameters("parameters"),
        tiebreaks=o.strings("tiebreaks"),
        unplayed=o.str("unplayed"),
        min_games=o.int("min_games", minimum=0),
    )


def _member(o: _Object) -> ArchiveMember:
    return ArchiveMember(
        id=o.int("id"),
        name=o.str("name"),
        knsb_relatienummer=o.int("knsb_relatienummer", minimum=1, optional=True),
        fide_id=o.int("fide_id", minimum=1, optional=True),
        rating=o.int("rating", minimum=0, optional=True),
        birth_year=o.int("birth_year", minimum=1, optional=True),
        active=o.bool("active"),
    )


def _participant(o: _Object) -> ArchiveParticipant:
    return ArchiveParticipant(
        id=o.int("id"),
        member=o.int("member"),
        start_rank=o.int("start_rank", minimum=1, optional=True),
        start_points=o.decimal("start_points", optional=True),
        joined_round=o.int("joined_round", minimum=1),
    )


def _round(o: _Object) -> ArchiveRound:
    return ArchiveRound(
        number=o.int("number", minimum=1),
        date=o.date("date"),
        status=o.str("status"),
        games=o.objects("games", _GAME, _game),
        entries=o.objects("entries", _ENTRY, _entry),
    )


def _game(o: _Object) -> ArchiveGame:
    return ArchiveGame(
        board=o.int("board", minimum=0),
        white=o.int("white"),
        black=o.int("black"),
        result=o.str("result", choices=RESULTS),
        version=o.int("version", minimum=1),
    )


def _entry(o: _Object) -> ArchiveEntry:
    return ArchiveEntry(
        participant=o.int("participant"),
        kind=o.str("kind", choices=ENTRY_KINDS),
        points=o.decimal("points"),
    )


def _correction(o: _Object) -> ArchiveCorrection:
    text = o.str("timestamp")
    try:
        timestamp = datetime.fromisoformat(text)
    except ValueError:
        raise FormatError(
            f"expected an ISO 8601 timestamp, found {text!r}", path=o.at("timestamp")
        ) from None
    return ArchiveCorrection(
        timestamp=timestamp,
        user=o.str("user"),
        round=o.int("round", minimum=1),
        board=o.int("board", minimum=0, optional=True),
        participant=o.int("participant", optional=True),
        before=o.str("before"),
        after=o.str("after"),
        reason=o.str("reason"),
    )


def _unique(values: Mapping[str, int], what: str) -> None:
    seen: dict[int, str] = {}
    for path, value in values.items():
        if value in seen:
            raise FormatError(f"{what} {value} appears twice (also {seen[value]})", path=path)
        seen[value] = path


def _check_references(archive: SeasonArchive) -> None:
    _unique({f"members[{i}].id": m.id for i, m in enumerate(archive.members)}, "member id")
    _unique(
        {f"participants[{i}].id": p.id for i, p in enumerate(archive.participants)},
        "participant id",
    )
    _unique({f"rounds[{i}].number": r.number for i, r in enumerate(archive.rounds)}, "round")
    _unique(
        {f"rule_sets[{i}].version": r.version for i, r in enumerate(archive.rule_sets)},
        "rule-set version",
    )
    members = {m.id for m in archive.members}
    participants = {p.id for p in archive.participants}
    _unique(
        {f"participants[{i}].member": p.member for i, p in enumerate(archive.participants)},
        "member",
    )
    for i, p in enumerate(archive.participants):
        if p.member not in members:
            raise FormatError(f"unknown member {p.member}", path=f"participants[{i}].member")
    boards: dict[int, set[int]] = {}
    for i, rnd in enumerate(archive.rounds):
        in_round: dict[int, str] = {}
        boards[rnd.number] = {g.board for g in rnd.games}

        def take(pid: int, path: str, in_round: dict[int, str] = in_round) -> None:
            if pid not in participants:
                raise FormatError(f"unknown participant {pid}", path=path)
            if pid in in_round:
                raise FormatError(
                    f"participant {pid} appears twice in the round (also {in_round[pid]})",
                    path=path,
                )
            in_round[pid] = path

        _unique(
            {f"rounds[{i}].games[{j}].board": g.board for j, g in enumerate(rnd.games)}, "board"
        )
        for j, game in enumerate(rnd.games):
            take(game.white, f"rounds[{i}].games[{j}].white")
            take(game.black, f"rounds[{i}].games[{j}].black")
        for j, entry in enumerate(rnd.entries):
            take(entry.participant, f"rounds[{i}].entries[{j}].participant")
    for i, c in enumerate(archive.corrections):
        path = f"corrections[{i}]"
        if c.round not in boards:
            raise FormatError(f"unknown round {c.round}", path=f"{path}.round")
        if (c.board is None) == (c.participant is None):
            raise FormatError("exactly one of board and participant must be given", path=path)
        if c.board is not None and c.board not in boards[c.round]:
            raise FormatError(f"round {c.round} has no board {c.board}", path=f"{path}.board")
        if c.participant is not None and c.participant not in participants:
            raise FormatError(f"unknown participant {c.participant}", path=f"{path}.participant")
