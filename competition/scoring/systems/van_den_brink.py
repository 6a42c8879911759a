"""The Van den Brink system (seed 001): points that track playing strength.

Source: seed 001 ("Wat betekenen die punten eigenlijk?") as DOMAIN.md reads it; both are
described in docs/sources.md.

Every participant starts with start points: ``Participant.start_points`` when the TD set them,
else ``start_points_top − start_points_step × (start_rank − 1)`` (200, 199, 198, ... by last
season's final standing). A participant with neither is refused (``ScoringInputError`` naming
him): the TD must give a new member start points. His rank value starts equal to his start
points.

Per game, each player gets::

    result part (+3 win, 0 draw, −3 loss) + factor × (opponent's rank value − own rank value)

with the rank values at the start of the round; the second term is the compensation. With the
default, symmetric parts the opponent gets the exact negative, so the season's total is fixed.
After a participant's N-th counted game (``games_per_update``, 14) his rank value becomes his
points at that moment, and again after every further N games in mode ``every_n`` (only once in
mode ``once``); the new rank value is used from the next round on. Not playing changes nothing:
byes, absences and (unless ``forfeits_count``) forfeits neither add points nor count as games.
A double forfeit never counts. An external game (a club duty with a result, a team match on club
night) changes nothing either, unless ``external_game`` is "equal_opponent": then it is a game
against an opponent of his own rank value (the result part, no compensation) and counts as one.

Worked example (seed 001): rank value 160 against 170: compensation 7/100 × (170 − 160) = 0.70,
so a win gives 3.70, a draw 0.70 and a loss −2.30; the opponent gets −3.70, −0.70 or +2.30.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from competition.scoring.model import (
    Contribution,
    ParameterValues,
    Participant,
    Result,
    Round,
    SeasonInput,
    external_results,
)
from competition.scoring.parameters import ParameterKind, ParameterSpec
from competition.scoring.records import ScoringInputError
from competition.scoring.systems.base import RankingSystem, SystemContext, SystemRound
from competition.scoring.systems.running import BLACK_HALVES, WHITE_HALVES, ScoreKeeper
from competition.scoring.systems.units import FractionCache, RecordDigest
from competition.scoring.text import gettext_noop

VDB = "VDB"
RV = "RV"
EVERY_N = "every_n"
ONCE = "once"
EXTERNAL_IGNORED = "none"
EXTERNAL_EQUAL_OPPONENT = "equal_opponent"
EXTERNAL_NOTE = gettext_noop("external game")
START_POINTS_NOTE = gettext_noop("start points")


def start_points_of(participant: Participant, parameters: ParameterValues) -> Fraction:
    """The participant's start points: set by the TD, else from his start rank.

    >>> params = {"start_points_top": Fraction(200), "start_points_step": Fraction(1)}
    >>> start_points_of(Participant(1, "Edwin Tol", start_rank=3), params)
    Fraction(198, 1)
    """
    if participant.start_points is not None:
        return Fraction(participant.start_points)
    if participant.start_rank is not None:
        top = Fraction(parameters["start_points_top"])
        step = Fraction(parameters["start_points_step"])
        return top - step * (participant.start_rank - 1)
    raise ScoringInputError(
        gettext_noop(
            "participant %(name)s has neither start points nor a start rank; the Van den "
            "Brink system needs one of them"
        ),
        {"name": participant.name},
    )


@dataclass(frozen=True, slots=True)
class _GameLine:
    round_number: int
    opponent: int | None  # None: an external game (against an opponent of equal rank value)
    result_part: int  # in units
    own_rank_value: int
    opponent_rank_value: int
    compensation: int
    forfeit: bool


@dataclass(slots=True)
class _Run:
    """The outcome of one pass over the season, in integer units of 1/unit."""

    unit: int
    start: dict[int, int]
    snapshots: list[tuple[dict[int, int], dict[int, int]]]  # (points, rank value) per round 0..R
    game_lines: dict[int, list[_GameLine]]
    updates: dict[int, list[tuple[int, int, int]]]  # (round, games so far, new rank value)


def _fraction_spec(
    name: str, default: Fraction, low: Fraction, high: Fraction, description: str
) -> ParameterSpec:
    return ParameterSpec(
        name, ParameterKind.FRACTION, default, description, minimum=low, maximum=high
    )


class VanDenBrink(RankingSystem):
    key = "van-den-brink"
    name = gettext_noop("Van den Brink system")
    description = gettext_noop(
        "Everyone starts with start points from last season's final standings; the start "
        "points are the first rank value. Per game you get a result part for a win, a draw or "
        "a loss, plus a factor times your opponent's rank value minus your own. After a fixed "
        "number of games your rank value becomes your points. Not playing keeps your points as "
        "they are."
    )
    parameters = (
        _fraction_spec(
            "win_part", Fraction(3), Fraction(-100), Fraction(100),
            gettext_noop("Result part for a win"),
        ),
        _fraction_spec(
            "draw_part", Fraction(0), Fraction(-100), Fraction(100),
            gettext_noop("Result part for a draw"),
        ),
        _fraction_spec(
            "loss_part", Fraction(-3), Fraction(-100), Fraction(100),
            gettext_noop("Result part for a loss"),
        ),
        _fraction_spec(
            "factor", Fraction(7, 100), Fraction(0), Fraction(1),
            gettext_noop("Factor for the rank value difference"),
        ),
        ParameterSpec(
            "games_per_update", ParameterKind.INT, 14,
            gettext_noop("Games after which the rank value becomes the points"),
            minimum=1, maximum=1000,
        ),
        ParameterSpec(
            "update_mode", ParameterKind.CHOICE, EVERY_N,
            gettext_noop(
                "Update the rank value after every N games or only after the first N"
            ),
            choices=(EVERY_N, ONCE),
        ),
        _fraction_spec(
            "start_points_top", Fraction(200), Fraction(0), Fraction(100000),
            gettext_noop("Start points of last season's number one"),
        ),
        _fraction_spec(
            "start_points_step", Fraction(1), Fraction(0), Fraction(1000),
            gettext_noop("Start points difference per place"),
        ),
        ParameterSpec(
            "forfeits_count", ParameterKind.BOOL, False,
            gettext_noop("Forfeits count as games"),
        ),
        ParameterSpec(
            "external_game", ParameterKind.CHOICE, EXTERNAL_IGNORED,
            gettext_noop(
                "An external game (a team match on club night) changes nothing or counts as a "
                "game against an opponent of equal rank value"
            ),
            choices=(EXTERNAL_IGNORED, EXTERNAL_EQUAL_OPPONENT),
        ),
    )  # fmt: skip
    primary = VDB
    secondary = ()

    @property
    def figure_codes(self) -> tuple[str, ...]:
        return (VDB, RV)

    def _run(
        self,
        context: SystemContext,
        parameters: ParameterValues,
        *,
        keep_lines: bool = False,
        every_round: bool = True,
    ) -> _Run:
        factor = Fraction(parameters["factor"])
        games_per_update = int(parameters["games_per_update"])
        every_n = parameters["update_mode"] == EVERY_N
        unit, part_units, start = _units(context, parameters, factor)
        points = dict(start)
        rank_value = dict(start)
        games = dict.fromkeys(start, 0)
        snapshots = [(dict(points), dict(rank_value))]
        game_lines: dict[int, list[_GameLine]] = {pid: [] for pid in start}
        updates: dict[int, list[tuple[int, int, int]]] = {pid: [] for pid in start}

        digest = context.digest
        counted = _counted_rounds(digest, start, bool(parameters["forfeits_count"]))
        half = Fraction(1, 2)
        part_by_points = {
            (value * digest.unit).numerator: part_units[value]
            for value in (Fraction(1), half, Fraction(0))
        }
        numerator, denominator = factor.numerator, factor.denominator
        externals = (
            external_results(context.season)
            if parameters.get("external_game", EXTERNAL_IGNORED) == EXTERNAL_EQUAL_OPPONENT
            else {}
        )

        for index in range(context.upto_round):
            played_now = []
            for pid in start:
                if not counted[pid][index]:
                    external = externals.get((pid, index + 1))
                    if external is None:
                        continue
                    # a game against an opponent of his own rank value: no compensation
                    result_part = part_units[external]
                    points[pid] += result_part
                    games[pid] += 1
                    played_now.append(pid)
                    if keep_lines:
                        own = rank_value[pid]
                        game_lines[pid].append(
                            _GameLine(index + 1, None, result_part, own, own, 0, False)
                        )
                    continue
                opponent = digest.opponent[pid][index]
                assert opponent is not None
                own, other = rank_value[pid], rank_value[opponent]
                compensation, remainder = divmod(numerator * (other - own), denominator)
                assert remainder == 0, "the unit keeps the compensation whole"
                result_part = part_by_points[digest.points[pid][index]]
                points[pid] += result_part + compensation
                games[pid] += 1
                played_now.append(pid)
                if keep_lines:
                    record = context.records[pid][index]
                    game_lines[pid].append(
                        _GameLine(
                            record.round_number, opponent, result_part, own, other,
                            compensation, record.forfeit,
                        )
                    )  # fmt: skip
            for pid in played_now:
                count = games[pid]
                if count % games_per_update == 0 and (every_n or count == games_per_update):
                    rank_value[pid] = points[pid]
                    updates[pid].append((index + 1, count, points[pid]))
            if every_round or index == context.upto_round - 1:
                snapshots.append((dict(points), dict(rank_value)))
        return _Run(unit, start, snapshots, game_lines, updates)

    def compute(
        self, context: SystemContext, parameters: ParameterValues, *, every_round: bool = True
    ) -> tuple[SystemRound, ...]:
        run = self._run(context, parameters, every_round=every_round)
        # every_round keeps a snapshot after rounds 0..R; otherwise only the first and the last
        numbered = (
            enumerate(run.snapshots) if every_round else [(context.upto_round, run.snapshots[-1])]
        )
        # Most values repeat from round to round (whoever did not play keeps his points).
        as_fraction = FractionCache(run.unit)
        return tuple(
            SystemRound(
                round_index,
                {
                    pid: {VDB: as_fraction[points[pid]], RV: as_fraction[rank_value[pid]]}
                    for pid in points
                },
            )
            for round_index, (points, rank_value) in numbered
        )

    def explain(
        self, context: SystemContext, parameters: ParameterValues, participant_id: int
    ) -> tuple[Contribution, ...]:
        """Start points, then per counted game its parts; then every rank value update."""
        run = self._run(context, parameters, keep_lines=True, every_round=False)
        unit = run.unit
        lines = [
            Contribution(VDB, 0, Fraction(run.start[participant_id], unit), note=START_POINTS_NOTE),
            Contribution(RV, 0, Fraction(run.start[participant_id], unit), note=START_POINTS_NOTE),
        ]
        for line in run.game_lines[participant_id]:
            lines.append(
                Contribution(
                    VDB,
                    line.round_number,
                    Fraction(line.result_part + line.compensation, unit),
                    opponent_id=line.opponent,
                    parts={
                        "result_part": Fraction(line.result_part, unit),
                        "own_rank_value": Fraction(line.own_rank_value, unit),
                        "opponent_rank_value": Fraction(line.opponent_rank_value, unit),
                        "compensation": Fraction(line.compensation, unit),
                    },
                    note=gettext_noop("forfeit")
                    if line.forfeit
                    else EXTERNAL_NOTE
                    if line.opponent is None
                    else "",
                )
            )
        for round_number, count, value in run.updates[participant_id]:
            lines.append(
                Contribution(
                    RV,
                    round_number,
                    Fraction(value, unit),
                    note=gettext_noop("rank value set to the points after game %(n)s"),
                    note_values={"n": count},
                )
            )
        return tuple(lines)


class VanDenBrinkKeeper(ScoreKeeper):
    """The fast copy of :class:`VanDenBrink` for simulations, one round at a time: per counted
    game the result part plus factor × (opponent's rank value − own rank value) at the start of
    the round, and the rank value becomes the points after every N games (or only after the
    first N). As in :meth:`VanDenBrink._run`, the unit is the parts' and start points' common
    denominator times the factor's denominator once per round. External games change nothing
    (the default ``external_game``); :meth:`handles` says when a season needs the engine."""

    @staticmethod
    def handles(season: SeasonInput, parameters: ParameterValues) -> bool:
        """False when an external game counts as a game (the keeper does not do that)."""
        return parameters.get("external_game") != EXTERNAL_EQUAL_OPPONENT or not external_results(
            season
        )

    def prepare(self, season: SeasonInput, parameters: ParameterValues, rounds: int) -> None:
        parts = [Fraction(parameters[name]) for name in ("loss_part", "draw_part", "win_part")]
        factor = Fraction(parameters["factor"])
        start = {pid: start_points_of(p, parameters) for pid, p in self.participants.items()}
        base = lcm(*(value.denominator for value in (*parts, *start.values())))
        self.unit = base * factor.denominator ** (max(rounds, len(season.rounds)) + 1)
        # by the game's score in halves: loss, draw, win
        self.part_units = tuple((part * self.unit).numerator for part in parts)
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
        part_units = self.part_units
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
            points[white] += part_units[WHITE_HALVES[game.result]] + compensation
            points[black] += part_units[BLACK_HALVES[game.result]] - compensation
            played += (white, black)
        for pid in played:
            self.games[pid] += 1
            count = self.games[pid]
            if count % self.games_per_update == 0 and (
                self.every_n or count == self.games_per_update
            ):
                rank_value[pid] = points[pid]

    def standing_keys(self) -> dict[int, int]:
        return self.points

    def primary(self, pid: int) -> Fraction:
        return Fraction(self.points[pid], self.unit)

    def figures(self, pid: int) -> dict[str, Fraction]:
        return {VDB: self.primary(pid), RV: Fraction(self.rank_value[pid], self.unit)}


def _units(
    context: SystemContext, parameters: ParameterValues, factor: Fraction
) -> tuple[int, dict[Fraction, int], dict[int, int]]:
    """The unit every figure is a whole number of, the result parts (by game points) and the
    start points in that unit."""
    parts = {
        Fraction(1): Fraction(parameters["win_part"]),
        Fraction(1, 2): Fraction(parameters["draw_part"]),
        Fraction(0): Fraction(parameters["loss_part"]),
    }
    start_fractions = {
        pid: start_points_of(context.participants[pid], parameters) for pid in context.records
    }
    # Each round's rank value updates can add one factor denominator to the values, so
    # this unit keeps every figure a whole number (Python's integers do not overflow).
    base = lcm(*(value.denominator for value in (*parts.values(), *start_fractions.values())))
    unit = base * factor.denominator ** (context.upto_round + 1)
    part_units = {points: (part * unit).numerator for points, part in parts.items()}
    start = {pid: (value * unit).numerator for pid, value in start_fractions.items()}
    return unit, part_units, start


def _counted_rounds(
    digest: RecordDigest, participants: Iterable[int], forfeits_count: bool
) -> dict[int, list[bool]]:
    """Which rounds count as games: over the board, and (``forfeits_count``) single forfeits."""
    counted: dict[int, list[bool]] = {}
    for pid in participants:
        flags = list(digest.played[pid])
        if forfeits_count:
            for index, result in enumerate(digest.result[pid]):
                if result is not None and result.is_forfeit:
                    flags[index] = result is not Result.DOUBLE_FORFEIT
        counted[pid] = flags
    return counted
