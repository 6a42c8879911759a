"""The "can I still win?" simulation: hand-worked chances, the margin, seeds and the keepers."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from competition.scoring.engine import standings_after
from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from competition.simulation.chances import (
    SimulationInput,
    attendance_share,
    draw_rate_of,
    expected_score,
    margin_of_error,
    result_probabilities,
    simulate,
)
from competition.simulation.keepers import EngineKeeper, keeper_for

W, D, L = Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS


def players(*names: str) -> tuple[Participant, ...]:
    return tuple(
        Participant(id=n, name=name, start_rank=n, rating=1500)
        for n, name in enumerate(names, start=1)
    )


def three_rounds_a_far_ahead() -> SeasonInput:
    """A (1) beat B (2) and C (3) and had a bye; B and C drew: A 3, B 1½, C 1½."""
    return SeasonInput(
        participants=players("A", "B", "C"),
        rounds=(
            Round(1, (Game(1, 2, W),), (Entry(3, EntryKind.BYE, Fraction(1)),)),
            Round(2, (Game(3, 1, L),), (Entry(2, EntryKind.BYE, Fraction(1)),)),
            Round(3, (Game(2, 3, D),), (Entry(1, EntryKind.BYE, Fraction(1)),)),
        ),
        system="points",
    )


def test_a_lead_nobody_can_catch_gives_exactly_one_and_zero() -> None:
    # One round left, at most one point each: B and C reach 2½ at best, below A's 3.
    season = three_rounds_a_far_ahead()
    data = SimulationInput(season, rounds_left=1, attendance=attendance_share(season))
    chances = simulate(data, simulations=200, seed=3)
    by_id = {p.participant_id: p for p in chances.players}
    assert [p.participant_id for p in chances.players] == [1, 2, 3]
    assert by_id[1].first == 200
    assert by_id[2].first == by_id[3].first == 0
    assert by_id[2].needed_for_first is None
    assert all(p.top_three == 200 for p in chances.players)  # three players: all in the top 3
    assert chances.share(by_id[1].first) == 1.0


def test_attendance_share_counts_games_and_byes() -> None:
    season = three_rounds_a_far_ahead()
    assert attendance_share(season) == {1: 1.0, 2: 1.0, 3: 1.0}
    absent = SeasonInput(
        participants=players("A", "B", "C"),
        rounds=(
            Round(1, (Game(1, 2, W),), (Entry(3, EntryKind.ABSENT_NOTICE),)),
            Round(2, (Game(1, 3, Result.WHITE_WINS_FORFEIT),), (Entry(2, EntryKind.BYE),)),
        ),
    )
    # C: absent, then lost by forfeit: 0 of 2; B: a game and a bye.
    assert attendance_share(absent) == {1: 1.0, 2: 1.0, 3: 0.0}
    # A withdrawn player never comes again, however often he came so far.
    withdrawn = SeasonInput(
        participants=tuple(
            replace(p, withdrawn_round=3) if p.id == 1 else p for p in absent.participants
        ),
        rounds=absent.rounds,
    )
    assert attendance_share(withdrawn) == {1: 0.0, 2: 1.0, 3: 0.0}


def test_what_do_i_need_on_two_players() -> None:
    # A and B drew round 1 (½ each); one round left, they meet again. A is ahead on start
    # rank when equal, so a draw (½ point) keeps A first; B needs a win (1 point).
    # Equal ratings, draw rate ½: P(draw) = min(½, 2·½) = ½, P(A wins) = P(B wins) = ¼, so
    # P(A first) = ½ + ¼ = ¾.
    season = SeasonInput(
        participants=players("A", "B"), rounds=(Round(1, (Game(1, 2, D),)),), system="points"
    )
    data = SimulationInput(season, rounds_left=1, draw_rate=0.5)
    chances = simulate(data, simulations=400, seed=11)
    a, b = chances.players
    assert (a.participant_id, b.participant_id) == (1, 2)
    assert a.needed_for_first == Fraction(1, 2)
    assert b.needed_for_first == Fraction(1)
    share = chances.share(a.first)
    assert abs(share - 0.75) < 3 * margin_of_error(0.75, 400)
    assert a.first + b.first == 400


def test_margin_of_error_formula() -> None:
    # 1.96 · sqrt(0.5 · 0.5 / 1000) = 1.96 · 0.0158114 = 0.0309903
    assert margin_of_error(0.5, 1000) == pytest.approx(0.0309903, abs=1e-7)
    # 1.96 · sqrt(0.1 · 0.9 / 400) = 1.96 · 0.015 = 0.0294
    assert margin_of_error(0.1, 400) == pytest.approx(0.0294)
    assert margin_of_error(1.0, 1000) == 0.0
    assert margin_of_error(0.5, 0) == 0.0


def test_result_probabilities() -> None:
    assert result_probabilities(1500, 1500, 0.3) == pytest.approx((0.35, 0.3, 0.35))
    # 1600 against 1400: E = 1/(1 + 10^(-0.5)) = 0.759747; the draw is capped at
    # 2·(1 − E) = 0.480506, which leaves black no win.
    assert expected_score(1600, 1400) == pytest.approx(0.759747, abs=1e-6)
    white, draw, black = result_probabilities(1600, 1400, 0.6)
    assert draw == pytest.approx(0.480506, abs=1e-6)
    assert white == pytest.approx(0.519494, abs=1e-6)
    assert black == pytest.approx(0.0, abs=1e-12)
    assert white + draw / 2 == pytest.approx(expected_score(1600, 1400))


def random_season(system: str, *, round_robin: bool = False, seed: int = 5) -> SeasonInput:
    rng = random.Random(seed)
    people = tuple(
        Participant(
            id=n, name=f"P{n}", start_rank=n, rating=1400 + 40 * n, joined_round=1 + (n == 9)
        )
        for n in range(1, 10)
    )
    rounds = []
    for number in range(1, 5):
        present = [p.id for p in people if p.joined_round <= number and rng.random() < 0.8]
        rng.shuffle(present)
        games = tuple(
            Game(a, b, rng.choice((W, D, L)))
            for a, b in zip(present[::2], present[1::2], strict=False)
        )
        entries = [Entry(p.id, EntryKind.ABSENT_NOTICE) for p in people if p.id not in present]
        if len(present) % 2:
            entries.append(Entry(present[-1], EntryKind.BYE, Fraction(1)))
        rounds.append(Round(number, games, tuple(entries)))
    parameters = {
        "points": {"win": Fraction(3), "draw": Fraction(1)},
        "internal-sb": {"unplayed_value": Fraction(1, 3)},
        "van-den-brink": {"games_per_update": 2, "factor": Fraction(1, 20)},
    }.get(system, {})
    return SeasonInput(
        participants=people,
        rounds=tuple(rounds),
        system=system,
        parameters=parameters,
        round_robin=round_robin,
    )


@pytest.mark.parametrize("system", ["points", "internal-sb", "van-den-brink"])
def test_the_incremental_keepers_agree_with_the_engine(system: str) -> None:
    """Simulated rounds added one at a time give the engine's primary score for everybody."""
    season = random_season(system)
    data = SimulationInput(season, rounds_left=0, draw_rate=0.3)
    keeper = keeper_for(season, awarded=(Fraction(1),), rounds_left=6)
    rng = random.Random(2)
    rounds = list(season.rounds)
    ids = [p.id for p in season.participants]
    for number in range(5, 11):
        rng.shuffle(ids)
        games = tuple(
            Game(a, b, rng.choice((W, D, L, Result.WHITE_WINS_FORFEIT)))
            for a, b in zip(ids[:8:2], ids[1:8:2], strict=True)
        )
        rnd = Round(number, games, (Entry(ids[8], EntryKind.BYE, Fraction(1)),))
        keeper.play_round(rnd)
        rounds.append(rnd)
        full = SeasonInput(**{**season_fields(season), "rounds": tuple(rounds)})
        rows = standings_after(full, number).rows
        assert {row.participant_id: row.score for row in rows} == {
            pid: keeper.primary(pid) for pid in ids
        }
        assert {row.participant_id: row.game_points for row in rows} == {
            pid: keeper.game_points(pid) for pid in ids
        }
    assert data.rounds_left == 0


def season_fields(season: SeasonInput) -> dict[str, object]:
    return {name: getattr(season, name) for name in season.__slots__}


def test_keizer_uses_the_engine() -> None:
    assert isinstance(keeper_for(random_season("keizer")), EngineKeeper)


@pytest.mark.parametrize("round_robin", [False, True])
def test_same_seed_same_chances_and_counts_add_up(round_robin: bool) -> None:
    season = random_season("internal-sb", round_robin=round_robin)
    data = SimulationInput(
        season,
        rounds_left=3,
        ratings={p.id: p.rating or 0 for p in season.participants},
        attendance=attendance_share(season),
        draw_rate=draw_rate_of(season.rounds),
        categories={"odd numbers": frozenset({1, 3, 5, 7, 9})},
    )
    first = simulate(data, simulations=30, seed=7)
    again = simulate(data, simulations=30, seed=7)
    assert first == again
    assert sum(p.first for p in first.players) == 30
    assert sum(p.top_three for p in first.players) == 90
    assert sum(p.categories.get("odd numbers", 0) for p in first.players) == 30
    assert all(
        p.categories.get("odd numbers", 0) == 0 for p in first.players if p.participant_id % 2 == 0
    )
