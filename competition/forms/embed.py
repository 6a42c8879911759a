"""The club admin's form for the sites that may show the club's pages in a frame."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class EmbedOriginsForm(forms.Form):
    origins = forms.CharField(
        label=_("Sites that may embed the club's pages"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "autocomplete": "off"}),
        help_text=_(
            "One address per line, such as https://www.myclub.nl (no path after it). "
            "Empty: no other site may show the pages in a frame."
        ),
    )
