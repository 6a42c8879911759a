"""Forms of the results the players enter: a player's result, the opponent's answer, and the
season's setting of who enters results."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from competition.models import PLAYER_RESULTS, Game, ResultEntry

PLAYER_RESULT_CHOICES = [(code, Game.Result(code).label) for code in PLAYER_RESULTS]


class ResultReportForm(forms.Form):
    result = forms.ChoiceField(
        choices=PLAYER_RESULT_CHOICES,
        error_messages={
            "invalid_choice": _("Players enter 1-0, ½-½ or 0-1; forfeits are for the TD.")
        },
    )


class ResultAnswerForm(forms.Form):
    """The opponent's answer to an entered result, with the result his page showed."""

    answer = forms.ChoiceField(choices=[("confirm", _("confirm")), ("dispute", _("dispute"))])
    result = forms.ChoiceField(choices=PLAYER_RESULT_CHOICES)


class ResultEntryForm(forms.Form):
    result_entry = forms.ChoiceField(
        label=_("Results entered by"),
        choices=ResultEntry.choices,
        widget=forms.RadioSelect,
        help_text=_(
            "Players enter 1-0, ½-½ or 0-1 for their own board on their page; forfeits, "
            "disputes and missing results stay yours, and your entry is final."
        ),
    )
