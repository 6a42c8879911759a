"""TRF16 / TRF-2026 reader and writer: real files, the result-code mapping, malformed files,
round trips and fuzzing."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.formats.errors import FormatError
from competition.formats.trf import (
    PairedGame,
    RoundEntry,
    RoundPairings,
    TrfNationalRating,
    TrfPlayer,
    TrfRoundResult,
    TrfTournament,
    apply_rounds,
    tournament_rounds,
    write_trf,
)
from competition.formats.trf_reader import parse_trf
from tests.profiles import examples

DATA = Path(__file__).parent / "data"


def read(name: str) -> TrfTournament:
    return parse_trf((DATA / name).read_text(encoding="utf-8"))


# --- real public examples ------------------------------------------------------------------


def test_bbp_pairings_example_players_and_results() -> None:
    t = read("bbp_dutch_2025_c5.trf")
    assert t.name == "Dutch 2025 C5 test"
    assert t.number_of_rounds == 3  # XXR 3
    assert len(t.players) == 6
    four = t.players[3]
    assert (four.start_rank, four.name, four.rating, four.rank) == (
        4,
        "Test0004 Player0004",
        2689,
        5,
    )
    assert four.points == 0
    # Round 3 of player 4 reads "0000 - Z": a zero-point bye, the others have no round 3 yet.
    assert four.rounds[2] == TrfRoundResult(None, "-", "Z")
    rounds = tournament_rounds(t)
    assert len(rounds) == 3
    # Round 1: "1  4 w 1", "3  6 w 1", "5  2 w 0" (player 2 won with black).
    assert rounds[0].games == (
        PairedGame(1, 4, "1-0"),
        PairedGame(3, 6, "1-0"),
        PairedGame(5, 2, "0-1"),
    )
    assert RoundEntry(4, "absent_notice", Fraction(0)) in rounds[2].entries
    assert RoundEntry(1, "not_paired", Fraction(0)) in rounds[2].entries
    # Player 1's points 2.0 = win in round 1 + win in round 2.
    assert t.players[0].points == 2


def test_trf26_header_tags() -> None:
    t = read("echecs_trf26_header.trf")
    assert t.name == "Grandmommy's Cup"
    assert t.start_date == "2024/12/01"
    assert t.number_of_rounds == 14  # tag 142
    assert t.tiebreaks == ("EDET/P", "EMGSB/C1/P", "BH:MP/C1/P", "MPvGP")
    assert [value for code, value in t.tags if code == "112"] == [
        "The First Deputy Arbiter",
        "The Second Deputy Arbiter",
    ]
    assert t.scoring["W"] == 1 and t.scoring["D"] == Fraction(1, 2) and t.scoring["P"] == 1
    assert t.round_date(1) == date(2024, 12, 1)
    assert t.round_date(14) == date(2024, 12, 14)
    assert t.round_date(15) is None
    assert t.players == ()


def test_small_club_file() -> None:
    t = read("valid_small.trf")
    rounds = tournament_rounds(t)
    assert rounds[0].games == (PairedGame(1, 2, "1-0"), PairedGame(3, 4, "1/2"))
    assert rounds[1].games == (PairedGame(4, 1, "0-1"),)
    assert rounds[1].entries == (
        RoundEntry(2, "absent_notice", Fraction(1, 2)),  # H
        RoundEntry(3, "absent_notice", Fraction(0)),  # 0000 - -: the zero-point bye
    )


# --- letter by letter ----------------------------------------------------------------------


def two_players(code_1: str, code_2: str, colour_1: str = "w") -> str:
    colour_2 = {"w": "b", "b": "w"}[colour_1]
    head = "001 {:>4}      {:<33} 1500                             0.0 {:>4}"
    line_1 = head.format(1, "A", 1) + f"     2 {colour_1} {code_1}"
    line_2 = head.format(2, "B", 2) + f"     1 {colour_2} {code_2}"
    return line_1.rstrip() + "\n" + line_2.rstrip() + "\n"


@pytest.mark.parametrize(
    ("code_1", "code_2", "result"),
    [
        ("1", "0", "1-0"),
        ("=", "=", "1/2"),
        ("0", "1", "0-1"),
        ("W", "L", "1-0"),  # under one move: same result, unrated
        ("D", "D", "1/2"),
        ("L", "W", "0-1"),
        ("+", "-", "+-"),
        ("-", "+", "-+"),
        ("-", "-", "--"),
        ("", "", ""),  # paired, no result yet
        ("w", "l", "1-0"),  # letters are case-insensitive
    ],
)
def test_game_codes(code_1: str, code_2: str, result: str) -> None:
    t = parse_trf(two_players(code_1, code_2))
    assert tournament_rounds(t)[0].games == (PairedGame(1, 2, result),)


def one_player(block: str) -> str:
    return (
        "001    1      A                                 1500"
        + " " * 29
        + "0.0    1  "
        + block
        + "\n"
    )


@pytest.mark.parametrize(
    ("block", "kind", "points"),
    [
        ("0000 - U", "bye", Fraction(1)),  # pairing-allocated bye
        ("0000 - F", "bye", Fraction(1)),  # full-point bye
        ("0000 - +", "bye", Fraction(1)),  # forfeit win without an opponent
        ("0000 - W", "bye", Fraction(1)),
        ("0000 - H", "absent_notice", Fraction(1, 2)),  # half-point bye
        ("0000 - D", "absent_notice", Fraction(1, 2)),
        ("0000 - Z", "absent_notice", Fraction(0)),  # zero-point bye: known absence
        # TRF16: blank is Z; "0000 - -" is how programs write a player they did not pair.
        ("0000 - -", "absent_notice", Fraction(0)),
        ("0000 - L", "absent_notice", Fraction(0)),
        # In a round nobody is paired in (a file for the pairing of it), a blank is no record.
        ("0000 -", "not_paired", Fraction(0)),
        ("          0000 - U", "not_paired", Fraction(0)),  # blank round 1, a bye in round 2
        ("     -", "not_paired", Fraction(0)),
    ],
)
def test_codes_without_opponent(block: str, kind: str, points: Fraction) -> None:
    second = "001    2      B" + " " * 66 + "0.0\n"  # points end at column 84
    t = parse_trf(one_player(block) + second)
    assert tournament_rounds(t)[0].entries[0] == RoundEntry(1, kind, points)


def test_scoring_tag_changes_bye_points() -> None:
    # 162 with W 3.0 and D 1.0 (3-1-0 scoring): a U bye is worth P, which defaults to W = 3.
    text = "162  W 3.0    D 1.0\n" + one_player("0000 - U")
    assert tournament_rounds(parse_trf(text))[0].entries[0] == RoundEntry(1, "bye", Fraction(3))
    text = "162  W 3.0    D 1.0\n" + one_player("0000 - H")
    assert tournament_rounds(parse_trf(text))[0].entries[0].points == 1


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("0000 - 1", "line 1, column 92: round 1: result '1' is a game and needs an opponent"),
        ("0000 w -", "line 1, column 97: round 1: colour 'w' without an opponent"),
        ("   1 w 1", "line 1, column 92: round 1: player 1 is paired with himself"),
        ("0000 x -", "line 1, column 97: round 1: unknown colour 'x' (expected w, b or -)"),
        ("  a1 w 1", "line 1, column 92: round 1: opponent must be a start rank, found 'a1'"),
    ],
)
def test_bad_round_blocks(block: str, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_trf(one_player(block))
    assert str(caught.value) == message


def test_bye_with_an_opponent_is_refused() -> None:
    with pytest.raises(FormatError) as caught:
        parse_trf(two_players("F", "F"))
    assert str(caught.value) == (
        "line 1, column 99: round 1: result 'F' is a bye and cannot have an opponent"
    )


# --- the malformed corpus ------------------------------------------------------------------

MALFORMED = [
    ("short_line.trf", 3, 53, "player record too short (52 characters; points end at column 84)"),
    (
        "misaligned_round.trf",
        4,
        96,
        "misaligned round 1: column 96 must be blank, found '4' "
        "(round n starts at column 92 + 10(n-1))",
    ),
    (
        "unknown_code.trf",
        2,
        99,
        "round 1: unknown result code 'X' (expected one of 1 = 0 + - W D L H F U Z or blank)",
    ),
    ("nonexistent_opponent.trf", 5, 102, "round 2: opponent 7 does not exist"),
    ("paired_twice.trf", 5, 102, "round 2: player 1 is paired twice (by player 3 and player 4)"),
    (
        "one_sided.trf",
        2,
        102,
        "round 2: player 1 is paired with player 4, but line 5 gives player 4 no opponent",
    ),
    (
        "contradicting_results.trf",
        2,
        109,
        "round 2: result '1' of player 1 contradicts result '1' of player 4 (line 5)",
    ),
    ("colour_clash.trf", 2, 107, "round 2: players 1 and 4 both have colour 'b' (line 5)"),
    ("duplicate_start_rank.trf", 5, 5, "start rank 3 appears twice (also line 4)"),
]


@pytest.mark.parametrize(("name", "line", "column", "reason"), MALFORMED)
def test_malformed_files(name: str, line: int, column: int, reason: str) -> None:
    # Each file is valid_small.trf with one defect; line 1 is the 012 tag, players follow.
    with pytest.raises(FormatError) as caught:
        read(name)
    error = caught.value
    assert (error.line, error.column) == (line, column)
    assert str(error) == f"line {line}, column {column}: {reason}"


def test_unknown_record() -> None:
    with pytest.raises(FormatError, match=r"^line 2, column 1: unknown record 'abc'$"):
        parse_trf("012 X\nabc def\n")


def test_national_rating_record_needs_its_player() -> None:
    text = one_player("0000 - U") + "NED    7      A\n"
    with pytest.raises(FormatError, match="line 2, column 5: national rating record"):
        parse_trf(text)


def test_national_rating_record_carries_relatienummer() -> None:
    nrs = "NED    1      Jansen, Anna                      1987     8012345"
    t = parse_trf("172 NED NIDOF\n" + one_player("0000 - U") + nrs + "\n")
    assert t.national_ratings == (
        TrfNationalRating("NED", 1, name="Jansen, Anna", rating=1987, national_id="8012345"),
    )
    assert parse_trf(write_trf(t, national_ratings=True)) == t
    assert "8012345" not in write_trf(t)  # national records only on request


def test_carriage_return_line_endings_and_bom() -> None:
    text = "\ufeff" + (DATA / "valid_small.trf").read_text().replace("\n", "\r")
    assert parse_trf(text) == read("valid_small.trf")


# --- writing and round trips ---------------------------------------------------------------


def test_write_columns() -> None:
    player = TrfPlayer(
        start_rank=12,
        name="Jansen, Anna",
        sex="w",
        title="WFM",
        rating=2051,
        federation="NED",
        fide_id=1012345,
        birth="1990/04/02",
        points=Fraction(7, 2),
        rank=3,
        rounds=(TrfRoundResult(None, "-", "U"),),
    )
    line = write_trf(TrfTournament(players=(player,))).splitlines()[0]
    assert line[0:3] == "001"
    assert line[4:8] == "  12"  # columns 5-8
    assert line[9] == "w" and line[10:13] == "WFM"
    assert line[14:47].rstrip() == "Jansen, Anna"  # columns 15-47
    assert line[48:52] == "2051" and line[53:56] == "NED"
    assert line[57:68] == "    1012345" and line[69:79] == "1990/04/02"
    assert line[80:84] == " 3.5" and line[85:89] == "   3"  # points 81-84, rank 86-89
    assert line[91:99] == "0000 - U"  # round 1 at column 92


def test_apply_rounds_is_the_inverse() -> None:
    t = read("valid_small.trf")
    rounds = tournament_rounds(t)
    # Player 3's "0000 - -" in round 2 is the zero-point bye, written back as "0000 - Z".
    three = t.players[2]
    zero_point_bye = TrfRoundResult(None, "-", "Z")
    expected = replace(
        t,
        players=(
            *t.players[:2],
            replace(three, rounds=(three.rounds[0], zero_point_bye)),
            t.players[3],
        ),
    )
    assert apply_rounds(t, rounds) == expected


def test_apply_rounds_refuses_what_trf_cannot_say() -> None:
    t = read("valid_small.trf")
    bad = [RoundPairings(1, entries=(RoundEntry(1, "absent_notice", Fraction(1)),))]
    with pytest.raises(ValueError, match="cannot express 'absent_notice' with 1 points"):
        apply_rounds(t, bad)


NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCXYZ ,.'-éöü", min_size=1, max_size=33).map(
    str.strip
)


@st.composite
def tournaments(draw: st.DrawFn) -> TrfTournament:
    size = draw(st.integers(0, 8))
    ranks = list(range(1, size + 1))
    number_of_rounds = draw(st.integers(0, 4))
    blocks: dict[int, list[TrfRoundResult]] = {r: [] for r in ranks}
    for _ in range(number_of_rounds):
        order = draw(st.permutations(ranks))
        paired = draw(st.integers(0, len(order) // 2))
        for i in range(paired):
            white, black = order[2 * i], order[2 * i + 1]
            code_white, code_black = draw(
                st.sampled_from(
                    [
                        *[("1", "0"), ("0", "1"), ("=", "="), ("+", "-"), ("-", "+")],
                        *[("-", "-"), ("W", "L"), ("D", "D"), ("", "")],
                    ]
                )
            )
            blocks[white].append(TrfRoundResult(black, "w", code_white))
            blocks[black].append(TrfRoundResult(white, "b", code_black))
        for rank in order[2 * paired :]:
            code = draw(st.sampled_from(["U", "F", "H", "Z", "-", "+", "", "W", "D", "L"]))
            blocks[rank].append(TrfRoundResult(None, "-", code))
    players = tuple(
        TrfPlayer(
            start_rank=rank,
            name=draw(NAMES),
            sex=draw(st.sampled_from(["", "m", "w"])),
            title=draw(st.sampled_from(["", "GM", "WFM", "g"])),
            rating=draw(st.none() | st.integers(0, 9999)),
            federation=draw(st.sampled_from(["", "NED", "GER"])),
            fide_id=draw(st.none() | st.integers(1, 10**11 - 1)),
            birth=draw(st.sampled_from(["", "1990/04/02", "1975"])),
            points=Fraction(draw(st.integers(0, 199)), 2),
            rank=draw(st.none() | st.integers(1, 9999)),
            rounds=tuple(blocks[rank]),
        )
        for rank in ranks
    )
    tags = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["012", "022", "042", "102", "112", "142", "202", "XXR", "XXC"]),
                st.text(alphabet="abcXYZ 0123,/", max_size=20).map(str.rstrip),
            ),
            max_size=5,
        )
    )
    dates = draw(st.lists(st.sampled_from(["24/09/12", "", "2024/09/19"]), max_size=4))
    while dates and not dates[-1]:
        dates.pop()
    nationals = tuple(
        TrfNationalRating("NED", rank, rating=1500 + rank, national_id=str(8000000 + rank))
        for rank in ranks
        if draw(st.booleans())
    )
    return TrfTournament(
        tags=tuple(tags),
        round_dates=tuple(dates),
        players=players,
        national_ratings=nationals,
    )


@settings(max_examples=examples(200))
@given(tournaments())
def test_round_trip(t: TrfTournament) -> None:
    assert parse_trf(write_trf(t, national_ratings=True)) == t


@settings(max_examples=examples(200))
@given(tournaments())
def test_rounds_round_trip(t: TrfTournament) -> None:
    # Through the per-round view and back, every round reads the same; codes may be normalised
    # (W -> 1, F -> U, D -> H, ...) so compare the rounds, not the codes.
    rounds = tournament_rounds(t)
    assert tournament_rounds(apply_rounds(t, rounds)) == rounds


# --- fuzzing -------------------------------------------------------------------------------

LINE_PIECES = st.sampled_from(
    [
        "001",
        "012 Name",
        "132",
        "XXR 5",
        "NED",
        "    1",
        " w ",
        " b ",
        "0000 - U",
        "   2 w 1",
        "   1 b 0",
        "1.0",
        "  ",
        "\n",
        "###",
        "162  W 1.0",
    ]
)


@settings(max_examples=examples(300))
@given(st.lists(LINE_PIECES | st.text(max_size=12), max_size=30).map("".join))
def test_fuzz_returns_data_or_format_error(text: str) -> None:
    with contextlib.suppress(FormatError):
        parse_trf(text)


@settings(max_examples=examples(200))
@given(st.integers(0, 6000), st.characters())
def test_fuzz_one_character_changed(position: int, char: str) -> None:
    text = (DATA / "bbp_dutch_2025_c5.trf").read_text()
    position %= len(text)
    with contextlib.suppress(FormatError):
        parse_trf(text[:position] + char + text[position + 1 :])
