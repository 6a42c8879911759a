"""The site's own addresses (the club directory, login, the API), whatever club a request is for.

Every club page lives under ``/<club slug>/``: ``competition.middleware.ClubAddressMiddleware``
makes the club's part the script prefix of such a request, so that ``reverse()`` gives the
club's addresses without naming the club. The site's own pages are outside every club: while a
club's request runs, the prefix they live under is kept here. The settings take the sign-in
address from here, so this module imports nothing of the app.
"""

from __future__ import annotations

from contextvars import ContextVar

from django.urls import get_script_prefix, reverse

# The script prefix of the site itself (without a club's part), while a club's request runs.
site_prefix_var: ContextVar[str | None] = ContextVar("site_prefix", default=None)


def site_prefix() -> str:
    """The prefix of the site's own addresses (``/`` unless it is served under a sub-path)."""
    return site_prefix_var.get() or get_script_prefix()


def site_url(viewname: str, *, args: tuple | list = (), kwargs: dict | None = None) -> str:
    """The address of a page of the site itself (the club directory, login, the API), without
    the club's part even inside a club's request."""
    path = reverse(viewname, args=args, kwargs=kwargs)
    return site_prefix() + path[len(get_script_prefix()) :]
