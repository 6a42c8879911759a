"""The "can I still win?" simulation: hand-worked chances, the margin, seeds and the keepers."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

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
    places_shared,
    result_probabilities,
    simulate,
)
from competition.simulation.keepers import keeper_for

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


def test_a_tie_nothing_separates_is_shared() -> None:
    # A and B drew round 1 (½ each); one round left, they meet again. A draw leaves them equal
    # on points and the season has no tie-breaks: they share first place (½ each). Equal
    # ratings, draw rate ½: P(draw) = min(½, 2·½) = ½, P(A wins) = P(B wins) = ¼, so A's
    # expected share of first place is ¼ + ½·½ = ½, and so is B's.
    season = SeasonInput(
        participants=players("A", "B"), rounds=(Round(1, (Game(1, 2, D),)),), system="points"
    )
    data = SimulationInput(season, rounds_left=1, draw_rate=0.5)
    chances = simulate(data, simulations=400, seed=11)
    a, b = chances.players
    assert (a.participant_id, b.participant_id) == (1, 2)
    # a draw (½ point) is enough for a share of first place, for both
    assert a.needed_for_first == b.needed_for_first == Fraction(1, 2)
    assert abs(chances.share(a.first) - 0.5) < 3 * margin_of_error(0.5, 400)
    assert a.first + b.first == 400
    assert a.top_three == b.top_three == 400


def drawn_final_round(tiebreaks: tuple[str, ...]) -> SimulationInput:
    """A (event rating 1600) and B (1400) drew round 1; one round left. The simulation rates
    both 1500 (no ratings given) and draws every game (draw rate 1 between equal ratings:
    P(draw) = min(1, 2·½) = 1), so they draw again and end on 1 point each."""
    season = SeasonInput(
        participants=(
            Participant(id=1, name="A", start_rank=1, rating=1600),
            Participant(id=2, name="B", start_rank=2, rating=1400),
        ),
        rounds=(Round(1, (Game(1, 2, D),)),),
        system="points",
        tiebreaks=tiebreaks,
    )
    return SimulationInput(season, rounds_left=1, draw_rate=1.0)


@pytest.mark.parametrize(
    ("tiebreaks", "a_first", "b_first"),
    [
        # No tie-breaks: nothing separates them; they share first place in every simulation.
        ((), 50, 50),
        # Direct encounter: both games drawn, still equal: shared.
        (("DE",), 50, 50),
        # Average rating of the opponents (C.07 10.1, the event ratings): A met B (1400),
        # B met A (1600): B is first in every simulation. Before, A won every one of them on
        # his better start number.
        (("ARO",), 0, 100),
        # DE first (equal), then ARO decides.
        (("DE", "ARO"), 0, 100),
    ],
)
def test_tie_breaks_decide_where_they_can(
    tiebreaks: tuple[str, ...], a_first: int, b_first: int
) -> None:
    chances = simulate(drawn_final_round(tiebreaks), simulations=100, seed=1)
    by_id = {p.participant_id: p for p in chances.players}
    assert (by_id[1].first, by_id[2].first) == (a_first, b_first)
    assert by_id[1].top_three == by_id[2].top_three == 100


@pytest.mark.parametrize(
    ("groups", "places", "expected"),
    [
        # [A], [B, C, D], three places: A first and in the top three; B, C, D share places
        # 2 and 3: 2/3 of a top-three place each.
        (
            [[1], [2, 3, 4]],
            3,
            {1: (1, 1), 2: (0, Fraction(2, 3)), 3: (0, Fraction(2, 3)), 4: (0, Fraction(2, 3))},
        ),
        # [A, B] share first: ½ each, both in the top three; [C] third.
        ([[1, 2], [3], [4]], 3, {1: (Fraction(1, 2), 1), 2: (Fraction(1, 2), 1), 3: (0, 1)}),
        # Four equal: ¼ of first and ¾ of a top-three place each.
        ([[1, 2, 3, 4]], 3, dict.fromkeys((1, 2, 3, 4), (Fraction(1, 4), Fraction(3, 4)))),
        # One place counted (a category): only the first group.
        ([[1], [2]], 1, {1: (1, 1)}),
    ],
)
def test_places_shared(
    groups: list[list[int]], places: int, expected: dict[int, tuple[Fraction, Fraction]]
) -> None:
    assert places_shared(groups, places) == expected


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


class _Recording:
    """The model's choices, plus every simulated round's pairing with the request the real
    engine would get for it (the simulated standings, colours, byes and every earlier game)."""

    def __init__(self, data: SimulationInput, seed: int) -> None:
        from competition.simulation.chances import _ByChance

        self.chance = _ByChance(data, random.Random(seed))
        self.present_now: set[int] = set()

    def present(self, number: int, taking_part: list[int], keeper) -> set[int]:  # type: ignore[no-untyped-def]
        self.present_now = self.chance.present(number, taking_part, keeper)
        return self.present_now

    def result(self, white: int, black: int, keeper) -> Result:  # type: ignore[no-untyped-def]
        return self.chance.result(white, black, keeper)


@pytest.mark.parametrize("rules", [False, True])
def test_simulated_pairings_are_the_pairing_engines(rules: bool) -> None:
    """Forty players, 15 simulated rounds, three simulated seasons: every simulated round's
    boards and bye are those pair_round proposes for the same standings and history (with
    and without every season rule)."""
    from competition.pairing import (
        PairingRequest,
        PairingRules,
        PlayedGame,
        PresentPlayer,
        pair_round,
    )
    from competition.simulation.chances import _Ladder, _Round

    rng = random.Random(3)
    people = tuple(
        Participant(id=n, name=f"P{n:02d}", start_rank=n, rating=2200 - 25 * n)
        for n in range(1, 41)
    )
    played = []
    for number in range(1, 11):
        ids = [p.id for p in people if rng.random() < 0.8]
        rng.shuffle(ids)
        games = tuple(
            Game(a, b, rng.choice((W, D, L))) for a, b in zip(ids[::2], ids[1::2], strict=False)
        )
        entries = [Entry(p.id, EntryKind.ABSENT_NOTICE) for p in people if p.id not in ids]
        if len(ids) % 2:
            entries.append(Entry(ids[-1], EntryKind.BYE, Fraction(1)))
        played.append(Round(number, games, tuple(entries)))
    season = SeasonInput(people, tuple(played), system="internal-sb")
    pairing = (
        PairingRules(
            rematch_window=4,
            forbidden_pairs=((1, 2), (5, 9), (12, 13)),
            max_meetings=2,
            reverse_colours_at_rematch=True,
            max_allocated_byes=1,
        )
        if rules
        else PairingRules()
    )
    data = SimulationInput(
        season, rounds_left=15, attendance=attendance_share(season), draw_rate=0.3, pairing=pairing
    )
    playing = _Round(data)
    compared = 0
    for simulation in range(3):
        keeper = keeper_for(season, awarded=(Fraction(1),), rounds_left=15)
        ladder = _Ladder.of(season)
        games = [
            PlayedGame(r.number, g.white, g.black)
            for r in season.rounds
            for g in r.games
            if g.result.is_played
        ]
        choices = _Recording(data, seed=simulation)
        for number in range(11, 26):
            order = keeper.order()
            figures = {pid: ladder.figures[pid] for pid in order}
            before = {
                pid: (f.whites, f.blacks, f.byes, f.had_bye_last_round, f.allocated_byes)
                for pid, f in figures.items()
            }
            rnd = playing.play(choices, number, keeper, ladder)
            present = [pid for pid in order if pid in choices.present_now]
            request = PairingRequest(
                round_number=number,
                players=tuple(
                    PresentPlayer(pid, rank, *before[pid])
                    for rank, pid in enumerate(present, start=1)
                ),
                previous_games=tuple(games),
                rematch_window=pairing.rematch_window,
                forbidden_pairs=pairing.forbidden_pairs,
                max_meetings=pairing.max_meetings,
                reverse_colours_at_rematch=pairing.reverse_colours_at_rematch,
                max_allocated_byes=pairing.max_allocated_byes,
            )
            proposal = pair_round(request)
            assert [(g.white, g.black) for g in rnd.games] == [
                (b.white_id, b.black_id) for b in proposal.boards
            ]
            byes = [e.participant for e in rnd.entries if e.kind is EntryKind.BYE]
            assert byes == ([proposal.bye_id] if proposal.bye_id is not None else [])
            compared += 1
            keeper.play_round(rnd)
            ladder.add(rnd)
            games += [PlayedGame(number, g.white, g.black) for g in rnd.games if g.result.is_played]
    assert compared == 45


def test_what_is_certain_in_a_category_comes_from_the_same_bounds() -> None:
    # A 3, B 1½, C 1½ (points) with one round left: A is out of reach in "A and B" (B reaches
    # 2½ at best), B and C can each still be the better of "B and C".
    from competition.simulation.chances import FirstPlace, outlook

    season = three_rounds_a_far_ahead()
    data = SimulationInput(
        season,
        rounds_left=1,
        attendance=attendance_share(season),
        categories={"A and B": frozenset({1, 2}), "B and C": frozenset({2, 3})},
    )
    chances = simulate(data, simulations=100, seed=5)
    views = {view.participant_id: view.categories for view in outlook(data, chances)}
    assert views[1] == {"A and B": FirstPlace.SECURED}
    assert views[2] == {"A and B": FirstPlace.IMPOSSIBLE, "B and C": FirstPlace.OPEN}
    assert views[3] == {"B and C": FirstPlace.OPEN}
    by_id = {p.participant_id: p for p in chances.players}
    assert by_id[1].categories["A and B"] == 100
    assert "A and B" not in by_id[2].categories
    assert by_id[2].categories["B and C"] + by_id[3].categories["B and C"] == 100
