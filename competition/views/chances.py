"""The public "can I still win?" page of a season: it only reads the stored chances.

Not cached with the other season pages: the chances change when the worker finishes, not when
the season's versions move (then they are marked stale and recomputed).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from competition.permissions import season_of_address
from competition.selectors.chances import chances_page


@require_safe
def season_chances(request: HttpRequest, slug: str) -> HttpResponse:
    season = season_of_address(request, slug)
    data = chances_page(season=season)
    return render(
        request, "competition/chances.html", {"season": season, "data": data, "tab": "chances"}
    )
