"""The season archive: canonical JSON out, validated JSON in."""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, date, datetime, timedelta, timezone
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.formats.archive import (
    ENTRY_KINDS,
    HISTORY_TYPES,
    RESULTS,
    ROUND_STATUSES,
    SEASON_KINDS,
    SEASON_STATUSES,
    ArchiveClub,
    ArchiveEntry,
    ArchiveEntryRecord,
    ArchiveGame,
    ArchiveGameRecord,
    ArchiveMember,
    ArchiveParticipant,
    ArchiveRound,
    ArchiveRuleSet,
    ArchiveSeason,
    SeasonArchive,
    dump_archive,
    exact,
    load_archive,
    moment_text,
)
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
)
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
        ),
        ArchiveMember(2, "Müller, Jörg", fide_id=4600000, active=False),
        ArchiveMember(3, "Bakker, Cor"),
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
            entries=(ArchiveEntry(2, 11, "absent_notice", "0.5", "ziek", "wim", AT),),
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
)


def test_exact_decimal_strings() -> None:
    # The seed's factor 0.07 is exactly 7/100; 150.5 start points exactly 301/2.
    assert exact("0.07") == Fraction(7, 100)
    assert exact("150.5") == Fraction(301, 2)


def test_dump_is_canonical_and_loads_back() -> None:
    text = dump_archive(ARCHIVE)
    assert text.endswith("}\n")
    assert text.startswith('{\n  "format": "clubcomp-season",\n  "version": 3,\n')
    assert '"name": "Müller, Jörg"' in text  # ensure_ascii=False
    assert '"factor": "0.07"' in text  # exact strings, never floats
    assert '"knsb_relatienummer": "0812345"' in text  # the leading zero stays
    assert '"valid_from": "2024-08-30T18:00:00.123456+00:00"' in text  # exact moment, UTC
    assert '"bye_points": "0.5"' in text and '"rematch_window": 5' in text
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
    document = json.loads(dump_archive(ARCHIVE))
    document["version"] = 1
    for participant in document["participants"]:
        del participant["rating"]
    for rnd in document["rounds"]:
        for row in (*rnd["games"], *rnd["entries"]):
            del row["fixed_by_td"]
    for row in (*document["history"]["games"], *document["history"]["entries"]):
        del row["fixed_by_td"]
    loaded = load_archive(json.dumps(document))
    assert loaded.rounds[1].games[0].fixed_by_td is False
    assert loaded.game_history[2].fixed_by_td is False
    assert loaded.rounds[0].games == ARCHIVE.rounds[0].games


def test_a_version_1_archive_may_not_carry_the_fixed_marks() -> None:
    document = json.loads(dump_archive(ARCHIVE))
    document["version"] = 1
    for participant in document["participants"]:
        del participant["rating"]
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
        (_set(["version"], 4), "version: version 4 is not supported (supported: 1, 2, 3)"),
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
    for number in range(1, draw(st.integers(0, 3)) + 1):
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
                    draw(st.sampled_from(sorted(RESULTS))),
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
                )
            )
        rounds.append(
            ArchiveRound(
                number,
                draw(st.dates()),
                draw(st.sampled_from(sorted(ROUND_STATUSES))),
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
    document = json.loads(dump_archive(ARCHIVE))
    document["version"] = 2
    for participant in document["participants"]:
        del participant["rating"]
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
