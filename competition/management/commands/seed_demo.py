"""Load the deterministic demo club: 30 members, five competitions, ten to fifteen played rounds,
the internal competition's calendar of club evenings, its A/B categories with prizes and its
two periods, a rapid series of three evenings, and one member with his own account.

Running it again changes nothing (the demo club is recognised by its slug). ``--if-empty``
loads nothing when the database holds any club at all (what ``make run`` uses).
"""

from __future__ import annotations

import datetime
import random
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from competition.models import PRESENT, Club, Game, Member, Participant, Round, RoundEntry, Season
from competition.permissions import admin_group, td_group
from competition.services.absences import absence_report, evenings_add, season_planned_rounds_update
from competition.services.categories import CategoryFields, category_add, season_prizes_update
from competition.services.evening import attendance_record, pairing_propose, round_publish
from competition.services.groups import group_competition_create, groups_promote
from competition.services.pairing_rules import forbidden_pair_add
from competition.services.participants import participant_withdraw
from competition.services.rounds import result_record, round_complete, round_create
from competition.services.series import has_next_round_tonight, rapid_round_next

DEMO_CLUB_SLUG = "sc-de-toren"
DEMO_PASSWORD = "schaak-demo-2026"
FIRST_EVENING = datetime.date(2026, 9, 10)  # a Thursday
PLAYED_ROUNDS = 10
RAPID_ROUNDS = 6  # the round-robin group of eight is one round short of its end
# The day the demo stands at: the internal competition's first ten rounds are played, its
# eleventh is tonight. No demo round is dated after it (a closed round cannot lie ahead).
DEMO_TODAY = FIRST_EVENING + datetime.timedelta(weeks=PLAYED_ROUNDS)
# The Keizer competition plays on Tuesdays, its fifteen rounds up to the Tuesday before.
KEIZER_FIRST_EVENING = datetime.date(2026, 8, 11)
KEIZER_ROUNDS = 15
# The rapid series' three Friday evenings of five rounds each.
RAPID_EVENINGS = (
    datetime.date(2026, 10, 2),
    datetime.date(2026, 11, 6),
    datetime.date(2026, 11, 13),
)
CALENDAR_EVENINGS = 34  # the internal competition's Thursdays from September to May
# The rounds planned by the seasons without a calendar ("can I still win?" needs them).
VDB_PLANNED_ROUNDS = 16
KEIZER_PLANNED_ROUNDS = 20
SECOND_CLUB_PLANNED_ROUNDS = 12
# The demo member with an account of his own (my page, absence reports, calendar feed), and
# the evening he reported he cannot come (made when the first ten rounds had been played).
DEMO_MEMBER_USERNAME = "lid"
DEMO_REPORT_EVENING = datetime.date(2027, 1, 14)
# (system, round, board): a game lost by forfeit (the absent player's opponent wins).
FORFEITS = {
    ("internal-sb", 4, 3): Game.Result.WHITE_WINS_FORFEIT,  # black did not turn up
    ("keizer", 6, 2): Game.Result.BLACK_WINS_FORFEIT,  # white did not turn up
}

MEMBERS = [
    ("Hemmo Mulder", 2105, 1968),
    ("Albertus ten Hertog", 2060, 1975),
    ("Edwin Tol", 2012, 1981),
    ("Sanne de Vries", 1978, 1994),
    ("Pieter Bakker", 1940, 1959),
    ("Fenna Visser", 1915, 2003),
    ("Joost van Dijk", 1890, 1972),
    ("Marloes Smit", 1862, 1988),
    ("Bram Jansen", 1840, 2007),
    ("Lieke de Boer", 1815, 1999),
    ("Wouter Mulder", 1798, 1965),
    ("Ingrid Peters", 1770, 1961),
    ("Ruud Hendriks", 1752, 1956),
    ("Kees van Leeuwen", 1731, 1950),
    ("Anouk Dekker", 1705, 2009),
    ("Gert-Jan Brouwer", 1688, 1979),
    ("Thijs de Graaf", 1660, 2010),
    ("Marieke Bos", 1642, 1985),
    ("Henk Vos", 1618, 1948),
    ("Daan Kuipers", 1597, 2011),
    ("Els van den Berg", 1575, 1963),
    ("Jeroen Willems", 1550, 1977),
    ("Noor Verhoeven", 1528, 2012),
    ("Sjoerd Postma", 1502, 1991),
    ("Tineke Hoekstra", 1480, 1957),
    ("Roel Dijkstra", 1455, 2013),
    ("Femke Jacobs", 1430, 2008),
    ("Gerrit Schouten", 1402, 1944),
    ("Jelle Koster", 1375, 2014),
    ("Wilma de Haan", 1350, 1960),
]


# The second club on the installation: a small Keizer club with its own TD.
SECOND_CLUB_SLUG = "sv-het-paard"
SECOND_CLUB_TD = "paardenwl"
SECOND_CLUB_ROUNDS = 8
SECOND_CLUB_MEMBERS = [
    ("Arjen Hofstra", 1932, 1970),
    ("Baukje Zijlstra", 1874, 1986),
    ("Cor Wiersma", 1821, 1958),
    ("Dineke Terpstra", 1779, 1992),
    ("Evert Kingma", 1736, 1964),
    ("Froukje Bakker", 1702, 2001),
    ("Gosse Veenstra", 1668, 1953),
    ("Hilde Nauta", 1633, 1997),
    ("Ids de Jong", 1597, 2009),
    ("Janke Bergsma", 1561, 1967),
    ("Klaas Sikkema", 1524, 1949),
    ("Lysbeth Hoekstra", 1490, 2012),
    ("Meine Boersma", 1455, 1981),
]


class Command(BaseCommand):
    help = "Load the deterministic demo club (does nothing when it is already there)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="Only load when the database has no club."
        )

    def handle(self, *args: object, **options: object) -> None:
        if options["if_empty"] and Club.objects.exists():
            self.stdout.write("Database already holds data; demo not loaded.")
            return
        if Club.objects.filter(slug=DEMO_CLUB_SLUG).exists():
            self.stdout.write("The demo club is already loaded.")
            return
        load_demo()
        self.stdout.write(self.style.SUCCESS("Demo club loaded."))
        self.stdout.write(f"TD login: wedstrijdleider / {DEMO_PASSWORD}")
        self.stdout.write(f"Member login: {DEMO_MEMBER_USERNAME} / {DEMO_PASSWORD}")
        self.stdout.write(f"Club admin login: clubbeheerder / {DEMO_PASSWORD}")
        self.stdout.write(f"Second club's TD login: {SECOND_CLUB_TD} / {DEMO_PASSWORD}")
        self.stdout.write(f"Site admin login: beheerder / {DEMO_PASSWORD}")


@transaction.atomic
def load_demo() -> None:
    club, members, td = _demo_club()
    internal, vdb, rapid = _demo_seasons(club)
    _enrol(internal, members[:17])  # an odd number: someone gets the bye
    # Van den Brink start points come from last season's final standing: 200, 199, ...
    _enrol(vdb, members[17:30], start_points=True)
    _enrol(rapid, [members[i] for i in (0, 2, 4, 6, 8, 10, 12, 14)])
    keizer = _keizer_season(club)
    _enrol(keizer, members[6:30])  # 24 players, by rating: the start list gives the values
    _play_the_evenings(internal, vdb, rapid, keizer, td)
    _calendar_and_member(internal, members[1])  # its calendar plans its rounds
    # The seasons without a calendar plan their rounds by hand, as the TD does on the calendar
    # page: every demo season shows its chances (the round robin has its Berger cycle).
    season_planned_rounds_update(season=vdb, planned_rounds=VDB_PLANNED_ROUNDS)
    season_planned_rounds_update(season=keizer, planned_rounds=KEIZER_PLANNED_ROUNDS)
    _club_rules(internal)
    _categories_and_periods(internal)
    _rapid_series(club, [members[i] for i in (1, 3, 5, 7, 9, 11)], td)
    _groups(club, members[16:24], td)
    _second_club()


def _demo_club() -> tuple[Club, list[Member], User]:
    """The demo club, its members and its people: the TD, the site admin and the club admin."""
    club = Club.objects.create(name="Schaakclub De Toren", slug=DEMO_CLUB_SLUG)
    members = [
        Member.objects.create(
            club=club,
            name=name,
            rating=rating,
            birth_year=born,
            knsb_id=str(8100000 + 137 * index),
            rating_date=datetime.date(2026, 9, 1),
        )
        for index, (name, rating, born) in enumerate(MEMBERS)
    ]
    td = User.objects.create_user("wedstrijdleider", password=DEMO_PASSWORD, first_name="Wim")
    td.groups.add(td_group(club))
    User.objects.create_superuser("beheerder", "beheerder@example.org", DEMO_PASSWORD)
    club_admin = User.objects.create_user(
        "clubbeheerder", password=DEMO_PASSWORD, first_name="Carla"
    )
    club_admin.groups.add(admin_group(club))
    return club, members, td


def _demo_seasons(club: Club) -> tuple[Season, Season, Season]:
    """The internal (SB), Van den Brink and rapid round robin seasons, from the first evening."""

    def season(**fields: Any) -> Season:
        return Season.objects.create(club=club, start_date=FIRST_EVENING, parameters={}, **fields)

    internal = season(
        name="Interne competitie 2026-2027",
        slug="interne-2026-2027",
        system="internal-sb",
        tiebreaks=[],
        unplayed_policy="unplayed-as-draw",
        min_games=5,
        bye_points=Decimal("0"),
    )
    vdb = season(
        name="Van den Brinkcompetitie 2026-2027",
        slug="vandenbrink-2026-2027",
        system="van-den-brink",
        tiebreaks=[],
        unplayed_policy="fide-2024",
        min_games=6,
        bye_points=Decimal("1"),
    )
    rapid = season(
        name="Rapidgroep A 2026",
        slug="rapidgroep-a-2026",
        kind=Season.Kind.ROUND_ROBIN,
        system="points",
        tiebreaks=["SB", "DE", "WIN"],
        unplayed_policy="plain",
    )
    return internal, vdb, rapid


def _keizer_season(club: Club) -> Season:
    return Season.objects.create(
        club=club,
        name="Keizercompetitie 2026-2027",
        slug="keizer-2026-2027",
        start_date=KEIZER_FIRST_EVENING,
        system="keizer",
        parameters={},  # the system's defaults: top value 1.5 × 24 = 36, step 1, bye ⅔ ...
        tiebreaks=[],
        unplayed_policy="fide-2024",
        min_games=8,
        rematch_window=4,
    )


def _play_the_evenings(
    internal: Season, vdb: Season, rapid: Season, keizer: Season, td: User
) -> None:
    """Every evening runs through the TD's own services: attendance, the pairing engine
    (Berger tables for the round robin), publishing, results and closing the round."""
    rng = random.Random(20260910)
    for number in range(1, PLAYED_ROUNDS + 1):
        evening = FIRST_EVENING + datetime.timedelta(weeks=number - 1)
        seasons = [internal, vdb] + ([rapid] if number <= RAPID_ROUNDS else [])
        for rnd in round_create(seasons=seasons, date=evening):
            _play_evening(rnd, rng, td)
    # The Keizer evenings have their own random numbers: the other seasons stay as they were.
    keizer_rng = random.Random(20260901)
    for number in range(1, KEIZER_ROUNDS + 1):
        evening = KEIZER_FIRST_EVENING + datetime.timedelta(weeks=number - 1)
        for rnd in round_create(seasons=[keizer], date=evening):
            _play_evening(rnd, keizer_rng, td)


def _second_club() -> None:
    """A second club on the same installation: its own members, TD and Keizer season."""
    club = Club.objects.create(name="Schaakvereniging Het Paard", slug=SECOND_CLUB_SLUG)
    members = [
        Member.objects.create(club=club, name=name, rating=rating, birth_year=born)
        for name, rating, born in SECOND_CLUB_MEMBERS
    ]
    td = User.objects.create_user(SECOND_CLUB_TD, password=DEMO_PASSWORD, first_name="Sietse")
    td.groups.add(td_group(club))
    keizer = Season.objects.create(
        club=club,
        name="Clubavond 2026-2027",
        slug="clubavond-2026-2027",
        start_date=FIRST_EVENING,
        system="keizer",
        parameters={},
        tiebreaks=[],
        unplayed_policy="fide-2024",
    )
    _enrol(keizer, members)
    rng = random.Random(20260911)
    for number in range(1, SECOND_CLUB_ROUNDS + 1):
        evening = FIRST_EVENING + datetime.timedelta(days=1, weeks=number - 1)  # Fridays
        for rnd in round_create(seasons=[keizer], date=evening):
            _play_evening(rnd, rng, td)
    season_planned_rounds_update(season=keizer, planned_rounds=SECOND_CLUB_PLANNED_ROUNDS)


GROUPS_FIRST_EVENING = datetime.date(2026, 10, 12)  # the group competition plays on Mondays


def _groups(club: Club, members: list[Member], td: User) -> None:
    """A competition in groups: groups A and B of four, a round robin of three
    rounds per period, one up and one down after period 1, both groups on the same Monday
    evenings; period 2 played too, so its page names the club champion (the winner of group A).
    Built through the services, with its own random numbers."""
    rng = random.Random(20270201)
    competition = group_competition_create(
        club=club,
        name="Wintergroepen 2027",
        slug="wintergroepen-2027",
        groups=[members[:4], members[4:]],
        season_fields={
            "kind": Season.Kind.ROUND_ROBIN,
            "system": "points",
            "tiebreaks": ["SB", "WIN"],
            "unplayed_policy": "plain",
        },
        start_date=GROUPS_FIRST_EVENING,
    )
    evening = GROUPS_FIRST_EVENING
    for period in (1, 2):
        groups = list(
            competition.group_seasons.filter(group_period=period).order_by("group_letter")
        )
        for _number in range(competition.rounds_per_period):
            for rnd in round_create(seasons=groups, date=evening):
                _play_evening(rnd, rng, td)
            evening += datetime.timedelta(weeks=1)
        if period == 1:
            groups_promote(competition=competition, start_date=evening)
    Season.objects.filter(group_competition=competition).update(status=Season.Status.FINISHED)


def _rapid_series(club: Club, members: list[Member], td: User) -> None:
    """A rapid series: three Friday evenings of five Swiss rounds among six players,
    each round paired within the evening and published with *next round*, evening points
    10-8-6-5-4-3, the best two evenings counting. Its own random numbers: the other seasons
    stay as they were. Finished once the three evenings are played."""
    rng = random.Random(20261002)
    series = Season.objects.create(
        club=club,
        name="Rapidserie 2026-2027",
        slug="rapidserie-2026-2027",
        start_date=RAPID_EVENINGS[0],
        system="points",
        parameters={},
        tiebreaks=["BH", "SB", "WIN"],
        unplayed_policy="fide-2024",
        rounds_per_evening=5,
        evening_points=[10, 8, 6, 5, 4, 3],
        best_evenings=2,
    )
    _enrol(series, members)
    for day in RAPID_EVENINGS:
        (rnd,) = round_create(seasons=[series], date=day)
        pairing_propose(round=rnd, user=td)
        round_publish(round=rnd, user=td)
        while True:
            games = Game.objects.filter(round=rnd).select_related("white__member", "black__member")
            for game in games.order_by("board"):
                result = _result(rng, game.white, game.black)
                result_record(
                    game_id=game.id, result=result, expected_version=game.version, user=td
                )
            if not has_next_round_tonight(rnd):
                round_complete(round=rnd, user=td)
                break
            rnd = rapid_round_next(round=rnd, user=td)
    series.status = Season.Status.FINISHED
    series.save(update_fields=["status"])


def _club_rules(season: Season) -> None:
    """Two of a club's own arrangements: two brothers who drive to the club together
    are never paired against each other, and the last player on the start list moved away after
    the evenings played so far: he is withdrawn from the next round on (his games keep
    counting)."""
    by_rank = list(season.participants.select_related("member").order_by("start_rank"))
    forbidden_pair_add(
        season=season,
        first_id=by_rank[2].pk,
        second_id=by_rank[3].pk,
        note="Broers, rijden samen naar de club",
    )
    participant_withdraw(participant=by_rank[-1], from_round=PLAYED_ROUNDS + 1, note="Verhuisd")


def _categories_and_periods(season: Season) -> None:
    """Categories and periods: group A (rating 1850 or more) and group B (below
    1850), three prizes each, group B with a prize for the most improved; the evenings played
    so far split into two periods (rounds 1–5 and 6–10), each with its own champion."""
    category_add(
        season=season,
        fields=CategoryFields(name="Groep A", kind="rating", rating_from=1850, prizes=3),
    )
    category_add(
        season=season,
        fields=CategoryFields(
            name="Groep B",
            kind="rating",
            rating_below=1850,
            unrated=True,
            prizes=3,
            most_improved=True,
        ),
    )
    season_prizes_update(season=season, period_ends=[5, PLAYED_ROUNDS], several_prizes=True)


def _calendar_and_member(season: Season, member: Member) -> None:
    """The internal competition's club evenings (reports close at 18:00 on the day; byes may
    be asked for) and one member who logs in himself and has reported one absence."""
    Season.objects.filter(pk=season.pk).update(
        absence_deadline=datetime.time(18, 0), requested_byes=True
    )
    season.refresh_from_db()
    evenings_add(
        season=season,
        dates=[FIRST_EVENING + datetime.timedelta(weeks=n) for n in range(CALENDAR_EVENINGS)],
    )
    user = User.objects.create_user(
        DEMO_MEMBER_USERNAME,
        f"{DEMO_MEMBER_USERNAME}@example.org",
        DEMO_PASSWORD,
        first_name=member.name.split()[0],
    )
    Member.objects.filter(pk=member.pk).update(user=user, email=user.email)
    member.refresh_from_db()
    reported = timezone.make_aware(datetime.datetime.combine(DEMO_TODAY, datetime.time(12)))
    absence_report(
        evening=season.evenings.get(date=DEMO_REPORT_EVENING),
        participant=season.participants.get(member=member),
        user=user,
        note="Op vakantie",
        now=reported,
    )


def _enrol(season: Season, members: list[Member], start_points: bool = False) -> list[Participant]:
    return [
        Participant.objects.create(
            season=season,
            member=member,
            start_rank=rank,
            start_points=str(201 - rank) if start_points else None,
            rating=member.rating,
        )
        for rank, member in enumerate(members, start=1)
    ]


def _result(rng: random.Random, white: Participant, black: Participant) -> str:
    # Every demo member has a rating (MEMBERS above).
    difference = (black.member.rating or 0) - (white.member.rating or 0)
    expected = 1 / (1 + 10 ** (difference / 400))
    if rng.random() < 0.25:
        return Game.Result.DRAW
    return Game.Result.WHITE_WINS if rng.random() < expected else Game.Result.BLACK_WINS


def _attendance(rng: random.Random, round: Round) -> dict[int, str]:
    """About one in seven stays away: with notice, without notice or on club duty."""
    marks: dict[int, str] = {}
    for participant in round.season.participants.order_by("start_rank"):
        roll = rng.random()
        if roll < 0.08:
            marks[participant.id] = RoundEntry.Kind.ABSENT_NOTICE
        elif roll < 0.11:
            marks[participant.id] = RoundEntry.Kind.ABSENT_NO_NOTICE
        elif roll < 0.14:
            marks[participant.id] = RoundEntry.Kind.CLUB_DUTY
        else:
            marks[participant.id] = PRESENT
    return marks


def _play_evening(round: Round, rng: random.Random, td: User) -> None:
    if not round.season.is_round_robin:
        attendance_record(round=round, marks=_attendance(rng, round), user=td)
    pairing_propose(round=round, user=td)
    round_publish(round=round, user=td)
    games = Game.objects.filter(round=round).select_related("white__member", "black__member")
    for game in games.order_by("board"):
        result = _result(rng, game.white, game.black)
        result = FORFEITS.get((round.season.system, round.number, game.board), result)
        result_record(game_id=game.id, result=result, expected_version=game.version, user=td)
    round_complete(round=round, user=td)
