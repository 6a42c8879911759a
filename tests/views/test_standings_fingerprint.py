"""The standings fingerprint on the public standings page and in every standings export."""

from __future__ import annotations

import io
import json
from decimal import Decimal

import openpyxl
import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command

from competition.models import Game
from competition.scoring.fingerprint import short_fingerprint
from competition.selectors.common import season_input
from competition.services.rounds import result_record
from tests.addresses import club_reverse
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


def _line(html: str) -> str:
    return html.split('class="small text-body-secondary mt-2 mb-0 standings-fingerprint"')[1]


def test_the_page_shows_the_fingerprint_and_rules_version(client, td_user) -> None:
    season, people = small_season()
    cache.clear()
    url = club_reverse("competition:standings", args=[season.slug])
    before = short_fingerprint(season_input(season=season))
    assert len(before) == 14 and before.count("-") == 2
    html = client.get(url).content.decode()
    assert f"Vingerafdruk {before} · versie 1 van de regels</p>" in _line(html)
    # The same data under another round shown: the same fingerprint.
    assert f"Vingerafdruk {before} ·" in _line(client.get(url + "?round=1").content.decode())

    # One result corrected: another fingerprint, shown at once (the page is cached per version).
    game = Game.objects.get(round__season=season, round__number=2, white=people["A"])
    result_record(
        game_id=game.pk, result="1-0", expected_version=game.version, user=td_user, reason="typo"
    )
    after = short_fingerprint(season_input(season=season))
    assert after != before
    assert f"Vingerafdruk {after} ·" in _line(client.get(url).content.decode())


def test_the_english_page(client) -> None:
    season, _people = small_season()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(club_reverse("competition:standings", args=[season.slug])).content.decode()
    fingerprint = short_fingerprint(season_input(season=season))
    assert f"Fingerprint {fingerprint} · rules version 1</p>" in _line(html)


def test_the_exports_carry_it(client) -> None:
    season, _people = small_season()
    fingerprint = short_fingerprint(season_input(season=season))
    url = club_reverse("competition:standings", args=[season.slug])
    sheet = openpyxl.load_workbook(io.BytesIO(client.get(url + "?_export=xlsx").content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][-2:] == ("Vingerafdruk", "Versie van de regels")
    assert {row[-2:] for row in rows[1:]} == {(fingerprint, 1)}  # the version is a number

    out = io.StringIO()
    call_command("standings", season.slug, "--format", "json", stdout=out)
    document = json.loads(out.getvalue(), parse_float=Decimal)
    assert (document["fingerprint"], document["rules_version"]) == (fingerprint, 1)

    out = io.StringIO()
    call_command("standings", season.slug, "--format", "table", stdout=out)
    assert out.getvalue().splitlines()[0] == (
        f"interne-test · internal-sb · after round 2 · fingerprint {fingerprint} · rules version 1"
    )
