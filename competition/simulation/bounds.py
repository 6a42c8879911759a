"""What is certain about the final standings: every participant's best and worst final score.

The simulation estimates chances; this module proves things. The *outcomes* it speaks about
are those the simulation plays (docs/scoring.md, "Can I still win?"): in each remaining round
every participant who has joined and not withdrawn is present or absent (with notice), a game
ends 1-0, ½-½ or 0-1, the odd player out gets the season's bye points, and in a round robin an
absent player loses by forfeit. For each participant it gives a lower and an upper bound on
his final primary score (the figure the standings are sorted on first) that hold in *every*
such outcome, whatever the pairings: exact arithmetic, sound, not always tight.

From them (:func:`place_bounds`): another participant is *surely ahead* of P when his lowest
possible score beats P's highest (strictly), and *possibly ahead* when his highest reaches P's
lowest. P's best place is 1 + the number surely ahead, his worst 1 + the number possibly ahead.
"First place secured" means nobody can even draw level; "no longer possible" that someone is
surely ahead. The bounds per system:

- ``points``: each round's value depends on that round alone: the best and worst a round can
  give, added up. Exact for every participant on his own.
- ``internal-sb``: internal points (IP) never fall; a participant's highest IP takes the best
  round every time (a bye's points + the unplayed value, a forfeit win in a round robin, or a
  win), his lowest the rounds he cannot avoid (before joining). SB = Σ score × opponent's IP:
  its highest uses every earlier opponent's highest IP and, per remaining round, a win against
  the highest IP anyone can reach; its lowest the earlier opponents' lowest IP and nothing more.
- ``van-den-brink``: per round, intervals of every participant's points and rank value (a rank
  value can become the points after an update), and per game the result part plus the factor
  times the widest difference of rank values those intervals allow; not playing changes
  nothing.
- ``keizer``: a score is fractions times values of places, and every value lies between the
  last place's and the first's (also averaged over a cycle): each term at the worst and the
  best of those values, per its sign.

Worked example (points, one round left, win 1): A 3, B 2½, C 1. A's lowest is 3 (a loss or an
absence adds nothing), B's highest 3½, C's 2: C's first place is no longer possible (A's 3 >
C's 2), A's is not secured (B can pass him), B's is not excluded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from competition.scoring.model import Participant, SeasonInput
from competition.scoring.parameters import EMPTY
from competition.scoring.systems.internal_sb import InternalSBKeeper
from competition.scoring.systems.keizer import place_values, top_value_of
from competition.scoring.systems.keizer_keeper import KeizerKeeper
from competition.scoring.systems.points import PointsKeeper
from competition.scoring.systems.running import ScoreKeeper
from competition.scoring.systems.van_den_brink import VanDenBrinkKeeper

ZERO = Fraction(0)
HALF = Fraction(1, 2)
ONE = Fraction(1)


class Kind(Enum):
    """What a remaining round can be for a participant (in the outcomes the simulation plays)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    BYE = "bye"
    ABSENT = "absent"  # absent with notice; in a round robin a forfeit loss
    FORFEIT_WIN = "forfeit_win"  # round robin: the opponent is absent
    OUT = "out"  # not taking part: not joined yet, or withdrawn


GAMES = (Kind.WIN, Kind.DRAW, Kind.LOSS)
SCORE = {Kind.WIN: ONE, Kind.DRAW: HALF, Kind.LOSS: ZERO}


@dataclass(frozen=True, slots=True)
class Option:
    """One way a remaining round can go for a participant: the game points he scores and what
    it can add to his primary score (``low`` .. ``high``)."""

    kind: Kind
    game_points: Fraction
    low: Fraction
    high: Fraction


@dataclass(frozen=True, slots=True)
class ScoreBounds:
    """A participant's final primary score lies in ``base_low + Σ option.low`` ..
    ``base_high + Σ option.high`` for the options his remaining rounds take (one per round)."""

    participant_id: int
    base_low: Fraction
    base_high: Fraction
    rounds: tuple[tuple[Option, ...], ...]  # per remaining round, what it can be

    @property
    def low(self) -> Fraction:
        return self.base_low + sum((min(o.low for o in r) for r in self.rounds), ZERO)

    @property
    def high(self) -> Fraction:
        return self.base_high + sum((max(o.high for o in r) for r in self.rounds), ZERO)

    def by_game_points(self) -> dict[Fraction, tuple[Fraction, Fraction]]:
        """For each number of game points he can score in the remaining rounds: the lowest
        and the highest final score he can have with exactly that many."""
        reach: dict[Fraction, tuple[Fraction, Fraction]] = {ZERO: (ZERO, ZERO)}
        for options in self.rounds:
            grown: dict[Fraction, tuple[Fraction, Fraction]] = {}
            for points, (low, high) in reach.items():
                for option in options:
                    key = points + option.game_points
                    new = (low + option.low, high + option.high)
                    known = grown.get(key)
                    grown[key] = (
                        new if known is None else (min(known[0], new[0]), max(known[1], new[1]))
                    )
            reach = grown
        return {
            points: (self.base_low + low, self.base_high + high)
            for points, (low, high) in sorted(reach.items())
        }


def _kinds(participant: Participant, number: int, round_robin: bool) -> tuple[Kind, ...]:
    """What round ``number`` can be for him, as the simulation plays it."""
    if number < participant.joined_round:
        return (Kind.OUT,)
    withdrawn = participant.withdrawn_round is not None and number >= participant.withdrawn_round
    if round_robin:  # on the table; absent (also after withdrawing): a forfeit loss
        return (
            (Kind.ABSENT, Kind.BYE)
            if withdrawn
            else (*GAMES, Kind.FORFEIT_WIN, Kind.BYE, Kind.ABSENT)
        )
    return (Kind.OUT,) if withdrawn else (*GAMES, Kind.BYE, Kind.ABSENT)


def _game_points(kind: Kind, bye_points: Fraction) -> Fraction:
    if kind in SCORE:
        return SCORE[kind]
    if kind is Kind.FORFEIT_WIN:
        return ONE
    return bye_points if kind is Kind.BYE else ZERO


def score_bounds(
    season: SeasonInput,
    keeper: ScoreKeeper,
    *,
    rounds_left: int,
    bye_points: Fraction,
) -> dict[int, ScoreBounds]:
    """Every participant's :class:`ScoreBounds` after ``rounds_left`` more rounds; ``keeper``
    holds the figures of the completed rounds (see ``simulation.keepers.keeper_for``)."""
    first = keeper.round_number + 1
    numbers = range(first, first + rounds_left)
    round_robin = season.round_robin
    kinds = {
        pid: [_kinds(p, number, round_robin) for number in numbers]
        for pid, p in keeper.participants.items()
    }
    if isinstance(keeper, PointsKeeper):
        return _points(keeper, kinds, bye_points, round_robin)
    if isinstance(keeper, InternalSBKeeper):
        return _internal_sb(keeper, kinds, bye_points)
    if isinstance(keeper, VanDenBrinkKeeper):
        return _van_den_brink(keeper, kinds, bye_points, round_robin)
    if isinstance(keeper, KeizerKeeper):
        return _keizer(keeper, kinds, bye_points, round_robin)
    # Any other keeper (the engine's): nothing is proven beyond today's score.
    anything = (Option(Kind.OUT, ZERO, -_FAR, _FAR),)
    return {
        pid: ScoreBounds(pid, keeper.primary(pid), keeper.primary(pid), (anything,) * rounds_left)
        for pid in keeper.participants
    }


_FAR = Fraction(10**12)  # more than any score: "anything"


def _points(
    keeper: PointsKeeper,
    kinds: Mapping[int, list[tuple[Kind, ...]]],
    bye_points: Fraction,
    round_robin: bool,
) -> dict[int, ScoreBounds]:
    win, draw, loss = (Fraction(keeper.parameters[name]) for name in ("win", "draw", "loss"))
    bye = ZERO if bye_points == 0 else draw if bye_points == HALF else bye_points * win
    value = {
        Kind.WIN: win, Kind.DRAW: draw, Kind.LOSS: loss, Kind.FORFEIT_WIN: win, Kind.BYE: bye,
        # absent: nothing; in a round robin a forfeit loss, worth a loss
        Kind.ABSENT: loss if round_robin else ZERO, Kind.OUT: ZERO,
    }  # fmt: skip
    bounds = {}
    for pid, per_round in kinds.items():
        rounds = tuple(
            tuple(
                Option(kind, _game_points(kind, bye_points), value[kind], value[kind])
                for kind in options
            )
            for options in per_round
        )
        now = keeper.primary(pid)
        bounds[pid] = ScoreBounds(pid, now, now, rounds)
    return bounds


def _internal_sb(
    keeper: InternalSBKeeper, kinds: Mapping[int, list[tuple[Kind, ...]]], bye_points: Fraction
) -> dict[int, ScoreBounds]:
    unplayed = Fraction(keeper.parameters["unplayed_value"])
    before_joining = bool(keeper.parameters["count_rounds_before_joining"])
    first = keeper.round_number + 1

    def ip_gain(participant: Participant, kind: Kind, number: int) -> Fraction:
        if kind in SCORE:
            return SCORE[kind]
        if kind is Kind.FORFEIT_WIN:
            return ONE + unplayed
        withdrawn = (
            participant.withdrawn_round is not None and number >= participant.withdrawn_round
        )
        if kind is Kind.BYE:
            return bye_points + (ZERO if withdrawn else unplayed)
        if kind is Kind.ABSENT:
            return ZERO if withdrawn else unplayed
        # not taking part: before joining, unplayed if the season says so; after withdrawing never
        return unplayed if before_joining and number < participant.joined_round else ZERO

    ip_low: dict[int, Fraction] = {}
    ip_high: dict[int, Fraction] = {}
    for pid, per_round in kinds.items():
        participant = keeper.participants[pid]
        gains = [
            [ip_gain(participant, kind, first + index) for kind in options]
            for index, options in enumerate(per_round)
        ]
        now = keeper.internal(pid)
        ip_low[pid] = now + sum((min(g) for g in gains), ZERO)
        ip_high[pid] = now + sum((max(g) for g in gains), ZERO)
    scored: dict[int, dict[int, Fraction]] = {pid: {} for pid in keeper.participants}
    for opponent, row in keeper.scored_against.items():
        for scorer, halves in row.items():
            scored[scorer][opponent] = Fraction(halves, 2)
    bounds = {}
    for pid, per_round in kinds.items():
        others = [other for other in keeper.participants if other != pid]
        best_opponent = max((ip_high[o] for o in others), default=ZERO)
        worst_opponent = min((ip_low[o] for o in others), default=ZERO)
        base_low = sum((s * ip_low[o] for o, s in scored[pid].items()), ZERO)
        base_high = sum((s * ip_high[o] for o, s in scored[pid].items()), ZERO)
        rounds = tuple(
            tuple(
                Option(
                    kind,
                    _game_points(kind, bye_points),
                    SCORE.get(kind, ZERO) * worst_opponent,
                    SCORE.get(kind, ZERO) * best_opponent,
                )
                for kind in options
            )
            for options in per_round
        )
        bounds[pid] = ScoreBounds(pid, base_low, base_high, rounds)
    return bounds


def _van_den_brink(
    keeper: VanDenBrinkKeeper,
    kinds: Mapping[int, list[tuple[Kind, ...]]],
    bye_points: Fraction,
    round_robin: bool,
) -> dict[int, ScoreBounds]:
    unit = keeper.unit
    loss, draw, win = (Fraction(units, unit) for units in keeper.part_units)
    part = {Kind.LOSS: loss, Kind.DRAW: draw, Kind.WIN: win}
    if keeper.forfeits_count and round_robin:  # a forfeit counts as a game (a double one not)
        part |= {Kind.FORFEIT_WIN: win, Kind.ABSENT: loss}
    factor, per_update = keeper.factor, keeper.games_per_update
    points = {pid: Fraction(v, unit) for pid, v in keeper.points.items()}
    low, high = dict(points), dict(points)
    rv_low = {pid: Fraction(v, unit) for pid, v in keeper.rank_value.items()}
    rv_high = dict(rv_low)
    games_low, games_high = dict(keeper.games), dict(keeper.games)
    options: dict[int, list[tuple[Option, ...]]] = {pid: [] for pid in keeper.participants}
    rounds_left = len(next(iter(kinds.values()), []))
    for index in range(rounds_left):
        # everybody's rank value at the start of the round lies in these
        lowest_rv, highest_rv = min(rv_low.values()), max(rv_high.values())
        for pid, per_round in kinds.items():
            round_options = []
            for kind in per_round[index]:
                gain_low = gain_high = ZERO
                if kind in part:
                    gain_low = part[kind] + factor * (lowest_rv - rv_high[pid])
                    gain_high = part[kind] + factor * (highest_rv - rv_low[pid])
                    if kind is Kind.ABSENT:  # a double forfeit changes nothing
                        gain_low, gain_high = min(ZERO, gain_low), max(ZERO, gain_high)
                game_points = _game_points(kind, bye_points)
                round_options.append(Option(kind, game_points, gain_low, gain_high))
            options[pid].append(tuple(round_options))
        for pid, per_round in kinds.items():
            chosen = options[pid][-1]
            low[pid] += min(o.low for o in chosen)
            high[pid] += max(o.high for o in chosen)
            if any(kind in part for kind in per_round[index]):
                games_high[pid] += 1
                if any(
                    count % per_update == 0 and (keeper.every_n or count == per_update)
                    for count in range(games_low[pid] + 1, games_high[pid] + 1)
                ):  # the rank value may become the points after this round's game
                    rv_low[pid] = min(rv_low[pid], low[pid])
                    rv_high[pid] = max(rv_high[pid], high[pid])
    return {
        pid: ScoreBounds(pid, points[pid], points[pid], tuple(options[pid]))
        for pid in keeper.participants
    }


def _keizer(
    keeper: KeizerKeeper,
    kinds: Mapping[int, list[tuple[Kind, ...]]],
    bye_points: Fraction,
    round_robin: bool,
) -> dict[int, ScoreBounds]:
    parameters = keeper.parameters
    size = len(keeper.ids)
    step = Fraction(parameters["value_step"])
    values = place_values(top_value_of(parameters, size), step, size)
    lowest, highest = min(values), max(values)

    def times_a_value(fraction: Fraction) -> tuple[Fraction, Fraction]:
        """``fraction`` × the value of some place (or an average of such): lowest, highest."""
        ends = (fraction * lowest, fraction * highest)
        return min(ends), max(ends)

    absent = "forfeit_loss" if round_robin else "absent_with_notice"
    fraction = {
        kind: Fraction(parameters[name])
        for kind, name in (
            (Kind.WIN, "win"), (Kind.DRAW, "draw"), (Kind.LOSS, "loss"), (Kind.BYE, "bye"),
            (Kind.FORFEIT_WIN, "forfeit_win"), (Kind.ABSENT, absent),
        )
    }  # fmt: skip
    absences_capped = parameters["max_paid_absences"] != EMPTY and not round_robin
    before_joining = parameters["before_joining"] == "absent_with_notice"
    unit = keeper.terms.unit
    scored: dict[int, list[Fraction]] = {pid: [] for pid in keeper.ids}
    for against in keeper.against:
        for p, weight in against:
            scored[keeper.ids[p]].append(Fraction(weight, unit))
    bounds = {}
    for p, pid in enumerate(keeper.ids):
        # his own value counts with the fractions summed so far; each game with its opponent's
        terms = [times_a_value(Fraction(keeper.own[p], unit))]
        terms += [times_a_value(f) for f in scored[pid]]
        rounds = []
        for options in kinds[pid]:
            round_options = []
            for kind in options:
                if kind is Kind.OUT:  # before joining: as absent with notice if the season says
                    with_notice = Fraction(parameters["absent_with_notice"])
                    shares = [with_notice, ZERO] if before_joining else [ZERO]
                else:
                    shares = [fraction[kind]]
                    if kind is Kind.ABSENT and absences_capped:
                        shares.append(ZERO)  # beyond the paid absences
                ends = [times_a_value(share) for share in shares]
                low_end, high_end = min(e[0] for e in ends), max(e[1] for e in ends)
                game_points = _game_points(kind, bye_points)
                round_options.append(Option(kind, game_points, low_end, high_end))
            rounds.append(tuple(round_options))
        low = sum((t[0] for t in terms), ZERO)
        high = sum((t[1] for t in terms), ZERO)
        bounds[pid] = ScoreBounds(pid, low, high, tuple(rounds))
    return bounds


@dataclass(frozen=True, slots=True)
class Places:
    """What the bounds prove about one participant's final place and what he needs for first."""

    participant_id: int
    best_place: int  # he cannot finish higher
    worst_place: int  # he cannot finish lower
    # the fewest game points in the remaining rounds without which first place is impossible
    # (None: first place is impossible anyway)
    needs: Fraction | None
    # game points in the remaining rounds with which first place is his whatever the others do
    # (None: no number of points does that)
    secures: Fraction | None


def places_among(
    bounds: Mapping[int, ScoreBounds], members: Iterable[int]
) -> dict[int, tuple[int, int]]:
    """The best and worst place each of ``members`` can still finish in among ``members`` (a
    prize category's ranking): ahead of him for certain is whoever's lowest score beats his
    highest, ahead of him possibly whoever's highest reaches his lowest.

    >>> sure = ScoreBounds(1, Fraction(5), Fraction(5), ())
    >>> open_ = ScoreBounds(2, Fraction(2), Fraction(6), ())
    >>> behind = ScoreBounds(3, Fraction(1), Fraction(4), ())
    >>> places_among({1: sure, 2: open_, 3: behind}, [1, 3])
    {1: (1, 1), 3: (2, 2)}
    >>> places_among({1: sure, 2: open_, 3: behind}, [1, 2, 3])
    {1: (1, 2), 2: (1, 3), 3: (2, 3)}
    """
    chosen = [pid for pid in members if pid in bounds]
    low = {pid: bounds[pid].low for pid in chosen}
    high = {pid: bounds[pid].high for pid in chosen}
    return {
        pid: (
            1 + sum(low[o] > high[pid] for o in chosen if o != pid),
            1 + sum(high[o] >= low[pid] for o in chosen if o != pid),
        )
        for pid in chosen
    }


def place_bounds(bounds: Mapping[int, ScoreBounds]) -> dict[int, Places]:
    """Best and worst place, points needed and points that secure first, per participant."""
    low = {pid: b.low for pid, b in bounds.items()}
    high = {pid: b.high for pid, b in bounds.items()}
    among = places_among(bounds, bounds)
    places = {}
    for pid, own in bounds.items():
        others = [other for other in bounds if other != pid]
        best_place, worst_place = among[pid]
        surely_ahead = best_place - 1
        best_rival_low = max((low[o] for o in others), default=None)
        best_rival_high = max((high[o] for o in others), default=None)
        needs = secures = None
        by_points = own.by_game_points()
        for points, (_, score_high) in by_points.items():
            if best_rival_low is None or score_high >= best_rival_low:
                needs = points
                break
        if surely_ahead:
            needs = None
        for points in by_points:
            # at least this many points: the lowest score with any number from here on
            score_low = min(low_ for p, (low_, _) in by_points.items() if p >= points)
            if best_rival_high is None or score_low > best_rival_high:
                secures = points
                break
        places[pid] = Places(pid, best_place, worst_place, needs, secures)
    return places


__all__ = [
    "Kind",
    "Option",
    "Places",
    "ScoreBounds",
    "place_bounds",
    "places_among",
    "score_bounds",
]
