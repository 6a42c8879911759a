"""The public "can I still win?" page of a season: it only reads the stored chances.

Not cached with the other season pages: the chances change when the worker finishes, not when
the season's versions move (then they are marked stale and recomputed).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from competition.models import Season
from competition.permissions import request_club
from competition.selectors import public
from competition.selectors.chances import chances_page


@require_safe
def season_chances(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        season = public.season_get(club=request_club(request), slug=slug)
    except Season.DoesNotExist:
        raise Http404(_("No such season.")) from None
    data = chances_page(season=season)
    return render(
        request, "competition/chances.html", {"season": season, "data": data, "tab": "chances"}
    )
