"""Django admin for every model: searchable, filterable lists; rounds and games inline.

The admin writes through the same rules as the rest of the site: a change to results,
entries, rounds or participants recomputes the season's standings; a renamed club, member or
season refreshes the cached pages; a season's rules are changed only on the rules page, which
keeps the earlier rule set (a new season's rules are checked by the rules service).
"""

from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from competition.models import (
    Club,
    Game,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
    SeasonRules,
    StandingsSnapshot,
)
from competition.services.errors import ServiceError
from competition.services.rules import rules_validate
from competition.services.standings import seasons_touch, standings_recompute

RULE_FIELDS = ("system", "parameters", "tiebreaks", "unplayed_policy", "min_games")


class SeasonWrites(admin.ModelAdmin):
    """Keeps the standings true after an admin write: ``seasons_of`` names the seasons touched,
    ``recompute`` says whether their figures can change (else only the cached pages)."""

    recompute = True

    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        raise NotImplementedError

    def _refresh(self, objects: Iterable[Model]) -> None:
        seasons = {season.pk: season for season in self.seasons_of(objects)}
        if self.recompute:
            for season in seasons.values():
                standings_recompute(season=season)
        else:
            seasons_touch(seasons=seasons.values())

    def save_model(self, request: HttpRequest, obj: Model, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        self._refresh([obj])

    def save_related(self, request: HttpRequest, form, formsets, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        self._refresh([form.instance])

    def delete_model(self, request: HttpRequest, obj: Model) -> None:
        seasons = self.seasons_of([obj])
        super().delete_model(request, obj)
        self._refresh_seasons(seasons)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        seasons = self.seasons_of(list(queryset))
        super().delete_queryset(request, queryset)
        self._refresh_seasons(seasons)

    def _refresh_seasons(self, seasons: Iterable[Season]) -> None:
        existing = Season.objects.filter(pk__in={s.pk for s in seasons})
        if self.recompute:
            for season in existing:
                standings_recompute(season=season)
        else:
            seasons_touch(seasons=existing)


@admin.register(Club)
class ClubAdmin(SeasonWrites):
    recompute = False

    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        return list(Season.objects.filter(club__in=[o.pk for o in objects]))

    list_display = ["name", "slug"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Member)
class MemberAdmin(SeasonWrites):
    recompute = False  # a rating or name changes no figure (TPR reads ratings at recompute)

    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        return list(Season.objects.filter(participants__member__in=[o.pk for o in objects]))

    list_display = ["name", "club", "knsb_id", "fide_id", "rating", "birth_year", "active"]
    list_filter = ["club", "active"]
    search_fields = ["name", "knsb_id", "fide_id"]


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    autocomplete_fields = ["member"]
    fields = ["member", "start_rank", "start_points", "initial_value", "joined_round"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "date", "status"]
    show_change_link = True


class SeasonAdminForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = [
            "club",
            "name",
            "slug",
            "start_date",
            "end_date",
            "kind",
            *RULE_FIELDS,
            "bye_points",
            "rematch_window",
            "status",
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.instance.pk is None and not self.errors:
            try:
                rules = rules_validate(
                    system=data.get("system", ""),
                    parameters=data.get("parameters") or {},
                    tiebreaks=data.get("tiebreaks") or [],
                    unplayed_policy=data.get("unplayed_policy", ""),
                    min_games=data.get("min_games") or 0,
                )
            except ServiceError as error:
                raise forms.ValidationError(str(error)) from error
            data["parameters"] = rules.parameters
            data["tiebreaks"] = list(rules.tiebreaks)
        return data


@admin.register(Season)
class SeasonAdmin(SeasonWrites):
    form = SeasonAdminForm

    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        return [o for o in objects if isinstance(o, Season)]

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None):
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            readonly += [*RULE_FIELDS, "rules_page"]
        return readonly

    @admin.display(description=_("rules"))
    def rules_page(self, obj: Season) -> str:
        return format_html(
            '<a href="{}">{}</a>',
            reverse("competition:season_rules", args=[obj.slug]),
            _("Change the system, parameters and tie-breaks (with a preview)"),
        )

    list_display = ["name", "club", "kind", "system", "unplayed_policy", "status", "start_date"]
    list_filter = ["club", "kind", "system", "status", "unplayed_policy"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["rules_version", "data_version"]
    inlines = [ParticipantInline, RoundInline]


@admin.register(SeasonRules)
class SeasonRulesAdmin(admin.ModelAdmin):
    list_display = ["season", "version", "valid_from", "system", "unplayed_policy", "changed_by"]
    list_filter = ["system", "unplayed_policy"]
    search_fields = ["season__name"]


@admin.register(Participant)
class ParticipantAdmin(SeasonWrites):
    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        return [o.season for o in objects if isinstance(o, Participant)]

    list_display = ["member", "season", "start_rank", "start_points", "joined_round"]
    list_filter = ["season"]
    search_fields = ["member__name", "season__name"]
    autocomplete_fields = ["member"]
    list_select_related = ["member", "season"]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ["board", "white", "black", "result"]
    raw_id_fields = ["white", "black"]


class RoundEntryInline(admin.TabularInline):
    model = RoundEntry
    extra = 0
    fields = ["participant", "kind", "points", "note"]
    raw_id_fields = ["participant"]


@admin.register(Round)
class RoundAdmin(SeasonWrites):
    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        return [o.season for o in objects if isinstance(o, Round)]

    list_display = ["season", "number", "date", "status"]
    list_filter = ["season", "status"]
    search_fields = ["season__name"]
    inlines = [GameInline, RoundEntryInline]


@admin.register(Game)
class GameAdmin(SeasonWrites, SimpleHistoryAdmin):
    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        return [o.round.season for o in objects if isinstance(o, Game)]

    list_display = ["round", "board", "white", "black", "result", "version", "updated_by"]
    list_filter = ["round__season", "result"]
    search_fields = ["white__member__name", "black__member__name"]
    raw_id_fields = ["white", "black"]
    list_select_related = ["round__season", "white__member", "black__member", "updated_by"]


@admin.register(RoundEntry)
class RoundEntryAdmin(SeasonWrites, SimpleHistoryAdmin):
    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        return [o.round.season for o in objects if isinstance(o, RoundEntry)]

    list_display = ["round", "participant", "kind", "points"]
    list_filter = ["round__season", "kind"]
    search_fields = ["participant__member__name"]
    raw_id_fields = ["participant"]
    list_select_related = ["round__season", "participant__member"]


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["season", "round_number", "data_version", "rules_version", "computed_at"]
    list_filter = ["season"]
    search_fields = ["season__name"]
    readonly_fields = ["rows"]
