"""The internal SB competition (seed 000: Rokade's ranking following the KNSB rules).

Source: seed 000 ("SB-score", "interne punten") as DOMAIN.md reads it; both are described in
docs/sources.md.

Internal points after round R::

    IP = game points + unplayed_value × (rounds among 1..R without a game over the board)

A round without a game over the board is any absence, club duty, bye, forfeit (won or lost) or
round with no record; rounds before the participant joined count too unless
``count_rounds_before_joining`` is false; rounds after he withdrew from the season
(``Participant.withdrawn_round``) never count. An external game (a club duty with a result, a
team match on club night) is such a round too, unless ``external_game`` is "result": then it
adds its result (1, ½ or 0) instead of the unplayed value. Taken literally this means a
forfeit win is worth 1 + ½ = 1½ internal points, and a full-point bye too (see
docs/scoring.md).

Sonneborn-Berger after round R::

    SB = Σ over the participant's games over the board of (his score × opponent's IP after R)

An opponent met twice appears twice. The ranking is SB, then IP, then the season's tie-breaks.
Every SB can change every round, even for a participant who did not play.

Worked example (seed 000): X beat A, who has 1 game point from 2 games and 14 rounds without a
game after 16 rounds, so A's IP = 1 + 14 × ½ = 8 and the game adds 1 × 8 = 8 to X's SB; X drew
with H (IP 3 + 7 × ½ = 6½), which adds ½ × 6½ = 3¼.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from math import lcm

from competition.scoring.model import (
    Contribution,
    ParameterValues,
    Round,
    SeasonInput,
    external_results,
)
from competition.scoring.parameters import ParameterKind, ParameterSpec
from competition.scoring.records import RoundRecord
from competition.scoring.systems.base import RankingSystem, SystemContext, SystemRound
from competition.scoring.systems.running import BLACK_HALVES, SHIFT, WHITE_HALVES, ScoreKeeper
from competition.scoring.systems.units import FractionCache, to_units
from competition.scoring.text import gettext_noop

SB = "SB"
IP = "IP"
EXTERNAL_AS_UNPLAYED = "unplayed"
EXTERNAL_AS_RESULT = "result"
EXTERNAL_NOTE = gettext_noop("external game")


def _externals(
    context: SystemContext, parameters: ParameterValues
) -> dict[tuple[int, int], Fraction]:
    """The external games counted with their result (parameter ``external_game`` "result"),
    by (participant, round); none when they count as rounds without a game."""
    if parameters.get("external_game", EXTERNAL_AS_UNPLAYED) != EXTERNAL_AS_RESULT:
        return {}
    return external_results(context.season)


def _counts_as_unplayed(
    record: RoundRecord, count_rounds_before_joining: bool, withdrawn_round: int | None
) -> bool:
    """True when the round earns the unplayed value: no game over the board, not after the
    participant withdrew."""
    if record.played:
        return False
    if withdrawn_round is not None and record.round_number >= withdrawn_round:
        return False
    return count_rounds_before_joining or not record.before_joining


class InternalSonnebornBerger(RankingSystem):
    key = "internal-sb"
    name = gettext_noop("Internal competition with SB score")
    description = gettext_noop(
        "Every player has internal points: his game points plus a fixed value for every round "
        "without a game over the board (absence, bye, forfeit). His SB score is the sum over his "
        "own games of his score times the internal points the opponent has now. The standings "
        "follow the SB score, then the internal points. Beating someone who goes on to score "
        "well keeps paying off."
    )
    parameters = (
        ParameterSpec(
            "unplayed_value",
            ParameterKind.FRACTION,
            Fraction(1, 2),
            gettext_noop("Internal points per round without a game over the board"),
            minimum=Fraction(0),
            maximum=Fraction(1),
        ),
        ParameterSpec(
            "count_rounds_before_joining",
            ParameterKind.BOOL,
            True,
            gettext_noop("Rounds before joining count as rounds without a game"),
        ),
        ParameterSpec(
            "external_game",
            ParameterKind.CHOICE,
            EXTERNAL_AS_UNPLAYED,
            gettext_noop(
                "An external game (a team match on club night) counts as a round without a "
                "game or with its result"
            ),
            choices=(EXTERNAL_AS_UNPLAYED, EXTERNAL_AS_RESULT),
        ),
    )
    primary = SB
    secondary = (IP,)

    def _internal_points_units(
        self, context: SystemContext, parameters: ParameterValues
    ) -> tuple[int, dict[int, list[int]]]:
        """The unit denominator and, per participant, his IP in units after rounds 0..R.

        Computed once per context and parameters (kept in ``context.memo``): the participant
        page asks for them to explain his SB and again for why he moved."""
        return context.remembered(
            ("internal-sb.ip", tuple(sorted(parameters.items()))),
            lambda: self._count_internal_points(context, parameters),
        )

    def _count_internal_points(
        self, context: SystemContext, parameters: ParameterValues
    ) -> tuple[int, dict[int, list[int]]]:
        unplayed_value = Fraction(parameters["unplayed_value"])
        count_before_joining = bool(parameters["count_rounds_before_joining"])
        externals = _externals(context, parameters)
        digest = context.digest
        scale = lcm(unplayed_value.denominator, *(r.denominator for r in externals.values()))
        unit = digest.unit * scale
        unplayed_units = to_units(unplayed_value, unit)
        history: dict[int, list[int]] = {}
        for pid in context.records:
            joined_round = context.participants[pid].joined_round
            withdrawn = context.participants[pid].withdrawn_round or len(digest.points[pid]) + 1
            running = 0
            values = [0]
            for index, (points, played) in enumerate(
                zip(digest.points[pid], digest.played[pid], strict=True)
            ):
                running += points * scale
                external = externals.get((pid, index + 1))
                if external is not None:
                    running += to_units(external, unit)  # counted with its result
                elif (
                    not played
                    and (count_before_joining or index + 1 >= joined_round)
                    and index + 1 < withdrawn
                ):
                    running += unplayed_units
                values.append(running)
            history[pid] = values
        return unit, history

    def compute(
        self, context: SystemContext, parameters: ParameterValues, *, every_round: bool = True
    ) -> tuple[SystemRound, ...]:
        unit, ip_history = self._internal_points_units(context, parameters)
        sb_fraction, ip_fraction = FractionCache(unit * unit), FractionCache(unit)
        # Per participant: {opponent: summed score in units}, grown round by round, so that SB
        # after round R is one pass over the distinct opponents met so far.
        scores_against: dict[int, dict[int, int]] = {pid: {} for pid in context.records}
        digest = context.digest
        scale = unit // digest.unit
        wanted = range(context.upto_round + 1) if every_round else (context.upto_round,)
        rounds: list[SystemRound] = []
        for round_index in range(context.upto_round + 1):
            if round_index > 0:
                index = round_index - 1
                for pid, against in scores_against.items():
                    if digest.played[pid][index]:
                        opponent = digest.opponent[pid][index]
                        assert opponent is not None
                        score = digest.points[pid][index] * scale
                        against[opponent] = against.get(opponent, 0) + score
            if round_index not in wanted:
                continue
            figures: dict[int, Mapping[str, Fraction]] = {}
            for pid, against in scores_against.items():
                sb_units = sum(
                    score * ip_history[opponent][round_index] for opponent, score in against.items()
                )
                figures[pid] = {
                    SB: sb_fraction[sb_units],
                    IP: ip_fraction[ip_history[pid][round_index]],
                }
            rounds.append(SystemRound(round_index, figures))
        return tuple(rounds)

    def explain(
        self, context: SystemContext, parameters: ParameterValues, participant_id: int
    ) -> tuple[Contribution, ...]:
        """Seed 000's table, one SB line per game over the board, plus one IP line per round."""
        unit, ip_history = self._internal_points_units(context, parameters)
        before_joining = bool(parameters["count_rounds_before_joining"])
        unplayed_value = Fraction(parameters["unplayed_value"])
        last = context.upto_round
        lines: list[Contribution] = []
        for record in context.records[participant_id]:
            if not record.played:
                continue
            assert record.opponent is not None
            opponent_rows = context.records[record.opponent]
            opponent_withdrawn = context.participants[record.opponent].withdrawn_round
            opponent_ip = Fraction(ip_history[record.opponent][last], unit)
            lines.append(
                Contribution(
                    SB,
                    record.round_number,
                    record.points * opponent_ip,
                    opponent_id=record.opponent,
                    parts={
                        "opponent_game_points": sum(
                            (row.points for row in opponent_rows), Fraction(0)
                        ),
                        "opponent_unplayed_rounds": Fraction(
                            sum(
                                _counts_as_unplayed(row, before_joining, opponent_withdrawn)
                                for row in opponent_rows
                            )
                        ),
                        "opponent_internal_points": opponent_ip,
                        "score": record.points,
                    },
                )
            )
        withdrawn = context.participants[participant_id].withdrawn_round
        externals = _externals(context, parameters)
        for record in context.records[participant_id]:
            external = externals.get((participant_id, record.round_number))
            unplayed = external is None and _counts_as_unplayed(record, before_joining, withdrawn)
            note = (
                ""
                if record.played
                else (record.entry.value if record.entry else gettext_noop("forfeit"))
            )
            parts: dict[str, Fraction | str] = {
                "game_points": record.points,
                "unplayed_value": unplayed_value if unplayed else Fraction(0),
            }
            if external is not None:
                parts["external_result"] = external
                note = EXTERNAL_NOTE
            lines.append(
                Contribution(
                    IP,
                    record.round_number,
                    record.points
                    + (unplayed_value if unplayed else 0)
                    + (external if external is not None else 0),
                    opponent_id=record.opponent,
                    parts=parts,
                    note=note,
                )
            )
        return tuple(lines)


class InternalSBKeeper(ScoreKeeper):
    """The fast copy of :class:`InternalSonnebornBerger` for simulations, one round at a time.

    Internal points grow by the round's game points plus the unplayed value for a round without
    a game over the board (not after withdrawing; before joining as the parameter says), in
    units of 1/U (U: the game-point unit times the unplayed value's denominator); each
    participant's summed score against each opponent grows by the round's game. SB =
    Σ (score against an opponent) × (his internal points now), in units of 1/(2U), is summed
    only when a ranking is asked for (every round of a ladder, once at the end of a round
    robin). External games count as rounds without a game (the default ``external_game``);
    :meth:`handles` says when a season needs the engine instead.

    Worked example (unplayed value ½): after round 1 A beat B and C had the bye (1 point).
    IP: A 1, B 0, C 1 + ½ = 1½. SB: A = 1 × IP(B) = 0. In round 2 B beats C and A is absent:
    IP A 1 + ½ = 1½, B 1, C 1½. A's SB is now 1 × IP(B) = 1; B's SB is 1 × IP(C) = 1½.
    """

    @staticmethod
    def handles(season: SeasonInput, parameters: ParameterValues) -> bool:
        """False when an external game counts with its result (the keeper does not do that)."""
        return parameters.get("external_game") != EXTERNAL_AS_RESULT or not external_results(season)

    def prepare(self, season: SeasonInput, parameters: ParameterValues, rounds: int) -> None:
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
        scale, unit, number = self.scale, self.unit, rnd.number
        internal_points, scored_against = self.internal_points, self.scored_against
        half = unit // 2
        over_the_board: set[int] = set()
        for game in rnd.games:
            result = game.result
            white, black = game.white, game.black
            white_halves, black_halves = WHITE_HALVES[result], BLACK_HALVES[result]
            internal_points[white] += white_halves * half
            internal_points[black] += black_halves * half
            if result.is_played:
                over_the_board.add(white)
                over_the_board.add(black)
                if white_halves:
                    row = scored_against[black]
                    row[white] = row.get(white, 0) + white_halves
                if black_halves:
                    row = scored_against[white]
                    row[black] = row.get(black, 0) + black_halves
        for entry in rnd.entries:
            internal_points[entry.participant] += self.units(entry.points) * scale
        for pid, participant in self.participants.items():
            if (
                pid not in over_the_board
                and (participant.withdrawn_round is None or number < participant.withdrawn_round)
                and (self.count_before_joining or number >= participant.joined_round)
            ):
                internal_points[pid] += self.unplayed_units
        self._sonneborn_berger = None

    @property
    def sonneborn_berger(self) -> dict[int, int]:
        """SB of everybody in units of 1/(2U), computed when first asked after a round."""
        if self._sonneborn_berger is None:
            sb = dict.fromkeys(self.participants, 0)
            internal_points = self.internal_points
            for opponent, row in self.scored_against.items():
                value = internal_points[opponent]
                if value:
                    for scorer, halves in row.items():
                        sb[scorer] += halves * value
            self._sonneborn_berger = sb
        return self._sonneborn_berger

    def standing_keys(self) -> dict[int, int]:
        internal_points, shift = self.internal_points, SHIFT
        return {pid: sb * shift + internal_points[pid] for pid, sb in self.sonneborn_berger.items()}

    def order_among(self, pids: Iterable[int]) -> list[int]:
        """As :meth:`ScoreKeeper.order_among`, on SB then internal points directly (the order of
        the keys ``sb·SHIFT + internal points``) without a key for everybody: a simulated ladder
        asks every round, for the players present."""
        sb, internal_points = self.sonneborn_berger, self.internal_points
        game_units, tie_order = self.game_units, self.tie_order
        return sorted(
            pids,
            key=lambda pid: (-sb[pid], -internal_points[pid], -game_units[pid], tie_order[pid]),
        )

    def primary(self, pid: int) -> Fraction:
        return Fraction(self.sonneborn_berger[pid], 2 * self.unit)

    def internal(self, pid: int) -> Fraction:
        return Fraction(self.internal_points[pid], self.unit)

    def figures(self, pid: int) -> dict[str, Fraction]:
        return {SB: self.primary(pid), IP: self.internal(pid)}
