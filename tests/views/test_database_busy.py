"""A write that cannot get the database ("database is locked", SQLite under two writers) is
answered with "try again", never with a server error; other database errors are not hidden."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.db import OperationalError
from django.test import Client, RequestFactory
from django.utils import translation

from competition.middleware import DatabaseBusyMiddleware
from competition.models import Round
from competition.permissions import td_group
from competition.views import rounds as rounds_views
from tests.addresses import club_reverse
from tests.factories import GameFactory, RoundFactory

pytestmark = pytest.mark.django_db

BUSY = "The database was busy; please try again."


def _locked(**kwargs: object) -> None:
    raise OperationalError("database is locked")


@pytest.fixture
def round_paired() -> Round:
    return RoundFactory(number=1, status=Round.Status.PAIRED)


@pytest.fixture
def td(client: Client, round_paired: Round) -> Client:
    user = User.objects.create_user("td-busy")
    user.groups.add(td_group(round_paired.season.club))
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_a_busy_database_sends_a_form_back_to_its_page_with_try_again(
    td: Client, round_paired: Round, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rounds_views, "round_complete", _locked)
    page = club_reverse("competition:td_results", args=[round_paired.season.slug, 1])
    response = td.post(
        club_reverse("competition:td_round_close", args=[round_paired.season.slug, 1]),
        HTTP_REFERER=f"http://testserver{page}",
    )
    assert (response.status_code, response["Location"]) == (302, f"http://testserver{page}")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [BUSY]


def test_a_busy_database_answers_a_fetch_save_with_503_and_the_message(
    td: Client, round_paired: Round, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = GameFactory(round=round_paired, board=1)
    monkeypatch.setattr(rounds_views, "result_record", _locked)
    response = td.post(
        club_reverse("competition:td_result_save", args=[round_paired.season.slug, 1, game.pk]),
        {"result": "1-0", "version": game.version},
        HTTP_X_REQUESTED_WITH="fetch",
    )
    assert response.status_code == 503
    assert response.json() == {"ok": False, "message": BUSY}


def test_the_try_again_message_is_dutch_for_the_club(
    td: Client, round_paired: Round, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = GameFactory(round=round_paired, board=1)
    monkeypatch.setattr(rounds_views, "result_record", _locked)
    td.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    response = td.post(
        club_reverse("competition:td_result_save", args=[round_paired.season.slug, 1, game.pk]),
        {"result": "1-0", "version": game.version},
        HTTP_X_REQUESTED_WITH="fetch",
    )
    assert response.json()["message"] == "De database was bezet; probeer het opnieuw."


@pytest.mark.parametrize(
    ("referer", "expected"),
    [
        ("http://testserver/td/", "http://testserver/td/"),
        ("https://elsewhere.example/", "/"),  # never back to another site
        ("", "/"),
    ],
)
def test_middleware_answer_to_a_forced_locked_error(referer: str, expected: str) -> None:
    middleware = DatabaseBusyMiddleware(lambda request: None)  # type: ignore[arg-type,return-value]
    request = RequestFactory().post("/td/x/", HTTP_REFERER=referer)
    messages: list[str] = []
    request._messages = type(  # type: ignore[attr-defined]
        "Store", (), {"add": lambda self, level, message, extra_tags="": messages.append(message)}
    )()
    with translation.override("en"):
        response = middleware.process_exception(request, OperationalError("database is locked"))
    assert response is not None
    assert (response.status_code, response["Location"]) == (302, expected)
    assert [str(m) for m in messages] == [BUSY]


def test_middleware_leaves_other_errors_alone() -> None:
    middleware = DatabaseBusyMiddleware(lambda request: None)  # type: ignore[arg-type,return-value]
    request = RequestFactory().post("/td/x/", HTTP_X_REQUESTED_WITH="fetch")
    assert middleware.process_exception(request, OperationalError("no such table: x")) is None
    assert middleware.process_exception(request, ValueError("database is locked")) is None
