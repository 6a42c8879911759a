"""The season archive: one JSON document holding everything that makes up a season.

``{"format": "clubcomp-season", "version": 8, ...}`` with the club, the season with all its
settings, its rule-set history, the members involved, participants, rounds (games and entries
with who changed them last and when), the calendar of club evenings with the members' absence
reports, and the complete change history of games, entries and reports, as simple-history
keeps it (created, changed and deleted rows, with date, user and reason). Account data (a
member's login, e-mail address, notification choices and calendar token; invitations) is
not part of a season and is never written.

The schema is declared once, by the dataclasses below: a field's type says what JSON value it
holds (``int | None``: an integer or null; ``tuple[ArchiveGame, ...]``: a list of game objects)
and :func:`check` in its metadata adds the rest (bounds, allowed values, exact decimal strings,
the version that added it, the order of a list). :func:`dump_archive` and :func:`load_archive`
walk those declarations; nothing else lists the fields.

:func:`dump_archive` is canonical and byte-stable (fixed key order, lists sorted by their
identifiers, history in recording order, two-space indentation, UTF-8 text, trailing newline,
exact numbers written as decimal strings, moments in UTC with microseconds);
:func:`~competition.formats.archive_reader.load_archive` validates the whole document and
raises :class:`FormatError` with the JSON path of the first problem, e.g.
``rounds[3].games[2].white: unknown participant 17``.
The schema, with an example and the version history (what each version added, and how an
older archive loads), is in ``docs/formats.md``; :data:`VERSION` is the version written.

This module is the schema and the writer; :mod:`competition.formats.archive_reader` reads
(:func:`~competition.formats.archive_reader.load_archive`) and
:mod:`competition.formats.archive_checks` checks the references across the document.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from fractions import Fraction
from operator import attrgetter
from typing import Any

from competition.scoring.exact import fraction_from_text

FORMAT = "clubcomp-season"
VERSION = 8
SUPPORTED_VERSIONS = frozenset({1, 2, 3, 4, 5, 6, 7, 8})
RESULTS = frozenset({"1-0", "1/2", "0-1", "+-", "-+", "--", ""})
ENTRY_KINDS = frozenset({"bye", "absent_notice", "absent_no_notice", "club_duty", "not_paired"})
SEASON_STATUSES = frozenset({"draft", "running", "finished"})
SEASON_KINDS = frozenset({"ladder", "round_robin"})
RULE_CHANGES = frozenset({"season", "next_round"})
EXTERNAL_RESULTS = frozenset({"", "1", "1/2", "0"})
ROUND_STATUSES = frozenset({"planned", "paired", "completed"})
CATEGORY_KINDS = frozenset({"rating", "age", "newcomers", "list"})
CHAMPION_RULES = frozenset({"top_group", "most_points"})  # a group competition's champion
HISTORY_TYPES = frozenset({"+", "~", "-"})  # simple-history: created, changed, deleted
REPORT_KINDS = frozenset({"absent", "bye"})  # "I can't come", "I ask for a bye"
NAME_DISPLAYS = frozenset({"full", "short"})  # full name, or first name and initial
MEMBER_NAME_DISPLAYS = NAME_DISPLAYS | {""}  # "": as the season says
# The database's integer columns: larger values cannot be stored, so they are refused here.
SMALL = 32767
INT = 2147483647
BIG = 9223372036854775807


def exact(value: str) -> Fraction:
    """An archive number string as an exact fraction: ``exact("0.07") == Fraction(7, 100)``,
    ``exact("1356/7") == Fraction(1356, 7)``."""
    return fraction_from_text(value)


# --- the schema ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Check:
    """What a field's type does not say: the checks on reading and the place on writing."""

    minimum: int | None = None
    maximum: int = BIG
    choices: frozenset[str] | None = None
    nonempty: bool = False  # a string that may be null but not ""
    decimal: bool = False  # a string holding an exact decimal ("0.5")
    fraction: bool = False  # with decimal: a fraction ("1356/7") is allowed too
    since: int = 1  # the archive version that added the field (absent before: its default)
    sort_by: str | None = None  # a list written sorted by this field of its items
    before: str | None = None  # written before this field rather than in declaration order
    key: str | None = None  # its JSON key when not its name; "history.games" nests it


def check(**rules: Any) -> dict[str, Check]:
    """A field's metadata: ``field(metadata=check(minimum=1, maximum=SMALL))``."""
    return {"archive": Check(**rules)}


START_RULES = frozenset({"imported", "fixed"})  # the club rating's start rating


@dataclass(frozen=True, slots=True)
class ArchiveClub:
    name: str
    slug: str
    # the club rating's rules (docs/ratings.md): the K values, where a new player starts and
    # which games count besides the internal seasons
    rating_k_new_player: int = field(
        default=40, metadata=check(minimum=1, maximum=700, since=7, key="rating.k_new_player")
    )
    rating_k_standard: int = field(
        default=20, metadata=check(minimum=1, maximum=700, since=7, key="rating.k_standard")
    )
    rating_k_top: int = field(
        default=10, metadata=check(minimum=1, maximum=700, since=7, key="rating.k_top")
    )
    rating_k_junior: int = field(
        default=40, metadata=check(minimum=1, maximum=700, since=7, key="rating.k_junior")
    )
    rating_start_rule: str = field(
        default="imported", metadata=check(choices=START_RULES, since=7, key="rating.start_rule")
    )
    rating_start_rating: int = field(
        default=1500, metadata=check(minimum=0, maximum=SMALL, since=7, key="rating.start_rating")
    )
    rating_rapid_counts: bool = field(
        default=False, metadata=check(since=7, key="rating.rapid_counts")
    )
    rating_external_counts: bool = field(
        default=False, metadata=check(since=7, key="rating.external_counts")
    )


@dataclass(frozen=True, slots=True)
class ArchiveMember:
    id: int  # archive-local identifier, referred to by participants
    name: str
    # text: a leading zero is part of the number
    knsb_relatienummer: str | None = field(default=None, metadata=check(nonempty=True))
    fide_id: int | None = field(default=None, metadata=check(minimum=0))
    rating: int | None = field(default=None, metadata=check(minimum=0, maximum=SMALL))
    rating_date: date | None = None  # the date of the rating list the rating comes from
    birth_year: int | None = field(default=None, metadata=check(minimum=0, maximum=SMALL))
    active: bool = True
    # the member's own choice for public pages: "full", "short" or "" (as the season says)
    name_display: str = field(default="", metadata=check(choices=MEMBER_NAME_DISPLAYS, since=4))
    # when an administrator anonymised him (his name is then already a neutral one)
    anonymised_at: datetime | None = field(default=None, metadata=check(since=4))
    # the FIDE federation he plays for ("NED"), for the FIDE rating report
    federation: str = field(default="", metadata=check(since=7))


@dataclass(frozen=True, slots=True)
class ArchiveRuleSet:
    """One version of the season's rules, in force from the moment ``valid_from`` (UTC)."""

    version: int = field(metadata=check(minimum=1, maximum=INT))
    valid_from: datetime
    system: str
    parameters: tuple[tuple[str, str], ...] = ()  # (name, exact string), sorted by name
    tiebreaks: tuple[str, ...] = ()
    unplayed_policy: str = "fide-2024"
    min_games: int = field(default=0, metadata=check(minimum=0, maximum=SMALL))
    changed_by: str | None = field(default=None, metadata=check(nonempty=True))  # username
    # the first round these rules score (the rounds before keep the earlier rules' values)
    from_round: int = field(default=1, metadata=check(minimum=1, maximum=SMALL, since=6))


@dataclass(frozen=True, slots=True)
class ArchiveEveningPoints:
    """A rapid series' evening points for one place (place 1 first; later places get 0)."""

    place: int = field(metadata=check(minimum=1, maximum=SMALL))
    points: int = field(metadata=check(minimum=0, maximum=SMALL))


@dataclass(frozen=True, slots=True)
class ArchivePeriod:
    """A period of the season, given by its last round (the first follows the period before)."""

    last_round: int = field(metadata=check(minimum=1, maximum=SMALL))


@dataclass(frozen=True, slots=True)
class ArchiveChosen:
    """A participant of a category chosen by hand."""

    participant: int  # an ArchiveParticipant.id


@dataclass(frozen=True, slots=True)
class ArchiveCategory:
    """A sub-ranking of the standings with its prizes, in the season's order of categories."""

    order: int = field(metadata=check(minimum=0, maximum=SMALL))
    name: str
    kind: str = field(metadata=check(choices=CATEGORY_KINDS))  # rating, age, newcomers, list
    rating_from: int | None = field(default=None, metadata=check(minimum=0, maximum=SMALL))
    rating_below: int | None = field(default=None, metadata=check(minimum=0, maximum=SMALL))
    unrated: bool = False
    born_from: int | None = field(default=None, metadata=check(minimum=0, maximum=SMALL))
    born_to: int | None = field(default=None, metadata=check(minimum=0, maximum=SMALL))
    prizes: int = field(default=3, metadata=check(minimum=0, maximum=SMALL))
    most_improved: bool = False
    chosen: tuple[ArchiveChosen, ...] = field(default=(), metadata=check(sort_by="participant"))


@dataclass(frozen=True, slots=True)
class ArchiveSeason:
    name: str
    slug: str
    start_date: date | None
    end_date: date | None
    system: str
    kind: str = field(default="ladder", metadata=check(choices=SEASON_KINDS, before="system"))
    parameters: tuple[tuple[str, str], ...] = ()  # (name, exact string), sorted by name
    tiebreaks: tuple[str, ...] = ()
    unplayed_policy: str = "fide-2024"
    min_games: int = field(default=0, metadata=check(minimum=0, maximum=SMALL))
    bye_points: str = field(default="1", metadata=check(decimal=True))
    rematch_window: int = field(default=3, metadata=check(minimum=0, maximum=SMALL))
    status: str = field(default="running", metadata=check(choices=SEASON_STATUSES))
    rules_version: int = field(default=1, metadata=check(minimum=1, maximum=INT))
    # members report absences until this time on the evening's day ("18:00"); null: until
    # the TD publishes the pairing
    absence_deadline: time | None = field(default=None, metadata=check(since=4))
    requested_byes: bool = field(default=False, metadata=check(since=4))
    name_display: str = field(default="full", metadata=check(choices=NAME_DISPLAYS, since=4))
    # juniors (born in or after this year) show as first name and initial
    junior_birth_year: int | None = field(
        default=None, metadata=check(minimum=0, maximum=SMALL, since=4)
    )
    # the pairing rules (docs/pairing.md): at most this many games between two players (null:
    # no limit), colours reversed at a rematch, at most one pairing-allocated bye per player
    max_meetings: int | None = field(
        default=None, metadata=check(minimum=1, maximum=SMALL, since=5)
    )
    rematch_colours_reversed: bool = field(default=False, metadata=check(since=5))
    one_pairing_bye: bool = field(default=False, metadata=check(since=5))
    # the first round the rules in force score, and which rounds a change applies to
    rules_from_round: int = field(default=1, metadata=check(minimum=1, maximum=SMALL, since=6))
    rule_changes: str = field(default="season", metadata=check(choices=RULE_CHANGES, since=6))
    # categories and periods: the last round of each period, and whether a player may win
    # several prizes (docs/scoring.md, "Categories, prizes and periods")
    periods: tuple[ArchivePeriod, ...] = field(
        default=(), metadata=check(sort_by="last_round", since=6)
    )
    several_prizes: bool = field(default=True, metadata=check(since=6))
    # groups with promotion and relegation (docs/formats.md, "Groups"): the group competition
    # this season is one group of (its slug; null: a season on its own), the group's letter and
    # period, and the competition's own settings, so importing its group seasons rebuilds it
    group_competition: str | None = field(
        default=None, metadata=check(nonempty=True, since=6, key="group.competition")
    )
    group_competition_name: str = field(default="", metadata=check(since=6, key="group.name"))
    group_letter: str = field(default="", metadata=check(since=6, key="group.letter"))
    group_period: int | None = field(
        default=None, metadata=check(minimum=1, maximum=SMALL, since=6, key="group.period")
    )
    group_periods: int = field(
        default=2, metadata=check(minimum=1, maximum=SMALL, since=6, key="group.periods")
    )
    group_rounds_per_period: int = field(
        default=3,
        metadata=check(minimum=1, maximum=SMALL, since=6, key="group.rounds_per_period"),
    )
    group_promoted: int = field(
        default=1, metadata=check(minimum=0, maximum=SMALL, since=6, key="group.promoted")
    )
    group_relegated: int = field(
        default=1, metadata=check(minimum=0, maximum=SMALL, since=6, key="group.relegated")
    )
    group_champion_rule: str = field(
        default="top_group",
        metadata=check(choices=CHAMPION_RULES, since=6, key="group.champion_rule"),
    )
    # a rapid or blitz series (docs/scoring.md, "Rapid and blitz series"): rounds per evening
    # (0: one round per club evening), evening points by place, the best N evenings that count
    # (null: every evening)
    rounds_per_evening: int = field(default=0, metadata=check(minimum=0, maximum=SMALL, since=6))
    evening_points: tuple[ArchiveEveningPoints, ...] = field(
        default=(), metadata=check(sort_by="place", since=6)
    )
    best_evenings: int | None = field(
        default=None, metadata=check(minimum=1, maximum=SMALL, since=6)
    )
    # when the season's club evenings start ("20:00", Dutch time); null: at the club's time
    evening_start: time | None = field(default=None, metadata=check(since=6))
    # the club rating as the pairing seed, and the FIDE rating report's header (docs/ratings.md)
    seed_by_club_rating: bool = field(default=False, metadata=check(since=7))
    city: str = field(default="", metadata=check(since=7, key="rating_report.city"))
    federation: str = field(default="", metadata=check(since=7, key="rating_report.federation"))
    chief_arbiter: str = field(
        default="", metadata=check(since=7, key="rating_report.chief_arbiter")
    )
    deputy_arbiters: str = field(
        default="", metadata=check(since=7, key="rating_report.deputy_arbiters")
    )
    time_control: str = field(default="", metadata=check(since=7, key="rating_report.time_control"))
    tournament_type: str = field(
        default="", metadata=check(since=7, key="rating_report.tournament_type")
    )
    # days after its round within which a game on another date is played; null: no deadline
    pending_days: int | None = field(
        default=None, metadata=check(minimum=0, maximum=SMALL, since=8)
    )


@dataclass(frozen=True, slots=True)
class ArchiveForbiddenPair:
    """Two participants the pairing keeps apart (family, carpool), with the TD's note; stored
    once, the lower archive id first."""

    first: int  # an ArchiveParticipant.id
    second: int  # an ArchiveParticipant.id, greater than first
    note: str = ""


@dataclass(frozen=True, slots=True)
class ArchiveParticipant:
    id: int  # archive-local identifier, referred to by games and entries
    member: int  # an ArchiveMember.id
    start_rank: int | None = field(default=None, metadata=check(minimum=0, maximum=INT))
    # e.g. "199", "199.831776", or "1356/7" when it has no finite decimal expansion
    start_points: str | None = field(default=None, metadata=check(decimal=True, fraction=True))
    initial_value: str | None = field(default=None, metadata=check(decimal=True))
    joined_round: int = field(default=1, metadata=check(minimum=1, maximum=SMALL))
    # the event rating (ARO, TPR); before version 3 the member's rating is taken
    rating: int | None = field(default=None, metadata=check(minimum=0, maximum=SMALL, since=3))
    # withdrawn from the season from this round on (null: takes part to the end), and why
    withdrawn_from_round: int | None = field(
        default=None, metadata=check(minimum=1, maximum=SMALL, since=6)
    )
    withdrawal_note: str = field(default="", metadata=check(since=6))


@dataclass(frozen=True, slots=True)
class ArchiveGame:
    id: int  # archive-local identifier, referred to by the history
    board: int = field(metadata=check(minimum=1, maximum=SMALL))
    white: int  # participant id
    black: int
    # "1-0", "1/2", "0-1", "+-", "-+", "--" or "" (no result yet)
    result: str = field(metadata=check(choices=RESULTS))
    # how often the result was entered or corrected
    version: int = field(default=1, metadata=check(minimum=0, maximum=INT))
    updated_by: str | None = field(default=None, metadata=check(nonempty=True))  # username
    updated_at: datetime | None = None
    # a draft board the TD set by hand
    fixed_by_td: bool = field(default=False, metadata=check(since=2))
    # played on another date than its round's (in advance or postponed); null: on the evening
    played_on: date | None = field(default=None, metadata=check(since=8))


@dataclass(frozen=True, slots=True)
class ArchiveEntry:
    id: int  # archive-local identifier, referred to by the history
    participant: int
    kind: str = field(metadata=check(choices=ENTRY_KINDS))
    points: str = field(default="0", metadata=check(decimal=True))
    note: str = ""
    updated_by: str | None = field(default=None, metadata=check(nonempty=True))
    updated_at: datetime | None = None
    fixed_by_td: bool = field(default=False, metadata=check(since=2))  # a bye the TD gave by hand
    # how often the TD recorded or changed it (before version 4: 1)
    version: int = field(
        default=1, metadata=check(minimum=0, maximum=INT, since=4, before="updated_by")
    )
    # a club duty that was a game for the club elsewhere: its result ("1", "1/2", "0")
    external_result: str = field(default="", metadata=check(choices=EXTERNAL_RESULTS, since=6))


@dataclass(frozen=True, slots=True)
class ArchiveRound:
    number: int = field(metadata=check(minimum=1, maximum=SMALL))
    date: date
    status: str = field(metadata=check(choices=ROUND_STATUSES))
    games: tuple[ArchiveGame, ...] = field(default=(), metadata=check(sort_by="board"))
    entries: tuple[ArchiveEntry, ...] = field(default=(), metadata=check(sort_by="participant"))


@dataclass(frozen=True, slots=True)
class ArchiveGameRecord:
    """One simple-history row of a game: the game as it was after a creation, change or
    deletion. ``game`` is an :class:`ArchiveGame` id, or another id for a deleted game.
    ``round``, ``white``, ``black`` and ``updated_by`` are None where the row names a round,
    participant or user the archive does not hold."""

    game: int
    history_date: datetime
    history_type: str = field(metadata=check(choices=HISTORY_TYPES))  # "+", "~" or "-"
    history_user: str | None = field(metadata=check(nonempty=True))
    history_change_reason: str | None
    round: int | None
    board: int = field(metadata=check(minimum=0, maximum=SMALL))
    white: int | None
    black: int | None
    result: str = field(metadata=check(choices=RESULTS))
    version: int = field(metadata=check(minimum=0, maximum=INT))
    updated_by: str | None = field(metadata=check(nonempty=True))
    updated_at: datetime
    fixed_by_td: bool = field(default=False, metadata=check(since=2))
    played_on: date | None = field(default=None, metadata=check(since=8))


@dataclass(frozen=True, slots=True)
class ArchiveEntryRecord:
    """One simple-history row of a round entry (see :class:`ArchiveGameRecord`)."""

    entry: int
    history_date: datetime
    history_type: str = field(metadata=check(choices=HISTORY_TYPES))
    history_user: str | None = field(metadata=check(nonempty=True))
    history_change_reason: str | None
    round: int | None
    participant: int | None
    kind: str = field(metadata=check(choices=ENTRY_KINDS))
    points: str = field(metadata=check(decimal=True))
    note: str
    updated_by: str | None = field(metadata=check(nonempty=True))
    updated_at: datetime
    fixed_by_td: bool = field(default=False, metadata=check(since=2))
    version: int = field(
        default=1, metadata=check(minimum=0, maximum=INT, since=4, before="updated_by")
    )
    external_result: str = field(default="", metadata=check(choices=EXTERNAL_RESULTS, since=6))


@dataclass(frozen=True, slots=True)
class ArchiveReport:
    """A member's report for a club evening: "absent" (I can't come) or "bye" (I ask for one)."""

    id: int  # archive-local identifier, referred to by the history
    participant: int
    kind: str = field(metadata=check(choices=REPORT_KINDS))
    note: str
    reported_by: str | None = field(metadata=check(nonempty=True))  # username
    reported_at: datetime


@dataclass(frozen=True, slots=True)
class ArchiveEvening:
    """A planned club evening of the calendar, identified by its date (one per date)."""

    date: date
    round_number: int = field(metadata=check(minimum=1, maximum=SMALL))
    note: str = ""
    reports: tuple[ArchiveReport, ...] = field(default=(), metadata=check(sort_by="participant"))


@dataclass(frozen=True, slots=True)
class ArchiveReportRecord:
    """One simple-history row of an absence report (see :class:`ArchiveGameRecord`):
    ``evening`` is the evening's date, None (like ``participant`` and the users) where the row
    names one the archive does not hold."""

    report: int
    history_date: datetime
    history_type: str = field(metadata=check(choices=HISTORY_TYPES))
    history_user: str | None = field(metadata=check(nonempty=True))
    history_change_reason: str | None
    evening: date | None
    participant: int | None
    kind: str = field(metadata=check(choices=REPORT_KINDS))
    note: str
    reported_by: str | None = field(metadata=check(nonempty=True))
    reported_at: datetime


@dataclass(frozen=True, slots=True)
class SeasonArchive:
    club: ArchiveClub
    season: ArchiveSeason
    members: tuple[ArchiveMember, ...] = field(default=(), metadata=check(sort_by="id"))
    rule_sets: tuple[ArchiveRuleSet, ...] = field(
        default=(), metadata=check(sort_by="version", before="members")
    )
    participants: tuple[ArchiveParticipant, ...] = field(default=(), metadata=check(sort_by="id"))
    rounds: tuple[ArchiveRound, ...] = field(default=(), metadata=check(sort_by="number"))
    # in recording order
    game_history: tuple[ArchiveGameRecord, ...] = field(
        default=(), metadata=check(key="history.games")
    )
    entry_history: tuple[ArchiveEntryRecord, ...] = field(
        default=(), metadata=check(key="history.entries")
    )
    # the calendar, by date; declared last so that older code building archives positionally
    # keeps working, written before the history
    evenings: tuple[ArchiveEvening, ...] = field(
        default=(), metadata=check(sort_by="date", since=4, before="game_history")
    )
    report_history: tuple[ArchiveReportRecord, ...] = field(
        default=(), metadata=check(key="history.reports", since=4)
    )
    # the standings fingerprint of the season written (64 hex digits, see
    # competition.scoring.fingerprint); written first, after the version
    fingerprint: str | None = field(default=None, metadata=check(since=5, before="club"))
    # the season's forbidden pairs, by first then second participant; written before the calendar
    forbidden_pairs: tuple[ArchiveForbiddenPair, ...] = field(
        default=(), metadata=check(sort_by="first", since=5, before="evenings")
    )
    # the season's categories with their prizes, by order; written before the calendar
    categories: tuple[ArchiveCategory, ...] = field(
        default=(), metadata=check(sort_by="order", since=6, before="evenings")
    )


# --- the schema as the reader and writer see it ----------------------------------------------


@dataclass(frozen=True, slots=True)
class _Field:
    """One declared field: its name, JSON key (``group`` holds it when nested), value kind
    (``str``, ``int``, ``bool``, ``date``, ``time``, ``moment``, ``parameters``, ``strings``,
    ``object`` or ``objects``), whether null is allowed, the class of its objects and its checks."""

    name: str
    key: str
    group: str | None
    kind: str
    optional: bool
    item: type[Any] | None
    check: Check


_SCALARS = {str: "str", int: "int", bool: "bool", date: "date", time: "time", datetime: "moment"}


def _kind_of(hint: object) -> tuple[str, bool, type[Any] | None]:
    """(kind, optional, class of the objects) of a resolved type hint."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (types.UnionType, typing.Union) and type(None) in args:
        inner = next(arg for arg in args if arg is not type(None))
        return _kind_of(inner)[0], True, None
    if isinstance(hint, type) and hint in _SCALARS:
        return _SCALARS[hint], False, None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return "object", False, hint
    if typing.get_origin(hint) is tuple and args[-1] is Ellipsis:
        item = args[0]
        if item is str:
            return "strings", False, None
        if typing.get_origin(item) is tuple:
            return "parameters", False, None
        return "objects", False, item
    raise TypeError(f"the archive cannot hold a {hint}")


_SCHEMAS: dict[type[Any], tuple[_Field, ...]] = {}


def _schema(cls: type[Any]) -> tuple[_Field, ...]:
    """``cls``'s fields in the archive's order (declaration order, moved by ``before``)."""
    if cls not in _SCHEMAS:
        _SCHEMAS[cls] = _declared_fields(cls)
    return _SCHEMAS[cls]


def _declared_fields(cls: type[Any]) -> tuple[_Field, ...]:
    hints = typing.get_type_hints(cls)
    declared: list[_Field] = []
    for spec in dataclasses.fields(cls):
        rules: Check = spec.metadata.get("archive", Check())
        group, _, key = (rules.key or spec.name).rpartition(".")
        kind, optional, item = _kind_of(hints[spec.name])
        declared.append(_Field(spec.name, key, group or None, kind, optional, item, rules))
    ordered = [f for f in declared if f.check.before is None]
    for moved in (f for f in declared if f.check.before is not None):
        ordered.insert([f.name for f in ordered].index(str(moved.check.before)), moved)
    return tuple(ordered)


_KEYS: dict[tuple[type[Any], str], str] = {}


def field_key(cls: type[Any], name: str) -> str:
    """The JSON key of the field ``name`` of the archive class ``cls``, dotted when it is nested:
    ``field_key(ArchiveSeason, "group_letter") == "group.letter"``."""
    if (cls, name) not in _KEYS:
        for spec in _schema(cls):
            _KEYS[cls, spec.name] = f"{spec.group}.{spec.key}" if spec.group else spec.key
    if (cls, name) not in _KEYS:
        raise KeyError(f"{cls.__name__} has no field {name!r}")
    return _KEYS[cls, name]


# --- writing -------------------------------------------------------------------------------


def moment_text(value: datetime) -> str:
    """A moment as the archive writes it: UTC, microseconds, offset ``+00:00``.

    >>> moment_text(datetime(2026, 9, 20, 12, tzinfo=UTC))
    '2026-09-20T12:00:00.000000+00:00'
    """
    if value.tzinfo is None:
        raise ValueError("the archive only holds moments with a time zone")
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def time_text(value: time) -> str:
    """A time of day as the archive writes it: ``"18:00"``, with seconds only when it has them.

    >>> time_text(time(18, 0)), time_text(time(18, 0, 30))
    ('18:00', '18:00:30')
    """
    if value.tzinfo is not None:
        raise ValueError("the archive only holds times of day without a time zone")
    if value.second or value.microsecond:
        return value.isoformat()
    return value.isoformat(timespec="minutes")


def dump_archive(archive: SeasonArchive) -> str:
    """The canonical JSON text of ``archive``: the same archive always gives the same bytes.

    Lists are written sorted by their identifiers (members and participants by id, rule sets
    by version, rounds by number, games by board, entries by participant, evenings by date,
    reports by participant); the history stays
    in recording order. ``load_archive(dump_archive(a)) == a`` for an archive whose lists are
    in that order and whose moments are in UTC.
    """
    document = {"format": FORMAT, "version": VERSION, **_object_json(archive)}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _object_json(value: object) -> dict[str, object]:
    document: dict[str, object] = {}
    for spec in _schema(type(value)):
        target = document
        if spec.group is not None:
            target = typing.cast(dict[str, object], document.setdefault(spec.group, {}))
        target[spec.key] = _value_json(spec, getattr(value, spec.name))
    return document


def _value_json(spec: _Field, value: Any) -> object:
    if value is None:
        return None
    if spec.kind == "date":
        return value.isoformat()
    if spec.kind == "time":
        return time_text(value)
    if spec.kind == "moment":
        return moment_text(value)
    if spec.kind == "parameters":
        return dict(sorted(value))
    if spec.kind == "strings":
        return list(value)
    if spec.kind == "object":
        return _object_json(value)
    if spec.kind == "objects":
        items = (
            value
            if spec.check.sort_by is None
            else sorted(value, key=attrgetter(spec.check.sort_by))
        )
        return [_object_json(item) for item in items]
    return value
