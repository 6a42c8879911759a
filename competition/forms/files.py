"""Upload forms of the TD's file pages: TRF, season archive, rating list."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from competition.forms.ranges import integer_range
from competition.models import Club, Season, UnplayedPolicy
from competition.presentation import labels
from competition.scoring.registry import SYSTEMS

MAX_UPLOAD_BYTES = 64 * 1024 * 1024  # a national FIDE list is about 50 MB unpacked
MIN_GAMES_RANGE = integer_range(Season._meta.get_field("min_games")) or (0, None)


def _system_choices() -> list[tuple[str, str]]:
    """The ranking systems by their name in the reader's language (called for every form)."""
    return [(key, labels.system_name(s)) for key, s in SYSTEMS.items()]


def _club_field(clubs: list[Club]) -> forms.ModelChoiceField:
    return forms.ModelChoiceField(
        queryset=Club.objects.filter(pk__in=[c.pk for c in clubs]),
        initial=clubs[0] if len(clubs) == 1 else None,
        label=_("Club"),
    )


class _UploadForm(forms.Form):
    file = forms.FileField(label=_("File"))
    # The files page shows the three forms at once: each names its fields' ids apart.
    id_prefix = "upload"

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", f"id_{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is larger than 64 MB."))
        return upload


class TrfUploadForm(_UploadForm):
    id_prefix = "trf"
    season_slug = forms.SlugField(
        label=_("Season slug"), required=False, help_text=_("Empty: made from the file's name.")
    )
    system = forms.ChoiceField(label=_("Ranking system"), choices=_system_choices)
    tiebreaks = forms.CharField(
        label=_("Tie-breaks"),
        required=False,
        help_text=_("Comma-separated codes such as BH,BH/C1,SB. Empty: the file's own."),
    )
    unplayed = forms.ChoiceField(
        label=_("Unplayed rounds in tie-breaks"), choices=UnplayedPolicy.choices
    )
    parameters = forms.CharField(
        label=_("Parameters"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("One NAME=VALUE per line, for example factor=0.07."),
    )
    min_games = forms.IntegerField(
        label=_("Minimum games for prizes"),
        initial=0,
        # What the season's column stores on every database.
        min_value=MIN_GAMES_RANGE[0],
        max_value=MIN_GAMES_RANGE[1],
    )
    round_robin = forms.BooleanField(label=_("Round robin"), required=False)

    def clean_tiebreaks(self) -> str:
        from competition.forms.rules import unknown_tiebreaks

        text = self.cleaned_data["tiebreaks"]
        message = unknown_tiebreaks([code for code in re.split(r"[,;\s]+", text) if code])
        if message:
            raise forms.ValidationError(message)
        return text

    def __init__(self, *args, clubs: list[Club], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"] = _club_field(clubs)
        self.order_fields(["file", "club"])


class ArchiveUploadForm(_UploadForm):
    id_prefix = "archive"


class RatingsUploadForm(_UploadForm):
    id_prefix = "ratings"
    format = forms.ChoiceField(
        label=_("Format"),
        required=False,
        choices=[
            ("", _("recognise from the file")),
            ("knsb", _("KNSB rating list")),
            ("fide-txt", _("FIDE list (TXT)")),
            ("fide-xml", _("FIDE list (XML)")),
        ],
    )
    list_date = forms.DateField(
        label=_("List date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Empty: the date the file gives."),
    )
    only_club_members = forms.BooleanField(
        label=_("Only the club's own members"), required=False, initial=True
    )

    def __init__(self, *args, clubs: list[Club], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"] = _club_field(clubs)
        self.order_fields(["file", "club"])


class ConfirmForm(forms.Form):
    token = forms.RegexField(regex=r"^[0-9a-f]{32}$", widget=forms.HiddenInput)
