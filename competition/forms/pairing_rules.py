"""The TD's forms for a season's pairing rules: a forbidden pair and the pairing settings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from competition.forms.ranges import small_number
from competition.models import Season


class ForbiddenPairForm(forms.Form):
    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("Not against"), coerce=int)
    note = forms.CharField(
        label=_("Note (optional)"),
        max_length=200,
        required=False,
        help_text=_("Why, for example: brothers, or they drive together."),
    )

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *players]
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = choices

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("first") is not None and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


class ForbiddenPairRemoveForm(forms.Form):
    pair = forms.IntegerField(widget=forms.HiddenInput)


class PairingRulesForm(forms.Form):
    rematch_window = small_number(
        _("No rematch within this many rounds"),
        help_text=_("0: no such rule."),
    )
    max_meetings = small_number(
        _("At most this many games between two players"),
        min_value=1,
        required=False,
        help_text=_("Empty: no limit."),
    )
    rematch_colours_reversed = forms.BooleanField(
        label=_("Colours reversed at a rematch"),
        required=False,
        help_text=_("A rematch gives each player the other colour than last time, when possible."),
    )
    one_pairing_bye = forms.BooleanField(
        label=_("At most one pairing-allocated bye per player"),
        required=False,
        help_text=_("Requested byes do not count."),
    )
    seed_by_club_rating = forms.BooleanField(
        label=_("Pair equal standings by club rating"),
        required=False,
        help_text=_(
            "Players with the same standing (everyone in round 1) are ordered by their club "
            "rating before the evening instead of by start number."
        ),
    )
    player_leaves = forms.ChoiceField(
        label=_("When a player leaves after the pairing is published"),
        choices=Season.PlayerLeaves.choices,
        widget=forms.RadioSelect,
        help_text=_("One tap on the published pairing does this; a round robin always forfeits."),
    )
    pending_days = small_number(
        _("Days to play a game on another date"),
        required=False,
        help_text=_(
            "A game played later that still has no result this many days after its round "
            "is a double forfeit. Empty: no deadline."
        ),
    )
