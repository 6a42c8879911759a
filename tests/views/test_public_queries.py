"""Every public page costs the same number of queries for a small and a large season."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.models import Game, Participant
from competition.services.rounds import result_record
from tests.views.public_data import large_season, small_season

pytestmark = pytest.mark.django_db

# One bound for every page and every size: season + at most the season's input (4) + snapshots
# + names + the round page's history reads.
MAX_QUERIES = 9


def _urls(season) -> list[str]:
    participant = Participant.objects.filter(season=season).order_by("pk").first()
    assert participant is not None
    return [
        reverse("competition:home"),
        reverse("competition:standings", args=[season.slug]),
        reverse("competition:standings", args=[season.slug]) + "?round=1",
        reverse("competition:standings", args=[season.slug]) + "?_export=xlsx",
        reverse("competition:round", args=[season.slug, 2]),
        reverse("competition:participant", args=[season.slug, participant.pk]),
        reverse("competition:crosstable", args=[season.slug]),
        reverse("competition:how_it_works", args=[season.slug]),
        reverse("competition:systems", args=[season.slug]),
    ]


@pytest.mark.parametrize("size", ["small", "large"])
def test_pages_use_a_constant_number_of_queries(
    client, django_assert_max_num_queries, size: str
) -> None:
    season = small_season()[0] if size == "small" else large_season(players=41, rounds=12)
    for url in _urls(season):
        cache.clear()
        with django_assert_max_num_queries(MAX_QUERIES):
            assert client.get(url).status_code == 200, url


def _cached_urls(season, participant_pk: int) -> list[str]:
    standings = reverse("competition:standings", args=[season.slug])
    return [
        standings,
        standings + "?round=1",
        standings + "?sort=name",
        reverse("competition:participant", args=[season.slug, participant_pk]),
        reverse("competition:crosstable", args=[season.slug]),
        reverse("competition:how_it_works", args=[season.slug]),
        reverse("competition:systems", args=[season.slug]),
    ]


def test_an_anonymous_cached_page_costs_one_query(client, django_assert_num_queries) -> None:
    season, people = small_season()
    cache.clear()
    for url in _cached_urls(season, people["C"].pk):
        first = client.get(url)
        with django_assert_num_queries(1):  # the season's versions, nothing else
            again = client.get(url)
        assert again.status_code == 200, url
        assert again.content == first.content, url
        assert again["Content-Type"] == first["Content-Type"] == "text/html; charset=utf-8"
        assert again["Content-Language"] == "nl"
        assert "Cookie" in again["Vary"]


def _row(html: str, participant_pk: int) -> str:
    return html.split(f'data-participant="{participant_pk}"')[1].split("</tr>")[0]


def test_an_anonymous_cached_page_is_refreshed_after_a_write(
    client, td_user, django_assert_num_queries
) -> None:
    season, people = small_season()
    cache.clear()
    url = reverse("competition:standings", args=[season.slug])
    # Before: C has SB ½ × IP(D) 1½ + ½ × IP(A) 1½ = 1½ (see tests/views/public_data.py).
    assert ">1,5<" in _row(client.get(url).content.decode(), people["C"].pk)
    with django_assert_num_queries(1):
        assert ">1,5<" in _row(client.get(url).content.decode(), people["C"].pk)

    # Correct round 2, A-C ½-½ to 1-0. Then IP A 2, C ½, D 1½ (C's other game: ½ with D);
    # C's SB = ½ × IP(D) 1½ + 0 × IP(A) 2 = ¾, shown 0,75.
    game = Game.objects.get(round__season=season, round__number=2, white=people["A"])
    result_record(
        game_id=game.pk,
        result="1-0",
        expected_version=game.version,
        user=td_user,
        reason="Wrongly recorded as a draw",
    )
    c_row = _row(client.get(url).content.decode(), people["C"].pk)
    assert ">0,75<" in c_row and ">1,5<" not in c_row
    with django_assert_num_queries(1):  # cached again, under the new version
        assert ">0,75<" in _row(client.get(url).content.decode(), people["C"].pk)


def test_logged_in_readers_get_their_own_frame(client, member_user) -> None:
    season, _people = small_season()
    cache.clear()
    url = reverse("competition:standings", args=[season.slug])
    anonymous = client.get(url).content.decode()
    assert "csrfmiddlewaretoken" not in anonymous and "Inloggen" in anonymous
    client.force_login(member_user)
    member = client.get(url).content.decode()
    assert "Uitloggen (member)" in member and "Inloggen" not in member


def test_query_keys_the_page_does_not_use_skip_the_whole_page_cache(client) -> None:
    season, _people = small_season()
    cache.clear()
    url = reverse("competition:standings", args=[season.slug]) + "?from=newsletter"
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    # The frame is rendered again around the cached body, so the season is read with its club
    # (selectors.season_get), not only its versions.
    assert any("competition_club" in q["sql"] for q in queries)


def test_a_missing_season_is_not_found(client) -> None:
    assert client.get(reverse("competition:standings", args=["no-such-season"])).status_code == 404
