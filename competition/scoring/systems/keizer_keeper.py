"""The Keizer system one round at a time, for simulations (:class:`KeizerKeeper`).

It keeps :mod:`.keizer`'s own terms and ranking between rounds instead of recomputing them from
the season's first round; property tests compare its standings with the engine's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction

from competition.scoring.model import (
    EntryKind,
    ParameterValues,
    Round,
    SeasonInput,
    external_results,
)
from competition.scoring.systems.base import Ranker
from competition.scoring.systems.keizer import (
    FIXED_POINT,
    FROZEN,
    KEIZER,
    MAX_ITERATIONS,
    VALUE,
    Evaluation,
    Outcome,
    TermUnits,
    start_places,
    term_unit,
)
from competition.scoring.systems.running import ScoreKeeper
from competition.scoring.systems.units import FractionCache


class KeizerKeeper(ScoreKeeper):
    """:class:`Keizer` one round at a time, for simulations: the system's own terms
    (:class:`TermUnits`, from :func:`round_term`) and its own ranking (:class:`Evaluation`:
    the fixed point, one pass, or the start list's values), kept between rounds instead of
    recomputed from the season's first round.

    Equal scores are ranked as the engine ranks them: the season's tie-breaks, then the
    previous round's ranking. Only then does a pass ask the engine (its ranker on the season
    with the rounds played so far, prepared once per round and only when a pass meets equal
    scores); without tie-breaks nothing is asked. Property tests compare the keeper's standings
    with the engine's, with and without tie-breaks.
    """

    def prepare(self, season: SeasonInput, parameters: ParameterValues, rounds: int) -> None:
        self.ids = list(self.participants)
        self.position = {pid: p for p, pid in enumerate(self.ids)}
        unit = term_unit(parameters, external_results(season))
        self.terms = TermUnits(parameters, unit)
        own = unit if parameters["own_value_in_score"] else 0
        self.own = [own] * len(self.ids)
        self.paid = [0] * len(self.ids)
        self.against: list[list[tuple[int, int]]] = [[] for _ in self.ids]
        self.start, self.values, self.value_units, self.value_unit = start_places(
            self.participants, parameters
        )
        self.mode = parameters["recalculation"]
        self.caches: dict[int, FractionCache] = {}
        self.season = season
        self.has_tiebreaks = bool(season.tiebreaks)
        self.played: tuple[Round, ...] = ()  # the rounds added so far (for the tie-breaks)
        self.previous = self.start
        self.outcome = self._evaluate(0)  # the ranking before the first round

    def _copy_into(self, twin: ScoreKeeper) -> None:
        assert isinstance(twin, KeizerKeeper)
        twin.own = list(self.own)
        twin.paid = list(self.paid)
        twin.against = [list(met) for met in self.against]

    def _ranker(self) -> Ranker | None:
        """The engine's ranking of equal scores after the rounds played so far (None without
        tie-breaks: the previous ranking alone decides); the season is prepared on first use."""
        if not self.has_tiebreaks:
            return None
        season = replace(self.season, rounds=self.played)
        prepared: list[Ranker] = []

        def rank(
            number: int, figures: Mapping[int, Mapping[str, Fraction]], tie_order: Mapping[int, int]
        ) -> tuple[int, ...]:
            if not prepared:
                from competition.scoring.engine import system_context  # the engine imports us

                ranker = system_context(season, len(season.rounds)).rank
                assert ranker is not None
                prepared.append(ranker)
            return prepared[0](number, figures, tie_order)

        return rank

    def _evaluate(self, number: int) -> Outcome:
        evaluate = Evaluation(
            self.ids, self.terms.unit, self.own, number, self._ranker(), self.previous,
            self.against, self.value_units, self.value_unit, self.caches, self.has_tiebreaks,
        )  # fmt: skip
        if self.mode == FIXED_POINT:
            return evaluate.fixed_point(self.start, MAX_ITERATIONS)  # the registered Keizer's
        return evaluate.once(self.start if self.mode == FROZEN else self.previous)

    def _score(self, rnd: Round) -> None:
        number, terms, position = rnd.number, self.terms, self.position
        own, paid, against = self.own, self.paid, self.against
        recorded: set[int] = set()
        for game in rnd.games:
            result = game.result
            for pid, opponent, points in (
                (game.white, game.black, result.white_points),
                (game.black, game.white, result.black_points),
            ):
                p = position[pid]
                recorded.add(pid)
                units = terms(number, points.numerator, points.denominator, result, None, paid[p])
                if result.is_played:
                    if units:
                        against[position[opponent]].append((p, units))
                else:
                    own[p] += units
        for entry in rnd.entries:
            p = position[entry.participant]
            recorded.add(entry.participant)
            joined = self.participants[entry.participant].joined_round
            own[p] += terms(
                number, entry.points.numerator, entry.points.denominator, None, entry.kind,
                paid[p], before_joining=number < joined, external=entry.external_result,
            )  # fmt: skip
            if entry.kind is EntryKind.ABSENT_NOTICE:
                paid[p] += 1
        for pid, participant in self.participants.items():
            if pid not in recorded:  # no record: not paired
                p = position[pid]
                own[p] += terms(
                    number, 0, 1, None, EntryKind.NOT_PAIRED, paid[p],
                    before_joining=number < participant.joined_round,
                )  # fmt: skip
        if self.has_tiebreaks:
            self.played = (*self.played, rnd)
        self.previous = self.outcome.order
        self.outcome = self._evaluate(number)

    def standing_keys(self) -> dict[int, int]:
        """The ranking is strict (ties in score go to the previous ranking): keys by place."""
        size = len(self.ids)
        return {pid: size - place for place, pid in enumerate(self.outcome.order)}

    def order(self) -> list[int]:
        return list(self.outcome.order)

    def order_among(self, pids: Iterable[int]) -> list[int]:
        chosen = set(pids)
        return [pid for pid in self.outcome.order if pid in chosen]

    def primary(self, pid: int) -> Fraction:
        return self.outcome.score[pid]

    def figures(self, pid: int) -> dict[str, Fraction]:
        place = self.outcome.order.index(pid)
        return {KEIZER: self.outcome.score[pid], VALUE: self.values[place]}
