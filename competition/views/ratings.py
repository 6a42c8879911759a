"""The club rating's pages (docs/ratings.md): the club's rating list and a member's rating
history with every evening explained game by game (public, names as the public sees them),
and the club admin's rules for it (on the club settings page)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from competition.forms.ratings import ClubRatingRulesForm
from competition.permissions import (
    AuthenticatedRequest,
    club_for_admin,
    club_of_address,
    player_found,
)
from competition.presentation.charts import RatingChartLabels, RatingPoint, rating_svg
from competition.selectors.ratings import club_rating_list, club_rating_rules, member_rating_history
from competition.services.ratings import club_rating_rules_set
from competition.views.actions import form_refused, service_done


def rating_chart(
    *, name: str, member_id: int, evenings: Sequence[tuple[datetime.date, int, int]]
) -> SafeString:
    """The member's club rating across the evenings (date, rating before, rating after), from
    his start rating on, as inline SVG (empty without evenings)."""
    if not evenings:
        return mark_safe("")
    first_day, start, _after = evenings[0]
    points = [RatingPoint(first_day.toordinal() - 1, _("start"), start)]
    points += [
        RatingPoint(day.toordinal(), date_format(day, "SHORT_DATE_FORMAT"), after)
        for day, _before, after in evenings
    ]
    years = range(first_day.year + 1, evenings[-1][0].year + 1)
    svg = rating_svg(
        points,
        labels=RatingChartLabels(
            title=_("Club rating of %(name)s") % {"name": name},
            description=_("The club rating after each club evening, from the start rating on."),
            rating=_("Club rating"),
        ),
        year_ticks=[(datetime.date(year, 1, 1).toordinal(), str(year)) for year in years],
        element_id=f"rating-chart-{member_id}",
    )
    return mark_safe(svg)  # built from numbers and escaped text only


@require_safe
def club_ratings(request: HttpRequest) -> HttpResponse:
    club = club_of_address(request)
    data = club_rating_list(club=club, as_of=timezone.localdate())
    return render(request, "competition/ratings.html", {"club": club, "data": data})


@require_safe
def member_rating(request: HttpRequest, member_id: int) -> HttpResponse:
    history = player_found(
        request,
        lambda: member_rating_history(member_id=member_id),
        member=lambda history: history.member,
    )
    return render(
        request,
        "competition/member_rating.html",
        {
            "history": history,
            "chart": rating_chart(
                name=history.name,
                member_id=history.member.pk,
                evenings=[(e.date, e.rating_before, e.rating_after) for e in history.evenings],
            ),
            "evenings": history.evenings[::-1],
        },
    )


@login_required
@require_POST
def club_rating_rules_save(request: AuthenticatedRequest) -> HttpResponse:
    club = club_for_admin(request, refusal=_("Only the club's admins set the club rating."))
    form = ClubRatingRulesForm(request.POST, instance=club_rating_rules(club=club))
    if form_refused(request, form):
        return redirect("competition:club_admin")
    service_done(
        request,
        lambda: club_rating_rules_set(club=club, user=request.user, **form.cleaned_data),
        lambda _done: _("The club rating is computed again under these rules."),
    )
    return redirect("competition:club_admin")


@require_safe
def how_ratings_work(request: HttpRequest) -> HttpResponse:
    """How the club rating is computed, with the club's own K values and start rating."""
    club = club_of_address(request)
    return render(
        request,
        "competition/how_ratings_work.html",
        {"club": club, "rules": club_rating_rules(club=club)},
    )
