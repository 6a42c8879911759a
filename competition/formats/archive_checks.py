"""The season archive's checks across its objects, after :mod:`competition.formats.archive_reader`
has read each field: identifiers given once, references to known members, participants and
rounds, history in recording order, and what the app keeps true of rounds, club evenings,
pairing rules, categories and periods. :func:`check_archive` raises :class:`FormatError` with
the JSON path of the first problem."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from competition.formats.archive import ArchiveEntryRecord, ArchiveGameRecord, SeasonArchive
from competition.formats.errors import FormatError, Term
from competition.scoring.text import gettext_noop

_UNKNOWN_PARTICIPANT = gettext_noop("unknown participant %(participant)s")
_HISTORY_ORDER = gettext_noop("the history must be in recording order (history_date goes back)")


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


def _child_ids(parents: Sequence[Any], path: str, children: str) -> dict[str, object]:
    """The id of each object in the list ``children`` of each of ``parents`` (the list at
    ``path``), by its JSON path: ``{"rounds[0].games[0].id": 1, "rounds[0].games[1].id": 2}``."""
    return {
        f"{path}[{i}].{children}[{j}].id": child.id
        for i, parent in enumerate(parents)
        for j, child in enumerate(getattr(parent, children))
    }


def check_archive(archive: SeasonArchive) -> None:
    """Refuse what the schema alone cannot: an identifier given twice, a reference to an unknown
    member, participant or round, history out of recording order, and whatever the app keeps
    true of a season's rounds, evenings, pairing rules, categories and periods."""
    _check_identifiers(archive)
    participants = {p.id for p in archive.participants}
    _check_round_players(archive, participants)
    _check_history(archive, participants)
    _check_evenings(archive, participants)
    _check_forbidden_pairs(archive, participants)
    _check_categories(archive, participants)
    _check_evening_points(archive)
    _check_rounds(archive)
    _check_periods(archive)


def _check_identifiers(archive: SeasonArchive) -> None:
    """Every identifier once; every participant a known member, and each member once."""
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
    _unique(_child_ids(archive.rounds, "rounds", "games"), gettext_noop("game id"))
    _unique(_child_ids(archive.rounds, "rounds", "entries"), gettext_noop("entry id"))


def _check_round_players(archive: SeasonArchive, participants: set[int]) -> None:
    """Every player of a round's games and entries a participant, once a round; boards once."""
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


def _check_history(archive: SeasonArchive, participants: set[int]) -> None:
    """The games' and entries' history in recording order, naming known rounds and players."""
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
    _unique(_child_ids(archive.evenings, "evenings", "reports"), gettext_noop("report id"))
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
