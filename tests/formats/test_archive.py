"""The season archive: canonical JSON out, validated JSON in."""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, date, datetime
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.formats.archive import (
    ArchiveClub,
    ArchiveCorrection,
    ArchiveEntry,
    ArchiveGame,
    ArchiveMember,
    ArchiveParticipant,
    ArchiveRound,
    ArchiveRuleSet,
    ArchiveSeason,
    SeasonArchive,
    dump_archive,
    exact,
    load_archive,
)
from competition.formats.errors import FormatError

SEASON = ArchiveSeason(
    name="Interne competitie 2024-2025",
    slug="ic-2024-2025",
    start_date=date(2024, 9, 5),
    end_date=None,
    system="van-den-brink",
    parameters=(("factor", "0.07"), ("result_part", "3"), ("top", "200")),
    tiebreaks=("SB", "BH/C1"),
    unplayed_policy="fide-2024",
    min_games=10,
    status="open",
)
ARCHIVE = SeasonArchive(
    club=ArchiveClub("Schaakclub Het Paard", "het-paard"),
    season=SEASON,
    members=(
        ArchiveMember(1, "Jansen, Anna", knsb_relatienummer=8012345, rating=2051, birth_year=1990),
        ArchiveMember(2, "Müller, Jörg", fide_id=4600000, active=False),
        ArchiveMember(3, "Bakker, Cor"),
    ),
    rule_sets=(
        ArchiveRuleSet(1, 1, "van-den-brink", (("factor", "0.07"),), ("SB",), "fide-2024", 10),
    ),
    participants=(
        ArchiveParticipant(10, 1, start_rank=1, start_points="200"),
        ArchiveParticipant(11, 2, start_rank=2, start_points="199"),
        ArchiveParticipant(12, 3, start_points="150.5", joined_round=2),
    ),
    rounds=(
        ArchiveRound(
            1,
            date(2024, 9, 5),
            "closed",
            games=(ArchiveGame(1, 10, 11, "1-0", 2),),
            entries=(ArchiveEntry(12, "not_paired", "0"),),
        ),
        ArchiveRound(2, None, "open", entries=(ArchiveEntry(11, "absent_notice", "0.5"),)),
    ),
    corrections=(
        ArchiveCorrection(
            datetime(2024, 9, 6, 20, 15, tzinfo=UTC), "td", 1, 1, None, "0-1", "1-0", "typo"
        ),
    ),
)


def test_exact_decimal_strings() -> None:
    # The seed's factor 0.07 is exactly 7/100; 150.5 start points exactly 301/2.
    assert exact("0.07") == Fraction(7, 100)
    assert exact("150.5") == Fraction(301, 2)


def test_dump_is_canonical_and_loads_back() -> None:
    text = dump_archive(ARCHIVE)
    assert text.endswith("}\n")
    assert text.startswith('{\n  "format": "clubcomp-season",\n  "version": 1,\n')
    assert '"name": "Müller, Jörg"' in text  # ensure_ascii=False
    assert '"factor": "0.07"' in text  # exact strings, never floats
    assert load_archive(text) == ARCHIVE
    # Same archive in another list order gives the same bytes.
    shuffled = SeasonArchive(
        ARCHIVE.club,
        ARCHIVE.season,
        tuple(reversed(ARCHIVE.members)),
        ARCHIVE.rule_sets,
        tuple(reversed(ARCHIVE.participants)),
        tuple(reversed(ARCHIVE.rounds)),
        ARCHIVE.corrections,
    )
    assert dump_archive(shuffled) == text


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
        (_set(["version"], 2), "version: version 2 is not supported (supported: 1)"),
        (_set(["format"], "other"), "format: not a season archive (expected 'clubcomp-season')"),
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
        (_set(["season", "min_games"], "10"), "season.min_games: expected an integer, found '10'"),
        (_set(["season", "start_date"], "5-9-2024"), "season.start_date: expected a date"),
        (_set(["season", "colour"], "red"), "season: unknown field 'colour'"),
        (
            _set(["rounds", 0, "entries", 0, "participant"], 10),
            "rounds[0].entries[0].participant: participant 10 appears twice in the round "
            "(also rounds[0].games[0].white)",
        ),
        (_set(["corrections", 0, "board"], 5), "corrections[0].board: round 1 has no board 5"),
        (
            _set(["corrections", 0, "participant"], 10),
            "corrections[0]: exactly one of board and participant must be given",
        ),
        (_set(["rule_sets", 0, "parameters"], {"factor": 0.07}), "rule_sets[0].parameters.factor"),
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
TEXT = st.text(max_size=15)


@st.composite
def archives(draw: st.DrawFn) -> SeasonArchive:
    member_ids = sorted(draw(st.sets(st.integers(1, 999), max_size=6)))
    members = tuple(
        ArchiveMember(
            i,
            draw(TEXT),
            draw(st.none() | st.integers(1, 10**8)),
            draw(st.none() | st.integers(1, 10**9)),
            draw(st.none() | st.integers(0, 3000)),
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
            draw(st.none() | DECIMALS),
            draw(st.integers(1, 5)),
        )
        for i, m in enumerate(member_ids)
    )
    ids = [p.id for p in participants]
    rounds = []
    for number in range(1, draw(st.integers(0, 3)) + 1):
        order = draw(st.permutations(ids))
        pairs = draw(st.integers(0, len(order) // 2))
        games = tuple(
            ArchiveGame(
                b + 1,
                order[2 * b],
                order[2 * b + 1],
                draw(st.sampled_from(["1-0", "1/2", "0-1", "+-", "-+", "--", ""])),
                draw(st.integers(1, 3)),
            )
            for b in range(pairs)
        )
        entries = tuple(
            sorted(
                (
                    ArchiveEntry(
                        pid,
                        draw(st.sampled_from(["bye", "absent_notice", "club_duty", "not_paired"])),
                        draw(DECIMALS),
                    )
                    for pid in order[2 * pairs :]
                ),
                key=lambda e: e.participant,
            )
        )
        rounds.append(
            ArchiveRound(number, draw(st.none() | st.dates()), draw(TEXT), games, entries)
        )
    corrections = tuple(
        ArchiveCorrection(
            draw(st.datetimes()),
            draw(TEXT),
            r.number,
            r.games[0].board,
            None,
            draw(TEXT),
            draw(TEXT),
            draw(TEXT),
        )
        for r in rounds
        if r.games and draw(st.booleans())
    )
    params = tuple(sorted(draw(st.dictionaries(st.text(max_size=8), DECIMALS, max_size=3)).items()))
    season = ArchiveSeason(
        draw(TEXT),
        draw(TEXT),
        draw(st.none() | st.dates()),
        None,
        draw(TEXT),
        params,
        tuple(draw(st.lists(TEXT, max_size=3))),
        draw(TEXT),
        draw(st.integers(0, 20)),
        draw(TEXT),
        draw(st.booleans()),
    )
    rule_sets = (ArchiveRuleSet(1, 1, season.system, params, season.tiebreaks, "fide-2024", 0),)
    return SeasonArchive(
        ArchiveClub(draw(TEXT), draw(TEXT)),
        season,
        members,
        rule_sets,
        participants,
        tuple(rounds),
        corrections,
    )


@settings(max_examples=150)
@given(archives())
def test_round_trip(archive: SeasonArchive) -> None:
    text = dump_archive(archive)
    assert load_archive(text) == archive
    assert dump_archive(load_archive(text)) == text  # byte-stable


@settings(max_examples=300)
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


@settings(max_examples=200)
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
