"""Seasons, their rules, their participants, categories and the pairs never to be paired."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competition.models.clubs import Club, Member, NameDisplay, validate_exact_number
from competition.models.fields import optional_account, optional_count, optional_text


class UnplayedPolicy(models.TextChoices):
    FIDE_2024 = "fide-2024", _("FIDE C.07 (2024): dummy opponent")
    FIDE_2026 = "fide-2026", _("FIDE C.07 (2026): capped dummy opponent")
    UNPLAYED_AS_DRAW = "unplayed-as-draw", _("Unplayed rounds count as draws")
    HALF_VALUE = "half-value", _("Unplayed points count half")
    PLAIN = "plain", _("Actual points only")


class ResultEntry(models.TextChoices):
    """Who enters a season's results on the club evening."""

    TD = "td", _("the TD only")
    PLAYERS_TD_CONFIRMS = "players_td_confirms", _("a player enters, the TD confirms")
    PLAYERS_AGREE = "players_agree", _("both players enter; their agreement confirms")


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

    class PlayerLeaves(models.TextChoices):
        """What one tap does when a player leaves before his game (a round robin: forfeit)."""

        REPAIR = "repair", _("his opponent is paired again (a waiting player, else the bye)")
        FORFEIT = "forfeit", _("his opponent wins by forfeit")

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
    result_entry = models.CharField(
        _("results entered by"),
        max_length=20,
        choices=ResultEntry,
        default=ResultEntry.TD,
        help_text=_("Whether the players enter their own results on their phones."),
    )
    evening_start = models.TimeField(
        _("evenings start at"),
        null=True,
        blank=True,
        help_text=_("Empty: at the club's time."),
    )
    max_meetings = optional_count(
        _("at most this many games between two players"), help_text=_("Empty: no limit.")
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
    player_leaves = models.CharField(
        _("when a player leaves after the pairing is published"),
        max_length=8,
        choices=PlayerLeaves,
        default=PlayerLeaves.REPAIR,
    )
    # Games on another date (competition.services.postponed): a pending game still without a
    # result this many days after its round's date gets a double forfeit; empty: no deadline.
    pending_days = models.PositiveSmallIntegerField(
        _("days to play a game on another date"),
        null=True,
        blank=True,
        help_text=_(
            "A game played later that still has no result this many days after its round "
            "is a double forfeit. Empty: no deadline."
        ),
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
    best_evenings = optional_count(
        _("best evenings that count"), help_text=_("Empty: every evening counts.")
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
    group_letter = optional_text(_("group"), max_length=1)
    group_period = models.PositiveSmallIntegerField(_("period"), null=True, blank=True)
    # How many rounds the season plans: "can I still win?" simulates the rounds after the last
    # completed one up to this number. Filled from the calendar whenever the calendar changes
    # (its last planned round); the TD sets it on the calendar page. Empty: from the calendar,
    # or a round robin's Berger cycle; otherwise unknown (no chances).
    planned_rounds = optional_count(
        _("planned rounds"),
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
    city = optional_text(_("city"), max_length=60)
    federation = optional_text(
        _("federation"),
        max_length=3,
        help_text=_("FIDE's three-letter code of the organising federation, such as NED."),
    )
    chief_arbiter = optional_text(
        _("chief arbiter"),
        max_length=80,
        help_text=_("Name and FIDE ID, such as “Jan Jansen (1012345)”."),
    )
    deputy_arbiters = models.TextField(
        _("deputy arbiters"), blank=True, default="", help_text=_("One per line.")
    )
    time_control = optional_text(
        _("time control"), max_length=80, help_text=_("Such as 90 min + 30 s per move.")
    )
    tournament_type = optional_text(
        _("type of tournament"),
        max_length=60,
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
    changed_by = optional_account(_("changed by"))

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
    # Exact text, as competition.scoring.exact writes it: "199", "199.831776" or "1356/7". Start
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
    withdrawn_from_round = optional_count(_("withdrawn from round"))
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
    note = optional_text(_("note"), max_length=200)

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
