"""The season archive in and out: a season with everything that makes it up as the archive's
dataclasses (:func:`season_archive`, :func:`season_archive_text`), and an archive as a new
season (:func:`archive_import`). The format itself is :mod:`competition.formats.archive`.

A season archive carries no account data: a member's login (``Member.user``), e-mail address,
notification choices and calendar token, and invitations, stay in the installation that has
them (accounts do not travel between installations; an e-mail address is personal data that a
season's record does not need; ``pg_dump`` is the full backup). docs/decisions.md says why.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from competition.formats import archive as fa
from competition.formats.archive_input import archive_fingerprint
from competition.formats.archive_reader import load_archive
from competition.formats.errors import FormatError, Term
from competition.models import (
    AbsenceReport,
    Category,
    Club,
    ClubEvening,
    ClubRatingRules,
    ForbiddenPair,
    Game,
    GroupCompetition,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
    SeasonRules,
)
from competition.scoring import groups as group_rules
from competition.scoring.exact import fraction_to_text
from competition.scoring.fingerprint import season_fingerprint, short_form
from competition.scoring.parameters import ParameterError, ParameterKind, parameters_to_json
from competition.scoring.registry import UnknownSystemError, get_system
from competition.scoring.text import Text
from competition.scoring.tiebreaks import (
    UNPLAYED_POLICIES,
    UnknownTiebreakError,
    validate_tiebreaks,
)
from competition.selectors.common import season_input
from competition.selectors.ratings import club_rating_rules
from competition.services.absences import calendar_window
from competition.services.errors import ServiceError
from competition.services.ratings import club_ratings_season_replay
from competition.services.standings import standings_recompute
from competition.services.transfer.columns import check_column, check_row
from competition.services.transfer.common import (
    ImportReport,
    decode_text,
    match_member,
    member_matcher,
    run_import,
)


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


def _parameters_in(system: str, pairs: Sequence[tuple[str, str]], path: str) -> dict[str, object]:
    """Archive parameters as the database stores them (``parameters_to_json``: ``"0.07"``)."""
    try:
        ranking = get_system(system)
    except UnknownSystemError as error:
        raise FormatError(error.text.template, error.text.values, path=f"{path}.system") from None
    specs = {spec.name: spec for spec in ranking.parameters}
    raw: dict[str, object] = {}
    for name, text in pairs:
        spec = specs.get(name)
        if spec is None:
            raise FormatError(
                gettext_noop("unknown parameter of %(system)s"),
                {"system": system},
                path=f"{path}.parameters.{name}",
            )
        if spec.kind is ParameterKind.BOOL:
            if text not in ("true", "false"):
                raise FormatError(
                    gettext_noop("expected 'true' or 'false'"), path=f"{path}.parameters.{name}"
                )
            raw[name] = text == "true"
        else:
            raw[name] = text
    try:
        values = ranking.validate(raw)
    except ParameterError as error:
        raise FormatError(
            error.text.template, error.text.values, path=f"{path}.parameters"
        ) from None
    return parameters_to_json({k: v for k, v in values.items() if k in raw})


def _decimal_text(value: Decimal | str | None) -> str | None:
    """A stored exact number as the archive's string: ``Decimal("199.0000")`` → ``"199"``,
    ``"1356/7"`` stays ``"1356/7"``."""
    return None if value is None else fraction_to_text(Fraction(value))


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


def _archive_ids(rows: Sequence[Any], live: Mapping[int, int], start: int) -> dict[int, int]:
    """Archive ids of the history's objects: a live row's own, a deleted row the next free one
    (``start``, ``start + 1``, ...) in order of its first history record."""
    ids = dict(live)
    for record in rows:
        if record.id not in ids:
            ids[record.id] = start
            start += 1
    return ids


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
    "external_result",
    "reported_at",
)


def _shared_values(row: object, record: type[Any]) -> dict[str, Any]:
    """The values of ``row`` (a history row or an archive record) that the other side holds
    unchanged, by name: those of :data:`_SHARED_HISTORY` that ``record`` declares."""
    names = {spec.name for spec in dataclasses.fields(record)}
    return {name: getattr(row, name) for name in _SHARED_HISTORY if name in names}


def _group_out(season: Season) -> dict[str, Any]:
    """The season's group and period with its group competition's settings (issue 14)."""
    competition = season.group_competition
    if competition is None:
        return {}
    return {
        "group_competition": competition.slug,
        "group_competition_name": competition.name,
        "group_letter": season.group_letter,
        "group_period": season.group_period,
        "group_periods": competition.periods,
        "group_rounds_per_period": competition.rounds_per_period,
        "group_promoted": competition.promoted,
        "group_relegated": competition.relegated,
        "group_champion_rule": competition.champion_rule,
    }


def _group_in(a: fa.ArchiveSeason, club: Club) -> dict[str, Any]:
    """The group competition an imported group season belongs to: the one of the club with
    the archive's slug, else made from the archive's settings (the first group season brings
    it, the others find it). Group competition slugs are unique per club (issue 16): another
    club's group competition of the same slug is not this one."""
    if a.group_competition is None:
        return {}
    competition = GroupCompetition.objects.filter(club=club, slug=a.group_competition).first()
    if competition is None:
        competition = GroupCompetition.objects.create(
            club=club,
            slug=a.group_competition,
            name=a.group_competition_name,
            periods=a.group_periods,
            rounds_per_period=a.group_rounds_per_period,
            promoted=a.group_promoted,
            relegated=a.group_relegated,
            champion_rule=a.group_champion_rule,
        )
    return {
        "group_competition": competition,
        "group_letter": a.group_letter,
        "group_period": a.group_period,
    }


_RATING_FIELDS = (
    "k_new_player", "k_standard", "k_top", "k_junior", "start_rule", "start_rating",
    "rapid_counts", "external_counts",
)  # fmt: skip


def _club_out(club: Club) -> fa.ArchiveClub:
    """The club with its club rating rules (the defaults when it never set them)."""
    rules = club_rating_rules(club=club)
    return fa.ArchiveClub(
        club.name,
        club.slug,
        **{f"rating_{name}": getattr(rules, name) for name in _RATING_FIELDS},
    )


def _club_rating_rules_in(archived: fa.ArchiveClub, club: Club) -> None:
    """A club that has no rating rules of its own takes the archive's (another club's rules
    are never changed by importing a season: they are the installation's, as its people)."""
    if ClubRatingRules.objects.filter(club=club).exists():
        return
    values = {name: getattr(archived, f"rating_{name}") for name in _RATING_FIELDS}
    if values != {name: getattr(ClubRatingRules(), name) for name in _RATING_FIELDS}:
        ClubRatingRules.objects.create(club=club, **values)


def season_archive(*, season: Season) -> fa.SeasonArchive:
    """Everything of ``season`` as the archive's dataclasses, with archive-local ids.

    Participants are numbered 1, 2, ... by (start number, name, database id) and members with
    their participant's number; games 1, 2, ... by (round, board), then deleted games in order
    of their first history record; entries likewise by (round, participant). An archive
    loaded into an empty database numbers everything the same way again.
    """
    season = Season.objects.select_related("club").get(pk=season.pk)
    participants = sorted(
        Participant.objects.filter(season=season).select_related("member"),
        key=lambda p: (p.start_rank is None, p.start_rank or 0, p.member.name, p.id),
    )
    pid = {p.id: index for index, p in enumerate(participants, start=1)}
    rounds = list(Round.objects.filter(season=season).order_by("number"))
    round_number = {r.id: r.number for r in rounds}
    games = sorted(
        Game.objects.filter(round__season=season),
        key=lambda g: (round_number[g.round_id], g.board),
    )
    entries = sorted(
        RoundEntry.objects.filter(round__season=season),
        key=lambda e: (round_number[e.round_id], pid[e.participant_id]),
    )
    rule_rows = list(SeasonRules.objects.filter(season=season).order_by("version"))
    round_ids = [r.id for r in rounds]
    game_rows = _history_rows(Game, (g.id for g in games), round_ids)
    entry_rows = _history_rows(RoundEntry, (e.id for e in entries), round_ids)
    gid = _archive_ids(game_rows, {g.id: n for n, g in enumerate(games, start=1)}, len(games) + 1)
    eid = _archive_ids(
        entry_rows, {e.id: n for n, e in enumerate(entries, start=1)}, len(entries) + 1
    )
    evenings = list(ClubEvening.objects.filter(season=season).order_by("date"))
    evening_date = {e.id: e.date for e in evenings}
    reports = sorted(
        AbsenceReport.objects.filter(evening__season=season),
        key=lambda r: (evening_date[r.evening_id], pid[r.participant_id]),
    )
    report_rows = _history_rows(
        AbsenceReport, (r.id for r in reports), list(evening_date), parent="evening"
    )
    rid = _archive_ids(
        report_rows, {r.id: n for n, r in enumerate(reports, start=1)}, len(reports) + 1
    )
    names = _usernames(
        [r.changed_by_id for r in rule_rows]
        + [row.updated_by_id for row in (*games, *entries, *game_rows, *entry_rows)]
        + [row.history_user_id for row in (*game_rows, *entry_rows, *report_rows)]
        + [row.reported_by_id for row in (*reports, *report_rows)]
    )

    def user(pk: int | None) -> str | None:
        return None if pk is None else names.get(pk)

    def participant(pk: int | None) -> int | None:
        return None if pk is None else pid.get(pk)

    def round_of(pk: int | None) -> int | None:
        return None if pk is None else round_number.get(pk)

    by_round_games: dict[int, list[fa.ArchiveGame]] = {r.id: [] for r in rounds}
    for g in games:
        by_round_games[g.round_id].append(
            fa.ArchiveGame(
                id=gid[g.id],
                board=g.board,
                white=pid[g.white_id],
                black=pid[g.black_id],
                result=g.result,
                version=g.version,
                updated_by=user(g.updated_by_id),
                updated_at=g.updated_at,
                fixed_by_td=g.fixed_by_td,
            )
        )
    by_round_entries: dict[int, list[fa.ArchiveEntry]] = {r.id: [] for r in rounds}
    for e in entries:
        by_round_entries[e.round_id].append(
            fa.ArchiveEntry(
                id=eid[e.id],
                participant=pid[e.participant_id],
                kind=e.kind,
                points=fraction_to_text(Fraction(e.points)),
                note=e.note,
                updated_by=user(e.updated_by_id),
                updated_at=e.updated_at,
                fixed_by_td=e.fixed_by_td,
                version=e.version,
                external_result=e.external_result,
            )
        )
    game_history = tuple(
        fa.ArchiveGameRecord(
            **_shared_values(h, fa.ArchiveGameRecord),
            game=gid[h.id],
            history_user=user(h.history_user_id),
            round=round_of(h.round_id),
            white=participant(h.white_id),
            black=participant(h.black_id),
            updated_by=user(h.updated_by_id),
        )
        for h in game_rows
    )
    by_evening_reports: dict[int, list[fa.ArchiveReport]] = {e.id: [] for e in evenings}
    for r in reports:
        by_evening_reports[r.evening_id].append(
            fa.ArchiveReport(
                id=rid[r.id],
                participant=pid[r.participant_id],
                kind=r.kind,
                note=r.note,
                reported_by=user(r.reported_by_id),
                reported_at=r.reported_at,
            )
        )
    report_history = tuple(
        fa.ArchiveReportRecord(
            **_shared_values(h, fa.ArchiveReportRecord),
            report=rid[h.id],
            history_user=user(h.history_user_id),
            evening=evening_date.get(h.evening_id),
            participant=participant(h.participant_id),
            reported_by=user(h.reported_by_id),
        )
        for h in report_rows
    )
    entry_history = tuple(
        fa.ArchiveEntryRecord(
            **_shared_values(h, fa.ArchiveEntryRecord),
            entry=eid[h.id],
            history_user=user(h.history_user_id),
            round=round_of(h.round_id),
            participant=participant(h.participant_id),
            points=fraction_to_text(Fraction(h.points)),
            updated_by=user(h.updated_by_id),
        )
        for h in entry_rows
    )
    return fa.SeasonArchive(
        club=_club_out(season.club),
        season=fa.ArchiveSeason(
            name=season.name,
            slug=season.slug,
            start_date=season.start_date,
            end_date=season.end_date,
            kind=season.kind,
            system=season.system,
            parameters=_parameters_out(season.parameters),
            tiebreaks=tuple(season.tiebreaks),
            unplayed_policy=season.unplayed_policy,
            min_games=season.min_games,
            bye_points=fraction_to_text(Fraction(season.bye_points)),
            rematch_window=season.rematch_window,
            status=season.status,
            rules_version=season.rules_version,
            absence_deadline=season.absence_deadline,
            requested_byes=season.requested_byes,
            evening_start=season.evening_start,
            name_display=season.name_display,
            junior_birth_year=season.junior_birth_year,
            max_meetings=season.max_meetings,
            rematch_colours_reversed=season.rematch_colours_reversed,
            one_pairing_bye=season.one_pairing_bye,
            rules_from_round=season.rules_from_round,
            rule_changes=season.rule_changes,
            periods=tuple(
                fa.ArchivePeriod(last_round=int(end)) for end in sorted(season.period_ends or ())
            ),
            several_prizes=season.several_prizes,
            **_group_out(season),
            rounds_per_evening=season.rounds_per_evening,
            evening_points=tuple(
                fa.ArchiveEveningPoints(place=place, points=int(points))
                for place, points in enumerate(season.evening_points or (), start=1)
            ),
            best_evenings=season.best_evenings,
            seed_by_club_rating=season.seed_by_club_rating,
            city=season.city,
            federation=season.federation,
            chief_arbiter=season.chief_arbiter,
            deputy_arbiters=season.deputy_arbiters,
            time_control=season.time_control,
            tournament_type=season.tournament_type,
        ),
        members=tuple(
            fa.ArchiveMember(
                id=pid[p.id],
                name=p.member.name,
                knsb_relatienummer=p.member.knsb_id or None,
                fide_id=p.member.fide_id,
                rating=p.member.rating,
                rating_date=p.member.rating_date,
                birth_year=p.member.birth_year,
                active=p.member.active,
                name_display=p.member.name_display,
                anonymised_at=p.member.anonymised_at,
                federation=p.member.federation,
            )
            for p in participants
        ),
        rule_sets=tuple(
            fa.ArchiveRuleSet(
                version=r.version,
                valid_from=r.valid_from,
                system=r.system,
                parameters=_parameters_out(r.parameters),
                tiebreaks=tuple(r.tiebreaks),
                unplayed_policy=r.unplayed_policy,
                min_games=r.min_games,
                changed_by=user(r.changed_by_id),
                from_round=r.from_round,
            )
            for r in rule_rows
        ),
        participants=tuple(
            fa.ArchiveParticipant(
                id=pid[p.id],
                member=pid[p.id],
                start_rank=p.start_rank,
                start_points=_decimal_text(p.start_points),
                initial_value=_decimal_text(p.initial_value),
                joined_round=p.joined_round,
                withdrawn_from_round=p.withdrawn_from_round,
                withdrawal_note=p.withdrawal_note,
                rating=p.rating,
            )
            for p in participants
        ),
        rounds=tuple(
            fa.ArchiveRound(
                number=r.number,
                date=r.date,
                status=r.status,
                games=tuple(by_round_games[r.id]),
                entries=tuple(by_round_entries[r.id]),
            )
            for r in rounds
        ),
        game_history=game_history,
        entry_history=entry_history,
        evenings=tuple(
            fa.ArchiveEvening(
                date=e.date,
                round_number=e.round_number,
                note=e.note,
                reports=tuple(by_evening_reports[e.id]),
            )
            for e in evenings
        ),
        report_history=report_history,
        forbidden_pairs=tuple(
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
        ),
        categories=tuple(
            fa.ArchiveCategory(
                order=c.order,
                name=c.name,
                kind=c.kind,
                rating_from=c.rating_from,
                rating_below=c.rating_below,
                unrated=c.unrated,
                born_from=c.born_from,
                born_to=c.born_to,
                prizes=c.prizes,
                most_improved=c.most_improved,
                chosen=tuple(
                    sorted(
                        (fa.ArchiveChosen(participant=pid[p.pk]) for p in c.chosen.all()),
                        key=lambda chosen: chosen.participant,
                    )
                ),
            )
            for c in Category.objects.filter(season=season).prefetch_related("chosen")
        ),
        fingerprint=season_fingerprint(season_input(season)),
    )


def season_archive_text(*, season: Season) -> str:
    """The canonical archive text of ``season`` (``export_season``)."""
    return fa.dump_archive(season_archive(season=season))


# --- season archive: import ------------------------------------------------------------------


# Where each part of the archive is stored: the model of its table and the archive's fields that
# are that table's columns (by the column's name where it differs), so that every value is checked
# against the column it goes to (columns.py) before anything is written. The other fields are the
# archive's own identifiers and references, lists written to their own tables, the rules (checked
# against the ranking system) and the users (checked against the user model's username).
_USERNAMES = frozenset({"changed_by", "updated_by", "reported_by", "history_user"})


@dataclasses.dataclass(frozen=True)
class _Table:
    model: Any
    columns: Mapping[str, str]  # archive field -> model field
    applies: Any = None  # a predicate on the archive object: this table only when it holds


def _columns(*names: str, **renamed: str) -> dict[str, str]:
    return {name: name for name in names} | renamed


_TABLES: dict[type[Any], tuple[tuple[_Table, ...], frozenset[str]]] = {
    fa.SeasonArchive: ((), frozenset(f.name for f in dataclasses.fields(fa.SeasonArchive))),
    fa.ArchiveClub: (
        (
            _Table(Club, _columns("name", "slug")),
            _Table(
                ClubRatingRules,
                _columns(
                    rating_k_new_player="k_new_player",
                    rating_k_standard="k_standard",
                    rating_k_top="k_top",
                    rating_k_junior="k_junior",
                    rating_start_rule="start_rule",
                    rating_start_rating="start_rating",
                    rating_rapid_counts="rapid_counts",
                    rating_external_counts="external_counts",
                ),
            ),
        ),
        frozenset(),
    ),
    fa.ArchiveSeason: (
        (
            _Table(
                Season,
                _columns(
                    "name", "slug", "start_date", "end_date", "kind", "system",
                    "unplayed_policy", "min_games", "bye_points", "rematch_window", "status",
                    "rules_version", "absence_deadline", "requested_byes", "name_display",
                    "junior_birth_year", "max_meetings", "rematch_colours_reversed",
                    "one_pairing_bye", "rules_from_round", "rule_changes", "several_prizes",
                    "group_letter", "group_period", "rounds_per_evening", "best_evenings",
                    "evening_start", "seed_by_club_rating", "city", "federation",
                    "chief_arbiter", "deputy_arbiters", "time_control", "tournament_type",
                ),
            ),
            _Table(
                GroupCompetition,
                _columns(
                    group_competition="slug",
                    group_competition_name="name",
                    group_periods="periods",
                    group_rounds_per_period="rounds_per_period",
                    group_promoted="promoted",
                    group_relegated="relegated",
                    group_champion_rule="champion_rule",
                ),
                applies=lambda season: season.group_competition is not None,
            ),
        ),
        frozenset({"parameters", "tiebreaks", "periods", "evening_points"}),
    ),
    fa.ArchiveRuleSet: (
        (
            _Table(
                SeasonRules,
                _columns(
                    "version", "valid_from", "system", "unplayed_policy", "min_games", "from_round"
                ),
            ),
        ),
        frozenset({"parameters", "tiebreaks"}),
    ),
    fa.ArchiveMember: (
        (
            _Table(
                Member,
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
            _Table(
                Participant,
                _columns(
                    "start_rank", "start_points", "initial_value", "joined_round", "rating",
                    "withdrawn_from_round", "withdrawal_note",
                ),
            ),
        ),
        frozenset({"id", "member"}),
    ),
    fa.ArchiveRound: (
        (_Table(Round, _columns("number", "date", "status")),),
        frozenset({"games", "entries"}),
    ),
    fa.ArchiveGame: (
        (_Table(Game, _columns("board", "result", "version", "updated_at", "fixed_by_td")),),
        frozenset({"id", "white", "black"}),
    ),
    fa.ArchiveEntry: (
        (
            _Table(
                RoundEntry,
                _columns(
                    "kind", "points", "note", "updated_at", "fixed_by_td", "version",
                    "external_result",
                ),
            ),
        ),
        frozenset({"id", "participant"}),
    ),
    fa.ArchiveForbiddenPair: (
        (_Table(ForbiddenPair, _columns("note")),),
        frozenset({"first", "second"}),
    ),
    fa.ArchiveCategory: (
        (
            _Table(
                Category,
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
        (_Table(ClubEvening, _columns("date", "round_number", "note")),),
        frozenset({"reports"}),
    ),
    fa.ArchiveReport: (
        (_Table(AbsenceReport, _columns("kind", "note", "reported_at")),),
        frozenset({"id", "participant"}),
    ),
    # The history tables hold what the rows held; they have no validators or constraints of
    # their own in the database (a row of a deleted game keeps its values), so only their
    # columns are checked.
    fa.ArchiveGameRecord: (
        (
            _Table(
                Game.history.model,
                _columns(
                    "history_date", "history_type", "history_change_reason", "board", "result",
                    "version", "updated_at", "fixed_by_td",
                ),
            ),
        ),
        frozenset({"game", "round", "white", "black"}),
    ),
    fa.ArchiveEntryRecord: (
        (
            _Table(
                RoundEntry.history.model,
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
            _Table(
                AbsenceReport.history.model,
                _columns(
                    "history_date", "history_type", "history_change_reason", "kind", "note",
                    "reported_at",
                ),
            ),
        ),
        frozenset({"report", "evening", "participant"}),
    ),
}  # fmt: skip

# An archive value as the column holds it, where the two differ.
_STORED: dict[tuple[type[Any], str], Any] = {
    (fa.ArchiveMember, "knsb_relatienummer"): lambda value: value or "",
    (fa.ArchiveParticipant, "start_points"): lambda value: _decimal_text(value),
}


def _archive_objects(value: Any, path: str) -> Iterable[tuple[Any, str]]:
    """Every object of the archive with its JSON path, the archive itself first (path "")."""
    yield value, path
    for spec in dataclasses.fields(value):
        item = getattr(value, spec.name)
        key = fa.field_key(type(value), spec.name)
        where = f"{path}.{key}" if path else key
        if dataclasses.is_dataclass(item):
            yield from _archive_objects(item, where)
        elif isinstance(item, tuple) and item and dataclasses.is_dataclass(item[0]):
            for index, element in enumerate(item):
                yield from _archive_objects(element, f"{where}[{index}]")


def _check_columns(archive: fa.SeasonArchive) -> None:
    """Every value of the archive against the column it is stored in, each row against its
    table's check constraints (history rows: their columns only), every username against the
    user model's."""
    user_model = get_user_model()
    passed: set[tuple[object, ...]] = set()
    for item, path in _archive_objects(archive, ""):
        tables, _others = _TABLES[type(item)]
        for name in _USERNAMES & {spec.name for spec in dataclasses.fields(item)}:
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


def _check_group(archive: fa.SeasonArchive) -> None:
    """A group season has a letter the app gives (``LETTERS``) and a period of its group
    competition; a season on its own has neither."""
    season = archive.season
    if season.group_competition is None:
        for name, value in (("letter", season.group_letter), ("period", season.group_period)):
            if value not in ("", None):
                what = gettext_noop("group letter") if name == "letter" else gettext_noop("period")
                raise FormatError(
                    gettext_noop("a season on its own (group.competition is null) has no %(what)s"),
                    {"what": Term(what)},
                    path=f"season.group.{name}",
                )
        return
    if season.group_letter not in group_rules.LETTERS:
        raise FormatError(
            gettext_noop(
                '%(found)s is not a group letter (%(first)s to %(last)s, or "" for a season on '
                "its own)"
            ),
            {
                "found": repr(season.group_letter),
                "first": group_rules.LETTERS[0],
                "last": group_rules.LETTERS[-1],
            },
            path="season.group.letter",
        )
    if season.group_period is None:
        raise FormatError(
            gettext_noop("a group season needs its period"), path="season.group.period"
        )
    if season.group_period > season.group_periods:
        raise FormatError(
            gettext_noop(
                "period %(period)s of a group competition of %(periods)s periods (group.periods)"
            ),
            {"period": season.group_period, "periods": season.group_periods},
            path="season.group.period",
        )


def _check_calendar(archive: fa.SeasonArchive) -> None:
    """The club evenings lie within the season's calendar (:func:`calendar_window`); a season
    without a start date starts with its first round."""
    season = archive.season
    start = season.start_date or min((r.date for r in archive.rounds), default=None)
    first, last = calendar_window(start=start, end=season.end_date, today=timezone.localdate())
    for index, evening in enumerate(archive.evenings):
        if not first <= evening.date <= last:
            raise FormatError(
                gettext_noop("%(date)s lies outside the season's calendar (%(first)s to %(last)s)"),
                {
                    "date": evening.date.isoformat(),
                    "first": first.isoformat(),
                    "last": last.isoformat(),
                },
                path=f"evenings[{index}].date",
            )


def _check_rules(system: str, tiebreaks: Sequence[str], unplayed: str, path: str) -> None:
    if unplayed not in UNPLAYED_POLICIES:
        raise FormatError(
            gettext_noop("unknown policy %(policy)s"),
            {"policy": repr(unplayed)},
            path=f"{path}.unplayed_policy",
        )
    try:
        validate_tiebreaks(tiebreaks)
    except UnknownTiebreakError as error:
        raise FormatError(
            error.text.template, error.text.values, path=f"{path}.tiebreaks"
        ) from None


def _check_fingerprint(archive: fa.SeasonArchive) -> None:
    """Refuse an archive whose data no longer give the fingerprint it carries (edited by hand
    after the export). An archive before version 5 carries none and is not checked."""
    if archive.fingerprint is None:
        return
    found = archive_fingerprint(archive)
    if found != archive.fingerprint:
        raise FormatError(
            gettext_noop(
                "the archive's data do not match its fingerprint: it says %(says)s, its data "
                "give %(found)s; the file was changed after it was exported, so nothing was "
                "imported"
            ),
            {"says": short_form(archive.fingerprint), "found": short_form(found)},
            path="fingerprint",
        )


def _plan_archive(text: str) -> tuple[fa.SeasonArchive, dict[str, dict[str, object]]]:
    """The archive read and checked against everything the database will refuse."""
    archive = load_archive(text)
    if Season.objects.filter(club__slug=archive.club.slug, slug=archive.season.slug).exists():
        raise ServiceError(
            gettext(
                "A season with the short name '%(slug)s' already exists; nothing was imported "
                "(delete or rename that season first)."
            )
            % {"slug": archive.season.slug}
        )
    season = archive.season
    if season.start_date and season.end_date and season.end_date < season.start_date:
        raise FormatError(
            gettext_noop("the season cannot end before it starts"), path="season.end_date"
        )
    _check_rules(season.system, season.tiebreaks, season.unplayed_policy, "season")
    parameters = {"season": _parameters_in(season.system, season.parameters, "season")}
    for index, rules in enumerate(archive.rule_sets):
        path = f"rule_sets[{index}]"
        parameters[path] = _parameters_in(rules.system, rules.parameters, path)
        _check_rules(rules.system, rules.tiebreaks, rules.unplayed_policy, path)
    for index, p in enumerate(archive.participants):
        if p.withdrawn_from_round is not None and p.withdrawn_from_round <= p.joined_round:
            raise FormatError(
                gettext_noop(
                    "withdrawn from round %(withdrawn)s, but takes part from round %(joined)s: "
                    "the withdrawal must come after the first round"
                ),
                {"withdrawn": p.withdrawn_from_round, "joined": p.joined_round},
                path=f"participants[{index}].withdrawn_from_round",
            )
    _check_columns(archive)
    _check_group(archive)
    _check_calendar(archive)
    _check_fingerprint(archive)  # last: a more specific message above says more
    return archive, parameters


def archive_import(*, data: bytes | str, dry_run: bool = False) -> ImportReport:
    """A season archive as a new season; its club is matched by slug or created.

    Members are matched in the club by relatienummer, FIDE ID or name (an anonymised member
    not by name) and created when new (a matched member keeps his own data). Games, entries,
    club evenings, absence reports and their simple-history rows are written as they are in
    the archive, with their dates, users and reasons; a user name that does not exist is
    created as an inactive account without a usable password, so that the names stay. No
    account data is written (the archive has none). Refuses a season slug that exists.
    """
    archive, parameters = _plan_archive(decode_text(data))
    return run_import(dry_run, lambda: _write_archive(archive, parameters, dry_run))


def _history_user(username: str | None, cache: dict[str, Any]) -> Any:
    if not username:
        return None
    if username not in cache:
        user_model = get_user_model()
        user = user_model.objects.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is None:
            user = user_model(**{user_model.USERNAME_FIELD: username}, is_active=False)
            user.set_unusable_password()
            user.save()
        cache[username] = user
    return cache[username]


def _deleted_ids(model: Any, archive_ids: Iterable[int], live: Mapping[int, int]) -> dict[int, int]:
    """Database ids for objects that exist only in the history (deleted games or entries):
    negative (below every id in the history table), so that they can never be taken for the
    history of a live row or of a row created later."""
    lowest = model.history.aggregate(lowest=Min("id"))["lowest"]
    next_id = min(0, lowest or 0) - 1
    ids: dict[int, int] = {}
    for archive_id in archive_ids:
        if archive_id not in live and archive_id not in ids:
            ids[archive_id] = next_id
            next_id -= 1
    return ids


def _bulk_create_with_moments(
    model: Any, pairs: Sequence[tuple[Any, fa.ArchiveGame | fa.ArchiveEntry]]
) -> None:
    """Create the rows; bulk_create writes no history row of its own (the history is the
    archive's) but sets updated_at to now (auto_now), so the archive's moment is written after."""
    rows = model.objects.bulk_create([row for row, _ in pairs])
    for row, (_, item) in zip(rows, pairs, strict=True):
        if item.updated_at is not None:
            row.updated_at = item.updated_at
    model.objects.bulk_update(rows, ["updated_at"])


def _write_archive(
    archive: fa.SeasonArchive, parameters: Mapping[str, Mapping[str, object]], dry_run: bool
) -> ImportReport:
    a = archive.season
    report = ImportReport(season_slug=a.slug, club_slug=archive.club.slug, dry_run=dry_run)
    users: dict[str, Any] = {}

    def user_id(username: str | None) -> int | None:
        user = _history_user(username, users)
        return None if user is None else user.pk

    club = Club.objects.filter(slug=archive.club.slug).first()
    if club is None:
        club = Club.objects.create(name=archive.club.name, slug=archive.club.slug)
    _club_rating_rules_in(archive.club, club)
    season = Season.objects.create(
        club=club,
        name=a.name,
        slug=a.slug,
        start_date=a.start_date,
        end_date=a.end_date,
        kind=a.kind,
        system=a.system,
        parameters=dict(parameters["season"]),
        tiebreaks=list(a.tiebreaks),
        unplayed_policy=a.unplayed_policy,
        min_games=a.min_games,
        bye_points=Decimal(a.bye_points),
        rematch_window=a.rematch_window,
        status=a.status,
        rules_version=a.rules_version,
        absence_deadline=a.absence_deadline,
        requested_byes=a.requested_byes,
        evening_start=a.evening_start,
        name_display=a.name_display,
        junior_birth_year=a.junior_birth_year,
        max_meetings=a.max_meetings,
        rematch_colours_reversed=a.rematch_colours_reversed,
        one_pairing_bye=a.one_pairing_bye,
        rules_from_round=a.rules_from_round,
        rule_changes=a.rule_changes,
        period_ends=[period.last_round for period in a.periods],
        several_prizes=a.several_prizes,
        **_group_in(a, club),
        rounds_per_evening=a.rounds_per_evening,
        evening_points=[row.points for row in sorted(a.evening_points, key=lambda r: r.place)],
        best_evenings=a.best_evenings,
        category_count=len(archive.categories),
        seed_by_club_rating=a.seed_by_club_rating,
        city=a.city,
        federation=a.federation,
        chief_arbiter=a.chief_arbiter,
        deputy_arbiters=a.deputy_arbiters,
        time_control=a.time_control,
        tournament_type=a.tournament_type,
    )
    for index, rules in enumerate(archive.rule_sets):
        SeasonRules.objects.create(
            season=season,
            version=rules.version,
            valid_from=rules.valid_from,
            system=rules.system,
            parameters=dict(parameters[f"rule_sets[{index}]"]),
            tiebreaks=list(rules.tiebreaks),
            unplayed_policy=rules.unplayed_policy,
            min_games=rules.min_games,
            changed_by_id=user_id(rules.changed_by),
            from_round=rules.from_round,
        )
    matcher = member_matcher(club)
    member_of: dict[int, Member] = {}
    used: set[int] = set()
    for m in sorted(archive.members, key=lambda m: m.id):
        knsb_id = m.knsb_relatienummer or ""
        member = match_member(
            matcher,
            name=m.name,
            knsb_id=knsb_id,
            fide_id=m.fide_id,
            match_name=m.anonymised_at is None,
        )
        if member is None or member.pk in used:
            member = Member.objects.create(
                club=club,
                name=m.name,
                knsb_id=knsb_id,
                fide_id=m.fide_id,
                rating=m.rating,
                rating_date=m.rating_date,
                birth_year=m.birth_year,
                active=m.active,
                name_display=m.name_display,
                anonymised_at=m.anonymised_at,
                federation=m.federation,
            )
            report.members_created += 1
        else:
            report.members_matched += 1
        used.add(member.pk)
        member_of[m.id] = member
    participant_of: dict[int, Participant] = {}
    for p in sorted(archive.participants, key=lambda p: p.id):
        participant_of[p.id] = Participant.objects.create(
            season=season,
            member=member_of[p.member],
            start_rank=p.start_rank,
            start_points=_decimal_text(p.start_points),
            initial_value=None if p.initial_value is None else Decimal(p.initial_value),
            joined_round=p.joined_round,
            rating=p.rating,
            withdrawn_from_round=p.withdrawn_from_round,
            withdrawal_note=p.withdrawal_note,
        )
        report.participants += 1
    round_of: dict[int, Round] = {}
    games: list[tuple[Game, fa.ArchiveGame]] = []
    entries: list[tuple[RoundEntry, fa.ArchiveEntry]] = []
    for r in sorted(archive.rounds, key=lambda r: r.number):
        db_round = round_of[r.number] = Round.objects.create(
            season=season, number=r.number, date=r.date, status=r.status
        )
        report.rounds += 1
        for g in sorted(r.games, key=lambda g: g.board):
            game = Game(
                round=db_round,
                board=g.board,
                white=participant_of[g.white],
                black=participant_of[g.black],
                result=g.result,
                version=g.version,
                updated_by_id=user_id(g.updated_by),
                fixed_by_td=g.fixed_by_td,
            )
            games.append((game, g))
        for e in sorted(r.entries, key=lambda e: e.participant):
            entry = RoundEntry(
                round=db_round,
                participant=participant_of[e.participant],
                kind=e.kind,
                points=Decimal(e.points),
                note=e.note,
                updated_by_id=user_id(e.updated_by),
                fixed_by_td=e.fixed_by_td,
                version=e.version,
                external_result=e.external_result,
            )
            entries.append((entry, e))
    _bulk_create_with_moments(Game, games)
    _bulk_create_with_moments(RoundEntry, entries)
    report.games, report.entries = len(games), len(entries)
    evening_of: dict[datetime.date, ClubEvening] = {}
    absences: list[tuple[AbsenceReport, fa.ArchiveReport]] = []
    for planned in sorted(archive.evenings, key=lambda planned: planned.date):
        evening = evening_of[planned.date] = ClubEvening.objects.create(
            season=season, date=planned.date, round_number=planned.round_number, note=planned.note
        )
        for reported in sorted(planned.reports, key=lambda reported: reported.participant):
            absence = AbsenceReport(
                evening=evening,
                participant=participant_of[reported.participant],
                kind=reported.kind,
                note=reported.note,
                reported_by_id=user_id(reported.reported_by),
                reported_at=reported.reported_at,
            )
            absences.append((absence, reported))
    # No history rows of their own (bulk_create sends no signals): the history is the archive's.
    AbsenceReport.objects.bulk_create([row for row, _ in absences])
    for pair in archive.forbidden_pairs:
        first, second = sorted(
            (participant_of[pair.first], participant_of[pair.second]), key=lambda p: p.pk
        )
        ForbiddenPair.objects.create(season=season, first=first, second=second, note=pair.note)
    for category_in in archive.categories:
        category = Category.objects.create(
            season=season,
            order=category_in.order,
            name=category_in.name,
            kind=category_in.kind,
            rating_from=category_in.rating_from,
            rating_below=category_in.rating_below,
            unrated=category_in.unrated,
            born_from=category_in.born_from,
            born_to=category_in.born_to,
            prizes=category_in.prizes,
            most_improved=category_in.most_improved,
        )
        category.chosen.set([participant_of[chosen.participant] for chosen in category_in.chosen])

    def round_id(number: int | None) -> int | None:
        return None if number is None else round_of[number].pk

    def participant_id(number: int | None) -> int | None:
        return None if number is None else participant_of[number].pk

    def references(
        h: fa.ArchiveGameRecord | fa.ArchiveEntryRecord | fa.ArchiveReportRecord,
    ) -> dict[str, Any]:
        values: dict[str, Any] = {"history_user_id": user_id(h.history_user)}
        if isinstance(h, fa.ArchiveReportRecord):
            return values | {
                "evening_id": None if h.evening is None else evening_of[h.evening].pk,
                "participant_id": participant_id(h.participant),
                "reported_by_id": user_id(h.reported_by),
            }
        values |= {"round_id": round_id(h.round), "updated_by_id": user_id(h.updated_by)}
        if isinstance(h, fa.ArchiveGameRecord):
            values |= {"white_id": participant_id(h.white), "black_id": participant_id(h.black)}
        else:
            values |= {"participant_id": participant_id(h.participant), "points": Decimal(h.points)}
        return values

    histories: tuple[tuple[Any, Sequence[Any], Sequence[tuple[Any, Any]], str], ...] = (
        (Game, archive.game_history, games, "game"),
        (RoundEntry, archive.entry_history, entries, "entry"),
        (AbsenceReport, archive.report_history, absences, "report"),
    )
    for model, records, written, key in histories:
        live = {item.id: row.pk for row, item in written}
        ids = live | _deleted_ids(model, (getattr(h, key) for h in records), live)
        history_model = model.history.model
        history_model.objects.bulk_create(
            [
                history_model(
                    **_shared_values(h, type(h)), id=ids[getattr(h, key)], **references(h)
                )
                for h in records
            ]
        )
    report.corrections = sum(h.history_type != "+" for h in archive.game_history) + sum(
        h.history_type != "+" for h in archive.entry_history
    )
    standings_recompute(season=season)
    club_ratings_season_replay(season=season)
    imported = season_fingerprint(season_input(season))
    if archive.fingerprint is not None and imported != archive.fingerprint:
        # The archive itself was checked before writing: only members matched here, who keep
        # their own names, make the season's data differ from the exported ones.
        report.warnings.append(
            Text(
                gettext_noop(
                    "the imported season's standings fingerprint is %(imported)s, not the "
                    "archive's %(archive)s, because existing members keep their own names"
                ),
                {"imported": short_form(imported), "archive": short_form(archive.fingerprint)},
            )
        )
    return report
