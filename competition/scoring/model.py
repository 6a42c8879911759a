"""The scoring engine's input and output: frozen dataclasses, no Django.

Services build a :class:`SeasonInput` from the database rows; the engine gives back
:class:`SeasonStandings` (the standings after every round) and, on request, an
:class:`Explanation` of one participant's figures. All numbers are exact
(:class:`fractions.Fraction`); rounding is for display only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

ParameterValue = Fraction | int | bool | str
# A system's parameters by name, as validated (competition.scoring.parameters).
ParameterValues = Mapping[str, ParameterValue]


class Result(StrEnum):
    """A game's result, as stored in the database and passed to the engine."""

    WHITE_WINS = "1-0"
    DRAW = "1/2"
    BLACK_WINS = "0-1"
    WHITE_WINS_FORFEIT = "+-"  # black did not turn up
    BLACK_WINS_FORFEIT = "-+"  # white did not turn up
    DOUBLE_FORFEIT = "--"
    NOT_PLAYED = ""  # pairing published, no result yet

    @property
    def is_forfeit(self) -> bool:
        return self in (Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT)

    @property
    def is_played(self) -> bool:
        """True for a game played over the board."""
        return self in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)

    @property
    def white_points(self) -> Fraction:
        return _WHITE_POINTS[self]

    @property
    def black_points(self) -> Fraction:
        return _BLACK_POINTS[self]


_WHITE_POINTS = {
    Result.WHITE_WINS: Fraction(1),
    Result.DRAW: Fraction(1, 2),
    Result.BLACK_WINS: Fraction(0),
    Result.WHITE_WINS_FORFEIT: Fraction(1),
    Result.BLACK_WINS_FORFEIT: Fraction(0),
    Result.DOUBLE_FORFEIT: Fraction(0),
    Result.NOT_PLAYED: Fraction(0),
}
_BLACK_POINTS = {
    Result.WHITE_WINS: Fraction(0),
    Result.DRAW: Fraction(1, 2),
    Result.BLACK_WINS: Fraction(1),
    Result.WHITE_WINS_FORFEIT: Fraction(0),
    Result.BLACK_WINS_FORFEIT: Fraction(1),
    Result.DOUBLE_FORFEIT: Fraction(0),
    Result.NOT_PLAYED: Fraction(0),
}


def external_results(season: SeasonInput) -> dict[tuple[int, int], Fraction]:
    """The results of external games by (participant, round number).

    >>> external_results(SeasonInput((), (Round(3, entries=(
    ...     Entry(7, EntryKind.CLUB_DUTY, external_result=Fraction(1, 2)),)),)))
    {(7, 3): Fraction(1, 2)}
    """
    return {
        (entry.participant, rnd.number): entry.external_result
        for rnd in season.rounds
        for entry in rnd.entries
        if entry.external_result is not None
    }


class EntryKind(StrEnum):
    """Why a participant has no game in a round.

    FIDE C.07 Art. 16 distinguishes pairing-allocated byes from voluntary unplayed rounds
    (requested byes, forfeit losses, rounds after withdrawal); the club kinds map onto it:
    ``bye`` is pairing-allocated, ``absent_notice`` and ``club_duty`` are requested byes,
    ``absent_no_notice`` and ``not_paired`` are voluntary unplayed rounds without a request.
    """

    BYE = "bye"  # the odd player out (pairing-allocated bye)
    ABSENT_NOTICE = "absent_notice"  # afwezig met bericht (requested bye)
    ABSENT_NO_NOTICE = "absent_no_notice"  # afwezig zonder bericht
    CLUB_DUTY = "club_duty"  # team match, arbiter
    NOT_PAIRED = "not_paired"  # a round with no record at all (TRF: blank)


@dataclass(frozen=True, slots=True)
class Participant:
    id: int
    name: str
    start_rank: int | None = None  # start number (TRF start rank for imported seasons)
    start_points: Fraction | None = None  # Van den Brink start points set by the TD
    rating: int | None = None
    joined_round: int = 1  # first round the participant takes part in
    # withdrawn from the season from this round on: the rounds from it on are unplayed rounds
    # after withdrawal (no record, zero points; no system awards anything for them)
    withdrawn_round: int | None = None


@dataclass(frozen=True, slots=True)
class Game:
    white: int  # participant id
    black: int  # participant id
    result: Result
    board: int = 0


@dataclass(frozen=True, slots=True)
class Entry:
    """A participant's round without a game: absence, club duty or bye."""

    participant: int
    kind: EntryKind
    points: Fraction = Fraction(0)  # game points awarded (e.g. 1 for a full-point bye)
    # a club duty that was a game for the club elsewhere (a team match): its result (1, ½ or 0);
    # how it counts is the system's parameter ``external_game``
    external_result: Fraction | None = None


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    games: tuple[Game, ...] = ()
    entries: tuple[Entry, ...] = ()


@dataclass(frozen=True, slots=True)
class EarlierRules:
    """A rule set that scored some rounds before the season's own rules took over.

    It scores the rounds from ``from_round`` up to the next rule set's first round (see
    :attr:`SeasonInput.rules_from_round`); ``version`` is the number the season gave it.
    """

    version: int
    from_round: int
    system: str
    parameters: ParameterValues = field(default_factory=dict)
    tiebreaks: tuple[str, ...] = ()
    unplayed_policy: str = "fide-2024"
    min_games: int = 0


def rule_sets_before(
    rule_sets: Iterable[EarlierRules], *, version: int, from_round: int
) -> tuple[EarlierRules, ...]:
    """The rule sets that score the rounds before ``from_round`` when rule set ``version``
    scores the rounds from it on: going back from ``version``, each earlier set that starts
    before the next one's first round, in order (an earlier set that starts no sooner was
    replaced as a whole). Empty when ``from_round`` is 1.

    >>> sets = [EarlierRules(v, f, "points") for v, f in ((1, 1), (2, 5), (3, 5), (4, 1))]
    >>> [r.version for r in rule_sets_before(sets, version=5, from_round=8)]
    [4]
    >>> [r.version for r in rule_sets_before(sets, version=4, from_round=1)]
    []
    >>> [r.version for r in rule_sets_before(sets, version=4, from_round=7)]
    [1, 3]
    """
    chosen: list[EarlierRules] = []
    bound = from_round
    for rules in sorted(rule_sets, key=lambda r: -r.version):
        if bound <= 1:
            break
        if rules.version < version and rules.from_round < bound:
            chosen.insert(0, rules)
            bound = rules.from_round
    return tuple(chosen)


@dataclass(frozen=True, slots=True)
class SeasonInput:
    """Everything the engine needs for one season; rounds are the completed ones, in order.

    The rules (``system`` … ``min_games``) score the whole season, unless ``rules_from_round``
    is later than round 1: then they score only the rounds from it on, and the rounds before
    keep the values ``earlier_rules`` gave them (in order of ``from_round``, the first from
    round 1); see :func:`competition.scoring.engine.standings_after`.
    """

    participants: tuple[Participant, ...]
    rounds: tuple[Round, ...]
    system: str = "points"
    parameters: ParameterValues = field(default_factory=dict)
    tiebreaks: tuple[str, ...] = ()
    unplayed_policy: str = "fide-2024"
    min_games: int = 0  # minimum games over the board for prize eligibility
    round_robin: bool = False
    rules_from_round: int = 1
    earlier_rules: tuple[EarlierRules, ...] = ()

    def scored_by(self, rules: EarlierRules) -> SeasonInput:
        """The same season with ``rules``' system, parameters, tie-breaks, unplayed policy and
        minimum games (the rounds and the other rule sets unchanged)."""
        return replace(
            self,
            system=rules.system,
            parameters=rules.parameters,
            tiebreaks=rules.tiebreaks,
            unplayed_policy=rules.unplayed_policy,
            min_games=rules.min_games,
        )


@dataclass(frozen=True, slots=True)
class StandingRow:
    participant_id: int
    rank: int  # shared ranks are possible only when every criterion is equal
    score: Fraction  # the system's primary value (SB for internal-sb, points for van-den-brink)
    game_points: Fraction
    values: Mapping[str, Fraction]  # every figure by code: tie-breaks, "IP", "RV", ...
    games_played: int  # games over the board
    eligible: bool  # meets the season's minimum number of games for prizes


@dataclass(frozen=True, slots=True)
class RoundStandings:
    round_number: int
    rows: tuple[StandingRow, ...]  # in rank order


@dataclass(frozen=True, slots=True)
class SeasonStandings:
    history: tuple[RoundStandings, ...]  # after round 1, 2, ... in order

    def after(self, round_number: int) -> RoundStandings:
        for standings in self.history:
            if standings.round_number == round_number:
                return standings
        raise KeyError(round_number)

    @property
    def final(self) -> RoundStandings | None:
        return self.history[-1] if self.history else None


@dataclass(frozen=True, slots=True)
class Contribution:
    """One line of an explanation: how one game (or unplayed round) adds to a figure."""

    figure: str  # the code it contributes to: "SB", "VDB", "BH", "IP", ...
    round_number: int
    amount: Fraction
    opponent_id: int | None = None  # None for an unplayed round or a dummy opponent
    parts: Mapping[str, Fraction | str] = field(default_factory=dict)  # named inputs
    counted: bool = True  # False when a cut (C1, M1, ...) dropped it
    # English, marked with gettext_noop ("cut: lowest", "forfeit"), parts joined by "; ", or an
    # entry kind ("absent_notice"); competition.presentation.labels.note_label translates it.
    note: str = ""
    # Values of the note's placeholders: "... after game %(n)s" with {"n": 14}.
    note_values: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Explanation:
    participant_id: int
    after_round: int
    lines: tuple[Contribution, ...]
    totals: Mapping[str, Fraction]  # the figure per code, equal to the standings' values
