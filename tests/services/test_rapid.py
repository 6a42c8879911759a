"""A rapid series through the TD's services (issue 14): evenings of three rounds paired within
the evening (Swiss through the pairing engine, or the evening's Berger table), *next round*
without leaving the evening, the evening ranking (the engine on the evening's games alone),
evening points and the series ranking, with the figures worked out by hand."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from django.utils import translation

from competition.models import Game, Round, RoundEntry
from competition.scoring import engine
from competition.scoring.model import Game as ScoringGame
from competition.scoring.model import Participant, Result, SeasonInput
from competition.scoring.model import Round as ScoringRound
from competition.selectors import series as series_selectors
from competition.services import evening
from competition.services.errors import ServiceError
from competition.services.rounds import entry_record, result_record, round_complete, round_create
from competition.services.series import has_next_round_tonight, rapid_round_next
from tests.factories import ParticipantFactory, SeasonFactory

pytestmark = pytest.mark.django_db

F = Fraction
EVENING_1 = datetime.date(2026, 9, 10)
EVENING_2 = datetime.date(2026, 9, 24)


@pytest.fixture(autouse=True)
def _english_messages():
    with translation.override("en"):
        yield


@pytest.fixture
def rapid(td_user):
    """A Swiss rapid series: four players P1..P4, three rounds an evening, 10-8-6-5."""
    season = SeasonFactory(
        system="points",
        tiebreaks=[],
        rounds_per_evening=3,
        evening_points=[10, 8, 6, 5],
    )
    players = [ParticipantFactory(season=season, start_rank=i) for i in range(1, 5)]
    return season, players, td_user


def pairs(rnd: Round) -> tuple[set[frozenset[int]], int | None]:
    games = Game.objects.filter(round=rnd)
    bye = RoundEntry.objects.filter(round=rnd, kind=RoundEntry.Kind.BYE).first()
    return {frozenset((g.white_id, g.black_id)) for g in games}, bye.participant_id if bye else None


def play(rnd: Round, user, outcomes: dict[frozenset[int], int | None]) -> None:
    """Enter each board's result: the winner's id, or None for a draw."""
    for game in Game.objects.filter(round=rnd):
        winner = outcomes[frozenset((game.white_id, game.black_id))]
        result = (
            Game.Result.DRAW
            if winner is None
            else Game.Result.WHITE_WINS
            if winner == game.white_id
            else Game.Result.BLACK_WINS
        )
        result_record(game_id=game.pk, result=result, expected_version=game.version, user=user)


def pair(a, b) -> frozenset[int]:
    return frozenset((a.id, b.id))


def start_evening(season, user, date) -> Round:
    (rnd,) = round_create(seasons=[season], date=date)
    evening.pairing_propose(round=rnd, user=user)
    return evening.round_publish(round=rnd, user=user)


def test_an_evening_of_three_rounds_and_its_points(rapid) -> None:
    season, (p1, p2, p3, p4), user = rapid
    r1 = start_evening(season, user, EVENING_1)
    # Round 1 by start order: 1-2, 3-4.
    assert pairs(r1) == ({pair(p1, p2), pair(p3, p4)}, None)
    assert has_next_round_tonight(r1)
    play(r1, user, {pair(p1, p2): p1.id, pair(p3, p4): p3.id})
    r2 = rapid_round_next(round=r1, user=user)
    assert (r2.number, r2.date, r2.status) == (2, EVENING_1, Round.Status.PAIRED)
    # The evening so far: P1 and P3 1 point, P2 and P4 0: 1-3 and 2-4 (no rematch tonight).
    assert pairs(r2) == ({pair(p1, p3), pair(p2, p4)}, None)
    play(r2, user, {pair(p1, p3): p1.id, pair(p2, p4): None})
    r3 = rapid_round_next(round=r2, user=user)
    # Nobody meets the same opponent twice in one evening: the two pairs that are left.
    assert pairs(r3) == ({pair(p1, p4), pair(p2, p3)}, None)
    assert not has_next_round_tonight(r3)
    with pytest.raises(ServiceError, match="last round of evening 1"):
        rapid_round_next(round=r3, user=user)
    play(r3, user, {pair(p1, p4): None, pair(p2, p3): p2.id})
    round_complete(round=r3, user=user)

    page = series_selectors.evening_page(season=season, number=1)
    # P1 1 + 1 + ½ = 2½; P2 0 + ½ + 1 = 1½; P3 1 + 0 + 0 = 1; P4 0 + ½ + ½ = 1.
    # P3 and P4 share place 3 and the points of places 3 and 4: (6 + 5) / 2 = 11/2.
    assert [(line.rank, line.name, line.points) for line in page.points] == [
        (1, p1.member.name, F(10)),
        (2, p2.member.name, F(8)),
        (3, p3.member.name, F(11, 2)),
        (3, p4.member.name, F(11, 2)),
    ]
    assert page.complete and page.rounds_played == 3

    # The evening ranking is the engine's on the evening's games alone, written out here.
    W, D, B = Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS
    by_id = {p.id: p for p in (p1, p2, p3, p4)}

    def game(white: int, black: int, winner: int | None) -> ScoringGame:
        return ScoringGame(white, black, D if winner is None else W if winner == white else B)

    played = []
    for rnd in (r1, r2, r3):
        outcomes = {}
        for g in Game.objects.filter(round=rnd):
            outcome = {
                Game.Result.WHITE_WINS: g.white_id,
                Game.Result.BLACK_WINS: g.black_id,
                Game.Result.DRAW: None,
            }[Game.Result(g.result)]
            outcomes[(g.white_id, g.black_id)] = outcome
        played.append(outcomes)
    hand = SeasonInput(
        participants=tuple(
            Participant(p.id, p.member.name, start_rank=p.start_rank, rating=p.rating)
            for p in by_id.values()
        ),
        rounds=tuple(
            ScoringRound(n, games=tuple(game(w, b, win) for (w, b), win in outcomes.items()))
            for n, outcomes in enumerate(played, start=1)
        ),
        system="points",
    )
    expected = engine.standings_after(hand, 3).rows
    assert [(r["participant_id"], r["rank"], r["score"]) for r in page.standings.rows] == [
        (row.participant_id, row.rank, row.score) for row in expected
    ]
    assert [row.game_points for row in expected] == [F(5, 2), F(3, 2), F(1), F(1)]


def test_two_evenings_absence_carried_and_the_series(rapid) -> None:
    season, (p1, p2, p3, p4), user = rapid
    r1 = start_evening(season, user, EVENING_1)
    play(r1, user, {pair(p1, p2): p1.id, pair(p3, p4): p3.id})
    r2 = rapid_round_next(round=r1, user=user)
    play(r2, user, {pair(p1, p3): p1.id, pair(p2, p4): None})
    r3 = rapid_round_next(round=r2, user=user)
    play(r3, user, {pair(p1, p4): None, pair(p2, p3): p2.id})
    round_complete(round=r3, user=user)

    # Evening 2: P4 sends word; the first round is paired by start order again, with the
    # evening's colours only (nobody has had white tonight: the lower-ranked gets it).
    (r4,) = round_create(seasons=[season], date=EVENING_2)
    assert r4.number == 4 and has_next_round_tonight(r4) is not False
    entry_record(round=r4, participant=p4, kind=RoundEntry.Kind.ABSENT_NOTICE, user=user)
    evening.pairing_propose(round=r4, user=user)
    evening.round_publish(round=r4, user=user)
    board = Game.objects.get(round=r4)
    assert (board.white_id, board.black_id) == (p2.id, p1.id)
    assert pairs(r4) == ({pair(p1, p2)}, p3.id)  # the odd one out: lowest ranked, P3
    play(r4, user, {pair(p1, p2): p2.id})
    r5 = rapid_round_next(round=r4, user=user)
    # P4's absence carries over to the evening's next round.
    assert RoundEntry.objects.get(round=r5, participant=p4).kind == RoundEntry.Kind.ABSENT_NOTICE
    # Tonight: P2 1 (win), P3 1 (bye), P1 0: 2-3, and the bye to P1.
    assert pairs(r5) == ({pair(p2, p3)}, p1.id)
    play(r5, user, {pair(p2, p3): None})
    r6 = rapid_round_next(round=r5, user=user)
    # P2-P3 and P1-P2 met tonight: only P1-P3 is new, and P2 has the bye.
    assert pairs(r6) == ({pair(p1, p3)}, p2.id)
    play(r6, user, {pair(p1, p3): p1.id})
    round_complete(round=r6, user=user)

    two = series_selectors.evening_page(season=season, number=2)
    # P1 0 + 1 (bye) + 1 = 2; P2 1 + ½ + 1 (bye) = 2½; P3 1 (bye) + ½ + 0 = 1½; P4 absent.
    assert [(line.name, line.points) for line in two.points] == [
        (p2.member.name, F(10)),
        (p1.member.name, F(8)),
        (p3.member.name, F(6)),
    ]

    # Sum of the evenings: P1 10 + 8 = 18, P2 8 + 10 = 18, P3 11/2 + 6 = 23/2, P4 11/2.
    page = series_selectors.series_page(season=season)
    assert [(line.rank, line.name, line.total) for line in page.lines] == [
        (1, p1.member.name, F(18)),
        (1, p2.member.name, F(18)),
        (3, p3.member.name, F(23, 2)),
        (4, p4.member.name, F(11, 2)),
    ]
    assert page.lines[3].cells == ((F(11, 2), True), (None, False))
    assert [e.winner for e in page.evenings] == [p1.member.name, p2.member.name]

    # Best 1 of 2: P1 10 (evening 1), P2 10 (evening 2), P3 6 (evening 2), P4 11/2.
    season.best_evenings = 1
    season.save()
    page = series_selectors.series_page(season=season)
    assert [(line.name, line.total, [c for _p, c in line.cells]) for line in page.lines] == [
        (p1.member.name, F(10), [True, False]),
        (p2.member.name, F(10), [False, True]),
        (p3.member.name, F(6), [False, True]),
        (p4.member.name, F(11, 2), [True, False]),
    ]
    mine = series_selectors.participant_series(season=season, participant_id=p3.id)
    assert [(e.rank, e.points, e.counts) for e in mine.evenings] == [
        (3, F(11, 2), False),
        (3, F(6), True),
    ]
    assert (mine.rank, mine.total) == (3, F(6))


def test_a_round_robin_evening_follows_its_berger_table(td_user) -> None:
    season = SeasonFactory(system="points", kind="round_robin", rounds_per_evening=3)
    p = [ParticipantFactory(season=season, start_rank=i) for i in range(1, 5)]
    r1 = start_evening(season, td_user, EVENING_1)
    berger_1 = {pair(p[0], p[3]), pair(p[1], p[2])}  # Berger round 1 of 4: 1-4, 2-3
    assert pairs(r1) == (berger_1, None)
    play(r1, td_user, dict.fromkeys(pairs(r1)[0], None))
    r2 = rapid_round_next(round=r1, user=td_user)
    assert pairs(r2) == ({pair(p[3], p[2]), pair(p[0], p[1])}, None)  # Berger round 2: 4-3, 1-2
    play(r2, td_user, dict.fromkeys(pairs(r2)[0], None))
    r3 = rapid_round_next(round=r2, user=td_user)
    assert pairs(r3) == ({pair(p[1], p[3]), pair(p[2], p[0])}, None)  # round 3: 2-4, 3-1
    play(r3, td_user, dict.fromkeys(pairs(r3)[0], None))
    round_complete(round=r3, user=td_user)
    # The second evening starts again at Berger round 1.
    r4 = start_evening(season, td_user, EVENING_2)
    assert pairs(r4) == (berger_1, None)


def test_next_round_refused_outside_a_series(td_user) -> None:
    season = SeasonFactory(system="points")
    [ParticipantFactory(season=season, start_rank=i) for i in range(1, 3)]
    rnd = start_evening(season, td_user, EVENING_1)
    assert not has_next_round_tonight(rnd)
    with pytest.raises(ServiceError, match="one round per evening"):
        rapid_round_next(round=rnd, user=td_user)
