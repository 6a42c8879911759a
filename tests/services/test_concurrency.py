"""Two TDs saving the same board at the same moment: one wins, the other is told, nothing is lost.

Needs PostgreSQL: SQLite has no row locks (``select_for_update`` is a no-op there) and lets one
writer at a time in, so it cannot show the race this test is about.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.utils import translation

from competition.models import Game, Round
from competition.services.errors import ServiceError
from competition.services.rounds import result_record
from tests.factories import GameFactory, RoundFactory, SeasonFactory

REPEATS = 30

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
]


@pytest.fixture(autouse=True)
def _postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks (set DATABASE_URL=postgres://...)")


def _save(
    game_id: int,
    result: str,
    version: int,
    user: User,
    barrier: threading.Barrier,
    outcome: dict[str, str],
) -> None:
    translation.activate("en")  # each thread has its own language; the assertions read English
    try:
        barrier.wait(timeout=10)
        result_record(game_id=game_id, result=result, expected_version=version, user=user)
        outcome[result] = "won"
    except ServiceError as error:
        outcome[result] = str(error)
    finally:
        translation.deactivate()
        connections.close_all()


def test_two_tds_saving_one_board_at_once() -> None:
    season = SeasonFactory()
    rnd = RoundFactory(season=season, number=1, status=Round.Status.PAIRED)
    game = GameFactory(round=rnd, board=1)
    first = User.objects.create_user("td-one", first_name="Anna")
    second = User.objects.create_user("td-two", first_name="Bert")
    winners = []
    for attempt in range(REPEATS):
        version = Game.objects.get(pk=game.pk).version
        # Each attempt both TDs enter a different result than the board holds now.
        results = ("1-0", "0-1") if attempt % 2 == 0 else ("1/2", "+-")
        barrier = threading.Barrier(2)
        outcome: dict[str, str] = {}
        threads = [
            threading.Thread(target=_save, args=(game.pk, result, version, user, barrier, outcome))
            for result, user in zip(results, (first, second), strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        won = [result for result, said in outcome.items() if said == "won"]
        lost = [said for said in outcome.values() if said != "won"]
        assert len(won) == 1, outcome
        assert len(lost) == 1 and "meanwhile" in lost[0], outcome
        # The loser is told who won and what the board holds now.
        winner_name = "Anna" if won[0] == results[0] else "Bert"
        assert winner_name in lost[0], outcome
        saved = Game.objects.get(pk=game.pk)
        assert saved.result == won[0]
        assert saved.version == version + 1
        winners.append(won[0])
    # No lost update: one history record per attempt, each holding that attempt's winner.
    changes = list(
        Game.history.filter(id=game.pk, history_type="~").order_by("history_date", "history_id")
    )
    assert [record.result for record in changes] == winners
    assert [record.version for record in changes] == list(range(2, REPEATS + 2))
