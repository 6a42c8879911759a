"""TDs doing the same thing at the same moment: one wins, the others are told or land on what
the winner made, nothing is lost and nothing is made twice.

Needs PostgreSQL: SQLite has no row locks (``select_for_update`` is a no-op there) and lets one
writer at a time in, so it cannot show the races these tests are about
(``tests/services/test_sqlite_writers.py`` shows SQLite's answer to two writers).
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable, Sequence

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.db.models import QuerySet
from django.test import Client
from django.utils import translation

from competition.models import ABSENCE_KINDS, Game, Round, RoundEntry
from competition.permissions import td_group
from competition.services.errors import ServiceError
from competition.services.evening import entry_correct
from competition.services.rounds import result_record, round_create
from tests.addresses import club_reverse
from tests.factories import GameFactory, RoundEntryFactory, RoundFactory, SeasonFactory

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


def run_together(tasks: Sequence[Callable[[], object]]) -> list[object]:
    """Run ``tasks`` in threads released at one moment, each with its own database connection;
    each task's return value, or the exception it raised."""
    barrier = threading.Barrier(len(tasks))
    outcomes: list[object] = [None] * len(tasks)

    def run(index: int, task: Callable[[], object]) -> None:
        translation.activate("en")
        try:
            barrier.wait(timeout=10)
            outcomes[index] = task()
        except Exception as error:  # the test asserts on it
            outcomes[index] = error
        finally:
            translation.deactivate()
            connections.close_all()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(tasks)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.parametrize("lock_holds", [True, False], ids=["locked", "lock-did-not-hold"])
def test_eight_new_round_requests_at_once_make_one_round(
    lock_holds: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A double tap, or several TDs: every request lands on the one round the first made.

    Without the season's lock (``lock-did-not-hold``), the constraint that a season has one
    open round refuses the second round, and that request too lands on the first one's round.
    """
    if not lock_holds:
        monkeypatch.setattr(QuerySet, "select_for_update", lambda self, **kwargs: self)
    season = SeasonFactory()
    RoundFactory(season=season, number=1)  # closed
    td = User.objects.create_user("td-new-round")
    td.groups.add(td_group(season.club))
    clients = []
    for _ in range(8):
        client = Client()
        client.force_login(td)
        clients.append(client)
    url = club_reverse("competition:td_round_new", args=[season.slug])

    def post(client: Client) -> Callable[[], object]:
        return lambda: client.post(url, {"date": "2026-09-17"})

    responses = run_together([post(client) for client in clients])
    assert Round.objects.filter(season=season).exclude(status=Round.Status.COMPLETED).count() == 1
    made = Round.objects.get(season=season, number=2)
    target = club_reverse("competition:td_round", args=[season.slug, made.number])
    for response in responses:
        assert not isinstance(response, Exception), response
        assert (response.status_code, response["Location"]) == (302, target)


def test_evenings_started_with_seasons_in_either_order_do_not_deadlock() -> None:
    """Two TDs tick the same competitions, listed in another order: the seasons are locked in
    one order, so neither waits for the other forever (PostgreSQL would end one with an error)."""
    first, second = SeasonFactory(), SeasonFactory()
    date = datetime.date(2026, 9, 17)

    def start(seasons: list) -> Callable[[], object]:
        return lambda: round_create(seasons=seasons, date=date)

    for _attempt in range(3):
        outcomes = run_together(
            [start([first, second] if i % 2 else [second, first]) for i in range(8)]
        )
        for outcome in outcomes:
            assert isinstance(outcome, list), outcome
        rounds = {r.pk for outcome in outcomes for r in outcome}  # type: ignore[attr-defined]
        assert len(rounds) == 2
        Round.objects.filter(pk__in=rounds).update(status=Round.Status.COMPLETED)


def test_two_tds_correcting_one_absence_at_once() -> None:
    """As for results: one correction wins, the other is told who won, nothing is lost."""
    season = SeasonFactory()
    rnd = RoundFactory(season=season, number=1)  # closed
    entry = RoundEntryFactory(round=rnd, kind=RoundEntry.Kind.ABSENT_NO_NOTICE)
    first = User.objects.create_user("td-one", first_name="Anna")
    second = User.objects.create_user("td-two", first_name="Bert")
    winners = []
    for attempt in range(10):
        before = RoundEntry.objects.get(pk=entry.pk)
        version = before.version
        # Both TDs change the entry, each to another kind than it has now.
        ordered = [kind for kind in ABSENCE_KINDS if kind != before.kind][:: 1 - 2 * (attempt % 2)]

        def correct(kind: str, user: User, version: int = version) -> Callable[[], object]:
            return lambda: entry_correct(
                entry_id=entry.pk,
                kind=kind,
                points=None,
                reason=f"{user.first_name} knows",
                user=user,
                expected_version=version,
            )

        outcomes = run_together(
            [correct(kind, user) for kind, user in zip(ordered, (first, second), strict=True)]
        )
        won = [o for o in outcomes if isinstance(o, RoundEntry)]
        lost = [o for o in outcomes if not isinstance(o, RoundEntry)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert isinstance(lost[0], ServiceError) and "meanwhile" in str(lost[0]), outcomes
        assert won[0].updated_by.first_name in str(lost[0])
        saved = RoundEntry.objects.get(pk=entry.pk)
        assert (saved.kind, saved.version) == (won[0].kind, version + 1)
        winners.append(won[0].kind)
    changes = list(
        RoundEntry.history.filter(id=entry.pk, history_type="~").order_by(
            "history_date", "history_id"
        )
    )
    assert [record.kind for record in changes] == winners


def test_two_replays_of_one_clubs_rating_ledger_at_once() -> None:
    """A TD closing a round while another corrects an older result of the same club: both
    replay the club's rating ledger, from different evenings. Each replay deletes the rows from
    its evening on and writes them anew; without one replay at a time per club the second
    writes rows the first just wrote (a unique-constraint error) or leaves a mix of both."""
    from competition.models import ClubRatingChange
    from competition.services.ratings import club_ratings_replay
    from tests.rating_data import SEP10, four_player_club

    club = four_player_club()["club"]
    club_ratings_replay(club=club)
    expected = sorted(
        ClubRatingChange.objects.filter(club=club).values_list(
            "member_id", "date", "rating_before", "rating_after", "k", "change"
        )
    )
    for _attempt in range(10):
        outcomes = run_together(
            [
                lambda: club_ratings_replay(club=club),
                lambda: club_ratings_replay(club=club, from_date=SEP10),
            ]
        )
        assert outcomes == [8, 4], outcomes
        assert (
            sorted(
                ClubRatingChange.objects.filter(club=club).values_list(
                    "member_id", "date", "rating_before", "rating_after", "k", "change"
                )
            )
            == expected
        )


def test_two_admins_saving_the_rating_rules_at_once() -> None:
    """Two club admins save different K values for new players at the same moment (the first
    time with no rules saved yet): one after the other, both succeed, and the ledger is the
    one of the rules that were saved last: P1 beats P2 on 3 September, 0.30 × K (K 24: 7.2 →
    +7, 1807; K 32: 9.6 → +10, 1810)."""
    from competition.models import ClubRatingChange, ClubRatingRules
    from competition.services.ratings import club_rating_rules_set
    from tests.rating_data import SEP3, four_player_club

    club = four_player_club()["club"]
    after = {24: 1807, 32: 1810}

    def save(k: int) -> Callable[[], object]:
        def task() -> object:
            return club_rating_rules_set(
                club=club, k_new_player=k, k_standard=20, k_top=10, k_junior=40,
                start_rule="imported", start_rating=1500, rapid_counts=False,
                external_counts=False,
            ).k_new_player  # fmt: skip

        return task

    for _attempt in range(6):
        outcomes = run_together([save(24), save(32)])
        assert sorted(outcomes) == [24, 32], outcomes  # type: ignore[type-var]
        saved = ClubRatingRules.objects.get(club=club).k_new_player
        p1 = ClubRatingChange.objects.get(club=club, member__name="P1 Eerste", date=SEP3)
        assert (p1.k, p1.rating_after) == (saved, after[saved])
    assert ClubRatingRules.objects.filter(club=club).count() == 1
