"""What the chances page calls certain, against an exact enumeration of every outcome.

Small seasons (3-4 participants, 1-2 rounds left) of every system, ladder and round robin:
every outcome the simulation can play (each participant present or absent, the engine's
pairing or the Berger table, every result of every game) is played out and ranked by the
scoring engine itself. Then for every participant: "secured" means first alone in every
outcome, "impossible" in none, "possible" in at least one; the best and worst place hold in
every outcome; fewer game points than "needs" never make him first; "secures" game points
always do.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field, replace
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
    FirstPlace,
    Outlook,
    SimulationInput,
    _Ladder,
    _Round,
    attendance_share,
    outlook,
    simulate,
)
from competition.simulation.keepers import ScoreKeeper, keeper_for

W, D, L = Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS


class Scripted:
    """Choices that play one given attendance and given results, board by board."""

    def __init__(self, present: set[int], results: tuple[Result, ...]) -> None:
        self.attending = present
        self.results = list(results)
        self.boards = 0

    def present(self, number: int, taking_part: list[int], keeper: ScoreKeeper) -> set[int]:
        return self.attending & set(taking_part)

    def result(self, white: int, black: int, keeper: ScoreKeeper) -> Result:
        self.boards += 1
        return self.results.pop(0) if self.results else W


@dataclass
class Seen:
    """What the enumeration saw of one participant."""

    first: int = 0  # outcomes in which the engine ranks him first (alone or shared)
    first_alone_always: bool = True
    best: int = 99
    worst: int = 0
    first_with: list[Fraction] = field(default_factory=list)  # his game points when first
    not_first_alone_with: list[Fraction] = field(default_factory=list)


def enumerate_outcomes(data: SimulationInput) -> dict[int, Seen]:
    season = data.season
    playing = _Round(data)
    seen = {p.id: Seen() for p in season.participants}
    base = keeper_for(season, awarded=(data.bye_points,), rounds_left=data.rounds_left)
    start = {p.id: base.game_points(p.id) for p in season.participants}
    first_number = len(season.rounds) + 1

    def walk(keeper: ScoreKeeper, ladder: _Ladder | None, rounds: list[Round]) -> None:
        number = first_number + len(rounds)
        if len(rounds) == data.rounds_left:
            finish(keeper, rounds)
            return
        ids = [p.id for p in season.participants]
        for size in range(len(ids) + 1):
            for present in itertools.combinations(ids, size):
                probe = Scripted(set(present), ())
                playing.play(probe, number, keeper.copy(), ladder.copy() if ladder else None)
                for results in itertools.product((W, D, L), repeat=probe.boards):
                    running = keeper.copy()
                    branch = ladder.copy() if ladder else None
                    rnd = playing.play(Scripted(set(present), results), number, running, branch)
                    running.play_round(rnd)
                    if branch is not None:
                        branch.add(rnd)
                    walk(running, branch, [*rounds, rnd])

    def finish(keeper: ScoreKeeper, rounds: list[Round]) -> None:
        played = replace(season, rounds=(*season.rounds, *rounds))
        rows = standings_after(played, len(played.rounds)).rows
        firsts = [row.participant_id for row in rows if row.rank == 1]
        for row in rows:
            mine = seen[row.participant_id]
            scored = keeper.game_points(row.participant_id) - start[row.participant_id]
            mine.best = min(mine.best, row.rank)
            # his place counting everyone ranked level with him as ahead
            mine.worst = max(mine.worst, sum(r.rank <= row.rank for r in rows))
            alone = firsts == [row.participant_id]
            if row.rank == 1:
                mine.first += 1
                mine.first_with.append(scored)
            if not alone:
                mine.first_alone_always = False
                mine.not_first_alone_with.append(scored)

    ladder = None if season.round_robin else _Ladder.of(season)
    walk(base, ladder, [])
    return seen


def small_season(
    system: str, *, round_robin: bool, players: int, played: int, seed: int
) -> SeasonInput:
    rng = random.Random(seed)
    people = tuple(
        Participant(id=i, name=f"P{i}", start_rank=i, rating=1500 + 10 * i)
        for i in range(1, players + 1)
    )
    rounds = []
    for number in range(1, played + 1):
        ids = [p.id for p in people if rng.random() < 0.85]
        rng.shuffle(ids)
        games = tuple(
            Game(a, b, rng.choice((W, D, L))) for a, b in zip(ids[::2], ids[1::2], strict=False)
        )
        entries = [Entry(p.id, EntryKind.ABSENT_NOTICE) for p in people if p.id not in ids]
        if len(ids) % 2:
            entries.append(Entry(ids[-1], EntryKind.BYE, Fraction(1)))
        rounds.append(Round(number, games, tuple(entries)))
    parameters = {
        "points": {"win": Fraction(2), "draw": Fraction(1)},
        "internal-sb": {},
        "van-den-brink": {"games_per_update": 2},
        "keizer": {},
    }[system]
    if round_robin:  # a round robin plays its table: rebuild the played rounds from it
        return SeasonInput(people, (), system=system, parameters=parameters, round_robin=True)
    return SeasonInput(people, tuple(rounds), system=system, parameters=parameters)


def round_robin_so_far(season: SeasonInput, played: int, seed: int) -> SeasonInput:
    """The season's first ``played`` Berger rounds with random results, everyone present."""
    rng = random.Random(seed)
    data = SimulationInput(season, rounds_left=played)
    playing = _Round(data)
    keeper = keeper_for(season, rounds_left=played)
    rounds = []
    for number in range(1, played + 1):
        results = tuple(rng.choice((W, D, L)) for _ in range(3))
        rnd = playing.play(
            Scripted({p.id for p in season.participants}, results), number, keeper, None
        )
        keeper.play_round(rnd)
        rounds.append(rnd)
    return replace(season, rounds=tuple(rounds))


CASES = [
    pytest.param(
        system,
        round_robin,
        players,
        played,
        left,
        seed,
        id=f"{system}-{'rr' if round_robin else 'ladder'}-{players}p-{left}left-{seed}",
    )
    for system in ("points", "internal-sb", "van-den-brink", "keizer")
    for round_robin, players, played, left in (
        (False, 4, 3, 1),
        (False, 3, 2, 2),
        (True, 4, 2, 1),
        (True, 3, 1, 2),
    )
    for seed in (1, 2, 3)
]


@pytest.mark.parametrize(("system", "round_robin", "players", "played", "left", "seed"), CASES)
def test_what_is_called_certain_holds_in_every_outcome(
    system: str, round_robin: bool, players: int, played: int, left: int, seed: int
) -> None:
    season = small_season(
        system, round_robin=round_robin, players=players, played=played, seed=seed
    )
    if round_robin:
        season = round_robin_so_far(season, played, seed)
    data = SimulationInput(
        season, rounds_left=left, attendance=attendance_share(season), draw_rate=0.3
    )
    chances = simulate(data, simulations=30, seed=seed)
    seen = enumerate_outcomes(data)
    for view in outlook(data, chances):
        check(view, seen[view.participant_id])


def check(view: Outlook, seen: Seen) -> None:
    assert seen.best >= view.best_place
    assert seen.worst <= view.worst_place
    if view.first_place is FirstPlace.SECURED:
        assert seen.first_alone_always
    if view.first_place is FirstPlace.IMPOSSIBLE:
        assert seen.first == 0
        assert view.needs is None
    if view.first_place is FirstPlace.POSSIBLE:
        assert seen.first > 0
    if view.needs is not None:
        assert all(points >= view.needs for points in seen.first_with)
    if view.secures is not None:
        assert all(points < view.secures for points in seen.not_first_alone_with)


def test_points_seasons_are_decided_for_everybody() -> None:
    # Game points are exact bounds: on these seasons nobody's first place stays open.
    for system, round_robin, players, played, left, seed in [
        c.values for c in CASES if c.values[0] == "points"
    ]:
        season = small_season(
            system, round_robin=round_robin, players=players, played=played, seed=seed
        )
        if round_robin:
            season = round_robin_so_far(season, played, seed)
        data = SimulationInput(season, rounds_left=left, attendance=attendance_share(season))
        views = outlook(data, simulate(data, simulations=30, seed=seed))
        assert FirstPlace.OPEN not in {view.first_place for view in views}


def test_the_worked_example_of_docs_scoring() -> None:
    # A 3, B 2½, C 1 with one round left (points, win 1, draw ½, a bye worth 1), ladder.
    # A: lowest 3, highest 4; B: 2½ and 3½; C: 1 and 2.
    people = tuple(Participant(id=i, name=n, start_rank=i) for i, n in enumerate("ABC", start=1))
    bye = EntryKind.BYE
    season = SeasonInput(
        people,
        (
            Round(1, (Game(1, 2, W),), (Entry(3, bye, Fraction(1)),)),  # A 1, B 0, C 1
            Round(2, (Game(1, 3, W),), (Entry(2, bye, Fraction(1)),)),  # A 2, B 1, C 1
            Round(3, (Game(2, 3, W),), (Entry(1, bye, Fraction(1)),)),  # A 3, B 2, C 1
            Round(  # B 2½ (a half-point bye); A and C absent
                4,
                (),
                (
                    Entry(2, bye, Fraction(1, 2)),
                    Entry(1, EntryKind.ABSENT_NOTICE),
                    Entry(3, EntryKind.ABSENT_NOTICE),
                ),
            ),
        ),
        system="points",
    )
    data = SimulationInput(season, rounds_left=1, draw_rate=0.3)
    views = {view.participant_id: view for view in outlook(data, simulate(data, simulations=50))}
    a, b, c = views[1], views[2], views[3]
    assert (a.best_place, a.worst_place, a.needs, a.secures) == (1, 2, 0, 1)
    assert a.first_place is FirstPlace.POSSIBLE
    assert (b.best_place, b.needs, b.secures) == (1, Fraction(1, 2), None)
    assert b.first_place is FirstPlace.POSSIBLE  # a win over A: 3½ against 3
    assert (c.first_place, c.best_place, c.needs, c.secures) == (
        FirstPlace.IMPOSSIBLE,
        3,
        None,
        None,
    )
    assert check_all(data, views)


def check_all(data: SimulationInput, views: dict[int, Outlook]) -> bool:
    seen = enumerate_outcomes(data)
    for pid, view in views.items():
        check(view, seen[pid])
    return True
