"""Chances of first place and of the top three, by playing the remaining rounds many times.

The model, per simulated round (docs/scoring.md, "Can I still win?"):

- **Attendance**: each participant who has joined by then comes with probability equal to his
  share of rounds present so far (a game, or a bye; not an absence or a forfeit he lost).
- **Pairing**: a ladder season is paired by the real pairing engine
  (:func:`competition.pairing.pair_round`) from the simulated standings, with the season's
  pairing rules; a round-robin season plays its Berger table (an absent player loses by
  forfeit). The odd player out gets the season's bye points.
- **Results**: the Elo expected score of white, E = 1 / (1 + 10^((Rb − Ra) / 400)), with the
  club's observed draw rate d: P(draw) = min(d, 2·min(E, 1 − E)), P(white wins) =
  E − P(draw)/2, P(black wins) = 1 − E − P(draw)/2, so the expected score stays E.
- **Scoring**: the season's own system and parameters, one round at a time
  (:mod:`competition.simulation.keepers`), ranked on the system's figures and game points.

A participant's chance is the share of simulations he finishes in that place; its margin of
error (95 %) is 1.96·sqrt(p(1 − p)/N). "What do I need" is the fewest game points scored in the
remaining rounds with which he finished first in at least one simulation.

Worked example: a game-points season, one round left, A has 3 points, B 1½, C 1. Nobody can
catch A (at most one more point each), so A's chance of first place is exactly 1 in every
simulation and B's and C's are 0.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from competition.pairing import PairingRequest, PlayedGame, PresentPlayer, pair_round
from competition.pairing.berger import berger_cycle_round
from competition.scoring.model import Entry, EntryKind, Game, Result, Round, SeasonInput
from competition.simulation.keepers import ScoreKeeper, keeper_for, settle_order

DEFAULT_RATING = 1500
TOP = 3  # "the top three"


@dataclass(frozen=True, slots=True)
class PairingRules:
    """The season's pairing rules as the pairing engine takes them (ladder seasons)."""

    rematch_window: int = 3
    forbidden_pairs: tuple[tuple[int, int], ...] = ()
    max_meetings: int | None = None
    reverse_colours_at_rematch: bool = False
    max_allocated_byes: int | None = None


@dataclass(frozen=True, slots=True)
class SimulationInput:
    """The season so far (completed rounds, rules) and what the model assumes about the rest.

    ``categories`` (prize categories, by name: their members) are counted when given: the
    best placed member of a category wins it. ``ratings`` and ``attendance`` need not name
    everybody: see :func:`simulate`.
    """

    season: SeasonInput
    rounds_left: int
    ratings: Mapping[int, int] = field(default_factory=dict)
    attendance: Mapping[int, float] = field(default_factory=dict)
    draw_rate: float = 0.0
    bye_points: Fraction = Fraction(1)
    pairing: PairingRules = PairingRules()
    categories: Mapping[str, frozenset[int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PlayerChances:
    participant_id: int
    first: int  # simulations he finished first in
    top_three: int
    categories: Mapping[str, int]  # simulations he won the category in
    # the fewest game points in the remaining rounds with which he finished first (None: never)
    needed_for_first: Fraction | None


@dataclass(frozen=True, slots=True)
class Chances:
    simulations: int
    rounds_left: int
    seed: int
    draw_rate: float
    players: tuple[PlayerChances, ...]  # in the current standing order (the simulation's)

    def share(self, count: int) -> float:
        return count / self.simulations if self.simulations else 0.0


def expected_score(rating: float, opponent: float) -> float:
    """Elo's expected score. ``expected_score(1600, 1400)`` is 1/(1 + 10^(−0.5)) ≈ 0.760."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def result_probabilities(
    white: float, black: float, draw_rate: float
) -> tuple[float, float, float]:
    """P(white wins), P(draw), P(black wins).

    >>> result_probabilities(1500, 1500, 0.3)
    (0.35, 0.3, 0.35)
    """
    e = expected_score(white, black)
    draw = min(draw_rate, 2.0 * min(e, 1.0 - e))
    return e - draw / 2.0, draw, 1.0 - e - draw / 2.0


def margin_of_error(share: float, simulations: int) -> float:
    """Half the width of the 95 % interval of a share: 1.96·sqrt(p(1 − p)/N).

    >>> round(margin_of_error(0.5, 1000), 4)
    0.031
    """
    if simulations <= 0:
        return 0.0
    return 1.96 * math.sqrt(share * (1.0 - share) / simulations)


def attendance_share(season: SeasonInput) -> dict[int, float]:
    """Each participant's share of completed rounds present (from the round he joined).

    Present: a game he did not lose by forfeit, or a bye. A participant without such rounds
    yet gets the mean share of the others (1 when nobody has any); one who withdrew from the
    season never comes again (0).
    """
    present: dict[int, int] = {}
    rounds: dict[int, int] = {}
    for participant in season.participants:
        taking_part = [r for r in season.rounds if r.number >= participant.joined_round]
        rounds[participant.id] = len(taking_part)
        present[participant.id] = 0
    for rnd in season.rounds:
        for game in rnd.games:
            if game.result is not Result.DOUBLE_FORFEIT:
                if game.result is not Result.BLACK_WINS_FORFEIT:
                    present[game.white] = present.get(game.white, 0) + 1
                if game.result is not Result.WHITE_WINS_FORFEIT:
                    present[game.black] = present.get(game.black, 0) + 1
        for entry in rnd.entries:
            if entry.kind is EntryKind.BYE:
                present[entry.participant] = present.get(entry.participant, 0) + 1
    known = {pid: min(1.0, present[pid] / count) for pid, count in rounds.items() if count}
    mean = sum(known.values()) / len(known) if known else 1.0
    return {
        p.id: 0.0 if p.withdrawn_round is not None else known.get(p.id, mean)
        for p in season.participants
    }


def draw_rate_of(rounds: Iterable[Round]) -> float:
    """The share of draws among games played over the board (0 without games)."""
    played = draws = 0
    for rnd in rounds:
        for game in rnd.games:
            if game.result.is_played:
                played += 1
                draws += game.result is Result.DRAW
    return draws / played if played else 0.0


@dataclass(slots=True)
class _Ladder:
    """What the pairing engine needs to know of the season so far (games over the board)."""

    whites: dict[int, int]
    blacks: dict[int, int]
    byes: dict[int, int]
    last_byes: set[int]
    previous: list[PlayedGame]

    @classmethod
    def of(cls, season: SeasonInput) -> _Ladder:
        ladder = cls({}, {}, {}, set(), [])
        for rnd in season.rounds:
            ladder.add(rnd)
        return ladder

    def copy(self) -> _Ladder:
        return _Ladder(
            dict(self.whites), dict(self.blacks), dict(self.byes), set(self.last_byes),
            list(self.previous),
        )  # fmt: skip

    def add(self, rnd: Round) -> None:
        for game in rnd.games:
            if game.result.is_played:
                self.whites[game.white] = self.whites.get(game.white, 0) + 1
                self.blacks[game.black] = self.blacks.get(game.black, 0) + 1
                self.previous.append(PlayedGame(rnd.number, game.white, game.black))
        self.last_byes = {e.participant for e in rnd.entries if e.kind is EntryKind.BYE}
        for pid in self.last_byes:
            self.byes[pid] = self.byes.get(pid, 0) + 1


def _result(rng: random.Random, white: float, black: float, draw_rate: float) -> Result:
    white_wins, draw, _ = result_probabilities(white, black, draw_rate)
    u = rng.random()
    if u < white_wins:
        return Result.WHITE_WINS
    if u < white_wins + draw:
        return Result.DRAW
    return Result.BLACK_WINS


class _Round:
    """Plays one simulated round: who comes, who plays whom, the results."""

    def __init__(self, data: SimulationInput) -> None:
        season = data.season
        self.data = data
        self.participants = season.participants
        known = [r for r in data.ratings.values() if r]
        default = round(sum(known) / len(known)) if known else DEFAULT_RATING
        self.rating = {p.id: data.ratings.get(p.id) or default for p in season.participants}
        self.attendance = {p.id: data.attendance.get(p.id, 1.0) for p in season.participants}
        settle = settle_order(season.participants)
        self.start_order = sorted(settle, key=settle.__getitem__)
        self.joined = {p.id: p.joined_round for p in season.participants}
        # (players, round) -> the Berger round: the same in every simulation
        self.berger: dict[tuple[int, int], tuple[list[tuple[int, int]], int | None]] = {}

    def play(
        self, rng: random.Random, number: int, keeper: ScoreKeeper, ladder: _Ladder | None
    ) -> Round:
        taking_part = [pid for pid in self.start_order if self.joined[pid] <= number]
        present = {pid for pid in taking_part if rng.random() < self.attendance[pid]}
        if ladder is None:
            return self._berger(rng, number, taking_part, present)
        return self._ladder(rng, number, keeper, ladder, taking_part, present)

    def _game(self, rng: random.Random, white: int, black: int) -> Game:
        result = _result(rng, self.rating[white], self.rating[black], self.data.draw_rate)
        return Game(white, black, result)

    def _berger(
        self, rng: random.Random, number: int, taking_part: list[int], present: set[int]
    ) -> Round:
        if len(taking_part) < 2:
            return Round(number)
        key = (len(taking_part), number)
        if key not in self.berger:
            self.berger[key] = berger_cycle_round(*key)
        pairs, bye_no = self.berger[key]
        games: list[Game] = []
        for white_no, black_no in pairs:
            white, black = taking_part[white_no - 1], taking_part[black_no - 1]
            if white in present and black in present:
                games.append(self._game(rng, white, black))
            elif white in present:
                games.append(Game(white, black, Result.WHITE_WINS_FORFEIT))
            elif black in present:
                games.append(Game(white, black, Result.BLACK_WINS_FORFEIT))
            else:
                games.append(Game(white, black, Result.DOUBLE_FORFEIT))
        entries: tuple[Entry, ...] = ()
        if bye_no is not None:
            entries = (Entry(taking_part[bye_no - 1], EntryKind.BYE, self.data.bye_points),)
        return Round(number, tuple(games), entries)

    def _ladder(
        self,
        rng: random.Random,
        number: int,
        keeper: ScoreKeeper,
        ladder: _Ladder,
        taking_part: list[int],
        present: set[int],
    ) -> Round:
        absent = [Entry(pid, EntryKind.ABSENT_NOTICE) for pid in taking_part if pid not in present]
        if not present:
            return Round(number, (), tuple(absent))
        rules = self.data.pairing
        standing = [pid for pid in keeper.order() if pid in present]
        players = tuple(
            PresentPlayer(
                player_id=pid,
                rank=rank,
                whites=ladder.whites.get(pid, 0),
                blacks=ladder.blacks.get(pid, 0),
                byes=ladder.byes.get(pid, 0),
                had_bye_last_round=pid in ladder.last_byes,
                allocated_byes=ladder.byes.get(pid, 0),
            )
            for rank, pid in enumerate(standing, start=1)
        )
        proposal = pair_round(
            PairingRequest(
                round_number=number,
                players=players,
                previous_games=tuple(ladder.previous),
                rematch_window=rules.rematch_window,
                forbidden_pairs=rules.forbidden_pairs,
                max_meetings=rules.max_meetings,
                reverse_colours_at_rematch=rules.reverse_colours_at_rematch,
                max_allocated_byes=rules.max_allocated_byes,
            )
        )
        games = tuple(self._game(rng, b.white_id, b.black_id) for b in proposal.boards)
        entries = list(absent)
        if proposal.bye_id is not None:
            entries.append(Entry(proposal.bye_id, EntryKind.BYE, self.data.bye_points))
        return Round(number, games, tuple(entries))


def simulate(
    data: SimulationInput, *, simulations: int = 1000, seed: int = 0, incremental: bool = True
) -> Chances:
    """Play the remaining rounds ``simulations`` times (seeded: the same input and seed give
    the same chances) and count the places.

    Participants missing from ``data.ratings`` get the mean of the known ratings (1500 when
    none is known); missing from ``data.attendance``, they always come.
    """
    season = data.season
    base = keeper_for(
        season,
        awarded=(data.bye_points,),
        rounds_left=data.rounds_left,
        incremental=incremental,
    )
    base_ladder = None if season.round_robin else _Ladder.of(season)
    playing = _Round(data)
    rng = random.Random(seed)
    first = dict.fromkeys(base.participants, 0)
    top = dict.fromkeys(base.participants, 0)
    category_wins: dict[int, dict[str, int]] = {pid: {} for pid in base.participants}
    needed: dict[int, Fraction | None] = dict.fromkeys(base.participants)
    start_round = base.round_number + 1
    for _ in range(simulations):
        keeper = base.copy()
        ladder = base_ladder.copy() if base_ladder is not None else None
        for number in range(start_round, start_round + data.rounds_left):
            rnd = playing.play(rng, number, keeper, ladder)
            keeper.play_round(rnd)
            if ladder is not None:
                ladder.add(rnd)
        order = keeper.order()
        winner = order[0]
        first[winner] += 1
        for pid in order[:TOP]:
            top[pid] += 1
        scored = keeper.game_points(winner) - base.game_points(winner)
        best = needed[winner]
        needed[winner] = scored if best is None else min(best, scored)
        for name, members in data.categories.items():
            best_member = next((pid for pid in order if pid in members), None)
            if best_member is not None:
                wins = category_wins[best_member]
                wins[name] = wins.get(name, 0) + 1
    return Chances(
        simulations=simulations,
        rounds_left=data.rounds_left,
        seed=seed,
        draw_rate=data.draw_rate,
        players=tuple(
            PlayerChances(pid, first[pid], top[pid], category_wins[pid], needed[pid])
            for pid in base.order()
        ),
    )
