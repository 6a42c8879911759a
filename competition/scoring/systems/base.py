"""The interface every ranking system implements, and the context the engine hands it.

A system turns each participant's round records into figures per round: its primary score
(what the standings are sorted on) and any secondary figures (tie-break-like values of its own,
such as the internal points of the SB system). The engine sorts on the primary score, then the
system's secondary figures, then the season's tie-breaks.

Systems whose figures depend on the ranking itself (the Keizer system: a game is worth the
opponent's value, and the value follows from his place in the standings) set
``ranking_dependent = True``. The engine then calls :meth:`RankingSystem.compute` again with the
ranking the previous pass produced (one ``{participant id: rank}`` mapping per round), until the
ranking no longer changes or ``max_iterations`` passes have been made. Systems that do not
depend on the ranking ignore ``previous_ranks`` and are computed once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from competition.scoring.model import Contribution, ParameterValue, Participant, SeasonInput
from competition.scoring.parameters import ParameterSpec, validate_parameters
from competition.scoring.records import RoundRecord
from competition.scoring.systems.units import RecordDigest


@dataclass(frozen=True, slots=True)
class SystemContext:
    """What a system reads: the season and every participant's records up to ``upto_round``."""

    season: SeasonInput
    upto_round: int
    records: Mapping[int, tuple[RoundRecord, ...]]  # rounds 1..upto_round, in order
    participants: Mapping[int, Participant]
    digest: RecordDigest  # the same records as plain integers, for inner loops


@dataclass(frozen=True, slots=True)
class SystemRound:
    """A system's figures after one round: per participant, every figure by code."""

    round_number: int  # 0 for the figures before the first round
    figures: Mapping[int, Mapping[str, Fraction]]


class RankingSystem(ABC):
    """A ranking system: names, description, parameters and the computation."""

    key: str
    name: str  # English, marked with gettext_noop; competition.labels translates it
    description: str  # likewise
    parameters: tuple[ParameterSpec, ...] = ()
    primary: str  # the code of the primary score, e.g. "SB"
    secondary: tuple[str, ...] = ()  # codes ranked on after the primary score, before tie-breaks
    ranking_dependent: bool = False
    max_iterations: int = 1

    @property
    def figure_codes(self) -> tuple[str, ...]:
        """Every code this system writes into a standings row's values."""
        return (self.primary, *self.secondary)

    def validate(self, raw: Mapping[str, object]) -> dict[str, ParameterValue]:
        """Every parameter from ``raw`` or its default; see :func:`validate_parameters`."""
        return validate_parameters(self.parameters, raw)

    @abstractmethod
    def compute(
        self,
        context: SystemContext,
        parameters: Mapping[str, ParameterValue],
        *,
        every_round: bool = True,
        previous_ranks: Sequence[Mapping[int, int]] | None = None,
    ) -> tuple[SystemRound, ...]:
        """The figures after rounds 0..upto_round (``every_round``) or after upto_round only.

        ``parameters`` are already validated. ``previous_ranks`` (ranking-dependent systems only)
        holds the previous pass's ranking after rounds 0..upto_round, or None on the first pass.
        """

    @abstractmethod
    def explain(
        self,
        context: SystemContext,
        parameters: Mapping[str, ParameterValue],
        participant_id: int,
    ) -> tuple[Contribution, ...]:
        """The lines that make up the participant's figures after ``context.upto_round``."""
