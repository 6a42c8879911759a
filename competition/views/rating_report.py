"""The TD's FIDE rating report of a season (docs/ratings.md): what the header says about the
event, the problems that keep the report from being rated, and the TRF16 download."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from competition.forms.rating_report import RatingReportForm
from competition.permissions import request_club, season_for_td, td_required
from competition.presentation.labels import text_label
from competition.services.errors import ServiceError
from competition.services.transfer.trf import season_rating_report, season_rating_report_set
from competition.views.files import season_download


@require_http_methods(["GET", "HEAD", "POST"])
@td_required
def season_rating_report_page(request: HttpRequest, slug: str) -> HttpResponse:
    season = season_for_td(request.user, slug, club=request_club(request))
    form = RatingReportForm(request.POST or None, instance=season)
    if request.method == "POST":
        if form.is_valid():
            try:
                season_rating_report_set(season=season, **form.cleaned_data)
            except ServiceError as error:
                messages.error(request, str(error))
            return redirect("competition:season_rating_report", slug=season.slug)
        season.refresh_from_db()  # the page shows the stored report, the form the errors
    try:
        report = season_rating_report(season=season)
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("competition:files_home")
    return render(
        request,
        "competition/files/rating_report.html",
        {
            "season": season,
            "form": form,
            "problems": [text_label(problem) for problem in report.problems],
        },
    )


season_rating_report_download = season_download(
    lambda season: season_rating_report(season=season).text,
    "text/plain; charset=utf-8",
    "-fide.trf",
)
