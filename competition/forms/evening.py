"""Forms of the club evening: they validate what a TD typed or tapped; services decide the rest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competition.models import (
    ABSENCE_KINDS,
    PRESENT,
    ExternalResult,
    Game,
    Member,
    RoundEntry,
    Season,
)

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as StrPromise

ATTENDANCE_LABELS = [
    (PRESENT, _("present")),
    (RoundEntry.Kind.ABSENT_NOTICE, _("absent with notice")),
    (RoundEntry.Kind.ABSENT_NO_NOTICE, _("absent without notice")),
    (RoundEntry.Kind.CLUB_DUTY, _("club duty")),
]
# The labels on the one-tap buttons (a phone's width holds four short words).
ATTENDANCE_SHORT = {
    PRESENT: _("Here"),
    RoundEntry.Kind.ABSENT_NOTICE: _("Notice"),
    RoundEntry.Kind.ABSENT_NO_NOTICE: _("No notice"),
    RoundEntry.Kind.CLUB_DUTY: _("Club duty"),
}
RESULT_CHOICES = [(code, label) for code, label in Game.Result.choices]


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


class TimeInput(forms.TimeInput):
    """A time as hours and minutes (20:00), in the browser's own time picker."""

    input_type = "time"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%H:%M")


class EveningStartForm(forms.Form):
    seasons = forms.ModelMultipleChoiceField(
        queryset=Season.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label=_("Competitions tonight"),
    )
    date = forms.DateField(label=_("Date"), widget=DateInput(), initial=timezone.localdate)

    def __init__(self, *args: object, seasons: Sequence[Season] = (), **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["seasons"]
        field.queryset = Season.objects.filter(pk__in=[s.pk for s in seasons])  # type: ignore[attr-defined]
        if not self.is_bound:
            field.initial = [s.pk for s in seasons]


class RoundNewForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=DateInput(), initial=timezone.localdate)


class AttendanceForm(forms.Form):
    """One radio group per participant, named ``p<id>``."""

    def __init__(
        self, *args: object, participant_ids: Sequence[int] = (), **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for pid in participant_ids:
            self.fields[f"p{pid}"] = forms.ChoiceField(
                choices=ATTENDANCE_LABELS, required=False, widget=forms.RadioSelect
            )

    def marks(self) -> dict[int, str]:
        return {int(name[1:]): value for name, value in self.cleaned_data.items() if value}


class LatecomerForm(forms.Form):
    member = forms.ModelChoiceField(
        queryset=Member.objects.none(), required=False, label=_("Club member")
    )
    name = forms.CharField(max_length=120, required=False, label=_("or a new player's name"))

    def __init__(self, *args: object, members: object = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        if members is not None:
            self.fields["member"].queryset = members  # type: ignore[attr-defined]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if not data.get("member") and not (data.get("name") or "").strip():
            raise forms.ValidationError(_("Choose a member or type the late-comer's name."))
        return data


class _PlayersForm(forms.Form):
    def __init__(
        self, *args: object, players: Sequence[tuple[int, str]] = (), **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for field in self.fields.values():
            field.choices = list(players)  # type: ignore[attr-defined]


def _player_field(
    label: StrPromise, missing: StrPromise, unknown: StrPromise
) -> forms.TypedChoiceField:
    """A choice of one of the round's players; each error says which choice is wrong.

    The view shows these messages as they are, so each names its field: "Choose who plays
    white." rather than Django's "This field is required.".
    """
    return forms.TypedChoiceField(
        coerce=int,
        label=label,
        error_messages={"required": missing, "invalid_choice": unknown},
    )


class SwapForm(_PlayersForm):
    first = _player_field(
        _("Player"),
        _("Choose the player to swap."),
        _("The player to swap is not in this round; reload the page."),
    )
    second = _player_field(
        _("swaps places with"),
        _("Choose the player to swap with."),
        _("The player to swap with is not in this round; reload the page."),
    )


class FixForm(_PlayersForm):
    white = _player_field(
        _("White"),
        _("Choose who plays white."),
        _("The player for white is not in this round; reload the page."),
    )
    black = _player_field(
        _("Black"),
        _("Choose who plays black."),
        _("The player for black is not in this round; reload the page."),
    )


class ByeForm(_PlayersForm):
    player = _player_field(
        _("Bye to"),
        _("Choose who gets the bye."),
        _("The player for the bye is not in this round; reload the page."),
    )


class LeavesForm(_PlayersForm):
    """A player of a published round leaves before his game (services.leaving)."""

    player = _player_field(
        _("Who leaves"),
        _("Choose who leaves."),
        _("The player who leaves is not in this round; reload the page."),
    )


class ProposeForm(forms.Form):
    """Pair the round. Starting over throws the whole draft away (the boards fixed by hand too):
    with a draft on the table that needs ``confirm`` ticked."""

    keep_fixed = forms.BooleanField(required=False)
    confirm = forms.BooleanField(required=False)

    def __init__(self, *args: object, has_draft: bool = False, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.has_draft = has_draft

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if self.has_draft and not data.get("keep_fixed") and not data.get("confirm"):
            raise forms.ValidationError(
                _("Tick “Yes, start over” to throw the draft away and pair from scratch.")
            )
        return data


class ResultForm(forms.Form):
    """One board's result as the results page posts it, with the version the page showed."""

    result = forms.ChoiceField(
        choices=RESULT_CHOICES,
        required=False,
        error_messages={"invalid_choice": _("Unknown result “%(value)s”; reload the page.")},
    )
    # Every page shows a version (1 or more): without one the page is an old copy.
    version = forms.IntegerField(
        min_value=1,
        error_messages={
            key: _("This page is out of date; reload it.")
            for key in ("required", "invalid", "min_value")
        },
    )


class CorrectionForm(forms.Form):
    # A correction sets a result: "not yet played" is refused by the service, so not offered.
    result = forms.ChoiceField(
        choices=[(code, label) for code, label in RESULT_CHOICES if code != Game.Result.NOT_PLAYED],
        widget=forms.RadioSelect,
        label=_("Correct result"),
    )
    reason = forms.CharField(
        max_length=100,
        label=_("Reason"),
        help_text=_("Shown on the round page, e.g. “result reported wrongly by the players”."),
    )
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class ExternalResultForm(forms.Form):
    result = forms.ChoiceField(choices=[("", "–"), *ExternalResult.choices], required=False)
    version = forms.IntegerField(min_value=1)


class EntryCorrectionForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[
            (k, label)
            for k, label in RoundEntry.Kind.choices
            if k in (*ABSENCE_KINDS, RoundEntry.Kind.BYE)
        ],
        label=_("Kind"),
    )
    points = forms.DecimalField(
        min_value=0, max_digits=3, decimal_places=1, label=_("Game points awarded")
    )
    external_result = forms.ChoiceField(
        choices=[("", _("no external game")), *ExternalResult.choices],
        required=False,
        label=_("External game (club duty only)"),
        help_text=_("A team match or another game for the club elsewhere: its result."),
    )
    reason = forms.CharField(max_length=100, label=_("Reason"))
    # The version the page showed: a correction saved meanwhile by another TD is not overwritten.
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class PlayLaterForm(forms.Form):
    """A board played on another date (in advance or postponed): the date, or back to the
    round's evening (``cancel``)."""

    played_on = forms.DateField(
        label=_("Played on"),
        widget=DateInput(),
        required=False,
        error_messages={"invalid": _("Give the date the game is played on.")},
    )
    cancel = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("cancel") and data.get("played_on") is None and not self.errors:
            self.add_error("played_on", _("Give the date the game is played on."))
        return data
