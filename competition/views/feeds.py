"""The member's private iCal feed (no login: the address's token is the key) and a new address
for it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from competition.clubs import club_url
from competition.formats.ical import calendar_text
from competition.models import Member, Season
from competition.permissions import AuthenticatedRequest, present, request_club
from competition.selectors import feeds as feeds_selectors
from competition.selectors import members as members_selectors
from competition.services import feeds


def _feed_url(request: HttpRequest, member: Member, season: Season) -> str:
    token = member.feed_token or feeds.member_feed_token(member=member)
    path = club_url(
        season.club.slug,
        "competition:member_feed",
        kwargs={"token": token, "season_slug": season.slug},
    )
    return request.build_absolute_uri(path)


@require_POST
@login_required
def my_feed_renew(request: AuthenticatedRequest) -> HttpResponse:
    """New calendar addresses for all the user's members: the old ones stop working."""
    members = members_selectors.user_members(user=request.user)
    if not members:
        raise PermissionDenied(_("Only members with an account have a calendar address."))
    for member in members:
        feeds.member_feed_token_renew(member=member)
    messages.success(
        request,
        _("Your calendar has a new address; the old one no longer works. Subscribe again."),
    )
    return redirect(reverse("competition:my_page") + "#calendar")


@require_safe
def member_feed(request: HttpRequest, token: str, season_slug: str) -> HttpResponse:
    member = present(feeds_selectors.feed_member(token=token), _("No such calendar."))
    participant = present(
        feeds_selectors.feed_participant(
            member=member, season_slug=season_slug, club=request_club(request)
        ),
        _("No such calendar."),
    )
    host, _port = split_domain_port(request.get_host())
    text = calendar_text(
        feeds_selectors.feed_events(participant=participant, domain=host or "clubcomp"),
        name=participant.season.name,
        stamp=timezone.now(),
    )
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{participant.season.slug}.ics"'
    response["Cache-Control"] = "private, max-age=900"
    response["X-Robots-Tag"] = "noindex"
    return response
