"""A Keizer season end to end on the demo club (issue 12): the participant page explains every
number, "how it works" and "systems side by side" use the season's own parameters, the
standings show score, value, games and movement, the rules preview, pairing by the Keizer
ranking, and a whole evening through the TD's pages."""

from __future__ import annotations

import io
import json
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import translation

from competition.models import Participant, Round, RoundEntry, Season, StandingsSnapshot
from competition.presentation.numbers import column_places
from competition.scoring import engine
from competition.scoring.exact import fraction_from_text
from competition.selectors.common import season_input
from competition.selectors.evening import pairing_request
from competition.selectors.participants import participant_detail
from competition.services.rules import rules_of_season, rules_save, rules_validate
from competition.templatetags.clubcomp import exact_number
from tests.addresses import club_reverse
from tests.views.test_staff_rules import _form

pytestmark = pytest.mark.django_db

SLUG = "keizer-2026-2027"
LAST = 15  # the demo's Keizer evenings


@pytest.fixture
def season(demo_club) -> Season:
    return Season.objects.get(slug=SLUG)


@pytest.fixture
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _rows(season: Season, after_round: int = LAST) -> list[dict]:
    return StandingsSnapshot.objects.get(season=season, round_number=after_round).rows


def _html(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _in_english(value: Fraction, places: int | None = None) -> str:
    with translation.override("en"):
        return exact_number(value, places)


def _score_places(season: Season) -> int:
    """The decimals of the score column: every score of a table has the same (issue 15)."""
    return column_places(fraction_from_text(row["score"]) for row in _rows(season))


# --- 1. the participant page --------------------------------------------------------------------


def test_every_participants_keizer_lines_add_up_to_his_standing(season) -> None:
    """Each one's KEIZER section (own value, one line per round) totals his standings score."""
    for row in _rows(season):
        page = participant_detail(season=season, participant_id=row["participant_id"])
        sections = {section.code: section for section in page.sections}
        keizer = sections["KEIZER"]
        assert keizer.total == fraction_from_text(row["score"])
        assert sum(line.amount for line in keizer.lines) == keizer.total
        assert [line.round_number for line in keizer.lines] == list(range(0, LAST + 1))
        for line in keizer.lines[1:]:
            if line.opponent_id is None:  # a round without a game: his own value
                assert set(line.parts) == {"own_value", "fraction"}
                assert line.amount == line.parts["fraction"] * line.parts["own_value"]
            else:
                assert set(line.parts) == {"opponent_value", "opponent_value_then", "fraction"}
                assert line.amount == line.parts["fraction"] * line.parts["opponent_value"]
        assert sections["VALUE"].total == fraction_from_text(row["values"]["VALUE"])


def test_participant_page_shows_the_keizer_table(english, season) -> None:
    # Someone with a round on club duty: his rounds without a game show kind and fraction.
    entry = RoundEntry.objects.filter(round__season=season, kind="club_duty").first()
    pid = entry.participant_id
    row = next(r for r in _rows(season) if r["participant_id"] == pid)
    html = _html(english, club_reverse("competition:participant", args=[SLUG, pid]))
    table = html.split('class="table table-sm table-sticky-first align-middle keizer-table"')[1]
    table = table.split("</table>")[0]
    for heading in (
        "Opponent's value now",
        "Value when played",
        "Your value",
        "Fraction",
        "Keizer points",
    ):
        assert heading in table
    assert "own value" in table and "club duty" in table
    assert ">2/3<" in table  # club duty's fraction, exactly
    total = table.split("Keizer score now")[1]
    assert f'<td class="num fw-bold">{_in_english(fraction_from_text(row["score"]))}</td>' in total
    assert "Keizer value" in html and "value of place" in html


def test_participant_page_in_dutch(client, season) -> None:
    pid = _rows(season)[0]["participant_id"]
    html = _html(client, club_reverse("competition:participant", args=[SLUG, pid]))
    assert "Waarde tegenstander nu" in html and "Keizerscore nu" in html
    assert "eigen waarde" in html


# --- 2. how it works and the systems side by side -----------------------------------------------


def test_how_it_works_says_the_seasons_own_numbers(english, season) -> None:
    html = _html(english, club_reverse("competition:how_it_works", args=[SLUG]))
    assert "Keizer system" in html
    assert "Place 1 is worth 36 (one and a half times the 24 participants, rounded)" in html
    assert "absent with notice 1/3" in html and "a bye 2/3" in html
    assert "until the standings no longer change" in html
    assert "In round " in html and "whose value is now" in html  # the worked sentence
    parameters = rules_of_season(season)
    changed = rules_validate(
        system="keizer",
        parameters={
            **parameters.parameters,
            "top_value": 50,
            "value_step": "3/2",
            "absent_with_notice": "2/5",
            "max_paid_absences": 3,
            "recalculation": "frozen",
        },
        tiebreaks=parameters.tiebreaks,
        unplayed_policy=parameters.unplayed_policy,
        min_games=parameters.min_games,
    )
    rules_save(season=season, rules=changed)
    html = _html(english, club_reverse("competition:how_it_works", args=[SLUG]))
    words = html.split('class="in-words"')[1].split("</ul>")[0]
    assert "Place 1 is worth 50. Every place below it is worth 1.5 less" in words
    assert "absent with notice 0.4" in words and "1/3" not in words  # 2/5 is a decimal
    assert "Only 3 absences with notice earn points" in words
    assert "The values of the start list count all season" in words
    assert ">0.4<" in html and ">2/3<" in html  # the parameter table: exact, 1/3 as a fraction


def test_how_it_works_in_dutch(client, season) -> None:
    html = _html(client, club_reverse("competition:how_it_works", args=[SLUG]))
    assert "Plaats 1 is 36 waard (anderhalf keer de 24 deelnemers, afgerond)" in html
    assert "afwezig met bericht 1/3" in html


def test_systems_side_by_side_include_keizer(english, season) -> None:
    html = _html(english, club_reverse("competition:systems", args=[SLUG]))
    headers = html.split("<thead>")[1].split("</thead>")[0]
    assert headers.index("Keizer system") < headers.index("Van den Brink")  # own system first
    # Keizer's column is the season's own standings.
    leader = _rows(season)[0]
    name = Participant.objects.get(pk=leader["participant_id"]).member.name
    first_row = html.split("<tbody>")[1].split("</tr>")[0]
    assert name in first_row
    score = _in_english(fraction_from_text(leader["score"]), _score_places(season))
    assert f'<td class="num">{score}</td>' in first_row
    # Another season compares with Keizer under its defaults.
    other = _html(english, club_reverse("competition:systems", args=["interne-2026-2027"]))
    assert "Keizer system" in other.split("</thead>")[0]


# --- 3. the standings ----------------------------------------------------------------------------


def test_standings_show_score_value_games_and_movement(english, season) -> None:
    html = _html(english, club_reverse("competition:standings", args=[SLUG]))
    head = html.split("<thead")[1].split("</thead>")[0]
    for heading in ("Keizer score", "Keizer value", "Games", "Move"):
        assert heading in head
    rows, before = _rows(season), {r["participant_id"]: r["rank"] for r in _rows(season, LAST - 1)}
    body = html.split("<tbody")[1]
    for row in rows[:3]:
        cells = body.split(f'data-participant="{row["participant_id"]}"')[1].split("</tr>")[0]
        score = _in_english(fraction_from_text(row["score"]), _score_places(season))
        assert f">{score}<" in cells
        assert f">{row['values']['VALUE']}<" in cells
        assert f'<td class="num" data-label="Games">{row["games"]}</td>' in cells
        moved = before[row["participant_id"]] - row["rank"]
        assert (f"▲{moved}" if moved > 0 else f"▼{-moved}" if moved < 0 else "no change") in cells


# --- 4. the rules preview ------------------------------------------------------------------------


def test_rules_preview_of_a_keizer_parameter_on_the_whole_season(client, season) -> None:
    client.force_login(User.objects.get(username="beheerder"))
    response = client.post(
        club_reverse("competition:season_rules", args=[SLUG]),
        _form(
            system="keizer",
            preview="1",
            unplayed_policy=season.unplayed_policy,
            min_games=str(season.min_games),
            **{"keizer__absent_with_notice": "2/5"},
        ),
    )
    assert response.status_code == 200
    preview = response.context["preview"]
    assert preview.after_round == LAST
    proposed = engine.standings_after(
        season_input(season=season, rules={"parameters": {"absent_with_notice": "2/5"}}), LAST
    )
    assert [(r.participant_id, r.new_rank, r.new_score) for r in preview.rows] == [
        (row.participant_id, row.rank, row.score) for row in proposed.rows
    ]
    current = {row["participant_id"]: fraction_from_text(row["score"]) for row in _rows(season)}
    assert [r.current_score for r in preview.rows] == [
        current[r.participant_id] for r in preview.rows
    ]
    # Everyone who sent notice gains (2/5 > 1/3 of his own value), at least before re-ranking.
    noticed = set(
        RoundEntry.objects.filter(round__season=season, kind="absent_notice").values_list(
            "participant_id", flat=True
        )
    )
    assert any(r.new_score != r.current_score for r in preview.rows if r.participant_id in noticed)
    season.refresh_from_db()
    assert season.parameters == {} and season.rules_version == 1  # nothing saved


# --- 6. pairing by the Keizer ranking ------------------------------------------------------------


def test_the_ladder_pairs_in_keizer_order_with_the_rematch_window(season) -> None:
    rnd = Round.objects.create(season=season, number=LAST + 1, date=season.start_date)
    request = pairing_request(round=rnd)
    keizer_order = [row["participant_id"] for row in _rows(season)]
    assert [player.player_id for player in request.players] == keizer_order
    assert [player.rank for player in request.players] == list(range(1, 25))
    assert request.rematch_window == season.rematch_window == 4


# --- 8. a whole Keizer evening through the TD's pages --------------------------------------------


def _td_url(name: str, number: int, **extra: object) -> str:
    return club_reverse(
        f"competition:{name}", kwargs={"season_slug": SLUG, "round_number": number, **extra}
    )


def test_a_whole_keizer_evening_through_the_pages(english, season) -> None:
    td = english
    td.force_login(User.objects.get(username="wedstrijdleider"))
    number = LAST + 1
    response = td.post(
        club_reverse("competition:td_round_new", args=[SLUG]), {"date": "2026-12-15"}
    )
    assert response.status_code == 302
    rnd = Round.objects.get(season=season, number=number)
    players = list(Participant.objects.filter(season=season).order_by("start_rank"))
    marks = {f"p{p.id}": "present" for p in players}
    marks[f"p{players[0].id}"] = "absent_notice"
    marks[f"p{players[1].id}"] = "club_duty"
    marks[f"p{players[2].id}"] = "absent_no_notice"  # 21 present: one bye
    response = td.post(_td_url("td_attendance", number), {**marks, "then": "pair"})
    assert response["Location"] == _td_url("td_pairing", number)
    page = td.get(_td_url("td_pairing", number)).content.decode()
    assert page.count('id="board-') == 10
    assert td.post(_td_url("td_round_publish", number)).status_code == 302
    games = list(rnd.games.order_by("board"))
    results = ["1-0", "1/2", "0-1"]
    for index, game in enumerate(games):
        response = td.post(
            _td_url("td_result_save", number, game_id=game.id),
            {"result": results[index % 3], "version": game.version},
            HTTP_X_REQUESTED_WITH="fetch",
        )
        assert response.status_code == 200
    response = td.post(_td_url("td_round_close", number))
    assert response["Location"] == _td_url("td_round_summary", number)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    assert RoundEntry.objects.filter(round=rnd, kind="bye").count() == 1

    rows = _rows(season, number)
    assert [row["rank"] for row in rows] == list(range(1, 25))
    for row in (rows[0], rows[-1]):
        html = _html(
            td, club_reverse("competition:participant", args=[SLUG, row["participant_id"]])
        )
        total = html.split("Keizer score now")[1].split("</tr>")[0]
        # his total in the Keizer figure's style on the page (the decimals of its amounts)
        written = total.split('<td class="num fw-bold">')[1].split("<")[0]
        places = len(written.partition(".")[2])
        assert written == _in_english(fraction_from_text(row["score"]), places)
        detail = participant_detail(season=season, participant_id=row["participant_id"])
        keizer = next(section for section in detail.sections if section.code == "KEIZER")
        assert keizer.total == fraction_from_text(row["score"])
        assert [line.round_number for line in keizer.lines][-1] == number

    out = io.StringIO()
    call_command("standings", SLUG, "--format", "json", stdout=out)
    document = json.loads(out.getvalue(), parse_float=Decimal)
    assert (document["system"], document["after_round"]) == ("keizer", number)
    for row, stored in zip(document["standings"], rows, strict=True):
        assert set(row["values"]) == {"KEIZER", "VALUE"}
        # JSON numbers: exact, or to 10 decimals where no decimal is (991/3)
        exact = fraction_from_text(stored["score"])
        assert abs(fraction_from_text(str(row["score"])) - exact) < Fraction(1, 10**10)
        assert row["values"]["KEIZER"] == row["score"]
    assert [int(row["values"]["VALUE"]) for row in document["standings"]] == list(range(36, 12, -1))


def test_the_games_table_is_headed_by_the_figures_names_not_their_codes(client, season) -> None:
    """The participant page's games table names the system's figures (Keizerscore,
    Keizerwaarde) in the reader's language; the codes KEIZER and VALUE are no headers."""
    leader = Participant.objects.get(pk=_rows(season)[0]["participant_id"])
    html = _html(client, club_reverse("competition:participant", args=[SLUG, leader.pk]))
    head = html.split('class="table table-sm table-sticky-first games')[1].split("</thead>")[0]
    headers = re.findall(r"<th [^>]*>([^<]*)</th>", head)
    assert headers[-2:] == ["Keizerscore", "Keizerwaarde"], headers
    assert not {"KEIZER", "VALUE", "PTS"} & set(headers)
