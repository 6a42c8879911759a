"""Where each part of the season archive is stored: the table of each archive object, the
fields an object and its row hold under the same name and value (which the export
(:mod:`.archive_export`) and the import (:mod:`.archive`) copy from one to the other), and the
check of every archive value against the column it goes to (:func:`check_columns`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model

from competition import models
from competition.formats import archive as fa
from competition.scoring.exact import fraction_to_text
from competition.services.transfer.columns import check_column, check_row


def decimal_text(value: Decimal | str | None) -> str | None:
    """A stored exact number as the archive's string: ``Decimal("199.0000")`` → ``"199"``,
    ``"1356/7"`` stays ``"1356/7"``."""
    return None if value is None else fraction_to_text(Fraction(value))


# The club's rating rules (ClubRatingRules), in the archive's club as rating_<name>.
RATING_FIELDS = (
    "k_new_player", "k_standard", "k_top", "k_junior", "start_rule", "start_rating",
    "rapid_counts", "external_counts",
)  # fmt: skip

# --- the tables ----------------------------------------------------------------------------


# Where each part of the archive is stored: the model of its table and the archive's fields that
# are that table's columns (by the column's name where it differs), so that every value is checked
# against the column it goes to (columns.py) before anything is written. The other fields are the
# archive's own identifiers and references, lists written to their own tables, the rules (checked
# against the ranking system) and the users (checked against the user model's username).
USERNAMES = frozenset({"changed_by", "updated_by", "reported_by", "history_user"})


@dataclasses.dataclass(frozen=True)
class Table:
    model: Any
    columns: Mapping[str, str]  # archive field -> model field
    applies: Any = None  # a predicate on the archive object: this table only when it holds


def _columns(*names: str, **renamed: str) -> dict[str, str]:
    return {name: name for name in names} | renamed


# The archive season's fields that are its group competition's, by the GroupCompetition field.
GROUP_COMPETITION_COLUMNS = _columns(
    group_competition="slug",
    group_competition_name="name",
    group_periods="periods",
    group_rounds_per_period="rounds_per_period",
    group_promoted="promoted",
    group_relegated="relegated",
    group_champion_rule="champion_rule",
)

TABLES: dict[type[Any], tuple[tuple[Table, ...], frozenset[str]]] = {
    fa.SeasonArchive: ((), frozenset(f.name for f in dataclasses.fields(fa.SeasonArchive))),
    fa.ArchiveClub: (
        (
            Table(models.Club, _columns("name", "slug")),
            Table(models.ClubRatingRules, {f"rating_{name}": name for name in RATING_FIELDS}),
        ),
        frozenset(),
    ),
    fa.ArchiveSeason: (
        (
            Table(
                models.Season,
                _columns(
                    "name", "slug", "start_date", "end_date", "kind", "system",
                    "unplayed_policy", "min_games", "bye_points", "rematch_window", "status",
                    "rules_version", "absence_deadline", "requested_byes", "name_display",
                    "junior_birth_year", "max_meetings", "rematch_colours_reversed",
                    "one_pairing_bye", "rules_from_round", "rule_changes", "several_prizes",
                    "group_letter", "group_period", "rounds_per_evening", "best_evenings",
                    "evening_start", "seed_by_club_rating", "city", "federation",
                    "chief_arbiter", "deputy_arbiters", "time_control", "tournament_type",
                    "pending_days",
                ),
            ),
            Table(
                models.GroupCompetition,
                GROUP_COMPETITION_COLUMNS,
                applies=lambda season: season.group_competition is not None,
            ),
        ),
        frozenset({"parameters", "tiebreaks", "periods", "evening_points"}),
    ),
    fa.ArchiveRuleSet: (
        (
            Table(
                models.SeasonRules,
                _columns(
                    "version", "valid_from", "system", "unplayed_policy", "min_games", "from_round"
                ),
            ),
        ),
        frozenset({"parameters", "tiebreaks"}),
    ),
    fa.ArchiveMember: (
        (
            Table(
                models.Member,
                _columns(
                    "name", "fide_id", "rating", "rating_date", "birth_year", "active",
                    "name_display", "anonymised_at", "federation",
                    knsb_relatienummer="knsb_id",
                ),
            ),
        ),
        frozenset({"id"}),
    ),
    fa.ArchiveParticipant: (
        (
            Table(
                models.Participant,
                _columns(
                    "start_rank", "start_points", "initial_value", "joined_round", "rating",
                    "withdrawn_from_round", "withdrawal_note",
                ),
            ),
        ),
        frozenset({"id", "member"}),
    ),
    fa.ArchiveRound: (
        (Table(models.Round, _columns("number", "date", "status")),),
        frozenset({"games", "entries"}),
    ),
    fa.ArchiveGame: (
        (
            Table(
                models.Game,
                _columns("board", "result", "version", "updated_at", "fixed_by_td", "played_on"),
            ),
        ),
        frozenset({"id", "white", "black"}),
    ),
    fa.ArchiveEntry: (
        (
            Table(
                models.RoundEntry,
                _columns(
                    "kind", "points", "note", "updated_at", "fixed_by_td", "version",
                    "external_result",
                ),
            ),
        ),
        frozenset({"id", "participant"}),
    ),
    fa.ArchiveForbiddenPair: (
        (Table(models.ForbiddenPair, _columns("note")),),
        frozenset({"first", "second"}),
    ),
    fa.ArchiveCategory: (
        (
            Table(
                models.Category,
                _columns(
                    "order", "name", "kind", "rating_from", "rating_below", "unrated",
                    "born_from", "born_to", "prizes", "most_improved",
                ),
            ),
        ),
        frozenset({"chosen"}),
    ),
    fa.ArchiveChosen: ((), frozenset({"participant"})),
    fa.ArchivePeriod: ((), frozenset({"last_round"})),  # Season.period_ends, a list
    fa.ArchiveEveningPoints: ((), frozenset({"place", "points"})),  # Season.evening_points
    fa.ArchiveEvening: (
        (Table(models.ClubEvening, _columns("date", "round_number", "note")),),
        frozenset({"reports"}),
    ),
    fa.ArchiveReport: (
        (Table(models.AbsenceReport, _columns("kind", "note", "reported_at")),),
        frozenset({"id", "participant"}),
    ),
    # The history tables hold what the rows held; they have no validators or constraints of
    # their own in the database (a row of a deleted game keeps its values), so only their
    # columns are checked.
    fa.ArchiveGameRecord: (
        (
            Table(
                models.Game.history.model,
                _columns(
                    "history_date", "history_type", "history_change_reason", "board", "result",
                    "version", "updated_at", "fixed_by_td", "played_on",
                ),
            ),
        ),
        frozenset({"game", "round", "white", "black"}),
    ),
    fa.ArchiveEntryRecord: (
        (
            Table(
                models.RoundEntry.history.model,
                _columns(
                    "history_date", "history_type", "history_change_reason", "kind", "points",
                    "note", "updated_at", "fixed_by_td", "version", "external_result",
                ),
            ),
        ),
        frozenset({"entry", "round", "participant"}),
    ),
    fa.ArchiveReportRecord: (
        (
            Table(
                models.AbsenceReport.history.model,
                _columns(
                    "history_date", "history_type", "history_change_reason", "kind", "note",
                    "reported_at",
                ),
            ),
        ),
        frozenset({"report", "evening", "participant"}),
    ),
}  # fmt: skip


# --- what the export and the import copy as it is -------------------------------------------


def _same_fields(cls: type[Any], *converted: str) -> tuple[str, ...]:
    """The fields an archive object of ``cls`` and its row hold under the same name and with the
    same value, which the export and the import copy as they are: the columns of its first table
    that keep their name, but the ``converted`` ones."""
    table = TABLES[cls][0][0]
    return tuple(
        name for name, column in table.columns.items() if name == column and name not in converted
    )


# The archive's history records hold the history rows' own columns under the same names, except
# ids, users, rounds and participants (translated) and points (an exact string in the archive).
_SHARED_HISTORY = (
    "history_date",
    "history_type",
    "history_change_reason",
    "board",
    "result",
    "version",
    "kind",
    "note",
    "updated_at",
    "fixed_by_td",
    "played_on",
    "external_result",
    "reported_at",
)


def _history_fields(record: type[Any]) -> tuple[str, ...]:
    """The fields of :data:`_SHARED_HISTORY` that the history ``record`` declares."""
    names = {spec.name for spec in dataclasses.fields(record)}
    return tuple(name for name in _SHARED_HISTORY if name in names)


# What the export and the import copy as it is, by archive class. A game's and an entry's
# updated_at is copied on the way out only: on the way in, bulk_create sets it to now and
# _bulk_create_with_moments writes it after. A member's knsb_relatienummer is Member.knsb_id.
SAME_FIELDS: dict[type[Any], tuple[str, ...]] = {
    fa.ArchiveSeason: _same_fields(fa.ArchiveSeason, "bye_points", "group_letter", "group_period"),
    fa.ArchiveRuleSet: _same_fields(fa.ArchiveRuleSet),
    fa.ArchiveMember: _same_fields(fa.ArchiveMember),
    fa.ArchiveParticipant: _same_fields(fa.ArchiveParticipant, "start_points", "initial_value"),
    fa.ArchiveRound: _same_fields(fa.ArchiveRound),
    fa.ArchiveGame: _same_fields(fa.ArchiveGame, "updated_at"),
    fa.ArchiveEntry: _same_fields(fa.ArchiveEntry, "points", "updated_at"),
    fa.ArchiveEvening: _same_fields(fa.ArchiveEvening),
    fa.ArchiveReport: _same_fields(fa.ArchiveReport),
    fa.ArchiveCategory: _same_fields(fa.ArchiveCategory),
    fa.ArchiveGameRecord: _history_fields(fa.ArchiveGameRecord),
    fa.ArchiveEntryRecord: _history_fields(fa.ArchiveEntryRecord),
    fa.ArchiveReportRecord: _history_fields(fa.ArchiveReportRecord),
}


def same_values(source: object, cls: type[Any]) -> dict[str, Any]:
    """The values of ``source`` (a row, or an archive object) that an archive object of ``cls``
    and its row hold alike (:data:`SAME_FIELDS`), by name."""
    return {name: getattr(source, name) for name in SAME_FIELDS[cls]}


# --- every archive value against the column it goes to, before anything is written --------


# An archive value as the column holds it, where the two differ.
_STORED: dict[tuple[type[Any], str], Any] = {
    (fa.ArchiveMember, "knsb_relatienummer"): lambda value: value or "",
    (fa.ArchiveParticipant, "start_points"): lambda value: decimal_text(value),
}


def archive_objects(value: Any, path: str) -> Iterable[tuple[Any, str]]:
    """Every object of the archive with its JSON path, the archive itself first (path "")."""
    yield value, path
    for spec in dataclasses.fields(value):
        item = getattr(value, spec.name)
        key = fa.field_key(type(value), spec.name)
        where = f"{path}.{key}" if path else key
        if dataclasses.is_dataclass(item):
            yield from archive_objects(item, where)
        elif isinstance(item, tuple) and item and dataclasses.is_dataclass(item[0]):
            for index, element in enumerate(item):
                yield from archive_objects(element, f"{where}[{index}]")


def check_columns(archive: fa.SeasonArchive) -> None:
    """Every value of the archive against the column it is stored in, each row against its
    table's check constraints (history rows: their columns only), every username against the
    user model's."""
    user_model = get_user_model()
    passed: set[tuple[object, ...]] = set()
    for item, path in archive_objects(archive, ""):
        tables, _others = TABLES[type(item)]
        for name in USERNAMES & {spec.name for spec in dataclasses.fields(item)}:
            username = getattr(item, name)
            if username is not None:
                check_column(
                    user_model,
                    user_model.USERNAME_FIELD,
                    username,
                    path=f"{path}.{fa.field_key(type(item), name)}",
                )
        for table in tables:
            if table.applies is not None and not table.applies(item):
                continue
            values: dict[str, object] = {}
            paths: dict[str, str] = {}
            for name, column_name in table.columns.items():
                convert = _STORED.get((type(item), name))
                value = getattr(item, name)
                values[column_name] = value if convert is None else convert(value)
                paths[column_name] = f"{path}.{fa.field_key(type(item), name)}"
            history = getattr(table.model, "instance_type", None) is not None
            check_row(table.model, values, paths=paths, path=path, rules=not history, passed=passed)
