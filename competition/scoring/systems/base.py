"""The interface every ranking system implements, and the context the engine hands it.

A system turns each participant's round records into figures per round: its primary score
(what the standings are sorted on) and any secondary figures (tie-break-like values of its own,
such as the internal points of the SB system). The engine sorts on the primary score, then the
system's secondary figures, then the season's tie-breaks.

Systems whose figures depend on the ranking itself (the Keizer system: a game is worth the
opponent's value, and the value follows from his place in the standings) set
``ranking_dependent = True``. The engine then hands them, in ``SystemContext.rank``, the
engine's own ranking as a function (:data:`Ranker`): the system computes its figures for a
round, asks for the ranking they give (with the season's tie-breaks), and recomputes as often
as its rule says, bounded by its ``max_iterations`` per round. Each ``SystemRound`` may carry a
``tie_order``: the order, after every criterion, of participants still tied (Keizer: the
previous round's ranking), so that the published standings are exactly the ranking the system
worked with.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from competition.scoring.model import (
    Contribution,
    ParameterValue,
    ParameterValues,
    Participant,
    SeasonInput,
)
from competition.scoring.parameters import ParameterSpec, validate_parameters
from competition.scoring.records import RoundRecord
from competition.scoring.systems.units import RecordDigest

T = TypeVar("T")

# (round number, figures by participant and code, tie order) -> the ids of the participants in
# the figures (everybody, or only some: those tied in score), best first. The engine's ranking:
# primary score, secondary figures, the season's tie-breaks after that round, then the tie order
# (lower first), then start rank and name. A group equal on the figures comes out in the same
# order whoever else is ranked with it.
Ranker = Callable[[int, Mapping[int, Mapping[str, Fraction]], Mapping[int, int]], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class SystemContext:
    """What a system reads: the season and every participant's records up to ``upto_round``."""

    season: SeasonInput
    upto_round: int
    records: Mapping[int, tuple[RoundRecord, ...]]  # rounds 1..upto_round, in order
    participants: Mapping[int, Participant]
    digest: RecordDigest  # the same records as plain integers, for inner loops
    rank: Ranker | None = None  # given to ranking-dependent systems only
    # What a system computed from this context, kept for a second question about the same
    # context (the participant page explains his figures and then why he moved: one Keizer run)
    memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    def remembered(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()`` the first time ``key`` is asked for in this context; after that, the
        value kept in ``memo``."""
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class SystemRound:
    """A system's figures after one round: per participant, every figure by code."""

    round_number: int  # 0 for the figures before the first round
    figures: Mapping[int, Mapping[str, Fraction]]
    # Participants tied on every criterion are ordered by this (lower first) before start rank.
    tie_order: Mapping[int, int] | None = None


class RankingSystem(ABC):
    """A ranking system: names, description, parameters and the computation."""

    key: str
    name: str  # English, marked with gettext_noop; competition.presentation.labels translates it
    description: str  # likewise
    parameters: tuple[ParameterSpec, ...] = ()
    primary: str  # the code of the primary score, e.g. "SB"
    secondary: tuple[str, ...] = ()  # codes ranked on after the primary score, before tie-breaks
    ranking_dependent: bool = False  # True: the engine gives compute() a Ranker
    max_iterations: int = 1  # the most rankings a ranking-dependent system iterates per round

    @property
    def figure_codes(self) -> tuple[str, ...]:
        """Every code this system writes into a standings row's values."""
        return (self.primary, *self.secondary)

    @property
    def summed_codes(self) -> tuple[str, ...]:
        """The figures that add up what the rounds earned, which a change of rules from a later
        round carries over (``engine._carried_standings``); a figure that describes a place
        (Keizer's value of the place) is not one. Default: every figure."""
        return self.figure_codes

    def validate(self, raw: Mapping[str, object]) -> dict[str, ParameterValue]:
        """Every parameter from ``raw`` or its default; see :func:`validate_parameters`."""
        return validate_parameters(self.parameters, raw)

    @abstractmethod
    def compute(
        self, context: SystemContext, parameters: ParameterValues, *, every_round: bool = True
    ) -> tuple[SystemRound, ...]:
        """The figures after rounds 0..upto_round (``every_round``) or after upto_round only.

        ``parameters`` are already validated. A ranking-dependent system finds the engine's
        ranking in ``context.rank``.
        """

    @abstractmethod
    def explain(
        self, context: SystemContext, parameters: ParameterValues, participant_id: int
    ) -> tuple[Contribution, ...]:
        """The lines that make up the participant's figures after ``context.upto_round``."""
