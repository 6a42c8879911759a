"""The season archive in: an archive as a new season (:func:`archive_import`), read and checked
whole before anything is written. The format itself is :mod:`competition.formats.archive`; the
way out is :mod:`.archive_export` (:func:`season_archive`, :func:`season_archive_text`), and
where each part of it is stored, :mod:`.archive_tables`.

A season archive carries no account data: a member's login (``Member.user``), e-mail address,
notification choices and calendar token, and invitations, stay in the installation that has
them (accounts do not travel between installations; an e-mail address is personal data that a
season's record does not need; ``pg_dump`` is the full backup). docs/decisions.md says why.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
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
from competition.services.absences import calendar_window
from competition.services.errors import ServiceError
from competition.services.ratings import club_ratings_season_replay
from competition.services.standings import standings_recompute
from competition.services.transfer.archive_tables import (
    GROUP_COMPETITION_COLUMNS,
    RATING_FIELDS,
    check_columns,
    decimal_text,
    same_values,
)
from competition.services.transfer.common import (
    ImportReport,
    decode_text,
    match_member,
    member_matcher,
    run_import,
)


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


def _group_in(a: fa.ArchiveSeason, club: Club) -> dict[str, Any]:
    """The group competition an imported group season belongs to: the one of the club with
    the archive's slug, else made from the archive's settings (the first group season brings
    it, the others find it). Group competition slugs are unique per club: another
    club's group competition of the same slug is not this one."""
    if a.group_competition is None:
        return {}
    competition = GroupCompetition.objects.filter(club=club, slug=a.group_competition).first()
    if competition is None:
        competition = GroupCompetition.objects.create(
            club=club,
            **{column: getattr(a, name) for name, column in GROUP_COMPETITION_COLUMNS.items()},
        )
    return {
        "group_competition": competition,
        "group_letter": a.group_letter,
        "group_period": a.group_period,
    }


def _club_rating_rules_in(archived: fa.ArchiveClub, club: Club) -> None:
    """A club that has no rating rules of its own takes the archive's (another club's rules
    are never changed by importing a season: they are the installation's, as its people)."""
    if ClubRatingRules.objects.filter(club=club).exists():
        return
    values = {name: getattr(archived, f"rating_{name}") for name in RATING_FIELDS}
    if values != {name: getattr(ClubRatingRules(), name) for name in RATING_FIELDS}:
        ClubRatingRules.objects.create(club=club, **values)


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
    check_columns(archive)
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


class _Users:
    """The accounts of the archive's usernames, each found or made once (:func:`_history_user`)."""

    def __init__(self) -> None:
        self._cache: dict[str, Any] = {}

    def id_of(self, username: str | None) -> int | None:
        user = _history_user(username, self._cache)
        return None if user is None else user.pk


@dataclasses.dataclass
class _Written:
    """The rows an import has written so far, by the archive's ids and numbers, and the pairs
    of rows and archive objects whose history is still to be written."""

    season: Season
    users: _Users
    participant_of: dict[int, Participant] = dataclasses.field(default_factory=dict)
    round_of: dict[int, Round] = dataclasses.field(default_factory=dict)
    evening_of: dict[datetime.date, ClubEvening] = dataclasses.field(default_factory=dict)
    games: list[tuple[Game, fa.ArchiveGame]] = dataclasses.field(default_factory=list)
    entries: list[tuple[RoundEntry, fa.ArchiveEntry]] = dataclasses.field(default_factory=list)
    absences: list[tuple[AbsenceReport, fa.ArchiveReport]] = dataclasses.field(default_factory=list)

    def participant_id(self, number: int | None) -> int | None:
        return None if number is None else self.participant_of[number].pk

    def references(
        self, h: fa.ArchiveGameRecord | fa.ArchiveEntryRecord | fa.ArchiveReportRecord
    ) -> dict[str, Any]:
        """The history row's columns that name other rows: users, its round or evening, its
        participants (and an entry's points, the archive's exact string as a number)."""
        user_id = self.users.id_of
        values: dict[str, Any] = {"history_user_id": user_id(h.history_user)}
        if isinstance(h, fa.ArchiveReportRecord):
            return values | {
                "evening_id": None if h.evening is None else self.evening_of[h.evening].pk,
                "participant_id": self.participant_id(h.participant),
                "reported_by_id": user_id(h.reported_by),
            }
        round_id = None if h.round is None else self.round_of[h.round].pk
        values |= {"round_id": round_id, "updated_by_id": user_id(h.updated_by)}
        if isinstance(h, fa.ArchiveGameRecord):
            values |= {
                "white_id": self.participant_id(h.white),
                "black_id": self.participant_id(h.black),
            }
        else:
            values |= {
                "participant_id": self.participant_id(h.participant),
                "points": Decimal(h.points),
            }
        return values


def _club_in(archived: fa.ArchiveClub) -> Club:
    """The club of the archive's slug, made when there is none, with its rating rules."""
    club = Club.objects.filter(slug=archived.slug).first()
    if club is None:
        club = Club.objects.create(name=archived.name, slug=archived.slug)
    _club_rating_rules_in(archived, club)
    return club


def _season_in(
    archive: fa.SeasonArchive, parameters: Mapping[str, Mapping[str, object]], club: Club
) -> Season:
    a = archive.season
    return Season.objects.create(
        club=club,
        **same_values(a, fa.ArchiveSeason),
        parameters=dict(parameters["season"]),
        tiebreaks=list(a.tiebreaks),
        bye_points=Decimal(a.bye_points),
        period_ends=[period.last_round for period in a.periods],
        **_group_in(a, club),
        evening_points=[row.points for row in sorted(a.evening_points, key=lambda r: r.place)],
        category_count=len(archive.categories),
    )


def _rule_sets_in(
    archive: fa.SeasonArchive, parameters: Mapping[str, Mapping[str, object]], written: _Written
) -> None:
    for index, rules in enumerate(archive.rule_sets):
        SeasonRules.objects.create(
            season=written.season,
            **same_values(rules, fa.ArchiveRuleSet),
            parameters=dict(parameters[f"rule_sets[{index}]"]),
            tiebreaks=list(rules.tiebreaks),
            changed_by_id=written.users.id_of(rules.changed_by),
        )


def _members_in(archive: fa.SeasonArchive, club: Club, report: ImportReport) -> dict[int, Member]:
    """The club's member of each archive member: matched (each member once), else created."""
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
                club=club, **same_values(m, fa.ArchiveMember), knsb_id=knsb_id
            )
            report.members_created += 1
        else:
            report.members_matched += 1
        used.add(member.pk)
        member_of[m.id] = member
    return member_of


def _participants_in(
    archive: fa.SeasonArchive, member_of: Mapping[int, Member], written: _Written
) -> int:
    """The participants (how many were written)."""
    written_count = 0
    for p in sorted(archive.participants, key=lambda p: p.id):
        written.participant_of[p.id] = Participant.objects.create(
            season=written.season,
            member=member_of[p.member],
            **same_values(p, fa.ArchiveParticipant),
            start_points=decimal_text(p.start_points),
            initial_value=None if p.initial_value is None else Decimal(p.initial_value),
        )
        written_count += 1
    return written_count


def _rounds_in(archive: fa.SeasonArchive, written: _Written) -> int:
    """The rounds, then their games and entries in bulk with their moments (how many rounds
    were written)."""
    participant_of, user_id = written.participant_of, written.users.id_of
    rounds = 0
    for r in sorted(archive.rounds, key=lambda r: r.number):
        db_round = written.round_of[r.number] = Round.objects.create(
            season=written.season, **same_values(r, fa.ArchiveRound)
        )
        rounds += 1
        for g in sorted(r.games, key=lambda g: g.board):
            game = Game(
                **same_values(g, fa.ArchiveGame),
                round=db_round,
                white=participant_of[g.white],
                black=participant_of[g.black],
                updated_by_id=user_id(g.updated_by),
            )
            written.games.append((game, g))
        for e in sorted(r.entries, key=lambda e: e.participant):
            entry = RoundEntry(
                **same_values(e, fa.ArchiveEntry),
                round=db_round,
                participant=participant_of[e.participant],
                points=Decimal(e.points),
                updated_by_id=user_id(e.updated_by),
            )
            written.entries.append((entry, e))
    _bulk_create_with_moments(Game, written.games)
    _bulk_create_with_moments(RoundEntry, written.entries)
    return rounds


def _evenings_in(archive: fa.SeasonArchive, written: _Written) -> None:
    """The club evenings, then their absence reports in bulk."""
    for planned in sorted(archive.evenings, key=lambda planned: planned.date):
        evening = written.evening_of[planned.date] = ClubEvening.objects.create(
            season=written.season, **same_values(planned, fa.ArchiveEvening)
        )
        for reported in sorted(planned.reports, key=lambda reported: reported.participant):
            absence = AbsenceReport(
                **same_values(reported, fa.ArchiveReport),
                evening=evening,
                participant=written.participant_of[reported.participant],
                reported_by_id=written.users.id_of(reported.reported_by),
            )
            written.absences.append((absence, reported))
    # No history rows of their own (bulk_create sends no signals): the history is the archive's.
    AbsenceReport.objects.bulk_create([row for row, _ in written.absences])


def _pairs_and_categories_in(archive: fa.SeasonArchive, written: _Written) -> None:
    """The forbidden pairs and the categories with their chosen participants."""
    participant_of = written.participant_of
    for pair in archive.forbidden_pairs:
        first, second = sorted(
            (participant_of[pair.first], participant_of[pair.second]), key=lambda p: p.pk
        )
        ForbiddenPair.objects.create(
            season=written.season, first=first, second=second, note=pair.note
        )
    for category_in in archive.categories:
        category = Category.objects.create(
            season=written.season, **same_values(category_in, fa.ArchiveCategory)
        )
        category.chosen.set([participant_of[chosen.participant] for chosen in category_in.chosen])


def _histories_in(archive: fa.SeasonArchive, written: _Written) -> None:
    """The archive's history rows of games, entries and absence reports, with the ids of the
    rows written (a deleted row's: :func:`_deleted_ids`)."""
    histories: tuple[tuple[Any, Sequence[Any], Sequence[tuple[Any, Any]], str], ...] = (
        (Game, archive.game_history, written.games, "game"),
        (RoundEntry, archive.entry_history, written.entries, "entry"),
        (AbsenceReport, archive.report_history, written.absences, "report"),
    )
    for model, records, pairs, key in histories:
        live = {item.id: row.pk for row, item in pairs}
        ids = live | _deleted_ids(model, (getattr(h, key) for h in records), live)
        history_model = model.history.model
        history_model.objects.bulk_create(
            [
                history_model(
                    **same_values(h, type(h)), id=ids[getattr(h, key)], **written.references(h)
                )
                for h in records
            ]
        )


def _fingerprint_warning(archive: fa.SeasonArchive, season: Season) -> Text | None:
    """Why the imported season's fingerprint is not the archive's, when it is not."""
    imported = season_fingerprint(season_input(season=season))
    if archive.fingerprint is None or imported == archive.fingerprint:
        return None
    # The archive itself was checked before writing: only members matched here, who keep
    # their own names, make the season's data differ from the exported ones.
    return Text(
        gettext_noop(
            "the imported season's standings fingerprint is %(imported)s, not the "
            "archive's %(archive)s, because existing members keep their own names"
        ),
        {"imported": short_form(imported), "archive": short_form(archive.fingerprint)},
    )


def _write_archive(
    archive: fa.SeasonArchive, parameters: Mapping[str, Mapping[str, object]], dry_run: bool
) -> ImportReport:
    report = ImportReport(
        season_slug=archive.season.slug, club_slug=archive.club.slug, dry_run=dry_run
    )
    club = _club_in(archive.club)
    written = _Written(season=_season_in(archive, parameters, club), users=_Users())
    _rule_sets_in(archive, parameters, written)
    member_of = _members_in(archive, club, report)
    report.participants = _participants_in(archive, member_of, written)
    report.rounds = _rounds_in(archive, written)
    _evenings_in(archive, written)
    _pairs_and_categories_in(archive, written)
    _histories_in(archive, written)
    report.games, report.entries = len(written.games), len(written.entries)
    report.corrections = sum(h.history_type != "+" for h in archive.game_history) + sum(
        h.history_type != "+" for h in archive.entry_history
    )
    standings_recompute(season=written.season)
    club_ratings_season_replay(season=written.season)
    warning = _fingerprint_warning(archive, written.season)
    if warning is not None:
        report.warnings.append(warning)
    return report
