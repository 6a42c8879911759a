"""The scoring engine: standings after a round, after every round, and explanations.

The ranking is, in order: the system's primary score (descending), the system's own secondary
figures (``IP`` for the internal SB competition), then the season's tie-breaks in the order the
season lists them. ``DE`` (direct encounter, FIDE C.07 Art. 6) only re-ranks the participants
still tied on everything before it, so it is computed per tied group. Participants equal on
every criterion share the rank (1, 2, 2, 4) and are listed by start rank, then name.

Ranking-dependent systems (``RankingSystem.ranking_dependent``, the Keizer system) are computed
repeatedly: each pass receives the ranking the previous pass produced, until the ranking stops
changing or repeats an earlier one, or the system's ``max_iterations`` is reached.
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import accumulate, pairwise
from math import lcm
from operator import itemgetter

from competition.scoring.model import (
    Contribution,
    Explanation,
    ParameterValues,
    Participant,
    RoundStandings,
    SeasonInput,
    SeasonStandings,
    StandingRow,
)
from competition.scoring.records import ScoringInputError, SeasonRows, read_rows
from competition.scoring.registry import get_system
from competition.scoring.systems.base import RankingSystem, SystemContext, SystemRound
from competition.scoring.systems.units import FractionCache, RecordDigest, digest_rows
from competition.scoring.text import Term, gettext_noop
from competition.scoring.tiebreaks import (
    DIRECT_ENCOUNTER,
    TiebreakSheet,
    direct_encounter_values,
    everyone_met,
    explain_tiebreaks,
    validate_tiebreaks,
)


@dataclass(slots=True)
class _Prepared:
    season: SeasonInput
    system: RankingSystem
    parameters: ParameterValues
    tiebreak_codes: tuple[str, ...]
    rows: SeasonRows  # the season read once; systems and tie-breaks share it
    participants: Mapping[int, Participant]
    upto_round: int
    digest: RecordDigest
    sheet: TiebreakSheet | None = None  # the tie-breaks' packed reading, built on first use
    # round -> participant -> tie-break values (without DE): every code for everybody once
    # _tiebreak_values has run for the round (then the round is in tiebreak_complete), before
    # that the codes _tiebreak_figure was asked for
    tiebreak_cache: dict[int, dict[int, dict[str, Fraction]]] = field(default_factory=dict)
    tiebreak_complete: set[int] = field(default_factory=set)

    @property
    def context(self) -> SystemContext:
        rank = self.rank if self.system.ranking_dependent else None
        return SystemContext(
            self.season, self.upto_round, self.rows.records(), self.participants, self.digest, rank
        )

    def rank(
        self,
        round_number: int,
        figures: Mapping[int, Mapping[str, Fraction]],
        tie_order: Mapping[int, int],
    ) -> tuple[int, ...]:
        """The :data:`~competition.scoring.systems.base.Ranker` ranking-dependent systems get.

        It ranks the participants in ``figures`` (everybody, or a system's tied ones): each
        group's order depends only on its members, so a subset comes out exactly as within
        the ranking of everybody. A tie-break is computed only for the participants still tied
        when the ranking reaches it, and once per round, participant and code.
        """
        groups = _settle(self, self.groups(round_number, figures), tie_order)
        return tuple(pid for group in groups for pid in group)

    def groups(
        self, round_number: int, figures: Mapping[int, Mapping[str, Fraction]]
    ) -> list[list[int]]:
        """The participants in ``figures`` ranked on them (the system's primary and secondary
        figures) and then the season's tie-breaks, in groups equal on all of them, best first.
        A tie-break is computed only for the participants still tied when the ranking reaches
        it, and once per round, participant and code."""
        system = self.system
        # fresh dicts: DE writes into the values of a tied group
        values = {pid: dict(own) for pid, own in figures.items()}
        groups = _refine(
            self, round_number, [list(values)], (system.primary, *system.secondary), values
        )
        for code in self.tiebreak_codes:
            tied = [pid for group in groups if len(group) > 1 for pid in group]
            if not tied:
                break  # everyone is separated: the remaining tie-breaks cannot change the order
            if code != DIRECT_ENCOUNTER:
                for pid, value in _tiebreak_figure(self, round_number, code, tied).items():
                    values[pid][code] = value
            groups = _refine(self, round_number, groups, (code,), values)
        return groups


def _prepare(season: SeasonInput, upto_round: int) -> _Prepared:
    """Validate the season and read its records up to ``upto_round``."""
    numbers = [rnd.number for rnd in season.rounds]
    if numbers != list(range(1, len(numbers) + 1)):
        raise ScoringInputError(f"rounds must be numbered 1, 2, 3, ... in order; got {numbers}")
    if not 0 <= upto_round <= len(numbers):
        raise ScoringInputError(
            gettext_noop("round %(round)s is not completed; the season has %(count)s rounds"),
            {"round": upto_round, "count": len(numbers)},
        )
    system = get_system(season.system)
    parameters = system.validate(season.parameters)
    codes: tuple[str, ...] = ()
    if season.tiebreaks:
        codes = validate_tiebreaks(season.tiebreaks)
        clash = sorted(set(codes) & set(system.figure_codes))
        if clash:
            raise ScoringInputError(
                gettext_noop(
                    "tie-break %(code)s has the same code as a figure of the ranking system "
                    "(%(system)s); choose another tie-break"
                ),
                {"code": clash[0], "system": Term(system.name)},
            )
    participants = {p.id: p for p in season.participants}
    if len(participants) != len(season.participants):
        raise ScoringInputError("two participants share an id")
    rows = read_rows(season, upto_round)
    return _Prepared(
        season, system, parameters, codes, rows, participants, upto_round, digest_rows(rows)
    )


def _sheet(prepared: _Prepared) -> TiebreakSheet:
    """The tie-breaks' packed form of the season's rows (the fast path), built once per call."""
    if prepared.sheet is None:
        prepared.sheet = TiebreakSheet(prepared.season, prepared.rows)
    return prepared.sheet


def _tiebreak_values(prepared: _Prepared, upto_round: int) -> dict[int, dict[str, Fraction]]:
    """The season's tie-breaks (without DE) after ``upto_round``, computed once per round."""
    if upto_round in prepared.tiebreak_complete:
        return prepared.tiebreak_cache[upto_round]
    codes = [code for code in prepared.tiebreak_codes if code != DIRECT_ENCOUNTER]
    if not codes:
        values: dict[int, dict[str, Fraction]] = {pid: {} for pid in prepared.participants}
    elif upto_round == 0:
        values = {pid: dict.fromkeys(codes, Fraction(0)) for pid in prepared.participants}
    else:
        # figures() gives fresh dicts, one per participant in the season's order: kept as they are
        values = _sheet(prepared).figures(upto_round, codes)
    prepared.tiebreak_cache[upto_round] = values
    prepared.tiebreak_complete.add(upto_round)
    return values


def _tiebreak_figure(
    prepared: _Prepared, upto_round: int, code: str, members: Sequence[int]
) -> dict[int, Fraction]:
    """One tie-break (not DE) after ``upto_round`` for ``members``, each computed once.

    The first tie-break usually separates a tied group, so it is computed alone; a member
    still tied after it gets all his tie-breaks at once. The values are those of
    :func:`_tiebreak_values`: the sheet computes a member's figures from the sheet alone (see
    :meth:`TiebreakSheet.figures`).
    """
    known = prepared.tiebreak_cache.setdefault(upto_round, {})
    missing = [pid for pid in members if code not in known.get(pid, ())]
    if 4 * len(missing) >= len(prepared.participants):
        # many ties (early rounds): every code for everybody in one pass is cheaper
        known = _tiebreak_values(prepared, upto_round)
    elif missing:
        codes = [other for other in prepared.tiebreak_codes if other != DIRECT_ENCOUNTER]
        asked = codes if code != codes[0] else [code]
        if upto_round == 0:
            computed = {pid: dict.fromkeys(asked, Fraction(0)) for pid in missing}
        else:
            computed = _sheet(prepared).figures(upto_round, asked, missing)
        for pid in missing:
            known.setdefault(pid, {}).update(computed[pid])
    return {pid: known[pid][code] for pid in members}


def _sort_keys(values: Sequence[Fraction]) -> list[int]:
    """Whole numbers that order like ``values`` (numerators over a common denominator).

    Comparing Fractions is slow; a group's values nearly always share one denominator.
    """
    denominators = {value.denominator for value in values}
    if len(denominators) == 1:
        return [value.numerator for value in values]
    common = lcm(*denominators)
    return [value.numerator * (common // value.denominator) for value in values]


def _split(group: list[int], value_of: Mapping[int, Fraction]) -> list[list[int]]:
    """``group`` sorted by value, highest first, cut where the value changes."""
    if len(group) == 2:  # the usual tie: one comparison, no sort keys
        first, second = group
        if value_of[first] == value_of[second]:
            return [group]
        if value_of[first] > value_of[second]:
            return [[first], [second]]
        return [[second], [first]]
    return _split_keys(group, _sort_keys([value_of[pid] for pid in group]))


def _split_keys(group: list[int], keys: list[int]) -> list[list[int]]:
    """``group`` sorted by ``keys`` (one per member), highest first, cut where the key changes."""
    # sorted() is stable and reverse=True keeps equal keys in their order, as before.
    ordered = sorted(zip(keys, group, strict=True), key=itemgetter(0), reverse=True)
    parts: list[list[int]] = [[ordered[0][1]]]
    for (previous, _), (key, pid) in pairwise(ordered):
        if key == previous:
            parts[-1].append(pid)
        else:
            parts.append([pid])
    return parts


def _groups(
    prepared: _Prepared,
    upto_round: int,
    values: Mapping[int, dict[str, Fraction]],
    tie_order: Mapping[int, int] | None,
) -> list[list[int]]:
    """The participants in ranking order, in groups equal on every criterion.

    Criteria: the system's primary and secondary figures, the season's tie-breaks, then
    ``tie_order`` (lower first) when the system gives one. Within a group: start rank
    (participants without one last), name, id.
    """
    system = prepared.system
    criteria = (system.primary, *system.secondary, *prepared.tiebreak_codes)
    field = [list(prepared.participants)] if prepared.participants else []  # none enrolled yet
    groups = _refine(prepared, upto_round, field, criteria, values)
    return _settle(prepared, groups, tie_order)


def _refine(
    prepared: _Prepared,
    upto_round: int,
    groups: list[list[int]],
    criteria: Sequence[str],
    values: Mapping[int, dict[str, Fraction]],
) -> list[list[int]]:
    """``groups`` (in ranking order) split by ``criteria`` in turn, highest first.

    ``values`` needs only the members of groups of more than one; ``DE`` writes its value
    into theirs (it exists only within a tied group). Each tied group is split by the
    criteria depth first (:func:`_refine_group`), so the work follows the ties: a large field
    whose last tie lasts to the last criterion is not walked once per criterion.
    """
    refined: list[list[int]] = []
    for group in groups:
        if len(group) == 1 or not criteria:
            refined.append(group)
        else:
            refined.extend(_refine_group(prepared, upto_round, group, criteria, values))
    return refined


def _refine_group(
    prepared: _Prepared,
    upto_round: int,
    group: list[int],
    criteria: Sequence[str],
    values: Mapping[int, dict[str, Fraction]],
) -> list[list[int]]:
    """One group tied on everything before ``criteria`` split by them, highest first.

    The group is split by the first criterion; each part still tied is split by the rest.
    The parts are those of splitting the whole field criterion by criterion: a part is tied on
    the same criteria either way (so ``DE`` sees the same group).
    """
    code = criteria[0]
    if code == DIRECT_ENCOUNTER:
        parts = _direct_encounter_split(prepared, upto_round, group, values)
    else:
        parts = _split(group, {pid: values[pid][code] for pid in group})
    rest = criteria[1:]
    if not rest:
        return parts
    refined: list[list[int]] = []
    for part in parts:
        if len(part) == 1:
            refined.append(part)
        else:
            refined.extend(_refine_group(prepared, upto_round, part, rest, values))
    return refined


def _settle(
    prepared: _Prepared, groups: list[list[int]], tie_order: Mapping[int, int] | None
) -> list[list[int]]:
    """Groups still tied split by ``tie_order`` (lower first), then sorted by start rank, name."""
    if tie_order is not None:
        groups = [
            part
            for group in groups
            for part in (
                [group] if len(group) == 1 else _split_keys(group, [-tie_order[p] for p in group])
            )
        ]
    participants = prepared.participants
    for group in groups:
        if len(group) > 1:
            group.sort(
                key=lambda pid: (
                    participants[pid].start_rank is None,
                    participants[pid].start_rank or 0,
                    participants[pid].name,
                    pid,
                )
            )
    return groups


def _rank(
    prepared: _Prepared,
    system_round: SystemRound,
    game_points: Mapping[int, Fraction],
    games_played: Mapping[int, int],
) -> RoundStandings:
    system = prepared.system
    upto_round = system_round.round_number
    tiebreak_values = _tiebreak_values(prepared, upto_round)
    figures = system_round.figures
    values: dict[int, dict[str, Fraction]] = {
        pid: {**figures[pid], **tiebreak_values[pid]} for pid in prepared.participants
    }
    rows: list[StandingRow] = []
    for group in _groups(prepared, upto_round, values, system_round.tie_order):
        rank = len(rows) + 1
        for pid in group:
            rows.append(
                StandingRow(
                    participant_id=pid,
                    rank=rank,
                    score=values[pid][system.primary],
                    game_points=game_points[pid],
                    values=values[pid],
                    games_played=games_played[pid],
                    eligible=games_played[pid] >= prepared.season.min_games,
                )
            )
    return RoundStandings(upto_round, tuple(rows))


def _direct_encounter_split(
    prepared: _Prepared,
    upto_round: int,
    group: list[int],
    values: Mapping[int, dict[str, Fraction]],
) -> list[list[int]]:
    """``group`` split by direct encounter (FIDE C.07 Art. 6), best first.

    When every pair of the group met, a subgroup still tied on the mini table is split by its
    own mini table, again while that separates anyone (Art. 6.2). Example: A, B, C, D all met,
    mini table A 2, B 2, C 1½, D ½, and A beat B: A, B, C, D. The DE value a row shows is the
    whole group's mini table (2, 2, 1½, ½).
    """
    encounter = _direct_encounter(prepared, upto_round, group)
    for pid in group:
        values[pid].setdefault(DIRECT_ENCOUNTER, encounter[pid])
    parts = _split(group, encounter)
    if len(parts) == 1 or not _all_met(prepared, upto_round, group):
        return parts
    return [
        piece
        for part in parts
        for piece in (
            [part]
            if len(part) == 1
            else _direct_encounter_split(prepared, upto_round, part, values)
        )
    ]


def _all_met(prepared: _Prepared, upto_round: int, group: Collection[int]) -> bool:
    """Whether every pair of the group met (then C.07 Art. 6.2 re-applies DE to a subgroup)."""
    return everyone_met(_sheet(prepared).meetings(upto_round, group), group)


def _direct_encounter(
    prepared: _Prepared, upto_round: int, group: Collection[int]
) -> Mapping[int, Fraction]:
    if upto_round == 0:
        return dict.fromkeys(group, Fraction(0))
    return direct_encounter_values(_sheet(prepared).meetings(upto_round, group), group)


def _game_totals(
    digest: RecordDigest, rounds: Sequence[int]
) -> dict[int, tuple[dict[int, Fraction], dict[int, int]]]:
    """Game points and games over the board after each round in ``rounds``."""
    as_fraction = FractionCache(digest.unit)
    points_after = {pid: list(accumulate(units, initial=0)) for pid, units in digest.points.items()}
    played_after = {pid: list(accumulate(flags, initial=0)) for pid, flags in digest.played.items()}
    return {
        number: (
            {pid: as_fraction[after[number]] for pid, after in points_after.items()},
            {pid: after[number] for pid, after in played_after.items()},
        )
        for number in rounds
    }


def _system_rounds(prepared: _Prepared, *, every_round: bool) -> tuple[SystemRound, ...]:
    """The system's figures; a ranking-dependent system computes every round (it needs them)."""
    if not prepared.system.ranking_dependent:
        return prepared.system.compute(
            prepared.context, prepared.parameters, every_round=every_round
        )
    rounds = prepared.system.compute(prepared.context, prepared.parameters, every_round=True)
    return rounds if every_round else (rounds[-1],)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while the standings are built (restored afterwards).

    Why: the standings allocate a few objects per participant and round (a row, its values,
    Fractions) and keep them, and none of them form reference cycles (reference counting
    frees what is dropped). The collector, though, counts such allocations and every so often
    walks every object the process holds; a 600-player history crosses that threshold twice
    and a 150-player one not at all, so the cost grew faster than the games.
    Pausing it there does not change a value. Left alone when it is already off (a caller's
    own pause).
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def standings_after(season: SeasonInput, round_number: int) -> RoundStandings:
    """The standings after ``round_number`` (0 gives the standings before the first round)."""
    with _collector_paused():
        if rules_from_later_round(season):
            return _carried_standings(season, (round_number,))[0]
        prepared = _prepare(season, round_number)
        (system_round,) = _system_rounds(prepared, every_round=False)
        totals = _game_totals(prepared.digest, (round_number,))
        return _rank(prepared, system_round, *totals[round_number])


def tied_groups(
    season: SeasonInput, round_number: int, figures: Mapping[int, Mapping[str, Fraction]]
) -> list[list[int]]:
    """Participants ranked on the system's figures given for them (``figures``: the primary
    and secondary codes, as the standings would have them after ``round_number``) and then the
    season's tie-breaks after that round, in groups equal on every one of them, best first.

    For a caller that knows the system's figures already (a simulation's keeper) and needs the
    tie-breaks only where they decide: only the participants in ``figures`` are ranked, and a
    tie-break is computed only for those still tied when the ranking reaches it. Within a
    group the order is start rank, then name (as in the standings, which share the rank).
    """
    with _collector_paused():
        prepared = _prepare(season, round_number)
        groups = prepared.groups(round_number, figures)
        return _settle(prepared, groups, None)


def standings_history(season: SeasonInput) -> SeasonStandings:
    """The standings after every completed round, in order (empty for a season without rounds)."""
    with _collector_paused():
        last = len(season.rounds)
        if rules_from_later_round(season):
            return SeasonStandings(tuple(_carried_standings(season, range(1, last + 1))))
        prepared = _prepare(season, last)
        totals = _game_totals(prepared.digest, range(last + 1))
        system_rounds = _system_rounds(prepared, every_round=True)
        return SeasonStandings(
            tuple(
                _rank(prepared, system_round, *totals[system_round.round_number])
                for system_round in system_rounds
                if system_round.round_number > 0
            )
        )


# --------------------------------------------------------------------------------------------
# Rules that apply from a later round (the season's rule_changes "next_round")


def rules_from_later_round(season: SeasonInput) -> bool:
    return season.rules_from_round > 1 and bool(season.earlier_rules)


def _check_rule_sets(season: SeasonInput) -> None:
    """Refuse a chain of rule sets the carried computation cannot apply."""
    starts = [rules.from_round for rules in season.earlier_rules] + [season.rules_from_round]
    if starts[0] != 1 or any(a >= b for a, b in pairwise(starts)):
        raise ScoringInputError(
            f"the rule sets must start at round 1 and at later rounds in order; got {starts}"
        )
    for rules in season.earlier_rules:
        if rules.system != season.system:
            raise ScoringInputError(
                f"rule set {rules.version} uses the {rules.system} system and a later one the "
                f"{season.system} system: a change of system applies to the whole season"
            )


def own_rules_input(season: SeasonInput) -> SeasonInput:
    """The season scored by its own rules alone, as if they had applied from round 1."""
    return replace(season, rules_from_round=1, earlier_rules=())


def earlier_rules_input(season: SeasonInput, last_round: int) -> SeasonInput:
    """The season with its rounds up to ``last_round``, scored as the rule set before its own
    scored it (with the rule sets before that one in turn)."""
    *before, rules = season.earlier_rules
    return replace(
        season.scored_by(rules),
        rounds=season.rounds[:last_round],
        rules_from_round=rules.from_round,
        earlier_rules=tuple(before),
    )


def _carried_figures(
    codes: Sequence[str],
    carried: Mapping[int, Mapping[str, Fraction]],
    before: SystemRound,
    own: SystemRound,
) -> SystemRound:
    """``own``'s figures with every system figure moved by what the earlier rules gave the
    rounds before the change: carried + own after the round − own before the change."""
    figures = {
        pid: {
            **values,
            **{
                code: carried[pid][code] + values[code] - before.figures[pid][code]
                for code in codes
            },
        }
        for pid, values in own.figures.items()
    }
    return SystemRound(own.round_number, figures, own.tie_order)


def _carried_standings(season: SeasonInput, rounds: Sequence[int]) -> list[RoundStandings]:
    """The standings after each of ``rounds`` when the season's rules apply from round R > 1.

    Rounds before R are the standings the earlier rule set gave (exactly as published then).
    From R on, a system figure (the score, internal points, a rank value) is the value the
    earlier rules gave it after round R − 1 plus what the season's own rules add from round R
    on: ``earlier(R − 1) + own(n) − own(R − 1)``. The ranking, the tie-breaks and the
    eligibility are the season's own rules'.

    Van den Brink with 3 points for a win, changed to 4 from round 3; a player starting at 200
    wins rounds 1–3 against opponents of his own rank value: 203, 206 under the earlier rules,
    then 206 + 4 = 210 after round 3 (212 under the new rules alone).
    """
    _check_rule_sets(season)
    first = season.rules_from_round
    wanted = list(rounds)
    early = [n for n in wanted if n < first]
    late = [n for n in wanted if n >= first]
    out: dict[int, RoundStandings] = {}
    if early:
        earlier = earlier_rules_input(season, max(early))
        if len(early) == 1:
            out[early[0]] = standings_after(earlier, early[0])
        else:
            for standings in standings_history(earlier).history:
                out[standings.round_number] = standings
            if 0 in early:
                out[0] = standings_after(earlier, 0)
    if late:
        earlier = earlier_rules_input(season, first - 1)
        carried = {
            row.participant_id: row.values for row in standings_after(earlier, first - 1).rows
        }
        prepared = _prepare(own_rules_input(season), max(late))
        own = {
            system_round.round_number: system_round
            for system_round in prepared.system.compute(
                prepared.context, prepared.parameters, every_round=True
            )
        }
        totals = _game_totals(prepared.digest, late)
        codes = prepared.system.summed_codes
        for n in late:
            system_round = _carried_figures(codes, carried, own[first - 1], own[n])
            out[n] = _rank(prepared, system_round, *totals[n])
    return [out[n] for n in wanted]


CARRIED_NOTE = gettext_noop("rounds 1 to %(last)s keep their values under rule set %(version)s")


def _carried_lines(season: SeasonInput, participant_id: int) -> list[Contribution]:
    """The lines that move the season's own figures to the carried ones (see
    :func:`_carried_standings`): per system figure, what the earlier rule set gave the rounds
    before the change minus what the season's own rules give them."""
    first = season.rules_from_round
    earlier = earlier_rules_input(season, first - 1)
    carried = next(
        row.values
        for row in standings_after(earlier, first - 1).rows
        if row.participant_id == participant_id
    )
    prepared = _prepare(own_rules_input(season), first - 1)
    (before,) = _system_rounds(prepared, every_round=False)
    version = season.earlier_rules[-1].version
    return [
        Contribution(
            code,
            0,  # not a round's line: the rounds before the change as a whole
            carried[code] - before.figures[participant_id][code],
            note=CARRIED_NOTE,
            note_values={"last": first - 1, "version": version},
        )
        for code in prepared.system.summed_codes
        if carried[code] != before.figures[participant_id][code]
    ]


def system_context(season: SeasonInput, upto_round: int) -> SystemContext:
    """The context the engine gives the season's system (with the Ranker when it needs one).

    For a system's own tests and the benchmark; pages use :func:`standings_after`.
    """
    return _prepare(season, upto_round).context


def system_explanation(
    context: SystemContext,
    participant_id: int,
    parameters: ParameterValues | None = None,
) -> tuple[Contribution, ...]:
    """The season's system's own lines explaining him in ``context`` (``parameters``: the
    season's, validated), computed once per context (kept in ``context.memo``): the participant
    page asks for them for his explanation and again for why he moved."""

    def lines() -> tuple[Contribution, ...]:
        system = get_system(context.season.system)
        values = system.validate(context.season.parameters) if parameters is None else parameters
        return tuple(system.explain(context, values, participant_id))

    return context.remembered(("explain", participant_id), lines)


def explain(
    season: SeasonInput,
    *,
    participant_id: int,
    after_round: int,
    totals: Mapping[str, Fraction] | None = None,
) -> Explanation:
    """How the participant's figures after ``after_round`` came about.

    The lines are the system's own (seed 000's table for the internal SB competition, the parts
    of every game for Van den Brink) followed by the tie-breaks' lines; the totals are exactly
    the values of his row in :func:`standings_after`. A caller that already holds that row's
    values (a stored snapshot of the same input) passes them as ``totals`` and the standings are
    not computed again.
    """
    return explain_in_context(
        season, participant_id=participant_id, after_round=after_round, totals=totals
    )[0]


def explain_in_context(
    season: SeasonInput,
    *,
    participant_id: int,
    after_round: int,
    totals: Mapping[str, Fraction] | None = None,
) -> tuple[Explanation, SystemContext | None]:
    """:func:`explain` and the context the season's system explained him in (the season's own
    rules, rounds 1..``after_round``), for a second question about the same rounds
    (``competition.scoring.movement``) without reading the season again; None when the
    explanation came from an earlier rule set (``after_round`` before the rules' first round).
    """
    if rules_from_later_round(season):
        _check_rule_sets(season)
        if after_round < season.rules_from_round:
            earlier = earlier_rules_input(season, after_round)
            explanation = explain(
                earlier, participant_id=participant_id, after_round=after_round, totals=totals
            )
            return explanation, None
    own = own_rules_input(season)
    prepared = _prepare(own, after_round)
    if participant_id not in prepared.participants:
        raise ScoringInputError(f"unknown participant {participant_id}")
    context = prepared.context
    lines = list(system_explanation(context, participant_id, prepared.parameters))
    if rules_from_later_round(season):
        lines.extend(_carried_lines(season, participant_id))
    codes = [code for code in prepared.tiebreak_codes if code != DIRECT_ENCOUNTER]
    if codes and after_round > 0:
        lines.extend(
            explain_tiebreaks(
                own, participant_id=participant_id, upto_round=after_round, codes=codes
            )
        )
    if totals is None:
        row = next(
            row
            for row in standings_after(season, after_round).rows
            if row.participant_id == participant_id
        )
        totals = row.values
    return Explanation(participant_id, after_round, tuple(lines), dict(totals)), context
