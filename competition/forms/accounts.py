"""Forms of the members page: the TD's invitation and withdrawal from the season, and the
member's new account.

They check what was typed; the services in :mod:`competition.services.accounts` decide the rest
(username free, password strong enough, link still valid).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from competition.forms.ranges import small_number
from competition.services.notifications import password_reset_request


class InviteForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_("Optional: the link is also shown to you, to pass on by hand."),
    )


class WithdrawForm(forms.Form):
    from_round = small_number(_("Withdrawn from round"), min_value=1)
    note = forms.CharField(label=_("Reason"), max_length=200, required=False)


class AcceptForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", _("The two passwords differ."))
        return data


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's password-reset form whose ``save`` only queues the mail: the request does the
    same for a known and an unknown address (one queued task), so neither its answer nor its
    time tells whether the address has an account; a worker finds the accounts and mails."""

    def save(
        self,
        domain_override: str | None = None,
        *args: Any,
        use_https: bool = False,
        request: HttpRequest | None = None,
        **kwargs: Any,
    ) -> None:
        domain = domain_override or (request.get_host() if request is not None else "")
        password_reset_request(email=self.cleaned_data["email"], domain=domain, use_https=use_https)
