"""The versions a cached public page is keyed by (read fresh on every request, one small
query): a season's ``data_version`` and ``rules_version``, a round's boards, entries and
status. See :mod:`competition.views.page_cache`."""

from __future__ import annotations

import functools
from typing import Any

from django.db import connections, router
from django.db.models import Count, Max, OuterRef, Subquery, Sum

from competition.models import Club, Game, Round, RoundEntry, Season


@functools.cache
def _season_versions_sql(alias: str) -> str:
    """The SQL of ``Season.objects.filter(slug=…).values_list(pk, data_version, rules_version)``
    for one database, compiled once: compiling it took longer than running it."""
    query = (
        Season.objects.using(alias)
        .filter(club_id=0, slug="-")
        .order_by()  # the slug is unique per club: no ORDER BY needed
        .values_list("pk", "data_version", "rules_version")
        .query
    )
    sql, params = query.sql_with_params()
    assert params == (0, "-"), params  # the club and the slug are the only parameters
    return sql


def season_versions(*, club: Club | None, slug: str) -> tuple[int, int, int] | None:
    """The season's pk, ``data_version`` and ``rules_version`` (one query), or None.

    Read on every request for an anonymous page (the key of its cache), so it is raw SQL.
    """
    alias = router.db_for_read(Season)
    with connections[alias].cursor() as cursor:
        cursor.execute(_season_versions_sql(alias), [club.pk if club else 0, slug])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1], row[2])


@functools.cache
def _round_versions_sql(alias: str) -> str:
    """One query for everything a round's public page shows that a write can change."""

    def aggregate(model: type[Game] | type[RoundEntry], function: Any) -> Subquery:
        rows = model.objects.filter(round=OuterRef("pk")).order_by().values("round")
        return Subquery(rows.annotate(figure=function).values("figure"))

    rounds = Round.objects.filter(season=OuterRef("season")).order_by().values("season")
    query = (
        Round.objects.using(alias)
        .filter(season__club_id=0, season__slug="-", number=0)
        .order_by()
        .annotate(
            board_count=aggregate(Game, Count("pk")),
            board_versions=aggregate(Game, Sum("version")),
            board_saved=aggregate(Game, Max("updated_at")),
            entry_count=aggregate(RoundEntry, Count("pk")),
            entry_versions=aggregate(RoundEntry, Sum("version")),
            entry_saved=aggregate(RoundEntry, Max("updated_at")),
            round_count=Subquery(rounds.annotate(n=Count("pk")).values("n")),
        )
        .values_list(
            "season_id",
            "season__data_version",
            "season__rules_version",
            "pk",
            "status",
            "date",
            "board_count",
            "board_versions",
            "board_saved",
            "entry_count",
            "entry_versions",
            "entry_saved",
            "round_count",
        )
        .query
    )
    sql, params = query.sql_with_params()
    # the number, the club and the slug are the only parameters (Q sorts them by name)
    assert params == (0, 0, "-"), params
    return sql


def round_versions(*, club: Club | None, slug: str, number: int) -> tuple[Any, ...] | None:
    """What a round's public page depends on, as one row (one query), or None when there is no
    such round: the season's pk and versions (names, rules), the round's status and date, the
    count, versions and latest save of its boards and of its entries (every result, correction,
    published or withdrawn pairing and attendance change moves one of them), and the number of
    rounds (the page links to each). The key of the round page's cache for anonymous readers.
    """
    alias = router.db_for_read(Round)
    with connections[alias].cursor() as cursor:
        cursor.execute(_round_versions_sql(alias), [number, club.pk if club else 0, slug])
        row = cursor.fetchone()
    return None if row is None else tuple(row)
