"""Issue 15, "every number on the page explained" and "rule versions that keep their promise":
how it works follows the season's parameters, the rules page's buttons and history, the
standings' legend and tie-break marks, and the systems comparison's marks.

The small season (``tests.views.public_data``): after round 2, internal SB ranks C 1½; A and D
½ with IP 1½ each (shared 2nd); E 0 with IP 1 (4th); B 0 with IP 0 (5th).
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import translation

from competition.selectors import standings as standings_selectors
from competition.selectors.rules import rule_history
from competition.selectors.systems import systems_compared
from competition.services.rules import rules_save, rules_validate
from tests.addresses import club_reverse
from tests.factories import club_admin_user
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season_and_people():
    cache.clear()
    return small_season()


@pytest.fixture
def staff_user(db) -> User:
    return club_admin_user()


def _get(client, url: str, language: str = "nl") -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _van_den_brink(season, user=None, **parameters: object) -> None:
    rules = rules_validate(
        system="van-den-brink",
        parameters=parameters,
        tiebreaks=[],
        unplayed_policy=season.unplayed_policy,
        min_games=season.min_games,
    )
    rules_save(season=season, rules=rules, user=user)
    season.refresh_from_db()


# --- how it works -----------------------------------------------------------------------------


def test_how_it_works_follows_a_change_of_parameters(client, season_and_people) -> None:
    """Van den Brink with the defaults (3, 0,07, 200), then 4, 0,05 and 150: the page shows the
    new figures and never the old ones, in Dutch and in English (cached pages included)."""
    season, _people = season_and_people
    url = club_reverse("competition:how_it_works", args=[season.slug])
    _van_den_brink(season)
    before = _get(client, url, "nl")
    assert "Resultaatdeel: +3 voor winst, 0 voor remise, −3 voor verlies." in before
    assert "0,07 × 10 = 0,7." in before and "(200, 199, 198, ...)" in before

    _van_den_brink(
        season,
        win_part="4",
        loss_part="-4",
        factor="5/100",
        start_points_top="150",
        games_per_update=10,
    )
    dutch = _get(client, url, "nl")
    assert "Resultaatdeel: +4 voor winst, 0 voor remise, −4 voor verlies." in dutch
    assert "0,05 × 10 = 0,5." in dutch
    assert "(150, 149, 148, ...)" in dutch
    assert "Na elke 10 partijen wordt je rangwaarde gelijk aan je puntental." in dutch
    for old in ("0,07", "+3 voor winst", "−3 voor verlies", "200, 199", "14 partijen"):
        assert old not in dutch, old
    english = _get(client, url, "en")
    assert "Result part: +4 for a win, 0 for a draw, −4 for a loss." in english
    assert "0.05 × 10 = 0.5." in english
    for old in ("0.07", "+3 for a win", "−3 for a loss", "200, 199", "14 games"):
        assert old not in english, old


def test_how_it_works_of_the_internal_sb_competition_says_its_value(
    client, season_and_people
) -> None:
    season, _people = season_and_people
    html = _get(client, club_reverse("competition:how_it_works", args=[season.slug]), "en")
    assert "your game points plus 0.5 for every round without a game over the board" in html
    assert "half a point" not in html  # the old fixed text


# --- the rules page ---------------------------------------------------------------------------


def test_the_preview_button_has_one_button_style(client, season_and_people, staff_user) -> None:
    season, _people = season_and_people
    client.force_login(staff_user)
    html = _get(client, club_reverse("competition:season_rules", args=[season.slug]))
    inputs = re.findall(r'<input type="submit"[^>]*>', html, flags=re.S)
    classes = {
        re.search(r'name="(\w+)"', tag).group(1): re.search(r'class="([^"]*)"', tag)
        for tag in inputs
    }
    assert classes["preview"] and classes["save"]
    preview = classes["preview"].group(1).split()
    save = classes["save"].group(1).split()
    assert [c for c in preview if c.startswith("btn-") and c != "btn-sm"] == ["btn-outline-primary"]
    assert [c for c in save if c.startswith("btn-")] == ["btn-primary"]
    assert preview.count("btn") == save.count("btn") == 1


def test_rules_history_shows_parameters_changes_and_the_current_version(
    client, season_and_people, staff_user
) -> None:
    """Version 1 internal SB (the season's start), version 2 Van den Brink with its defaults,
    version 3 with a win part of 4 and a factor of 0,05: version 3 is current and lists
    exactly those two changes; version 2 lists the change of system."""
    season, _people = season_and_people
    _van_den_brink(season, user=staff_user)
    _van_den_brink(season, user=staff_user, win_part="4", factor="0.05")
    with translation.override("en"):
        history = rule_history(season=season)
    assert [(v.version, v.current) for v in history] == [(3, True), (2, False), (1, False)]
    assert history[0].changes == [
        ("Result part for a win", "3", "4"),
        ("Factor for the rank value difference", "0.07", "0.05"),
    ]
    assert history[1].changes == [
        ("System", "Internal competition with SB score", "Van den Brink system")
    ]
    assert history[2].changes == []
    assert ("Factor for the rank value difference", "0.05") in history[0].parameters
    assert ("Internal points per round without a game over the board", "0.5") in history[
        2
    ].parameters

    client.force_login(staff_user)
    html = _get(client, club_reverse("competition:season_rules", args=[season.slug]))
    assert html.count("huidig</span>") == 1  # "current", once
    assert re.search(r'id="rules-v3">Versie 3 <span class="badge[^"]*">huidig</span>', html)
    assert "Gewijzigd ten opzichte van versie 2:" in html
    assert "Resultaatdeel voor winst: 3 → 4" in html
    assert "Factor voor het verschil in rangwaarde: 0,07 → 0,05" in html
    assert "Eerdere regelsets</h3>" not in html  # no "earlier rule sets" over the current one
    assert "Reglementsversies van dit seizoen" in html


def test_a_season_whose_rules_never_changed_has_no_history(season_and_people) -> None:
    season, _people = season_and_people
    assert rule_history(season=season) == []


# --- the standings' legend and tie-break marks --------------------------------------------------


def _row(html: str, participant_pk: int) -> str:
    return html.split(f'data-participant="{participant_pk}"')[1].split("</tr>")[0]


def test_standings_mark_which_figure_separated_equal_scores(client, season_and_people) -> None:
    """E and B both have SB 0; E is 4th on IP 1 against B's 0: B's row says IP decided. A and D
    share 2nd (equal SB and IP): no mark; C (1½) and E (0 after A/D's ½) have none either."""
    season, people = season_and_people
    html = _get(client, club_reverse("competition:standings", args=[season.slug]))
    assert "Beslist door" in html  # the column
    b_row = _row(html, people["B"].pk)
    assert (
        '<abbr class="tb-reason" title="Dezelfde score als de deelnemer erboven; '
        'Interne punten gaf de doorslag.">IP</abbr>' in b_row
    )
    for key in "ACDE":
        assert "tb-reason" not in _row(html, people[key].pk), key
    data = standings_selectors.standings_for_season(season=season)
    assert [(row["name"][0], row["separated_by"]) for row in data.rows] == [
        ("C", None),
        ("A", None),
        ("D", None),
        ("E", None),
        ("B", "IP"),
    ]


def test_the_legend_explains_every_column_shown(client, season_and_people) -> None:
    season, _people = season_and_people
    html = _get(client, club_reverse("competition:standings", args=[season.slug]), "en")
    legend = html.split('class="small text-body-secondary legend"')[1].split("</div>")[0]
    headings = re.findall(r'<th [^>]*scope="col"[^>]*>\s*(?:<a [^>]*>)?([^<]+)', html)
    headings = [h.strip() for h in headings if h.strip() != "Name"]
    assert headings  # #, SB score, Internal points, Pts, Decided by, Games, Move
    assert [h for h in headings if f"<strong>{h}</strong> =" not in legend] == []
    assert "<strong>#</strong> = place in the standings" in legend
    assert (
        "Equal scores are ordered by Internal points (IP); participants equal on all of them share "
        "their place." in legend
    )


def test_the_legend_explains_the_rank_value(client, season_and_people) -> None:
    season, _people = season_and_people
    _van_den_brink(season)
    html = _get(client, club_reverse("competition:standings", args=[season.slug]))
    legend = html.split('class="small text-body-secondary legend"')[1].split("</div>")[0]
    assert "<strong>Rangwaarde</strong> = de rangwaarde waarmee de compensatie" in legend


# --- systems compared ---------------------------------------------------------------------------


def test_systems_compared_marks_only_real_disagreements(client, season_and_people) -> None:
    """Places per system (internal SB; Van den Brink; Keizer; points with BH/C1, BH, SB):

    C 1; 3; 3; 3   A 2=; 1; 1; 1=   D 2=; 2; 2; 1=   E 4=; 4; 4; 5   B 4=; 5; 5; 4

    (= shares the score of another: A and D ½ SB, 1½ points; E and B 0 SB and 0 points). D
    holds places 2-3 in SB, 2 and 2 in the other two and 1-2 in points: place 2 is in all, so
    D agrees; E and B hold 4-5 in SB and in points, 4 resp. 5 elsewhere: they agree. Only C and
    A differ (before, every row was marked since the shared ranks were compared as numbers).
    """
    season, _people = season_and_people
    data = systems_compared(season=season)
    by_name = {row["name"][0]: row for row in data.rows}
    assert by_name["D"]["ranks"] == {"internal-sb": 2, "van-den-brink": 2, "keizer": 2, "points": 1}
    assert {key: row["differs"] for key, row in by_name.items()} == {
        "C": True,
        "A": True,
        "D": False,
        "E": False,
        "B": False,
    }
    # A: places 2-3 in SB; 1 in Van den Brink and Keizer; 1-2 in points (overlaps 2-3)
    assert by_name["A"]["differs_from_first"] == {
        "internal-sb": False,
        "van-den-brink": True,
        "keizer": True,
        "points": False,
    }
    html = _get(client, club_reverse("competition:systems", args=[season.slug]))
    assert html.count('<tr class="differs">') == 2
    assert "rank-differs" not in _systems_row(html, "Dirk Dekker")
    assert _systems_row(html, "Anna Aalders").count("rank-differs") == 2


def _systems_row(html: str, name: str) -> str:
    return html.split(name)[1].split("</tr>")[0]
