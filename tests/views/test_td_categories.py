"""The TD's page for a season's categories, prizes and periods: add, change, remove, the
settings, refusals shown with what was typed, and only the club's TDs."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages

from competition.models import Category, Season
from tests.addresses import club_reverse
from tests.views.member_club import english, member_club

pytestmark = pytest.mark.django_db


def page_url(season: Season) -> str:
    return club_reverse("competition:td_categories", args=[season.slug])


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_td_adds_changes_and_removes_a_category(client) -> None:
    club = member_club()
    english(client, club.td)
    home = client.get(club_reverse("competition:td_home")).content.decode()
    assert f'href="{page_url(club.season)}"' in home  # linked from the TD's season desk
    response = client.post(
        page_url(club.season),
        {
            "action": "save",
            "form": "new",
            "new-name": "Groep B",
            "new-kind": "rating",
            "new-rating_below": "1700",
            "new-unrated": "on",
            "new-prizes": "3",
        },
    )
    assert response.status_code == 302
    assert said(response) == ["Category Groep B saved."]
    category = Category.objects.get(season=club.season)
    assert (category.order, category.rating_from, category.rating_below, category.unrated) == (
        1,
        None,
        1700,
        True,
    )
    club.season.refresh_from_db()
    assert club.season.category_count == 1
    # a hand-made list of two players, 1 prize, most improved
    chosen = [club.me.pk, club.others[1].pk]
    response = client.post(
        page_url(club.season),
        {
            "action": "save",
            "form": f"c{category.pk}",
            f"c{category.pk}-category": category.pk,
            f"c{category.pk}-name": "Vrienden",
            f"c{category.pk}-order": "2",
            f"c{category.pk}-kind": "list",
            f"c{category.pk}-chosen": chosen,
            f"c{category.pk}-prizes": "1",
            f"c{category.pk}-most_improved": "on",
        },
    )
    assert said(response)[-1] == "Category Vrienden saved."
    category.refresh_from_db()
    assert (category.name, category.order, category.kind, category.prizes) == (
        "Vrienden",
        2,
        "list",
        1,
    )
    assert category.most_improved
    assert sorted(category.chosen.values_list("pk", flat=True)) == sorted(chosen)
    page = client.get(page_url(club.season)).content.decode()
    assert "Players chosen by the tournament director" in page
    response = client.post(page_url(club.season), {"action": "remove", "category": category.pk})
    assert said(response)[-1] == "Category removed."
    assert not Category.objects.filter(season=club.season).exists()
    club.season.refresh_from_db()
    assert club.season.category_count == 0


def test_a_wrong_category_is_shown_again_with_what_was_typed(client) -> None:
    club = member_club()
    english(client, club.td)
    response = client.post(
        page_url(club.season),
        {
            "action": "save",
            "form": "new",
            "new-name": "Verkeerd",
            "new-kind": "rating",
            "new-rating_from": "1800",
            "new-rating_below": "1700",
            "new-prizes": "3",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "The lower rating bound must be below the upper one." in html
    assert 'value="Verkeerd"' in html
    assert not Category.objects.exists()


def test_the_periods_and_the_prize_rule(client) -> None:
    club = member_club()
    english(client, club.td)
    response = client.post(
        page_url(club.season),
        {"action": "settings", "period_ends": "24; 12", "several_prizes": ""},
    )
    assert said(response) == ["Periods and prizes saved."]
    club.season.refresh_from_db()
    assert (club.season.period_ends, club.season.several_prizes) == ([12, 24], False)
    page = client.get(page_url(club.season)).content.decode()
    assert 'value="12, 24"' in page
    assert "rounds 1–12</a> · " in page and "rounds 13–24</a>" in page
    response = client.post(page_url(club.season), {"action": "settings", "period_ends": "12, x"})
    assert response.status_code == 200
    assert "Give the last round of each period as numbers, for example: 12, 24." in (
        response.content.decode()
    )


def test_the_page_in_dutch(client) -> None:
    club = member_club()
    client.force_login(club.td)
    html = client.get(page_url(club.season)).content.decode()
    assert "Categorieën en prijzen" in html and "Categorie toevoegen" in html


def test_only_the_clubs_tds(client) -> None:
    club = member_club()
    client.force_login(club.user)  # a member, not a TD
    assert client.get(page_url(club.season)).status_code == 403
    assert (
        client.post(page_url(club.season), {"action": "remove", "category": 1}).status_code == 403
    )
    client.logout()
    assert client.get(page_url(club.season)).status_code == 302  # to the login page
    stranger = User.objects.create_user("vreemde", password="x-pass-12345")
    client.force_login(stranger)
    assert client.get(page_url(club.season)).status_code == 403
