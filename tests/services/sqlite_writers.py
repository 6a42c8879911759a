"""Two TDs writing to an SQLite file database at the same moment (run by test_sqlite_writers).

Run as ``python -m tests.services.sqlite_writers`` with ``DATABASE_URL=sqlite:////some/file``:
it migrates that file, builds two seasons with a round each, then lets two TDs publish (and
later save results) at once, again and again, through the pages, and prints what each request
was answered as JSON lines: ``{"action": ..., "status": ..., "message": ...}``. In-process
tests cannot show this: the test database of SQLite lives in memory, shared by the threads.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubcomp.settings_test")
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.contrib.messages import get_messages  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402

from competition.clubs import club_url  # noqa: E402
from competition.models import Game, Round  # noqa: E402
from competition.permissions import td_group  # noqa: E402
from competition.services.evening import round_unpublish  # noqa: E402
from tests.factories import GameFactory, RoundFactory, SeasonFactory  # noqa: E402

ATTEMPTS = 15


def answer(action: str, response: HttpResponse) -> dict[str, object]:
    """What the TD saw: the first answer's status, and the message on the page it led to."""
    if response.get("Content-Type", "").startswith("application/json"):
        message = json.loads(response.content).get("message", "")
    else:
        message = " ".join(str(m) for m in get_messages(response.wsgi_request))  # type: ignore[attr-defined]
    chain = getattr(response, "redirect_chain", [])
    return {
        "action": action,
        "status": chain[0][1] if chain else response.status_code,
        "message": message,
    }


def together(requests: list[Callable[[], dict[str, object]]]) -> list[dict[str, object]]:
    barrier = threading.Barrier(len(requests))
    answers: list[dict[str, object]] = []

    def run(request: Callable[[], dict[str, object]]) -> None:
        try:
            barrier.wait(timeout=10)
            answers.append(request())
        except Exception as error:  # reported, and the outer test fails on it
            answers.append({"action": "?", "status": "exception", "message": repr(error)})
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(request,)) for request in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def main() -> None:
    assert settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    call_command("migrate", verbosity=0)
    rounds = []
    td = User.objects.create_user("td-sqlite")
    for _ in range(2):
        season = SeasonFactory()
        rnd = RoundFactory(season=season, number=1, status=Round.Status.PLANNED)
        GameFactory(round=rnd, board=1)
        GameFactory(round=rnd, board=2)
        td.groups.add(td_group(season.club))
        rounds.append(rnd)
    clients = []
    for _ in rounds:
        client = Client(raise_request_exception=False)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        client.force_login(td)
        clients.append(client)

    def publish(client: Client, rnd: Round) -> Callable[[], dict[str, object]]:
        url = club_url(
            rnd.season.club.slug, "competition:td_round_publish", args=[rnd.season.slug, rnd.number]
        )
        return lambda: answer("publish", client.post(url, follow=True))

    def save(client: Client, game: Game, result: str) -> Callable[[], dict[str, object]]:
        url = club_url(
            game.round.season.club.slug,
            "competition:td_result_save",
            args=[game.round.season.slug, 1, game.pk],
        )
        data = {"result": result, "version": game.version}
        return lambda: answer("save", client.post(url, data, headers={"X-Requested-With": "fetch"}))

    for _ in range(ATTEMPTS):
        for line in together([publish(c, r) for c, r in zip(clients, rounds, strict=True)]):
            print(json.dumps(line))
        for rnd in rounds:
            if Round.objects.get(pk=rnd.pk).is_published:
                round_unpublish(round=rnd, user=td)
    for rnd in rounds:
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PAIRED)
    for attempt in range(ATTEMPTS):
        result = ("1-0", "0-1")[attempt % 2]
        games = [Game.objects.select_related("round__season").get(round=r, board=1) for r in rounds]
        requests = [save(c, g, result) for c, g in zip(clients, games, strict=True)]
        for line in together(requests):
            print(json.dumps(line))


if __name__ == "__main__":
    main()
