"""Incremental scoring for the simulation: the standings after one more round, cheaply.

The scoring engine recomputes a whole season from its rounds; a simulation that asks for the
standings after every simulated round would pay that again and again. A *keeper* holds each
participant's running figures and adds one round at a time, by the same rules as the season's
system (:mod:`competition.scoring.systems`):

- ``points``: the round's points (win, draw, loss; an entry's points as the system counts them);
- ``internal-sb``: internal points grow by the round's game points plus the unplayed value for a
  round without a game over the board, and each participant's summed score against each
  opponent grows by the round's game; SB = Σ (score against an opponent) × (his internal
  points now) is summed only when a ranking is asked for (every round in a ladder season, once
  at the end of a round robin);
- ``van-den-brink``: per counted game the result part plus factor × (opponent's rank value −
  own rank value) at the start of the round; the rank value becomes the points after every N
  games (or only after the first N);
- any other system (the ranking-dependent Keizer system): the real engine, after every round
  (exact, but slow).

The ranking inside the simulation is the system's primary score, then its own secondary
figures (internal points), then game points, then start rank and name, as the engine settles
full ties. The season's tie-breaks are not computed (they rarely decide first place and would
cost a full computation per round); :class:`EngineKeeper` ranks exactly as the engine does.

Worked example (internal-sb, unplayed value ½): after round 1 A beat B and C had the bye
(1 point). IP: A 1, B 0, C 1 + ½ = 1½. SB: A = 1 × IP(B) = 0. In round 2 B beats C and A is
absent: IP A 1 + ½ = 1½, B 1, C 1½. A's SB is now 1 × IP(B) = 1; B's SB is
1 × IP(C) = 1½.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from math import lcm

from competition.scoring.engine import standings_after
from competition.scoring.model import (
    Entry,
    ParameterValue,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from competition.scoring.registry import get_system
from competition.scoring.systems.van_den_brink import EVERY_N, start_points_of

HALF = Fraction(1, 2)
ZERO = Fraction(0)


def settle_order(participants: Iterable[Participant]) -> dict[int, int]:
    """Position of each participant when everything else is equal: start rank (those without
    one last), then name, then id, as the engine orders a full tie."""
    ordered = sorted(
        participants, key=lambda p: (p.start_rank is None, p.start_rank or 0, p.name, p.id)
    )
    return {p.id: index for index, p in enumerate(ordered)}


def _unit_of(values: Iterable[Fraction]) -> int:
    """The least common multiple of the values' denominators (and 2, for half points)."""
    return lcm(2, *(value.denominator for value in values))


class ScoreKeeper:
    """Running figures of every participant; :meth:`play_round` adds one round.

    Figures are kept as whole numbers of a unit fixed at the start (``unit``: every value the
    season can award is a whole number of it), which is exact and far faster than fractions.
    """

    def __init__(
        self,
        season: SeasonInput,
        parameters: Mapping[str, ParameterValue],
        *,
        awarded: Iterable[Fraction] = (),
        rounds: int = 0,
    ) -> None:
        """``awarded``: every entry's points the season can award (byes, absences);
        ``rounds``: the most rounds the keeper will see (units that grow per round need it)."""
        self.participants = {p.id: p for p in season.participants}
        self.parameters = parameters
        self.points_unit = _unit_of(awarded)
        self.game_units: dict[int, int] = dict.fromkeys(self.participants, 0)
        self.tie_order = settle_order(season.participants)
        self.round_number = 0

    def copy(self) -> ScoreKeeper:
        """An independent keeper with the same figures (one per simulation)."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.game_units = dict(self.game_units)
        self._copy_into(twin)
        return twin

    def _copy_into(self, twin: ScoreKeeper) -> None:
        """Copy the subclass's mutable figures into ``twin``."""

    def units(self, value: Fraction) -> int:
        """``value`` in game-point units (exact: the unit divides every awarded value)."""
        scaled = value * self.points_unit
        if scaled.denominator != 1:
            raise ValueError(f"{value} is not a whole number of 1/{self.points_unit}")
        return scaled.numerator

    def game_points(self, pid: int) -> Fraction:
        return Fraction(self.game_units[pid], self.points_unit)

    def play_round(self, rnd: Round) -> None:
        """Add round ``rnd`` (numbered one more than the last one added)."""
        if rnd.number != self.round_number + 1:
            raise ValueError(f"round {rnd.number} after round {self.round_number}")
        self.round_number = rnd.number
        unit = self.points_unit
        game_units = self.game_units
        for game in rnd.games:
            game_units[game.white] += _WHITE_HALVES[game.result] * unit // 2
            game_units[game.black] += _BLACK_HALVES[game.result] * unit // 2
        for entry in rnd.entries:
            game_units[entry.participant] += self.units(entry.points)
        self._score(rnd)

    def _score(self, rnd: Round) -> None:
        raise NotImplementedError

    def sort_key(self, pid: int) -> tuple[int, ...]:
        """The primary score and the system's secondary figures in units, negated (best
        first), then game points negated, then the settling order."""
        raise NotImplementedError

    def primary(self, pid: int) -> Fraction:
        """The system's primary score (exact)."""
        raise NotImplementedError

    def order(self) -> list[int]:
        """Participant ids best first: figures, game points, then start rank and name."""
        return sorted(self.participants, key=self.sort_key)


_WHITE_HALVES = {result: int(result.white_points * 2) for result in Result}
_BLACK_HALVES = {result: int(result.black_points * 2) for result in Result}


class PointsKeeper(ScoreKeeper):
    """The ``points`` system: a running sum (see :mod:`competition.scoring.systems.points`)."""

    def __init__(
        self,
        season: SeasonInput,
        parameters: Mapping[str, ParameterValue],
        *,
        awarded: Iterable[Fraction] = (),
        rounds: int = 0,
    ) -> None:
        super().__init__(season, parameters, awarded=awarded, rounds=rounds)
        win, draw, loss = (Fraction(parameters[name]) for name in ("win", "draw", "loss"))
        self.win = win
        self.unit = lcm(win.denominator, draw.denominator, loss.denominator) * self.points_unit
        self.win_units, self.draw_units, self.loss_units = (
            (value * self.unit).numerator for value in (win, draw, loss)
        )
        self.points: dict[int, int] = dict.fromkeys(self.participants, 0)

    def _copy_into(self, twin: ScoreKeeper) -> None:
        assert isinstance(twin, PointsKeeper)
        twin.points = dict(self.points)

    def _game_units(self, result: Result, halves: int) -> int:
        if not (result.is_played or result.is_forfeit):
            return 0
        return (
            self.win_units if halves == 2 else self.draw_units if halves == 1 else self.loss_units
        )

    def _entry_units(self, entry: Entry) -> int:
        if entry.points == 0:
            return 0
        if entry.points == HALF:
            return self.draw_units
        return (entry.points * self.win * self.unit).numerator

    def _score(self, rnd: Round) -> None:
        points = self.points
        for game in rnd.games:
            result = game.result
            points[game.white] += self._game_units(result, _WHITE_HALVES[result])
            points[game.black] += self._game_units(result, _BLACK_HALVES[result])
        for entry in rnd.entries:
            points[entry.participant] += self._entry_units(entry)

    def sort_key(self, pid: int) -> tuple[int, ...]:
        return (-self.points[pid], -self.game_units[pid], self.tie_order[pid])

    def primary(self, pid: int) -> Fraction:
        return Fraction(self.points[pid], self.unit)


class InternalSBKeeper(ScoreKeeper):
    """The internal SB competition (seed 000): SB, then internal points.

    Internal points are kept in units of 1/U (U: the game-point unit times the unplayed
    value's denominator), SB in units of 1/(2U): a score in halves times internal points.
    """

    def __init__(
        self,
        season: SeasonInput,
        parameters: Mapping[str, ParameterValue],
        *,
        awarded: Iterable[Fraction] = (),
        rounds: int = 0,
    ) -> None:
        super().__init__(season, parameters, awarded=awarded, rounds=rounds)
        unplayed = Fraction(parameters["unplayed_value"])
        self.scale = unplayed.denominator
        self.unit = self.points_unit * self.scale
        self.unplayed_units = (unplayed * self.unit).numerator
        self.count_before_joining = bool(parameters["count_rounds_before_joining"])
        self.internal_points: dict[int, int] = dict.fromkeys(self.participants, 0)
        self._sonneborn_berger: dict[int, int] | None = None
        # opponent -> {participant who scored against him: summed score in halves}
        self.scored_against: dict[int, dict[int, int]] = {pid: {} for pid in self.participants}

    def _copy_into(self, twin: ScoreKeeper) -> None:
        assert isinstance(twin, InternalSBKeeper)
        twin.internal_points = dict(self.internal_points)
        twin.scored_against = {pid: dict(row) for pid, row in self.scored_against.items()}

    def _score(self, rnd: Round) -> None:
        scale, unit = self.scale, self.unit
        gained = dict.fromkeys(self.participants, 0)
        over_the_board: set[int] = set()
        new_scores: list[tuple[int, int, int]] = []  # (scorer, opponent, score in halves)
        for game in rnd.games:
            result = game.result
            white_halves, black_halves = _WHITE_HALVES[result], _BLACK_HALVES[result]
            gained[game.white] += white_halves * unit // 2
            gained[game.black] += black_halves * unit // 2
            if result.is_played:
                over_the_board.update((game.white, game.black))
                if white_halves:
                    new_scores.append((game.white, game.black, white_halves))
                if black_halves:
                    new_scores.append((game.black, game.white, black_halves))
        for entry in rnd.entries:
            gained[entry.participant] += self.units(entry.points) * scale
        for pid, participant in self.participants.items():
            if pid not in over_the_board and (
                self.count_before_joining or rnd.number >= participant.joined_round
            ):
                gained[pid] += self.unplayed_units
        internal_points, scored_against = self.internal_points, self.scored_against
        for pid, change in gained.items():
            internal_points[pid] += change
        for scorer, opponent, halves in new_scores:
            row = scored_against[opponent]
            row[scorer] = row.get(scorer, 0) + halves
        self._sonneborn_berger = None

    @property
    def sonneborn_berger(self) -> dict[int, int]:
        """SB of everybody in units of 1/(2U), computed when first asked after a round (a
        round robin asks only at the end)."""
        if self._sonneborn_berger is None:
            sb = dict.fromkeys(self.participants, 0)
            internal_points = self.internal_points
            for opponent, row in self.scored_against.items():
                value = internal_points[opponent]
                for scorer, halves in row.items():
                    sb[scorer] += halves * value
            self._sonneborn_berger = sb
        return self._sonneborn_berger

    def order(self) -> list[int]:
        sb = self.sonneborn_berger
        internal_points, game_units, tie_order = (
            self.internal_points, self.game_units, self.tie_order,
        )  # fmt: skip
        return sorted(
            self.participants,
            key=lambda pid: (-sb[pid], -internal_points[pid], -game_units[pid], tie_order[pid]),
        )

    def sort_key(self, pid: int) -> tuple[int, ...]:
        return (
            -self.sonneborn_berger[pid],
            -self.internal_points[pid],
            -self.game_units[pid],
            self.tie_order[pid],
        )

    def primary(self, pid: int) -> Fraction:
        return Fraction(self.sonneborn_berger[pid], 2 * self.unit)

    def internal(self, pid: int) -> Fraction:
        return Fraction(self.internal_points[pid], self.unit)


class VanDenBrinkKeeper(ScoreKeeper):
    """The Van den Brink system (seed 001): points and rank values, game by game.

    As in the engine, the unit is the parts' and start points' common denominator times the
    factor's denominator once per round (a rank value update can bring in one more).
    """

    def __init__(
        self,
        season: SeasonInput,
        parameters: Mapping[str, ParameterValue],
        *,
        awarded: Iterable[Fraction] = (),
        rounds: int = 0,
    ) -> None:
        super().__init__(season, parameters, awarded=awarded, rounds=rounds)
        parts = [Fraction(parameters[name]) for name in ("win_part", "draw_part", "loss_part")]
        factor = Fraction(parameters["factor"])
        start = {pid: start_points_of(p, parameters) for pid, p in self.participants.items()}
        base = lcm(*(value.denominator for value in (*parts, *start.values())))
        self.unit = base * factor.denominator ** (max(rounds, len(season.rounds)) + 1)
        self.part_units = {
            2 - index: (part * self.unit).numerator for index, part in enumerate(parts)
        }
        self.factor = factor
        self.games_per_update = int(parameters["games_per_update"])
        self.every_n = parameters["update_mode"] == EVERY_N
        self.forfeits_count = bool(parameters["forfeits_count"])
        self.points: dict[int, int] = {pid: (v * self.unit).numerator for pid, v in start.items()}
        self.rank_value: dict[int, int] = dict(self.points)
        self.games: dict[int, int] = dict.fromkeys(self.participants, 0)

    def _copy_into(self, twin: ScoreKeeper) -> None:
        assert isinstance(twin, VanDenBrinkKeeper)
        twin.points = dict(self.points)
        twin.rank_value = dict(self.rank_value)
        twin.games = dict(self.games)

    def _counted(self, result: Result) -> bool:
        if result.is_played:
            return True
        return self.forfeits_count and result.is_forfeit and result is not Result.DOUBLE_FORFEIT

    def _score(self, rnd: Round) -> None:
        rank_value, points = self.rank_value, self.points  # rank values: the round's start
        numerator, denominator = self.factor.numerator, self.factor.denominator
        played: list[int] = []
        for game in rnd.games:
            if not self._counted(game.result):
                continue
            white, black = game.white, game.black
            compensation, remainder = divmod(
                numerator * (rank_value[black] - rank_value[white]), denominator
            )
            if remainder:
                raise ValueError("more rounds than the keeper's unit allows")
            points[white] += self.part_units[_WHITE_HALVES[game.result]] + compensation
            points[black] += self.part_units[_BLACK_HALVES[game.result]] - compensation
            played += (white, black)
        for pid in played:
            self.games[pid] += 1
            count = self.games[pid]
            if count % self.games_per_update == 0 and (
                self.every_n or count == self.games_per_update
            ):
                rank_value[pid] = points[pid]

    def sort_key(self, pid: int) -> tuple[int, ...]:
        return (-self.points[pid], -self.game_units[pid], self.tie_order[pid])

    def primary(self, pid: int) -> Fraction:
        return Fraction(self.points[pid], self.unit)


class EngineKeeper(ScoreKeeper):
    """Any other system: the scoring engine on every round so far (exact, slow)."""

    def __init__(
        self,
        season: SeasonInput,
        parameters: Mapping[str, ParameterValue],
        *,
        awarded: Iterable[Fraction] = (),
        rounds: int = 0,
    ) -> None:
        super().__init__(season, parameters, awarded=awarded, rounds=rounds)
        self.season = replace(season, rounds=())
        self.rounds: list[Round] = []
        self.ranking: list[int] = [pid for pid, _ in sorted(self.tie_order.items(), key=_second)]
        self.scores: dict[int, Fraction] = dict.fromkeys(self.participants, ZERO)

    def _copy_into(self, twin: ScoreKeeper) -> None:
        assert isinstance(twin, EngineKeeper)
        twin.rounds = list(self.rounds)
        twin.ranking = list(self.ranking)
        twin.scores = dict(self.scores)

    def _score(self, rnd: Round) -> None:
        self.rounds.append(rnd)
        season = replace(self.season, rounds=tuple(self.rounds))
        rows = standings_after(season, rnd.number).rows
        self.ranking = [row.participant_id for row in rows]
        self.scores = {row.participant_id: row.score for row in rows}

    def sort_key(self, pid: int) -> tuple[int, ...]:
        return (self.ranking.index(pid),)

    def primary(self, pid: int) -> Fraction:
        return self.scores[pid]

    def order(self) -> list[int]:
        return list(self.ranking)


def _second(item: tuple[int, int]) -> int:
    return item[1]


_KEEPERS: dict[str, type[ScoreKeeper]] = {
    "points": PointsKeeper,
    "internal-sb": InternalSBKeeper,
    "van-den-brink": VanDenBrinkKeeper,
}


def keeper_for(
    season: SeasonInput,
    *,
    awarded: Iterable[Fraction] = (),
    rounds_left: int = 0,
    incremental: bool = True,
) -> ScoreKeeper:
    """A keeper for the season's system with its completed rounds already added.

    ``awarded``: entry points the simulated rounds will award (the bye points); ``rounds_left``:
    how many rounds will follow. ``incremental=False`` (or a system without an incremental
    keeper, such as Keizer) gives the engine's.
    """
    system = get_system(season.system)
    parameters = system.validate(season.parameters)
    keeper_class = _KEEPERS.get(system.key, EngineKeeper) if incremental else EngineKeeper
    awarded = [*awarded, *(e.points for rnd in season.rounds for e in rnd.entries)]
    keeper = keeper_class(
        replace(season, rounds=()),
        parameters,
        awarded=awarded,
        rounds=len(season.rounds) + rounds_left,
    )
    for rnd in season.rounds:
        keeper.play_round(rnd)
    return keeper


__all__ = [
    "EngineKeeper",
    "InternalSBKeeper",
    "PointsKeeper",
    "ScoreKeeper",
    "VanDenBrinkKeeper",
    "keeper_for",
    "settle_order",
]
