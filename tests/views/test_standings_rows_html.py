"""The standings rows built in Python (``tables.table_rows_html``) are the rows django-tables2
renders through ``_table.html``: same cells, attributes and order, for every sort order."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from competition.models import Season
from competition.selectors import rounds as rounds_selectors
from competition.selectors import standings as standings_selectors
from competition.views.standings import _standings_table

pytestmark = pytest.mark.django_db


def _tables_html(season: Season, query: str) -> tuple[str, str]:
    request = RequestFactory().get(f"/season/{season.slug}/{query}")
    data = standings_selectors.standings_for_season(season=season)
    fast = _standings_table(request, season, data)
    slow = _standings_table(request, season, data)
    slow.rows_html = ""  # the template's own loop
    return tuple(  # type: ignore[return-value]
        re.sub(r">\s+<", "><", render_to_string("competition/_table.html", {"table": t}, request))
        for t in (fast, slow)
    )


@pytest.mark.parametrize("language", ["nl", "en"])
@pytest.mark.parametrize(
    "query", ["", "?sort=name", "?sort=-score", "?sort=movement", "?sort=games"]
)
def test_python_rows_equal_the_template_rows(demo_club, language: str, query: str) -> None:
    seasons = list(Season.objects.filter(snapshots__isnull=False).distinct())
    assert seasons
    with translation.override(language):
        for season in seasons:
            fast, slow = _tables_html(season, query)
            assert fast.count("<tr") > 3
            assert fast == slow, season.slug


@pytest.mark.parametrize("language", ["nl", "en"])
def test_python_pairing_rows_equal_the_template_rows(demo_club, language: str) -> None:
    """The round page's pairings (links to both players, "not yet played" for an open board)
    built in Python equal django-tables2's rows, for every round of every demo season."""
    from competition.models import Game, Round
    from competition.views.rounds import _pairings_table
    from competition.views.tables import table_rows_html

    request = RequestFactory().get("/")
    rounds = list(Round.objects.select_related("season").order_by("season", "number"))
    checked = 0
    with translation.override(language):
        for round in rounds:
            data = rounds_selectors.round_detail(season=round.season, number=round.number)
            if not data.games:
                continue
            if round.number == 1:  # an open board too: "not yet played"
                data.games[0].result = Game.Result.NOT_PLAYED
            fast = _pairings_table(round.season, data)
            fast.rows_html = table_rows_html(fast)
            slow = _pairings_table(round.season, data)
            html = [
                re.sub(
                    r">\s+<",
                    "><",
                    render_to_string("competition/_table.html", {"table": t}, request),
                )
                for t in (fast, slow)
            ]
            assert html[0].count('<a href="/season/') == 2 * len(data.games)
            assert html[0] == html[1], (round.season.slug, round.number)
            checked += round.number == 1 and "<span" in html[0]
    assert checked >= 3  # every demo season's round 1 had an open board
