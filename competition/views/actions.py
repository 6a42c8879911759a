"""A TD's settings page made of several small forms, each posted with ``action=<name>``
(the calendar of club evenings, the pairing rules): one dispatcher for all of them.

Each action is a function ``(request, season) -> form`` that validates its form and calls one
service (which may refuse with :class:`ServiceError`). A valid form redirects back to the page
(post/redirect/get); an invalid or refused one shows the page again with what was typed and
the messages, and nothing saved. A form of the season's own settings, whose fields are named as
the season's fields and the service's arguments, makes its action with
:func:`season_settings_action` and its first showing with :func:`season_settings`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from competition.models import Season
from competition.permissions import AuthenticatedRequest
from competition.services.errors import ServiceError

Action = Callable[[AuthenticatedRequest, Season], forms.Form]
Done = TypeVar("Done")


def service_done(
    request: HttpRequest, service: Callable[[], Done], said: Callable[[Done], str]
) -> bool:
    """Call ``service`` (a write): True with ``said(what it returned)`` as the success message,
    or False with its refusal (:class:`ServiceError`) as the error message."""
    try:
        done = service()
    except ServiceError as error:
        messages.error(request, str(error))
        return False
    messages.success(request, said(done))
    return True


def form_errors(form: forms.BaseForm) -> list[str]:
    """The form's own messages, in field order (the forms word them to name the field)."""
    return [str(message) for errors in form.errors.values() for message in errors]


def form_refused(request: HttpRequest, form: forms.BaseForm) -> bool:
    """Whether the posted ``form`` is not valid; if so its messages are shown as errors."""
    if form.is_valid():
        return False
    for message in form_errors(form):
        messages.error(request, message)
    return True


def season_settings(season: Season, form_class: type[forms.Form]) -> dict[str, Any]:
    """The season's current value of each of the form's fields: the form's initial data."""
    return {name: getattr(season, name) for name in form_class.base_fields}


def season_settings_action(
    form_class: type[forms.Form], update: Callable[..., Season], saved: Promise
) -> Action:
    """The action that saves the season's settings in ``form_class`` with the service
    ``update(season=..., **fields)``, and says ``saved``."""

    def action(request: AuthenticatedRequest, season: Season) -> forms.Form:
        form = form_class(request.POST)
        if form.is_valid():
            update(season=season, **form.cleaned_data)
            messages.success(request, str(saved))
        return form

    return action


def posted_action(
    request: AuthenticatedRequest,
    season: Season,
    actions: Mapping[str, Action],
    *,
    page: str,
    rebind: Callable[[str], forms.Form | None],
    errors: Callable[[forms.Form], list[str]] = form_errors,
) -> HttpResponse | dict[str, forms.Form]:
    """Run the posted action: a redirect to ``page`` (done, or an unknown action), or the
    forms to show again, bound to what was typed. ``rebind(name)`` binds the form of a refused
    action anew (None: nothing to show again, back to the page). Not a POST: no forms bound,
    the page shows its own."""
    if request.method != "POST":
        return {}
    back = redirect(page, season_slug=season.slug)
    name = request.POST.get("action", "")
    action = actions.get(name)
    if action is None:
        messages.error(request, _("Unknown action."))
        return back
    try:
        form = action(request, season)
    except ServiceError as error:
        messages.error(request, str(error))
        again = rebind(name)
        return back if again is None else {name: again}
    if form.is_valid():
        return back
    for message in errors(form):
        messages.error(request, message)
    return {name: form}
