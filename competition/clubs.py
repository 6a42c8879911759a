"""A club's own addresses: every club page lives under ``/<club slug>/`` (one installation, many
clubs).

``ClubAddressMiddleware`` (competition.middleware) takes the club's part off the path of a
request for ``/<club>/…``, sets ``request.club`` and makes the club's part the script prefix for
that request, so that ``reverse()`` and ``{% url %}`` give the club's own addresses without
naming the club (the site's own addresses: :mod:`clubcomp.addresses`). ``club_url`` gives the
address of a page of a *given* club, whatever the request (the club directory, the API, a TD of
several clubs).
"""

from __future__ import annotations

from django.urls import get_script_prefix, reverse

from clubcomp.addresses import site_prefix


def club_url(
    club_slug: str, viewname: str, *, args: tuple | list = (), kwargs: dict | None = None
) -> str:
    """The address of page ``viewname`` of the club ``club_slug``, e.g.
    ``club_url("sv-hoogeveen", "competition:standings", args=["interne-2026"])`` →
    ``/sv-hoogeveen/season/interne-2026/``."""
    path = reverse(viewname, args=args, kwargs=kwargs)
    rest = path[len(get_script_prefix()) :]
    return f"{site_prefix()}{club_slug}/{rest}"
