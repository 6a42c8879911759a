"""A player's profile across seasons (/member/<id>/): his seasons with place and score, his
head-to-head record, his results; public-safe names; a constant number of queries."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competition.models import Game, Member, Round, RoundEntry, Season
from competition.selectors.profile import member_profile
from competition.services.standings import standings_recompute
from tests.addresses import club_reverse
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RoundEntryFactory,
    RoundFactory,
    SeasonFactory,
)
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db

COMPLETED, PAIRED, PLANNED = Round.Status.COMPLETED, Round.Status.PAIRED, Round.Status.PLANNED


def _season(club, year: int, members: dict[str, Member], **fields: object):
    season = SeasonFactory(
        club=club,
        name=f"Interne {year}",
        slug=f"{club.slug}-{year}",
        start_date=datetime.date(year, 9, 1),
        **fields,
    )
    people = {
        key: ParticipantFactory(season=season, member=member, start_rank=index + 1)
        for index, (key, member) in enumerate(members.items())
    }
    return season, people


def _round(season, number: int, status=COMPLETED):
    date = season.start_date + datetime.timedelta(weeks=number)
    return RoundFactory(season=season, number=number, date=date, status=status)


def _club(slug: str, seasons: int) -> dict[str, Member]:
    """Anna, Bart (born 2012) and Cor play ``seasons`` seasons (2026 back to 2024):

    2024 (finished): r1 Anna-Bart 1-0, r2 Anna-Cor ½-½.
    2025: r1 Bart-Anna 1-0, r2 Cor-Anna +- (forfeit: not in the head-to-head).
    2026 (juniors from 2010): r1 Anna-Bart ½-½, Cor absent with notice; r2 published,
    Anna-Cor not yet played.
    """
    club = ClubFactory(slug=slug, name=f"Club {slug}")
    members = {
        "A": MemberFactory(club=club, name="Anna Aalders"),
        "B": MemberFactory(club=club, name="Bart Bos", birth_year=2012),
        "C": MemberFactory(club=club, name="Cor Cools"),
    }
    years = [2026, 2025, 2024][:seasons]
    if 2024 in years:
        season, p = _season(club, 2024, members, status=Season.Status.FINISHED)
        GameFactory(round=_round(season, 1), board=1, white=p["A"], black=p["B"], result="1-0")
        GameFactory(round=_round(season, 2), board=1, white=p["A"], black=p["C"], result="1/2")
        standings_recompute(season=season)
    if 2025 in years:
        season, p = _season(club, 2025, members)
        GameFactory(round=_round(season, 1), board=1, white=p["B"], black=p["A"], result="1-0")
        GameFactory(round=_round(season, 2), board=1, white=p["C"], black=p["A"], result="+-")
        standings_recompute(season=season)
    season, p = _season(club, 2026, members, junior_birth_year=2010)
    r1 = _round(season, 1)
    GameFactory(round=r1, board=1, white=p["A"], black=p["B"], result="1/2")
    RoundEntryFactory(round=r1, participant=p["C"], kind=RoundEntry.Kind.ABSENT_NOTICE)
    GameFactory(round=_round(season, 2, PAIRED), board=1, white=p["A"], black=p["C"])
    standings_recompute(season=season)
    return members


def test_three_seasons_places_head_to_head_and_results() -> None:
    members = _club("drie", seasons=3)
    data = member_profile(member_id=members["A"].pk, club=members["A"].club)
    assert data.name == "Anna Aalders"
    assert [s.season.name for s in data.seasons] == ["Interne 2026", "Interne 2025", "Interne 2024"]
    s2026, s2025, s2024 = data.seasons
    assert (s2024.rank, s2024.game_points, s2024.games, s2024.after_round) == (1, 1.5, 2, 2)
    assert s2024.primary == "SB"
    assert (s2025.game_points, s2025.after_round) == (0, 2)
    assert (s2026.game_points, s2026.after_round) == (0.5, 1)
    # Head-to-head: Bart 3 games (won 2024, lost 2025, drew 2026); Cor 1 (the forfeit is out)
    assert [(h.name, h.games, h.wins, h.draws, h.losses, h.score) for h in data.head_to_head] == [
        ("Bart B.", 3, 1, 1, 1, 1.5),  # a junior in 2026: short everywhere on the profile
        ("Cor Cools", 1, 0, 1, 0, 0.5),
    ]
    results = [
        (r.season.name[-4:], r.round_number, r.opponent_name, r.colour, r.result, r.points)
        for r in data.results
    ]
    assert results == [
        ("2026", 1, "Bart B.", "w", "1/2", 0.5),
        ("2026", 2, "Cor Cools", "w", "", None),  # published, not yet played
        ("2025", 1, "Bart B.", "b", "1-0", 0),
        ("2025", 2, "Cor Cools", "b", "+-", 0),
        ("2024", 1, "Bart B.", "w", "1-0", 1),
        ("2024", 2, "Cor Cools", "w", "1/2", 0.5),
    ]


def test_the_page_shows_it_with_links(client) -> None:
    members = _club("pagina", seasons=3)
    response = client.get(club_reverse("competition:member_profile", args=[members["A"].pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert '<h1 class="h3 mb-1" id="profile-name">Anna Aalders</h1>' in text
    assert "Bart Bos" not in text and "Bart B." in text
    season = Season.objects.get(slug="pagina-2024")
    participant = season.participants.get(member=members["A"])
    assert club_reverse("competition:participant", args=[season.slug, participant.pk]) in text
    assert club_reverse("competition:member_profile", args=[members["B"].pk]) in text
    assert club_reverse("competition:round", args=["pagina-2025", 2]) in text
    assert "Interne 2026" in text and "Interne 2024" in text


def test_cors_absence_is_in_his_results(client) -> None:
    members = _club("afwezig", seasons=1)
    data = member_profile(member_id=members["C"].pk, club=members["C"].club)
    assert [(r.round_number, r.entry, r.opponent_name) for r in data.results] == [
        (1, "absent_notice", ""),
        (2, "", "Anna Aalders"),
    ]
    assert data.head_to_head == []  # his only game has no result yet


def test_a_junior_shows_short_on_his_profile_when_any_season_does(client) -> None:
    members = _club("junior", seasons=3)
    data = member_profile(member_id=members["B"].pk, club=members["B"].club)
    assert data.name == "Bart B."
    text = client.get(club_reverse("competition:member_profile", args=[members["B"].pk])).content
    assert b"Bart Bos" not in text and b"Bart B." in text


def test_a_member_who_chose_short(client) -> None:
    members = _club("kort", seasons=2)
    Member.objects.filter(pk=members["A"].pk).update(name_display="short")
    text = client.get(club_reverse("competition:member_profile", args=[members["A"].pk])).content
    assert b"Anna A." in text and b"Aalders" not in text


def test_an_anonymised_member_shows_his_neutral_name(client) -> None:
    members = _club("anoniem", seasons=2)
    Member.objects.filter(pk=members["B"].pk).update(
        name="Oud-lid 7", anonymised_at="2026-11-01T10:00:00Z"
    )
    assert member_profile(member_id=members["B"].pk, club=members["B"].club).name == "Oud-lid 7"
    text = client.get(club_reverse("competition:member_profile", args=[members["A"].pk])).content
    assert b"Oud-lid 7" in text and b"Bart" not in text


def test_unknown_member_and_one_who_never_played_are_not_found(client) -> None:
    assert client.get(club_reverse("competition:member_profile", args=[999999])).status_code == 404
    never = MemberFactory(club=ClubFactory(slug="leeg"), name="Nooit Gespeeld")
    assert (
        client.get(club_reverse("competition:member_profile", args=[never.pk])).status_code == 404
    )


def test_a_constant_number_of_queries_for_one_or_three_seasons(client) -> None:
    counts = []
    for slug, seasons in (("een", 1), ("drie", 3)):
        members = _club(slug, seasons=seasons)
        url = club_reverse("competition:member_profile", args=[members["A"].pk])
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        assert response.content.decode().count("<tr") > seasons  # the seasons are shown
        counts.append(len(queries))
    assert counts[0] == counts[1]
    # the club from the address, at most five for the page, one for the club rating's chart
    assert counts[1] <= 7


def test_the_participant_page_links_to_the_profile(client) -> None:
    season, people = small_season()
    cache.clear()
    text = client.get(
        club_reverse("competition:participant", args=[season.slug, people["A"].pk])
    ).content.decode()
    profile = club_reverse("competition:member_profile", args=[people["A"].member_id])
    assert f'<a href="{profile}"' in text
    assert client.get(profile).status_code == 200


def test_a_draft_pairing_is_not_shown(client) -> None:
    members = _club("concept", seasons=1)
    Round.objects.filter(season__slug="concept-2026", number=2).update(status=PLANNED)
    assert Game.objects.filter(round__status=PLANNED, white__member=members["A"]).exists()
    data = member_profile(member_id=members["A"].pk, club=members["A"].club)
    assert [r.round_number for r in data.results] == [1]
    assert [
        r.round_number
        for r in member_profile(member_id=members["C"].pk, club=members["C"].club).results
    ] == [1]
