"""The site's URLs plus two trivial views behind the same middleware, as the benchmark's floor:
a plain ``ok`` and the site's ``base.html`` with an empty page. Only ``bench/load.py`` mounts
them (through ``bench.load_settings``)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import include, path


def trivial_ok(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


def trivial_base(request: HttpRequest) -> HttpResponse:
    return render(request, "base.html", {})


urlpatterns = [
    path("trivial/ok/", trivial_ok),
    path("trivial/base/", trivial_base),
    path("", include("clubcomp.urls")),
]
