"""Reads for a season's rules: the club admin's rules page (the rule sets a season has had, each
with its parameters and what changed from the version before), the changes of rules the public
pages report, and the "how it works" page (the system, its parameters, a worked example)."""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from competition.models import ForbiddenPair, Season, SeasonRules, StandingsSnapshot, UnplayedPolicy
from competition.presentation import labels
from competition.presentation.numbers import fraction_text
from competition.scoring.parameters import ParameterKind, parameters_from_json
from competition.scoring.registry import SYSTEMS, get_system
from competition.scoring.systems.base import RankingSystem
from competition.selectors.common import season_tiebreak_codes
from competition.selectors.participants import ParticipantPage, participant_detail


@dataclass(frozen=True)
class RuleSetView:
    """One rule set as the history shows it: every figure in words, and the changes."""

    version: int
    valid_from: datetime.datetime | None
    system: str  # the system's name in the reader's language
    parameters: list[tuple[str, str]]  # (label, value in words), in the system's order
    tiebreaks: str  # "BH/C1, BH, SB" or "–"
    unplayed_policy: str
    min_games: int
    changed_by: str
    current: bool
    from_round: int  # 1: the whole season; else the first round these rules score
    # (what, before, after) against the version before; empty for the first one
    changes: list[tuple[str, str, str]] = field(default_factory=list)


def _value_text(kind: ParameterKind, value: object) -> str:
    if kind is ParameterKind.BOOL:
        return _("yes") if value else _("no")
    if isinstance(value, Fraction):
        return fraction_text(value)
    if value == "":
        return _("empty")
    return labels.choice_label(value)


def _parameters(system_key: str, stored: Mapping[str, object]) -> list[tuple[str, str]]:
    """Every parameter of the system with its value (a default where the row stored none)."""
    system = SYSTEMS.get(system_key)
    if system is None:
        return [(name, str(value)) for name, value in stored.items()]
    values = parameters_from_json(stored)
    return [
        (
            labels.parameter_label(spec),
            _value_text(spec.kind, values.get(spec.name, spec.default)),
        )
        for spec in system.parameters
    ]


def _system_name(key: str) -> str:
    system = SYSTEMS.get(key)
    return labels.system_name(system) if system is not None else key


def rule_set_changes(*, before: RuleSetView, after: RuleSetView) -> list[tuple[str, str, str]]:
    """What differs from ``before`` to ``after``: the system, each parameter (by its label, when
    the system stayed), the tie-breaks, the unplayed-round policy and the minimum games.

    Example: Van den Brink with win part 3 and factor 0,07, then 4 and 0,05 gives
    [("Result part for a win", "3", "4"), ("Factor for the rank value difference", "0,07",
    "0,05")] (in Dutch words and numbers on a Dutch page).
    """
    changes: list[tuple[str, str, str]] = []
    if before.system != after.system:
        changes.append((_("System"), before.system, after.system))
    else:
        old = dict(before.parameters)
        for label, value in after.parameters:
            if old.get(label) != value:
                changes.append((label, old.get(label, "–"), value))
    for what, old_text, new_text in (
        (_("Tie-breaks"), before.tiebreaks, after.tiebreaks),
        (_("Unplayed rounds in tie-breaks"), before.unplayed_policy, after.unplayed_policy),
        (_("Minimum games for prizes"), str(before.min_games), str(after.min_games)),
    ):
        if old_text != new_text:
            changes.append((what, old_text, new_text))
    return changes


def _view(
    *,
    version: int,
    valid_from: datetime.datetime | None,
    system: str,
    parameters: Mapping[str, object],
    tiebreaks: Sequence[str],
    unplayed_policy: str,
    min_games: int,
    changed_by: str,
    current: bool,
    from_round: int,
) -> RuleSetView:
    policies = dict(UnplayedPolicy.choices)
    return RuleSetView(
        version=version,
        valid_from=valid_from,
        system=_system_name(system),
        parameters=_parameters(system, parameters),
        tiebreaks=", ".join(tiebreaks) or "–",
        unplayed_policy=str(policies.get(unplayed_policy, unplayed_policy)),
        min_games=min_games,
        changed_by=changed_by,
        current=current,
        from_round=from_round,
    )


def rule_history(*, season: Season) -> list[RuleSetView]:
    """Every rule set of the season, newest first, with its parameters, what changed from the
    version before and the one in force (``season.rules_version``) marked current (one query).

    The rule set in force is the season's own; it is listed even before a row stores it. A
    season whose rules never changed has no history (an empty list).
    """
    stored = list(
        SeasonRules.objects.filter(season=season).select_related("changed_by").order_by("version")
    )
    if not stored:
        return []
    views = [
        _view(
            version=row.version,
            valid_from=row.valid_from,
            system=row.system,
            parameters=row.parameters,
            tiebreaks=row.tiebreaks,
            unplayed_policy=row.unplayed_policy,
            min_games=row.min_games,
            changed_by=row.changed_by.get_username() if row.changed_by else "",
            current=row.version == season.rules_version,
            from_round=row.from_round,
        )
        for row in stored
    ]
    if all(row.version != season.rules_version for row in stored):
        views.append(
            _view(
                version=season.rules_version,
                valid_from=None,
                system=season.system,
                parameters=season.parameters,
                tiebreaks=season.tiebreaks,
                unplayed_policy=season.unplayed_policy,
                min_games=season.min_games,
                changed_by="",
                current=True,
                from_round=season.rules_from_round,
            )
        )
    with_changes = [views[0]]
    for before, after in itertools.pairwise(views):
        with_changes.append(
            RuleSetView(
                **{**after.__dict__, "changes": rule_set_changes(before=before, after=after)}
            )
        )
    return list(reversed(with_changes))


@dataclass(frozen=True)
class RuleChange:
    """A change of the season's rules as the public pages report it."""

    version: int  # the rule set that came into force
    valid_from: datetime.datetime
    from_round: int  # 1: every round was recomputed; else the first round it scores


def rule_changes(*, season: Season) -> list[RuleChange]:
    """The season's changes of rules, oldest first (one query; none when the rules never
    changed)."""
    if season.rules_version <= 1:
        return []
    return [
        RuleChange(*row)
        for row in SeasonRules.objects.filter(season=season, version__gte=2)
        .order_by("version")
        .values_list("version", "valid_from", "from_round")
    ]


@dataclass(frozen=True)
class HowItWorksPage:
    season: Season
    system: RankingSystem
    parameters: list[tuple[Any, Any]]  # (ParameterSpec, current value)
    tiebreak_codes: tuple[str, ...]
    example: ParticipantPage | None
    participants: int = 0  # how many take part (Keizer's top value follows from it)
    forbidden_pairs: int = 0  # pairs the pairing keeps apart


def how_it_works(*, season: Season) -> HowItWorksPage:
    """The season's system, its parameters as they are now, and a worked example: the
    explanation of the leader's figures after the latest round."""
    system = get_system(season.system)
    try:
        values = system.validate(parameters_from_json(season.parameters))
    except ValueError:
        values = {spec.name: spec.default for spec in system.parameters}
    parameters = [(spec, values[spec.name]) for spec in system.parameters]
    pairs = (
        ForbiddenPair.objects.filter(season=OuterRef("season"))
        .order_by()
        .values("season")
        .annotate(n=Count("pk"))
        .values("n")[:1]
    )
    leader = (
        StandingsSnapshot.objects.filter(season=season)
        .annotate(forbidden_pairs=Coalesce(Subquery(pairs), 0))  # read with it: no query more
        .order_by("-round_number")
        .first()
    )
    example = None
    if leader is not None and leader.rows:
        example = participant_detail(
            season=season,
            participant_id=leader.rows[0]["participant_id"],
            after_round=leader.round_number,
        )
        participants = len(leader.rows)  # a snapshot has a row for every participant
    else:
        participants = season.participants.count()
    forbidden = leader.forbidden_pairs if leader is not None else season.forbidden_pairs.count()
    return HowItWorksPage(
        season,
        system,
        parameters,
        season_tiebreak_codes(season=season),
        example,
        participants,
        0 if season.is_round_robin else forbidden,
    )
