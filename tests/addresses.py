"""The addresses the tests ask for: ``club_reverse`` is ``reverse`` with the club's part, the
address a page has since every club's pages live under ``/<club>/`` (issue 16).

It finds the club the way the redirect from an old address does
(competition.middleware.ClubAddressMiddleware): from the season, group competition or member
in the address, or the only club. A page of the site itself (the login, the directory of clubs
with several clubs) keeps its address.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.urls import resolve, reverse

from competition.clubs import club_url
from competition.middleware import _club_of


def club_reverse(
    viewname: str,
    args: list[Any] | tuple[Any, ...] | None = None,
    kwargs: dict[str, Any] | None = None,
) -> str:
    path = reverse(viewname, args=args, kwargs=kwargs)
    match = resolve(path)
    if match.namespace != "competition":
        return path
    request = RequestFactory().get(path)
    request.user = AnonymousUser()
    club = _club_of(match.url_name or "", match.kwargs, request)
    if club is None:
        return path
    return club_url(club.slug, viewname, args=args or (), kwargs=kwargs)
