"""Chances of first place and of the top three, by playing the remaining rounds many times.

The model, per simulated round (docs/scoring.md, "Can I still win?"):

- **Attendance**: each participant who has joined by then comes with probability equal to his
  share of rounds present so far (a game, or a bye; not an absence or a forfeit he lost).
- **Pairing**: a ladder season is paired by the real pairing engine
  (:func:`competition.pairing.pair_round`) from the simulated standings, with the season's
  pairing rules; a round-robin season plays its Berger table (an absent player loses by
  forfeit). The odd player out gets the season's bye points.
- **Results**: the Elo expected score of white, E = 1 / (1 + 10^((Rb − Ra) / 400)), with the
  club's observed draw rate d: P(draw) = min(d, 2·min(E, 1 − E)), P(white wins) =
  E − P(draw)/2, P(black wins) = 1 − E − P(draw)/2, so the expected score stays E.
- **Scoring**: the season's own system and parameters, one round at a time
  (:mod:`competition.simulation.keepers`), ranked on the system's figures and game points.

A participant's chance is the share of simulations he finishes in that place; its margin of
error (95 %) is 1.96·sqrt(p(1 − p)/N). "What do I need" is the fewest game points scored in the
remaining rounds with which he finished first in at least one simulation.

Worked example: a game-points season, one round left, A has 3 points, B 1½, C 1. Nobody can
catch A (at most one more point each), so A's chance of first place is exactly 1 in every
simulation and B's and C's are 0.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Protocol

from competition.pairing import PairingHistory, PairingRules, pair_boards
from competition.pairing.berger import berger_cycle_round
from competition.scoring.engine import standings_after, tied_groups
from competition.scoring.model import Entry, EntryKind, Game, Result, Round, SeasonInput
from competition.simulation.bounds import place_bounds, places_among, score_bounds
from competition.simulation.keepers import EngineKeeper, ScoreKeeper, keeper_for, settle_order

DEFAULT_RATING = 1500
TOP = 3  # "the top three"
ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class SimulationInput:
    """The season so far (completed rounds, rules) and what the model assumes about the rest.

    ``categories`` (prize categories, by name: their members) are counted when given: the
    best placed member of a category wins it. ``ratings`` and ``attendance`` need not name
    everybody: see :func:`simulate`.
    """

    season: SeasonInput
    rounds_left: int
    ratings: Mapping[int, int] = field(default_factory=dict)
    attendance: Mapping[int, float] = field(default_factory=dict)
    draw_rate: float = 0.0
    bye_points: Fraction = Fraction(1)
    pairing: PairingRules = field(default_factory=PairingRules)
    categories: Mapping[str, frozenset[int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PlayerChances:
    participant_id: int
    # simulations he finished first in; a first place shared by k counts 1/k (places_shared)
    first: Fraction
    top_three: Fraction
    categories: Mapping[str, Fraction]  # simulations he won the category in
    # the fewest game points in the remaining rounds with which he finished first (None: never)
    needed_for_first: Fraction | None


@dataclass(frozen=True, slots=True)
class Chances:
    simulations: int
    rounds_left: int
    seed: int
    draw_rate: float
    players: tuple[PlayerChances, ...]  # in the current standing order (the simulation's)
    # per participant who finished first (or shared first) in a simulation, the rounds of the
    # first such simulation: an outcome that makes him first (outlook() checks it)
    witnesses: Mapping[int, tuple[Round, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def share(self, count: Fraction | int) -> float:
        return float(count) / self.simulations if self.simulations else 0.0


def expected_score(rating: float, opponent: float) -> float:
    """Elo's expected score. ``expected_score(1600, 1400)`` is 1/(1 + 10^(−0.5)) ≈ 0.760."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def result_probabilities(
    white: float, black: float, draw_rate: float
) -> tuple[float, float, float]:
    """P(white wins), P(draw), P(black wins).

    >>> result_probabilities(1500, 1500, 0.3)
    (0.35, 0.3, 0.35)
    """
    e = expected_score(white, black)
    draw = min(draw_rate, 2.0 * min(e, 1.0 - e))
    return e - draw / 2.0, draw, 1.0 - e - draw / 2.0


def margin_of_error(share: float, simulations: int) -> float:
    """Half the width of the 95 % interval of a share: 1.96·sqrt(p(1 − p)/N).

    >>> round(margin_of_error(0.5, 1000), 4)
    0.031
    """
    if simulations <= 0:
        return 0.0
    return 1.96 * math.sqrt(share * (1.0 - share) / simulations)


def attendance_share(season: SeasonInput) -> dict[int, float]:
    """Each participant's share of completed rounds present (from the round he joined).

    Present: a game he did not lose by forfeit, or a bye. A participant without such rounds
    yet gets the mean share of the others (1 when nobody has any); one who withdrew from the
    season never comes again (0).
    """
    present: dict[int, int] = {}
    rounds: dict[int, int] = {}
    for participant in season.participants:
        taking_part = [r for r in season.rounds if r.number >= participant.joined_round]
        rounds[participant.id] = len(taking_part)
        present[participant.id] = 0
    for rnd in season.rounds:
        for game in rnd.games:
            if game.result is not Result.DOUBLE_FORFEIT:
                if game.result is not Result.BLACK_WINS_FORFEIT:
                    present[game.white] = present.get(game.white, 0) + 1
                if game.result is not Result.WHITE_WINS_FORFEIT:
                    present[game.black] = present.get(game.black, 0) + 1
        for entry in rnd.entries:
            if entry.kind is EntryKind.BYE:
                present[entry.participant] = present.get(entry.participant, 0) + 1
    known = {pid: min(1.0, present[pid] / count) for pid, count in rounds.items() if count}
    mean = sum(known.values()) / len(known) if known else 1.0
    return {
        p.id: 0.0 if p.withdrawn_round is not None else known.get(p.id, mean)
        for p in season.participants
    }


def draw_rate_of(rounds: Iterable[Round]) -> float:
    """The share of draws among games played over the board (0 without games)."""
    played = draws = 0
    for rnd in rounds:
        for game in rnd.games:
            if game.result.is_played:
                played += 1
                draws += game.result is Result.DRAW
    return draws / played if played else 0.0


class _Figures:
    """A participant's colours and byes so far, as the pairing engine reads a present player
    (:class:`~competition.pairing.Pairable`); updated in place round by round."""

    __slots__ = (
        "allocated_byes", "blacks", "byes", "had_bye_last_round", "player_id", "requested_bye",
        "whites",
    )  # fmt: skip

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id
        self.whites = self.blacks = self.byes = self.allocated_byes = 0
        self.had_bye_last_round = self.requested_bye = False

    def copy(self) -> _Figures:
        twin = _Figures(self.player_id)
        twin.whites, twin.blacks = self.whites, self.blacks
        twin.byes, twin.allocated_byes = self.byes, self.allocated_byes
        twin.had_bye_last_round = self.had_bye_last_round
        return twin


class _Ladder:
    """What the pairing engine needs to know of the season so far: every participant's colours
    and byes (games over the board; every bye counts as pairing-allocated) and the games."""

    __slots__ = ("figures", "history", "last_byes")

    def __init__(self, figures: dict[int, _Figures], history: PairingHistory) -> None:
        self.figures = figures
        self.history = history
        self.last_byes: list[_Figures] = [f for f in figures.values() if f.had_bye_last_round]

    @classmethod
    def of(cls, season: SeasonInput) -> _Ladder:
        ladder = cls({p.id: _Figures(p.id) for p in season.participants}, PairingHistory())
        for rnd in season.rounds:
            ladder.add(rnd)
        return ladder

    def copy(self) -> _Ladder:
        figures = {pid: f.copy() for pid, f in self.figures.items()}
        return _Ladder(figures, self.history.copy())

    def add(self, rnd: Round) -> None:
        figures = self.figures
        boards: list[tuple[int, int]] = []
        for game in rnd.games:
            result = game.result  # Result.is_played, by identity (an enum's hash is slow)
            if result is _WHITE_WINS or result is _DRAW or result is _BLACK_WINS:
                figures[game.white].whites += 1
                figures[game.black].blacks += 1
                boards.append((game.white, game.black))
        self.history.add_round(rnd.number, boards)
        for player in self.last_byes:
            player.had_bye_last_round = False
        self.last_byes = []
        for entry in rnd.entries:
            if entry.kind is EntryKind.BYE:
                player = figures[entry.participant]
                player.byes += 1
                player.allocated_byes += 1
                player.had_bye_last_round = True
                self.last_byes.append(player)


_WHITE_WINS, _DRAW, _BLACK_WINS = Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS


class Choices(Protocol):
    """Who comes to a round and how its games end: the model's chance, or a chosen outcome."""

    def present(self, number: int, taking_part: list[int], keeper: ScoreKeeper) -> set[int]: ...

    def result(self, white: int, black: int, keeper: ScoreKeeper) -> Result: ...


class _ByChance:
    """The model: each comes with his share of rounds present; results by the ratings."""

    def __init__(self, data: SimulationInput, rng: random.Random) -> None:
        self.rng = rng
        self.draw_rate = data.draw_rate
        known = [r for r in data.ratings.values() if r]
        default = round(sum(known) / len(known)) if known else DEFAULT_RATING
        participants = data.season.participants
        self.rating = {p.id: data.ratings.get(p.id) or default for p in participants}
        self.attendance = {p.id: data.attendance.get(p.id, 1.0) for p in participants}

    def present(self, number: int, taking_part: list[int], keeper: ScoreKeeper) -> set[int]:
        chance, attendance = self.rng.random, self.attendance
        return {pid for pid in taking_part if chance() < attendance[pid]}

    def result(self, white: int, black: int, keeper: ScoreKeeper) -> Result:
        rating = self.rating
        white_wins, draw, _ = result_probabilities(rating[white], rating[black], self.draw_rate)
        u = self.rng.random()
        if u < white_wins:
            return Result.WHITE_WINS
        if u < white_wins + draw:
            return Result.DRAW
        return Result.BLACK_WINS


class _Round:
    """Plays one simulated round: who comes, who plays whom, the results."""

    def __init__(self, data: SimulationInput) -> None:
        season = data.season
        self.data = data
        settle = settle_order(season.participants)
        self.start_order = sorted(settle, key=settle.__getitem__)
        self.joined = {p.id: p.joined_round for p in season.participants}
        self.withdrawn = {p.id: p.withdrawn_round for p in season.participants}
        # (players, round) -> the Berger round: the same in every simulation
        self.berger: dict[tuple[int, int], tuple[list[tuple[int, int]], int | None]] = {}
        # an absence notice is the same entry in every round (entries are immutable)
        self.absent = {p.id: Entry(p.id, EntryKind.ABSENT_NOTICE) for p in season.participants}

    def play(
        self, choices: Choices, number: int, keeper: ScoreKeeper, ladder: _Ladder | None
    ) -> Round:
        taking_part = [pid for pid in self.start_order if self.joined[pid] <= number]
        present = choices.present(number, taking_part, keeper)
        if ladder is None:
            return self._berger(choices, number, keeper, taking_part, present)
        return self._ladder(choices, number, keeper, ladder, taking_part, present)

    def play_out(
        self, choices: Choices, keeper: ScoreKeeper, ladder: _Ladder | None, rounds: int
    ) -> list[Round]:
        """Play the ``rounds`` rounds after ``keeper``'s into ``keeper`` (and ``ladder``)."""
        played: list[Round] = []
        first = keeper.round_number + 1
        for number in range(first, first + rounds):
            rnd = self.play(choices, number, keeper, ladder)
            keeper.play_round(rnd)
            played.append(rnd)
            if ladder is not None:
                ladder.add(rnd)
        return played

    def _still_in(self, pid: int, number: int) -> bool:
        withdrawn = self.withdrawn[pid]
        return withdrawn is None or number < withdrawn

    def _berger(
        self,
        choices: Choices,
        number: int,
        keeper: ScoreKeeper,
        taking_part: list[int],
        present: set[int],
    ) -> Round:
        if len(taking_part) < 2:
            return Round(number)
        key = (len(taking_part), number)
        if key not in self.berger:
            self.berger[key] = berger_cycle_round(*key)
        pairs, bye_no = self.berger[key]
        games: list[Game] = []
        for white_no, black_no in pairs:
            white, black = taking_part[white_no - 1], taking_part[black_no - 1]
            if white in present and black in present:
                games.append(Game(white, black, choices.result(white, black, keeper)))
            elif white in present:
                games.append(Game(white, black, Result.WHITE_WINS_FORFEIT))
            elif black in present:
                games.append(Game(white, black, Result.BLACK_WINS_FORFEIT))
            else:
                games.append(Game(white, black, Result.DOUBLE_FORFEIT))
        entries: tuple[Entry, ...] = ()
        if bye_no is not None:
            entries = (Entry(taking_part[bye_no - 1], EntryKind.BYE, self.data.bye_points),)
        return Round(number, tuple(games), entries)

    def _ladder(
        self,
        choices: Choices,
        number: int,
        keeper: ScoreKeeper,
        ladder: _Ladder,
        taking_part: list[int],
        present: set[int],
    ) -> Round:
        withdrawn, notice = self.withdrawn, self.absent
        absent = [
            notice[pid]
            for pid in taking_part
            if pid not in present and ((left := withdrawn[pid]) is None or number < left)
        ]  # a round after withdrawing has no record, as in the season itself (_still_in)
        if not present:
            return Round(number, (), tuple(absent))
        figures = ladder.figures
        standing = [figures[pid] for pid in keeper.order_among(present)]
        boards, bye_id = pair_boards(
            standing, ladder.history, round_number=number, rules=self.data.pairing
        )
        games = tuple(Game(w, b, choices.result(w, b, keeper)) for w, b in boards)
        entries = list(absent)
        if bye_id is not None:
            entries.append(Entry(bye_id, EntryKind.BYE, self.data.bye_points))
        return Round(number, games, tuple(entries))


def simulate(
    data: SimulationInput, *, simulations: int = 1000, seed: int = 0, incremental: bool = True
) -> Chances:
    """Play the remaining rounds ``simulations`` times (seeded: the same input and seed give
    the same chances) and count the places, shared where the season's ranking cannot separate
    the players (:func:`places_shared`).

    Participants missing from ``data.ratings`` get the mean of the known ratings (1500 when
    none is known); missing from ``data.attendance``, they always come.
    """
    season = data.season
    base = keeper_for(
        season,
        awarded=(data.bye_points,),
        rounds_left=data.rounds_left,
        incremental=incremental,
    )
    base_ladder = None if season.round_robin else _Ladder.of(season)
    playing = _Round(data)
    choices = _ByChance(data, random.Random(seed))
    first: dict[int, Fraction] = dict.fromkeys(base.participants, ZERO)
    top: dict[int, Fraction] = dict.fromkeys(base.participants, ZERO)
    category_wins: dict[int, dict[str, Fraction]] = {pid: {} for pid in base.participants}
    needed: dict[int, Fraction | None] = dict.fromkeys(base.participants)
    witnesses: dict[int, tuple[Round, ...]] = {}
    ask_tiebreaks = bool(season.tiebreaks) and not isinstance(base, EngineKeeper)
    for _ in range(simulations):
        keeper = base.copy()
        ladder = base_ladder.copy() if base_ladder is not None else None
        played = playing.play_out(choices, keeper, ladder, data.rounds_left)
        groups = _top_groups(keeper, TOP)
        if ask_tiebreaks and any(len(group) > 1 for group in groups):
            groups = _split_by_tiebreaks(keeper, season, played, groups)
        for pid, (first_share, top_share) in places_shared(groups, TOP).items():
            first[pid] += first_share
            top[pid] += top_share
            if first_share:
                if pid not in witnesses:
                    witnesses[pid] = tuple(played)
                scored = keeper.game_points(pid) - base.game_points(pid)
                best = needed[pid]
                needed[pid] = scored if best is None else min(best, scored)
        if data.categories:
            _count_categories(keeper, data.categories, category_wins)
    return Chances(
        simulations=simulations,
        rounds_left=data.rounds_left,
        seed=seed,
        draw_rate=data.draw_rate,
        players=tuple(
            PlayerChances(pid, first[pid], top[pid], category_wins[pid], needed[pid])
            for pid in base.order()
        ),
        witnesses=witnesses,
    )


def _tied_runs(keeper: ScoreKeeper, order: list[int]) -> list[list[int]]:
    """``order`` cut into runs equal on every figure of the system."""
    keys = keeper.standing_keys()
    runs: list[list[int]] = []
    for pid in order:
        if runs and keys[runs[-1][0]] == keys[pid]:
            runs[-1].append(pid)
        else:
            runs.append([pid])
    return runs


def _top_groups(keeper: ScoreKeeper, places: int) -> list[list[int]]:
    """The keeper's ranking in groups equal on every figure of the system, as far as it takes
    to fill ``places`` places."""
    groups: list[list[int]] = []
    filled = 0
    for run in _tied_runs(keeper, keeper.order()):
        if filled >= places:
            break
        groups.append(run)
        filled += len(run)
    return groups


def _split_by_tiebreaks(
    keeper: ScoreKeeper, season: SeasonInput, played: list[Round], groups: list[list[int]]
) -> list[list[int]]:
    """Each tied group split by the season's tie-breaks after the simulated season (the
    engine's, computed for the tied participants only)."""
    tied = {pid: keeper.figures(pid) for group in groups if len(group) > 1 for pid in group}
    simulated = replace(season, rounds=(*season.rounds, *played))
    split = tied_groups(simulated, len(simulated.rounds), tied)
    part_of = {pid: index for index, part in enumerate(split) for pid in part}
    result: list[list[int]] = []
    for group in groups:
        if len(group) == 1:
            result.append(group)
            continue
        parts: dict[int, list[int]] = {}
        for pid in group:
            parts.setdefault(part_of[pid], []).append(pid)
        result += [parts[index] for index in sorted(parts)]
    return result


def places_shared(groups: list[list[int]], places: int) -> dict[int, tuple[Fraction, Fraction]]:
    """Each participant's share of first place and of the first ``places`` places, from the
    final ranking in groups that nothing separates (equal on the system's figures and on every
    tie-break), best first: a group shares equally the places it covers.

    Example: groups [A], [B, C, D] with three places: A has first place (1) and a top-three
    place (1); B, C and D share places 2 and 3: no first place, 2/3 of a top-three place each.
    """
    shares: dict[int, tuple[Fraction, Fraction]] = {}
    filled = 0
    for group in groups:
        if filled >= places:
            break
        size = len(group)
        first = Fraction(1, size) if filled == 0 else ZERO
        covered = Fraction(min(places, filled + size) - filled, size)
        for pid in group:
            shares[pid] = (first, covered)
        filled += size
    return shares


def _count_categories(
    keeper: ScoreKeeper,
    categories: Mapping[str, frozenset[int]],
    wins: dict[int, dict[str, Fraction]],
) -> None:
    """The best placed member of each category wins it; members equal on every figure of the
    system share it (the season's tie-breaks are not asked for categories)."""
    runs = _tied_runs(keeper, keeper.order())
    for name, members in categories.items():
        for run in runs:
            winners = [pid for pid in run if pid in members]
            if winners:
                for pid in winners:
                    wins[pid][name] = wins[pid].get(name, ZERO) + Fraction(1, len(winners))
                break


class FirstPlace(StrEnum):
    """What is certain about a participant's first place (see :func:`outlook`)."""

    SECURED = "secured"  # nobody can draw level with him any more
    POSSIBLE = "possible"  # an outcome is known in which he finishes first (or shares first)
    OPEN = "open"  # neither excluded nor shown possible: the bounds are not tight enough
    IMPOSSIBLE = "impossible"  # someone finishes ahead of him whatever happens


@dataclass(frozen=True, slots=True)
class Outlook:
    """What is certain, for one participant, about the final standings (not estimated)."""

    participant_id: int
    first_place: FirstPlace
    best_place: int  # he cannot finish higher than this
    worst_place: int  # nor lower than this
    needs: Fraction | None  # game points in the remaining rounds without which he cannot be first
    secures: Fraction | None  # game points in the remaining rounds that make first place his
    # per category he is in (SimulationInput.categories): SECURED, IMPOSSIBLE or OPEN, from the
    # same bounds among the category's members (no outcome is looked for: never POSSIBLE)
    categories: Mapping[str, FirstPlace] = field(default_factory=dict)


def outlook(data: SimulationInput, chances: Chances) -> tuple[Outlook, ...]:
    """What is certain about every participant's final place, in the order of ``chances``.

    Places and points come from the bounds of :mod:`competition.simulation.bounds` (sound in
    every outcome the simulation plays). First place is *possible* only when an outcome is
    known in which the engine ranks him first: a simulation he won (``chances.witnesses``), or
    one chosen for him (:func:`_outcome_for`), each checked with the scoring engine itself.
    """
    season = data.season
    keeper = keeper_for(season, awarded=(data.bye_points,), rounds_left=data.rounds_left)
    bounds = score_bounds(season, keeper, rounds_left=data.rounds_left, bye_points=data.bye_points)
    places = place_bounds(bounds)
    in_categories = {
        name: places_among(bounds, members) for name, members in data.categories.items()
    }
    result = []
    for player in chances.players:
        pid = player.participant_id
        place = places[pid]
        categories = {
            name: _category_status(among[pid])
            for name, among in in_categories.items()
            if pid in among
        }
        if place.best_place > 1:
            status = FirstPlace.IMPOSSIBLE
        elif place.worst_place == 1:
            status = FirstPlace.SECURED
        elif _first_in(season, chances.witnesses.get(pid), pid) or _first_in(
            season, _outcome_for(data, keeper, pid), pid
        ):
            status = FirstPlace.POSSIBLE
        else:
            status = FirstPlace.OPEN
        result.append(
            Outlook(
                pid,
                status,
                place.best_place,
                place.worst_place,
                place.needs,
                place.secures,
                categories,
            )
        )
    return tuple(result)


def _category_status(places: tuple[int, int]) -> FirstPlace:
    """First place in a category from the best and worst place among its members."""
    best, worst = places
    if best > 1:
        return FirstPlace.IMPOSSIBLE
    return FirstPlace.SECURED if worst == 1 else FirstPlace.OPEN


def _first_in(season: SeasonInput, rounds: tuple[Round, ...] | None, pid: int) -> bool:
    """Whether the engine ranks ``pid`` first (alone or shared) after the season plus
    ``rounds``."""
    if rounds is None:
        return False
    played = replace(season, rounds=(*season.rounds, *rounds))
    rows = standings_after(played, len(played.rounds)).rows
    return any(row.participant_id == pid and row.rank == 1 for row in rows)


class _Chosen:
    """An outcome chosen to make one participant first: he always comes and wins; the others
    all come (``company`` "everyone"), or only the best placed of them (who then loses to him
    in a ladder, "rival"), or nobody ("alone": a round robin's games are forfeits then), and
    every other game goes to the lower placed player (``upsets``) or is drawn."""

    def __init__(self, target: int, *, company: str, upsets: bool) -> None:
        self.target = target
        self.company = company
        self.upsets = upsets
        self.place: dict[int, int] = {}  # the standings the round is played from

    def present(self, number: int, taking_part: list[int], keeper: ScoreKeeper) -> set[int]:
        order = keeper.order()
        self.place = {pid: place for place, pid in enumerate(order)}
        if self.company == "everyone":
            return set(taking_part)
        rival = next((pid for pid in order if pid != self.target and pid in taking_part), None)
        if self.company == "alone" or rival is None:
            return {self.target}
        return {self.target, rival}

    def result(self, white: int, black: int, keeper: ScoreKeeper) -> Result:
        if white == self.target:
            return Result.WHITE_WINS
        if black == self.target:
            return Result.BLACK_WINS
        if not self.upsets:
            return Result.DRAW
        return Result.WHITE_WINS if self.place[white] > self.place[black] else Result.BLACK_WINS


def _outcome_for(data: SimulationInput, keeper: ScoreKeeper, pid: int) -> tuple[Round, ...] | None:
    """The first of a few chosen outcomes in which ``pid`` finishes first (None: none does)."""
    playing = _Round(data)
    for strategy in (
        _Chosen(pid, company="everyone", upsets=True),
        _Chosen(pid, company="rival", upsets=True),
        _Chosen(pid, company="alone", upsets=True),
        _Chosen(pid, company="everyone", upsets=False),
    ):
        running = keeper.copy()
        ladder = None if data.season.round_robin else _Ladder.of(data.season)
        rounds = playing.play_out(strategy, running, ladder, data.rounds_left)
        groups = _top_groups(running, 1)
        if pid in groups[0]:
            return tuple(rounds)
    return None
