"""Categories, prizes and periods: sub-rankings of a season's standings.

A **category** is the season's standings filtered (rating class, age, newcomers or a hand-made
list), with places renumbered within it; participants who share a rank in the standings share
their place in the category. Nothing is computed again: the order is the standings' order.

- *rating*: ``rating_from <= rating < rating_below`` on the participant's event rating (either
  bound may be open); an unrated participant is in the category only when it says ``unrated``.
- *age*: ``born_from <= birth year <= born_to`` (the member's birth year; either bound may be
  open); a member without a birth year is in no age category.
- *newcomers*: participants who did not take part in the club's previous season (the caller
  says who, :attr:`Candidate.newcomer`).
- *list*: the participants the TD chose by hand.

**Prizes**: places 1 … ``prizes`` of the category, counted among the participants who may win
one: eligible in the standings (the season's minimum number of games) and, when the season
gives one prize per player, not already a winner in a category before this one (categories in
their order; place prizes before the "most improved" prize). Participants equal in the
standings share a prize place, so a tie on the last prize place gives that prize to each.

**Most improved**: the gain is the start number minus the final rank in the whole standings
(start number 12, final rank 5: gain 7). The prize goes to the largest gain among the
category's participants who may win one and have a start number, if that gain is at least 1;
equal gains go to the better final rank, then the lower start number.

A **period** is a run of rounds (``1–12``, ``13–24``) given by the last round of each period;
its ranking is the real engine on the season input restricted to those rounds, renumbered
1 … k (:func:`period_input`). Rounds after the last period's end belong to no period.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from competition.scoring.model import SeasonInput

RATING = "rating"
AGE = "age"
NEWCOMERS = "newcomers"
HAND_LIST = "list"
CATEGORY_KINDS = (RATING, AGE, NEWCOMERS, HAND_LIST)


@dataclass(frozen=True, slots=True)
class CategoryRule:
    """Who is in a category and what it awards."""

    kind: str  # one of CATEGORY_KINDS
    rating_from: int | None = None  # inclusive
    rating_below: int | None = None  # exclusive
    unrated: bool = False  # unrated participants belong to this rating category
    born_from: int | None = None  # inclusive
    born_to: int | None = None  # inclusive
    chosen: frozenset[int] = frozenset()  # participant ids of a hand-made list
    prizes: int = 3  # places 1 … prizes win a prize
    most_improved: bool = False


@dataclass(frozen=True, slots=True)
class Candidate:
    """A participant as the categories see him."""

    participant_id: int
    rating: int | None = None  # event rating
    birth_year: int | None = None
    newcomer: bool = False
    start_rank: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A row of the season's standings, in rank order."""

    participant_id: int
    rank: int
    eligible: bool = True


@dataclass(frozen=True, slots=True)
class CategoryRow:
    participant_id: int
    place: int  # within the category; shared when the standings' rank is shared
    rank: int  # in the whole standings
    eligible: bool
    prize: int | None = None  # the prize place won (1 … prizes), None: no place prize
    most_improved: bool = False
    gain: int | None = None  # start number − final rank; None without a start number


def belongs(rule: CategoryRule, candidate: Candidate) -> bool:
    """Whether ``candidate`` is in the category.

    >>> rule = CategoryRule(RATING, rating_from=1700)
    >>> belongs(rule, Candidate(1, rating=1700)), belongs(rule, Candidate(2, rating=1699))
    (True, False)
    """
    if rule.kind == RATING:
        if candidate.rating is None:
            return rule.unrated
        above = rule.rating_from is None or candidate.rating >= rule.rating_from
        below = rule.rating_below is None or candidate.rating < rule.rating_below
        return above and below
    if rule.kind == AGE:
        if candidate.birth_year is None:
            return False
        after = rule.born_from is None or candidate.birth_year >= rule.born_from
        before = rule.born_to is None or candidate.birth_year <= rule.born_to
        return after and before
    if rule.kind == NEWCOMERS:
        return candidate.newcomer
    if rule.kind == HAND_LIST:
        return candidate.participant_id in rule.chosen
    raise ValueError(f"unknown category kind {rule.kind!r}")


def _places(ranks: Sequence[int]) -> list[int]:
    """Places 1, 2, … for ranks in order, equal ranks sharing a place: 1, 3, 3, 7 → 1, 2, 2, 4."""
    places: list[int] = []
    for index, rank in enumerate(ranks):
        shared = index > 0 and ranks[index - 1] == rank
        places.append(places[-1] if shared else index + 1)
    return places


def category_rows(
    rule: CategoryRule, candidates: Iterable[Candidate], standings: Sequence[Standing]
) -> list[CategoryRow]:
    """The category's members in the standings' order with their places (no prizes yet)."""
    members = {c.participant_id: c for c in candidates if belongs(rule, c)}
    rows = [row for row in standings if row.participant_id in members]
    places = _places([row.rank for row in rows])
    return [
        CategoryRow(
            participant_id=row.participant_id,
            place=place,
            rank=row.rank,
            eligible=row.eligible,
            gain=_gain(members[row.participant_id].start_rank, row.rank),
        )
        for row, place in zip(rows, places, strict=True)
    ]


def _gain(start_rank: int | None, rank: int) -> int | None:
    return None if start_rank is None else start_rank - rank


def award_prizes(
    categories: Sequence[tuple[CategoryRule, Sequence[CategoryRow]]],
    *,
    several_prizes: bool = True,
    start_ranks: dict[int, int | None] | None = None,
) -> list[list[CategoryRow]]:
    """Each category's rows with its prizes, categories taken in the order given.

    ``several_prizes`` False: a participant who won a prize in an earlier category (or a place
    prize in this one) cannot win another; the prize passes to the next in line.
    ``start_ranks`` breaks equal gains of the "most improved" prize (lower start number first).
    """
    winners: set[int] = set()
    awarded: list[list[CategoryRow]] = []
    starts = start_ranks or {}
    for rule, rows in categories:

        def may_win(row: CategoryRow) -> bool:
            return row.eligible and (several_prizes or row.participant_id not in winners)

        in_line = [row for row in rows if may_win(row)]
        prize_places = dict(
            zip(
                (row.participant_id for row in in_line),
                _places([row.rank for row in in_line]),
                strict=True,
            )
        )
        prize_of = {
            pid: place for pid, place in prize_places.items() if place <= max(rule.prizes, 0)
        }
        winners.update(prize_of)
        improved = _most_improved(rule, rows, may_win, starts)
        if improved is not None:
            winners.add(improved)
        awarded.append(
            [
                replace(
                    row,
                    prize=prize_of.get(row.participant_id),
                    most_improved=row.participant_id == improved,
                )
                for row in rows
            ]
        )
    return awarded


def _most_improved(
    rule: CategoryRule,
    rows: Sequence[CategoryRow],
    may_win: Callable[[CategoryRow], bool],
    starts: dict[int, int | None],
) -> int | None:
    """The participant with the largest gain (at least 1), or None."""
    if not rule.most_improved:
        return None
    line = [row for row in rows if row.gain is not None and row.gain >= 1 and may_win(row)]
    if not line:
        return None
    best = min(
        line,
        key=lambda row: (-(row.gain or 0), row.rank, starts.get(row.participant_id) or 0),
    )
    return best.participant_id


# --------------------------------------------------------------------------------------------
# Periods


@dataclass(frozen=True, slots=True)
class Period:
    number: int  # 1, 2, …
    first_round: int
    last_round: int


def periods_of(ends: Iterable[int]) -> tuple[Period, ...]:
    """The periods given by the last round of each.

    >>> [(p.first_round, p.last_round) for p in periods_of([24, 12])]
    [(1, 12), (13, 24)]
    """
    periods: list[Period] = []
    first = 1
    for end in sorted(set(ends)):
        if end < first:
            continue
        periods.append(Period(len(periods) + 1, first, end))
        first = end + 1
    return tuple(periods)


def period_input(season: SeasonInput, period: Period) -> SeasonInput:
    """``season`` restricted to the period's (completed) rounds, renumbered 1 … k.

    Participants who join after the period or withdraw before it are left out; a later
    joining or a withdrawal within the period is renumbered with the rounds. The period is
    scored by the rules in force for all its rounds (``rules_from_round`` 1).

    >>> from competition.scoring.model import Participant, Round
    >>> season = SeasonInput(
    ...     participants=(Participant(1, "A"), Participant(2, "B", joined_round=3)),
    ...     rounds=tuple(Round(number=n) for n in range(1, 5)),
    ... )
    >>> restricted = period_input(season, Period(2, 3, 4))
    >>> [r.number for r in restricted.rounds], [p.joined_round for p in restricted.participants]
    ([1, 2], [1, 1])
    """
    offset = period.first_round - 1
    rounds = tuple(
        replace(rnd, number=rnd.number - offset)
        for rnd in season.rounds
        if period.first_round <= rnd.number <= period.last_round
    )
    participants = []
    for participant in season.participants:
        if participant.joined_round > period.last_round:
            continue
        withdrawn = participant.withdrawn_round
        if withdrawn is not None and withdrawn <= period.first_round:
            continue
        participants.append(
            replace(
                participant,
                joined_round=max(1, participant.joined_round - offset),
                withdrawn_round=None
                if withdrawn is None or withdrawn > period.last_round
                else withdrawn - offset,
            )
        )
    return replace(
        season,
        participants=tuple(participants),
        rounds=rounds,
        rules_from_round=1,
        earlier_rules=(),
    )
