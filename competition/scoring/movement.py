"""Why did I move? A participant's change of score and place from round n − 1 to round n,
split into causes that add up exactly to the change (rule in docs/scoring.md).

Score. After round k the primary score is the sum of one contribution per round 1..k (what
that round's game or entry is worth *now*) plus, for some systems, a round-0 term (Van den
Brink's start points, Keizer's own value). Writing ``c(k, r)`` for the contribution of round r
to the score after round k::

    score(n) − score(n − 1) = c(n, n)                                   own result
                            + Σ_{0<r<n} (c(n, r) − c(n − 1, r))         earlier rounds revalued
                            + (c(n, 0) − c(n − 1, 0))                   own value

exactly (Fractions), because ``score(k) = Σ_r c(k, r)``. Per system:

- ``points``, ``van-den-brink``: a round's contribution never changes after it is played
  (Van den Brink uses the rank values at the start of the round), so the whole change is the
  own result; the start points are the same every round.
- ``internal-sb``: ``c(k, r)`` = his score in round r × the opponent's internal points after
  k; the revaluation is Σ over earlier games of score × the change of that opponent's IP.
- ``keizer``: ``c(k, r)`` = fraction × the value (after k) of the opponent, or of his own
  place for a round without a game; the own-value part is the change of the own value that
  counts once in the score.

Place. With ranks shared only by participants equal on every criterion, a participant's rank
is 1 + the number of participants ranked strictly above him. So, with ``passed`` = those above
him after n − 1 and no longer after n, and ``passed_by`` = those not above him after n − 1 and
above him after n::

    rank(n) − rank(n − 1) = len(passed_by) − len(passed)

exactly. Drawing level with someone who was above him counts as passing him (he is no longer
above); someone drawing level from below does not pass him.

Round 1 has no standings before it to move from (they are never published), and after a round
that left everybody sharing place 1 a move "from place 1" says nothing: for those rounds
``PlaceChange.moved`` is False and the page gives his place after the round instead of a
movement. The score parts still add up (from the score before round 1: 0, or Van den Brink's
start points, or Keizer's own value).

Worked example (points, win 1): A, B, C after round 1 have 1, ½, ½ (ranks 1, 2, 2). In round 2
C beats A, B loses: C 1½, A 1, B ½. For C: score +1 = own result 1, revaluation 0; rank
2 → 1: passed A, nobody passed him.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from competition.scoring import engine
from competition.scoring.model import ParameterValues, RoundStandings, SeasonInput, external_results
from competition.scoring.records import ScoringInputError
from competition.scoring.registry import get_system
from competition.scoring.systems.base import SystemContext
from competition.scoring.systems.internal_sb import InternalSonnebornBerger
from competition.scoring.systems.keizer import Keizer, round_terms

# Systems where a round's contribution is fixed once the round is played.
FIXED_CONTRIBUTIONS = frozenset({"points", "van-den-brink"})

ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class ScoreChange:
    """His primary score after round n − 1 and n and the three causes of the change."""

    round_number: int
    before: Fraction
    after: Fraction
    own_result: Fraction  # what his round-n game or entry is worth after round n
    revaluation: Fraction  # change of the worth of his rounds 1..n − 1
    own_value: Fraction  # change of the round-0 term (Keizer's own value; 0 otherwise)

    @property
    def change(self) -> Fraction:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class PlaceChange:
    """His rank after round n − 1 and n, and who passed whom (ids in the standings' order after n).

    ``rank_before`` is None when there are no standings before round n to compare with (round
    1: the standings before it are never published); then nobody passed anybody. ``level``: he
    did not move from a place of his own, because there were no standings before round n or
    everybody shared place 1 in them (see :attr:`moved`).
    """

    round_number: int
    rank_before: int | None
    rank_after: int
    passed: tuple[int, ...]  # above him after n − 1, not after n: places gained
    passed_by: tuple[int, ...]  # not above him after n − 1, above him after n: places lost
    level: bool = False

    @property
    def change(self) -> int:
        """Places moved up (positive) or down (negative): ``rank_before − rank_after`` (0
        without standings before round n)."""
        return len(self.passed) - len(self.passed_by)

    @property
    def moved(self) -> bool:
        """Whether a movement is told: False for round 1 and after a round that left everybody
        sharing place 1 (his place after round n is then said, not a move from place 1)."""
        return not self.level


@dataclass(frozen=True, slots=True)
class Movement:
    round_number: int
    score: ScoreChange
    place: PlaceChange


def round_contributions(
    season: SeasonInput,
    participant_id: int,
    *,
    upto_round: int | None = None,
    context: SystemContext | None = None,
) -> list[dict[int, Fraction]]:
    """``c(k, r)`` for k = 0..R (list index k): round r (0..k) → its worth after round k.

    R is ``upto_round`` (default: the last round), or the rounds of ``context``: the engine's
    context for the season up to R (``engine.explain_in_context`` gives the one it explained
    him in), so the season is not read again and what the system computed there (a Keizer run)
    is reused. Rounds that add nothing may be missing from a mapping. ``sum(c[k].values())`` is
    his primary score after round k.
    """
    if context is None:
        last = len(season.rounds) if upto_round is None else upto_round
        context = engine.system_context(season, last)
    else:
        season, last = context.season, context.upto_round
    if participant_id not in context.participants:
        raise ScoringInputError(f"unknown participant {participant_id}")
    system = get_system(season.system)
    parameters = system.validate(season.parameters)
    records = context.records[participant_id]
    if isinstance(system, InternalSonnebornBerger):
        # the IP of everybody after every round, in units (the system's own computation)
        unit, internal_points = system._internal_points_units(context, parameters)
        return [
            {
                record.round_number: record.points
                * Fraction(internal_points[record.opponent][k], unit)
                for record in records[:k]
                if record.played and record.opponent is not None
            }
            for k in range(last + 1)
        ]
    if isinstance(system, Keizer):
        trace = system.run(context, parameters)
        externals = {
            number: result
            for (pid, number), result in external_results(season).items()
            if pid == participant_id
        }
        terms = round_terms(records, parameters, externals)
        contributions = []
        for k, keizer_round in enumerate(trace):
            used = keizer_round.used
            own = {0: used[participant_id]} if parameters["own_value_in_score"] else {}
            for term in terms[:k]:
                worth = used[term.opponent if term.opponent is not None else participant_id]
                own[term.round_number] = term.fraction * worth
            contributions.append(own)
        return contributions
    if system.key in FIXED_CONTRIBUTIONS:
        lines = engine.system_explanation(context, participant_id, parameters)
        fixed: dict[int, Fraction] = {}
        for line in lines:
            if line.figure == system.primary and line.counted:
                fixed[line.round_number] = fixed.get(line.round_number, ZERO) + line.amount
        return [{r: amount for r, amount in fixed.items() if r <= k} for k in range(last + 1)]
    # any other system: its own explanation after every round (correct, slower)
    contributions = []
    for k in range(last + 1):
        after_k = engine.system_context(season, k)
        own_lines: dict[int, Fraction] = {}
        for line in system.explain(after_k, parameters, participant_id):
            if line.figure == system.primary and line.counted:
                own_lines[line.round_number] = own_lines.get(line.round_number, ZERO) + line.amount
        contributions.append(own_lines)
    return contributions


# (score after round k, c(k, k), c(k, 0)): all the score change of round k needs
ScoreTerms = tuple[Fraction, Fraction, Fraction]


def score_changes(
    contributions: Sequence[Mapping[int, Fraction]],
) -> tuple[ScoreChange, ...]:
    """The score change of every round 1..R from :func:`round_contributions`."""
    return _changes(
        [
            (sum(now.values(), ZERO), now.get(k, ZERO), now.get(0, ZERO))
            for k, now in enumerate(contributions)
        ]
    )


def _changes(terms: Sequence[ScoreTerms]) -> tuple[ScoreChange, ...]:
    # Σ_{0<r<n} (c(n, r) − c(n − 1, r)) is the change less the other two parts (c(n − 1, n)
    # is 0): one sum per round instead of one difference per earlier round.
    changes = []
    for n in range(1, len(terms)):
        after, own_result, own_now = terms[n]
        before, _own_then, own_then = terms[n - 1]
        own_value = own_now - own_then
        changes.append(
            ScoreChange(
                round_number=n,
                before=before,
                after=after,
                own_result=own_result,
                revaluation=after - before - own_result - own_value,
                own_value=own_value,
            )
        )
    return tuple(changes)


def _internal_sb_terms(
    system: InternalSonnebornBerger,
    context: SystemContext,
    parameters: ParameterValues,
    participant_id: int,
) -> list[ScoreTerms]:
    """:data:`ScoreTerms` of the internal SB competition in whole units, as the system computes
    SB (``c(k, r)`` = his score in round r × the opponent's IP after k), two fractions a round
    instead of one per earlier game."""
    unit, internal_points = system._internal_points_units(context, parameters)
    digest = context.digest
    scale = unit // digest.unit  # a game's score in units of 1/unit, as the IP are
    points, played = digest.points[participant_id], digest.played[participant_id]
    # (round, his score, the opponent's IP after every round) of each game over the board
    games = [
        (index + 1, points[index] * scale, internal_points[opponent])
        for index, opponent in enumerate(digest.opponent[participant_id])
        if played[index] and opponent is not None
    ]
    denominator = unit * unit
    terms: list[ScoreTerms] = []
    for k in range(context.upto_round + 1):
        total = own = 0
        for number, score, opponent_ip in games:
            if number > k:
                break
            worth = score * opponent_ip[k]
            total += worth
            if number == k:
                own = worth
        terms.append((Fraction(total, denominator), Fraction(own, denominator), ZERO))
    return terms


def score_terms(
    season: SeasonInput, participant_id: int, *, context: SystemContext | None = None
) -> list[ScoreTerms]:
    """(score after round k, ``c(k, k)``, ``c(k, 0)``) for k = 0..R: what :func:`score_changes`
    needs of :func:`round_contributions`, computed faster for the internal SB competition."""
    if context is None:
        context = engine.system_context(season, len(season.rounds))
    system = get_system(context.season.system)
    if isinstance(system, InternalSonnebornBerger):
        if participant_id not in context.participants:
            raise ScoringInputError(f"unknown participant {participant_id}")
        parameters = system.validate(context.season.parameters)
        return _internal_sb_terms(system, context, parameters, participant_id)
    contributions = round_contributions(season, participant_id, context=context)
    return [
        (sum(now.values(), ZERO), now.get(k, ZERO), now.get(0, ZERO))
        for k, now in enumerate(contributions)
    ]


def ranks_of(standings: RoundStandings) -> dict[int, int]:
    """Participant id → rank, in the standings' order."""
    return {row.participant_id: row.rank for row in standings.rows}


def place_change(
    participant_id: int,
    round_number: int,
    before: Mapping[int, int] | None,
    after: Mapping[int, int],
) -> PlaceChange:
    """Who passed him and whom he passed between two rankings (participant id → rank);
    ``before`` None: no standings before round ``round_number`` (round 1).

    Both are named in the standings' order after the round: by place, and on an equal place in
    the order of ``after`` (:func:`ranks_of` and a stored snapshot give the rows as the
    standings list them: start rank, then name), so the sentence names them as the table does.

    >>> place_change(3, 2, {1: 1, 2: 2, 3: 2}, {3: 1, 1: 2, 2: 3})
    PlaceChange(round_number=2, rank_before=2, rank_after=1, passed=(1,), passed_by=(), level=False)
    >>> place_change(3, 1, None, {1: 1, 2: 1, 3: 3})
    PlaceChange(round_number=1, rank_before=None, rank_after=3, passed=(), passed_by=(), level=True)
    """
    own_after = after[participant_id]
    if before is None:
        return PlaceChange(round_number, None, own_after, (), (), level=True)
    own_before = before[participant_id]
    was_above = {pid for pid, rank in before.items() if rank < own_before}
    is_above = {pid for pid, rank in after.items() if rank < own_after}

    listed = {pid: (rank, row) for row, (pid, rank) in enumerate(after.items())}

    def in_standings_order(ids: set[int]) -> tuple[int, ...]:
        return tuple(sorted(ids, key=lambda pid: listed.get(pid, (len(after) + 1, pid))))

    return PlaceChange(
        round_number=round_number,
        rank_before=own_before,
        rank_after=own_after,
        passed=in_standings_order(was_above - is_above),
        passed_by=in_standings_order(is_above - was_above),
        # everybody shared place 1 (nobody above him, nobody below)
        level=own_before == 1 and all(rank == 1 for rank in before.values()),
    )


def movements(
    season: SeasonInput,
    participant_id: int,
    rankings: Sequence[Mapping[int, int] | None],
    *,
    context: SystemContext | None = None,
) -> tuple[Movement, ...]:
    """His movement in every round 1..R; ``rankings[k]`` is the ranking after round k
    (k = 0..R, id → rank, in the standings' order), e.g. ``ranks_of`` of the engine's standings
    or a stored snapshot's;
    ``rankings[0]`` is None (no standings before round 1 to compare with). R is the last round
    of the season, or of ``context`` (see :func:`round_contributions`).
    """
    moves = []
    for change in _score_changes(season, participant_id, context):
        n = change.round_number
        after = rankings[n]
        if after is None:
            raise ScoringInputError(f"no ranking after round {n}")
        moves.append(Movement(n, change, place_change(participant_id, n, rankings[n - 1], after)))
    return tuple(moves)


def _score_changes(
    season: SeasonInput, participant_id: int, context: SystemContext | None = None
) -> tuple[ScoreChange, ...]:
    """The score changes of rounds 1..R, also when the season's rules apply from a later round
    R₀ (docs/scoring.md): rounds before R₀ change as the earlier rule set scored them; from R₀
    on as the season's own rules do, every score shifted by what the earlier rules had given
    after round R₀ − 1 (the engine's carried standings), so the parts still add up."""
    changes = _changes(score_terms(season, participant_id, context=context))
    if not engine.rules_from_later_round(season):
        return changes
    first = season.rules_from_round
    if first - 1 > len(changes):
        first = len(changes) + 1  # the rules' first round is not played yet
    if first <= 1:
        return changes
    earlier = _score_changes(engine.earlier_rules_input(season, first - 1), participant_id)
    offset = earlier[first - 2].after - changes[first - 2].after
    shifted = (
        replace(change, before=change.before + offset, after=change.after + offset)
        for change in changes[first - 1 :]
    )
    return (*earlier[: first - 1], *shifted)


def season_movements(season: SeasonInput, participant_id: int) -> tuple[Movement, ...]:
    """:func:`movements` with the rankings computed by the engine (tests, commands)."""
    history = engine.standings_history(season)
    rankings: list[Mapping[int, int] | None] = [None]
    rankings.extend(ranks_of(standings) for standings in history.history)
    return movements(season, participant_id, rankings)


@dataclass(frozen=True, slots=True)
class CorrectionEffect:
    """His rank and score after round n with that round's corrections undone, and with them
    (the standings as they are now)."""

    round_number: int
    rank_before: int  # without the round's corrections
    rank_after: int
    score_before: Fraction
    score_after: Fraction

    @property
    def score_change(self) -> Fraction:
        return self.score_after - self.score_before


def correction_effect(
    uncorrected: SeasonInput,
    corrected: SeasonInput,
    participant_id: int,
    round_number: int,
) -> CorrectionEffect:
    """What the corrections of round ``round_number`` did to him after that round:
    ``uncorrected`` is the season with that round as first closed (every other round as now),
    ``corrected`` the season as it is now. Later corrections of other rounds are in both, so
    only this round's corrections make the difference.

    >>> from competition.scoring.model import Game, Participant, Result, Round
    >>> players = (Participant(1, "A", start_rank=1), Participant(2, "B", start_rank=2))
    >>> now = SeasonInput(players, (Round(1, (Game(1, 2, Result.BLACK_WINS),)),))
    >>> first = SeasonInput(players, (Round(1, (Game(1, 2, Result.WHITE_WINS),)),))
    >>> correction_effect(first, now, 2, 1)
    CorrectionEffect(round_number=1, rank_before=2, rank_after=1, score_before=Fraction(0, 1), score_after=Fraction(1, 1))
    """  # noqa: E501

    def own(season: SeasonInput) -> tuple[int, Fraction]:
        for row in engine.standings_after(season, round_number).rows:
            if row.participant_id == participant_id:
                return row.rank, row.score
        raise ScoringInputError(f"unknown participant {participant_id}")

    rank_before, score_before = own(uncorrected)
    rank_after, score_after = own(corrected)
    return CorrectionEffect(round_number, rank_before, rank_after, score_before, score_after)
