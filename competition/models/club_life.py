"""Club evenings, absence reports, invitations, group competitions and the club rating."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competition.history import History
from competition.models.clubs import Club, Member
from competition.models.fields import optional_account, optional_text
from competition.models.seasons import Participant, Season


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
    note = optional_text(_("note"), max_length=200)

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
    note = optional_text(_("note"), max_length=200)
    reported_by = optional_account(_("reported by"))
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
    created_by = optional_account(_("made by"))
    created_at = models.DateTimeField(_("made at"), default=timezone.now)
    expires_at = models.DateTimeField(_("valid until"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.member} ({self.created_at:%Y-%m-%d})"


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
    # K × Σ(W − We), exact text as competition.scoring.exact writes it ("6.4"); rounded into
    # the rating.
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
