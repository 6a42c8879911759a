"""Reads for the TD's pairing rules of a season: its forbidden pairs, with the players' names."""

from __future__ import annotations

from dataclasses import dataclass

from competition.models import ForbiddenPair, Season
from competition.selectors.common import participant_names


@dataclass(frozen=True)
class ForbiddenPairRow:
    pair_id: int
    first: str
    second: str
    note: str


def forbidden_pairs(*, season: Season) -> list[ForbiddenPairRow]:
    """The season's forbidden pairs, by the first name then the second."""
    names = participant_names(season_id=season.pk)
    rows = []
    for pair in ForbiddenPair.objects.filter(season=season):
        first, second = sorted(
            (names.get(pair.first_id, "?"), names.get(pair.second_id, "?")), key=str.casefold
        )
        rows.append(ForbiddenPairRow(pair_id=pair.pk, first=first, second=second, note=pair.note))
    return sorted(rows, key=lambda row: (row.first.casefold(), row.second.casefold()))
