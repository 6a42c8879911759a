"""The cache of the public pages: no login needed, they only read, so what they show can be
kept.

Pages computed from a season's results (standings, a participant's breakdown, the crosstable,
how it works, the systems side by side) cache their rendered body in Django's cache, keyed by
the season's ``data_version`` and ``rules_version`` (both bumped by every write that changes
the figures), the language and the query.

For anonymous readers (who all see the same page) the whole rendered response is cached too,
keyed by the full path, the language and both versions: a cached page then costs one small
query (the season's versions, read from the database so that a write made by another worker
process is seen at once) and no template rendering. A round's page is keyed by the round's own
versions instead (its boards, entries and status), so a result saved in the open round rebuilds
that page only. Logged-in readers get the cached body
inside a freshly rendered frame, since their navigation differs.

Nothing in a page for an anonymous reader may depend on that reader: the language switch is
therefore a plain link to :func:`competition.views.clubs.language` (a GET), not a form with a
CSRF token.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from competition.models import Club, Season
from competition.permissions import is_club_admin, request_club
from competition.selectors import page_cache as page_cache_selectors

CACHE_SECONDS = 60 * 60 * 24


def _round_param(request: HttpRequest) -> int | None:
    try:
        return int(request.GET["round"])
    except (KeyError, ValueError):
        return None


def _cached_body(
    request: HttpRequest,
    season: Season,
    page: str,
    build: Callable[[], SafeString],
    keep: tuple[str, ...] = ("round",),
    tab: str = "standings",
) -> SafeString:
    """The page's content (season header and body) from the cache, or built and stored.

    Only the ``keep`` query keys vary it, besides the language and whether the reader is one of
    the club's admins (they see one more tab, the rules).
    """
    query = "&".join(f"{key}={request.GET.get(key, '')}" for key in keep)
    staff = int(is_club_admin(request.user, season.club))
    key = (
        f"clubcomp:{page}:{season.pk}:{season.data_version}:{season.rules_version}:"
        f"{get_language()}:{staff}:{query}"
    )
    content = cache.get(key)
    if content is None:
        header = render_to_string(
            "competition/_season_header.html", {"season": season, "tab": tab}, request=request
        )
        content = header + str(build())
        cache.set(key, content, CACHE_SECONDS)
    return mark_safe(content)


def _anonymous_cacheable(request: HttpRequest, keep: tuple[str, ...]) -> bool:
    """Whether the response may be shared by every anonymous reader of this URL.

    Only plain GETs whose query holds nothing but the page's own keys (``_export`` and the
    like take the normal path), and never while a message waits to be shown to this reader.
    """
    return (
        request.method == "GET"
        and not request.user.is_authenticated
        and set(request.GET) <= set(keep)
        and len(get_messages(request)) == 0
    )


def _season_versions(club: Club | None, slug: str, **kwargs: Any) -> tuple[Any, ...] | None:
    return page_cache_selectors.season_versions(club=club, slug=slug)


def anonymous_page_cache(
    keep: tuple[str, ...] = ("round",),
    versions: Callable[..., tuple[Any, ...] | None] = _season_versions,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Cache a season page's whole response for anonymous readers (see the module docstring).

    The key holds the full path with its query (the page links back to it, e.g. in the
    language switch), the language and the season's ``data_version`` and ``rules_version``,
    read fresh on every request: a write bumps one of them, so the next request builds anew.
    The versions are read *before* the page is built, so a page stored under them is never
    older than they are.
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
            if not _anonymous_cacheable(request, keep):
                return view(request, slug, **kwargs)
            found = versions(request_club(request), slug, **kwargs)
            if found is None:
                return view(request, slug, **kwargs)  # the view says what does not exist
            language = get_language()
            page = repr((found, request.get_full_path())).encode()
            key = f"clubcomp:anon:{found[0]}:{language}:{hashlib.sha256(page).hexdigest()[:40]}"
            stored = cache.get(key)
            if stored is not None:
                content, content_type = stored
                response = HttpResponse(content, content_type=content_type)
                response.headers["Content-Language"] = language
                return response
            response = view(request, slug, **kwargs)
            personal = (
                response.cookies
                or request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
                or request.session.modified
            )
            if response.status_code == 200 and not response.streaming and not personal:
                cache.set(key, (response.content, response["Content-Type"]), CACHE_SECONDS)
            return response

        return wrapper

    return decorate


def _page(
    request: HttpRequest, template: str, season: Season, body: SafeString, **extra: Any
) -> HttpResponse:
    return render(request, template, {"season": season, "body": body, **extra})


def _round_versions(club: Club | None, slug: str, number: int) -> tuple[Any, ...] | None:
    return page_cache_selectors.round_versions(club=club, slug=slug, number=number)
