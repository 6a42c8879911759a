"""Forms of the members page: the TD's invitation and withdrawal from the season, and the
member's new account.

They check what was typed; the services in :mod:`competition.services.accounts` decide the rest
(username free, password strong enough, link still valid).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class InviteForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_("Optional: the link is also shown to you, to pass on by hand."),
    )


class WithdrawForm(forms.Form):
    from_round = forms.IntegerField(label=_("Withdrawn from round"), min_value=1, max_value=32767)
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
