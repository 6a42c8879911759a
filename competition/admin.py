"""Django admin for every model: searchable, filterable lists; rounds and games inline."""

from django.contrib import admin
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


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
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


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
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
class ParticipantAdmin(admin.ModelAdmin):
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
class RoundAdmin(admin.ModelAdmin):
    list_display = ["season", "number", "date", "status"]
    list_filter = ["season", "status"]
    search_fields = ["season__name"]
    inlines = [GameInline, RoundEntryInline]


@admin.register(Game)
class GameAdmin(SimpleHistoryAdmin):
    list_display = ["round", "board", "white", "black", "result", "version", "updated_by"]
    list_filter = ["round__season", "result"]
    search_fields = ["white__member__name", "black__member__name"]
    raw_id_fields = ["white", "black"]
    list_select_related = ["round__season", "white__member", "black__member", "updated_by"]


@admin.register(RoundEntry)
class RoundEntryAdmin(SimpleHistoryAdmin):
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
