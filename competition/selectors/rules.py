"""Reads for the staff's rules page: the rule sets a season has had."""

from __future__ import annotations

from competition.models import Season, SeasonRules


def rule_history(*, season: Season) -> list[SeasonRules]:
    """Every stored rule set of the season, newest first (one query)."""
    return list(
        SeasonRules.objects.filter(season=season).select_related("changed_by").order_by("-version")
    )
