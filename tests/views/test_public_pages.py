"""The public pages: status, key content and Dutch numbers on the small hand-worked season."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from competition.scoring.fingerprint import short_fingerprint
from competition.selectors.common import season_input
from tests.addresses import club_reverse
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def season_and_people():
    return small_season()


def _html(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_home_lists_the_season_with_its_leader(client, season_and_people) -> None:
    season, _people = season_and_people
    html = _html(client, club_reverse("competition:home"))
    assert season.name in html
    assert "Cor Cools" in html  # the leader, SB 1½
    assert ">1,5<" in html
    assert club_reverse("competition:round", args=[season.slug, 2]) in html


def test_standings_show_the_hand_worked_figures_in_dutch(client, season_and_people) -> None:
    season, people = season_and_people
    html = _html(client, club_reverse("competition:standings", args=[season.slug]))
    # C: SB 1½ (a value: shown 1,5), IP 1; A and D: SB ½ (0,5) and IP 1½ (points: shown with
    # ½, competition/presentation/numbers.py) share rank 2.
    c_row = html.split(f'data-participant="{people["C"].pk}"')[1].split("</tr>")[0]
    assert ">1,5<" in c_row
    a_row = html.split(f'data-participant="{people["A"].pk}"')[1].split("</tr>")[0]
    assert ">2<" in a_row and ">0,5<" in a_row and ">1½<" in a_row
    d_row = html.split(f'data-participant="{people["D"].pk}"')[1].split("</tr>")[0]
    assert ">2<" in d_row
    # movement since round 1: A up 1 (3 -> 2), D down 1 (1 -> 2)
    assert "▲1" in a_row and "▼1" in d_row
    assert html.index("Cor Cools") < html.index("Anna Aalders") < html.index("Dirk Dekker")
    assert html.index("Dirk Dekker") < html.index("Eva Egbers") < html.index("Bart Bos")


def test_standings_in_english_use_a_decimal_point(client, season_and_people) -> None:
    season, people = season_and_people
    client.cookies["django_language"] = "en"
    html = _html(client, club_reverse("competition:standings", args=[season.slug]))
    c_row = html.split(f'data-participant="{people["C"].pk}"')[1].split("</tr>")[0]
    assert ">1.5<" in c_row


def test_standings_after_an_earlier_round(client, season_and_people) -> None:
    season, people = season_and_people
    html = _html(client, club_reverse("competition:standings", args=[season.slug]) + "?round=1")
    # after round 1: C and D share rank 1 with SB ¼ (0,25)
    d_row = html.split(f'data-participant="{people["D"].pk}"')[1].split("</tr>")[0]
    assert ">1<" in d_row and ">0,25<" in d_row
    assert '<option value="1" selected>' in html


def test_standings_sort_by_name(client, season_and_people) -> None:
    season, _people = season_and_people
    html = _html(client, club_reverse("competition:standings", args=[season.slug]) + "?sort=name")
    positions = [html.index(name) for name in ("Anna Aalders", "Bart Bos", "Cor Cools")]
    assert positions == sorted(positions)


def test_minimum_games_marks_who_is_not_eligible(client) -> None:
    season, people = small_season(min_games=1)
    html = _html(client, club_reverse("competition:standings", args=[season.slug]))
    e_row = html.split(f'data-participant="{people["E"].pk}"')[1].split("</tr>")[0]
    assert "not-eligible" in html.split(f'data-participant="{people["E"].pk}"')[0][-80:]
    assert "*" in e_row
    c_row = html.split(f'data-participant="{people["C"].pk}"')[1].split("</tr>")[0]
    assert "✓" in c_row


@pytest.mark.parametrize("export_format", ["csv", "xlsx"])
def test_standings_export(client, season_and_people, export_format: str) -> None:
    season, _people = season_and_people
    url = club_reverse("competition:standings", args=[season.slug]) + f"?_export={export_format}"
    response = client.get(url)
    assert response.status_code == 200
    assert season.slug in response["Content-Disposition"]
    if export_format == "csv":
        # The documented columns (docs/commands.md), headed in the reader's language (Dutch),
        # as Dutch Excel reads them: a byte order mark, ";" and a decimal comma.
        assert response.content.startswith(b"\xef\xbb\xbf")
        lines = response.content.decode("utf-8-sig").splitlines()
        fingerprint = short_fingerprint(season_input(season=season))
        assert lines[0] == (
            "#;Startnummer;Naam;Pnt;Score;SB;IP;Partijen;Prijs;Vingerafdruk;Versie van de regels"
        )
        assert lines[1] == f"1;3;Cor Cools;1;1,5;1,5;1;2;ja;{fingerprint};1"
    else:
        assert response.content.startswith(b"PK")  # a zip container, as every XLSX file is


def test_standings_export_after_an_earlier_round(client, season_and_people) -> None:
    season, _people = season_and_people
    url = club_reverse("competition:standings", args=[season.slug]) + "?round=1&_export=csv"
    response = client.get(url)
    assert f"{season.slug}-ronde-1.csv" in response["Content-Disposition"]
    # After round 1: C and D share rank 1 with SB 0.25 (as on the page).
    # The fingerprint is the season's (its data and rules), whatever round is shown.
    fingerprint = short_fingerprint(season_input(season=season))
    assert response.content.decode("utf-8-sig").splitlines()[1] == (
        f"1;3;Cor Cools;0,5;0,25;0,25;0,5;1;ja;{fingerprint};1"
    )


def test_unknown_export_format_is_404(client, season_and_people) -> None:
    season, _people = season_and_people
    url = club_reverse("competition:standings", args=[season.slug]) + "?_export=pdf"
    assert client.get(url).status_code == 404


def test_round_page_shows_pairings_absences_and_a_correction(client, season_and_people) -> None:
    season, _people = season_and_people
    from competition.models import Game

    game = Game.objects.get(round__season=season, round__number=2, board=2)
    game.result = "1/2"
    game._change_reason = "Wrong result reported; both players confirmed a draw"
    game.save()
    html = _html(client, club_reverse("competition:round", args=[season.slug, 2]))
    assert "Bart Bos" in html and "Dirk Dekker" in html
    assert "Eva Egbers" in html  # absent with notice
    assert "Wrong result reported" in html
    assert "<del>0-1</del>" in html and "½-½" in html


def test_round_latest_redirects_to_the_last_round(client, season_and_people) -> None:
    season, _people = season_and_people
    response = client.get(club_reverse("competition:round_latest", args=[season.slug]))
    assert response.status_code == 302
    assert response["Location"] == club_reverse("competition:round", args=[season.slug, 2])


def test_unknown_round_and_season_are_404(client, season_and_people) -> None:
    season, _people = season_and_people
    assert client.get(club_reverse("competition:round", args=[season.slug, 9])).status_code == 404
    assert client.get(club_reverse("competition:standings", args=["nope"])).status_code == 404


def test_participant_page_shows_the_seed_000_table(client, season_and_people) -> None:
    season, people = season_and_people
    html = _html(
        client, club_reverse("competition:participant", args=[season.slug, people["C"].pk])
    )
    sb_table = html.split('class="table table-sm table-sticky-first align-middle seed-table"')[1]
    sb_table = sb_table.split("</table>")[0]
    # vs D (round 1): D has 1½ game points, 0 rounds without a game, IP 1½; C scored ½ → ¾.
    # Points with ½, the SB column (¾ and 1 × ¾) with two decimals
    # (competition/presentation/numbers.py).
    d_line = sb_table.split("Dirk Dekker")[1].split("</tr>")[0]
    cells = [cell.split("<")[0] for cell in d_line.split('<td class="num">')[1:]]
    assert cells == ["1", "1½", "0", "1½", "½", "0,75"]
    # the total SB, in the style of the SB column above it (two decimals)
    assert ">1,50</td></tr></tfoot>" in sb_table.replace("\n", "")
    assert "<svg" in html and 'role="img"' in html
    assert "Plaats en score per ronde" in html  # "Rank and score per round"


def test_participant_page_of_another_season_is_404(client, season_and_people) -> None:
    season, _people = season_and_people
    url = club_reverse("competition:participant", args=[season.slug, 999999])
    assert client.get(url).status_code == 404


def test_participant_page_shows_internal_points_per_round(client, season_and_people) -> None:
    season, people = season_and_people
    html = _html(
        client, club_reverse("competition:participant", args=[season.slug, people["E"].pk])
    )
    # E: two rounds absent with notice, each worth ½ internal point: IP = 1
    assert "afwezig met bericht" in html  # "absent with notice"
    assert "(IP = 1)" in html


def test_crosstable_shows_halves(client, season_and_people) -> None:
    season, _people = season_and_people
    html = _html(client, club_reverse("competition:crosstable", args=[season.slug]))
    # Standings order C, A, D, E, B numbers the rows 1-5. C drew with D (row 3) with white in
    # round 1 and with A (row 2) with black in round 2; total 1 game point. Dutch wallcharts
    # write black as "z" (zwart).
    c_row = html.split("Cor Cools")[1].split("</tr>")[0]
    assert ">3w½<" in c_row and ">2z½<" in c_row
    assert '<td class="num fw-semibold">1</td>' in c_row
    # A beat B (row 5) with white in round 1: "5w1"
    a_row = html.split("Anna Aalders")[1].split("</tr>")[0]
    assert ">5w1<" in a_row


def test_how_it_works_uses_the_seasons_own_data(client, season_and_people) -> None:
    season, _people = season_and_people
    html = _html(client, club_reverse("competition:how_it_works", args=[season.slug]))
    assert "Internal competition with SB score" in html or "Interne competitie met SB-score" in html
    assert "0,5" in html  # the unplayed value ½ as a parameter
    assert "Cor Cools" in html  # the worked example is the leader's
    assert "0,75" in html  # ½ × 1½ from his table


def test_systems_side_by_side(client, season_and_people) -> None:
    season, _people = season_and_people
    html = _html(client, club_reverse("competition:systems", args=[season.slug]))
    # Game points: A and D 1½ (tie-breaks decide), C 1: C is first in SB but not in points.
    c_row = html.split("Cor Cools")[1].split("</tr>")[0]
    assert "rank-differs" in c_row
    assert 'class="differs"' in html
