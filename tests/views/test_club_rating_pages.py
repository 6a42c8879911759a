"""The club rating's pages: the club's rating list, a member's evenings explained game by
game, the chart on his profile, the club admin's rules; public names, constant queries."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages

from competition.clubs import club_url
from competition.models import ClubRatingChange, ClubRatingRules, Game, Member
from competition.permissions import admin_group
from competition.services.ratings import club_ratings_replay
from tests.factories import ClubFactory
from tests.rating_data import four_player_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_club(client):
    data = four_player_club()
    club_ratings_replay(club=data["club"])
    client.cookies["django_language"] = "en"
    return data


def test_the_rating_list_in_order_with_its_changes(client, rated_club, monkeypatch) -> None:
    from django.utils import timezone

    monkeypatch.setattr(timezone, "localdate", lambda: datetime.date(2026, 9, 20))
    club = rated_club["club"]
    page = client.get(club_url(club.slug, "competition:club_ratings")).content.decode()
    order = [page.index(name) for name in ("P1 Eerste", "P2 Tweede", "P4 Vierde", "P3 Derde")]
    assert order == sorted(order)  # 1798, 1610, 1528, 1514
    p1 = page[page.index("P1 Eerste") :].split("</tr>")[0]
    # No rating before September and before the season's first evening: "new" in both columns.
    assert ">1798<" in p1 and p1.count("new") == 2


def test_the_month_and_season_changes(client, rated_club, monkeypatch) -> None:
    """In October, P1 had 1798 at the end of September: +0 this month; the season began on 3
    September, before which he had no rating."""
    from django.utils import timezone

    club = rated_club["club"]
    monkeypatch.setattr(timezone, "localdate", lambda: datetime.date(2026, 10, 2))
    page = client.get(club_url(club.slug, "competition:club_ratings")).content.decode()
    p2 = page[page.index("P2 Tweede") :].split("</tr>")[0]
    assert ">1610<" in p2 and ">0<" in p2


def test_a_members_evenings_are_explained_game_by_game(client, rated_club) -> None:
    club, people = rated_club["club"], rated_club["people"]
    member = people["P1"].member
    page = client.get(
        club_url(club.slug, "competition:member_rating", args=[member.pk])
    ).content.decode()
    assert "Club rating 1798 (start 1800, 2 rated games)." in page
    # 10 September: D +312, We 0.86, W ½, K 40: 40 × (0.5 − 0.86) = −14.4, rounded −14.
    evening = page[page.index("1812 → 1798") :].split("</table>")[0]
    assert "K 40, unrounded −14.4" in evening and "(−14;" in evening
    row = evening[evening.index("P3 Derde") :].split("</tr>")[0]
    assert all(part in row for part in (">1500<", ">+312<", ">0.86<", ">½<", ">−14.4<"))
    assert "<svg" in page and "rating-chart" in page


def test_the_profile_shows_the_rating_chart(client, rated_club) -> None:
    club, member = rated_club["club"], rated_club["people"]["P4"].member
    page = client.get(
        club_url(club.slug, "competition:member_profile", args=[member.pk])
    ).content.decode()
    assert "Club rating 1528 (start 1500, 2 rated games)." in page
    assert page.count("<circle") >= 3  # start, 3 and 10 September


def test_names_are_as_the_public_sees_them(client, rated_club) -> None:
    club, people = rated_club["club"], rated_club["people"]
    Member.objects.filter(pk=people["P3"].member_id).update(name_display="short")
    listing = client.get(club_url(club.slug, "competition:club_ratings")).content.decode()
    history = client.get(
        club_url(club.slug, "competition:member_rating", args=[people["P1"].member_id])
    ).content.decode()
    for page in (listing, history):
        assert "P3 D." in page and "P3 Derde" not in page


def test_another_clubs_member_is_not_found(client, rated_club) -> None:
    other = ClubFactory(slug="andere", name="Andere")
    member = rated_club["people"]["P1"].member
    assert (
        client.get(club_url(other.slug, "competition:member_rating", args=[member.pk])).status_code
        == 404
    )


@pytest.mark.parametrize("evenings", [2, 12])
def test_the_pages_use_a_constant_number_of_queries(
    client, django_assert_max_num_queries, evenings: int
) -> None:
    data = four_player_club()
    from tests.factories import GameFactory, RoundFactory

    for number in range(3, evenings + 1):
        rnd = RoundFactory(
            season=data["season"], number=number,
            date=datetime.date(2026, 9, 10) + datetime.timedelta(days=7 * (number - 2)),
            status="completed",
        )  # fmt: skip
        people = data["people"]
        GameFactory(round=rnd, board=1, white=people["P1"], black=people["P4"], result="1/2")
    club_ratings_replay(club=data["club"])
    member = data["people"]["P1"].member
    for url in (
        club_url(data["club"].slug, "competition:club_ratings"),
        club_url(data["club"].slug, "competition:member_rating", args=[member.pk]),
        club_url(data["club"].slug, "competition:how_ratings_work"),
    ):
        with django_assert_max_num_queries(12):
            assert client.get(url).status_code == 200


def test_the_club_admin_sets_the_rules_and_the_ledger_follows(client, rated_club) -> None:
    club = rated_club["club"]
    admin = User.objects.create_user("voorzitter", password="x-pass-12345")
    admin.groups.add(admin_group(club))
    client.force_login(admin)
    page = client.get(club_url(club.slug, "competition:club_admin")).content.decode()
    assert 'id="club-rating-form"' in page and 'name="k_new_player" value="40"' in page
    response = client.post(
        club_url(club.slug, "competition:club_rating_rules"),
        {"k_new_player": "20", "k_standard": "20", "k_top": "10", "k_junior": "20",
         "start_rule": "fixed", "start_rating": "1600"},
    )  # fmt: skip
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "The club rating is computed again under these rules."
    ]
    rules = ClubRatingRules.objects.get(club=club)
    assert (rules.k_new_player, rules.start_rule, rules.rapid_counts) == (20, "fixed", False)
    # 3 September, all at 1600: P1 beats P2, ±.5 × 20 = ±10.
    p1 = ClubRatingChange.objects.get(member__name="P1 Eerste", date=datetime.date(2026, 9, 3))
    assert (p1.rating_before, p1.rating_after) == (1600, 1610)


def test_the_rules_are_refused_with_a_message_and_change_nothing(client, rated_club) -> None:
    club = rated_club["club"]
    admin = User.objects.create_user("voorzitter", password="x-pass-12345")
    admin.groups.add(admin_group(club))
    client.force_login(admin)
    response = client.post(
        club_url(club.slug, "competition:club_rating_rules"),
        {"k_new_player": "0", "k_standard": "20", "k_top": "10", "k_junior": "40",
         "start_rule": "imported", "start_rating": "1500"},
    )  # fmt: skip
    assert response.status_code == 302
    assert get_messages(response.wsgi_request)
    assert not ClubRatingRules.objects.filter(club=club).exists()


def test_only_the_clubs_admins_set_the_rules(client, rated_club) -> None:
    club = rated_club["club"]
    client.force_login(User.objects.create_user("lid", password="x-pass-12345"))
    response = client.post(
        club_url(club.slug, "competition:club_rating_rules"),
        {"k_new_player": "20", "k_standard": "20", "k_top": "10", "k_junior": "20",
         "start_rule": "fixed", "start_rating": "1600"},
    )  # fmt: skip
    assert response.status_code == 403
    assert not ClubRatingRules.objects.filter(club=club).exists()
    assert Member.objects.filter(club=club).count() == 4 and Game.objects.count() == 4


def test_the_admin_numbers_a_start_list_by_club_rating(client, superuser) -> None:
    """The season admin's action: the next season's start list by club rating before its
    first round; a season with completed rounds is refused, with the reason."""
    from django.urls import reverse

    from competition.models import Participant, Round, Season
    from tests.factories import ParticipantFactory, RoundFactory, SeasonFactory
    from tests.rating_data import SEP17

    data = four_player_club()
    club_ratings_replay(club=data["club"])
    later = SeasonFactory(club=data["club"], slug="najaar", status=Season.Status.RUNNING)
    for number, key in enumerate(("P3", "P4", "P2", "P1"), start=1):
        ParticipantFactory(
            season=later, member=data["people"][key].member, start_rank=number, rating=None
        )
    RoundFactory(season=later, number=1, date=SEP17, status=Round.Status.PLANNED)
    client.force_login(superuser)
    response = client.post(
        reverse("admin:competition_season_changelist"),
        {"action": "number_by_club_rating", "_selected_action": [later.pk, data["season"].pk]},
        follow=True,
    )
    assert response.status_code == 200
    said = [str(m) for m in get_messages(response.wsgi_request)]  # Dutch, the default
    assert any("4 startnummers, op clubrating" in m for m in said), said
    assert any("heeft afgesloten ronden" in m for m in said), said
    order = Participant.objects.filter(season=later).order_by("start_rank")
    assert [p.member.name for p in order] == ["P1 Eerste", "P2 Tweede", "P4 Vierde", "P3 Derde"]
