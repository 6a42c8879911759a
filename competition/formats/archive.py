"""The season archive: one JSON document holding everything that makes up a season.

``{"format": "clubcomp-season", "version": 5, ...}`` with the club, the season with all its
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
:func:`load_archive` validates the whole document and raises :class:`FormatError` with the
JSON path of the first problem, e.g. ``rounds[3].games[2].white: unknown participant 17``.
The schema, with an example, is in ``docs/formats.md``. Version 2 added ``fixed_by_td`` to games,
entries and their history rows; a version 1 archive is still read, with ``fixed_by_td`` false.
Version 3 added the participants' event ``rating`` (an older archive gives each participant his
member's rating) and allows start points as a fraction (``"1356/7"``). Version 4 added the
entries' ``version``, the season's absence deadline, requested byes and name display settings,
the members' own name display choice and moment of anonymisation, the club evenings with their
absence reports and the reports' history; an older archive has none of these and loads with
the defaults (entry version 1, no deadline, no requested byes, full names, no evenings).
Version 5 added the standings ``fingerprint`` of the season's data and rules
(:mod:`competition.scoring.fingerprint`); an older archive has none and is imported unchecked.
Version 5 also added the pairing rules: the season's ``max_meetings``,
``rematch_colours_reversed`` and ``one_pairing_bye`` and its ``forbidden_pairs``; an older
archive loads with the defaults (no limit, colours not reversed, no bye limit, no forbidden
pairs).
Version 6 added rules that apply from a later round: each rule set's ``from_round``, the
season's ``rules_from_round`` (the rules in force) and ``rule_changes`` ("season" or
"next_round"); an older archive loads with every rule set scoring the whole season. Version 6
also added the participants' withdrawal (``withdrawn_from_round``, ``withdrawal_note``) and
the entries' ``external_result`` (a club duty that was an external game, also in the history);
an older archive loads with nobody withdrawn and no external games. Version 6 also added
categories and periods: the ``categories`` (each with its kind, bounds, prizes and the
participants chosen by hand), the season's ``periods`` (the last round of each) and
``several_prizes``; an older archive loads with no categories, no periods and several prizes
allowed. Version 6 also added the
rapid series: the season's ``rounds_per_evening``, ``evening_points`` and ``best_evenings``; an
older archive loads with one round per club evening (no series). Version 6 also added the
season's ``evening_start`` (when its club evenings start); an older archive loads with none (the
club's time).
Version 7 added what the club rating and the FIDE rating report need (docs/ratings.md): the
club's rating rules (``club.rating``: K values, start rating, which games count), the members'
FIDE ``federation``, and the season's ``seed_by_club_rating`` and rating report header
(``city``, ``federation``, ``chief_arbiter``, ``deputy_arbiters``, ``time_control``,
``tournament_type``); an older archive loads with FIDE's K values, no federations and an empty
header.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from fractions import Fraction
from operator import attrgetter
from typing import Any

from competition.formats.errors import FormatError, Term
from competition.scoring.text import gettext_noop

FORMAT = "clubcomp-season"
VERSION = 7
SUPPORTED_VERSIONS = frozenset({1, 2, 3, 4, 5, 6, 7})
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
_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_FRACTION = re.compile(r"-?[0-9]+/[1-9][0-9]*")
_SURROGATE = re.compile("[\ud800-\udfff]")
_FINGERPRINT = re.compile(r"[0-9a-f]{64}")
_TIME = re.compile(r"[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{6})?)?")
# The database's integer columns: larger values cannot be stored, so they are refused here.
SMALL = 32767
INT = 2147483647
BIG = 9223372036854775807


def exact(value: str) -> Fraction:
    """An archive number string as an exact fraction: ``exact("0.07") == Fraction(7, 100)``,
    ``exact("1356/7") == Fraction(1356, 7)``."""
    return Fraction(value)


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


# --- reading -------------------------------------------------------------------------------


# The reasons Python's JSON reader gives (json.decoder and its C scanner), so that "not JSON
# (...)" is in the reader's language too; any other reason is shown as Python wrote it.
JSON_REASONS = (
    gettext_noop("Expecting value"),
    gettext_noop("Expecting ',' delimiter"),
    gettext_noop("Expecting ':' delimiter"),
    gettext_noop("Expecting property name enclosed in double quotes"),
    gettext_noop("Unterminated string starting at"),
    gettext_noop("Invalid control character at"),
    gettext_noop("Invalid \\escape"),
    gettext_noop("Invalid \\uXXXX escape"),
    gettext_noop("Extra data"),
)
_EXPECTED_OBJECT = gettext_noop("expected an object, found %(found)s")
_UNKNOWN_PARTICIPANT = gettext_noop("unknown participant %(participant)s")
_HISTORY_ORDER = gettext_noop("the history must be in recording order (history_date goes back)")


def _kind(value: object) -> str:
    """What was found, for a message: a short value as written, else its kind (a
    :class:`Term`, translated with the message)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else Term(gettext_noop("a long string"))
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return Term(gettext_noop("a list"))
    return Term(gettext_noop("an object"))


def _at(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _json_object(value: object, path: str, keys: Any) -> dict[str, object]:
    """``value`` as a JSON object that holds no key outside ``keys``."""
    if not isinstance(value, dict):
        raise FormatError(_EXPECTED_OBJECT, {"found": _kind(value)}, path=path)
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise FormatError(
            gettext_noop("unknown field %(field)s"), {"field": repr(unknown[0])}, path=path
        )
    return value


def _raw(document: Mapping[str, object], key: str, path: str) -> object:
    if key not in document:
        raise FormatError(gettext_noop("missing"), path=path)
    return document[key]


def _read_object(cls: type[Any], value: object, path: str, version: int) -> Any:
    """An instance of the dataclass ``cls`` read from ``value``, checked field by field in the
    archive's order; a field added after ``version`` keeps its default."""
    schema = [spec for spec in _schema(cls) if spec.check.since <= version]
    keys = {spec.group or spec.key for spec in schema}
    document = _json_object(value, path, keys)
    groups: dict[str, dict[str, object]] = {}
    values: dict[str, object] = {}
    for spec in schema:
        source, where = document, path
        if spec.group is not None:
            where = _at(path, spec.group)
            if spec.group not in groups:
                members = {s.key for s in schema if s.group == spec.group}
                groups[spec.group] = _json_object(_raw(document, spec.group, where), where, members)
            source = groups[spec.group]
        values[spec.name] = _read_value(spec, source, _at(where, spec.key), version)
    return cls(**values)


def _read_value(spec: _Field, document: Mapping[str, object], path: str, version: int) -> object:
    value = _raw(document, spec.key, path)
    if value is None and spec.optional:
        return None
    rules = spec.check
    if spec.kind == "str" and rules.decimal:
        if not isinstance(value, str) or not (
            _DECIMAL.fullmatch(value) or (rules.fraction and _FRACTION.fullmatch(value))
        ):
            reason = (
                gettext_noop(
                    'expected an exact decimal string such as "0.5" or "1356/7", found %(found)s'
                )
                if rules.fraction
                else gettext_noop('expected an exact decimal string such as "0.5", found %(found)s')
            )
            raise FormatError(reason, {"found": _kind(value)}, path=path)
        return value
    if spec.kind == "str":
        return _read_str(value, path, rules, spec.optional)
    if spec.kind == "int":
        return _read_int(value, path, rules)
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise FormatError(
                gettext_noop("expected true or false, found %(found)s"),
                {"found": _kind(value)},
                path=path,
            )
        return value
    if spec.kind == "date":
        return _read_date(value, path, spec.optional)
    if spec.kind == "time":
        return _read_time(value, path)
    if spec.kind == "moment":
        return _read_moment(value, path)
    if spec.kind == "parameters":
        return _read_parameters(value, path)
    if spec.kind == "object":
        assert spec.item is not None
        return _read_object(spec.item, value, path, version)
    items = _read_list(value, path)
    if spec.kind == "strings":
        for index, item in enumerate(items):
            if not isinstance(item, str):
                raise FormatError(
                    gettext_noop("expected a string, found %(found)s"),
                    {"found": _kind(item)},
                    path=_at(path, index),
                )
            _storable(item, _at(path, index))
        return tuple(items)
    assert spec.item is not None
    return tuple(
        _read_object(spec.item, item, _at(path, index), version) for index, item in enumerate(items)
    )


def _storable(text: str, path: str) -> str:
    """``text`` when a database can store it: no NUL character (PostgreSQL refuses it) and no
    lone surrogate (JSON's ``"\\ud800"`` escape, which is not Unicode text)."""
    if "\x00" in text:
        raise FormatError(
            gettext_noop("contains the control character U+0000, which cannot be stored"),
            path=path,
        )
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:
        code = f"U+{ord(surrogate.group()):04X}"
        raise FormatError(
            gettext_noop("not valid Unicode text (a lone surrogate %(code)s)"),
            {"code": code},
            path=path,
        )
    return text


def _read_str(value: object, path: str, rules: Check, optional: bool) -> str:
    if not isinstance(value, str):
        reason = (
            gettext_noop("expected a string or null, found %(found)s")
            if optional
            else gettext_noop("expected a string, found %(found)s")
        )
        raise FormatError(reason, {"found": _kind(value)}, path=path)
    _storable(value, path)
    if rules.nonempty and not value:
        raise FormatError(gettext_noop("must not be empty"), path=path)
    if rules.choices is not None and value not in rules.choices:
        raise FormatError(
            gettext_noop("%(found)s is not one of %(choices)s"),
            {"found": repr(value), "choices": ", ".join(sorted(repr(c) for c in rules.choices))},
            path=path,
        )
    return value


def _read_int(value: object, path: str, rules: Check) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(
            gettext_noop("expected an integer, found %(found)s"), {"found": _kind(value)}, path=path
        )
    if rules.minimum is not None and value < rules.minimum:
        raise FormatError(
            gettext_noop("must be at least %(minimum)s, found %(found)s"),
            {"minimum": rules.minimum, "found": value},
            path=path,
        )
    if value > rules.maximum:
        raise FormatError(
            gettext_noop("must be at most %(maximum)s, found %(found)s"),
            {"maximum": rules.maximum, "found": value},
            path=path,
        )
    return value


def _read_date(value: object, path: str, optional: bool) -> date:
    try:
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError
        return date.fromisoformat(value)
    except ValueError:
        reason = (
            gettext_noop("expected a date YYYY-MM-DD or null, found %(found)s")
            if optional
            else gettext_noop("expected a date YYYY-MM-DD, found %(found)s")
        )
        raise FormatError(reason, {"found": _kind(value)}, path=path) from None


def _read_time(value: object, path: str) -> time:
    """A time of day, ``HH:MM`` or ``HH:MM:SS`` (microseconds allowed), without an offset."""
    try:
        if not isinstance(value, str) or not _TIME.fullmatch(value):
            raise ValueError
        return time.fromisoformat(value)
    except ValueError:
        raise FormatError(
            gettext_noop("expected a time of day such as 18:00 or null, found %(found)s"),
            {"found": _kind(value)},
            path=path,
        ) from None


def _read_moment(value: object, path: str) -> datetime:
    """An ISO 8601 moment with its offset, returned in UTC."""
    try:
        if not isinstance(value, str) or len(value) < 19 or value[10] != "T":
            raise ValueError
        moment = datetime.fromisoformat(value)
        if moment.tzinfo is None:
            raise ValueError
        return moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise FormatError(
            gettext_noop(
                "expected a moment such as 2026-09-20T12:00:00.000000+00:00, found %(found)s"
            ),
            {"found": _kind(value)},
            path=path,
        ) from None


def _read_parameters(value: object, path: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise FormatError(_EXPECTED_OBJECT, {"found": _kind(value)}, path=path)
    for name, text in value.items():
        if not isinstance(text, str):
            raise FormatError(
                gettext_noop("expected an exact string, found %(found)s"),
                {"found": _kind(text)},
                path=f"{path}.{name}",
            )
        _storable(name, path)
        _storable(text, f"{path}.{name}")
    return tuple(sorted(value.items()))


def _read_list(value: object, path: str) -> list[object]:
    if not isinstance(value, list):
        raise FormatError(
            gettext_noop("expected a list, found %(found)s"), {"found": _kind(value)}, path=path
        )
    return value


def load_archive(text: str) -> SeasonArchive:
    """Read and validate a season archive (format ``clubcomp-season``, version 1 to 5)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(
            gettext_noop("not JSON (%(detail)s)"),
            {"detail": Term(error.msg)},
            line=error.lineno,
            column=error.colno,
        ) from None
    except RecursionError:
        raise FormatError(gettext_noop("not JSON (nested too deeply)")) from None
    if not isinstance(document, dict):
        raise FormatError(_EXPECTED_OBJECT, {"found": _kind(document)}, path="$")
    if document.get("format") != FORMAT:
        raise FormatError(
            gettext_noop("not a season archive (expected %(format)s)"),
            {"format": repr(FORMAT)},
            path="format",
        )
    version = document.get("version")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or version not in SUPPORTED_VERSIONS
    ):
        supported = ", ".join(str(v) for v in sorted(SUPPORTED_VERSIONS))
        raise FormatError(
            gettext_noop("version %(found)s is not supported (supported: %(supported)s)"),
            {"found": _kind(version), "supported": supported},
            path="version",
        )
    content = {key: value for key, value in document.items() if key not in ("format", "version")}
    archive: SeasonArchive = _read_object(SeasonArchive, content, "", version)
    if archive.fingerprint is not None and not _FINGERPRINT.fullmatch(archive.fingerprint):
        raise FormatError(
            gettext_noop("expected 64 hex digits (SHA-256), found %(found)s"),
            {"found": _kind(archive.fingerprint)},
            path="fingerprint",
        )
    _check_references(archive)
    if version < 3:
        # ARO and TPR used the member's rating before participants had an event rating.
        ratings = {m.id: m.rating for m in archive.members}
        participants = tuple(
            dataclasses.replace(p, rating=ratings[p.member]) for p in archive.participants
        )
        archive = dataclasses.replace(archive, participants=participants)
    return archive


def _unique(values: Mapping[str, object], what: str) -> None:
    """Refuse a value given twice; ``what`` (marked with ``gettext_noop``) names it."""
    seen: dict[object, str] = {}
    for path, value in values.items():
        if value in seen:
            raise FormatError(
                gettext_noop("%(what)s %(value)s appears twice (also %(other)s)"),
                {"what": Term(what), "value": value, "other": seen[value]},
                path=path,
            )
        seen[value] = path


def _check_references(archive: SeasonArchive) -> None:
    _unique(
        {f"members[{i}].id": m.id for i, m in enumerate(archive.members)}, gettext_noop("member id")
    )
    _unique(
        {f"participants[{i}].id": p.id for i, p in enumerate(archive.participants)},
        gettext_noop("participant id"),
    )
    _unique(
        {f"rounds[{i}].number": r.number for i, r in enumerate(archive.rounds)},
        gettext_noop("round"),
    )
    _unique(
        {f"rule_sets[{i}].version": r.version for i, r in enumerate(archive.rule_sets)},
        gettext_noop("rule-set version"),
    )
    members = {m.id for m in archive.members}
    participants = {p.id for p in archive.participants}
    _unique(
        {f"participants[{i}].member": p.member for i, p in enumerate(archive.participants)},
        gettext_noop("member"),
    )
    for i, p in enumerate(archive.participants):
        if p.member not in members:
            raise FormatError(
                gettext_noop("unknown member %(member)s"),
                {"member": p.member},
                path=f"participants[{i}].member",
            )
    _unique(
        {
            f"rounds[{i}].games[{j}].id": g.id
            for i, r in enumerate(archive.rounds)
            for j, g in enumerate(r.games)
        },
        gettext_noop("game id"),
    )
    _unique(
        {
            f"rounds[{i}].entries[{j}].id": e.id
            for i, r in enumerate(archive.rounds)
            for j, e in enumerate(r.entries)
        },
        gettext_noop("entry id"),
    )
    for i, rnd in enumerate(archive.rounds):
        in_round: dict[int, str] = {}

        def take(pid: int, path: str, in_round: dict[int, str] = in_round) -> None:
            if pid not in participants:
                raise FormatError(_UNKNOWN_PARTICIPANT, {"participant": pid}, path=path)
            if pid in in_round:
                raise FormatError(
                    gettext_noop(
                        "participant %(participant)s appears twice in the round (also %(other)s)"
                    ),
                    {"participant": pid, "other": in_round[pid]},
                    path=path,
                )
            in_round[pid] = path

        _unique(
            {f"rounds[{i}].games[{j}].board": g.board for j, g in enumerate(rnd.games)},
            gettext_noop("board"),
        )
        for j, game in enumerate(rnd.games):
            take(game.white, f"rounds[{i}].games[{j}].white")
            take(game.black, f"rounds[{i}].games[{j}].black")
        for j, entry in enumerate(rnd.entries):
            take(entry.participant, f"rounds[{i}].entries[{j}].participant")
    numbers = {r.number for r in archive.rounds}
    histories: tuple[tuple[str, tuple[ArchiveGameRecord | ArchiveEntryRecord, ...]], ...] = (
        ("games", archive.game_history),
        ("entries", archive.entry_history),
    )
    for key, records in histories:
        previous: datetime | None = None
        for j, h in enumerate(records):
            path = f"history.{key}[{j}]"
            if previous is not None and h.history_date < previous:
                raise FormatError(_HISTORY_ORDER, path=f"{path}.history_date")
            previous = h.history_date
            if h.round is not None and h.round not in numbers:
                raise FormatError(
                    gettext_noop("unknown round %(round)s"),
                    {"round": h.round},
                    path=f"{path}.round",
                )
            names = ("white", "black") if isinstance(h, ArchiveGameRecord) else ("participant",)
            for name in names:
                pid = getattr(h, name)
                if pid is not None and pid not in participants:
                    raise FormatError(
                        _UNKNOWN_PARTICIPANT, {"participant": pid}, path=f"{path}.{name}"
                    )
    _check_evenings(archive, participants)
    _check_forbidden_pairs(archive, participants)
    _check_categories(archive, participants)
    _check_evening_points(archive)
    _check_rounds(archive)
    _check_periods(archive)


def _check_rounds(archive: SeasonArchive) -> None:
    """What the app keeps true of a season's rounds: every board of a completed round has a
    result, one round at a time is not completed (the database's ``round_one_open_per_season``),
    and only a club duty carries the result of an external game."""
    open_round: int | None = None
    for i, rnd in sorted(enumerate(archive.rounds), key=lambda item: item[1].number):
        if rnd.status != "completed":
            if open_round is not None:
                raise FormatError(
                    gettext_noop(
                        "round %(round)s is not completed, and neither is round %(other)s: a "
                        "season has one open round at a time"
                    ),
                    {"round": rnd.number, "other": open_round},
                    path=f"rounds[{i}].status",
                )
            open_round = rnd.number
        for j, game in enumerate(rnd.games):
            if rnd.status == "completed" and not game.result:
                raise FormatError(
                    gettext_noop("round %(round)s is completed, but board %(board)s has no result"),
                    {"round": rnd.number, "board": game.board},
                    path=f"rounds[{i}].games[{j}].result",
                )
        for j, entry in enumerate(rnd.entries):
            if entry.external_result and entry.kind != "club_duty":
                raise FormatError(
                    gettext_noop(
                        "only a club duty has the result of an external game, not %(kind)s"
                    ),
                    {"kind": repr(entry.kind)},
                    path=f"rounds[{i}].entries[{j}].external_result",
                )


def _check_periods(archive: SeasonArchive) -> None:
    """The season's periods follow each other: each ends after the one before it."""
    previous: int | None = None
    for i, period in enumerate(archive.season.periods):
        if previous is not None and period.last_round < previous:
            raise FormatError(
                gettext_noop(
                    "the periods must follow each other: round %(round)s comes before round "
                    "%(previous)s of the period before"
                ),
                {"round": period.last_round, "previous": previous},
                path=f"season.periods[{i}].last_round",
            )
        previous = period.last_round


def _check_evening_points(archive: SeasonArchive) -> None:
    """A rapid series' evening points name places 1, 2, … n, each once."""
    places = sorted(row.place for row in archive.season.evening_points)
    for i, place in enumerate(places, start=1):
        if place != i:
            raise FormatError(
                gettext_noop("places must be 1 to %(count)s, each once"),
                {"count": len(places)},
                path="season.evening_points",
            )


def _check_categories(archive: SeasonArchive, participants: set[int]) -> None:
    """Categories with distinct orders, bounds in order, chosen participants of the archive
    (each once), periods ending at distinct rounds."""
    _unique(
        {f"categories[{i}].order": c.order for i, c in enumerate(archive.categories)},
        gettext_noop("category order"),
    )
    _unique(
        {
            f"season.periods[{i}].last_round": p.last_round
            for i, p in enumerate(archive.season.periods)
        },
        gettext_noop("period end"),
    )
    for i, category in enumerate(archive.categories):
        path = f"categories[{i}]"
        low, high = category.rating_from, category.rating_below
        if low is not None and high is not None and low >= high:
            raise FormatError(
                gettext_noop("rating_from (%(low)s) must be below rating_below (%(high)s)"),
                {"low": low, "high": high},
                path=f"{path}.rating_below",
            )
        first, last = category.born_from, category.born_to
        if first is not None and last is not None and first > last:
            raise FormatError(
                gettext_noop("born_from (%(first)s) cannot be after born_to (%(last)s)"),
                {"first": first, "last": last},
                path=f"{path}.born_to",
            )
        seen: set[int] = set()
        for j, chosen in enumerate(category.chosen):
            where = f"{path}.chosen[{j}].participant"
            if chosen.participant not in participants:
                raise FormatError(
                    _UNKNOWN_PARTICIPANT, {"participant": chosen.participant}, path=where
                )
            if chosen.participant in seen:
                raise FormatError(
                    gettext_noop("participant %(participant)s appears twice"),
                    {"participant": chosen.participant},
                    path=where,
                )
            seen.add(chosen.participant)


def _check_forbidden_pairs(archive: SeasonArchive, participants: set[int]) -> None:
    """Forbidden pairs of two different participants of the archive, lower id first, each
    pair once."""
    seen: dict[tuple[int, int], str] = {}
    for i, pair in enumerate(archive.forbidden_pairs):
        path = f"forbidden_pairs[{i}]"
        for name in ("first", "second"):
            if getattr(pair, name) not in participants:
                raise FormatError(
                    _UNKNOWN_PARTICIPANT,
                    {"participant": getattr(pair, name)},
                    path=f"{path}.{name}",
                )
        if pair.first >= pair.second:
            raise FormatError(
                gettext_noop("second (%(second)s) must be greater than first (%(first)s)"),
                {"second": pair.second, "first": pair.first},
                path=f"{path}.second",
            )
        key = (pair.first, pair.second)
        if key in seen:
            raise FormatError(
                gettext_noop("the pair %(first)s-%(second)s appears twice (also %(other)s)"),
                {"first": pair.first, "second": pair.second, "other": seen[key]},
                path=path,
            )
        seen[key] = path


def _check_evenings(archive: SeasonArchive, participants: set[int]) -> None:
    """One evening per date, unique report ids, reports (and their history) naming
    participants of the archive, one report per participant and evening."""
    _unique(
        {f"evenings[{i}].date": e.date for i, e in enumerate(archive.evenings)},
        gettext_noop("evening"),
    )
    _unique(
        {
            f"evenings[{i}].reports[{j}].id": r.id
            for i, e in enumerate(archive.evenings)
            for j, r in enumerate(e.reports)
        },
        gettext_noop("report id"),
    )
    for i, evening in enumerate(archive.evenings):
        reported: dict[int, str] = {}
        for j, report in enumerate(evening.reports):
            path = f"evenings[{i}].reports[{j}].participant"
            if report.participant not in participants:
                raise FormatError(
                    _UNKNOWN_PARTICIPANT, {"participant": report.participant}, path=path
                )
            if report.participant in reported:
                raise FormatError(
                    gettext_noop(
                        "participant %(participant)s has two reports for this evening "
                        "(also %(other)s)"
                    ),
                    {"participant": report.participant, "other": reported[report.participant]},
                    path=path,
                )
            reported[report.participant] = path
    dates = {e.date for e in archive.evenings}
    previous: datetime | None = None
    for j, h in enumerate(archive.report_history):
        path = f"history.reports[{j}]"
        if previous is not None and h.history_date < previous:
            raise FormatError(_HISTORY_ORDER, path=f"{path}.history_date")
        previous = h.history_date
        if h.evening is not None and h.evening not in dates:
            raise FormatError(
                gettext_noop("unknown evening %(evening)s"),
                {"evening": h.evening.isoformat()},
                path=f"{path}.evening",
            )
        if h.participant is not None and h.participant not in participants:
            raise FormatError(
                _UNKNOWN_PARTICIPANT, {"participant": h.participant}, path=f"{path}.participant"
            )
