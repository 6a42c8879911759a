"""The club's competitions as stored: the only source of truth.

Computed standings live in :class:`StandingsSnapshot`, a cache the service layer rebuilds after
every change; it is never edited by hand and can always be thrown away.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from competition.history import History
from competition.scoring.model import EntryKind as ScoringEntryKind
from competition.scoring.model import Result as ScoringResult

StrOrPromise = str | Promise

_EXACT_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?|-?[0-9]+/[1-9][0-9]*")


def validate_exact_number(value: str) -> None:
    """An exact number as text: a decimal (``199.831776``) or a fraction (``1356/7``)."""
    if not _EXACT_NUMBER.fullmatch(value):
        raise ValidationError(
            _("Enter a number such as 199.5 or a fraction such as 1356/7."), code="invalid"
        )


# First parts of a path that are the site's own, never a club's address (/<club>/...).
RESERVED_CLUB_SLUGS = frozenset(
    {
        "account", "admin", "api", "clubs", "embed", "files", "groups", "healthz", "i18n",
        "login", "logout", "manifest.webmanifest", "me", "member", "offline", "season",
        "service-worker.js", "static", "taal", "td", "welcome",
    }
)  # fmt: skip


def validate_club_slug(value: str) -> None:
    if value in RESERVED_CLUB_SLUGS:
        raise ValidationError(
            _("“%(value)s” is one of the site's own addresses; choose another web address."),
            code="reserved",
            params={"value": value},
        )


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(
        _("web address"),
        unique=True,
        validators=[validate_club_slug],
        help_text=_("The club's pages are at /<web address>/."),
    )
    admin_group = models.OneToOneField(
        "auth.Group",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="admin_club",
        verbose_name=_("club admins"),
        help_text=_(
            "Members of this group set the club's rules, members and tournament directors."
        ),
    )
    embed_origins = models.TextField(
        _("sites that may embed the club's pages"),
        blank=True,
        help_text=_(
            "One address per line, such as https://www.myclub.nl: these sites may show the "
            "standings in a frame on their own pages."
        ),
    )
    td_group = models.OneToOneField(
        "auth.Group",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="club",
        verbose_name=_("tournament directors"),
        help_text=_("Members of this group run rounds and enter results for this club."),
    )
    # Dutch time (settings.TIME_ZONE): the members' calendars show the evenings from then on.
    evening_start = models.TimeField(
        _("club evenings start at"),
        default=datetime.time(20, 0),
        help_text=_("The time the club's evenings begin; a season may have its own."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class NameDisplay(models.TextChoices):
    """How a member's name shows on public pages, exports and feeds (the TD sees full names)."""

    FULL = "full", _("full name")
    SHORT = "short", _("first name and initial")

    @classmethod
    def choices_with_default(cls) -> list[tuple[str, StrOrPromise]]:
        return [("", _("as the season says")), *cls.choices]


class Member(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="members", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    knsb_id = models.CharField(
        _("KNSB relatienummer"),
        max_length=12,
        blank=True,
        default="",
        help_text=_("The member's KNSB relation number, unique within the club."),
    )
    fide_id = models.PositiveBigIntegerField(_("FIDE ID"), null=True, blank=True)
    # The FIDE federation the member plays for (NED, BEL, ...): the FIDE rating report needs it.
    federation = models.CharField(
        _("federation"),
        max_length=3,
        blank=True,
        default="",
        help_text=_("FIDE's three-letter code, such as NED."),
    )
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    rating_date = models.DateField(_("rating list date"), null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    active = models.BooleanField(_("active"), default=True)
    # The member's own account (one per club: a person in two clubs is two members). A member
    # account has no TD rights; those come from the club's TD group only.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memberships",
        verbose_name=_("account"),
    )
    email = models.EmailField(_("e-mail address"), blank=True, default="")
    name_display = models.CharField(
        _("name on public pages"),
        max_length=8,
        choices=NameDisplay.choices_with_default(),
        blank=True,
        default="",
        help_text=_("Empty: as the season says (juniors by birth year)."),
    )
    notify_pairing = models.BooleanField(
        _("e-mail me when the pairing is published"), default=False
    )
    notify_correction = models.BooleanField(
        _("e-mail me when a correction changes my result"), default=False
    )
    # The secret part of the member's private calendar address (made on first use).
    feed_token = models.CharField(
        _("key of the calendar address"),
        max_length=43,
        null=True,
        blank=True,
        unique=True,
        editable=False,
    )
    anonymised_at = models.DateTimeField(_("anonymised"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="member_one_account_per_club",
                violation_error_message=_("This account already belongs to a member of this club."),
            ),
            models.UniqueConstraint(
                fields=["club", "knsb_id"],
                condition=~Q(knsb_id=""),
                name="member_unique_knsb_id_per_club",
                violation_error_message=_("Another member of this club has this relatienummer."),
            ),
            models.UniqueConstraint(
                fields=["club", "fide_id"],
                condition=Q(fide_id__isnull=False),
                name="member_unique_fide_id_per_club",
                violation_error_message=_("Another member of this club has this FIDE ID."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class UnplayedPolicy(models.TextChoices):
    FIDE_2024 = "fide-2024", _("FIDE C.07 (2024): dummy opponent")
    FIDE_2026 = "fide-2026", _("FIDE C.07 (2026): capped dummy opponent")
    UNPLAYED_AS_DRAW = "unplayed-as-draw", _("Unplayed rounds count as draws")
    HALF_VALUE = "half-value", _("Unplayed points count half")
    PLAIN = "plain", _("Actual points only")


class RuleChanges(models.TextChoices):
    """Which rounds a change of the season's rules applies to."""

    WHOLE_SEASON = "season", _("to the whole season (every round is recomputed)")
    NEXT_ROUND = "next_round", _("from the next round on (earlier rounds keep their values)")


class Season(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("in preparation")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Kind(models.TextChoices):
        LADDER = "ladder", _("ladder (paired by standing)")
        ROUND_ROBIN = "round_robin", _("round robin (Berger tables)")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("web address"))
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind, default=Kind.LADDER)
    system = models.CharField(_("ranking system"), max_length=32, default="internal-sb")
    parameters = models.JSONField(_("system parameters"), default=dict, blank=True)
    tiebreaks = models.JSONField(_("tie-breaks in order"), default=list, blank=True)
    unplayed_policy = models.CharField(
        _("unplayed rounds in tie-breaks"),
        max_length=20,
        choices=UnplayedPolicy,
        default=UnplayedPolicy.FIDE_2024,
    )
    min_games = models.PositiveSmallIntegerField(_("minimum games for prizes"), default=0)
    bye_points = models.DecimalField(
        _("points for a bye"),
        max_digits=3,
        decimal_places=1,
        default=Decimal("1"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    rematch_window = models.PositiveSmallIntegerField(
        _("no rematch within this many rounds"), default=3
    )
    absence_deadline = models.TimeField(
        _("absence deadline"),
        null=True,
        blank=True,
        help_text=_(
            "Members report an absence until this time on the evening's day (e.g. 18:00). "
            "Empty: until the TD publishes the pairing."
        ),
    )
    requested_byes = models.BooleanField(_("members may ask for a bye"), default=False)
    evening_start = models.TimeField(
        _("evenings start at"),
        null=True,
        blank=True,
        help_text=_("Empty: at the club's time."),
    )
    max_meetings = models.PositiveSmallIntegerField(
        _("at most this many games between two players"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Empty: no limit."),
    )
    rematch_colours_reversed = models.BooleanField(
        _("colours reversed at a rematch"),
        default=False,
        help_text=_("A rematch gives each player the other colour than last time, when possible."),
    )
    one_pairing_bye = models.BooleanField(
        _("at most one pairing-allocated bye per player"),
        default=False,
        help_text=_("Requested byes do not count."),
    )
    name_display = models.CharField(
        _("names on public pages"),
        max_length=8,
        choices=NameDisplay.choices,
        default=NameDisplay.FULL,
    )
    junior_birth_year = models.PositiveSmallIntegerField(
        _("juniors born in or after"),
        null=True,
        blank=True,
        help_text=_("Juniors show as first name and initial unless they chose otherwise."),
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.RUNNING)
    rules_version = models.PositiveIntegerField(_("rules version"), default=1)
    # The first round the rules above score (SeasonRules.from_round of the current version):
    # the rounds before it keep the values of the earlier rule sets.
    rules_from_round = models.PositiveSmallIntegerField(
        _("rules apply from round"), default=1, editable=False
    )
    rule_changes = models.CharField(
        _("a change of rules applies"),
        max_length=10,
        choices=RuleChanges,
        default=RuleChanges.WHOLE_SEASON,
    )
    data_version = models.PositiveIntegerField(
        _("data version"),
        default=0,
        editable=False,
        help_text=_("Bumped by every write; keys the standings cache."),
    )
    # When data_version or rules_version last moved: the API's Last-Modified.
    changed_at = models.DateTimeField(_("last changed"), null=True, blank=True, editable=False)
    # Categories and periods (docs/scoring.md#categories-prizes-and-periods): the last round of
    # each period, ascending ([12, 24]: rounds 1–12 and 13–24); empty: no periods.
    period_ends = models.JSONField(_("last round of each period"), default=list, blank=True)
    # How many categories the season has, kept by competition.services.categories: the
    # participant page and "how it works" skip the categories' query for a season without any.
    category_count = models.PositiveSmallIntegerField(
        _("number of categories"), default=0, editable=False
    )
    several_prizes = models.BooleanField(
        _("a player may win several prizes"),
        default=True,
        help_text=_("Off: a player wins at most one prize; categories are awarded in their order."),
    )
    # Rapid and blitz series (docs/scoring.md#rapid-and-blitz-series): the rounds are played in
    # evenings of this many rounds; 0 (or 1): one round per club evening, no series.
    rounds_per_evening = models.PositiveSmallIntegerField(
        _("rounds per evening (rapid series)"),
        default=0,
        help_text=_("0: one round per club evening. 2 or more: a rapid or blitz series."),
    )
    # Evening points by place, [10, 8, 6, 5, 4, 3, 2, 1]: place 1 gets 10; later places 0.
    evening_points = models.JSONField(_("evening points by place"), default=list, blank=True)
    best_evenings = models.PositiveSmallIntegerField(
        _("best evenings that count"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Empty: every evening counts."),
    )
    # Groups with promotion and relegation (docs/scoring.md#groups-with-promotion-and-relegation):
    # a group season is one group (A, B, ...) of one period of a group competition; empty for a
    # season on its own. Pairing, results and standings are the season's own, as for any season.
    group_competition = models.ForeignKey(
        "GroupCompetition",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="group_seasons",
        verbose_name=_("group competition"),
    )
    group_letter = models.CharField(_("group"), max_length=1, blank=True, default="")
    group_period = models.PositiveSmallIntegerField(_("period"), null=True, blank=True)
    # How many rounds the season plans: "can I still win?" simulates the rounds after the last
    # completed one up to this number. Filled from the calendar whenever the calendar changes
    # (its last planned round); the TD sets it on the calendar page. Empty: from the calendar,
    # or a round robin's Berger cycle; otherwise unknown (no chances).
    planned_rounds = models.PositiveSmallIntegerField(
        _("planned rounds"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("How many rounds the season has in all. Filled from the calendar."),
    )
    # The club rating (docs/ratings.md) as the pairing seed: among players with equal standing
    # (everyone before round 1) the higher club rating comes first.
    seed_by_club_rating = models.BooleanField(
        _("pair equal standings by club rating"),
        default=False,
        help_text=_(
            "Players with the same standing (everyone in round 1) are ordered by their club "
            "rating before the evening instead of by start number."
        ),
    )
    # What a FIDE rating report (a TRF for the rating officer) says about the event.
    city = models.CharField(_("city"), max_length=60, blank=True, default="")
    federation = models.CharField(
        _("federation"),
        max_length=3,
        blank=True,
        default="",
        help_text=_("FIDE's three-letter code of the organising federation, such as NED."),
    )
    chief_arbiter = models.CharField(
        _("chief arbiter"),
        max_length=80,
        blank=True,
        default="",
        help_text=_("Name and FIDE ID, such as “Jan Jansen (1012345)”."),
    )
    deputy_arbiters = models.TextField(
        _("deputy arbiters"), blank=True, default="", help_text=_("One per line.")
    )
    time_control = models.CharField(
        _("time control"),
        max_length=80,
        blank=True,
        default="",
        help_text=_("Such as 90 min + 30 s per move."),
    )
    tournament_type = models.CharField(
        _("type of tournament"),
        max_length=60,
        blank=True,
        default="",
        help_text=_("Empty: from the season's kind (round robin or Swiss system)."),
    )

    class Meta:
        ordering = ["club", "-start_date", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "slug"],
                name="season_slug_unique_per_club",
                violation_error_message=_("This club already has a season with this web address."),
            ),
            models.CheckConstraint(
                condition=Q(end_date__isnull=True)
                | Q(start_date__isnull=True)
                | Q(end_date__gte=F("start_date")),
                name="season_ends_after_start",
                violation_error_message=_("The season cannot end before it starts."),
            ),
            models.CheckConstraint(
                condition=Q(max_meetings__isnull=True) | Q(max_meetings__gte=1),
                name="season_max_meetings_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def evening_starts_at(self) -> datetime.time:
        """When this season's club evenings begin: its own time, else the club's."""
        return self.evening_start or self.club.evening_start

    @property
    def is_round_robin(self) -> bool:
        return self.kind == self.Kind.ROUND_ROBIN

    @property
    def is_rapid_series(self) -> bool:
        """Several rounds on one evening, with evening rankings and a series ranking."""
        return self.rounds_per_evening >= 2


class SeasonRules(models.Model):
    """A rule set as it was in force: saving new rules keeps the earlier ones and their dates."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="rule_sets", verbose_name=_("season")
    )
    version = models.PositiveIntegerField(_("version"))
    valid_from = models.DateTimeField(_("valid from"), default=timezone.now)
    system = models.CharField(_("ranking system"), max_length=32)
    parameters = models.JSONField(_("system parameters"), default=dict, blank=True)
    tiebreaks = models.JSONField(_("tie-breaks in order"), default=list, blank=True)
    unplayed_policy = models.CharField(
        _("unplayed rounds in tie-breaks"), max_length=20, choices=UnplayedPolicy
    )
    min_games = models.PositiveSmallIntegerField(_("minimum games for prizes"), default=0)
    # The first round these rules score; rounds before it keep the values of the earlier rule
    # set (Season.rule_changes "next_round"). 1: the whole season.
    from_round = models.PositiveSmallIntegerField(
        _("from round"), default=1, validators=[MinValueValidator(1)]
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("changed by"),
    )

    class Meta:
        ordering = ["season", "-version"]
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        constraints = [
            models.UniqueConstraint(fields=["season", "version"], name="rules_unique_version"),
        ]

    def __str__(self) -> str:
        return f"{self.season} v{self.version}"


class Participant(models.Model):
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="participants", verbose_name=_("season")
    )
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="participations", verbose_name=_("member")
    )
    start_rank = models.PositiveIntegerField(_("start number"), null=True, blank=True)
    # Exact text, as competition.exact writes it: "199", "199.831776" or "1356/7". Start
    # points carried over from last season's Van den Brink standings need not fit any number
    # of decimals (a factor of 1/14 gives sevenths); see docs/decisions.md.
    start_points = models.CharField(
        _("start points"),
        max_length=40,
        null=True,
        blank=True,
        validators=[validate_exact_number],
        help_text=_("An exact number such as 199.5, or a fraction such as 1356/7."),
    )
    # The event rating (FIDE C.07 10.1): ARO and TPR use it, not the member's rating today.
    rating = models.PositiveSmallIntegerField(
        _("event rating"),
        null=True,
        blank=True,
        help_text=_("The rating for this season's ARO and TPR: the member's rating when enrolled."),
    )
    initial_value = models.DecimalField(
        _("initial value"),
        max_digits=9,
        decimal_places=4,
        null=True,
        blank=True,
        help_text=_("For systems that need one (for example a Keizer value)."),
    )
    joined_round = models.PositiveSmallIntegerField(
        _("takes part from round"), default=1, validators=[MinValueValidator(1)]
    )
    # Withdrawn from the season from this round on (illness, moved away): no longer offered
    # for pairing; his rounds from it on are unplayed rounds after withdrawal (C.07 16.1.1).
    withdrawn_from_round = models.PositiveSmallIntegerField(
        _("withdrawn from round"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    withdrawal_note = models.CharField(_("reason for withdrawal"), max_length=200, blank=True)

    class Meta:
        ordering = ["season", "start_rank", "member__name"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "member"],
                name="participant_unique_member",
                violation_error_message=_("This member already takes part in this season."),
            ),
            models.UniqueConstraint(
                fields=["season", "start_rank"],
                condition=Q(start_rank__isnull=False),
                name="participant_unique_start_rank",
                violation_error_message=_("Another participant has this start number."),
            ),
            models.CheckConstraint(
                condition=Q(joined_round__gte=1), name="participant_joined_round_positive"
            ),
            models.CheckConstraint(
                condition=Q(withdrawn_from_round__isnull=True)
                | Q(withdrawn_from_round__gt=F("joined_round")),
                name="participant_withdrawn_after_joining",
                violation_error_message=_("A participant withdraws after the round he joined."),
            ),
        ]

    def __str__(self) -> str:
        return self.member.name

    def takes_part_in(self, round_number: int) -> bool:
        """Whether the participant takes part in round ``round_number``: joined, not withdrawn."""
        return self.joined_round <= round_number and (
            self.withdrawn_from_round is None or round_number < self.withdrawn_from_round
        )


def taking_part_in(round_number: int, *, prefix: str = "") -> Q:
    """The participants (``prefix`` ``"participant__"`` from a related model) taking part in
    round ``round_number``: :meth:`Participant.takes_part_in` as a filter."""
    return Q(**{f"{prefix}joined_round__lte": round_number}) & (
        Q(**{f"{prefix}withdrawn_from_round__isnull": True})
        | Q(**{f"{prefix}withdrawn_from_round__gt": round_number})
    )


class Category(models.Model):
    """A sub-ranking of the season's standings with its prizes (competition.scoring.categories):
    by rating class, by age, newcomers, or participants chosen by hand."""

    class Kind(models.TextChoices):
        RATING = "rating", _("rating class")
        AGE = "age", _("age (birth year)")
        NEWCOMERS = "newcomers", _("newcomers")
        HAND_LIST = "list", _("chosen by hand")

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="categories", verbose_name=_("season")
    )
    name = models.CharField(_("name"), max_length=60)
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind, default=Kind.RATING)
    rating_from = models.PositiveSmallIntegerField(_("rating from"), null=True, blank=True)
    rating_below = models.PositiveSmallIntegerField(_("rating below"), null=True, blank=True)
    unrated = models.BooleanField(_("unrated players belong here"), default=False)
    born_from = models.PositiveSmallIntegerField(_("born in or after"), null=True, blank=True)
    born_to = models.PositiveSmallIntegerField(_("born in or before"), null=True, blank=True)
    prizes = models.PositiveSmallIntegerField(_("number of prizes"), default=3)
    most_improved = models.BooleanField(_("prize for the most improved"), default=False)
    chosen = models.ManyToManyField(
        Participant, blank=True, related_name="chosen_categories", verbose_name=_("participants")
    )

    class Meta:
        ordering = ["season", "order", "id"]
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "order"],
                name="category_unique_order",
                violation_error_message=_("Another category of this season has this order."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ForbiddenPair(models.Model):
    """Two participants the pairing keeps apart (family, carpool): set by the TD per season.

    Stored once whichever order the TD chose: ``first`` is the participant with the lower id.
    """

    season = models.ForeignKey(
        Season,
        on_delete=models.CASCADE,
        related_name="forbidden_pairs",
        verbose_name=_("season"),
    )
    first = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="+", verbose_name=_("first player")
    )
    second = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="+", verbose_name=_("second player")
    )
    note = models.CharField(_("note"), max_length=200, blank=True, default="")

    class Meta:
        ordering = ["season", "first", "second"]
        verbose_name = _("forbidden pair")
        verbose_name_plural = _("forbidden pairs")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "first", "second"],
                name="forbidden_pair_once",
                violation_error_message=_("These two are already a forbidden pair."),
            ),
            models.CheckConstraint(
                condition=Q(first__lt=F("second")), name="forbidden_pair_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} – {self.second}"


class Round(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        PAIRED = "paired", _("paired")
        COMPLETED = "completed", _("completed")

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("season")
    )
    number = models.PositiveSmallIntegerField(_("round"), validators=[MinValueValidator(1)])
    date = models.DateField(_("date"), default=timezone.localdate)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.PLANNED)

    class Meta:
        ordering = ["season", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "number"],
                name="round_unique_number",
                violation_error_message=_("This season already has a round with this number."),
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            # One evening at a time: a second open round (a double tap on "new round", two TDs
            # at once) cannot be stored, whatever reaches the database.
            models.UniqueConstraint(
                fields=["season"],
                condition=~Q(status="completed"),
                name="round_one_open_per_season",
                violation_error_message=_("This season already has a round that is not closed."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} – {_('round')} {self.number}"

    @property
    def is_planned(self) -> bool:
        """Not published yet: the pairing is a draft only the TD sees."""
        return self.status == Round.Status.PLANNED

    @property
    def is_published(self) -> bool:
        """The pairing is published and results are being entered."""
        return self.status == Round.Status.PAIRED

    @property
    def is_completed(self) -> bool:
        """Closed: every board has a result and the standings include the round."""
        return self.status == Round.Status.COMPLETED


class RecordedByTD(models.Model):
    """What a TD records on an evening (a board's game, a round without a game): who last
    changed it and when, whether the TD fixed it by hand, and its full history of changes."""

    # Set by the TD on a draft board or a bye, so re-running the pairing engine "on the rest"
    # keeps it.
    fixed_by_td = models.BooleanField(_("fixed by the TD"), default=False)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
        verbose_name=_("last changed by"),
    )
    updated_at = models.DateTimeField(_("last changed at"), auto_now=True)
    # One more with every change a TD saves: a page sends the version it showed, and a change
    # made meanwhile by someone else is refused instead of overwritten.
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)
    history = History(inherit=True)
    # The reason simple-history records with the next save (the services set it on corrections).
    _change_reason: str

    class Meta:
        abstract = True


class Game(RecordedByTD):
    class Result(models.TextChoices):
        WHITE_WINS = ScoringResult.WHITE_WINS.value, "1-0"
        DRAW = ScoringResult.DRAW.value, "½-½"
        BLACK_WINS = ScoringResult.BLACK_WINS.value, "0-1"
        WHITE_WINS_FORFEIT = ScoringResult.WHITE_WINS_FORFEIT.value, _("1-0 forfeit")
        BLACK_WINS_FORFEIT = ScoringResult.BLACK_WINS_FORFEIT.value, _("0-1 forfeit")
        DOUBLE_FORFEIT = ScoringResult.DOUBLE_FORFEIT.value, _("0-0 double forfeit")
        NOT_PLAYED = ScoringResult.NOT_PLAYED.value, _("not yet played")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="games", verbose_name=_("round")
    )
    board = models.PositiveSmallIntegerField(_("board"), validators=[MinValueValidator(1)])
    white = models.ForeignKey(
        Participant,
        on_delete=models.PROTECT,
        related_name="games_as_white",
        verbose_name=_("white"),
    )
    black = models.ForeignKey(
        Participant,
        on_delete=models.PROTECT,
        related_name="games_as_black",
        verbose_name=_("black"),
    )
    result = models.CharField(
        _("result"), max_length=3, choices=Result, default=Result.NOT_PLAYED, blank=True
    )

    class Meta:
        ordering = ["round", "board"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "board"],
                name="game_unique_board",
                violation_error_message=_("This board is already taken in this round."),
            ),
            models.UniqueConstraint(
                fields=["round", "white"],
                name="game_unique_white",
                violation_error_message=_("This player already has a game in this round."),
            ),
            models.UniqueConstraint(
                fields=["round", "black"],
                name="game_unique_black",
                violation_error_message=_("This player already has a game in this round."),
            ),
            models.CheckConstraint(
                condition=~Q(white=F("black")),
                name="game_white_is_not_black",
                violation_error_message=_("A player cannot play himself."),
            ),
            models.CheckConstraint(condition=Q(board__gte=1), name="game_board_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} {_('board')} {self.board}: {self.white} – {self.black}"


class ExternalResult(models.TextChoices):
    """The result of a game a member played for the club elsewhere (a team match)."""

    WON = "1", _("won")
    DRAWN = "1/2", _("drawn")
    LOST = "0", _("lost")


class RoundEntry(RecordedByTD):
    """A participant's round without a game: absence, club duty or bye."""

    class Kind(models.TextChoices):
        ABSENT_NOTICE = ScoringEntryKind.ABSENT_NOTICE.value, _("absent with notice")
        ABSENT_NO_NOTICE = ScoringEntryKind.ABSENT_NO_NOTICE.value, _("absent without notice")
        CLUB_DUTY = ScoringEntryKind.CLUB_DUTY.value, _("club duty")
        BYE = ScoringEntryKind.BYE.value, _("bye")
        NOT_PAIRED = ScoringEntryKind.NOT_PAIRED.value, _("not paired")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="entries", verbose_name=_("round")
    )
    participant = models.ForeignKey(
        Participant,
        on_delete=models.PROTECT,
        related_name="entries",
        verbose_name=_("participant"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind)
    points = models.DecimalField(
        _("game points awarded"),
        max_digits=3,
        decimal_places=1,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    note = models.CharField(_("note"), max_length=200, blank=True, default="")
    # A club duty that was a game for the club elsewhere (a team match on the club evening):
    # its result; how it counts is the season's system's parameter ``external_game``.
    external_result = models.CharField(
        _("external game"), max_length=3, choices=ExternalResult, blank=True, default=""
    )

    class Meta:
        ordering = ["round", "kind", "participant"]
        verbose_name = _("round entry")
        verbose_name_plural = _("round entries")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "participant"],
                name="entry_unique_participant",
                violation_error_message=_("This participant already has an entry in this round."),
            ),
            models.CheckConstraint(condition=Q(points__gte=0), name="entry_points_not_negative"),
            models.CheckConstraint(
                condition=Q(external_result="") | Q(kind="club_duty"),
                name="entry_external_result_on_club_duty",
                violation_error_message=_("Only a club duty can be an external game."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.participant} ({self.get_kind_display()})"


# The TD's attendance marks: present, or one of the absence kinds (each kept as an entry).
PRESENT = "present"
ABSENCE_KINDS = (
    RoundEntry.Kind.ABSENT_NOTICE,
    RoundEntry.Kind.ABSENT_NO_NOTICE,
    RoundEntry.Kind.CLUB_DUTY,
)
ATTENDANCE_CHOICES = (PRESENT, *ABSENCE_KINDS)
# Entries the draft pairing writes (and throws away when it is redone).
DRAFT_ENTRY_KINDS = (RoundEntry.Kind.BYE, RoundEntry.Kind.NOT_PAIRED)


class StandingsSnapshot(models.Model):
    """Cached engine output for one season after one round; rebuilt by ``standings_recompute``."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="snapshots", verbose_name=_("season")
    )
    round_number = models.PositiveSmallIntegerField(_("after round"))
    data_version = models.PositiveIntegerField(_("data version"))
    rules_version = models.PositiveIntegerField(_("rules version"))
    rows = models.JSONField(_("rows"), default=list)
    computed_at = models.DateTimeField(_("computed at"), default=timezone.now)
    # The season's standings fingerprint (competition.scoring.fingerprint, 64 hex digits) when
    # these rows were computed: the standings page shows it without reading the whole season.
    fingerprint = models.CharField(
        _("fingerprint of the standings"), max_length=64, blank=True, default="", editable=False
    )

    class Meta:
        ordering = ["season", "round_number"]
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "round_number"], name="snapshot_unique_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} after round {self.round_number}"


class ParticipantExplanation(models.Model):
    """A participant's page after a snapshot's round (every game, every figure explained, why he
    moved), computed by the worker (competition.services.explanations) so that his page is read
    without running the engine over the season. Deleted with its snapshot, so it never outlives
    the results it explains. It holds no name (competition.selectors.page_payload)."""

    snapshot = models.ForeignKey(
        StandingsSnapshot,
        on_delete=models.CASCADE,
        related_name="explanations",
        verbose_name=_("standings snapshot"),
    )
    participant = models.ForeignKey(
        "Participant", on_delete=models.CASCADE, related_name="+", verbose_name=_("participant")
    )
    # the payload's layout (competition.selectors.page_payload.LAYOUT): one written by another
    # version of the code is not read
    layout = models.CharField(_("layout"), max_length=16)
    payload = models.TextField(_("page"))

    class Meta:
        verbose_name = _("participant explanation")
        verbose_name_plural = _("participant explanations")
        constraints = [
            models.UniqueConstraint(
                fields=["snapshot", "participant"], name="explanation_unique_participant"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant_id} in {self.snapshot}"


class ClubEvening(models.Model):
    """A planned club evening of a season: the calendar members report their absences against.

    The round played that evening is the season's round with the same date (the TD opens it
    on the evening itself); ``round_number`` is the round planned for it, as the club announces.
    """

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="evenings", verbose_name=_("season")
    )
    date = models.DateField(_("date"))
    round_number = models.PositiveSmallIntegerField(
        _("planned round"), validators=[MinValueValidator(1)]
    )
    note = models.CharField(_("note"), max_length=200, blank=True, default="")

    class Meta:
        ordering = ["season", "date"]
        verbose_name = _("club evening")
        verbose_name_plural = _("club evenings")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "date"],
                name="evening_unique_date",
                violation_error_message=_("This season already has a club evening on this date."),
            ),
            models.CheckConstraint(
                condition=Q(round_number__gte=1), name="evening_round_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} – {self.date:%Y-%m-%d}"


class AbsenceReport(models.Model):
    """A member's report for a coming evening: "I can't come", or a request for a bye.

    One per participant and evening (a second report replaces the first). When the TD opens
    that evening's round an absence report becomes an "absent with notice" entry; who made the
    report and when stay here, with every change in the history.
    """

    class Kind(models.TextChoices):
        ABSENT = "absent", _("I can't come")
        BYE = "bye", _("I ask for a bye")

    evening = models.ForeignKey(
        ClubEvening, on_delete=models.CASCADE, related_name="reports", verbose_name=_("evening")
    )
    participant = models.ForeignKey(
        Participant,
        on_delete=models.CASCADE,
        related_name="absence_reports",
        verbose_name=_("participant"),
    )
    kind = models.CharField(_("report"), max_length=8, choices=Kind, default=Kind.ABSENT)
    note = models.CharField(_("note"), max_length=200, blank=True, default="")
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("reported by"),
    )
    reported_at = models.DateTimeField(_("reported at"), default=timezone.now)
    history = History()

    class Meta:
        ordering = ["evening", "participant"]
        verbose_name = _("absence report")
        verbose_name_plural = _("absence reports")
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "participant"],
                name="report_unique_per_evening",
                violation_error_message=_("This player already reported for this evening."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.evening}: {self.participant} ({self.get_kind_display()})"


class Invitation(models.Model):
    """A one-time link inviting a member to make his account; valid for a week.

    Only a hash of the link's secret is stored, so the table cannot be used to log in.
    """

    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("member")
    )
    token_hash = models.CharField(
        _("fingerprint of the link"), max_length=64, unique=True, editable=False
    )
    email = models.EmailField(_("e-mail address"), blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("made by"),
    )
    created_at = models.DateTimeField(_("made at"), default=timezone.now)
    expires_at = models.DateTimeField(_("valid until"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.member} ({self.created_at:%Y-%m-%d})"


class SeasonChances(models.Model):
    """The stored outcome of "can I still win?" (competition.simulation) for a season.

    Computed outside the request (``manage.py simulate_season``, the task queue's
    ``season_chances`` task) because the simulation pairs every simulated round with the real
    pairing engine; it is stale when the season's ``data_version`` or ``rules_version`` moved
    on since.
    """

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, related_name="chances", verbose_name=_("season")
    )
    computed_at = models.DateTimeField(_("computed at"), default=timezone.now)
    data_version = models.PositiveIntegerField(_("data version"))
    rules_version = models.PositiveIntegerField(_("rules version"))
    after_round = models.PositiveSmallIntegerField(_("after round"))
    rounds_left = models.PositiveSmallIntegerField(_("rounds left"))
    simulations = models.PositiveIntegerField(_("simulations"))
    seed = models.PositiveIntegerField(_("seed"), default=0)
    draw_rate = models.FloatField(_("draw rate"), default=0)
    # One row per participant in the standing order: participant_id, first, top_three
    # (simulations, a shared place counting its share), categories {name: count},
    # needed_for_first (observed, exact text or null); what is certain: first_place
    # ("secured", "possible", "open", "impossible"), best_place, worst_place, needs, secures
    # (game points, exact text or null).
    rows = models.JSONField(_("rows"), default=list)

    class Meta:
        verbose_name = _("chances")
        verbose_name_plural = _("chances")

    def __str__(self) -> str:
        return f"{self.season} chances after round {self.after_round}"


class SeasonChancesJob(models.Model):
    """The background work on a season's "can I still win?": what was asked and who is on it.

    Every change that can move the chances (a round completed or corrected, the rules, the
    calendar or the planned rounds) raises ``requested`` and queues a task
    (``competition.tasks.season_chances``). A worker takes the season by writing its name in
    ``claimed_by`` with one conditional UPDATE, so no season is computed by two workers at
    once whichever machines they run on; the claim lapses at ``claimed_until`` unless the
    worker renews it, so a worker that died frees the season within a minute. A task that finds
    ``computed`` already at ``requested``, or the season claimed by another worker, ends
    without computing (it was superseded): the claiming worker computes again before it lets
    go whenever ``requested`` moved on meanwhile.
    """

    season = models.OneToOneField(
        Season,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="chances_job",
        verbose_name=_("season"),
    )
    requested = models.PositiveIntegerField(_("requested"), default=0)
    computed = models.PositiveIntegerField(_("computed"), default=0)
    requested_at = models.DateTimeField(_("requested at"), null=True, blank=True)
    claimed_by = models.CharField(_("worker"), max_length=64, blank=True, default="")
    claimed_until = models.DateTimeField(_("claimed until"), null=True, blank=True)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    computations = models.PositiveIntegerField(_("computations"), default=0)
    last_error = models.TextField(_("last error"), blank=True, default="")

    class Meta:
        verbose_name = _("chances job")
        verbose_name_plural = _("chances jobs")

    def __str__(self) -> str:
        return f"{self.season}: {self.computed}/{self.requested}"

    @property
    def pending(self) -> bool:
        return self.requested > self.computed


class GroupCompetition(models.Model):
    """A competition played in groups (A the top group, then B, C ...) over periods: each group
    of a period is a :class:`Season` of its own; after a period the top ``promoted`` of each
    group go up and the bottom ``relegated`` go down (competition.scoring.groups), which gives
    the next period's groups (``competition.services.groups.groups_promote``)."""

    class ChampionRule(models.TextChoices):
        TOP_GROUP = "top_group", _("the winner of the top group of the last period")
        MOST_POINTS = "most_points", _("the most game points over all periods")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="group_competitions", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("web address"))
    periods = models.PositiveSmallIntegerField(
        _("number of periods"), default=2, validators=[MinValueValidator(1)]
    )
    rounds_per_period = models.PositiveSmallIntegerField(
        _("rounds per period"), default=3, validators=[MinValueValidator(1)]
    )
    promoted = models.PositiveSmallIntegerField(_("players going up from each group"), default=1)
    relegated = models.PositiveSmallIntegerField(_("players going down from each group"), default=1)
    champion_rule = models.CharField(
        _("club champion"), max_length=12, choices=ChampionRule, default=ChampionRule.TOP_GROUP
    )

    class Meta:
        ordering = ["club", "name"]
        verbose_name = _("group competition")
        verbose_name_plural = _("group competitions")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "slug"],
                name="group_competition_slug_unique_per_club",
                violation_error_message=_(
                    "This club already has a group competition with this web address."
                ),
            ),
            models.CheckConstraint(
                condition=Q(periods__gte=1) & Q(rounds_per_period__gte=1),
                name="group_competition_periods_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ClubRatingRules(models.Model):
    """How a club computes its club rating (docs/ratings.md): the K values, the start rating
    and which games count. A club without a row gets the defaults (FIDE's K values, 1500)."""

    class StartRating(models.TextChoices):
        IMPORTED = "imported", _("the imported rating (KNSB or FIDE) when there is one")
        FIXED = "fixed", _("the fixed start rating for everyone")

    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, related_name="rating_rules", verbose_name=_("club")
    )
    k_new_player = models.PositiveSmallIntegerField(
        _("K until 30 games"), default=40, validators=[MinValueValidator(1)]
    )
    k_standard = models.PositiveSmallIntegerField(
        _("K below 2400"), default=20, validators=[MinValueValidator(1)]
    )
    k_top = models.PositiveSmallIntegerField(
        _("K once 2400 was reached"), default=10, validators=[MinValueValidator(1)]
    )
    k_junior = models.PositiveSmallIntegerField(
        _("K for juniors below 2300"), default=40, validators=[MinValueValidator(1)]
    )
    start_rule = models.CharField(
        _("a new player starts at"),
        max_length=10,
        choices=StartRating,
        default=StartRating.IMPORTED,
    )
    start_rating = models.PositiveSmallIntegerField(
        _("fixed start rating"),
        default=1500,
        help_text=_("For everyone, or for players without an imported rating."),
    )
    rapid_counts = models.BooleanField(
        _("rapid nights and series count"),
        default=False,
        help_text=_("Seasons of several rounds per evening."),
    )
    external_counts = models.BooleanField(
        _("external team games count"),
        default=False,
        help_text=_(
            "A club duty with a result counts as a game against an opponent of the member's "
            "own rating (the club does not know the opponent's)."
        ),
    )

    class Meta:
        verbose_name = _("club rating rules")
        verbose_name_plural = _("club rating rules")
        constraints = [
            models.CheckConstraint(
                condition=Q(k_new_player__gte=1)
                & Q(k_standard__gte=1)
                & Q(k_top__gte=1)
                & Q(k_junior__gte=1),
                name="club_rating_k_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} club rating"


class ClubRatingChange(models.Model):
    """A member's club rating change for one club evening: the ledger's row, kept by
    ``competition.services.ratings.club_ratings_replay`` and never edited by hand.

    ``games`` explains the change: per game the game (or external entry) id, the season and
    round, the opponent (member id, None for an external game) and his rating before the
    evening, the rating difference, We and W as exact text.
    """

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("club")
    )
    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("member")
    )
    date = models.DateField(_("club evening"))
    rating_before = models.IntegerField(_("rating before"))
    rating_after = models.IntegerField(_("rating after"))
    # K × Σ(W − We), exact text as competition.exact writes it ("6.4"); rounded into the rating.
    change = models.CharField(_("change"), max_length=20)
    k = models.PositiveSmallIntegerField(_("K factor"))
    games_before = models.PositiveIntegerField(_("rated games before"))
    game_count = models.PositiveSmallIntegerField(_("rated games"))
    reached_top = models.BooleanField(_("2400 reached"), default=False)
    reached_junior_limit = models.BooleanField(_("2300 reached"), default=False)
    games = models.JSONField(_("games"), default=list)

    class Meta:
        ordering = ["club", "date", "member"]
        verbose_name = _("club rating change")
        verbose_name_plural = _("club rating changes")
        constraints = [
            models.UniqueConstraint(fields=["member", "date"], name="rating_change_once_a_day"),
        ]
        indexes = [models.Index(fields=["club", "date"], name="rating_change_club_date")]

    def __str__(self) -> str:
        return f"{self.member} {self.date:%Y-%m-%d}: {self.rating_before} → {self.rating_after}"
