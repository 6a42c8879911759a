"""The FIDE rating report: the header lines and player fields of TRF16 (FIDE Handbook C.04
Annex 2) and the checks that name what is missing."""

from __future__ import annotations

from datetime import date

from competition.formats.rating_report import (
    ReportEvent,
    ReportPlayer,
    rating_report,
    rating_report_problems,
)
from competition.formats.trf import (
    PairedGame,
    RoundEntry,
    RoundPairings,
    TrfPlayer,
    TrfTournament,
    apply_rounds,
    write_trf,
)
from competition.formats.trf_reader import parse_trf

EVENT = ReportEvent(
    name="Interne competitie 2026",
    city="Apeldoorn",
    federation="NED",
    start_date=date(2026, 9, 3),
    end_date=date(2026, 9, 10),
    tournament_type="Individual: Swiss-System",
    chief_arbiter="Jan Jansen (1012345)",
    deputy_arbiters=("Piet Pietersen", "Klaas Klaassen"),
    time_control="90 min + 30 s per move",
)
PLAYERS = (
    ReportPlayer(1, "Aalders, Anna", 1012346, "NED", 1850),
    ReportPlayer(2, "Bos, Bart", 1012347, "NED", 1720),
    ReportPlayer(3, "Cools, Cor", 1012348, "BEL", 1600),
)
DATES = (date(2026, 9, 3), date(2026, 9, 10))


def report_text() -> str:
    tournament = TrfTournament(
        tags=(("012", "old name"), ("142", "2")),
        players=tuple(TrfPlayer(p.start_rank, p.name) for p in PLAYERS),
    )
    rounds = [
        RoundPairings(1, (PairedGame(1, 2, "1-0"),), (RoundEntry(3, "bye", 1),)),
        RoundPairings(2, (PairedGame(3, 1, "+-"),), (RoundEntry(2, "absent_notice", 0),)),
    ]
    return write_trf(apply_rounds(rating_report(tournament, EVENT, PLAYERS, DATES), rounds))


def test_the_header_a_rating_officer_needs() -> None:
    lines = report_text().splitlines()
    assert lines[:12] == [
        "012 Interne competitie 2026",
        "022 Apeldoorn",
        "032 NED",
        "042 2026/09/03",
        "052 2026/09/10",
        "062 3",
        "072 3",
        "092 Individual: Swiss-System",
        "102 Jan Jansen (1012345)",
        "112 Piet Pietersen",
        "112 Klaas Klaassen",
        "122 90 min + 30 s per move",
    ]
    assert lines[12] == "142 2"  # the tournament's own tags follow the header
    # 132: the round dates from column 92, YY/MM/DD, ten columns each.
    assert lines[13][:91] == "132" + " " * 88
    assert lines[13][91:] == "26/09/03  26/09/10"


def test_the_player_records_carry_fide_id_federation_and_rating() -> None:
    lines = report_text().splitlines()
    anna = next(line for line in lines if line.startswith("001    1"))
    # TRF16 columns (1-based): name 15-47, rating 49-52, federation 54-56, FIDE ID 58-68.
    assert anna[14:47].rstrip() == "Aalders, Anna"
    assert anna[48:52] == "1850"
    assert anna[53:56] == "NED"
    assert anna[57:68] == "    1012346"
    # Round 1 at column 92: opponent 2 with white, won; round 2: forfeit win... of Cor (3, +).
    assert anna[91:99] == "   2 w 1"
    assert anna[101:109] == "   3 b -"
    cor = next(line for line in lines if line.startswith("001    3"))
    assert cor[91:99] == "0000 - U"  # the pairing-allocated bye
    assert cor[101:109] == "   1 w +"
    bart = next(line for line in lines if line.startswith("001    2"))
    assert bart[101:109] == "0000 - Z"  # absent: a zero-point bye


def test_the_report_reads_back_as_trf() -> None:
    parsed = parse_trf(report_text())
    assert parsed.city == "Apeldoorn" and parsed.federation == "NED"
    assert [p.fide_id for p in parsed.players] == [1012346, 1012347, 1012348]
    assert parsed.round_date(2) == date(2026, 9, 10)


def test_a_complete_report_has_no_problems() -> None:
    assert rating_report_problems(EVENT, PLAYERS, round_dates=DATES, games=((1, 2, 1),)) == []


def test_the_problems_name_what_is_missing() -> None:
    event = ReportEvent(name="Interne", federation="Nederland")
    players = (
        ReportPlayer(1, "Aalders, Anna", 1012346, "NED", 1850),
        ReportPlayer(2, "Bos, Bart", None, "", None),
    )
    problems = [
        str(p)
        for p in rating_report_problems(
            event, players, round_dates=(date(2026, 9, 3), None), games=((1, 2, 1),)
        )
    ]
    assert problems == [
        "The city is missing (line 022).",
        "The federation (line 032) is not a FIDE code such as NED.",
        "The first or the last date is missing (042, 052).",
        "The chief arbiter is missing (line 102).",
        "The time control is missing (line 122).",
        "The type of tournament is missing (line 092).",
        "Rounds without a date: 2.",
        "Bos, Bart (start number 2) has no FIDE ID.",
        "Bos, Bart (start number 2) has no federation.",
        "Aalders, Anna played Bos, Bart in round 1, who has no FIDE rating.",
    ]


def test_a_season_without_games_says_so() -> None:
    problems = rating_report_problems(EVENT, PLAYERS, round_dates=DATES, games=())
    assert [str(p) for p in problems] == ["No game was played over the board."]
