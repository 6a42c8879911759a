"""The Keizer system: a game is worth the opponent's value, and values follow from the ranking.

Source: the rule as the club's request states it (no seed document describes Keizer;
docs/scoring.md and docs/sources.md say so). Every place r of the ranking has a value::

    V(r) = max(0, top_value − (r − 1) × value_step)

with ``top_value`` round(1.5 × participants) (half up) unless the season fixes it. A
participant's Keizer score after round R is::

    [his own value, once, if own_value_in_score]
    + Σ over his games over the board of   fraction(result) × V(opponent)   (win 1, draw ½, loss 0)
    + Σ over his rounds without a game of  fraction(kind) × V(own)          (bye ⅔, absent ⅓, ...)

The values are those of the ranking after R (herberekening: every earlier round is recomputed with
today's values), which itself follows from the scores. ``recalculation`` says how that circle is
closed after each round:

- ``fixed_point``: start from the start list's values (ranking 0), score, rank (ranking 1),
  take the new ranking's values, and repeat until the ranking no longer changes, computing at
  most ``max_iterations`` (20) rankings. When a ranking repeats an earlier one (a cycle,
  usually A → B → A; the start list counts), the scores are computed once more with every
  participant's value averaged over the rankings of the cycle, and the ranking they give is
  final. The 20th ranking is still checked: a fixed point or a cycle found there settles the
  round as one found earlier. Only when the 20th ranking is neither does the limit apply: it
  stands, with the scores that gave it (computed with the 19th ranking's values).
- ``previous_values``: one pass with the values of the ranking after the previous round.
- ``frozen``: the values of the start list all season.

Ties in score go to the season's tie-breaks, then the ranking after the previous round, then the
start list (start rank, name); the ranking is therefore strict and every place has one value.

Worked example (top 10, step 1): A (place 1, value 10) beats B (place 2, value 9) and C (place 3,
value 8) has a bye. With own values: A 10 + 9 = 19, B 9 + 0 = 9, C 8 + ⅔ × 8 = 13⅓. The new
ranking A, C, B gives B value 8 and C value 9: A 10 + 8 = 18, B 8, C 9 + 6 = 15; that ranking
repeats, so it is the fixed point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from competition.scoring.model import (
    Contribution,
    EntryKind,
    ParameterValues,
    Participant,
    Result,
    external_results,
)
from competition.scoring.parameters import EMPTY, ParameterKind, ParameterSpec
from competition.scoring.records import RoundRecord, ScoringInputError
from competition.scoring.systems.base import Ranker, RankingSystem, SystemContext, SystemRound
from competition.scoring.systems.units import FractionCache, to_units
from competition.scoring.text import gettext_noop

KEIZER = "KEIZER"
VALUE = "VALUE"
FIXED_POINT = "fixed_point"
PREVIOUS_VALUES = "previous_values"
FROZEN = "frozen"
RESULT = "result"

# How a round's ranking was settled (KeizerRound.settled).
SETTLED_FIXED = "fixed"  # the ranking reproduced itself
SETTLED_CYCLE = "cycle"  # values averaged over a cycle of rankings
SETTLED_LIMIT = "limit"  # max_iterations reached without a fixed point or a cycle
SETTLED_ONE_PASS = "one_pass"  # previous_values and frozen: one pass by definition
MAX_ITERATIONS = 20  # rankings per round in fixed_point mode before the limit applies

OWN_VALUE_NOTE = gettext_noop("own value")
EXTERNAL_NOTE = gettext_noop("external game")
BEFORE_JOINING_NOTE = gettext_noop("before joining")
NOTHING = "nothing"
ABSENT_WITH_NOTICE = "absent_with_notice"
BEYOND_PAID_NOTE = gettext_noop("beyond the paid absences")
VALUE_NOTE = gettext_noop("value of place %(n)s")

_ENTRY_PARAMETER = {
    EntryKind.BYE: "bye",
    EntryKind.ABSENT_NOTICE: "absent_with_notice",
    EntryKind.ABSENT_NO_NOTICE: "absent_without_notice",
    EntryKind.CLUB_DUTY: "club_duty",
}
_FRACTION_NAMES = (
    "win", "draw", "loss", "absent_with_notice", "absent_without_notice", "club_duty", "bye",
    "forfeit_win", "forfeit_loss",
)  # fmt: skip


def top_value_of(parameters: ParameterValues, participants: int) -> Fraction:
    """The value of place 1: the season's ``top_value``, or round(1.5 × participants), half up.

    >>> top_value_of({"top_value": ""}, 25), top_value_of({"top_value": 60}, 25)
    (Fraction(38, 1), Fraction(60, 1))
    """
    top = parameters["top_value"]
    if top == EMPTY:
        return Fraction((3 * participants + 1) // 2)
    return Fraction(top)


def place_values(top: Fraction, step: Fraction, places: int) -> list[Fraction]:
    """V(1), V(2), ...: ``top − (place − 1) × step``, never below 0.

    >>> place_values(Fraction(3), Fraction(1), 5)
    [Fraction(3, 1), Fraction(2, 1), Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)]
    """
    return [max(Fraction(0), top - index * step) for index in range(places)]


@dataclass(frozen=True, slots=True)
class RoundTerm:
    """What one round adds to a participant's score: ``fraction`` × a value.

    ``opponent`` is set for a game over the board (the opponent's value counts); otherwise the
    participant's own value counts.
    """

    round_number: int
    fraction: Fraction
    opponent: int | None
    note: str


def round_term(
    record: RoundRecord,
    parameters: ParameterValues,
    paid_absences: int,
    external: Fraction | None = None,
) -> RoundTerm:
    """The term of one round; ``paid_absences`` counts the absences with notice before it;
    ``external`` is the result of the external game a club duty was (a team match): it counts
    its result (``external_game`` "result") or the fixed fraction the season sets, times the
    own value.

    >>> params = {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0),
    ...           "bye": Fraction(2, 3), "max_paid_absences": ""}
    >>> round_term(RoundRecord(3, Fraction(1, 2), opponent=7, result=Result.DRAW), params, 0)
    RoundTerm(round_number=3, fraction=Fraction(1, 2), opponent=7, note='')
    """
    number = record.round_number
    if record.played:
        name = "win" if record.points == 1 else "draw" if record.points * 2 == 1 else "loss"
        return RoundTerm(number, Fraction(parameters[name]), record.opponent, "")
    if record.result is Result.NOT_PLAYED:
        return RoundTerm(number, Fraction(0), None, gettext_noop("no result"))
    if record.result is not None:  # a forfeit; a double forfeit is lost by both
        won = record.points == 1
        name = "forfeit_win" if won else "forfeit_loss"
        note = gettext_noop("forfeit win") if won else gettext_noop("forfeit loss")
        return RoundTerm(number, Fraction(parameters[name]), None, note)
    kind = record.entry or EntryKind.NOT_PAIRED
    if record.before_joining and parameters.get("before_joining") == ABSENT_WITH_NOTICE:
        return RoundTerm(
            number, Fraction(parameters["absent_with_notice"]), None, BEFORE_JOINING_NOTE
        )
    if kind is EntryKind.NOT_PAIRED:
        return RoundTerm(number, Fraction(0), None, kind.value)
    if kind is EntryKind.CLUB_DUTY and external is not None:
        rule = parameters["external_game"]
        fraction = external if rule == RESULT else Fraction(rule)
        return RoundTerm(number, fraction, None, EXTERNAL_NOTE)
    limit = parameters["max_paid_absences"]
    if kind is EntryKind.ABSENT_NOTICE and limit != EMPTY and paid_absences >= int(limit):
        return RoundTerm(number, Fraction(0), None, f"{kind.value}; {BEYOND_PAID_NOTE}")
    return RoundTerm(number, Fraction(parameters[_ENTRY_PARAMETER[kind]]), None, kind.value)


@dataclass(frozen=True, slots=True)
class KeizerRound:
    """How the ranking after one round came about."""

    round_number: int
    order: tuple[int, ...]  # the ranking, best first
    previous: tuple[int, ...]  # the ranking after the previous round (the start list for 0)
    used: Mapping[int, Fraction]  # the values the scores were computed with
    value: Mapping[int, Fraction]  # VALUE: the value of each one's place in ``order``
    score: Mapping[int, Fraction]  # KEIZER
    passes: int  # rankings asked for
    settled: str  # SETTLED_FIXED, SETTLED_CYCLE, SETTLED_LIMIT or SETTLED_ONE_PASS
    cycle: int  # how many rankings the values were averaged over (1 unless SETTLED_CYCLE)


def round_terms(
    records: Sequence[RoundRecord],
    parameters: ParameterValues,
    externals: Mapping[int, Fraction] | None = None,
) -> list[RoundTerm]:
    """One participant's terms, round by round (the absences with notice counted as they come);
    ``externals`` the results of his external games by round."""
    terms: list[RoundTerm] = []
    paid = 0
    externals = externals or {}
    for record in records:
        terms.append(round_term(record, parameters, paid, externals.get(record.round_number)))
        if record.entry is EntryKind.ABSENT_NOTICE:
            paid += 1
    return terms


@dataclass(slots=True)
class _Sheet:
    """Every participant's terms as whole numbers of 1/``unit``, with prefix counts per round.

    Participants are numbered by position (``ids[position]``, the context's order); the inner
    loops index lists by position rather than dictionaries by id.
    """

    unit: int
    ids: list[int]
    games: list[list[tuple[int, int]]]  # (opponent's position, fraction in units), round order
    games_after: list[list[int]]  # games over the board among rounds 1..r
    own_after: list[list[int]]  # summed fractions of the own value after round r


def term_unit(parameters: ParameterValues, externals: Mapping[tuple[int, int], Fraction]) -> int:
    """A denominator that makes every term's fraction a whole number (externals: the results of
    the season's external games)."""
    rule = parameters["external_game"]
    return lcm(
        *(Fraction(parameters[name]).denominator for name in _FRACTION_NAMES),
        *(
            (value.denominator for value in externals.values())
            if rule == RESULT
            else (Fraction(rule).denominator,)
        ),
    )


class TermUnits:
    """:func:`round_term`'s fraction in whole units of 1/``unit``, asked once per distinct
    combination of what it depends on: a record's points, result and entry kind, and whether
    the absences paid before it reached ``max_paid_absences`` (a handful per season). Rounds
    before joining and external games are asked every time (a handful per season)."""

    __slots__ = ("cap", "known", "parameters", "unit")

    def __init__(self, parameters: ParameterValues, unit: int) -> None:
        self.parameters = parameters
        self.unit = unit
        limit = parameters["max_paid_absences"]
        self.cap = 0 if limit == EMPTY else int(limit)
        # (points, id of the result, id of the entry kind, paid capped) -> units; results and
        # entry kinds are singletons, and an id hashes faster than an Enum.
        self.known: dict[tuple[int, int, int, int, int], int] = {}

    def __call__(
        self,
        number: int,
        points: int,
        points_unit: int,
        result: Result | None,
        entry: EntryKind | None,
        paid: int,
        *,
        before_joining: bool = False,
        external: Fraction | None = None,
    ) -> int:
        """The units of round ``number`` with ``points`` / ``points_unit`` game points."""
        if external is not None or before_joining:
            record = RoundRecord(
                number,
                Fraction(points, points_unit),
                result=result,
                entry=entry,
                before_joining=before_joining,
            )
            return to_units(round_term(record, self.parameters, paid, external).fraction, self.unit)
        key = (points, points_unit, id(result), id(entry), min(paid, self.cap))
        units = self.known.get(key)
        if units is None:
            record = RoundRecord(number, Fraction(points, points_unit), result=result, entry=entry)
            units = to_units(round_term(record, self.parameters, paid).fraction, self.unit)
            self.known[key] = units
        return units


def _sheet(context: SystemContext, parameters: ParameterValues) -> _Sheet:
    """The terms of :func:`round_terms` for everybody, read from the digest."""
    externals = external_results(context.season)
    unit = term_unit(parameters, externals)
    terms = TermUnits(parameters, unit)
    own_value_counts = bool(parameters["own_value_in_score"])
    digest = context.digest
    ids = list(context.participants)
    position = {pid: p for p, pid in enumerate(ids)}
    sheet = _Sheet(unit, ids, [], [], [])
    for pid in ids:
        games: list[tuple[int, int]] = []
        games_after = [0]
        own = unit if own_value_counts else 0
        own_after = [own]
        paid = 0
        rows = zip(
            digest.points[pid],
            digest.played[pid],
            digest.opponent[pid],
            digest.result[pid],
            digest.entry[pid],
            strict=True,
        )
        joined = context.participants[pid].joined_round
        for number, (points, played, opponent, result, entry) in enumerate(rows, start=1):
            units = terms(
                number,
                points,
                digest.unit,
                result,
                entry,
                paid,
                before_joining=number < joined,
                external=externals.get((pid, number)) if externals else None,
            )
            if entry is EntryKind.ABSENT_NOTICE:
                paid += 1
            if played:
                assert opponent is not None  # a game over the board has an opponent
                games.append((position[opponent], units))
            else:
                own += units
            games_after.append(len(games))
            own_after.append(own)
        sheet.games.append(games)
        sheet.games_after.append(games_after)
        sheet.own_after.append(own_after)
    return sheet


class Keizer(RankingSystem):
    key = "keizer"
    name = gettext_noop("Keizer system")
    description = gettext_noop(
        "Every place in the standings has a value: the top value for number one, a fixed step "
        "less for every place below. A game earns a fraction of your opponent's value, "
        "depending on the result; a round without a game earns a fraction of your own value, "
        "depending on why you did not play."
    )
    parameters = (
        ParameterSpec(
            "top_value", ParameterKind.INT, EMPTY,
            gettext_noop(
                "Value of place 1 (empty: 1.5 times the number of participants, rounded)"
            ),
            minimum=1, maximum=100000, words=(EMPTY,),
        ),
        ParameterSpec(
            "value_step", ParameterKind.FRACTION, Fraction(1),
            gettext_noop("Value difference per place"), minimum=Fraction(0), maximum=Fraction(1000),
        ),
        ParameterSpec(
            "own_value_in_score", ParameterKind.BOOL, True,
            gettext_noop("Your own value counts once in your score"),
        ),
        *(
            ParameterSpec(
                name, ParameterKind.FRACTION, default, description,
                minimum=Fraction(-10), maximum=Fraction(10),
            )
            for name, default, description in (
                ("win", Fraction(1), gettext_noop("Win: fraction of the opponent's value")),
                ("draw", Fraction(1, 2), gettext_noop("Draw: fraction of the opponent's value")),
                ("loss", Fraction(0), gettext_noop("Loss: fraction of the opponent's value")),
                (
                    "absent_with_notice", Fraction(1, 3),
                    gettext_noop("Absent with notice: fraction of your own value"),
                ),
                (
                    "absent_without_notice", Fraction(0),
                    gettext_noop("Absent without notice: fraction of your own value"),
                ),
                (
                    "club_duty", Fraction(2, 3),
                    gettext_noop("Club duty: fraction of your own value"),
                ),
                ("bye", Fraction(2, 3), gettext_noop("Bye: fraction of your own value")),
                (
                    "forfeit_win", Fraction(1),
                    gettext_noop("Forfeit win: fraction of your own value"),
                ),
                (
                    "forfeit_loss", Fraction(0),
                    gettext_noop("Forfeit loss: fraction of your own value"),
                ),
            )
        ),
        ParameterSpec(
            "external_game", ParameterKind.FRACTION, RESULT,
            gettext_noop(
                "External game (a team match on club night): its result, or a fixed fraction, "
                "times your own value"
            ),
            minimum=Fraction(0), maximum=Fraction(10), words=(RESULT,),
        ),
        ParameterSpec(
            "before_joining", ParameterKind.CHOICE, NOTHING,
            gettext_noop(
                "A late joiner's rounds before he joined count nothing or as absent with notice"
            ),
            choices=(NOTHING, ABSENT_WITH_NOTICE),
        ),
        ParameterSpec(
            "max_paid_absences", ParameterKind.INT, EMPTY,
            gettext_noop(
                "Absences with notice that earn points (empty: all); later ones earn nothing"
            ),
            minimum=0, maximum=1000, words=(EMPTY,),
        ),
        ParameterSpec(
            "recalculation", ParameterKind.CHOICE, FIXED_POINT,
            gettext_noop(
                "Recalculation: until the standings no longer change, once with the values after "
                "the previous round, or with the start list's values all season"
            ),
            choices=(FIXED_POINT, PREVIOUS_VALUES, FROZEN),
        ),
    )  # fmt: skip
    primary = KEIZER
    secondary = ()
    ranking_dependent = True

    def __init__(self, *, max_iterations: int = MAX_ITERATIONS) -> None:
        # the most rankings the fixed-point iteration computes per round (a cycle's settling
        # ranking comes on top); a season cannot change it, tests may
        self.max_iterations = max_iterations

    @property
    def figure_codes(self) -> tuple[str, ...]:
        return (KEIZER, VALUE)

    @property
    def summed_codes(self) -> tuple[str, ...]:
        return (KEIZER,)  # VALUE is the value of his place, not a sum

    def run(self, context: SystemContext, parameters: ParameterValues) -> tuple[KeizerRound, ...]:
        """The ranking after every round 0..upto_round, with the values and passes behind it.

        Computed once per context and parameters (kept in ``context.memo``): the participant
        page asks for it twice, for his explanation and for why he moved."""
        return context.remembered(
            ("keizer.run", self.max_iterations, tuple(sorted(parameters.items()))),
            lambda: self._run(context, parameters),
        )

    def _run(self, context: SystemContext, parameters: ParameterValues) -> tuple[KeizerRound, ...]:
        rank = context.rank
        if rank is None:
            raise ScoringInputError("the Keizer system needs the engine's ranking")
        sheet = _sheet(context, parameters)
        start, values, value_units, value_unit = start_places(context.participants, parameters)
        mode = parameters["recalculation"]
        caches: dict[int, FractionCache] = {}
        # against[q]: (position, fraction in units) for every game against position q so far;
        # a game worth nothing (a loss by default) adds nothing whatever q's value, so it is left
        # out of the updates
        against: list[list[tuple[int, int]]] = [[] for _ in sheet.ids]
        previous = start
        rounds: list[KeizerRound] = []
        for number in range(context.upto_round + 1):
            if number:
                for p, games in enumerate(sheet.games):
                    after = sheet.games_after[p]
                    for opponent, weight in games[after[number - 1] : after[number]]:
                        if weight:
                            against[opponent].append((p, weight))
            evaluate = Evaluation(
                sheet.ids, sheet.unit, [after[number] for after in sheet.own_after], number,
                rank, previous, against, value_units, value_unit, caches,
                bool(context.season.tiebreaks),
            )  # fmt: skip
            if mode == FIXED_POINT:
                result = evaluate.fixed_point(start, self.max_iterations)
            else:
                result = evaluate.once(start if mode == FROZEN else previous)
            order = result.order
            rounds.append(
                KeizerRound(
                    number,
                    order,
                    previous,
                    result.used,
                    {pid: values[place] for place, pid in enumerate(order)},
                    result.score,
                    evaluate.passes,
                    result.settled,
                    result.cycle,
                )
            )
            previous = order
        return tuple(rounds)

    def compute(
        self, context: SystemContext, parameters: ParameterValues, *, every_round: bool = True
    ) -> tuple[SystemRound, ...]:
        trace = self.run(context, parameters)  # every round: each ranking needs the one before
        return tuple(
            SystemRound(
                keizer_round.round_number,
                {
                    pid: {KEIZER: keizer_round.score[pid], VALUE: keizer_round.value[pid]}
                    for pid in context.participants
                },
                # ties after the tie-breaks: the previous round's ranking, as in run()
                tie_order={pid: place for place, pid in enumerate(keizer_round.previous)},
            )
            for keizer_round in (trace if every_round else trace[-1:])
        )

    def explain(
        self, context: SystemContext, parameters: ParameterValues, participant_id: int
    ) -> tuple[Contribution, ...]:
        """Own value, one line per round (game: opponent's value now and then), the value."""
        trace = self.run(context, parameters)
        now = trace[-1]
        own_value = now.used[participant_id]
        lines: list[Contribution] = []
        if parameters["own_value_in_score"]:
            lines.append(
                Contribution(
                    KEIZER, 0, own_value,
                    parts={"own_value": own_value, "fraction": Fraction(1)}, note=OWN_VALUE_NOTE,
                )
            )  # fmt: skip
        externals = {
            number: result
            for (pid, number), result in external_results(context.season).items()
            if pid == participant_id
        }
        for term in round_terms(context.records[participant_id], parameters, externals):
            if term.opponent is not None:
                opponent_value = now.used[term.opponent]
                # "then": his value in the standings the evening started from
                then = trace[term.round_number - 1].value[term.opponent]
                parts = {
                    "opponent_value": opponent_value,
                    "opponent_value_then": then,
                    "fraction": term.fraction,
                }
                amount = term.fraction * opponent_value
            else:
                parts = {"own_value": own_value, "fraction": term.fraction}
                amount = term.fraction * own_value
            lines.append(
                Contribution(
                    KEIZER, term.round_number, amount,
                    opponent_id=term.opponent, parts=parts, note=term.note,
                )
            )  # fmt: skip
        place = now.order.index(participant_id) + 1
        lines.append(
            Contribution(
                VALUE, now.round_number, now.value[participant_id],
                parts={"place": Fraction(place)}, note=VALUE_NOTE, note_values={"n": place},
            )
        )  # fmt: skip
        return tuple(lines)


def start_places(
    participants: Mapping[int, Participant], parameters: ParameterValues
) -> tuple[tuple[int, ...], list[Fraction], list[int], int]:
    """The start list (start rank, name, id), the value of every place, those values in whole
    units of 1/value unit, and the value unit."""
    start = tuple(
        sorted(
            participants,
            key=lambda pid: (
                participants[pid].start_rank is None,
                participants[pid].start_rank or 0,
                participants[pid].name,
                pid,
            ),
        )
    )
    top = top_value_of(parameters, len(start))
    values = place_values(top, Fraction(parameters["value_step"]), len(start))
    value_unit = lcm(*(value.denominator for value in values))
    return start, values, [to_units(value, value_unit) for value in values], value_unit


@dataclass(frozen=True, slots=True)
class Outcome:
    order: tuple[int, ...]
    used: dict[int, Fraction]
    score: dict[int, Fraction]
    settled: str
    cycle: int


class Evaluation:
    """Scoring and ranking one round with the values of given rankings; counts the passes.

    Scores are whole numbers of 1/(fraction unit × value unit), in lists by position (see
    :class:`_Sheet`); rankings inside are tuples of positions. ``against[q]`` lists who met
    ``q`` up to this round with which fraction, so a later pass only updates the scores touched
    by the values that changed (few, once the ranking settles).
    """

    def __init__(
        self,
        ids: list[int],
        unit: int,
        own: list[int],
        number: int,
        rank: Ranker | None,
        previous: tuple[int, ...],
        against: Sequence[list[tuple[int, int]]],
        value_units: Sequence[int],
        value_unit: int,
        caches: dict[int, FractionCache],
        has_tiebreaks: bool,
    ) -> None:
        self.has_tiebreaks = has_tiebreaks
        self.ids = ids
        self.position = {pid: p for p, pid in enumerate(ids)}
        self.unit = unit
        self.number = number
        self.rank = rank
        # ties after everything: the previous round's ranking (by id for the engine's ranking,
        # by position for our own sort)
        self.tie_order = {pid: place for place, pid in enumerate(previous)}
        self.tie_place = [self.tie_order[pid] for pid in ids]
        self.own = own  # per position: the summed fractions of his own value, in units
        self.against = against
        self.value_units = value_units
        self.value_unit = value_unit
        self.caches = caches
        # this round's engine order of each group of equal scores met so far, by its members
        self.group_orders: dict[frozenset[int], tuple[int, ...]] = {}
        self.passes = 0

    def _positions(self, order: tuple[int, ...]) -> tuple[int, ...]:
        position = self.position
        return tuple(position[pid] for pid in order)

    def _totals(self, value: Sequence[int]) -> list[int]:
        """Every score in units, computed afresh with ``value`` (in units) per position."""
        totals = [own * units for own, units in zip(self.own, value, strict=True)]
        for opponent, met in enumerate(self.against):
            opponent_value = value[opponent]
            if opponent_value:
                for p, weight in met:
                    totals[p] += weight * opponent_value
        return totals

    def _update(
        self,
        totals: list[int],
        old: Sequence[int],
        new: Sequence[int],
        old_order: tuple[int, ...],
        new_order: tuple[int, ...],
    ) -> None:
        """Turn ``totals`` computed with ``old`` values into those with ``new`` values.

        Only a position whose place changed can have a new value; each one is in ``new_order``
        once, at its new place.
        """
        own, against = self.own, self.against
        for was, p in zip(old_order, new_order, strict=True):
            if was != p:
                change = new[p] - old[p]
                if change:
                    totals[p] += own[p] * change
                    for other, weight in against[p]:
                        totals[other] += weight * change

    def _values(self, order: tuple[int, ...]) -> list[int]:
        """The value (in units) of each position's place in ``order``."""
        value = [0] * len(order)
        for units, p in zip(self.value_units, order, strict=True):
            value[p] = units
        return value

    def _order(self, totals: list[int], cycle: int) -> tuple[int, ...]:
        """The ranking the scores give: score, the season's tie-breaks, then the tie order.

        Our own sort (score, then the tie order) is the engine's ranking wherever no two scores
        are equal. Where some are, and the season has tie-breaks, the engine ranks the tied
        participants: within one round its order of a group of equal scores depends only on
        who is in the group (the tie-breaks and the tie order are the round's), so each group
        is asked for once per round and keeps the places its scores hold in our sort.
        """
        self.passes += 1
        size = len(totals)
        # score descending, then tie order: one whole number per position (tie places < size)
        keys = [place - total * size for total, place in zip(totals, self.tie_place, strict=True)]
        order = sorted(range(size), key=keys.__getitem__)
        if not self.has_tiebreaks or self.rank is None or len(set(totals)) == size:
            return tuple(order)
        groups: list[tuple[int, frozenset[int]]] = []  # (first place, members) of equal scores
        first = 0
        for place in range(1, size + 1):
            if place == size or totals[order[place]] != totals[order[first]]:
                if place - first > 1:
                    groups.append((first, frozenset(order[first:place])))
                first = place
        known = self.group_orders
        asked = [members for _, members in groups if members not in known]
        if asked:
            as_score = self._fractions(self.unit * self.value_unit * cycle)
            ids, position = self.ids, self.position
            ranked = self.rank(
                self.number,
                {ids[p]: {KEIZER: as_score[totals[p]]} for members in asked for p in members},
                self.tie_order,
            )
            group_of = {ids[p]: members for members in asked for p in members}
            placed: dict[frozenset[int], list[int]] = {members: [] for members in asked}
            for pid in ranked:
                placed[group_of[pid]].append(position[pid])
            known.update((members, tuple(ordered)) for members, ordered in placed.items())
        for first, members in groups:
            order[first : first + len(members)] = known[members]
        return tuple(order)

    def _outcome(
        self,
        order: tuple[int, ...],
        totals: Sequence[int],
        value: Sequence[int],
        cycle: int,
        settled: str,
    ) -> Outcome:
        """The figures of the final pass; ``value`` is summed over ``cycle`` rankings."""
        ids = self.ids
        as_value = self._fractions(self.value_unit * cycle)
        as_score = self._fractions(self.unit * self.value_unit * cycle)
        return Outcome(
            tuple(ids[p] for p in order),
            {pid: as_value[units] for pid, units in zip(ids, value, strict=True)},
            {pid: as_score[total] for pid, total in zip(ids, totals, strict=True)},
            settled,
            cycle,
        )

    def _fractions(self, denominator: int) -> FractionCache:
        """One cache per denominator, shared by every round of the run."""
        cache = self.caches.get(denominator)
        if cache is None:
            cache = self.caches[denominator] = FractionCache(denominator, limit=100_000)
        return cache

    def once(self, source: tuple[int, ...]) -> Outcome:
        value = self._values(self._positions(source))
        totals = self._totals(value)
        return self._outcome(self._order(totals, 1), totals, value, 1, SETTLED_ONE_PASS)

    def fixed_point(self, start: tuple[int, ...], max_iterations: int) -> Outcome:
        """Iterate from ``start`` until the ranking reproduces itself (see the module docstring)."""
        current = self._positions(start)
        seen = {current: 0}
        value = self._values(current)
        totals = self._totals(value)
        while True:
            order = self._order(totals, 1)
            if order == current:
                return self._outcome(order, totals, value, 1, SETTLED_FIXED)
            if order in seen:  # also at the last allowed ranking: a cycle, not the limit
                cycle = list(seen)[seen[order] :]
                summed = [0] * len(value)
                for member in cycle:
                    for p, units in enumerate(self._values(member)):
                        summed[p] += units
                totals = self._totals(summed)
                order = self._order(totals, len(cycle))
                return self._outcome(order, totals, summed, len(cycle), SETTLED_CYCLE)
            if self.passes >= max_iterations:
                return self._outcome(order, totals, value, 1, SETTLED_LIMIT)
            seen[order] = len(seen)
            new_value = self._values(order)
            self._update(totals, value, new_value, current, order)
            value = new_value
            current = order
