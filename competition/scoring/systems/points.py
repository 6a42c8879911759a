"""Ranking on game points, with configurable values for a win, a draw and a loss.

A forfeit win counts as a win, a forfeit loss (and a double forfeit, for both) as a loss.
Rounds without a game (byes, absences, club duty) count their ``Entry.points``, which the
service sets in game points (1 = a full point): an entry worth exactly 1 counts as a win, ½ as a
draw, 0 as nothing at all (an absence never costs the loss value), and any other amount
``p`` counts ``p × win``. With the defaults (1, ½, 0) every figure equals the game points.

Worked example (win 3, draw 1, loss 0): a win, a draw, a forfeit win and a half-point bye give
3 + 1 + 3 + 1 = 8.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import lcm

from competition.scoring.model import (
    Contribution,
    ParameterValue,
    ParameterValues,
    Round,
    SeasonInput,
)
from competition.scoring.parameters import ParameterError, ParameterKind, ParameterSpec
from competition.scoring.records import RoundRecord
from competition.scoring.systems.base import RankingSystem, SystemContext, SystemRound
from competition.scoring.systems.running import BLACK_HALVES, WHITE_HALVES, ScoreKeeper
from competition.scoring.systems.units import FractionCache, common_denominator, to_units
from competition.scoring.text import gettext_noop

HALF = Fraction(1, 2)


def _fraction_spec(name: str, default: Fraction, description: str) -> ParameterSpec:
    return ParameterSpec(
        name,
        ParameterKind.FRACTION,
        default,
        description,
        minimum=Fraction(-100),
        maximum=Fraction(100),
    )


class PointsSystem(RankingSystem):
    key = "points"
    name = gettext_noop("Game points")
    description = gettext_noop(
        "The standings follow the points scored: a win, a draw and a loss are each worth a fixed "
        "number of points, set by the season. A forfeit win counts as a win. A bye or an "
        "absence counts the points the tournament director awards for it."
    )
    parameters = (
        _fraction_spec("win", Fraction(1), gettext_noop("Points for a win")),
        _fraction_spec("draw", HALF, gettext_noop("Points for a draw")),
        _fraction_spec("loss", Fraction(0), gettext_noop("Points for a loss")),
    )
    primary = "PTS"

    def validate(self, raw: Mapping[str, object]) -> dict[str, ParameterValue]:
        values = super().validate(raw)
        if not values["loss"] <= values["draw"] <= values["win"]:  # type: ignore[operator]
            raise ParameterError(
                gettext_noop(
                    "The points for a draw (%(draw)s) must lie between those "
                    "for a loss (%(loss)s) and a win (%(win)s)"
                ),
                {name: values[name] for name in ("loss", "draw", "win")},
            )
        return values

    @staticmethod
    def record_value(record: RoundRecord, parameters: ParameterValues) -> Fraction:
        """The points one round is worth (see the module docstring)."""
        win, draw, loss = (Fraction(parameters[name]) for name in ("win", "draw", "loss"))
        if record.result is not None:
            if not (record.result.is_played or record.result.is_forfeit):
                return Fraction(0)  # a pairing without a result yet
            return win if record.points == 1 else draw if record.points == HALF else loss
        if record.points == 0:
            return Fraction(0)
        if record.points == HALF:
            return draw
        return record.points * win

    def compute(
        self, context: SystemContext, parameters: ParameterValues, *, every_round: bool = True
    ) -> tuple[SystemRound, ...]:
        # A round's value depends only on its result (or the absence of one) and its game
        # points: compute it once per distinct pair, then add whole units.
        digest = context.digest
        # Keyed by the result's identity: an Enum's hash is computed in Python, an id's is not.
        values: dict[tuple[int, int], Fraction] = {}
        keys_by_participant: dict[int, list[tuple[int, int]]] = {}
        for pid in context.participants:
            keys = [
                (id(result), points)
                for result, points in zip(digest.result[pid], digest.points[pid], strict=True)
            ]
            for key, result in zip(keys, digest.result[pid], strict=True):
                if key not in values:
                    record = RoundRecord(0, Fraction(key[1], digest.unit), result=result)
                    values[key] = self.record_value(record, parameters)
            keys_by_participant[pid] = keys
        unit = common_denominator(values.values())
        units = {key: to_units(value, unit) for key, value in values.items()}
        as_fraction = FractionCache(unit)
        rounds = [
            SystemRound(0, {pid: {self.primary: Fraction(0)} for pid in context.participants})
        ]
        totals = dict.fromkeys(context.participants, 0)
        keyed = {pid: [units[key] for key in keys] for pid, keys in keys_by_participant.items()}
        for index in range(context.upto_round):
            for pid, round_units in keyed.items():
                totals[pid] += round_units[index]
            if every_round or index == context.upto_round - 1:
                primary = self.primary
                figures = {pid: {primary: as_fraction[total]} for pid, total in totals.items()}
                rounds.append(SystemRound(index + 1, figures))
        return tuple(rounds) if every_round else (rounds[-1],)

    def explain(
        self, context: SystemContext, parameters: ParameterValues, participant_id: int
    ) -> tuple[Contribution, ...]:
        lines = []
        for record in context.records[participant_id]:
            note = (
                gettext_noop("forfeit")
                if record.forfeit
                else (record.entry.value if record.entry else "")
            )
            lines.append(
                Contribution(
                    self.primary,
                    record.round_number,
                    self.record_value(record, parameters),
                    opponent_id=record.opponent,
                    parts={"game_points": record.points},
                    note=note,
                )
            )
        return tuple(lines)


class PointsKeeper(ScoreKeeper):
    """The fast copy of :class:`PointsSystem` for simulations: a running sum of each round's
    value (:meth:`PointsSystem.record_value`'s rules in whole units), one round at a time."""

    def prepare(self, season: SeasonInput, parameters: ParameterValues, rounds: int) -> None:
        win, draw, loss = (Fraction(parameters[name]) for name in ("win", "draw", "loss"))
        self.win = win
        self.unit = lcm(win.denominator, draw.denominator, loss.denominator) * self.points_unit
        # by the game's score in halves: loss, draw, win
        self.result_units = tuple((value * self.unit).numerator for value in (loss, draw, win))
        self.points: dict[int, int] = dict.fromkeys(self.participants, 0)
        self._entry_value: dict[Fraction, int] = {}

    def _copy_into(self, twin: ScoreKeeper) -> None:
        assert isinstance(twin, PointsKeeper)
        twin.points = dict(self.points)

    def _entry_value_units(self, points: Fraction) -> int:
        if not points:  # an absence's nothing, without a Fraction's hash
            return 0
        known = self._entry_value.get(points)
        if known is None:
            draw_units = self.result_units[1]
            if points == 0:
                known = 0
            elif points == HALF:
                known = draw_units
            else:
                known = (points * self.win * self.unit).numerator
            self._entry_value[points] = known
        return known

    def _score(self, rnd: Round) -> None:
        points, result_units = self.points, self.result_units
        for game in rnd.games:
            result = game.result
            if result.is_played or result.is_forfeit:
                points[game.white] += result_units[WHITE_HALVES[result]]
                points[game.black] += result_units[BLACK_HALVES[result]]
        for entry in rnd.entries:
            points[entry.participant] += self._entry_value_units(entry.points)

    def standing_keys(self) -> dict[int, int]:
        return self.points

    def primary(self, pid: int) -> Fraction:
        return Fraction(self.points[pid], self.unit)

    def figures(self, pid: int) -> dict[str, Fraction]:
        return {PointsSystem.primary: self.primary(pid)}
