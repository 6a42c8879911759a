"""The TD's pages on the demo data: the desk, a whole evening through the forms, fetch saves."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.templatetags.static import static

from competition.models import Game, Participant, Round, Season
from tests.addresses import club_reverse
from tests.views.td_evening import SLUG, url

pytestmark = pytest.mark.django_db


def test_desk_lists_every_running_season(td) -> None:
    page = td.get(club_reverse("competition:td_home")).content.decode()
    for season in Season.objects.filter(status="running", club__slug="sc-de-toren"):
        assert season.name in page
    assert "Clubavond 2026-2027" not in page  # the other club's season is not his
    assert "Start tonight" in page or "Start rounds" in page


def test_anonymous_is_sent_to_login_and_member_forbidden(client, demo_club, member_user) -> None:
    response = client.get(club_reverse("competition:td_home"))
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    client.force_login(member_user)
    assert client.get(club_reverse("competition:td_home")).status_code == 403


def test_whole_evening_through_the_pages(td) -> None:
    season = Season.objects.get(slug=SLUG)
    response = td.post(
        club_reverse("competition:td_round_new", args=[SLUG]), {"date": "2026-11-19"}
    )
    assert response.status_code == 302
    rnd = Round.objects.get(season=season, number=11)
    # 17 enrolled; the demo's last one withdrew from round 11 on (he moved away)
    players = list(Participant.objects.filter(season=season, withdrawn_from_round__isnull=True))
    assert len(players) == 16
    marks = {f"p{p.id}": "present" for p in players}
    marks[f"p{players[0].id}"] = "absent_notice"  # 15 present of 16: a bye and 7 boards
    response = td.post(url("td_attendance"), {**marks, "then": "pair"})
    assert response["Location"] == url("td_pairing")
    page = td.get(url("td_pairing")).content.decode()
    assert page.count('id="board-') == 7
    assert td.post(url("td_round_publish")).status_code == 302
    games = list(Game.objects.filter(round=rnd).order_by("board"))
    for game in games[:-1]:
        response = td.post(
            url("td_result_save", game_id=game.id),
            {"result": "1/2", "version": game.version},
            HTTP_X_REQUESTED_WITH="fetch",
        )
        assert response.status_code == 200
        assert response.json()["board"]["saved"].startswith("saved by Wim")
    # Without JavaScript: a plain post, redirected back to the board.
    response = td.post(url("td_result_save", game_id=games[-1].id), {"result": "-+", "version": 1})
    assert response["Location"].endswith(f"#board-{games[-1].board}")
    response = td.post(url("td_round_close"))
    assert response["Location"] == url("td_round_summary")
    page = td.get(url("td_round_summary")).content.decode()
    assert "Standings after round 11" in page
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED


def test_second_save_of_a_board_reports_the_first(td) -> None:
    rnd = Round.objects.get(season__slug=SLUG, number=10)
    rnd.status = Round.Status.PAIRED
    rnd.save()
    game = Game.objects.filter(round=rnd).order_by("board").first()
    first = td.post(
        url("td_result_save", 10, game_id=game.id),
        {"result": "--", "version": game.version},
        HTTP_X_REQUESTED_WITH="fetch",
    )
    assert first.status_code == 200
    second = td.post(
        url("td_result_save", 10, game_id=game.id),
        {"result": "1-0", "version": game.version},
        HTTP_X_REQUESTED_WITH="fetch",
    )
    assert second.status_code == 409
    body = second.json()
    # Wim's own first save (from another tab, or a page Back brought up again): he is told
    # so, not that Wim changed it meanwhile.
    assert "you saved" in body["message"] and "already" in body["message"], body
    assert "changed by" not in body["message"]
    assert body["board"]["result"] == "--"
    game.refresh_from_db()
    assert game.result == "--"


def test_a_board_another_td_saved_meanwhile_names_him(td) -> None:
    from competition.permissions import td_group
    from competition.services.rounds import result_record

    rnd = Round.objects.get(season__slug=SLUG, number=10)
    rnd.status = Round.Status.PAIRED
    rnd.save()
    game = Game.objects.filter(round=rnd).order_by("board").first()
    anna = User.objects.create_user("anna-td", first_name="Anna")
    anna.groups.add(td_group())
    result_record(game_id=game.id, result="0-1", expected_version=game.version, user=anna)
    answer = td.post(
        url("td_result_save", 10, game_id=game.id),
        {"result": "1-0", "version": game.version},
        HTTP_X_REQUESTED_WITH="fetch",
    )
    assert answer.status_code == 409
    body = answer.json()
    assert "changed by Anna" in body["message"] and "meanwhile" in body["message"], body
    assert body["board"]["result"] == "0-1"


def test_correction_page_needs_a_reason(td) -> None:
    game = Game.objects.filter(round__season__slug=SLUG, round__number=10).first()
    response = td.post(
        url("td_result_correct", 10, game_id=game.id),
        {"result": "--", "version": game.version, "reason": ""},
    )
    assert response.status_code == 200  # the form again, with the error
    version = game.version
    game.refresh_from_db()
    assert game.version == version  # nothing saved without a reason
    response = td.post(
        url("td_result_correct", 10, game_id=game.id),
        {"result": "--", "version": game.version, "reason": "Nobody played"},
    )
    assert response.status_code == 302
    page = td.get(url("td_round_summary", 10)).content.decode()
    assert "Nobody played" in page


def test_print_view_is_a_plain_a4_page(td) -> None:
    page = td.get(url("td_round_print", 10)).content.decode()
    assert static("css/print-wall.css") in page
    assert "size: A4" in (settings.BASE_DIR / "static" / "css" / "print-wall.css").read_text()
    assert (
        page.count("<tr>")
        == 1 + Game.objects.filter(round__season__slug=SLUG, round__number=10).count()
    )


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_round_robin_round_opens_at_the_pairing(td) -> None:
    # Rapidgroep A has played 6 rounds; the new round 7 has no attendance step.
    rapid = "rapidgroep-a-2026"
    response = td.post(
        club_reverse("competition:td_round_new", args=[rapid]), {"date": "2026-11-19"}
    )
    pairing = club_reverse(
        "competition:td_pairing", kwargs={"season_slug": rapid, "round_number": 7}
    )
    assert response["Location"] == club_reverse(
        "competition:td_round", kwargs={"season_slug": rapid, "round_number": 7}
    )
    assert td.get(response["Location"])["Location"] == pairing


def test_ladder_round_opens_at_the_attendance(td) -> None:
    td.post(club_reverse("competition:td_round_new", args=[SLUG]), {"date": "2026-11-19"})
    assert td.get(url("td_round"))["Location"] == url("td_attendance")


def test_new_round_page_names_the_next_number(td) -> None:
    # The demo season has played rounds 1..10: the next is 10 + 1 = 11.
    page = td.get(club_reverse("competition:td_round_new", args=[SLUG])).content.decode()
    assert "New round 11" in page


@pytest.fixture
def draft(td):
    """Round 11 of the demo season, everyone present, with a draft pairing."""
    season = Season.objects.get(slug=SLUG)
    td.post(club_reverse("competition:td_round_new", args=[SLUG]), {"date": "2026-11-19"})
    marks = {f"p{p.id}": "present" for p in Participant.objects.filter(season=season)}
    td.post(url("td_attendance"), {**marks, "then": "pair"})
    return Round.objects.get(season=season, number=11)


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        (
            "td_pairing_swap",
            {},
            ["Choose the player to swap.", "Choose the player to swap with."],
        ),
        (
            "td_pairing_swap",
            {"first": "first-player", "second": "999999"},
            [
                "The player to swap is not in this round; reload the page.",
                "The player to swap with is not in this round; reload the page.",
            ],
        ),
        (
            "td_pairing_fix",
            {"black": "999999"},
            [
                "Choose who plays white.",
                "The player for black is not in this round; reload the page.",
            ],
        ),
        ("td_pairing_bye", {}, ["Choose who gets the bye."]),
        (
            "td_pairing_bye",
            {"player": "999999"},
            ["The player for the bye is not in this round; reload the page."],
        ),
    ],
)
def test_pairing_form_errors_say_what_is_wrong(td, draft, name, data, expected) -> None:
    before = list(Game.objects.filter(round=draft).values_list("white_id", "black_id"))
    response = td.post(url(name), data)
    assert response["Location"] == url("td_pairing")
    assert messages_of(response) == expected
    after = list(Game.objects.filter(round=draft).values_list("white_id", "black_id"))
    assert after == before  # nothing changed


@pytest.fixture
def board(td):
    rnd = Round.objects.get(season__slug=SLUG, number=10)
    rnd.status = Round.Status.PAIRED
    rnd.save()
    return Game.objects.filter(round=rnd).order_by("board").first()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"result": "1-0"}, "This page is out of date; reload it."),
        ({"result": "1-0", "version": ""}, "This page is out of date; reload it."),
        ({"result": "1-0", "version": "old"}, "This page is out of date; reload it."),
        ({"result": "1-0", "version": "0"}, "This page is out of date; reload it."),
        ({"result": "2-0", "version": "1"}, "Unknown result “2-0”; reload the page."),
        (
            {"result": "2-0"},
            "Unknown result “2-0”; reload the page. This page is out of date; reload it.",
        ),
    ],
)
def test_result_save_says_what_is_wrong(td, board, data, expected) -> None:
    result, version = board.result, board.version
    response = td.post(
        url("td_result_save", 10, game_id=board.id), data, HTTP_X_REQUESTED_WITH="fetch"
    )
    assert response.status_code == 409
    assert response.json()["message"] == expected
    # Without JavaScript the same message comes as a page message.
    response = td.post(url("td_result_save", 10, game_id=board.id), data)
    assert messages_of(response) == [expected]
    board.refresh_from_db()
    assert (board.result, board.version) == (result, version)


def test_result_save_message_is_translated(td, board) -> None:
    td.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    response = td.post(
        url("td_result_save", 10, game_id=board.id),
        {"result": "1-0"},
        HTTP_X_REQUESTED_WITH="fetch",
    )
    assert response.json()["message"] == "Deze pagina is verouderd; laad haar opnieuw."
