"""The season archive: one JSON document holding everything that makes up a season.

``{"format": "clubcomp-season", "version": 2, ...}`` with the club, the season with all its
settings, its rule-set history, the members involved, participants, rounds (games and entries
with who changed them last and when) and the complete change history of games and entries, as
simple-history keeps it (created, changed and deleted rows, with date, user and reason).

:func:`dump_archive` is canonical and byte-stable (fixed key order, lists sorted by their
identifiers, history in recording order, two-space indentation, UTF-8 text, trailing newline,
exact numbers written as decimal strings, moments in UTC with microseconds);
:func:`load_archive` validates the whole document and raises :class:`FormatError` with the
JSON path of the first problem, e.g. ``rounds[3].games[2].white: unknown participant 17``.
The schema, with an example, is in ``docs/formats.md``. Version 2 added ``fixed_by_td`` to games,
entries and their history rows; a version 1 archive is still read, with ``fixed_by_td`` false.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from competition.formats.errors import FormatError

FORMAT = "clubcomp-season"
VERSION = 2
SUPPORTED_VERSIONS = frozenset({1, 2})
RESULTS = frozenset({"1-0", "1/2", "0-1", "+-", "-+", "--", ""})
ENTRY_KINDS = frozenset({"bye", "absent_notice", "absent_no_notice", "club_duty", "not_paired"})
SEASON_STATUSES = frozenset({"draft", "running", "finished"})
SEASON_KINDS = frozenset({"ladder", "round_robin"})
ROUND_STATUSES = frozenset({"planned", "paired", "completed"})
HISTORY_TYPES = frozenset({"+", "~", "-"})  # simple-history: created, changed, deleted
_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")
# The database's integer columns: larger values cannot be stored, so they are refused here.
SMALL = 32767
INT = 2147483647
BIG = 9223372036854775807

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
    knsb_relatienummer: str | None = None  # text: a leading zero is part of the number
    fide_id: int | None = None
    rating: int | None = None
    rating_date: date | None = None  # the date of the rating list the rating comes from
    birth_year: int | None = None
    active: bool = True


@dataclass(frozen=True, slots=True)
class ArchiveRuleSet:
    """One version of the season's rules, in force from the moment ``valid_from`` (UTC)."""

    version: int
    valid_from: datetime
    system: str
    parameters: tuple[tuple[str, str], ...] = ()  # (name, exact string), sorted by name
    tiebreaks: tuple[str, ...] = ()
    unplayed_policy: str = "fide-2024"
    min_games: int = 0
    changed_by: str | None = None  # username


@dataclass(frozen=True, slots=True)
class ArchiveSeason:
    name: str
    slug: str
    start_date: date | None
    end_date: date | None
    system: str
    kind: str = "ladder"  # ladder or round_robin
    parameters: tuple[tuple[str, str], ...] = ()  # (name, exact string), sorted by name
    tiebreaks: tuple[str, ...] = ()
    unplayed_policy: str = "fide-2024"
    min_games: int = 0
    bye_points: str = "1"  # exact decimal string
    rematch_window: int = 3
    status: str = "running"  # draft, running or finished
    rules_version: int = 1


@dataclass(frozen=True, slots=True)
class ArchiveParticipant:
    id: int  # archive-local identifier, referred to by games and entries
    member: int  # an ArchiveMember.id
    start_rank: int | None = None
    start_points: str | None = None  # exact decimal string, e.g. "199"
    initial_value: str | None = None  # exact decimal string
    joined_round: int = 1


@dataclass(frozen=True, slots=True)
class ArchiveGame:
    id: int  # archive-local identifier, referred to by the history
    board: int
    white: int  # participant id
    black: int
    result: str  # "1-0", "1/2", "0-1", "+-", "-+", "--" or "" (no result yet)
    version: int = 1  # how often the result was entered or corrected
    updated_by: str | None = None  # username
    updated_at: datetime | None = None
    fixed_by_td: bool = False  # a draft board the TD set by hand


@dataclass(frozen=True, slots=True)
class ArchiveEntry:
    id: int  # archive-local identifier, referred to by the history
    participant: int
    kind: str  # bye, absent_notice, absent_no_notice, club_duty, not_paired
    points: str = "0"  # exact decimal string
    note: str = ""
    updated_by: str | None = None
    updated_at: datetime | None = None
    fixed_by_td: bool = False  # a bye the TD gave by hand


@dataclass(frozen=True, slots=True)
class ArchiveRound:
    number: int
    date: date
    status: str  # planned, paired or completed
    games: tuple[ArchiveGame, ...] = ()
    entries: tuple[ArchiveEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class ArchiveGameRecord:
    """One simple-history row of a game: the game as it was after a creation, change or
    deletion. ``game`` is an :class:`ArchiveGame` id, or another id for a deleted game.
    ``round``, ``white``, ``black`` and ``updated_by`` are None where the row names a round,
    participant or user the archive does not hold."""

    game: int
    history_date: datetime
    history_type: str  # "+" created, "~" changed, "-" deleted
    history_user: str | None
    history_change_reason: str | None
    round: int | None
    board: int
    white: int | None
    black: int | None
    result: str
    version: int
    updated_by: str | None
    updated_at: datetime
    fixed_by_td: bool = False


@dataclass(frozen=True, slots=True)
class ArchiveEntryRecord:
    """One simple-history row of a round entry (see :class:`ArchiveGameRecord`)."""

    entry: int
    history_date: datetime
    history_type: str
    history_user: str | None
    history_change_reason: str | None
    round: int | None
    participant: int | None
    kind: str
    points: str
    note: str
    updated_by: str | None
    updated_at: datetime
    fixed_by_td: bool = False


@dataclass(frozen=True, slots=True)
class SeasonArchive:
    club: ArchiveClub
    season: ArchiveSeason
    members: tuple[ArchiveMember, ...] = ()
    rule_sets: tuple[ArchiveRuleSet, ...] = ()
    participants: tuple[ArchiveParticipant, ...] = ()
    rounds: tuple[ArchiveRound, ...] = ()
    game_history: tuple[ArchiveGameRecord, ...] = ()  # in recording order
    entry_history: tuple[ArchiveEntryRecord, ...] = ()


# --- writing -------------------------------------------------------------------------------


def moment_text(value: datetime) -> str:
    """A moment as the archive writes it: UTC, microseconds, offset ``+00:00``.

    >>> moment_text(datetime(2026, 9, 20, 12, tzinfo=UTC))
    '2026-09-20T12:00:00.000000+00:00'
    """
    if value.tzinfo is None:
        raise ValueError("the archive only holds moments with a time zone")
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def dump_archive(archive: SeasonArchive) -> str:
    """The canonical JSON text of ``archive``: the same archive always gives the same bytes.

    Lists are written sorted by their identifiers (members and participants by id, rule sets
    by version, rounds by number, games by board, entries by participant); the history stays
    in recording order. ``load_archive(dump_archive(a)) == a`` for an archive whose lists are
    in that order and whose moments are in UTC.
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
            "kind": season.kind,
            "system": season.system,
            "parameters": dict(sorted(season.parameters)),
            "tiebreaks": list(season.tiebreaks),
            "unplayed_policy": season.unplayed_policy,
            "min_games": season.min_games,
            "bye_points": season.bye_points,
            "rematch_window": season.rematch_window,
            "status": season.status,
            "rules_version": season.rules_version,
        },
        "rule_sets": [
            {
                "version": r.version,
                "valid_from": moment_text(r.valid_from),
                "system": r.system,
                "parameters": dict(sorted(r.parameters)),
                "tiebreaks": list(r.tiebreaks),
                "unplayed_policy": r.unplayed_policy,
                "min_games": r.min_games,
                "changed_by": r.changed_by,
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
                "rating_date": _date_text(m.rating_date),
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
                "initial_value": p.initial_value,
                "joined_round": p.joined_round,
            }
            for p in sorted(archive.participants, key=lambda p: p.id)
        ],
        "rounds": [
            {
                "number": r.number,
                "date": r.date.isoformat(),
                "status": r.status,
                "games": [
                    {
                        "id": g.id,
                        "board": g.board,
                        "white": g.white,
                        "black": g.black,
                        "result": g.result,
                        "version": g.version,
                        "updated_by": g.updated_by,
                        "updated_at": _moment_or_none(g.updated_at),
                        "fixed_by_td": g.fixed_by_td,
                    }
                    for g in sorted(r.games, key=lambda g: g.board)
                ],
                "entries": [
                    {
                        "id": e.id,
                        "participant": e.participant,
                        "kind": e.kind,
                        "points": e.points,
                        "note": e.note,
                        "updated_by": e.updated_by,
                        "updated_at": _moment_or_none(e.updated_at),
                        "fixed_by_td": e.fixed_by_td,
                    }
                    for e in sorted(r.entries, key=lambda e: e.participant)
                ],
            }
            for r in sorted(archive.rounds, key=lambda r: r.number)
        ],
        "history": {
            "games": [
                {
                    "game": h.game,
                    **_record_head(h),
                    "round": h.round,
                    "board": h.board,
                    "white": h.white,
                    "black": h.black,
                    "result": h.result,
                    "version": h.version,
                    "updated_by": h.updated_by,
                    "updated_at": moment_text(h.updated_at),
                    "fixed_by_td": h.fixed_by_td,
                }
                for h in archive.game_history
            ],
            "entries": [
                {
                    "entry": h.entry,
                    **_record_head(h),
                    "round": h.round,
                    "participant": h.participant,
                    "kind": h.kind,
                    "points": h.points,
                    "note": h.note,
                    "updated_by": h.updated_by,
                    "updated_at": moment_text(h.updated_at),
                    "fixed_by_td": h.fixed_by_td,
                }
                for h in archive.entry_history
            ],
        },
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _record_head(h: ArchiveGameRecord | ArchiveEntryRecord) -> dict[str, Any]:
    return {
        "history_date": moment_text(h.history_date),
        "history_type": h.history_type,
        "history_user": h.history_user,
        "history_change_reason": h.history_change_reason,
    }


def _date_text(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def _moment_or_none(value: datetime | None) -> str | None:
    return None if value is None else moment_text(value)


# --- reading -------------------------------------------------------------------------------


class _Object:
    """A JSON object being read: typed field access that reports the JSON path.

    ``version`` is the archive's; fields added by a later version (:data:`_ADDED_IN`) are
    unknown in an older archive, and :meth:`flag` then gives their default.
    """

    def __init__(
        self, value: object, path: str, fields: tuple[str, ...], version: int = VERSION
    ) -> None:
        if not isinstance(value, dict):
            raise FormatError(f"expected an object, found {_kind(value)}", path=path)
        fields = tuple(f for f in fields if _ADDED_IN.get(f, 1) <= version)
        unknown = sorted(set(value) - set(fields))
        if unknown:
            raise FormatError(f"unknown field {unknown[0]!r}", path=path)
        self.value = value
        self.path = path
        self.fields = fields
        self.version = version

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str) -> object:
        if key not in self.value:
            raise FormatError("missing", path=self.at(key))
        return self.value[key]

    def str(
        self,
        key: str,
        *,
        choices: frozenset[str] | None = None,
        optional: bool = False,
        nonempty: bool = False,
    ) -> Any:
        value = self.raw(key)
        if value is None and optional:
            return None
        if not isinstance(value, str):
            found = _kind(value)
            raise FormatError(
                f"expected a string{' or null' if optional else ''}, found {found}",
                path=self.at(key),
            )
        if nonempty and not value:
            raise FormatError("must not be empty", path=self.at(key))
        if choices is not None and value not in choices:
            raise FormatError(
                f"{value!r} is not one of {', '.join(sorted(repr(c) for c in choices))}",
                path=self.at(key),
            )
        return value

    def int(
        self,
        key: str,
        *,
        minimum: int | None = None,
        maximum: int = BIG,
        optional: bool = False,
    ) -> Any:
        value = self.raw(key)
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise FormatError(f"expected an integer, found {_kind(value)}", path=self.at(key))
        if minimum is not None and value < minimum:
            raise FormatError(f"must be at least {minimum}, found {value}", path=self.at(key))
        if value > maximum:
            raise FormatError(f"must be at most {maximum}, found {value}", path=self.at(key))
        return value

    def flag(self, key: str) -> bool:
        """A true/false field that an older archive version does not have (then false)."""
        return self.bool(key) if key in self.fields else False

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

    def date(self, key: str, *, optional: bool = True) -> Any:
        value = self.raw(key)
        if value is None and optional:
            return None
        try:
            if not isinstance(value, str) or len(value) != 10:
                raise ValueError
            return date.fromisoformat(value)
        except ValueError:
            expected = "a date YYYY-MM-DD" + (" or null" if optional else "")
            raise FormatError(
                f"expected {expected}, found {_kind(value)}", path=self.at(key)
            ) from None

    def moment(self, key: str, *, optional: bool = False) -> Any:
        """An ISO 8601 moment with its offset, returned in UTC."""
        value = self.raw(key)
        if value is None and optional:
            return None
        try:
            if not isinstance(value, str) or len(value) < 19 or value[10] != "T":
                raise ValueError
            moment = datetime.fromisoformat(value)
            if moment.tzinfo is None:
                raise ValueError
            return moment.astimezone(UTC)
        except (ValueError, OverflowError):
            raise FormatError(
                f"expected a moment such as 2026-09-20T12:00:00.000000+00:00, found {_kind(value)}",
                path=self.at(key),
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
            build(_Object(item, f"{self.at(key)}[{index}]", fields, self.version))
            for index, item in enumerate(self.list(key))
        )


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
    "history",
)
_SEASON = (
    "name",
    "slug",
    "start_date",
    "end_date",
    "kind",
    "system",
    "parameters",
    "tiebreaks",
    "unplayed_policy",
    "min_games",
    "bye_points",
    "rematch_window",
    "status",
    "rules_version",
)
_RULE_SET = (
    "version",
    "valid_from",
    "system",
    "parameters",
    "tiebreaks",
    "unplayed_policy",
    "min_games",
    "changed_by",
)
_MEMBER = (
    "id",
    "name",
    "knsb_relatienummer",
    "fide_id",
    "rating",
    "rating_date",
    "birth_year",
    "active",
)
_PARTICIPANT = ("id", "member", "start_rank", "start_points", "initial_value", "joined_round")
_ROUND = ("number", "date", "status", "games", "entries")
_GAME = ("id", "board", "white", "black", "result", "version", "updated_by", "updated_at")
_GAME += ("fixed_by_td",)
_ENTRY = ("id", "participant", "kind", "points", "note", "updated_by", "updated_at")
_ENTRY += ("fixed_by_td",)
_HEAD = ("history_date", "history_type", "history_user", "history_change_reason")
_GAME_RECORD = ("game", *_HEAD, "round", "board", "white", "black", "result", "version")
_GAME_RECORD += ("updated_by", "updated_at", "fixed_by_td")
_ENTRY_RECORD = ("entry", *_HEAD, "round", "participant", "kind", "points", "note")
_ENTRY_RECORD += ("updated_by", "updated_at", "fixed_by_td")
# Fields an archive has only from the given version on.
_ADDED_IN = {"fixed_by_td": 2}


def load_archive(text: str) -> SeasonArchive:
    """Read and validate a season archive (format ``clubcomp-season``, version 1 or 2)."""
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
            f"version {_kind(version)} is not supported (supported: 1, 2)", path="version"
        )
    top = _Object(document, "", _TOP, version)
    club_object = _Object(top.raw("club"), "club", ("name", "slug"))
    club = ArchiveClub(club_object.str("name"), club_object.str("slug"))
    season = _season(_Object(top.raw("season"), "season", _SEASON))
    rule_sets = top.objects("rule_sets", _RULE_SET, _rule_set)
    members = top.objects("members", _MEMBER, _member)
    participants = top.objects("participants", _PARTICIPANT, _participant)
    rounds = top.objects("rounds", _ROUND, _round)
    history = _Object(top.raw("history"), "history", ("games", "entries"), version)
    game_history = history.objects("games", _GAME_RECORD, _game_record)
    entry_history = history.objects("entries", _ENTRY_RECORD, _entry_record)
    archive = SeasonArchive(
        club, season, members, rule_sets, participants, rounds, game_history, entry_history
    )
    _check_references(archive)
    return archive


def _season(o: _Object) -> ArchiveSeason:
    return ArchiveSeason(
        name=o.str("name"),
        slug=o.str("slug"),
        start_date=o.date("start_date"),
        end_date=o.date("end_date"),
        kind=o.str("kind", choices=SEASON_KINDS),
        system=o.str("system"),
        parameters=o.parameters("parameters"),
        tiebreaks=o.strings("tiebreaks"),
        unplayed_policy=o.str("unplayed_policy"),
        min_games=o.int("min_games", minimum=0, maximum=SMALL),
        bye_points=o.decimal("bye_points"),
        rematch_window=o.int("rematch_window", minimum=0, maximum=SMALL),
        status=o.str("status", choices=SEASON_STATUSES),
        rules_version=o.int("rules_version", minimum=1, maximum=INT),
    )


def _rule_set(o: _Object) -> ArchiveRuleSet:
    return ArchiveRuleSet(
        version=o.int("version", minimum=1, maximum=INT),
        valid_from=o.moment("valid_from"),
        system=o.str("system"),
        parameters=o.parameters("parameters"),
        tiebreaks=o.strings("tiebreaks"),
        unplayed_policy=o.str("unplayed_policy"),
        min_games=o.int("min_games", minimum=0, maximum=SMALL),
        changed_by=o.str("changed_by", optional=True, nonempty=True),
    )


def _member(o: _Object) -> ArchiveMember:
    return ArchiveMember(
        id=o.int("id"),
        name=o.str("name"),
        knsb_relatienummer=o.str("knsb_relatienummer", optional=True, nonempty=True),
        fide_id=o.int("fide_id", minimum=0, optional=True),
        rating=o.int("rating", minimum=0, maximum=SMALL, optional=True),
        rating_date=o.date("rating_date"),
        birth_year=o.int("birth_year", minimum=0, maximum=SMALL, optional=True),
        active=o.bool("active"),
    )


def _participant(o: _Object) -> ArchiveParticipant:
    return ArchiveParticipant(
        id=o.int("id"),
        member=o.int("member"),
        start_rank=o.int("start_rank", minimum=0, maximum=INT, optional=True),
        start_points=o.decimal("start_points", optional=True),
        initial_value=o.decimal("initial_value", optional=True),
        joined_round=o.int("joined_round", minimum=1, maximum=SMALL),
    )


def _round(o: _Object) -> ArchiveRound:
    return ArchiveRound(
        number=o.int("number", minimum=1, maximum=SMALL),
        date=o.date("date", optional=False),
        status=o.str("status", choices=ROUND_STATUSES),
        games=o.objects("games", _GAME, _game),
        entries=o.objects("entries", _ENTRY, _entry),
    )


def _game(o: _Object) -> ArchiveGame:
    return ArchiveGame(
        id=o.int("id"),
        board=o.int("board", minimum=1, maximum=SMALL),
        white=o.int("white"),
        black=o.int("black"),
        result=o.str("result", choices=RESULTS),
        version=o.int("version", minimum=0, maximum=INT),
        updated_by=o.str("updated_by", optional=True, nonempty=True),
        updated_at=o.moment("updated_at", optional=True),
        fixed_by_td=o.flag("fixed_by_td"),
    )


def _entry(o: _Object) -> ArchiveEntry:
    return ArchiveEntry(
        id=o.int("id"),
        participant=o.int("participant"),
        kind=o.str("kind", choices=ENTRY_KINDS),
        points=o.decimal("points"),
        note=o.str("note"),
        updated_by=o.str("updated_by", optional=True, nonempty=True),
        updated_at=o.moment("updated_at", optional=True),
        fixed_by_td=o.flag("fixed_by_td"),
    )


def _head(o: _Object) -> dict[str, Any]:
    return {
        "history_date": o.moment("history_date"),
        "history_type": o.str("history_type", choices=HISTORY_TYPES),
        "history_user": o.str("history_user", optional=True, nonempty=True),
        "history_change_reason": o.str("history_change_reason", optional=True),
    }


def _game_record(o: _Object) -> ArchiveGameRecord:
    return ArchiveGameRecord(
        game=o.int("game"),
        **_head(o),
        round=o.int("round", optional=True),
        board=o.int("board", minimum=0, maximum=SMALL),
        white=o.int("white", optional=True),
        black=o.int("black", optional=True),
        result=o.str("result", choices=RESULTS),
        version=o.int("version", minimum=0, maximum=INT),
        updated_by=o.str("updated_by", optional=True, nonempty=True),
        updated_at=o.moment("updated_at"),
        fixed_by_td=o.flag("fixed_by_td"),
    )


def _entry_record(o: _Object) -> ArchiveEntryRecord:
    return ArchiveEntryRecord(
        entry=o.int("entry"),
        **_head(o),
        round=o.int("round", optional=True),
        participant=o.int("participant", optional=True),
        kind=o.str("kind", choices=ENTRY_KINDS),
        points=o.decimal("points"),
        note=o.str("note"),
        updated_by=o.str("updated_by", optional=True, nonempty=True),
        updated_at=o.moment("updated_at"),
        fixed_by_td=o.flag("fixed_by_td"),
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
    _unique(
        {
            f"rounds[{i}].games[{j}].id": g.id
            for i, r in enumerate(archive.rounds)
            for j, g in enumerate(r.games)
        },
        "game id",
    )
    _unique(
        {
            f"rounds[{i}].entries[{j}].id": e.id
            for i, r in enumerate(archive.rounds)
            for j, e in enumerate(r.entries)
        },
        "entry id",
    )
    for i, rnd in enumerate(archive.rounds):
        in_round: dict[int, str] = {}

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
    numbers = {r.number for r in archive.rounds}
    for key, records in (("games", archive.game_history), ("entries", archive.entry_history)):
        previous: datetime | None = None
        for j, h in enumerate(records):
            path = f"history.{key}[{j}]"
            if previous is not None and h.history_date < previous:
                raise FormatError(
                    "the history must be in recording order (history_date goes back)",
                    path=f"{path}.history_date",
                )
            previous = h.history_date
            if h.round is not None and h.round not in numbers:
                raise FormatError(f"unknown round {h.round}", path=f"{path}.round")
            names = ("white", "black") if isinstance(h, ArchiveGameRecord) else ("participant",)
            for name in names:
                pid = getattr(h, name)
                if pid is not None and pid not in participants:
                    raise FormatError(f"unknown participant {pid}", path=f"{path}.{name}")
