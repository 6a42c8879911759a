"""How it works states the season's pairing rules with its own values (issue 14)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from competition.models import Season
from tests.addresses import club_reverse

pytestmark = pytest.mark.django_db


def test_the_demo_internal_competition_states_its_pairing_rules(client, demo_club) -> None:
    """The demo's internal competition: rematch window 3, requested byes allowed, one forbidden
    pair (two brothers who drive together); no meeting limit, colours not reversed."""
    cache.clear()
    client.cookies["django_language"] = "en"
    html = client.get(club_reverse("competition:how_it_works", args=["interne-2026-2027"])).content
    page = html.decode()
    section = page[page.index('class="mb-4 how-pairing"') :]
    section = section[: section.index("</section>")]
    assert "two players do not meet again within 3 rounds." in section
    assert "Members may ask for a bye in advance." in section
    assert "1 pair of players is never paired against each other (family, carpool)." in section
    assert "meet at most" not in section and "other colour" not in section
    Season.objects.filter(slug="interne-2026-2027").update(
        max_meetings=2, rematch_colours_reversed=True, one_pairing_bye=True, data_version=999
    )
    cache.clear()
    client.cookies["django_language"] = "nl"
    dutch = client.get(club_reverse("competition:how_it_works", args=["interne-2026-2027"])).content
    text = dutch.decode()
    assert "Twee spelers treffen elkaar dit seizoen hoogstens 2 keer." in text
    assert "waar mogelijk de andere kleur" in text
    assert "Niemand krijgt twee keer een vrije ronde van de indeling" in text


def test_a_round_robin_says_berger(client, demo_club) -> None:
    cache.clear()
    client.cookies["django_language"] = "en"
    page = client.get(club_reverse("competition:how_it_works", args=["rapidgroep-a-2026"])).content
    assert b"Everyone plays everyone, in the order of the Berger tables." in page
