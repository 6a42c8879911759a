"""What the TD fills in for a season's FIDE rating report (the TRF header)."""

from __future__ import annotations

from django import forms

from competition.models import Season


class RatingReportForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = [
            "city",
            "federation",
            "chief_arbiter",
            "deputy_arbiters",
            "time_control",
            "tournament_type",
        ]
        widgets = {"deputy_arbiters": forms.Textarea(attrs={"rows": 2})}
