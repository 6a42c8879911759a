"""The TD starts a group competition from a page (issue 14): settings and players, put in
groups by rating; refused with a reason for a taken short name or a member of another club."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from competition.models import Club, GroupCompetition, Member, Season
from competition.permissions import td_group
from tests.addresses import club_reverse
from tests.factories import ClubFactory, MemberFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_and_td(client):
    club = ClubFactory()
    td = User.objects.create_user("td", password="x-td-pass-123")
    td.groups.add(td_group(club))
    client.force_login(td)
    client.cookies["django_language"] = "en"
    members = [
        MemberFactory(club=club, name=name, rating=rating)
        for name, rating in (
            ("Ada", 1500),
            ("Bob", 1900),
            ("Cor", None),
            ("Dre", 1700),
            ("Eva", 2000),
            ("Fee", 1600),
            ("Gijs", 1800),
        )
    ]
    return club, members


def _form(club: Club, members: list[Member], **extra: object) -> dict[str, object]:
    return {
        "club": club.pk,
        "name": "Wintergroepen",
        "slug": "winter",
        "system": "points",
        "kind": "round_robin",
        "groups": 2,
        "periods": 2,
        "rounds_per_period": 3,
        "promoted": 1,
        "relegated": 1,
        "champion_rule": "top_group",
        "members": [m.pk for m in members],
        **extra,
    }


def test_the_td_starts_groups_by_rating(client, club_and_td) -> None:
    """Seven players by rating: Eva 2000, Bob 1900, Gijs 1800, Dre 1700 | Fee 1600, Ada 1500,
    Cor (unrated, last): group A of four, group B of three, each in that start order."""
    club, members = club_and_td
    home = client.get(club_reverse("competition:td_home")).content.decode()
    assert club_reverse("competition:td_group_new") in home
    response = client.post(club_reverse("competition:td_group_new"), _form(club, members))
    assert response.status_code == 302
    competition = GroupCompetition.objects.get(slug="winter")
    assert response["Location"] == club_reverse("competition:group_competition", args=["winter"])
    groups = {
        season.group_letter: [
            p.member.name
            for p in season.participants.order_by("start_rank").select_related("member")
        ]
        for season in Season.objects.filter(group_competition=competition)
    }
    assert groups == {"A": ["Eva", "Bob", "Gijs", "Dre"], "B": ["Fee", "Ada", "Cor"]}
    assert (competition.periods, competition.promoted, competition.relegated) == (2, 1, 1)


def test_a_taken_name_and_a_stranger_are_refused(client, club_and_td) -> None:
    club, members = club_and_td
    assert (
        client.post(club_reverse("competition:td_group_new"), _form(club, members)).status_code
        == 302
    )
    again = client.post(club_reverse("competition:td_group_new"), _form(club, members))
    assert again.status_code == 200
    assert "This short name is taken" in again.content.decode()
    elsewhere = Club.objects.create(name="Schaakclub Elders", slug="elders")
    stranger = Member.objects.create(club=elsewhere, name="Zoe", rating=2100)
    other = client.post(
        club_reverse("competition:td_group_new"), _form(club, [*members, stranger], slug="ander")
    )
    assert other.status_code == 200
    assert GroupCompetition.objects.filter(slug="ander").count() == 0


def test_a_member_without_td_rights_is_refused(client) -> None:
    user = User.objects.create_user("lid", password="x-lid-pass-123")
    client.force_login(user)
    assert client.get(club_reverse("competition:td_group_new")).status_code == 403
