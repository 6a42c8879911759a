"""A season's compact page for a frame on the club's own site (its standings and latest
round), and the club admin's page with the sites allowed to frame it and a snippet to copy.

Which sites may frame a page is the CSP's ``frame-ancestors`` (competition.security.embeddable):
the site's setting and the club's own (``Club.embed_origins``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from competition.clubs import club_url
from competition.forms.embed import EmbedOriginsForm
from competition.permissions import club_for_admin, season_of_address
from competition.presentation import numbers
from competition.security import embed_origins
from competition.selectors.api import public_seasons_of_club
from competition.selectors.rounds import latest_round_page
from competition.selectors.standings import standings_for_season
from competition.services.clubs import club_embed_origins_set
from competition.services.errors import ServiceError

# The frame's height the snippet proposes (px); the page scrolls inside it when longer.
SNIPPET_HEIGHT = 640


@require_safe
def season_embed(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings and the latest round of a season, compact (360 px wide and up)."""
    season = season_of_address(request, slug)
    latest = latest_round_page(season=season)
    standings = standings_for_season(season=season)
    return render(
        request,
        "competition/embed.html",
        {
            "season": season,
            "standings": standings,
            # the score column in one style, as on the standings page (39,00 and 33,50)
            "score_style": numbers.column_style(
                (row["score"] for row in standings.rows),
                points=numbers.is_points(standings.primary),
            ),
            "latest": latest,
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_embed(request: HttpRequest) -> HttpResponse:
    """The club admin's page: which sites may frame the club's pages, and per season the
    ``<iframe>`` to paste into the club's own site."""
    club = club_for_admin(
        request, refusal=_("Only the club's admins can change which sites embed its pages.")
    )
    if request.method == "POST":
        form = EmbedOriginsForm(request.POST)
        if form.is_valid():
            try:
                club_embed_origins_set(
                    club=club, text=form.cleaned_data["origins"], user=request.user
                )
            except ServiceError as error:
                form.add_error("origins", str(error))
            else:
                messages.success(request, _("The sites that may embed the club's pages are saved."))
                return redirect("competition:club_embed")
        status = 400
    else:
        form = EmbedOriginsForm(initial={"origins": club.embed_origins})
        status = 200
    snippets = [
        (
            season,
            request.build_absolute_uri(
                club_url(club.slug, "competition:season_embed", args=[season.slug])
            ),
        )
        for season in public_seasons_of_club(club=club)
    ]
    return render(
        request,
        "competition/club/embed.html",
        {
            "club": club,
            "form": form,
            "origins": embed_origins(club.embed_origins),
            "snippets": snippets,
            "height": SNIPPET_HEIGHT,
        },
        status=status,
    )
