"""Public pages: no login needed; they only read cached standings."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from competition.selectors import season_summaries


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "competition/home.html", {"summaries": season_summaries()})
