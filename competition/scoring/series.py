"""Rapid and blitz series: several rounds on one evening, an evening ranking from
that evening's games alone, evening points by place and a series ranking over the evenings.

A season with ``rounds_per_evening`` R ≥ 2 plays its rounds in evenings of R rounds:
evening k holds rounds (k − 1)·R + 1 … k·R (:func:`evenings_of`). An evening's ranking is the
engine on the evening's rounds alone, renumbered 1 … R, among the evening's players: those with
a game or a bye in one of its rounds (:func:`evening_input`).

**Evening points** come from the season's table by place (10-8-6-5-4-3-2-1: place 1 gets 10,
place 9 and later 0). Players sharing a place (the engine shares a place only when every figure
is equal) share the points of the places they cover, averaged exactly: two players sharing
place 2 of 10-8-6-5 cover places 2 and 3 and get (8 + 6) / 2 = 7 each
(:func:`evening_points`).

**Series ranking**: the sum of every evening's points, or of the best N (:func:`series_ranking`);
an evening a player missed counts 0. Equal totals share a place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from competition.scoring.categories import Period, period_input
from competition.scoring.model import SeasonInput

# The points table a new rapid season gets (places 1–8).
DEFAULT_EVENING_POINTS: tuple[int, ...] = (10, 8, 6, 5, 4, 3, 2, 1)


def evening_of(round_number: int, rounds_per_evening: int) -> int:
    """The evening (1, 2, …) round ``round_number`` is played on.

    >>> [evening_of(n, 5) for n in (1, 5, 6, 10, 11)]
    [1, 1, 2, 2, 3]
    """
    return (round_number - 1) // rounds_per_evening + 1


def round_in_evening(round_number: int, rounds_per_evening: int) -> int:
    """The round's place in its evening (1 … R).

    >>> [round_in_evening(n, 5) for n in (1, 5, 6, 7)]
    [1, 5, 1, 2]
    """
    return (round_number - 1) % rounds_per_evening + 1


def evenings_of(rounds_per_evening: int, last_round: int) -> tuple[Period, ...]:
    """The evenings that rounds 1 … ``last_round`` fall on (the last one may be under way).

    >>> [(e.number, e.first_round, e.last_round) for e in evenings_of(5, 12)]
    [(1, 1, 5), (2, 6, 10), (3, 11, 15)]
    >>> evenings_of(5, 0)
    ()
    """
    if last_round < 1:
        return ()
    count = evening_of(last_round, rounds_per_evening)
    return tuple(
        Period(k, (k - 1) * rounds_per_evening + 1, k * rounds_per_evening)
        for k in range(1, count + 1)
    )


def evening_input(season: SeasonInput, evening: Period) -> SeasonInput:
    """``season`` restricted to the evening's (completed) rounds, renumbered 1 … k, and to the
    evening's players: those with a game (a forfeit too) or an entry other than an absence in
    one of its rounds. Participants absent the whole evening are left out: they are not ranked
    and get no evening points."""
    restricted = period_input(season, evening)
    absences = {"absent_notice", "absent_no_notice", "club_duty", "not_paired"}
    playing: set[int] = set()
    for rnd in restricted.rounds:
        for game in rnd.games:
            playing.update((game.white, game.black))
        playing.update(e.participant for e in rnd.entries if str(e.kind) not in absences)
    return replace(
        restricted,
        participants=tuple(p for p in restricted.participants if p.id in playing),
        rounds=tuple(
            replace(rnd, entries=tuple(e for e in rnd.entries if e.participant in playing))
            for rnd in restricted.rounds
        ),
    )


def evening_points(ranks: Mapping[int, int], table: Sequence[int]) -> dict[int, Fraction]:
    """Each player's evening points from his place; shared places share their points.

    ``ranks`` maps a player to his place (1 = first; equal places are shared). The players on
    place p, n of them, cover places p … p + n − 1 and each gets the average of those places'
    points from ``table`` (0 beyond its end).

    >>> points = evening_points({1: 1, 2: 2, 3: 2, 4: 4}, [10, 8, 6, 5])
    >>> [str(points[p]) for p in (1, 2, 3, 4)]
    ['10', '7', '7', '5']
    >>> [str(v) for v in evening_points({1: 1, 2: 1, 3: 1}, [10, 8, 6]).values()]
    ['8', '8', '8']
    """

    def place_points(place: int) -> int:
        return table[place - 1] if place <= len(table) else 0

    sharing: dict[int, int] = {}
    for rank in ranks.values():
        sharing[rank] = sharing.get(rank, 0) + 1
    return {
        pid: Fraction(sum(place_points(p) for p in range(rank, rank + sharing[rank])))
        / sharing[rank]
        for pid, rank in ranks.items()
    }


@dataclass(frozen=True, slots=True)
class SeriesRow:
    participant_id: int
    rank: int  # equal totals share a place
    total: Fraction  # the points of the evenings that count
    # Points per evening in evening order; None for an evening he did not play.
    points: tuple[Fraction | None, ...]
    counted: frozenset[int]  # the evenings (1, 2, …) whose points make the total
    evenings_played: int


def counted_evenings(points: Sequence[Fraction | None], best: int | None) -> frozenset[int]:
    """The evenings (1, 2, …) that count: every evening played, or the ``best`` with the most
    points (among equal points, the earlier evening).

    >>> sorted(counted_evenings([Fraction(6), None, Fraction(10), Fraction(6)], 2))
    [1, 3]
    >>> sorted(counted_evenings([Fraction(6), None, Fraction(10)], None))
    [1, 3]
    """
    played = [(value, k) for k, value in enumerate(points, start=1) if value is not None]
    if best is not None:
        played = sorted(played, key=lambda item: (-item[0], item[1]))[:best]
    return frozenset(k for _value, k in played)


def series_ranking(
    evenings: Sequence[Mapping[int, Fraction]], *, best: int | None = None
) -> list[SeriesRow]:
    """The series ranking: each player's total over the evenings (``evenings[k]`` maps the
    players of evening k + 1 to their evening points), counting the ``best`` evenings only
    when given; ordered by total, equal totals share a place (then by id, for a stable order).

    >>> rows = series_ranking(
    ...     [{1: Fraction(10), 2: Fraction(8)}, {1: Fraction(6), 2: Fraction(10)},
    ...      {2: Fraction(5)}],
    ...     best=2,
    ... )
    >>> [(r.participant_id, r.rank, str(r.total), sorted(r.counted)) for r in rows]
    [(2, 1, '18', [1, 2]), (1, 2, '16', [1, 2])]
    """
    players = sorted({pid for evening in evenings for pid in evening})
    rows: list[tuple[int, Fraction, tuple[Fraction | None, ...], frozenset[int]]] = []
    for pid in players:
        points = tuple(evening.get(pid) for evening in evenings)
        counted = counted_evenings(points, best)
        total = sum((points[k - 1] or Fraction(0) for k in counted), Fraction(0))
        rows.append((pid, total, points, counted))
    rows.sort(key=lambda row: (-row[1], row[0]))
    ranked: list[SeriesRow] = []
    for index, (pid, total, points, counted) in enumerate(rows):
        rank = ranked[-1].rank if ranked and ranked[-1].total == total else index + 1
        played = sum(1 for value in points if value is not None)
        ranked.append(SeriesRow(pid, rank, total, points, counted, played))
    return ranked
