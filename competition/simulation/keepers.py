"""The keeper a simulation scores its rounds with: the season system's own, or the engine's.

Each system with a fast path defines its keeper beside its readable computation
(:mod:`competition.scoring.systems.running` says what a keeper is):

- ``points``: :class:`~competition.scoring.systems.points.PointsKeeper`, a running sum;
- ``internal-sb``: :class:`~competition.scoring.systems.internal_sb.InternalSBKeeper`;
- ``van-den-brink``: :class:`~competition.scoring.systems.van_den_brink.VanDenBrinkKeeper`;
- ``keizer``: :class:`~competition.scoring.systems.keizer_keeper.KeizerKeeper`, the system's own
  terms and ranking kept between rounds (ties in score without the season's tie-breaks).

Anything a keeper does not model (a change of rules from a later round, external games that
count with their result, a system without a keeper) is scored by :class:`EngineKeeper`: the
real engine after every round, exact and slow.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction

from competition.scoring.engine import rules_from_later_round, standings_after
from competition.scoring.model import ParameterValues, Round, SeasonInput
from competition.scoring.registry import get_system
from competition.scoring.systems.internal_sb import InternalSBKeeper
from competition.scoring.systems.keizer_keeper import KeizerKeeper
from competition.scoring.systems.points import PointsKeeper
from competition.scoring.systems.running import ScoreKeeper, settle_order
from competition.scoring.systems.van_den_brink import VanDenBrinkKeeper

ZERO = Fraction(0)


class EngineKeeper(ScoreKeeper):
    """Any season: the scoring engine on every round so far (exact, with the season's
    tie-breaks; slow)."""

    def prepare(self, season: SeasonInput, parameters: ParameterValues, rounds: int) -> None:
        self.season = season
        self.rounds: list[Round] = []
        self.codes = get_system(season.system).figure_codes
        self.ranking: list[int] = sorted(self.participants, key=self.tie_order.__getitem__)
        self.ranks: dict[int, int] = dict.fromkeys(self.participants, 1)
        self.values: dict[int, dict[str, Fraction]] = {
            pid: dict.fromkeys(self.codes, ZERO) for pid in self.participants
        }

    def _copy_into(self, twin: ScoreKeeper) -> None:
        assert isinstance(twin, EngineKeeper)
        twin.rounds = list(self.rounds)

    def _score(self, rnd: Round) -> None:
        self.rounds.append(rnd)
        season = replace(self.season, rounds=tuple(self.rounds))
        rows = standings_after(season, rnd.number).rows
        self.ranking = [row.participant_id for row in rows]
        self.ranks = {row.participant_id: row.rank for row in rows}
        self.values = {
            row.participant_id: {code: row.values[code] for code in self.codes} for row in rows
        }

    def standing_keys(self) -> dict[int, int]:
        """The engine's ranks (the season's tie-breaks included): equal only when equal on
        every criterion."""
        return {pid: -rank for pid, rank in self.ranks.items()}

    def order(self) -> list[int]:
        return list(self.ranking)

    def order_among(self, pids: Iterable[int]) -> list[int]:
        chosen = set(pids)
        return [pid for pid in self.ranking if pid in chosen]

    def primary(self, pid: int) -> Fraction:
        return self.values[pid][self.codes[0]]

    def figures(self, pid: int) -> dict[str, Fraction]:
        return dict(self.values[pid])


_KEEPERS: dict[str, type[ScoreKeeper]] = {
    "points": PointsKeeper,
    "internal-sb": InternalSBKeeper,
    "van-den-brink": VanDenBrinkKeeper,
    "keizer": KeizerKeeper,
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
    how many rounds will follow. ``incremental=False``, or a season its system's keeper does not
    model, gives the engine's.
    """
    system = get_system(season.system)
    parameters = system.validate(season.parameters)
    keeper_class = _KEEPERS.get(system.key, EngineKeeper) if incremental else EngineKeeper
    handles = getattr(keeper_class, "handles", None)
    if rules_from_later_round(season) or (handles is not None and not handles(season, parameters)):
        keeper_class = EngineKeeper
    awarded = [*awarded, *(e.points for rnd in season.rounds for e in rnd.entries)]
    keeper = keeper_class(  # the completed rounds are added below, one at a time
        season,
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
    "KeizerKeeper",
    "PointsKeeper",
    "ScoreKeeper",
    "VanDenBrinkKeeper",
    "keeper_for",
    "settle_order",
]
