"""Member accounts: the TD's members page (invite, unlink), the invitation landing page where a
member makes his account or links the one he is logged in with, "download my data", and where
the login sends a user.

The members page needs TD rights for the season's club (others get 403); the invitation page
needs no login, only a usable link (an unknown, expired or used link is refused with 403 and
says which). Views validate a form and call one service.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubcomp.addresses import site_url
from competition.forms.accounts import AcceptForm, InviteForm, WithdrawForm
from competition.models import Season
from competition.permissions import (
    AuthenticatedRequest,
    invitation_of_address,
    is_td_anywhere,
    season_for_td,
    season_member,
    season_participant,
)
from competition.selectors.accounts import first_round_not_completed, season_member_accounts
from competition.selectors.members import user_members
from competition.services import accounts
from competition.services.errors import ServiceError
from competition.services.notifications import invitation_mail
from competition.services.participants import participant_reinstate, participant_withdraw
from competition.views.actions import form_errors, service_done

# The backend that checks passwords (django-axes' comes first but authenticates nobody).
_LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _members_url(season: Season) -> str:
    return reverse("competition:td_members", kwargs={"season_slug": season.slug})


def _form_refused(request: HttpRequest, season: Season, form: forms.Form) -> HttpResponse:
    """Back to the members page with the form's messages as one error."""
    messages.error(request, " ".join(form_errors(form)))
    return redirect(_members_url(season))


@require_safe
@login_required
def td_members(request: AuthenticatedRequest, season_slug: str) -> HttpResponse:
    season = season_for_td(request.user, season_slug, club=request.club)
    return render(
        request,
        "competition/accounts/members.html",
        {
            "season": season,
            "rows": season_member_accounts(season=season),
            "invite_form": InviteForm(),
            "withdraw_form": WithdrawForm(),
            "next_round": first_round_not_completed(season=season),
        },
    )


@require_POST
@login_required
def td_member_invite(
    request: AuthenticatedRequest, season_slug: str, member_id: int
) -> HttpResponse:
    season = season_for_td(request.user, season_slug, club=request.club)
    member = season_member(season, member_id)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, season, form)
    try:
        invitation, token = accounts.invitation_create(
            member=member, email=form.cleaned_data["email"], user=request.user
        )
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect(_members_url(season))
    link = request.build_absolute_uri(
        site_url("competition:invitation_accept", kwargs={"token": token})  # the site's, no club
    )
    if invitation.email:
        invitation_mail(invitation=invitation, link=link)  # sent by a worker, never in here
    response = render(
        request,
        "competition/accounts/invited.html",
        {
            "season": season,
            "member": member,
            "invitation": invitation,
            "link": link,
        },
    )
    response["Cache-Control"] = "no-store"  # the link is shown once
    return response


@require_POST
@login_required
def td_member_unlink(
    request: AuthenticatedRequest, season_slug: str, member_id: int
) -> HttpResponse:
    season = season_for_td(request.user, season_slug, club=request.club)
    member = season_member(season, member_id)
    service_done(
        request,
        lambda: accounts.account_unlink(member=member, user=request.user),
        lambda _done: _("%(name)s has no account any more.") % {"name": member.name},
    )
    return redirect(_members_url(season))


@require_POST
@login_required
def td_member_withdraw(
    request: AuthenticatedRequest, season_slug: str, member_id: int
) -> HttpResponse:
    """Withdraw the member from the season from a round on (illness, moved away)."""
    season = season_for_td(request.user, season_slug, club=request.club)
    participant = season_participant(season, member_id)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, season, form)
    from_round = form.cleaned_data["from_round"]
    service_done(
        request,
        lambda: participant_withdraw(
            participant=participant,
            from_round=from_round,
            note=form.cleaned_data["note"],
            user=request.user,
        ),
        lambda _done: (
            _("%(name)s is withdrawn from the season from round %(round)s.")
            % {"name": participant.member.name, "round": from_round}
        ),
    )
    return redirect(_members_url(season))


@require_POST
@login_required
def td_member_reinstate(
    request: AuthenticatedRequest, season_slug: str, member_id: int
) -> HttpResponse:
    """Take a withdrawal back."""
    season = season_for_td(request.user, season_slug, club=request.club)
    participant = season_participant(season, member_id)
    participant_reinstate(participant=participant, user=request.user)
    messages.success(request, _("%(name)s takes part again.") % {"name": participant.member.name})
    return redirect(_members_url(season))


def _after_account_made() -> str:
    """The member's own page once it exists, else the home page."""
    try:
        return reverse("competition:my_page")
    except NoReverseMatch:
        return reverse("competition:home")


def _refused_link(request: HttpRequest, error: ServiceError) -> HttpResponse:
    return render(
        request,
        "competition/accounts/invitation_refused.html",
        {"message": str(error), "code": getattr(error, "code", None)},
        status=403,
    )


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link: choose a username and password, then the account is made and the
    member is logged in."""
    try:
        invitation = accounts.invitation_for_token(token)
    except ServiceError as error:
        return _refused_link(request, error)
    invitation = invitation_of_address(request, invitation)
    account = request.user if isinstance(request.user, User) else None
    if request.method == "POST" and request.POST.get("action") == "link" and account is not None:
        return _link_own_account(request, token, account)
    form = AcceptForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = accounts.invitation_accept(
                token=token,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
            )
        except ServiceError as error:
            if getattr(error, "code", None) in ("unknown", "used", "expired", "has_account"):
                return _refused_link(request, error)
            for message in error.messages:
                form.add_error(None, message)
        else:
            login(request, user, backend=_LOGIN_BACKEND)
            messages.success(
                request,
                _("Welcome, %(name)s: your account %(username)s is ready.")
                % {"name": invitation.member.name, "username": user.get_username()},
            )
            return redirect(_after_account_made())
    return render(
        request,
        "competition/accounts/invitation.html",
        {"invitation": invitation, "member": invitation.member, "form": form, "account": account},
    )


def _link_own_account(request: HttpRequest, token: str, account: User) -> HttpResponse:
    """The logged-in visitor links the invitation's member to his own account."""
    try:
        member = accounts.invitation_accept_with_account(token=token, account=account)
    except ServiceError as error:
        if getattr(error, "code", None) in ("unknown", "used", "expired", "has_account"):
            return _refused_link(request, error)
        messages.error(request, str(error))
        return redirect(request.path)
    messages.success(
        request,
        _("%(name)s is now linked to your account %(username)s.")
        % {"name": member.name, "username": account.get_username()},
    )
    return redirect(_after_account_made())


@never_cache
@require_safe
@login_required
def my_data(request: AuthenticatedRequest) -> HttpResponse:
    """Everything stored about the logged-in member, in every club of this site, as a JSON file."""
    user = request.user
    data = {
        "exported_at": timezone.now().isoformat(),
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
        },
        "members": [accounts.member_data(member=member) for member in user_members(user=user)],
    }
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = 'attachment; filename="my-data.json"'
    return response


@require_safe
def after_login(request: HttpRequest) -> HttpResponse:
    """Where the login sends a user without ``?next=`` (``LOGIN_REDIRECT_URL``): a TD to the
    club evening, a member with an account to his own page, everyone else to the home page."""
    if is_td_anywhere(request.user):
        return redirect("competition:td_home")
    if user_members(user=request.user):
        return redirect("competition:my_page")
    return redirect("competition:home")
