"""Every public page costs the same number of queries for a small and a large season."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from competition.models import Participant
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


def test_a_cached_page_needs_only_the_season(client, django_assert_num_queries) -> None:
    season, _people = small_season()
    url = reverse("competition:standings", args=[season.slug])
    cache.clear()
    client.get(url)
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200
