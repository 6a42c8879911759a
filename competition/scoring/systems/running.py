"""Running figures: a system's standings after one more round, cheaply (for simulations).

The engine recomputes a whole season from its rounds; a simulation that asks for the standings
after every simulated round would pay that again and again. A *keeper* holds each
participant's running figures and adds one round at a time. Each system that has one defines
it in its own module, beside the readable computation it must agree with (a property test plays
random rounds through both); :class:`ScoreKeeper` is what they share.

A keeper's ranking (:meth:`ScoreKeeper.order`) is the system's figures (primary, then its
secondary ones), then game points, then the order in which the engine settles a full tie
(start rank, name, id). The engine ranks on the season's tie-breaks after the system's figures
instead of game points; a simulation asks the engine for those only where they decide
(:meth:`ScoreKeeper.figures` gives it what it needs).

Figures are whole numbers of a unit fixed at the start (every value the season can award is a
whole number of it): exact, and far faster than fractions.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import lcm

from competition.scoring.model import ParameterValues, Participant, Result, Round, SeasonInput


def settle_order(participants: Iterable[Participant]) -> dict[int, int]:
    """Position of each participant when everything else is equal: start rank (those without
    one last), then name, then id, as the engine orders a full tie."""
    ordered = sorted(
        participants, key=lambda p: (p.start_rank is None, p.start_rank or 0, p.name, p.id)
    )
    return {p.id: index for index, p in enumerate(ordered)}


def unit_of(values: Iterable[Fraction]) -> int:
    """The least common multiple of the values' denominators (and 2, for half points).

    >>> unit_of([Fraction(1, 3), Fraction(1)])
    6
    """
    return lcm(2, *(value.denominator for value in values))


WHITE_HALVES = {result: int(result.white_points * 2) for result in Result}
BLACK_HALVES = {result: int(result.black_points * 2) for result in Result}

# Two figures a and b (each far below 2^95 in absolute value) order as the pair (a, b) when
# written as one number a·SHIFT + b: sorting numbers is much faster than sorting tuples.
SHIFT = 1 << 96


class ScoreKeeper:
    """Running figures of every participant; :meth:`play_round` adds one round.

    A subclass keeps its system's figures in ``_score`` and says how they rank
    (:meth:`standing_keys`) and what they are (:meth:`primary`, :meth:`figures`).
    """

    def __init__(
        self,
        season: SeasonInput,
        parameters: ParameterValues,
        *,
        awarded: Iterable[Fraction] = (),
        rounds: int = 0,
    ) -> None:
        """``awarded``: every entry's points the season can award (byes, absences);
        ``rounds``: the most rounds the keeper will see (units that grow per round need it)."""
        self.participants = {p.id: p for p in season.participants}
        self.parameters = parameters
        self.points_unit = unit_of(awarded)
        self.game_units: dict[int, int] = dict.fromkeys(self.participants, 0)
        self.tie_order = settle_order(season.participants)
        self.round_number = 0
        self._entry_units: dict[Fraction, int] = {}
        self.prepare(season, parameters, rounds)

    def prepare(self, season: SeasonInput, parameters: ParameterValues, rounds: int) -> None:
        """What a system keeps beyond the running figures, set up once (nothing here): its units,
        start values, per-participant tables; called at the end of ``__init__``."""

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
        if not value:  # an absence's nothing: cheaper asked first than a Fraction's hash
            return 0
        known = self._entry_units.get(value)
        if known is not None:
            return known
        scaled = value * self.points_unit
        if scaled.denominator != 1:
            raise ValueError(f"{value} is not a whole number of 1/{self.points_unit}")
        self._entry_units[value] = scaled.numerator
        return scaled.numerator

    def game_points(self, pid: int) -> Fraction:
        return Fraction(self.game_units[pid], self.points_unit)

    def play_round(self, rnd: Round) -> None:
        """Add round ``rnd`` (numbered one more than the last one added)."""
        if rnd.number != self.round_number + 1:
            raise ValueError(f"round {rnd.number} after round {self.round_number}")
        self.round_number = rnd.number
        half = self.points_unit // 2
        game_units = self.game_units
        for game in rnd.games:
            game_units[game.white] += WHITE_HALVES[game.result] * half
            game_units[game.black] += BLACK_HALVES[game.result] * half
        for entry in rnd.entries:
            game_units[entry.participant] += self.units(entry.points)
        self._score(rnd)

    def _score(self, rnd: Round) -> None:
        raise NotImplementedError

    def standing_keys(self) -> dict[int, int]:
        """Per participant one whole number that orders like the system's own figures (primary,
        then secondary), highest best; equal keys are a tie on every figure of the system."""
        raise NotImplementedError

    def primary(self, pid: int) -> Fraction:
        """The system's primary score (exact)."""
        raise NotImplementedError

    def figures(self, pid: int) -> dict[str, Fraction]:
        """The system's figures by code, as the engine's standings give them."""
        raise NotImplementedError

    def order(self) -> list[int]:
        """Participant ids best first: the system's figures, game points, then start rank and
        name (see the module docstring)."""
        keys, game_units, tie_order = self.standing_keys(), self.game_units, self.tie_order
        return sorted(keys, key=lambda pid: (-keys[pid], -game_units[pid], tie_order[pid]))

    def order_among(self, pids: Iterable[int]) -> list[int]:
        """The participants ``pids`` in the order of :meth:`order` (the key orders everyone
        totally, so sorting a few of them gives their order in the whole ranking; a simulated
        ladder round sorts only the players present)."""
        keys, game_units, tie_order = self.standing_keys(), self.game_units, self.tie_order
        return sorted(pids, key=lambda pid: (-keys[pid], -game_units[pid], tie_order[pid]))
