"""Rapid and blitz series: the public series ranking and each evening's ranking
(cached like the standings), and the TD's *Next round* on a rapid evening."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from competition.models import Round
from competition.permissions import (
    AuthenticatedRequest,
    found,
    rapid_series_of_address,
    td_round_view,
)
from competition.selectors import series as selectors
from competition.services import series as services
from competition.services.errors import ServiceError
from competition.views.page_cache import _cached_body, _page, anonymous_page_cache
from competition.views.rounds import _round_url
from competition.views.standings import _standings_legend, _standings_table


@require_safe
@anonymous_page_cache(keep=())
def series(request: HttpRequest, slug: str) -> HttpResponse:
    """The series ranking: evening points over the evenings (all, or the best N)."""
    season = rapid_series_of_address(request, slug)

    def build() -> SafeString:
        data = selectors.series_page(season=season)
        return render_to_string(
            "competition/_series.html", {"season": season, "data": data}, request=request
        )

    body = _cached_body(request, season, "series", build, keep=(), tab="series")
    return _page(request, "competition/series.html", season, body, tab="series")


@require_safe
@anonymous_page_cache(keep=("sort",))
def evening(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """An evening's ranking from its own games, and the evening points by place."""
    season = rapid_series_of_address(request, slug)

    def build() -> SafeString:
        data = found(
            lambda: selectors.evening_page(season=season, number=number),
            LookupError,
            _("No such evening."),
        )
        standings = data.standings
        table = _standings_table(request, season, standings) if standings else None
        legend = _standings_legend(season, standings, table) if standings and table else None
        return render_to_string(
            "competition/_evening.html",
            {"season": season, "data": data, "table": table, "legend": legend},
            request=request,
        )

    body = _cached_body(request, season, f"evening:{number}", build, keep=("sort",), tab="series")
    return _page(request, "competition/evening.html", season, body, tab="series")


@require_POST
@td_round_view
def td_rapid_next(request: AuthenticatedRequest, rnd: Round) -> HttpResponse:
    """Close the round and open, pair and publish the evening's next round; back to results."""
    try:
        following = services.rapid_round_next(round=rnd, user=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect(_round_url("td_results", rnd))
    messages.success(
        request,
        _("Round %(closed)s closed; round %(round)s is paired and published.")
        % {"closed": rnd.number, "round": following.number},
    )
    return redirect(_round_url("td_results", following))
