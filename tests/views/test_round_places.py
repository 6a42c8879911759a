"""The pairing list shows each player's place in the standings before the round (issue 14).

The small season (tests.views.public_data, internal SB, ½ per round without a game): round 1
A beat B, C drew D, E absent with notice. Internal points after round 1: A 1, B 0, C ½, D ½,
E ½; SB: A 1 × B's 0 = 0, C and D ½ × ½ = ¼ each, B and E 0. So C and D share place 1 (SB ¼,
IP ½), then A (SB 0, IP 1) 3rd, E (IP ½) 4th, B (IP 0) 5th. Round 2 pairs A–C and B–D.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from tests.addresses import club_reverse
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


def test_round_two_shows_the_places_after_round_one(client) -> None:
    cache.clear()
    season, people = small_season()
    after_one = {"A": 3, "B": 5, "C": 1, "D": 1}  # worked out in the module docstring
    client.cookies["django_language"] = "en"
    html = client.get(club_reverse("competition:round", args=[season.slug, 2])).content.decode()
    for key in "ABCD":
        participant = people[key]
        link = club_reverse("competition:participant", args=[season.slug, participant.pk])
        place = r'<small class="text-body-secondary place">\((\d+)\)'
        shown = re.search(rf'href="{re.escape(link)}">[^<]+</a> {place}', html)
        assert shown is not None, key
        assert int(shown.group(1)) == after_one[key]
    assert "Between brackets: the place in the standings before this round." in html
    # round 1 has no standings before it
    first = client.get(club_reverse("competition:round", args=[season.slug, 1])).content.decode()
    assert 'class="text-body-secondary place"' not in first
