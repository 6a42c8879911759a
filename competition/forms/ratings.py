"""The club admin's form for the club rating's rules (docs/ratings.md)."""

from __future__ import annotations

from django import forms

from competition.models import ClubRatingRules


class ClubRatingRulesForm(forms.ModelForm):
    class Meta:
        model = ClubRatingRules
        fields = [
            "k_new_player",
            "k_standard",
            "k_top",
            "k_junior",
            "start_rule",
            "start_rating",
            "rapid_counts",
            "external_counts",
        ]
        widgets = {"start_rule": forms.RadioSelect}

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for name in ("k_new_player", "k_standard", "k_top", "k_junior"):
            field = self.fields[name]
            assert isinstance(field, forms.IntegerField)
            field.min_value, field.max_value = 1, 700
            field.widget.attrs.update({"min": 1, "max": 700})
        start = self.fields["start_rating"]
        assert isinstance(start, forms.IntegerField)
        start.max_value = 3500
        start.widget.attrs["max"] = 3500
