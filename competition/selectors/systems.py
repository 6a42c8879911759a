"""Reads for the page that ranks one season's games under every system side by side: the
internal SB competition, Van den Brink, Keizer and points with tie-breaks. It loads the season
once with ``season_input`` (four queries) and runs the pure engine on it for each system.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from competition.models import Season
from competition.presentation.labels import error_text
from competition.presentation.ties import place_ranges, places_agree, ranges_overlap
from competition.scoring import engine
from competition.scoring.records import ScoringInputError
from competition.scoring.registry import get_system
from competition.selectors.common import season_input_with_public_names, season_tiebreak_codes

COMPARED_SYSTEMS: tuple[str, ...] = ("internal-sb", "van-den-brink", "keizer", "points")
DEFAULT_POINTS_TIEBREAKS: tuple[str, ...] = ("BH/C1", "BH", "SB")


@dataclass(frozen=True)
class SystemsPage:
    season: Season
    systems: list[tuple[str, str]]  # (key, primary code) in column order
    errors: dict[str, str]  # system key -> why it could not rank this season
    # name, participant_id, ranks{key: int}, scores{key}, differs, differs_from_first{key: bool}
    rows: list[dict[str, Any]]
    after_round: int | None
    points_tiebreaks: tuple[str, ...]


def _rules_for(season: Season, key: str) -> dict[str, Any]:
    """The season's own rules for its own system; each other system with its defaults.

    The points system keeps the season's tie-breaks when it is the season's system, else the
    common Buchholz Cut 1, Buchholz, Sonneborn-Berger.
    """
    if key == season.system:
        return {}
    tiebreaks: tuple[str, ...] = ()
    if key == "points":
        tiebreaks = DEFAULT_POINTS_TIEBREAKS
    return {"system": key, "parameters": {}, "tiebreaks": tiebreaks}


def systems_compared(*, season: Season) -> SystemsPage:
    """The same games ranked under the internal SB competition, Van den Brink, Keizer and points
    with tie-breaks; ``differs`` marks a participant on whose place the systems disagree: no
    place lies in every system's range of places (participants with equal scores in a system
    hold their places together, :func:`competition.presentation.ties.place_ranges`)."""
    base, names = season_input_with_public_names(season=season)
    last = len(base.rounds)
    keys = [season.system, *[k for k in COMPARED_SYSTEMS if k != season.system]]
    points_tiebreaks = (
        season_tiebreak_codes(season=season)
        if season.system == "points"
        else DEFAULT_POINTS_TIEBREAKS
    )
    if not last:
        return SystemsPage(season, [], {}, [], None, points_tiebreaks)
    ranks: dict[str, dict[int, int]] = {}
    scores: dict[str, dict[int, Fraction]] = {}
    errors: dict[str, str] = {}
    systems: list[tuple[str, str]] = []
    for key in keys:
        rules = _rules_for(season, key)
        variant = base
        if rules:
            variant = dataclasses.replace(
                base,
                system=rules["system"],
                parameters=rules["parameters"],
                tiebreaks=tuple(rules["tiebreaks"]),
            )
        try:
            standings = engine.standings_after(variant, last)
        except (ScoringInputError, ValueError) as error:
            errors[key] = error_text(error)
            continue
        systems.append((key, get_system(key).primary))
        ranks[key] = {row.participant_id: row.rank for row in standings.rows}
        scores[key] = {row.participant_id: row.score for row in standings.rows}
    first = systems[0][0] if systems else keys[0]
    order = sorted(names, key=lambda pid: (ranks.get(first, {}).get(pid, 0), names[pid]))
    # Equal scores hold their places together (a strict ranking such as Keizer's orders them
    # anyway): two systems agree on a participant when their ranges of places overlap.
    ranges = {key: place_ranges(ranks[key], scores[key]) for key, _code in systems}
    rows = []
    for pid in order:
        own = {key: ranks[key][pid] for key, _code in systems}
        own_ranges = {key: ranges[key][pid] for key, _code in systems}
        rows.append(
            {
                "participant_id": pid,
                "name": names[pid],
                "ranks": own,
                "scores": {key: scores[key][pid] for key, _code in systems},
                "spread": max(own.values()) - min(own.values()) if own else 0,
                "differs": not places_agree(list(own_ranges.values())),
                # per system: its places do not overlap those of the season's own system
                "differs_from_first": {
                    key: not ranges_overlap(place, own_ranges[first])
                    for key, place in own_ranges.items()
                },
            }
        )
    return SystemsPage(season, systems, errors, rows, last, points_tiebreaks)
