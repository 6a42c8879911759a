"""HTTP for the API: validators (``ETag``) with "304 Not Modified" answers, and CORS.

Two kinds of ``ETag``:

- a season's figures (its standings, a participant's explanation) are tagged *before* they are
  built, from the season's ``data_version`` and ``rules_version`` (every write that changes a
  figure, a name or the rules moves one of them), the address with its query and the language:
  an unchanged season answers 304 after one query, without running anything;
- every other answer (lists, a round, the calendar) is tagged after it is built, from its
  content: the client still saves the download.

``ApiHeadersMiddleware`` refuses every write under ``/api/`` (405), gives every answer under
``/api/`` ``Access-Control-Allow-Origin: *``
(no credentials: the API reads public data only, no login, no cookie matters), answers
``OPTIONS`` itself (204 with ``Allow``, and the browsers' preflight) and ``HEAD`` as the
``GET`` without its body. The rest of the site keeps its headers as they are.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.cache import get_conditional_response, patch_cache_control, set_response_etag
from django.utils.translation import get_language

from competition.models import Season

API_PREFIX = "/api/"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
# Clients should ask again each time, sending the ETag they have (a 304 is cheap).
CACHE_CONTROL = {"public": True, "max_age": 0, "must_revalidate": True}


def season_etag(request: HttpRequest, season: Season) -> str:
    """The ``ETag`` of an answer built from ``season``'s figures: the address with its query,
    the language and the season's versions (no query of its own)."""
    key = repr(
        (
            request.path,
            request.META.get("QUERY_STRING", ""),
            get_language(),
            season.pk,
            season.data_version,
            season.rules_version,
        )
    )
    return f'"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'


def not_modified(
    request: HttpRequest, etag: str, last_modified: int | None = None
) -> HttpResponse | None:
    """A 304 answer when the client's ``If-None-Match`` holds ``etag`` (or, without one, its
    ``If-Modified-Since`` is not older than ``last_modified``, a timestamp); else None."""
    return get_conditional_response(request, etag=etag, last_modified=last_modified)


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


class ApiHeadersMiddleware:
    """CORS and validators for ``/api/`` (see the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not _is_api(request):
            return self.get_response(request)
        if request.method not in SAFE_METHODS:
            # the API only reads: nothing under /api/ takes a write (not even the documents)
            response = HttpResponse(status=405)
            response["Allow"] = ", ".join(SAFE_METHODS)
            return response
        if request.method == "OPTIONS" and _resolves(request):
            # what an address takes (every endpoint: the same), and a browser's preflight
            response = HttpResponse(status=204)
            response["Allow"] = ", ".join(SAFE_METHODS)
            if "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in request.META:
                response["Access-Control-Allow-Methods"] = ", ".join(SAFE_METHODS)
                response["Access-Control-Allow-Headers"] = "If-None-Match, If-Modified-Since"
                response["Access-Control-Max-Age"] = "86400"
        else:
            response = self._answer(request)
            if request.method in ("GET", "HEAD") and response.status_code == 200:
                if not response.streaming and not response.has_header("ETag"):
                    set_response_etag(response)
                patch_cache_control(response, **CACHE_CONTROL)
                # the answer itself, or a 304 when the client's If-None-Match holds its ETag
                response = (
                    get_conditional_response(request, etag=response.get("ETag"), response=response)
                    or response
                )
        if request.method == "HEAD" and not response.streaming:
            # the GET's headers, its length included, without its body
            length = len(response.content)
            response.content = b""
            response["Content-Length"] = str(length)
        if request.method in SAFE_METHODS:
            response["Access-Control-Allow-Origin"] = "*"
            response["Access-Control-Expose-Headers"] = "ETag"
        return response

    def _answer(self, request: HttpRequest) -> HttpResponse:
        """The endpoint's answer; a HEAD is answered as the GET (the body goes later)."""
        if request.method != "HEAD":
            return self.get_response(request)
        request.method = "GET"
        try:
            return self.get_response(request)
        finally:
            request.method = "HEAD"


def _resolves(request: HttpRequest) -> bool:
    try:
        resolve(request.path_info)
    except Resolver404:
        return False
    return True
