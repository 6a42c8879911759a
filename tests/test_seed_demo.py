"""The demo data: deterministic, loaded once, and what `/` shows after `make run`.

Most tests read the session's build of the demo (the ``demo_club`` fixture, made by the same
``seed_demo``); the determinism test builds it once more and compares the two.
"""

import io

import pytest
from django.core.management import call_command
from django.db import transaction

from competition.management.commands.seed_demo import DEMO_TODAY
from competition.models import (
    Club,
    Game,
    GroupCompetition,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
    StandingsSnapshot,
)

pytestmark = pytest.mark.django_db


def _fingerprint() -> tuple:
    return (
        list(Member.objects.order_by("name").values_list("name", "rating", "knsb_id")),
        list(Season.objects.order_by("slug").values_list("slug", "system", "kind")),
        list(
            Game.objects.order_by("round__season__slug", "round__number", "board").values_list(
                "round__season__slug",
                "round__number",
                "board",
                "white__member__name",
                "black__member__name",
                "result",
            )
        ),
        list(
            RoundEntry.objects.order_by(
                "round__season__slug", "round__number", "participant__member__name"
            ).values_list("round__number", "participant__member__name", "kind", "points")
        ),
    )


def test_seed_demo_twice_gives_the_same_data_once(demo_club) -> None:
    first = _fingerprint()
    call_command("seed_demo", stdout=io.StringIO())
    assert _fingerprint() == first
    # the demo club and a second club on the same installation (issue 16)
    assert list(Club.objects.order_by("slug").values_list("slug", flat=True)) == [
        "sc-de-toren",
        "sv-het-paard",
    ]
    assert Member.objects.filter(club__slug="sc-de-toren").count() == 30
    assert Member.objects.filter(club__slug="sv-het-paard").count() == 13


def test_seed_demo_is_deterministic_across_databases(request) -> None:
    """Two builds into an empty database, this test's and the session's, hold the same data."""
    with transaction.atomic():
        call_command("seed_demo", stdout=io.StringIO())
        first = _fingerprint()
        transaction.set_rollback(True)
    assert not Club.objects.exists()
    request.getfixturevalue("demo_club")
    assert _fingerprint() == first


def test_demo_has_what_the_issue_asks_for(demo_club) -> None:
    systems = set(Season.objects.values_list("system", flat=True))
    assert systems == {"internal-sb", "van-den-brink", "points", "keizer"}
    # one round robin of its own, and the four group seasons (two groups, two periods)
    assert (
        Season.objects.filter(kind=Season.Kind.ROUND_ROBIN, group_competition__isnull=True).count()
        == 1
    )
    kinds = set(RoundEntry.objects.values_list("kind", flat=True))
    assert {"absent_notice", "absent_no_notice", "club_duty", "bye"} <= kinds
    assert Game.objects.filter(result__in=["+-", "-+"]).exists()
    assert Round.objects.filter(status=Round.Status.COMPLETED).count() >= 20
    vdb = Season.objects.get(system="van-den-brink")
    starts = list(vdb.participants.order_by("start_rank").values_list("start_points", flat=True))
    assert [int(s) for s in starts[:3]] == [200, 199, 198]
    for season in Season.objects.all():
        assert StandingsSnapshot.objects.filter(season=season).exists()


def test_demo_keizer_season_is_a_whole_club_season(demo_club) -> None:
    """About 24 players and 15 evenings, every kind of round without a game, a forfeit, and
    standings with the Keizer score and value after every round."""
    keizer = Season.objects.get(club__slug="sc-de-toren", system="keizer")
    assert keizer.participants.count() == 24
    assert keizer.rounds.filter(status=Round.Status.COMPLETED).count() == 15
    kinds = set(RoundEntry.objects.filter(round__season=keizer).values_list("kind", flat=True))
    assert {"absent_notice", "absent_no_notice", "club_duty", "bye"} <= kinds
    assert Game.objects.filter(round__season=keizer, result__in=["+-", "-+"]).exists()
    snapshot = StandingsSnapshot.objects.filter(season=keizer).order_by("-round_number")[0]
    assert snapshot.round_number == 15
    last = snapshot.rows
    assert [row["rank"] for row in last] == list(range(1, 25))  # Keizer ranks are strict
    assert all(row["score"] == row["values"]["KEIZER"] for row in last)
    assert [int(row["values"]["VALUE"]) for row in last] == list(range(36, 12, -1))


def test_demo_has_a_calendar_and_a_member_who_logs_in_himself(client, demo_club) -> None:
    """The internal competition's Thursdays are in the calendar, numbered in date order (the
    first ten are the rounds played); the demo member "lid" logs in with the demo password,
    lands on his page and has reported one absence, which his page shows."""
    from competition.models import AbsenceReport, ClubEvening

    internal = Season.objects.get(slug="interne-2026-2027")
    evenings = list(ClubEvening.objects.filter(season=internal).order_by("date"))
    assert len(evenings) == 34
    assert [e.round_number for e in evenings] == list(range(1, 35))
    played = dict(internal.rounds.values_list("number", "date"))
    assert all(played[e.round_number] == e.date for e in evenings[:10])
    report = AbsenceReport.objects.get()
    assert (report.evening.date.isoformat(), report.kind, report.note) == (
        "2027-01-14",
        "absent",
        "Op vakantie",
    )
    assert report.participant.member.user.username == "lid"
    response = client.post("/login/", {"username": "lid", "password": "schaak-demo-2026"})
    assert client.get(response["Location"])["Location"] == "/me/"
    assert "Op vakantie" in client.get("/me/").content.decode()


def test_seed_demo_if_empty_leaves_existing_data_alone() -> None:
    Club.objects.create(name="Andere club", slug="andere-club")
    call_command("seed_demo", "--if-empty")
    assert Club.objects.count() == 1
    assert not Season.objects.exists()


def test_the_site_lists_both_demo_clubs(client, demo_club) -> None:
    html = client.get("/").content.decode()
    assert 'href="/sc-de-toren/">Schaakclub De Toren</a>' in html
    assert 'href="/sv-het-paard/">Schaakvereniging Het Paard</a>' in html
    assert "Clubavond 2026-2027" in html  # the second club's running season


def test_home_shows_the_standings_after_seed_demo(client, demo_club) -> None:
    response = client.get("/sc-de-toren/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Clubavond 2026-2027" not in html  # the other club's season is on its own page
    assert "Interne competitie 2026-2027" in html
    assert "Van den Brinkcompetitie 2026-2027" in html
    leader = (
        StandingsSnapshot.objects.filter(season__slug="interne-2026-2027")
        .order_by("-round_number")[0]
        .rows[0]
    )
    leader_name = Participant.objects.get(pk=leader["participant_id"]).member.name
    assert leader_name in html


def test_demo_has_a_competition_in_groups_over_two_periods(demo_club) -> None:
    """Issue 14: two groups of four, three rounds per period, one up and one down."""
    competition = GroupCompetition.objects.get(slug="wintergroepen-2027")
    seasons = list(competition.group_seasons.order_by("group_period", "group_letter"))
    assert [(s.group_period, s.group_letter) for s in seasons] == [
        (1, "A"),
        (1, "B"),
        (2, "A"),
        (2, "B"),
    ]
    for season in seasons:
        assert season.participants.count() == 4
        assert season.rounds.filter(status=Round.Status.COMPLETED).count() == 3
    a1, b1, a2, b2 = (set(s.participants.values_list("member_id", flat=True)) for s in seasons)
    # one player went down from A, one came up from B
    assert len(a1 - a2) == 1 and len(b1 - b2) == 1
    assert a1 - a2 == b2 - b1 and b1 - b2 == a2 - a1


def test_no_demo_round_lies_after_the_demos_today(demo_club) -> None:
    """A closed round dated ahead cannot happen: every demo round is on or before the day the
    demo stands at, the Keizer season's fifteen Tuesdays included."""
    ahead = Round.objects.filter(date__gt=DEMO_TODAY).values_list("season__slug", "number", "date")
    assert list(ahead) == []
    keizer = Round.objects.filter(season__slug="keizer-2026-2027")
    assert keizer.count() == 15
    assert max(keizer.values_list("date", flat=True)) < DEMO_TODAY
