"""Rating lists: KNSB CSV, FIDE TXT and FIDE XML."""

from __future__ import annotations

import contextlib
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.formats.errors import FormatError
from competition.formats.ratings import (
    RatingFilter,
    RatingRecord,
    list_date_from_filename,
    parse_fide_txt,
    parse_fide_xml,
    parse_knsb,
    write_knsb,
)
from tests.profiles import examples

DATA = Path(__file__).parent / "data"

# The header of FIDE's combined TXT list; a single list names its rating column by month.
COMBINED = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
SINGLE = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SEP26 Gms K  B-day Flag"
)


def fide_line(header: str, **values: str) -> str:
    """A data line with each value at its header word's column."""
    line = [" "] * (len(header) + 4)
    for word, value in values.items():
        start = 0 if word == "ID" else header.index(word)
        line[start : start + len(value)] = value
    return "".join(line).rstrip()


def test_knsb_valid_file() -> None:
    ratings = parse_knsb((DATA / "knsb_valid.csv").read_bytes(), list_date=date(2024, 12, 1))
    assert ratings.list_date == date(2024, 12, 1)
    assert len(ratings.records) == 3
    assert ratings.records[0] == RatingRecord(
        name="Jansen, Anna",
        rating=2051,
        relatienummer=8012345,
        title="WFM",
        federation="NED",
        games=412,
        birth_year=1990,
        sex="w",
    )
    # cp1252 bytes 0xFC and 0xF6 are ü and ö.
    assert ratings.by_relatienummer()[8012347].name == "Müller, Jörg"


def test_knsb_filter_applied_while_parsing() -> None:
    data = (DATA / "knsb_valid.csv").read_bytes()
    kept = parse_knsb(data, keep=RatingFilter(relatienummers=frozenset({8012346})))
    assert [r.name for r in kept.records] == ["Pietersen, Piet"]
    german = parse_knsb(data, keep=RatingFilter(federations=frozenset({"GER"})))
    assert [r.relatienummer for r in german.records] == [8012347]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("knsb_utf16.csv", "line 1: the file is UTF-16; save it as CSV (cp1252 or UTF-8)"),
        (
            "knsb_bad_header.csv",
            # "Relatienummer;" 14 + "Naam;" 5 + "Titel;" 6 + "FED;" 4 -> field 5 at column 30
            "line 1, column 30: not a KNSB rating list: header field 5 is 'Elo', expected "
            "'Rating' (header 'Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S')",
        ),
        (
            "knsb_short_line.csv",
            # "8012346;Pietersen, Piet;;NED;1800" is 33 characters
            "line 3, column 34: expected 8 fields separated by ';', found 5",
        ),
        (
            "knsb_non_numeric_rating.csv",
            # 8 + 16 + 1 + 4 characters before the rating -> column 30
            "line 3, column 30: Rating must be a number, found '18OO'",
        ),
        (
            "knsb_duplicate.csv",
            "line 3, column 1: relatienummer 8012345 appears twice (also line 2)",
        ),
    ],
)
def test_knsb_malformed(name: str, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_knsb((DATA / name).read_bytes())
    assert str(caught.value) == message


def test_knsb_undecodable_byte() -> None:
    # 0x81 is undefined in cp1252 and invalid UTF-8.
    data = b"Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n1;A\x81;;NED;1;1;1;\r\n"
    with pytest.raises(
        FormatError, match=r"^line 2, column 4: byte 0x81 is neither UTF-8 nor Windows-1252 text$"
    ):
        parse_knsb(data)


RECORDS = st.builds(
    RatingRecord,
    name=st.text(alphabet="abcdefXYZ ,.'éöüß-", min_size=1, max_size=30).map(str.strip),
    rating=st.none() | st.integers(0, 3000),
    relatienummer=st.integers(1, 99999999),
    title=st.sampled_from(["", "FM", "WIM"]),
    federation=st.sampled_from(["NED", "GER", "BEL"]),
    games=st.none() | st.integers(0, 999),
    birth_year=st.none() | st.integers(1900, 2020),
    sex=st.sampled_from(["", "w", "m"]),
)


@settings(max_examples=examples(100))
@given(st.lists(RECORDS, max_size=20, unique_by=lambda r: r.relatienummer))
def test_knsb_round_trip(records: list[RatingRecord]) -> None:
    assert parse_knsb(write_knsb(records)).records == tuple(records)


@settings(max_examples=examples(300))
@given(st.binary(max_size=300) | st.text(max_size=200).map(lambda t: t.encode("utf-8")))
def test_knsb_fuzz(data: bytes) -> None:
    header = b"Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n"
    for candidate in (data, header + data):
        with contextlib.suppress(FormatError):
            parse_knsb(candidate)


def test_fide_txt_combined_list() -> None:
    lines = [
        COMBINED,
        fide_line(
            COMBINED,
            ID="1503014",
            Name="Carlsen, Magnus",
            Fed="NOR",
            Sex="M",
            Tit="GM",
            SRtng="2833",
            SGm="9",
            RRtng="2823",
            **{"B-day": "1990"},
        ),
        fide_line(
            COMBINED,
            ID="25121731",
            Name="A C J John",
            Fed="IND",
            Sex="F",
            SRtng="1063",
            SGm="0",
            **{"B-day": "1987"},
            Flag="wi",
        ),
    ]
    ratings = parse_fide_txt("\n".join(lines).encode())
    carlsen, john = ratings.records
    assert (carlsen.fide_id, carlsen.name, carlsen.federation, carlsen.title) == (
        1503014,
        "Carlsen, Magnus",
        "NOR",
        "GM",
    )
    assert (carlsen.rating, carlsen.games, carlsen.birth_year, carlsen.sex) == (2833, 9, 1990, "m")
    assert (john.sex, john.flag, john.rating) == ("w", "wi", 1063)
    rapid = parse_fide_txt("\n".join(lines).encode(), rating_kind="rapid")
    assert rapid.records[0].rating == 2823 and rapid.records[1].rating is None


def test_fide_txt_single_list_gives_its_date() -> None:
    lines = [
        SINGLE,
        fide_line(SINGLE, ID="1503014", Name="Carlsen, Magnus", Fed="NOR", SEP26="2833", Gms="9"),
    ]
    ratings = parse_fide_txt("\n".join(lines).encode())
    assert ratings.list_date == date(2026, 9, 1)
    assert ratings.records[0].rating == 2833 and ratings.records[0].games == 9


def test_fide_txt_filter() -> None:
    lines = [
        COMBINED,
        fide_line(COMBINED, ID="1", Name="A", Fed="NED", SRtng="2000"),
        fide_line(COMBINED, ID="2", Name="B", Fed="GER", SRtng="2100"),
    ]
    kept = parse_fide_txt("\n".join(lines).encode(), keep=RatingFilter(fide_ids=frozenset({2})))
    assert [r.name for r in kept.records] == ["B"]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["Name;Rating"], "line 1, column 1: not a FIDE rating list"),
        ([COMBINED, "1503014        Carlsen"], "line 2, column 23: line too short"),
        (
            [COMBINED, fide_line(COMBINED, ID="150301x", Name="C", Fed="NOR")],
            "line 2, column 1: ID Number must be a number, found '150301x'",
        ),
        (
            [COMBINED, fide_line(COMBINED, ID="1", Name="C", Fed="NOR", SRtng="28x3")],
            f"line 2, column {COMBINED.index('SRtng') + 1}: SRTNG must be a number, found '28x3'",
        ),
        (
            [COMBINED] + [fide_line(COMBINED, ID="1", Name="C", Fed="NOR")] * 2,
            "line 3, column 1: FIDE ID 1 appears twice (also line 2)",
        ),
    ],
)
def test_fide_txt_malformed(lines: list[str], message: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_fide_txt("\n".join(lines).encode())
    assert str(caught.value).startswith(message)


XML = (
    b"<?xml version='1.0' encoding='utf-8'?>\n<playerslist>\n"
    b"<player><fideid>1503014</fideid><name>Carlsen, Magnus</name><country>NOR</country>"
    b"<sex>M</sex><title>GM</title><w_title></w_title><o_title></o_title><foa_title></foa_title>"
    b"<rating>2833</rating><games>9</games><k>10</k><birthday>1990</birthday><flag></flag></player>\n"
    b"<player><fideid>1000001</fideid><name>Vries, Anna de</name><country>NED</country>"
    b"<sex>F</sex><title></title><rating>1876</rating><games>0</games><k>20</k>"
    b"<birthday>2001</birthday><flag>wi</flag></player>\n</playerslist>\n"
)


def test_fide_xml() -> None:
    ratings = parse_fide_xml(XML, list_date=date(2025, 9, 1))
    assert ratings.records[1] == RatingRecord(
        name="Vries, Anna de",
        rating=1876,
        fide_id=1000001,
        federation="NED",
        games=0,
        birth_year=2001,
        sex="w",
        flag="wi",
    )
    assert ratings.by_fide_id()[1503014].title == "GM"
    dutch = parse_fide_xml(XML, keep=RatingFilter(federations=frozenset({"NED"})))
    assert len(dutch.records) == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"<players></players>", "line 1: not a FIDE XML list: the root element is <players>"),
        (XML.replace(b"<rating>2833", b"<rating>28x3"), "player[1].rating: must be a number"),
        (XML.replace(b"1000001", b"1503014"), "player[2].fideid: FIDE ID 1503014 appears twice"),
        (b"<playerslist><player>", "line 1, column 22: not well-formed XML"),
        (b'<!DOCTYPE x [<!ENTITY a "b">]><playerslist/>', "line 1: XML with a DOCTYPE"),
    ],
)
def test_fide_xml_malformed(data: bytes, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_fide_xml(data)
    assert str(caught.value).startswith(message)


@settings(max_examples=examples(200))
@given(st.binary(max_size=300))
def test_fide_fuzz(data: bytes) -> None:
    for parse in (parse_fide_txt, parse_fide_xml):
        with contextlib.suppress(FormatError):
            parse(data)
    with contextlib.suppress(FormatError):
        parse_fide_txt(COMBINED.encode() + b"\n" + data)


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        ("standard_sep25frl.txt", date(2025, 9, 1)),
        ("players_list_foa.txt", None),
        ("KNSB-ratinglijst-2024-12.csv", date(2024, 12, 1)),
        ("rapid_JAN24frl_xml.zip", date(2024, 1, 1)),
    ],
)
def test_list_date_from_filename(filename: str, expected: date | None) -> None:
    assert list_date_from_filename(filename) == expected
