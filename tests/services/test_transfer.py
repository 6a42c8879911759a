"""Import and export services: exact numbers, standings JSON, TRF and archive round trips,
rating lists. Expected figures are worked out by hand in the comments."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import translation

from competition.management.commands.seed_demo import DEMO_CLUB_SLUG
from competition.models import Game, Member, Participant, Round, RoundEntry, Season, SeasonRules
from competition.scoring.exact import exact_json, written_decimal
from competition.services.errors import ServiceError
from competition.services.rounds import entry_record, result_record
from competition.services.standings import standings_recompute
from competition.services.transfer import (
    archive_import,
    ratings_import,
    season_archive_text,
    season_trf,
    standings_csv,
    standings_dataset,
    standings_document,
    standings_export,
    standings_text_table,
    trf_import,
)
from tests.factories import (
    ClubFactory,
    GameFactory,
    ParticipantFactory,
    RoundFactory,
    SeasonFactory,
)

DEMO_SEASONS = [
    # slug, system, unplayed policy, min games, round robin
    ("interne-2026-2027", "internal-sb", "unplayed-as-draw", 5, False),
    ("vandenbrink-2026-2027", "van-den-brink", "fide-2024", 6, False),
    ("rapidgroep-a-2026", "points", "plain", 0, True),
]


def trf_player(rank: int, name: str, rounds=(), points: str = "0.0", fide: str = "") -> str:
    """A 001 record with the columns of the TRF specification (start rank 5-8, name 15-47,
    rating 49-52, FIDE ID 58-68, points 81-84, rank 86-89, round n at 92 + 10(n-1))."""
    line = f"001 {rank:>4}      {name:<33} 1800     {fide:>11}            {points:>4} {rank:>4}"
    for opponent, colour, code in rounds:
        line += f"  {opponent:>4} {colour} {code}"
    return line


SMALL_TRF = (
    "\n".join(
        [
            "012 Zomertoernooi",
            "042 2026/07/01",
            trf_player(1, "Anna Aalders", [(2, "w", "1"), (3, "b", "=")], "1.5"),
            trf_player(2, "Bert Bos", [(1, "b", "0"), (0, "-", "U")], "1.0"),
            trf_player(3, "Cees Claassen", [(0, "-", "H"), (1, "w", "=")], "1.0"),
        ]
    )
    + "\n"
)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(233, 4), "58.25"),  # 58 1/4
        (Fraction(-23, 10), "-2.3"),  # the seed's loss in Van den Brink: -3 + 0.70
        (Fraction(10), "10"),
        (Fraction(7, 100), "0.07"),
        (Fraction(1, 3), "0.3333333333"),  # 0.3333333333|33 rounds down
        (Fraction(2, 3), "0.6666666667"),  # 0.6666666666|66 rounds up
        (Fraction(1, 42), "0.0238095238"),  # 1/3 × 1/14 = 0.0238095238|095...
        (Fraction(-1, 3), "-0.3333333333"),
    ],
)
def test_written_decimal(value: Fraction, text: str) -> None:
    assert format(written_decimal(value), "f") == text


def test_exact_json_writes_decimals_verbatim() -> None:
    document = {"score": Decimal("58.25"), "values": {"IP": Decimal("10")}, "eligible": True}
    text = exact_json(document)
    assert '"score": 58.25' in text and '"IP": 10' in text
    assert json.loads(text, parse_float=Decimal)["score"] == Decimal("58.25")


def _small_points_season() -> Season:
    """Points system, SB tie-break, actual points only. Round 1: A-B 1-0, C-D ½-½;
    round 2: A-C ½-½, B-D ½-½."""
    season = SeasonFactory(system="points", tiebreaks=["SB"], unplayed_policy="plain")
    a, b, c, d = (ParticipantFactory(season=season, start_rank=n) for n in (1, 2, 3, 4))
    r1 = RoundFactory(season=season, number=1, status=Round.Status.COMPLETED)
    GameFactory(round=r1, board=1, white=a, black=b, result="1-0")
    GameFactory(round=r1, board=2, white=c, black=d, result="1/2")
    r2 = RoundFactory(season=season, number=2, status=Round.Status.COMPLETED)
    GameFactory(round=r2, board=1, white=a, black=c, result="1/2")
    GameFactory(round=r2, board=2, white=b, black=d, result="1/2")
    standings_recompute(season=season)
    return season


@pytest.mark.django_db
def test_standings_document_hand_computed() -> None:
    season = _small_points_season()
    document = standings_document(season=season)
    # Points: A 1 + ½ = 1.5; B 0 + ½ = 0.5; C ½ + ½ = 1; D ½ + ½ = 1.
    # SB: A = 1×B(0.5) + ½×C(1) = 1; C = ½×D(1) + ½×A(1.5) = 1.25;
    #     D = ½×C(1) + ½×B(0.5) = 0.75; B = 0×A + ½×D(1) = 0.5.
    # C and D tie on points; C's SB 1.25 > D's 0.75.
    rows = [
        (r["rank"], r["start_number"], r["points"], r["values"]["SB"])
        for r in document["standings"]
    ]
    assert rows == [
        (1, 1, Decimal("1.5"), Decimal("1")),
        (2, 3, Decimal("1"), Decimal("1.25")),
        (3, 4, Decimal("1"), Decimal("0.75")),
        (4, 2, Decimal("0.5"), Decimal("0.5")),
    ]
    assert document["after_round"] == 2 and document["tiebreaks"] == ["SB"]
    text = exact_json(document)
    assert '"SB": 1.25' in text and '"points": 1.5' in text
    after_one = standings_document(season=season, after_round=1)
    # After round 1: A 1, C ½, D ½, B 0.
    assert [r["start_number"] for r in after_one["standings"]][:1] == [1]
    assert after_one["standings"][-1]["start_number"] == 2
    csv_text = standings_csv(document)
    assert csv_text.splitlines()[0].startswith("rank,start_number,name,points,score,")
    assert ",1.25," in csv_text.splitlines()[2]
    with pytest.raises(ServiceError, match="2 completed rounds"):
        standings_document(season=season, after_round=3)


@pytest.mark.django_db
def test_every_standings_export_is_the_one_dataset() -> None:
    """CSV, XLSX and the terminal table all show the dataset's columns and exact numbers."""
    document = standings_document(season=_small_points_season())
    dataset = standings_dataset(document)
    assert dataset.headers == [
        "rank",
        "start_number",
        "name",
        "points",
        "score",
        "PTS",
        "SB",
        "games",
        "eligible",
    ]
    # C (start number 3): 1 point, SB 1.25 (worked out in the test above).
    one = Decimal("1")
    assert dataset[1][:7] == (2, 3, dataset[1][2], one, one, one, Decimal("1.25"))
    assert dataset[1][7:] == (2, "yes")
    csv_lines = standings_csv(document).splitlines()
    assert csv_lines[0] == ",".join(dataset.headers)
    assert csv_lines[2] == ",".join(str(v) for v in dataset[1])
    assert standings_export(document, "csv").decode("utf-8-sig").splitlines() == csv_lines
    assert standings_export(document, "xlsx").startswith(b"PK")
    renamed = standings_dataset(document, headers={"rank": "#"})
    assert renamed.headers[:2] == ["#", "start_number"] and list(renamed) == list(dataset)
    table = standings_text_table(document).splitlines()
    assert table[1].split() == ["#", "Nr", "Name", "Pts", "Score", "PTS", "SB", "G", "Elig"]
    assert table[3].split()[-4:] == ["1", "1.25", "2", "yes"]


@pytest.mark.django_db
def test_trf_import_small_file() -> None:
    club = ClubFactory()
    report = trf_import(data=SMALL_TRF.encode(), system="points", tiebreaks=["SB"])
    season = Season.objects.get(slug="zomertoernooi")
    assert season.club == club and season.start_date == datetime.date(2026, 7, 1)
    assert (report.participants, report.members_created, report.games, report.entries) == (
        3,
        3,
        2,
        2,
    )
    games = sorted(
        Game.objects.filter(round__season=season).values_list(
            "round__number", "white__start_rank", "black__start_rank", "result"
        )
    )
    # Round 1: 1 (white) beat 2; round 2: 3 (white) drew 1.
    assert games == [(1, 1, 2, "1-0"), (2, 3, 1, "1/2")]
    entries = sorted(
        RoundEntry.objects.filter(round__season=season).values_list(
            "round__number", "participant__start_rank", "kind", "points"
        )
    )
    # Cees: H in round 1 = half-point bye (absence with notice, ½); Bert: U in round 2 = the
    # pairing-allocated bye, worth the default P = W = 1.
    assert entries == [
        (1, 3, "absent_notice", Decimal("0.5")),
        (2, 2, "bye", Decimal("1.0")),
    ]
    document = standings_document(season=season)
    # Points: Anna 1 + ½ = 1.5; Bert 0 + 1 = 1; Cees ½ + ½ = 1.
    assert next((r["name"], r["points"]) for r in document["standings"]) == (
        "Anna Aalders",
        Decimal("1.5"),
    )
    assert sorted(r["points"] for r in document["standings"]) == [
        Decimal("1"),
        Decimal("1"),
        Decimal("1.5"),
    ]


@pytest.mark.django_db
def test_trf_import_dry_run_writes_nothing_and_tag_202_is_used() -> None:
    ClubFactory()
    text = SMALL_TRF.replace("042 2026/07/01", "042 2026/07/01\n202 BH/C1,SB,XYZ")
    report = trf_import(data=text, dry_run=True)
    assert report.dry_run and report.games == 2
    assert not Season.objects.exists() and not Member.objects.exists()
    assert any("XYZ" in warning for warning in report.warnings)
    trf_import(data=text)
    assert Season.objects.get().tiebreaks == ["BH/C1", "SB"]


@pytest.mark.django_db
def test_trf_import_refuses_existing_slug() -> None:
    SeasonFactory(slug="zomertoernooi")
    # In the active language, without the command line's "--season-slug" (issue 15).
    with (
        translation.override("nl"),
        pytest.raises(ServiceError, match="korte naam 'zomertoernooi'; kies een andere"),
    ):
        trf_import(data=SMALL_TRF)
    with translation.override("en"), pytest.raises(ServiceError, match="choose another short"):
        trf_import(data=SMALL_TRF)


def _games_of(season: Season) -> list[tuple[int, str, str, str]]:
    return sorted(
        Game.objects.filter(round__season=season).values_list(
            "round__number", "white__member__name", "black__member__name", "result"
        )
    )


def _standings_rows(season: Season) -> list[dict]:
    return standings_document(season=season)["standings"]


@pytest.mark.django_db
@pytest.mark.parametrize(("slug", "system", "unplayed", "min_games", "round_robin"), DEMO_SEASONS)
def test_demo_trf_round_trip(
    slug: str, system: str, unplayed: str, min_games: int, round_robin: bool, demo_club
) -> None:
    original = Season.objects.get(slug=slug)
    text = season_trf(season=original)
    trf_import(
        data=text,
        season_slug="copy",
        club_slug=DEMO_CLUB_SLUG,
        system=system,
        unplayed=unplayed,
        min_games=min_games,
        round_robin=round_robin,
        tiebreaks=None,
    )
    copy = Season.objects.get(slug="copy")
    assert copy.tiebreaks == original.tiebreaks  # carried by tag 202
    assert _games_of(copy) == _games_of(original)
    assert _standings_rows(copy) == _standings_rows(original)
    # The export of the copy is the export of the original, except that an absence without
    # notice, written "0000 - -", reads back as the zero-point bye TRF16 makes of it (written
    # "0000 - Z"); the standings above are the same.
    assert season_trf(season=copy) == text.replace("0000 - -", "0000 - Z")


@pytest.mark.django_db
def test_trf_export_carries_relatienummer_and_bye_points(demo_club) -> None:
    text = season_trf(season=Season.objects.get(slug="interne-2026-2027"))
    lines = text.splitlines()
    # Hemmo Mulder is the first member: relatienummer 8100000 + 137 × 0, columns 58-68.
    national = next(line for line in lines if line.startswith("NED    1"))
    assert national[57:68].strip() == "8100000"
    # The internal competition gives 0 points for a bye: tag 162 says P 0.0.
    assert "162 W 1.0 D 0.5 L 0.0 A 0.0 P 0.0" in lines


def _add_history(season: Season) -> User:
    """A correction of a completed round's result, a changed entry, and two rule sets."""
    td = User.objects.create_user("wim", password="x-pass-12345")
    game = Game.objects.filter(round__season=season, round__number=2).order_by("board").first()
    new_result = "0-1" if game.result != "0-1" else "1-0"
    result_record(
        game_id=game.id,
        result=new_result,
        expected_version=game.version,
        user=td,
        reason="Uitslag verkeerd ingevoerd",
    )
    entry = RoundEntry.objects.filter(round__season=season, round__number=3).first()
    entry._history_user = td
    entry_record(round=entry.round, participant=entry.participant, kind="club_duty", note="extern")
    SeasonRules.objects.create(
        season=season,
        version=1,
        valid_from=datetime.datetime(2026, 9, 1, tzinfo=datetime.UTC),
        system=season.system,
        unplayed_policy=season.unplayed_policy,
        parameters={},
    )
    SeasonRules.objects.create(
        season=season,
        version=2,
        valid_from=datetime.datetime(2026, 9, 20, 12, tzinfo=datetime.UTC),
        system=season.system,
        parameters={"unplayed_value": "1/2"},
        tiebreaks=["BH"],
        unplayed_policy=season.unplayed_policy,
    )
    standings_recompute(season=season)
    return td


@pytest.mark.django_db(transaction=True)
def test_archive_round_trip_is_byte_identical_across_an_empty_database(demo_club_committed) -> None:
    season = Season.objects.get(slug="interne-2026-2027")
    _add_history(season)
    first = season_archive_text(season=season)
    standings_before = _standings_rows(season)
    document = json.loads(first)
    correction = next(
        h
        for h in document["history"]["games"]
        if h["history_change_reason"] == "Uitslag verkeerd ingevoerd"
    )
    # Outside a request simple-history knows no user; the row's own updated_by names him.
    assert correction["updated_by"] == "wim" and correction["history_user"] is None
    assert correction["history_type"] == "~"
    assert correction["round"] == 2
    assert any(h["kind"] == "club_duty" for h in document["history"]["entries"])
    # Rule sets keep their exact moment of validity, in UTC.
    assert [(r["version"], r["valid_from"]) for r in document["rule_sets"]] == [
        (1, "2026-09-01T00:00:00.000000+00:00"),
        (2, "2026-09-20T12:00:00.000000+00:00"),
    ]
    assert document["rule_sets"][1]["parameters"] == {"unplayed_value": "0.5"}
    changes = sum(
        h["history_type"] != "+" for key in ("games", "entries") for h in document["history"][key]
    )

    call_command("flush", interactive=False, verbosity=0)
    assert not Season.objects.exists()
    report = archive_import(data=first)
    assert report.corrections == changes >= 2
    again = Season.objects.get(slug="interne-2026-2027")
    assert season_archive_text(season=again).encode() == first.encode()
    assert _standings_rows(again) == standings_before


@pytest.mark.django_db
@pytest.mark.parametrize("slug", [s[0] for s in DEMO_SEASONS])
def test_demo_archive_exports_are_canonical(slug: str, demo_club) -> None:
    season = Season.objects.get(slug=slug)
    text = season_archive_text(season=season)
    assert text == season_archive_text(season=season)
    assert text.endswith("\n")
    document = json.loads(text)
    assert document["format"] == "clubcomp-season"
    assert len(document["participants"]) == Participant.objects.filter(season=season).count()


@pytest.mark.django_db
def test_archive_import_refuses_existing_slug(demo_club) -> None:
    text = season_archive_text(season=Season.objects.get(slug="rapidgroep-a-2026"))
    with (
        translation.override("nl"),
        pytest.raises(ServiceError, match="korte naam 'rapidgroep-a-2026'; er is niets"),
    ):
        archive_import(data=text)
    with (
        translation.override("en"),
        pytest.raises(ServiceError, match="'rapidgroep-a-2026' already exists"),
    ):
        archive_import(data=text)


KNSB_LIST = (
    "Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n"
    "8100000;Mulder, Hemmo;;NED;2111;300;1968;\r\n"  # Hemmo Mulder: 2105 -> 2111
    "8100137;ten Hertog, Albertus;;NED;2060;250;1975;\r\n"  # same rating
    "8999999;Nieuw, Lid;;NED;1500;10;2001;w\r\n"  # not a member
).encode("cp1252")


@pytest.mark.django_db
def test_ratings_import_knsb_counts_and_dates(demo_club) -> None:
    members_before = Member.objects.count()
    dry = ratings_import(
        data=KNSB_LIST, club_slug=DEMO_CLUB_SLUG, list_date=datetime.date(2026, 10, 1), dry_run=True
    )
    assert (dry.created, dry.updated, dry.unchanged) == (1, 2, 0)
    assert Member.objects.count() == members_before
    assert Member.objects.get(knsb_id="8100000").rating == 2105
    report = ratings_import(
        data=KNSB_LIST, club_slug=DEMO_CLUB_SLUG, list_date=datetime.date(2026, 10, 1)
    )
    # Both members get the new date (a change); the first also a new rating.
    assert (report.created, report.updated, report.unchanged) == (1, 2, 0)
    hemmo = Member.objects.get(knsb_id="8100000")
    assert (hemmo.name, hemmo.rating, hemmo.rating_date) == (
        "Hemmo Mulder",
        2111,
        datetime.date(2026, 10, 1),
    )
    again = ratings_import(
        data=KNSB_LIST, club_slug=DEMO_CLUB_SLUG, list_date=datetime.date(2026, 10, 1)
    )
    assert (again.created, again.updated, again.unchanged) == (0, 0, 3)


@pytest.mark.django_db
def test_ratings_import_only_club_members_and_ids(demo_club) -> None:
    report = ratings_import(
        data=KNSB_LIST,
        club_slug=DEMO_CLUB_SLUG,
        only_club_members=True,
        filename="knsb-2026-10.csv",
    )
    # 8999999 is left out; the date comes from the file name.
    assert (report.read, report.created, report.updated) == (2, 0, 2)
    assert report.list_date == datetime.date(2026, 10, 1)
    assert not Member.objects.filter(knsb_id="8999999").exists()
    only = ratings_import(
        data=KNSB_LIST,
        club_slug=DEMO_CLUB_SLUG,
        ids=[8999999],
        list_date=datetime.date(2026, 11, 1),
    )
    assert (only.read, only.created, only.updated) == (1, 1, 0)


FIDE_HEADER = (
    "ID Number      Name                                                         "
    "Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)


def fide_line(fide_id: int, name: str, fed: str, rating: int, born: int) -> str:
    columns = {c: FIDE_HEADER.index(c) for c in ("Name", "Fed", "SRtng", "SGm", "B-day")}
    line = list(" " * len(FIDE_HEADER))

    def put(start: int, text: str) -> None:
        line[start : start + len(text)] = text

    put(0, str(fide_id))
    put(columns["Name"], name)
    put(columns["Fed"], fed)
    put(columns["SRtng"], str(rating))
    put(columns["SGm"], "0")
    put(columns["B-day"], str(born))
    return "".join(line).rstrip()


@pytest.mark.django_db
def test_ratings_import_fide_txt_matches_fide_id() -> None:
    club = ClubFactory()
    Member.objects.create(club=club, name="Anna Aalders", fide_id=1503014, rating=1900)
    data = "\n".join(
        [
            FIDE_HEADER,
            fide_line(1503014, "Aalders, Anna", "NED", 1950, 1990),
            fide_line(2000001, "Other, Player", "GER", 2200, 1980),
        ]
    ).encode()
    report = ratings_import(
        data=data, format="fide-txt", only_club_members=True, list_date=datetime.date(2026, 9, 1)
    )
    assert (report.read, report.created, report.updated) == (1, 0, 1)
    anna = Member.objects.get(fide_id=1503014)
    assert (anna.rating, anna.birth_year, anna.rating_date) == (
        1950,
        1990,
        datetime.date(2026, 9, 1),
    )


@pytest.mark.django_db
def test_a_birth_year_from_the_rating_list_refreshes_the_public_pages(demo_club) -> None:
    """A birth year filled in from the list can make a member a junior, shown by first name
    and initial: the seasons he plays in get a new data_version (their cached pages go);
    seasons without a member whose birth year changed keep theirs."""
    hemmo = Member.objects.get(knsb_id="8100000")
    Member.objects.filter(pk=hemmo.pk).update(birth_year=None)
    his = set(Season.objects.filter(participants__member=hemmo).values_list("pk", flat=True))
    assert his
    before = dict(Season.objects.values_list("pk", "data_version"))
    ratings_import(data=KNSB_LIST, club_slug=DEMO_CLUB_SLUG, list_date=datetime.date(2026, 10, 1))
    after = dict(Season.objects.values_list("pk", "data_version"))
    assert Member.objects.get(pk=hemmo.pk).birth_year == 1968
    assert {pk for pk in after if after[pk] != before[pk]} == his
