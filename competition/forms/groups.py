"""The form for a new group competition: its settings and the members who play."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from competition.forms.evening import DateInput
from competition.models import Club, GroupCompetition, Member, Season
from competition.presentation.labels import system_name
from competition.scoring.registry import SYSTEMS


class GroupCompetitionForm(forms.Form):
    """A new group competition: its settings and the members who play, put in groups by rating."""

    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=gettext_lazy("Club"))
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    slug = forms.SlugField(
        label=gettext_lazy("Short name in the web address"),
        max_length=50,
        help_text=gettext_lazy("Letters, digits and hyphens, e.g. wintergroepen-2027."),
    )
    start_date = forms.DateField(
        label=gettext_lazy("First evening"), required=False, widget=DateInput()
    )
    system = forms.ChoiceField(label=gettext_lazy("Ranking system"))
    kind = forms.ChoiceField(
        label=gettext_lazy("Pairing in each group"), choices=Season.Kind.choices
    )
    groups = forms.IntegerField(label=gettext_lazy("Number of groups"), min_value=1, max_value=10)
    periods = forms.IntegerField(label=gettext_lazy("Periods"), min_value=1, max_value=20)
    rounds_per_period = forms.IntegerField(
        label=gettext_lazy("Rounds per period"), min_value=1, max_value=100
    )
    promoted = forms.IntegerField(
        label=gettext_lazy("Players going up from each group"), min_value=0, max_value=50
    )
    relegated = forms.IntegerField(
        label=gettext_lazy("Players going down from each group"), min_value=0, max_value=50
    )
    champion_rule = forms.ChoiceField(
        label=gettext_lazy("Club champion"), choices=GroupCompetition.ChampionRule.choices
    )
    members = forms.ModelMultipleChoiceField(
        queryset=Member.objects.none(),
        label=gettext_lazy("Players"),
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy(
            "They are put in groups by rating, highest first: group A the strongest, the "
            "larger groups on top."
        ),
    )

    def __init__(self, *args: object, clubs: QuerySet[Club], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        language = get_language() or "nl"
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ModelChoiceField)
        club_field.queryset = clubs
        if clubs.count() == 1:
            club_field.initial = clubs.first()
        members_field = self.fields["members"]
        assert isinstance(members_field, forms.ModelMultipleChoiceField)
        members_field.queryset = Member.objects.filter(club__in=clubs, active=True).order_by("name")
        system_field = self.fields["system"]
        assert isinstance(system_field, forms.ChoiceField)
        system_field.choices = [
            (key, system_name(system, language)) for key, system in SYSTEMS.items()
        ]
        self.initial.setdefault("kind", Season.Kind.ROUND_ROBIN)
        self.initial.setdefault("groups", 2)
        self.initial.setdefault("periods", 2)
        self.initial.setdefault("rounds_per_period", 3)
        self.initial.setdefault("promoted", 1)
        self.initial.setdefault("relegated", 1)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        club, members, slug = data.get("club"), data.get("members"), data.get("slug")
        # the group seasons are called <slug>-a1, <slug>-b1, ...: web addresses within the club
        if (
            club is not None
            and slug
            and (
                GroupCompetition.objects.filter(club=club, slug=slug).exists()
                or Season.objects.filter(club=club, slug__startswith=f"{slug}-").exists()
            )
        ):
            self.add_error("slug", _("This short name is taken; choose another."))
        if club is not None and members is not None:
            strangers = [m.name for m in members if m.club_id != club.pk]
            if strangers:
                raise forms.ValidationError(
                    _("Not members of %(club)s: %(names)s.")
                    % {"club": club.name, "names": ", ".join(strangers)}
                )
        return data
