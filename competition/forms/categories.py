"""The TD's forms for a season's categories, prizes and periods."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from competition.forms.ranges import SMALL_MAX, small_number
from competition.models import Category


def _bound(label: Any, help_text: Any = "") -> forms.IntegerField:
    return small_number(label, required=False, help_text=help_text)


class CategoryForm(forms.Form):
    category = forms.IntegerField(widget=forms.HiddenInput, required=False)
    name = forms.CharField(label=_("Name"), max_length=60, help_text=_("For example: Group B."))
    order = small_number(
        _("Order"),
        min_value=1,
        required=False,
        help_text=_("Categories are listed and their prizes awarded in this order."),
    )
    kind = forms.ChoiceField(label=_("Who is in it"), choices=Category.Kind.choices)
    rating_from = _bound(_("Rating from"), _("Included; empty: no lower bound."))
    rating_below = _bound(_("Rating below"), _("Not included; empty: no upper bound."))
    unrated = forms.BooleanField(label=_("Unrated players belong here"), required=False)
    born_from = _bound(_("Born in or after"))
    born_to = _bound(_("Born in or before"))
    chosen = forms.TypedMultipleChoiceField(
        label=_("Players (for a list chosen by hand)"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    prizes = small_number(
        _("Number of prizes"),
        initial=3,
        help_text=_("Places 1 to this number win a prize."),
    )
    most_improved = forms.BooleanField(
        label=_("Prize for the most improved"),
        required=False,
        help_text=_("The largest gain from start number to final place."),
    )

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["chosen"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = list(players)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        low, high = data.get("rating_from"), data.get("rating_below")
        if low is not None and high is not None and low >= high:
            raise forms.ValidationError(_("The lower rating bound must be below the upper one."))
        first, last = data.get("born_from"), data.get("born_to")
        if first is not None and last is not None and first > last:
            raise forms.ValidationError(_("The first birth year cannot be after the last one."))
        return data


class CategoryRemoveForm(forms.Form):
    category = forms.IntegerField(widget=forms.HiddenInput)


class PrizeSettingsForm(forms.Form):
    period_ends = forms.CharField(
        label=_("Last round of each period"),
        required=False,
        max_length=200,
        help_text=_("For example 12, 24: rounds 1 to 12 and 13 to 24. Empty: no periods."),
    )
    several_prizes = forms.BooleanField(
        label=_("A player may win several prizes"),
        required=False,
        help_text=_("Off: a player wins at most one prize; categories are awarded in their order."),
    )

    def clean_period_ends(self) -> list[int]:
        ends: list[int] = []
        for part in self.cleaned_data["period_ends"].replace(";", " ").replace(",", " ").split():
            if not part.isdigit() or not 1 <= int(part) <= SMALL_MAX:
                raise forms.ValidationError(
                    _("Give the last round of each period as numbers, for example: 12, 24.")
                )
            ends.append(int(part))
        return sorted(set(ends))
