"""Direct encounter (DE, FIDE C.07 Art. 6): the mini table of one tied group.

DE is not a per-participant figure: it exists only within a group still tied on everything
ranked before it, so the engine asks for it group by group. The games within the group come
from the packed sheet (:meth:`~.packed.TiebreakSheet.meetings`).
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction

from competition.scoring.model import SeasonInput
from competition.scoring.records import read_rows
from competition.scoring.tiebreaks.packed import Meetings, TiebreakSheet


def direct_encounter(
    season: SeasonInput, *, upto_round: int, group: Collection[int]
) -> dict[int, Fraction]:
    """Direct encounter within one tied group (C.07 Art. 6).

    When every pair in the group has met over the board (in a round robin a forfeit counts as
    a meeting, Art. 15.2; in a Swiss it does not, Art. 6.1.1), the value is the points scored
    against the other members, a pair that met more than once counting the average (6.1.2).
    Otherwise (Art. 6.3) only participants whose place is certain are separated: one who
    cannot be caught even if every missing game went to the others gets a higher value, the
    rest stay equal at 0. Ties left inside the group are for the next tie-break; apply this
    again to a tied subgroup (Art. 6.2). Example: A beat B, B beat C, A drew C: A 1½, B 1, C ½.
    """
    sheet = TiebreakSheet(season, read_rows(season, upto_round))
    return direct_encounter_values(sheet.meetings(upto_round, group), group)


def direct_encounter_values(meetings: Meetings, group: Collection[int]) -> dict[int, Fraction]:
    """:func:`direct_encounter` from the group's meetings (:meth:`TiebreakSheet.meetings`).

    Example: meetings {(A, B): [2], (B, A): [0]} (A beat B): A 1, B 0.
    """
    members = set(group)
    # each member's result against each other member he met: the mean of their games (6.1.2)
    against: dict[int, dict[int, Fraction]] = {pid: {} for pid in members}
    for (pid, other), scores in meetings.items():
        against[pid][other] = Fraction(sum(scores), 2 * len(scores))
    mini = {pid: sum(against[pid].values(), Fraction(0)) for pid in members}
    if everyone_met(meetings, members):
        return mini
    # Art. 6.3: peel off leaders nobody can catch: a leader's mini score within the remaining
    # members beats every other one's mini score plus the games he still has to play against
    # them (a point each). Each step reads every member's meetings once: the best any other
    # member can reach is the largest or, for the member holding it, the second largest reach.
    values = {pid: Fraction(0) for pid in members}
    remaining = set(members)
    place = len(members)
    while len(remaining) > 1:
        within: dict[int, Fraction] = {}
        reach: dict[int, Fraction] = {}
        for pid in remaining:
            met = [value for other, value in against[pid].items() if other in remaining]
            within[pid] = sum(met, Fraction(0))
            reach[pid] = within[pid] + (len(remaining) - 1 - len(met))
        (best, best_pid), *second = sorted(
            ((value, pid) for pid, value in reach.items()), reverse=True
        )[:2]
        second_best = second[0][0]
        leader = next(
            (
                pid
                for pid in sorted(remaining)
                if within[pid] > (second_best if pid == best_pid else best)
            ),
            None,
        )
        if leader is None:
            break
        values[leader] = Fraction(place)
        place -= 1
        remaining.discard(leader)
    return values


def everyone_met(meetings: Meetings, group: Collection[int]) -> bool:
    """Whether every pair of the group met (Art. 6.1; then Art. 6.2 may re-apply DE).

    Example: A-B and B-C played, A-C did not: False.
    """
    return all((pid, other) in meetings for pid in group for other in group if other != pid)
