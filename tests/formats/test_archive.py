"""The season archive: canonical JSON out, validated JSON in."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from datetime import UTC, date, datetime, time, timedelta, timezone
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.formats.archive import (
    ENTRY_KINDS,
    HISTORY_TYPES,
    MEMBER_NAME_DISPLAYS,
    NAME_DISPLAYS,
    REPORT_KINDS,
    RESULTS,
    ROUND_STATUSES,
    SEASON_KINDS,
    SEASON_STATUSES,
    ArchiveClub,
    ArchiveEntry,
    ArchiveEntryRecord,
    ArchiveEvening,
    ArchiveGame,
    ArchiveGameRecord,
    ArchiveMember,
    ArchiveParticipant,
    ArchiveReport,
    ArchiveReportRecord,
    ArchiveRound,
    ArchiveRuleSet,
    ArchiveSeason,
    SeasonArchive,
    dump_archive,
    exact,
    moment_text,
    time_text,
)
from competition.formats.archive_reader import load_archive
from competition.formats.errors import FormatError
from tests.profiles import examples

AT = datetime(2024, 9, 5, 21, 30, tzinfo=UTC)
SEASON = ArchiveSeason(
    name="Interne competitie 2024-2025",
    slug="ic-2024-2025",
    start_date=date(2024, 9, 5),
    end_date=None,
    system="van-den-brink",
    kind="ladder",
    parameters=(("factor", "0.07"), ("result_part", "3"), ("top", "200")),
    tiebreaks=("SB", "BH/C1"),
    unplayed_policy="fide-2024",
    min_games=10,
    bye_points="0.5",
    rematch_window=5,
    status="running",
    rules_version=2,
    absence_deadline=time(18, 0),
    requested_byes=True,
    name_display="short",
    junior_birth_year=2008,
)
# Cor's report for 12 September: made, changed to a bye request, taken back; Jörg's stays.
REPORTED = datetime(2024, 9, 10, 8, 15, tzinfo=UTC)
CHANGED = datetime(2024, 9, 11, 17, 59, 59, 999999, tzinfo=UTC)
ARCHIVE = SeasonArchive(
    club=ArchiveClub("Schaakclub Het Paard", "het-paard"),
    season=SEASON,
    members=(
        ArchiveMember(
            1,
            "Jansen, Anna",
            knsb_relatienummer="0812345",
            rating=2051,
            rating_date=date(2024, 9, 1),
            birth_year=1990,
            name_display="full",
        ),
        ArchiveMember(2, "Müller, Jörg", fide_id=4600000, active=False, name_display="short"),
        ArchiveMember(3, "Oud-lid 3", anonymised_at=datetime(2025, 6, 1, 12, tzinfo=UTC)),
    ),
    rule_sets=(
        ArchiveRuleSet(
            1,
            datetime(2024, 8, 30, 18, 0, 0, 123456, tzinfo=UTC),
            "van-den-brink",
            (("factor", "0.07"),),
            ("SB",),
            "fide-2024",
            10,
        ),
        ArchiveRuleSet(
            2,
            datetime(2024, 9, 20, 12, tzinfo=UTC),
            "van-den-brink",
            (("factor", "0.05"),),
            ("SB",),
            "fide-2024",
            10,
            changed_by="wim",
        ),
    ),
    participants=(
        ArchiveParticipant(
            10, 1, start_rank=1, start_points="200", initial_value="12.5", rating=2040
        ),
        ArchiveParticipant(11, 2, start_rank=2, start_points="199"),
        ArchiveParticipant(12, 3, start_points="150.5", joined_round=2),
    ),
    rounds=(
        ArchiveRound(
            1,
            date(2024, 9, 5),
            "completed",
            games=(ArchiveGame(1, 1, 10, 11, "1-0", 2, "wim", AT),),
            entries=(ArchiveEntry(1, 12, "not_paired", "0", "", None, AT),),
        ),
        ArchiveRound(
            2,
            date(2024, 9, 12),
            "planned",
            entries=(ArchiveEntry(2, 11, "absent_notice", "0.5", "ziek", "wim", AT, version=3),),
            games=(ArchiveGame(2, 1, 10, 12, "", 1, "wim", AT, fixed_by_td=True),),
        ),
    ),
    game_history=(
        ArchiveGameRecord(1, AT, "+", "wim", None, 1, 1, 10, 11, "0-1", 1, "wim", AT),
        ArchiveGameRecord(2, AT, "+", "wim", None, 1, 2, 12, None, "", 1, None, AT),
        ArchiveGameRecord(3, AT, "+", "wim", None, 2, 1, 10, 12, "", 1, "wim", AT, True),
        ArchiveGameRecord(
            1,
            datetime(2024, 9, 6, 20, 15, tzinfo=UTC),
            "~",
            "td",
            "typo",
            1,
            1,
            10,
            11,
            "1-0",
            2,
            "wim",
            AT,
        ),
        ArchiveGameRecord(
            2,
            datetime(2024, 9, 6, 20, 16, tzinfo=UTC),
            "-",
            "td",
            "board removed",
            None,
            2,
            12,
            None,
            "",
            1,
            None,
            AT,
        ),
    ),
    entry_history=(
        ArchiveEntryRecord(2, AT, "+", None, "", 2, 11, "absent_notice", "0.5", "ziek", "wim", AT),
    ),
    evenings=(
        ArchiveEvening(
            date(2024, 9, 12),
            2,
            "",
            (ArchiveReport(1, 11, "absent", "ziek", "jorg", REPORTED),),
        ),
        ArchiveEvening(date(2024, 9, 19), 3, "bekerwedstrijd"),
    ),
    report_history=(
        ArchiveReportRecord(
            1,
            REPORTED,
            "+",
            "jorg",
            None,
            date(2024, 9, 12),
            11,
            "absent",
            "ziek",
            "jorg",
            REPORTED,
        ),
        ArchiveReportRecord(
            2, REPORTED, "+", "cor", None, date(2024, 9, 12), 12, "absent", "", "cor", REPORTED
        ),
        ArchiveReportRecord(
            2, CHANGED, "~", "cor", None, date(2024, 9, 12), 12, "bye", "oneven?", "cor", CHANGED
        ),
        ArchiveReportRecord(
            2, CHANGED, "-", "cor", "taken back", None, 12, "bye", "oneven?", None, CHANGED
        ),
    ),
)


def as_version(document: dict, version: int) -> dict:
    """``document`` (as ``dump_archive`` writes it) without what later versions added."""
    document["version"] = version
    if version < 8:
        del document["season"]["pending_days"]
        for row in (
            *(game for rnd in document["rounds"] for game in rnd["games"]),
            *document["history"]["games"],
        ):
            del row["played_on"]
    if version < 7:
        for key in ("seed_by_club_rating", "rating_report"):
            del document["season"][key]
        del document["club"]["rating"]
        for member in document["members"]:
            del member["federation"]
    if version < 6:
        for key in ("rules_from_round", "rule_changes"):
            del document["season"][key]
        for rules in document["rule_sets"]:
            del rules["from_round"]
        for participant in document["participants"]:
            del participant["withdrawn_from_round"], participant["withdrawal_note"]
        for rnd in document["rounds"]:
            for row in rnd["entries"]:
                del row["external_result"]
        for row in document["history"]["entries"]:
            del row["external_result"]
        for key in ("periods", "several_prizes"):
            del document["season"][key]
        for key in ("rounds_per_evening", "evening_points", "best_evenings", "evening_start"):
            del document["season"][key]
        del document["season"]["group"]  # groups with promotion and relegation
        del document["categories"]
    if version < 5:
        del document["fingerprint"]
        for key in ("max_meetings", "rematch_colours_reversed", "one_pairing_bye"):
            del document["season"][key]
        del document["forbidden_pairs"]
    if version < 4:
        for key in ("absence_deadline", "requested_byes", "name_display", "junior_birth_year"):
            del document["season"][key]
        for member in document["members"]:
            del member["name_display"], member["anonymised_at"]
        del document["evenings"], document["history"]["reports"]
        for rnd in document["rounds"]:
            for row in rnd["entries"]:
                del row["version"]
        for row in document["history"]["entries"]:
            del row["version"]
    if version < 3:
        for participant in document["participants"]:
            del participant["rating"]
    if version < 2:
        for rnd in document["rounds"]:
            for row in (*rnd["games"], *rnd["entries"]):
                del row["fixed_by_td"]
        for row in (*document["history"]["games"], *document["history"]["entries"]):
            del row["fixed_by_td"]
    return document


def test_exact_decimal_strings() -> None:
    # The seed's factor 0.07 is exactly 7/100; 150.5 start points exactly 301/2.
    assert exact("0.07") == Fraction(7, 100)
    assert exact("150.5") == Fraction(301, 2)


def test_dump_is_canonical_and_loads_back() -> None:
    text = dump_archive(ARCHIVE)
    assert text.endswith("}\n")
    assert text.startswith(
        '{\n  "format": "clubcomp-season",\n  "version": 8,\n  "fingerprint": null,\n'
    )
    assert '"name": "Müller, Jörg"' in text  # ensure_ascii=False
    assert '"factor": "0.07"' in text  # exact strings, never floats
    assert '"knsb_relatienummer": "0812345"' in text  # the leading zero stays
    assert '"valid_from": "2024-08-30T18:00:00.123456+00:00"' in text  # exact moment, UTC
    assert '"bye_points": "0.5"' in text and '"rematch_window": 5' in text
    assert '"absence_deadline": "18:00"' in text
    assert '"anonymised_at": "2025-06-01T12:00:00.000000+00:00"' in text
    document = json.loads(text)
    # The calendar comes before the history; the reports' history after the entries'.
    assert list(document)[-2:] == ["evenings", "history"]
    assert list(document["history"]) == ["games", "entries", "reports"]
    assert document["evenings"][0]["reports"][0] == {
        "id": 1,
        "participant": 11,
        "kind": "absent",
        "note": "ziek",
        "reported_by": "jorg",
        "reported_at": "2024-09-10T08:15:00.000000+00:00",
    }
    assert load_archive(text) == ARCHIVE
    # Same archive in another list order gives the same bytes (the history keeps its order).
    shuffled = SeasonArchive(
        ARCHIVE.club,
        ARCHIVE.season,
        tuple(reversed(ARCHIVE.members)),
        tuple(reversed(ARCHIVE.rule_sets)),
        tuple(reversed(ARCHIVE.participants)),
        tuple(reversed(ARCHIVE.rounds)),
        ARCHIVE.game_history,
        ARCHIVE.entry_history,
        tuple(reversed(ARCHIVE.evenings)),
        ARCHIVE.report_history,
    )
    assert dump_archive(shuffled) == text


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        (datetime(2026, 9, 20, 12, tzinfo=UTC), "2026-09-20T12:00:00.000000+00:00"),
        # 21:30 in Amsterdam summer time (UTC+2) is 19:30 UTC.
        (
            datetime(2026, 9, 20, 21, 30, 0, 5, tzinfo=timezone(timedelta(hours=2))),
            "2026-09-20T19:30:00.000005+00:00",
        ),
    ],
)
def test_moments_are_written_in_utc(moment: datetime, text: str) -> None:
    assert moment_text(moment) == text


def test_a_moment_in_another_offset_loads_as_the_same_moment_in_utc() -> None:
    document = json.loads(dump_archive(ARCHIVE))
    document["rule_sets"][1]["valid_from"] = "2024-09-20T14:00:00+02:00"  # = 12:00 UTC
    assert load_archive(json.dumps(document)).rule_sets[1] == ARCHIVE.rule_sets[1]


def test_a_version_1_archive_loads_without_the_fixed_marks() -> None:
    """Version 1 had no ``fixed_by_td``: its games and entries load as not fixed by the TD."""
    document = as_version(json.loads(dump_archive(ARCHIVE)), 1)
    loaded = load_archive(json.dumps(document))
    assert loaded.rounds[1].games[0].fixed_by_td is False
    assert loaded.game_history[2].fixed_by_td is False
    assert loaded.rounds[0].games == ARCHIVE.rounds[0].games


def test_a_version_1_archive_may_not_carry_the_fixed_marks() -> None:
    document = as_version(json.loads(dump_archive(ARCHIVE)), 2)
    document["version"] = 1
    with pytest.raises(FormatError, match=r"rounds\[0\]\.games\[0\]: unknown field 'fixed_by_td'"):
        load_archive(json.dumps(document))


def broken(change: callable) -> str:  # type: ignore[valid-type]
    document = json.loads(dump_archive(ARCHIVE))
    change(document)
    return json.dumps(document)


def _set(path: list[object], value: object) -> callable:  # type: ignore[valid-type]
    def change(document: dict) -> None:
        target = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            _set(["version"], 9),
            "version: version 9 is not supported (supported: 1, 2, 3, 4, 5, 6, 7, 8)",
        ),
        (_set(["format"], "other"), "format: not a season archive (expected 'clubcomp-season')"),
        (
            _set(["rounds", 1, "games", 0, "fixed_by_td"], "yes"),
            "rounds[1].games[0].fixed_by_td: expected true or false, found 'yes'",
        ),
        (
            _set(["rounds", 0, "games", 0, "white"], 17),
            "rounds[0].games[0].white: unknown participant 17",
        ),
        (
            _set(["rounds", 0, "games", 0, "result"], "2-0"),
            "rounds[0].games[0].result: '2-0' is not one of '', '+-', '-+', '--', '0-1', "
            "'1-0', '1/2'",
        ),
        (
            _set(["rounds", 1, "entries", 0, "points"], 0.5),
            'rounds[1].entries[0].points: expected an exact decimal string such as "0.5", '
            "found 0.5",
        ),
        (_set(["participants", 2, "member"], 9), "participants[2].member: unknown member 9"),
        (
            _set(["members", 1, "id"], 1),
            "members[1].id: member id 1 appears twice (also members[0].id)",
        ),
        (
            _set(["members", 0, "knsb_relatienummer"], 812345),
            "members[0].knsb_relatienummer: expected a string or null, found 812345",
        ),
        (_set(["members", 0, "rating"], 40000), "members[0].rating: must be at most 32767"),
        (_set(["season", "min_games"], "10"), "season.min_games: expected an integer, found '10'"),
        (_set(["season", "start_date"], "5-9-2024"), "season.start_date: expected a date"),
        (_set(["season", "colour"], "red"), "season: unknown field 'colour'"),
        (
            _set(["season", "status"], "open"),
            "season.status: 'open' is not one of 'draft', 'finished', 'running'",
        ),
        (
            _set(["season", "kind"], "swiss"),
            "season.kind: 'swiss' is not one of 'ladder', 'round_robin'",
        ),
        (
            _set(["season", "bye_points"], 1),
            'season.bye_points: expected an exact decimal string such as "0.5", found 1',
        ),
        (
            _set(["rounds", 1, "status"], "open"),
            "rounds[1].status: 'open' is not one of 'completed', 'paired', 'planned'",
        ),
        (_set(["rounds", 1, "date"], None), "rounds[1].date: expected a date YYYY-MM-DD, found"),
        (
            _set(["rounds", 0, "entries", 0, "participant"], 10),
            "rounds[0].entries[0].participant: participant 10 appears twice in the round "
            "(also rounds[0].games[0].white)",
        ),
        (
            _set(["rounds", 1, "entries", 0, "id"], 1),
            "rounds[1].entries[0].id: entry id 1 appears twice (also rounds[0].entries[0].id)",
        ),
        (
            _set(["rule_sets", 0, "valid_from"], "2024-08-30T18:00:00"),
            "rule_sets[0].valid_from: expected a moment such as 2026-09-20T12:00:00.000000+00:00",
        ),
        (_set(["rule_sets", 1, "changed_by"], ""), "rule_sets[1].changed_by: must not be empty"),
        (_set(["rule_sets", 0, "parameters"], {"factor": 0.07}), "rule_sets[0].parameters.factor"),
        (
            _set(["history", "games", 3, "history_type"], "x"),
            "history.games[3].history_type: 'x' is not one of '+', '-', '~'",
        ),
        (
            _set(["history", "games", 2, "history_date"], "2024-09-01T00:00:00+00:00"),
            "history.games[2].history_date: the history must be in recording order",
        ),
        (_set(["history", "games", 1, "black"], 99), "history.games[1].black: unknown participant"),
        (_set(["history", "entries", 0, "round"], 7), "history.entries[0].round: unknown round 7"),
        (_set(["history", "corrections"], []), "history: unknown field 'corrections'"),
        (
            _set(["history", "entries", 0, "history_change_reason"], 3),
            "history.entries[0].history_change_reason: expected a string or null, found 3",
        ),
    ],
)
def test_load_reports_the_json_path(change: callable, message: str) -> None:  # type: ignore[valid-type]
    with pytest.raises(FormatError) as caught:
        load_archive(broken(change))
    assert str(caught.value).startswith(message)


def _second_report(report_id: int) -> callable:  # type: ignore[valid-type]
    """A second report of Jörg (participant 11) for 12 September, with id ``report_id``."""

    def change(document: dict) -> None:
        reports = document["evenings"][0]["reports"]
        reports.append({**reports[0], "id": report_id, "kind": "bye"})

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            _set(["evenings", 1, "date"], "2024-09-12"),
            "evenings[1].date: evening 2024-09-12 appears twice (also evenings[0].date)",
        ),
        (
            _set(["evenings", 0, "reports", 0, "participant"], 99),
            "evenings[0].reports[0].participant: unknown participant 99",
        ),
        (
            _set(["evenings", 0, "reports", 0, "kind"], "late"),
            "evenings[0].reports[0].kind: 'late' is not one of 'absent', 'bye'",
        ),
        (
            _second_report(1),
            "evenings[0].reports[1].id: report id 1 appears twice (also evenings[0].reports[0].id)",
        ),
        (
            _second_report(2),
            "evenings[0].reports[1].participant: participant 11 has two reports for this evening "
            "(also evenings[0].reports[0].participant)",
        ),
        (
            _set(["evenings", 0, "reports", 0, "reported_at"], None),
            "evenings[0].reports[0].reported_at: expected a moment such as",
        ),
        (
            _set(["evenings", 0, "reports", 0, "reported_by"], ""),
            "evenings[0].reports[0].reported_by: must not be empty",
        ),
        (
            _set(["evenings", 0, "round_number"], 0),
            "evenings[0].round_number: must be at least 1, found 0",
        ),
        (_set(["evenings", 0, "round"], 2), "evenings[0]: unknown field 'round'"),
        (_set(["evenings", 0, "date"], None), "evenings[0].date: expected a date YYYY-MM-DD"),
        (
            _set(["history", "reports", 1, "evening"], "2024-10-03"),
            "history.reports[1].evening: unknown evening 2024-10-03",
        ),
        (
            _set(["history", "reports", 0, "participant"], 99),
            "history.reports[0].participant: unknown participant 99",
        ),
        (
            _set(["history", "reports", 2, "kind"], "absent_notice"),
            "history.reports[2].kind: 'absent_notice' is not one of 'absent', 'bye'",
        ),
        (
            _set(["history", "reports", 2, "history_date"], "2024-09-01T00:00:00+00:00"),
            "history.reports[2].history_date: the history must be in recording order",
        ),
        (
            _set(["season", "absence_deadline"], "6 pm"),
            "season.absence_deadline: expected a time of day such as 18:00 or null, found '6 pm'",
        ),
        (
            _set(["season", "absence_deadline"], "18:00+02:00"),
            "season.absence_deadline: expected a time of day such as 18:00 or null",
        ),
        (
            _set(["season", "absence_deadline"], "25:00"),
            "season.absence_deadline: expected a time of day such as 18:00 or null, found '25:00'",
        ),
        (
            _set(["season", "requested_byes"], "yes"),
            "season.requested_byes: expected true or false, found 'yes'",
        ),
        (
            _set(["season", "name_display"], ""),
            "season.name_display: '' is not one of 'full', 'short'",
        ),
        (
            _set(["season", "junior_birth_year"], 40000),
            "season.junior_birth_year: must be at most 32767, found 40000",
        ),
        (
            _set(["members", 0, "name_display"], "initials"),
            "members[0].name_display: 'initials' is not one of '', 'full', 'short'",
        ),
        (
            _set(["members", 2, "anonymised_at"], "2025-06-01"),
            "members[2].anonymised_at: expected a moment such as",
        ),
        (_set(["members", 0, "email"], "a@b.nl"), "members[0]: unknown field 'email'"),
    ],
)
def test_calendar_and_privacy_errors_name_the_json_path(
    change: callable,  # type: ignore[valid-type]
    message: str,
) -> None:
    with pytest.raises(FormatError) as caught:
        load_archive(broken(change))
    assert str(caught.value).startswith(message)


def test_a_version_3_archive_loads_with_the_defaults_of_version_4() -> None:
    """Version 3 had no calendar, reports or privacy settings: no deadline, no requested byes,
    full names, members as the season says, no evenings and no reports' history."""
    loaded = load_archive(json.dumps(as_version(json.loads(dump_archive(ARCHIVE)), 3)))
    assert (
        loaded.season.absence_deadline,
        loaded.season.requested_byes,
        loaded.season.name_display,
        loaded.season.junior_birth_year,
    ) == (None, False, "full", None)
    assert [(m.name_display, m.anonymised_at) for m in loaded.members] == [("", None)] * 3
    assert (loaded.evenings, loaded.report_history) == ((), ())
    # Entries had no version: 1, as a row the TD recorded once.
    assert [e.version for r in loaded.rounds for e in r.entries] == [1, 1]
    assert [h.version for h in loaded.entry_history] == [1]
    # Everything else is as it was.
    assert [r.games for r in loaded.rounds] == [r.games for r in ARCHIVE.rounds]
    assert loaded.participants == ARCHIVE.participants
    assert loaded.game_history == ARCHIVE.game_history
    # Written again, it is a version 6 archive with the defaults spelled out.
    again = json.loads(dump_archive(loaded))
    assert again["version"] == 8 and again["evenings"] == []
    assert again["history"]["reports"] == [] and again["season"]["absence_deadline"] is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d.__setitem__("evenings", []),
            ": unknown field 'evenings'",
        ),
        (
            lambda d: d["history"].__setitem__("reports", []),
            "history: unknown field 'reports'",
        ),
        (
            lambda d: d["season"].__setitem__("absence_deadline", None),
            "season: unknown field 'absence_deadline'",
        ),
        (
            lambda d: d["members"][0].__setitem__("name_display", ""),
            "members[0]: unknown field 'name_display'",
        ),
        (
            lambda d: d["rounds"][1]["entries"][0].__setitem__("version", 3),
            "rounds[1].entries[0]: unknown field 'version'",
        ),
    ],
)
def test_a_version_3_archive_may_not_carry_what_version_4_added(
    change: callable,  # type: ignore[valid-type]
    message: str,
) -> None:
    document = as_version(json.loads(dump_archive(ARCHIVE)), 3)
    change(document)
    with pytest.raises(FormatError) as caught:
        load_archive(json.dumps(document))
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (time(18, 0), "18:00"),
        (time(9, 5), "09:05"),
        (time(18, 0, 30), "18:00:30"),
        (time(18, 0, 0, 250), "18:00:00.000250"),
    ],
)
def test_times_of_day_are_written_to_the_minute_unless_they_have_seconds(
    value: time, text: str
) -> None:
    assert time_text(value) == text
    archive = SeasonArchive(ARCHIVE.club, dataclasses.replace(SEASON, absence_deadline=value))
    assert json.loads(dump_archive(archive))["season"]["absence_deadline"] == text
    assert load_archive(dump_archive(archive)).season.absence_deadline == value


def test_a_time_of_day_is_read_in_either_precision() -> None:
    document = json.loads(dump_archive(ARCHIVE))
    document["season"]["absence_deadline"] = "18:00:00"
    assert load_archive(json.dumps(document)).season.absence_deadline == time(18, 0)


def test_not_json_names_line_and_column() -> None:
    with pytest.raises(FormatError) as caught:
        load_archive('{\n  "format": \n}')
    assert (caught.value.line, caught.value.column) == (3, 1)


DECIMALS = st.decimals(min_value=-500, max_value=500, places=2, allow_nan=False).map(str)
# Text a database can store: no NUL (st.text leaves out surrogates already).
STORABLE = st.characters(exclude_categories=["Cs"], exclude_characters="\x00")
TEXT = st.text(STORABLE, max_size=15)
USER = st.none() | st.text(STORABLE, min_size=1, max_size=8)
# Moments as the archive holds them after reading: in UTC.
MOMENTS = st.datetimes(
    min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)
)


@st.composite
def archives(draw: st.DrawFn) -> SeasonArchive:
    member_ids = sorted(draw(st.sets(st.integers(1, 999), max_size=6)))
    members = tuple(
        ArchiveMember(
            i,
            draw(TEXT),
            draw(st.none() | st.text(st.characters(categories=["Nd"]), min_size=1, max_size=9)),
            draw(st.none() | st.integers(1, 10**9)),
            draw(st.none() | st.integers(0, 3000)),
            draw(st.none() | st.dates()),
            draw(st.none() | st.integers(1900, 2020)),
            draw(st.booleans()),
            draw(st.sampled_from(sorted(MEMBER_NAME_DISPLAYS))),
            draw(st.none() | MOMENTS),
        )
        for i in member_ids
    )
    participants = tuple(
        ArchiveParticipant(
            100 + i,
            m,
            draw(st.none() | st.integers(1, 50)),
            draw(st.none() | DECIMALS | st.sampled_from(["1356/7", "-2/3"])),
            draw(st.none() | DECIMALS),
            draw(st.integers(1, 5)),
            draw(st.none() | st.integers(0, 32767)),
        )
        for i, m in enumerate(member_ids)
    )
    ids = [p.id for p in participants]
    rounds = []
    game_id = entry_id = 0
    count = draw(st.integers(0, 3))
    for number in range(1, count + 1):
        # As the app keeps them: one round at a time open (the last), and every board of a
        # completed round has a result.
        status = "completed" if number < count else draw(st.sampled_from(sorted(ROUND_STATUSES)))
        results = sorted(RESULTS - {""}) if status == "completed" else sorted(RESULTS)
        order = draw(st.permutations(ids))
        pairs = draw(st.integers(0, len(order) // 2))
        games = []
        for b in range(pairs):
            game_id += 1
            games.append(
                ArchiveGame(
                    game_id,
                    b + 1,
                    order[2 * b],
                    order[2 * b + 1],
                    draw(st.sampled_from(results)),
                    draw(st.integers(1, 3)),
                    draw(USER),
                    draw(st.none() | MOMENTS),
                    draw(st.booleans()),
                )
            )
        entries = []
        for pid in sorted(order[2 * pairs :]):
            entry_id += 1
            entries.append(
                ArchiveEntry(
                    entry_id,
                    pid,
                    draw(st.sampled_from(sorted(ENTRY_KINDS))),
                    draw(DECIMALS),
                    draw(TEXT),
                    draw(USER),
                    draw(st.none() | MOMENTS),
                    draw(st.booleans()),
                    draw(st.integers(0, 5)),
                )
            )
        rounds.append(
            ArchiveRound(
                number,
                draw(st.dates()),
                status,
                tuple(games),
                tuple(entries),
            )
        )
    numbers = st.none() | st.sampled_from([r.number for r in rounds]) if rounds else st.none()
    someone = st.none() | st.sampled_from(ids) if ids else st.none()
    game_history = tuple(
        ArchiveGameRecord(
            draw(st.integers(1, game_id + 3)),
            moment,
            draw(st.sampled_from(sorted(HISTORY_TYPES))),
            draw(USER),
            draw(st.none() | TEXT),
            draw(numbers),
            draw(st.integers(1, 30)),
            draw(someone),
            draw(someone),
            draw(st.sampled_from(sorted(RESULTS))),
            draw(st.integers(1, 3)),
            draw(USER),
            draw(MOMENTS),
            draw(st.booleans()),
        )
        for moment in sorted(draw(st.lists(MOMENTS, max_size=4)))
    )
    entry_history = tuple(
        ArchiveEntryRecord(
            draw(st.integers(1, entry_id + 3)),
            moment,
            draw(st.sampled_from(sorted(HISTORY_TYPES))),
            draw(USER),
            draw(st.none() | TEXT),
            draw(numbers),
            draw(someone),
            draw(st.sampled_from(sorted(ENTRY_KINDS))),
            draw(DECIMALS),
            draw(TEXT),
            draw(USER),
            draw(MOMENTS),
            draw(st.booleans()),
            draw(st.integers(0, 5)),
        )
        for moment in sorted(draw(st.lists(MOMENTS, max_size=4)))
    )
    evenings = []
    report_id = 0
    for day in sorted(draw(st.sets(st.dates(), max_size=3))):
        reports = []
        for pid in sorted(draw(st.sets(st.sampled_from(ids), max_size=3)) if ids else ()):
            report_id += 1
            reports.append(
                ArchiveReport(
                    report_id,
                    pid,
                    draw(st.sampled_from(sorted(REPORT_KINDS))),
                    draw(TEXT),
                    draw(USER),
                    draw(MOMENTS),
                )
            )
        evenings.append(ArchiveEvening(day, draw(st.integers(1, 40)), draw(TEXT), tuple(reports)))
    days = st.none() | st.sampled_from([e.date for e in evenings]) if evenings else st.none()
    report_history = tuple(
        ArchiveReportRecord(
            draw(st.integers(1, report_id + 3)),
            moment,
            draw(st.sampled_from(sorted(HISTORY_TYPES))),
            draw(USER),
            draw(st.none() | TEXT),
            draw(days),
            draw(someone),
            draw(st.sampled_from(sorted(REPORT_KINDS))),
            draw(TEXT),
            draw(USER),
            draw(MOMENTS),
        )
        for moment in sorted(draw(st.lists(MOMENTS, max_size=4)))
    )
    params = tuple(
        sorted(draw(st.dictionaries(st.text(STORABLE, max_size=8), DECIMALS, max_size=3)).items())
    )
    season = ArchiveSeason(
        draw(TEXT),
        draw(TEXT),
        draw(st.none() | st.dates()),
        None,
        draw(TEXT),
        draw(st.sampled_from(sorted(SEASON_KINDS))),
        params,
        tuple(draw(st.lists(TEXT, max_size=3))),
        draw(TEXT),
        draw(st.integers(0, 20)),
        draw(DECIMALS),
        draw(st.integers(0, 20)),
        draw(st.sampled_from(sorted(SEASON_STATUSES))),
        draw(st.integers(1, 5)),
        draw(st.none() | st.times()),
        draw(st.booleans()),
        draw(st.sampled_from(sorted(NAME_DISPLAYS))),
        draw(st.none() | st.integers(1900, 2030)),
    )
    rule_sets = (
        ArchiveRuleSet(
            1, draw(MOMENTS), season.system, params, season.tiebreaks, "fide-2024", 0, draw(USER)
        ),
    )
    return SeasonArchive(
        ArchiveClub(draw(TEXT), draw(TEXT)),
        season,
        members,
        rule_sets,
        participants,
        tuple(rounds),
        game_history,
        entry_history,
        tuple(evenings),
        report_history,
    )


@settings(max_examples=examples(150))
@given(archives())
def test_round_trip(archive: SeasonArchive) -> None:
    text = dump_archive(archive)
    assert load_archive(text) == archive
    assert dump_archive(load_archive(text)) == text  # byte-stable


@settings(max_examples=examples(300))
@given(
    st.text(max_size=300)
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
    ).map(json.dumps)
)
def test_fuzz(text: str) -> None:
    with contextlib.suppress(FormatError):
        load_archive(text)


@settings(max_examples=examples(200))
@given(st.data())
def test_fuzz_one_field_changed(data: st.DataObject) -> None:
    document = json.loads(dump_archive(ARCHIVE))
    paths = []

    def walk(node: object, path: list[object]) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, [*path, key])
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, [*path, index])

    walk(document, [])
    path = data.draw(st.sampled_from(paths[1:]))
    value = data.draw(
        st.none()
        | st.booleans()
        | st.integers(-5, 30)
        | st.text(max_size=4)
        | st.just([])
        | st.just({})
    )
    _set(path, value)(document)
    with contextlib.suppress(FormatError):
        load_archive(json.dumps(document))


def test_a_version_2_archive_gives_participants_their_members_rating() -> None:
    """Before version 3 ARO and TPR used the member's rating: it becomes the event rating."""
    document = as_version(json.loads(dump_archive(ARCHIVE)), 2)
    loaded = load_archive(json.dumps(document))
    ratings = {m.id: m.rating for m in ARCHIVE.members}
    assert [p.rating for p in loaded.participants] == [
        ratings[p.member] for p in ARCHIVE.participants
    ]
    document["participants"][0]["rating"] = 1800
    with pytest.raises(FormatError, match=r"^participants\[0\]: unknown field 'rating'"):
        load_archive(json.dumps(document))


def test_start_points_may_be_a_fraction() -> None:
    document = json.loads(dump_archive(ARCHIVE))
    document["participants"][0]["start_points"] = "1356/7"
    loaded = load_archive(json.dumps(document))
    assert exact(loaded.participants[0].start_points) == Fraction(1356, 7)
    document["participants"][0]["initial_value"] = "1356/7"  # only start points are fractions
    with pytest.raises(FormatError, match=r"initial_value: expected an exact decimal string"):
        load_archive(json.dumps(document))
