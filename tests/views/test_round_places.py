"""The pairing list shows each player's place in the standings before the round (issue 14).

The small season (tests.views.public_data): round 1 A beat B, C drew D, E absent with notice;
round 2 pairs A–C and B–D, each shown with his place in the stored standings after round 1.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from competition.models import StandingsSnapshot
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


def test_round_two_shows_the_places_after_round_one(client) -> None:
    cache.clear()
    season, people = small_season()
    after_one = {
        row["participant_id"]: row["rank"]
        for row in StandingsSnapshot.objects.get(season=season, round_number=1).rows
    }
    client.cookies["django_language"] = "en"
    html = client.get(reverse("competition:round", args=[season.slug, 2])).content.decode()
    for key in "ABCD":
        participant = people[key]
        link = reverse("competition:participant", args=[season.slug, participant.pk])
        place = r'<small class="text-body-secondary place">\((\d+)\)'
        shown = re.search(rf'href="{re.escape(link)}">[^<]+</a> {place}', html)
        assert shown is not None, key
        assert int(shown.group(1)) == after_one[participant.pk]
    assert "Between brackets: the place in the standings before this round." in html
    # round 1 has no standings before it
    first = client.get(reverse("competition:round", args=[season.slug, 1])).content.decode()
    assert 'class="text-body-secondary place"' not in first
