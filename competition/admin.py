"""Django admin for every model: searchable, filterable lists; rounds and games inline.

The admin writes through the same rules as the rest of the site: a change to results,
entries, rounds or participants recomputes the season's standings; a renamed club, member or
season refreshes the cached pages; a season's rules are changed only on the rules page, which
keeps the earlier rule set (a new season's rules are checked by the rules service).

The games and round entries of a closed round are read-only here, with a link to the TD's
correction page: a correction needs a reason and is shown publicly, which the admin cannot give.
Only the last rounds of a season can be deleted: the engine needs rounds numbered 1, 2, 3, ...
"""

from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.contrib.admin.options import BaseModelAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult
from simple_history.admin import SimpleHistoryAdmin

from competition.clubs import club_url
from competition.forms.ranges import integer_range
from competition.models import (
    CheckIn,
    Club,
    ClubRatingChange,
    ClubRatingRules,
    ForbiddenPair,
    Game,
    GroupCompetition,
    Invitation,
    Member,
    NameDisplay,
    Participant,
    PushSubscription,
    ResultReport,
    Round,
    RoundEntry,
    Season,
    SeasonChances,
    SeasonChancesJob,
    SeasonRules,
    StandingsSnapshot,
)
from competition.services.accounts import member_anonymise
from competition.services.errors import ServiceError
from competition.services.ratings import club_ratings_replay, start_list_by_club_rating
from competition.services.rules import rules_validate
from competition.services.standings import seasons_touch, standings_recompute

RULE_FIELDS = ("system", "parameters", "tiebreaks", "unplayed_policy", "min_games")


class PortableNumbers(BaseModelAdmin):
    """Whole numbers within what every database stores (SQLite takes more than PostgreSQL):
    out of range is a form error on the field, never a 500."""

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        bounds = integer_range(db_field)
        if bounds is not None and not db_field.choices:
            kwargs.setdefault("min_value", bounds[0])
            kwargs.setdefault("max_value", bounds[1])
        return super().formfield_for_dbfield(db_field, request, **kwargs)


class SeasonWrites(PortableNumbers, admin.ModelAdmin):
    """Keeps the standings true after an admin write: ``seasons_of`` names the seasons touched,
    ``recompute`` says whether their figures can change (else only the cached pages)."""

    recompute = True
    ratings = True  # whether an edit can change the club rating (docs/ratings.md)

    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        raise NotImplementedError

    def _refresh(self, objects: Iterable[Model]) -> None:
        seasons = {season.pk: season for season in self.seasons_of(objects)}
        if self.recompute:
            for season in seasons.values():
                standings_recompute(season=season)
        else:
            seasons_touch(seasons=seasons.values())
        self._ratings_replay(seasons.values())

    def _ratings_replay(self, seasons: Iterable[Season]) -> None:
        """The club rating of the seasons' clubs from the first evening on: an admin's edit
        (a result, an event rating, a birth year) may change any evening."""
        if self.ratings:
            for club_id in sorted({season.club_id for season in seasons}):
                club_ratings_replay(club=Club.objects.get(pk=club_id))

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

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        if self.model not in (Game, RoundEntry):
            # A closed round's games and entries are not deleted one by one, but they go with
            # their round, season or club (if the user may delete games and entries at all).
            for model in (Game, RoundEntry):
                if self.admin_site.get_model_admin(model).has_delete_permission(request):
                    perms_needed.discard(str(model._meta.verbose_name))
        return deleted, counts, perms_needed, protected

    def _refresh_seasons(self, seasons: Iterable[Season]) -> None:
        existing = Season.objects.filter(pk__in={s.pk for s in seasons})
        if self.recompute:
            for season in existing:
                standings_recompute(season=season)
        else:
            seasons_touch(seasons=existing)
        if self.ratings:  # a deleted season takes its games out of the club rating
            for club_id in sorted({season.club_id for season in seasons}):
                club = Club.objects.filter(pk=club_id).first()
                if club is not None:
                    club_ratings_replay(club=club)


@admin.register(Club)
class ClubAdmin(SeasonWrites):
    recompute = False
    ratings = False

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
    list_filter = ["club", "active", "name_display"]
    search_fields = ["name", "knsb_id", "fide_id"]
    actions = ["anonymise"]

    @admin.action(description=_("Anonymise (a member who leaves: his results stay)"))
    def anonymise(self, request: HttpRequest, queryset: QuerySet) -> None:
        done = []
        for member in queryset:
            try:
                member_anonymise(member=member, user=request.user)  # type: ignore[arg-type]
            except ServiceError as error:
                self.message_user(request, str(error), messages.ERROR)
            else:
                done.append(member)
        if done:
            self.message_user(
                request,
                gettext("Anonymised: %(count)s member(s). Their accounts, if any, still exist.")
                % {"count": len(done)},
                messages.SUCCESS,
            )


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations, to look at: they are made on the TD's members page (the link is shown
    only there, once), and only a hash of the link is stored."""

    list_display = ["member", "email", "created_at", "expires_at", "used_at", "created_by"]
    list_filter = ["member__club"]
    search_fields = ["member__name", "email"]
    list_select_related = ["member", "created_by"]
    readonly_fields = ["member", "email", "created_by", "created_at", "expires_at", "used_at"]
    exclude = ["token_hash"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """Members' devices that receive push notices, to look at (a failing device shows its last
    error) or delete: they are made and withdrawn by the member on his page. The device's keys
    are not shown."""

    list_display = ["member", "language", "created_at", "last_error_at"]
    list_filter = ["member__club"]
    search_fields = ["member__name"]
    list_select_related = ["member"]
    readonly_fields = ["member", "language", "created_at", "last_error", "last_error_at"]
    exclude = ["endpoint", "p256dh", "auth"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ParticipantInline(PortableNumbers, admin.TabularInline):
    model = Participant
    extra = 0
    autocomplete_fields = ["member"]
    fields = ["member", "start_rank", "start_points", "rating", "initial_value", "joined_round"]


class RoundInline(admin.TabularInline):
    """The season's rounds, to look at: a round is changed or deleted on its own page, which
    keeps closed rounds and the numbering intact."""

    model = Round
    extra = 0
    fields = ["number", "date", "status"]
    readonly_fields = ["number", "date", "status"]
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


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
            "max_meetings",
            "rematch_colours_reversed",
            "one_pairing_bye",
            "planned_rounds",
            "name_display",
            "junior_birth_year",
            "status",
            # a rapid or blitz series (docs/scoring.md#rapid-and-blitz-series)
            "rounds_per_evening",
            "evening_points",
            "best_evenings",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Names in public: full unless the form says otherwise (a form posted without it);
        # likewise one round per evening (not a rapid series).
        self.fields["name_display"].required = False
        self.fields["rounds_per_evening"].required = False

    def clean_name_display(self) -> str:
        return self.cleaned_data.get("name_display") or NameDisplay.FULL

    def clean_rounds_per_evening(self) -> int:
        return self.cleaned_data.get("rounds_per_evening") or 0

    def clean_evening_points(self) -> list[int]:
        """The evening points by place: a list of whole numbers ≥ 0 ([10, 8, 6, 5]), or empty."""
        points = self.cleaned_data.get("evening_points") or []
        if not isinstance(points, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in points
        ):
            raise forms.ValidationError(
                _("Give the evening points by place as whole numbers, e.g. [10, 8, 6, 5].")
            )
        return points

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
    actions = ["number_by_club_rating"]

    @admin.action(description=_("Number the start list by club rating"))
    def number_by_club_rating(self, request: HttpRequest, queryset: QuerySet) -> None:
        for season in queryset:
            try:
                count = start_list_by_club_rating(season=season)
            except ServiceError as error:
                self.message_user(request, str(error), messages.ERROR)
            else:
                self.message_user(
                    request,
                    gettext("%(season)s: %(count)s start numbers, by club rating.")
                    % {"season": season.name, "count": count},
                    messages.SUCCESS,
                )

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
            club_url(obj.club.slug, "competition:season_rules", args=[obj.slug]),
            _("Change the system, parameters and tie-breaks (with a preview)"),
        )

    list_display = ["name", "club", "kind", "system", "unplayed_policy", "status", "start_date"]
    list_filter = ["club", "kind", "system", "status", "unplayed_policy"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["rules_version", "data_version"]
    inlines = [ParticipantInline, RoundInline]


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(PortableNumbers, admin.ModelAdmin):
    """The TD edits these on his pairing-rules page; the admin lists them (the first of a
    pair is the participant with the lower id)."""

    list_display = ["season", "first", "second", "note"]
    list_filter = ["season"]
    search_fields = ["first__member__name", "second__member__name", "note"]
    list_select_related = ["season", "first__member", "second__member"]


@admin.register(SeasonRules)
class SeasonRulesAdmin(PortableNumbers, admin.ModelAdmin):
    list_display = ["season", "version", "valid_from", "system", "unplayed_policy", "changed_by"]
    list_filter = ["system", "unplayed_policy"]
    search_fields = ["season__name"]


@admin.register(Participant)
class ParticipantAdmin(SeasonWrites):
    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        return [o.season for o in objects if isinstance(o, Participant)]

    list_display = ["member", "season", "start_rank", "start_points", "rating", "joined_round"]
    list_filter = ["season"]
    search_fields = ["member__name", "season__name"]
    autocomplete_fields = ["member"]
    list_select_related = ["member", "season"]


def correction_link(record: Game | RoundEntry) -> str:
    """A link to the TD's correction page of a closed round's game or entry."""
    rnd = record.round
    kwargs: dict[str, object] = {"season_slug": rnd.season.slug, "round_number": rnd.number}
    club = rnd.season.club.slug
    if isinstance(record, Game):
        url = club_url(
            club, "competition:td_result_correct", kwargs={**kwargs, "game_id": record.pk}
        )
    else:
        url = club_url(
            club, "competition:td_entry_correct", kwargs={**kwargs, "entry_id": record.pk}
        )
    return format_html(
        '<a href="{}">{}</a>', url, gettext("Correct it on the TD's page (with a reason)")
    )


def _in_closed_round(record: Model | None) -> bool:
    return isinstance(record, Game | RoundEntry) and record.round.is_completed


class ClosedRoundInline(PortableNumbers, admin.TabularInline):
    """A round's games or entries: read-only once the round is closed, each with a link to
    its correction page."""

    extra = 0
    readonly_fields = ["correction"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("round__season")

    def _open(self, obj: Model | None) -> bool:
        return not (isinstance(obj, Round) and obj.is_completed)

    def get_fields(self, request: HttpRequest, obj: Model | None = None):
        fields = list(super().get_fields(request, obj))
        return fields if self._open(obj) else [*fields, "correction"]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self._open(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self._open(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self._open(obj) and super().has_delete_permission(request, obj)

    @admin.display(description=_("correction"))
    def correction(self, obj: Game | RoundEntry) -> str:
        return correction_link(obj) if obj.pk else ""


class GameInline(ClosedRoundInline):
    model = Game
    fields = ["board", "white", "black", "result"]
    raw_id_fields = ["white", "black"]


class RoundEntryInline(ClosedRoundInline):
    model = RoundEntry
    fields = ["participant", "kind", "points", "note"]
    raw_id_fields = ["participant"]


def rounds_after(rounds: Iterable[Round]) -> list[Round]:
    """The rounds that would be left after a gap if ``rounds`` were deleted: a season's rounds
    stay numbered 1, 2, 3, ..., so only its last rounds can go."""
    first: dict[int, int] = {}
    for rnd in rounds:
        first[rnd.season_id] = min(rnd.number, first.get(rnd.season_id, rnd.number))
    if not first:
        return []
    later = Q()
    for season_id, number in first.items():
        later |= Q(season_id=season_id, number__gt=number)
    deleted = [rnd.pk for rnd in rounds]
    return list(Round.objects.filter(later).exclude(pk__in=deleted).select_related("season"))


@admin.register(Round)
class RoundAdmin(SeasonWrites):
    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        return [o.season for o in objects if isinstance(o, Round)]

    list_display = ["season", "number", "date", "status"]
    list_filter = ["season", "status"]
    search_fields = ["season__name"]
    inlines = [GameInline, RoundEntryInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Round | None = None):
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.is_completed:
            readonly += ["season", "number", "status"]  # not reopened or moved past the trail
        return readonly

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        default = actions.get("delete_selected")
        if default is not None:  # the same action, refusing a gap in the numbering
            actions["delete_selected"] = (type(self).delete_last_rounds, *default[1:])
        return actions

    def _refused(self, request: HttpRequest, rounds: Iterable[Round]) -> bool:
        """Says why (and answers True) when deleting ``rounds`` would leave a gap."""
        later = rounds_after(rounds)
        if later:
            self.message_user(
                request,
                gettext(
                    "Only the last round of a season can be deleted; delete the later rounds "
                    "first: %(rounds)s."
                )
                % {"rounds": ", ".join(str(rnd) for rnd in later)},
                messages.ERROR,
            )
        return bool(later)

    def delete_last_rounds(self, request: HttpRequest, queryset: QuerySet) -> Any:
        if self._refused(request, queryset):
            return None
        return delete_selected(self, request, queryset)

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict | None = None
    ) -> HttpResponse:
        rnd = self.get_object(request, object_id)
        if rnd is not None and self._refused(request, [rnd]):
            return HttpResponseRedirect(reverse("admin:competition_round_change", args=[rnd.pk]))
        return super().delete_view(request, object_id, extra_context)

    def delete_model(self, request: HttpRequest, obj: Model) -> None:
        if isinstance(obj, Round) and rounds_after(
            [obj]
        ):  # delete_view refuses with a message first
            raise PermissionDenied
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        if rounds_after(queryset):  # the action refuses with a message first
            raise PermissionDenied
        super().delete_queryset(request, queryset)


class ClosedRoundRecords(SeasonWrites, SimpleHistoryAdmin):
    """A game or entry: read-only in a closed round (with a link to the correction page); new
    ones and moves go to open rounds only."""

    def seasons_of(self, objects: Iterable[Model]) -> list[Season]:
        return [o.round.season for o in objects if isinstance(o, Game | RoundEntry)]

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return not _in_closed_round(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return not _in_closed_round(obj) and super().has_delete_permission(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Model | None = None):
        readonly = list(super().get_readonly_fields(request, obj))
        return [*readonly, "correction"] if _in_closed_round(obj) else readonly

    @admin.display(description=_("correction"))
    def correction(self, obj: Game | RoundEntry) -> str:
        return correction_link(obj)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "round":
            kwargs["queryset"] = Round.objects.exclude(status=Round.Status.COMPLETED)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Game)
class GameAdmin(ClosedRoundRecords):
    list_display = ["round", "board", "white", "black", "result", "version", "updated_by"]
    list_filter = ["round__season", "result"]
    search_fields = ["white__member__name", "black__member__name"]
    raw_id_fields = ["white", "black"]
    list_select_related = ["round__season", "white__member", "black__member", "updated_by"]


@admin.register(ResultReport)
class ResultReportAdmin(admin.ModelAdmin):
    """The players' own results, to look at: they are entered and answered on the members'
    pages and settled on the TD's results page, through the services that keep the board's
    history."""

    list_display = ["game", "participant", "result", "status", "reported_at", "confirmed_by"]
    list_filter = ["game__round__season", "status"]
    search_fields = ["participant__member__name"]
    list_select_related = ["game__round__season", "participant__member", "confirmed_by__member"]
    readonly_fields = ["game", "participant", "result", "status", "reported_at", "confirmed_by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(RoundEntry)
class RoundEntryAdmin(ClosedRoundRecords):
    list_display = ["round", "participant", "kind", "points"]
    list_filter = ["round__season", "kind"]
    search_fields = ["participant__member__name"]
    raw_id_fields = ["participant"]
    list_select_related = ["round__season", "participant__member"]


@admin.register(CheckIn)
class CheckInAdmin(admin.ModelAdmin):
    """Members' check-ins, to read: they are made by the members and the TD's marks decide."""

    list_display = ["round", "participant", "checked_in_at", "checked_in_by"]
    list_filter = ["round__season"]
    search_fields = ["participant__member__name"]
    list_select_related = ["round__season", "participant__member", "checked_in_by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(PortableNumbers, admin.ModelAdmin):
    list_display = ["season", "round_number", "data_version", "rules_version", "computed_at"]
    list_filter = ["season"]
    search_fields = ["season__name"]
    readonly_fields = ["rows"]


@admin.register(SeasonChances)
class SeasonChancesAdmin(admin.ModelAdmin):
    """Read-only: the chances worker writes these rows; delete one to have it recomputed."""

    list_display = ["season", "after_round", "rounds_left", "simulations", "computed_at"]
    list_filter = ["season"]
    search_fields = ["season__name"]
    readonly_fields = [
        "season", "computed_at", "data_version", "rules_version", "after_round", "rounds_left",
        "simulations", "seed", "draw_rate", "rows",
    ]  # fmt: skip

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(GroupCompetition)
class GroupCompetitionAdmin(admin.ModelAdmin):
    """A competition in groups. Its group seasons are made by
    ``services.groups.group_competition_create`` and, after each period, by the TD's promotion
    page; the settings here are read when the next period is made."""

    list_display = ["name", "club", "periods", "rounds_per_period", "promoted", "relegated"]
    list_filter = ["club", "champion_rule"]
    search_fields = ["name", "slug"]


admin.site.unregister(DBTaskResult)


@admin.register(DBTaskResult)
class TaskResultAdmin(DBTaskResultAdmin):
    """The background tasks (competition.tasks), read only: filter on *failed* to see what went
    wrong, each with its attempt, its error and (on its page) the traceback. A failed attempt
    before the last is followed by a queued retry."""

    list_display = (  # type: ignore[assignment]  # the package's columns, less and more
        "task_name",
        "status",
        "attempt",
        "error",
        "enqueued_at",
        "run_after_shown",
        "finished_at",
    )
    list_filter = ("status", "task_path")  # type: ignore[assignment]
    search_fields = ("task_path", "exception_class_path")

    @admin.display(description=_("attempt"))
    def attempt(self, obj: DBTaskResult) -> int:
        return int((obj.args_kwargs or {}).get("kwargs", {}).get("attempt", 1))

    @admin.display(description=_("error"))
    def error(self, obj: DBTaskResult) -> str:
        return obj.exception_class_path or "—"

    @admin.display(description=_("run after"))
    def run_after_shown(self, obj: DBTaskResult) -> Any:
        return self.display_run_after(obj)


@admin.register(SeasonChancesJob)
class SeasonChancesJobAdmin(admin.ModelAdmin):
    """Read only: per season, the requests for its chances, the worker on it and the last
    error (the season's tasks are under *Background tasks*)."""

    list_display = [
        "season",
        "requested",
        "computed",
        "claimed_by",
        "computations",
        "computed_at",
        "has_error",
    ]
    search_fields = ["season__name"]
    list_select_related = ["season"]
    readonly_fields = [
        "season", "requested", "computed", "requested_at", "claimed_by", "claimed_until",
        "computed_at", "computations", "last_error",
    ]  # fmt: skip

    @admin.display(description=_("error"), boolean=True)
    def has_error(self, obj: SeasonChancesJob) -> bool:
        return bool(obj.last_error)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ClubRatingRules)
class ClubRatingRulesAdmin(PortableNumbers, admin.ModelAdmin):
    """The club rating's rules (the club admin sets them on the club settings page); saving
    here replays the club's ledger too."""

    list_display = ["club", "k_new_player", "k_standard", "k_top", "k_junior", "start_rule"]
    search_fields = ["club__name"]

    def save_model(self, request: HttpRequest, obj: Model, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        assert isinstance(obj, ClubRatingRules)
        club_ratings_replay(club=obj.club)


@admin.register(ClubRatingChange)
class ClubRatingChangeAdmin(admin.ModelAdmin):
    """Read-only: the club rating's ledger, kept by the services (docs/ratings.md)."""

    list_display = ["date", "member", "rating_before", "rating_after", "change", "k"]
    list_filter = ["club"]
    search_fields = ["member__name"]
    list_select_related = ["member"]
    readonly_fields = [
        "club", "member", "date", "rating_before", "rating_after", "change", "k",
        "games_before", "game_count", "reached_top", "reached_junior_limit", "games",
    ]  # fmt: skip

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
