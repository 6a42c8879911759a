"""Forms of the calendar of club evenings (the TD's), of a member's report for an evening and of
his own settings."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from competition.forms.evening import DateInput, TimeInput
from competition.forms.ranges import small_number
from competition.models import AbsenceReport, NameDisplay, Season
from competition.services import absences

DATE_FORMATS = ("%Y-%m-%d", "%d-%m-%Y")


def parse_evening_dates(text: str, season: Season | None = None) -> list[datetime.date]:
    """One date per line, as 2027-01-14 or 14-01-2027; blank lines are skipped.

    A line that is not a date, more than ``EVENINGS_PER_ADD`` dates, and (given the season) a
    date outside the season's calendar raise ``ValidationError`` naming the line (nothing is
    taken).
    """
    dates: list[datetime.date] = []
    for number, line in enumerate(text.splitlines(), start=1):
        value = line.strip()
        if not value:
            continue
        if len(dates) == absences.EVENINGS_PER_ADD:
            raise forms.ValidationError(
                _("Line %(line)s: %(problem)s; nothing was saved."),
                code="too_many",
                params={"line": number, "problem": absences.too_many_evenings()},
            )
        for date_format in DATE_FORMATS:
            try:
                day = datetime.datetime.strptime(value, date_format).date()
                break
            except ValueError:
                continue
        else:
            raise forms.ValidationError(
                _("Line %(line)s: “%(text)s” is not a date; write 2027-01-14 or 14-01-2027."),
                code="invalid",
                params={"line": number, "text": value[:40]},
            )
        problem = None if season is None else absences.evening_date_problem(season=season, day=day)
        if problem is not None:
            raise forms.ValidationError(
                _("Line %(line)s: %(problem)s; nothing was saved."),
                code="outside",
                params={"line": number, "problem": problem},
            )
        dates.append(day)
    if not dates:
        raise forms.ValidationError(_("Give at least one date."), code="required")
    return dates


class EveningAddForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=DateInput())
    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class EveningsImportForm(forms.Form):
    dates = forms.CharField(
        label=_("Dates, one per line"),
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "2027-01-14\n21-01-2027"}),
        help_text=_("As 2027-01-14 or 14-01-2027. A line that is not a date saves nothing."),
    )

    def __init__(self, *args: Any, season: Season | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.season = season  # given: each date is checked against its calendar, by line

    def clean_dates(self) -> list[datetime.date]:
        return parse_evening_dates(self.cleaned_data["dates"], self.season)


class EveningDeleteForm(forms.Form):
    evening = forms.IntegerField(widget=forms.HiddenInput)


class AbsenceSettingsForm(forms.Form):
    absence_deadline = forms.TimeField(
        label=_("Absence deadline"),
        required=False,
        widget=TimeInput(),
        help_text=_(
            "Members report an absence until this time on the evening's day (e.g. 18:00). "
            "Empty: until the TD publishes the pairing."
        ),
    )
    requested_byes = forms.BooleanField(label=_("Members may ask for a bye"), required=False)
    evening_start = forms.TimeField(
        label=_("Evenings start at"),
        required=False,
        widget=TimeInput(),
        help_text=_(
            "The members' calendars show the evenings from then on. Empty: at the club's time."
        ),
    )


class ClubEveningStartForm(forms.Form):
    """The club admin's time at which the club's evenings begin."""

    evening_start = forms.TimeField(
        label=_("Club evenings start at"),
        widget=TimeInput(attrs={"class": "form-control"}),
        error_messages={
            "required": _("Give the time the club evenings start, such as 20:00."),
            "invalid": _("Give the time the club evenings start, such as 20:00."),
        },
    )


class PlannedRoundsForm(forms.Form):
    planned_rounds = small_number(
        _("Planned rounds"),
        min_value=1,
        required=False,
        help_text=_(
            "How many rounds the season has in all: “Can I still win?” simulates the rounds "
            "left up to this number. Adding or deleting an evening sets it to the calendar's "
            "last round. Empty: from the calendar, or a round robin's schedule."
        ),
    )


class AbsenceReportForm(forms.Form):
    kind = forms.ChoiceField(choices=AbsenceReport.Kind.choices, initial=AbsenceReport.Kind.ABSENT)
    note = forms.CharField(label=_("Note (optional)"), max_length=200, required=False)


class MemberPreferencesForm(forms.Form):
    """A member's own settings on his page: e-mail address, mails, his name in public."""

    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        widget=forms.EmailInput(attrs={"class": "form-control", "autocomplete": "email"}),
    )
    notify_pairing = forms.BooleanField(
        label=_("E-mail me when the pairing is published"),
        required=False,
        widget=forms.CheckboxInput(attrs={"class": "form-check-input"}),
    )
    notify_correction = forms.BooleanField(
        label=_("E-mail me when a correction changes my result"),
        required=False,
        widget=forms.CheckboxInput(attrs={"class": "form-check-input"}),
    )
    name_display = forms.ChoiceField(
        label=_("My name on public pages"),
        choices=NameDisplay.choices_with_default,
        required=False,
        widget=forms.Select(attrs={"class": "form-select"}),
    )
