"""The season archive out: a season with everything that makes it up as the archive's
dataclasses (:func:`season_archive`) and as the archive's canonical text
(:func:`season_archive_text`). The format itself is :mod:`competition.formats.archive`; the way
back in is :mod:`.archive`.

A season archive carries no account data: a member's login (``Member.user``), e-mail address,
notification choices and calendar token, and invitations, stay in the installation that has
them (docs/decisions.md says why).
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from django.contrib.auth import get_user_model

from competition.formats import archive as fa
from competition.models import (
    AbsenceReport,
    Category,
    Club,
    ClubEvening,
    ForbiddenPair,
    Game,
    Participant,
    Round,
    RoundEntry,
    Season,
    SeasonRules,
)
from competition.scoring.exact import fraction_to_text
from competition.scoring.fingerprint import season_fingerprint
from competition.selectors.common import season_input
from competition.selectors.ratings import club_rating_rules
from competition.services.transfer.archive_tables import (
    GROUP_COMPETITION_COLUMNS,
    RATING_FIELDS,
    decimal_text,
    same_values,
)

T = TypeVar("T")


def _parameters_out(stored: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
    """A season's stored parameters as the archive's exact strings (``"0.07"``, ``"true"``)."""
    out = []
    for name, value in stored.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int):
            text = str(value)
        elif isinstance(value, str) and re.fullmatch(r"[+-]?\d+(/\d+|\.\d+)?", value):
            text = fraction_to_text(Fraction(value))
        else:
            text = str(value)
        out.append((name, text))
    return tuple(sorted(out))


def _usernames(user_ids: Iterable[int | None]) -> dict[int, str]:
    """The username of every user id given (one query); ids of deleted users are left out."""
    wanted = {pk for pk in user_ids if pk is not None}
    if not wanted:
        return {}
    user_model = get_user_model()
    return {user.pk: user.get_username() for user in user_model.objects.filter(pk__in=wanted)}


def _history_rows(
    model: Any, live_ids: Iterable[int], parent_ids: Sequence[int], *, parent: str = "round"
) -> list[Any]:
    """Every simple-history row of the season's live rows and of its deleted rows, in
    recording order. A deleted row is found by a history row naming one of the season's
    rounds (or evenings: ``parent``) and an id no live row has any more."""
    live = set(live_ids)
    deleted = set(
        model.history.filter(**{f"{parent}_id__in": parent_ids})
        .exclude(id__in=model.objects.values("id"))
        .values_list("id", flat=True)
    )
    return list(model.history.filter(id__in=live | deleted).order_by("history_date", "history_id"))


def _archive_ids(rows: Sequence[Any], live: Sequence[Any]) -> dict[int, int]:
    """Archive ids of the history's objects: a live row's own (1, 2, ... in the order of
    ``live``), a deleted row the next free one in order of its first history record."""
    ids = {row.id: number for number, row in enumerate(live, start=1)}
    start = len(live) + 1
    for record in rows:
        if record.id not in ids:
            ids[record.id] = start
            start += 1
    return ids


@dataclasses.dataclass
class _SeasonRows:
    """A season's rows in the archive's order, with their history rows, and the archive ids
    they are written with (``pid``: participants and members; ``gid``, ``eid``, ``rid``: games,
    entries and absence reports, live and deleted)."""

    participants: list[Participant]
    rounds: list[Round]
    games: list[Game]
    entries: list[RoundEntry]
    rule_rows: list[SeasonRules]
    evenings: list[ClubEvening]
    reports: list[AbsenceReport]
    game_rows: list[Any]
    entry_rows: list[Any]
    report_rows: list[Any]
    pid: dict[int, int]
    round_number: dict[int, int]
    evening_date: dict[int, datetime.date]
    gid: dict[int, int] = dataclasses.field(default_factory=dict)
    eid: dict[int, int] = dataclasses.field(default_factory=dict)
    rid: dict[int, int] = dataclasses.field(default_factory=dict)
    names: dict[int, str] = dataclasses.field(default_factory=dict)

    def user(self, pk: int | None) -> str | None:
        return None if pk is None else self.names.get(pk)

    def participant(self, pk: int | None) -> int | None:
        return None if pk is None else self.pid.get(pk)

    def round_of(self, pk: int | None) -> int | None:
        return None if pk is None else self.round_number.get(pk)

    def references(self, h: Any, record: type[Any]) -> dict[str, Any]:
        """The history row's columns that name other rows as the archive ``record`` names
        them: users by username, rounds by number, evenings by date, participants by archive
        id (and an entry's points as an exact string)."""
        if record is fa.ArchiveReportRecord:
            return {
                "evening": self.evening_date.get(h.evening_id),
                "participant": self.participant(h.participant_id),
                "reported_by": self.user(h.reported_by_id),
            }
        values = {"round": self.round_of(h.round_id), "updated_by": self.user(h.updated_by_id)}
        if record is fa.ArchiveGameRecord:
            return values | {
                "white": self.participant(h.white_id),
                "black": self.participant(h.black_id),
            }
        return values | {
            "participant": self.participant(h.participant_id),
            "points": fraction_to_text(Fraction(h.points)),
        }


def _season_rows(season: Season) -> _SeasonRows:
    """The rows of ``season`` numbered as :func:`season_archive` describes."""
    participants = sorted(
        Participant.objects.filter(season=season).select_related("member"),
        key=lambda p: (p.start_rank is None, p.start_rank or 0, p.member.name, p.id),
    )
    pid = {p.id: index for index, p in enumerate(participants, start=1)}
    rounds = list(Round.objects.filter(season=season).order_by("number"))
    round_number = {r.id: r.number for r in rounds}
    evenings = list(ClubEvening.objects.filter(season=season).order_by("date"))
    evening_date = {e.id: e.date for e in evenings}
    games = sorted(
        Game.objects.filter(round__season=season),
        key=lambda g: (round_number[g.round_id], g.board),
    )
    entries = sorted(
        RoundEntry.objects.filter(round__season=season),
        key=lambda e: (round_number[e.round_id], pid[e.participant_id]),
    )
    reports = sorted(
        AbsenceReport.objects.filter(evening__season=season),
        key=lambda r: (evening_date[r.evening_id], pid[r.participant_id]),
    )
    round_ids = [r.id for r in rounds]
    rows = _SeasonRows(
        participants=participants,
        rounds=rounds,
        games=games,
        entries=entries,
        rule_rows=list(SeasonRules.objects.filter(season=season).order_by("version")),
        evenings=evenings,
        reports=reports,
        game_rows=_history_rows(Game, (g.id for g in games), round_ids),
        entry_rows=_history_rows(RoundEntry, (e.id for e in entries), round_ids),
        report_rows=_history_rows(
            AbsenceReport, (r.id for r in reports), list(evening_date), parent="evening"
        ),
        pid=pid,
        round_number=round_number,
        evening_date=evening_date,
    )
    rows.gid = _archive_ids(rows.game_rows, games)
    rows.eid = _archive_ids(rows.entry_rows, entries)
    rows.rid = _archive_ids(rows.report_rows, reports)
    rows.names = _usernames(
        [r.changed_by_id for r in rows.rule_rows]
        + [row.updated_by_id for row in (*games, *entries, *rows.game_rows, *rows.entry_rows)]
        + [row.history_user_id for row in (*rows.game_rows, *rows.entry_rows, *rows.report_rows)]
        + [row.reported_by_id for row in (*reports, *rows.report_rows)]
    )
    return rows


def _group_out(season: Season) -> dict[str, Any]:
    """The season's group and period with its group competition's settings."""
    competition = season.group_competition
    if competition is None:
        return {}
    return {
        "group_letter": season.group_letter,
        "group_period": season.group_period,
        **{
            name: getattr(competition, column) for name, column in GROUP_COMPETITION_COLUMNS.items()
        },
    }


def _club_out(club: Club) -> fa.ArchiveClub:
    """The club with its club rating rules (the defaults when it never set them)."""
    rules = club_rating_rules(club=club)
    return fa.ArchiveClub(
        club.name,
        club.slug,
        **{f"rating_{name}": getattr(rules, name) for name in RATING_FIELDS},
    )


def _season_out(season: Season) -> fa.ArchiveSeason:
    """The season's own settings, its periods, evening points and group."""
    return fa.ArchiveSeason(
        **same_values(season, fa.ArchiveSeason),
        parameters=_parameters_out(season.parameters),
        tiebreaks=tuple(season.tiebreaks),
        bye_points=fraction_to_text(Fraction(season.bye_points)),
        periods=tuple(
            fa.ArchivePeriod(last_round=int(end)) for end in sorted(season.period_ends or ())
        ),
        **_group_out(season),
        evening_points=tuple(
            fa.ArchiveEveningPoints(place=place, points=int(points))
            for place, points in enumerate(season.evening_points or (), start=1)
        ),
    )


def _members_out(rows: _SeasonRows) -> tuple[fa.ArchiveMember, ...]:
    return tuple(
        fa.ArchiveMember(
            **same_values(p.member, fa.ArchiveMember),
            id=rows.pid[p.id],
            knsb_relatienummer=p.member.knsb_id or None,
        )
        for p in rows.participants
    )


def _rule_sets_out(rows: _SeasonRows) -> tuple[fa.ArchiveRuleSet, ...]:
    return tuple(
        fa.ArchiveRuleSet(
            **same_values(r, fa.ArchiveRuleSet),
            parameters=_parameters_out(r.parameters),
            tiebreaks=tuple(r.tiebreaks),
            changed_by=rows.user(r.changed_by_id),
        )
        for r in rows.rule_rows
    )


def _participants_out(rows: _SeasonRows) -> tuple[fa.ArchiveParticipant, ...]:
    return tuple(
        fa.ArchiveParticipant(
            **same_values(p, fa.ArchiveParticipant),
            id=rows.pid[p.id],
            member=rows.pid[p.id],
            start_points=decimal_text(p.start_points),
            initial_value=decimal_text(p.initial_value),
        )
        for p in rows.participants
    )


def _by_parent(
    parents: Iterable[Any], children: Iterable[Any], parent_id: str, out: Callable[[Any], T]
) -> dict[int, tuple[T, ...]]:
    """Each parent's children (its id in the child's field ``parent_id``) as the archive writes
    them, in the children's order; a parent without any has an empty tuple."""
    grouped: dict[int, list[T]] = {parent.id: [] for parent in parents}
    for child in children:
        grouped[getattr(child, parent_id)].append(out(child))
    return {key: tuple(values) for key, values in grouped.items()}


def _rounds_out(rows: _SeasonRows) -> tuple[fa.ArchiveRound, ...]:
    """The rounds with their games and entries."""

    def game_out(g: Game) -> fa.ArchiveGame:
        return fa.ArchiveGame(
            **same_values(g, fa.ArchiveGame),
            id=rows.gid[g.id],
            white=rows.pid[g.white_id],
            black=rows.pid[g.black_id],
            updated_by=rows.user(g.updated_by_id),
            updated_at=g.updated_at,
        )

    def entry_out(e: RoundEntry) -> fa.ArchiveEntry:
        return fa.ArchiveEntry(
            **same_values(e, fa.ArchiveEntry),
            id=rows.eid[e.id],
            participant=rows.pid[e.participant_id],
            points=fraction_to_text(Fraction(e.points)),
            updated_by=rows.user(e.updated_by_id),
            updated_at=e.updated_at,
        )

    games = _by_parent(rows.rounds, rows.games, "round_id", game_out)
    entries = _by_parent(rows.rounds, rows.entries, "round_id", entry_out)
    return tuple(
        fa.ArchiveRound(**same_values(r, fa.ArchiveRound), games=games[r.id], entries=entries[r.id])
        for r in rows.rounds
    )


def _evenings_out(rows: _SeasonRows) -> tuple[fa.ArchiveEvening, ...]:
    """The club evenings with their absence reports."""

    def report_out(r: AbsenceReport) -> fa.ArchiveReport:
        return fa.ArchiveReport(
            **same_values(r, fa.ArchiveReport),
            id=rows.rid[r.id],
            participant=rows.pid[r.participant_id],
            reported_by=rows.user(r.reported_by_id),
        )

    reports = _by_parent(rows.evenings, rows.reports, "evening_id", report_out)
    return tuple(
        fa.ArchiveEvening(**same_values(e, fa.ArchiveEvening), reports=reports[e.id])
        for e in rows.evenings
    )


def _history_out(rows: _SeasonRows, record: type[Any], key: str) -> tuple[Any, ...]:
    """The history rows of games, entries or absence reports (``record``: the archive's class
    of them) with the archive id of their object under ``key``."""
    history_rows, ids = {
        fa.ArchiveGameRecord: (rows.game_rows, rows.gid),
        fa.ArchiveEntryRecord: (rows.entry_rows, rows.eid),
        fa.ArchiveReportRecord: (rows.report_rows, rows.rid),
    }[record]
    return tuple(
        record(
            **same_values(h, record),
            **{key: ids[h.id]},
            history_user=rows.user(h.history_user_id),
            **rows.references(h, record),
        )
        for h in history_rows
    )


def _forbidden_pairs_out(season: Season, rows: _SeasonRows) -> tuple[fa.ArchiveForbiddenPair, ...]:
    pid = rows.pid
    return tuple(
        sorted(
            (
                fa.ArchiveForbiddenPair(
                    first=min(pid[f.first_id], pid[f.second_id]),
                    second=max(pid[f.first_id], pid[f.second_id]),
                    note=f.note,
                )
                for f in ForbiddenPair.objects.filter(season=season)
            ),
            key=lambda pair: (pair.first, pair.second),
        )
    )


def _categories_out(season: Season, rows: _SeasonRows) -> tuple[fa.ArchiveCategory, ...]:
    return tuple(
        fa.ArchiveCategory(
            **same_values(c, fa.ArchiveCategory),
            chosen=tuple(
                sorted(
                    (fa.ArchiveChosen(participant=rows.pid[p.pk]) for p in c.chosen.all()),
                    key=lambda chosen: chosen.participant,
                )
            ),
        )
        for c in Category.objects.filter(season=season).prefetch_related("chosen")
    )


def season_archive(*, season: Season) -> fa.SeasonArchive:
    """Everything of ``season`` as the archive's dataclasses, with archive-local ids.

    Participants are numbered 1, 2, ... by (start number, name, database id) and members with
    their participant's number; games 1, 2, ... by (round, board), then deleted games in order
    of their first history record; entries likewise by (round, participant). An archive
    loaded into an empty database numbers everything the same way again.
    """
    season = Season.objects.select_related("club").get(pk=season.pk)
    rows = _season_rows(season)
    return fa.SeasonArchive(
        club=_club_out(season.club),
        season=_season_out(season),
        members=_members_out(rows),
        rule_sets=_rule_sets_out(rows),
        participants=_participants_out(rows),
        rounds=_rounds_out(rows),
        game_history=_history_out(rows, fa.ArchiveGameRecord, "game"),
        entry_history=_history_out(rows, fa.ArchiveEntryRecord, "entry"),
        evenings=_evenings_out(rows),
        report_history=_history_out(rows, fa.ArchiveReportRecord, "report"),
        forbidden_pairs=_forbidden_pairs_out(season, rows),
        categories=_categories_out(season, rows),
        fingerprint=season_fingerprint(season_input(season=season)),
    )


def season_archive_text(*, season: Season) -> str:
    """The canonical archive text of ``season`` (``export_season``)."""
    return fa.dump_archive(season_archive(season=season))
