"""A player's public profile across seasons: his seasons at the club with his latest place and
score, his head-to-head record against each opponent, and his results list.

Member ids are not secret: the page shows only what the season pages show, with names as the
public sees them, and only under the member's own club's address. It is not cached: it spans
seasons, whose versions key the page caches.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from competition.permissions import player_found, request_club
from competition.presentation.labels import figure_label
from competition.selectors.profile import member_profile as profile_of
from competition.selectors.ratings import member_rating_summary
from competition.views.ratings import rating_chart


@require_safe
def member_profile(request: HttpRequest, member_id: int) -> HttpResponse:
    data = player_found(
        request, lambda: profile_of(member_id=member_id, club=request_club(request))
    )
    language = get_language() or "nl"
    labels = {row.primary: figure_label(row.primary, language) for row in data.seasons}
    rating = member_rating_summary(member_id=member_id)
    chart = rating_chart(name=data.name, member_id=member_id, evenings=rating.evenings)
    return render(
        request,
        "competition/profile.html",
        {"data": data, "labels": labels, "rating": rating, "rating_chart": chart},
    )
