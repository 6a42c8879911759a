"""The club's competitions as stored: the only source of truth.

Computed standings live in :class:`StandingsSnapshot`, a cache the service layer rebuilds after
every change; it is never edited by hand and can always be thrown away.
"""

from __future__ import annotations

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
from simple_history.models import HistoricalRecords

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


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), unique=True)
    td_group = models.OneToOneField(
        "auth.Group",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="club",
        verbose_name=_("tournament directors"),
        help_text=_("Members of this group run rounds and enter results for this club."),
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
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(_("name"), max_length=120)
    knsb_id = models.CharField(
        _("KNSB relatienummer"),
        max_length=12,
        blank=True,
        default="",
        help_text=_("The member's KNSB relation number, unique within the club."),
    )
    fide_id = models.PositiveBigIntegerField(_("FIDE ID"), null=True, blank=True)
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
    feed_token = models.CharField(max_length=43, null=True, blank=True, unique=True, editable=False)
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


class Season(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("in preparation")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Kind(models.TextChoices):
        LADDER = "ladder", _("ladder (paired by standing)")
        ROUND_ROBIN = "round_robin", _("round robin (Berger tables)")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), unique=True)
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
    data_version = models.PositiveIntegerField(
        default=0, editable=False, help_text=_("Bumped by every write; keys the standings cache.")
    )

    class Meta:
        ordering = ["club", "-start_date", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
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
    def is_round_robin(self) -> bool:
        return self.kind == self.Kind.ROUND_ROBIN


class SeasonRules(models.Model):
    """A rule set as it was in force: saving new rules keeps the earlier ones and their dates."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rule_sets")
    version = models.PositiveIntegerField(_("version"))
    valid_from = models.DateTimeField(_("valid from"), default=timezone.now)
    system = models.CharField(_("ranking system"), max_length=32)
    parameters = models.JSONField(_("system parameters"), default=dict, blank=True)
    tiebreaks = models.JSONField(_("tie-breaks in order"), default=list, blank=True)
    unplayed_policy = models.CharField(max_length=20, choices=UnplayedPolicy)
    min_games = models.PositiveSmallIntegerField(default=0)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
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
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="participants")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="participations")
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
        ]

    def __str__(self) -> str:
        return self.member.name


class ForbiddenPair(models.Model):
    """Two participants the pairing keeps apart (family, carpool): set by the TD per season.

    Stored once whichever order the TD chose: ``first`` is the participant with the lower id.
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="forbidden_pairs")
    first = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+")
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

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rounds")
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
    )
    updated_at = models.DateTimeField(auto_now=True)
    # One more with every change a TD saves: a page sends the version it showed, and a change
    # made meanwhile by someone else is refused instead of overwritten.
    version = models.PositiveIntegerField(default=1, editable=False)
    history = HistoricalRecords(inherit=True)
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

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
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


class RoundEntry(RecordedByTD):
    """A participant's round without a game: absence, club duty or bye."""

    class Kind(models.TextChoices):
        ABSENT_NOTICE = ScoringEntryKind.ABSENT_NOTICE.value, _("absent with notice")
        ABSENT_NO_NOTICE = ScoringEntryKind.ABSENT_NO_NOTICE.value, _("absent without notice")
        CLUB_DUTY = ScoringEntryKind.CLUB_DUTY.value, _("club duty")
        BYE = ScoringEntryKind.BYE.value, _("bye")
        NOT_PAIRED = ScoringEntryKind.NOT_PAIRED.value, _("not paired")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="entries")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind)
    points = models.DecimalField(
        _("game points awarded"),
        max_digits=3,
        decimal_places=1,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    note = models.CharField(_("note"), max_length=200, blank=True, default="")

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

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="snapshots")
    round_number = models.PositiveSmallIntegerField()
    data_version = models.PositiveIntegerField()
    rules_version = models.PositiveIntegerField()
    rows = models.JSONField(default=list)
    computed_at = models.DateTimeField(default=timezone.now)
    # The season's standings fingerprint (competition.scoring.fingerprint, 64 hex digits) when
    # these rows were computed: the standings page shows it without reading the whole season.
    fingerprint = models.CharField(max_length=64, blank=True, default="", editable=False)

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


class ClubEvening(models.Model):
    """A planned club evening of a season: the calendar members report their absences against.

    The round played that evening is the season's round with the same date (the TD opens it
    on the evening itself); ``round_number`` is the round planned for it, as the club announces.
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="evenings")
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

    evening = models.ForeignKey(ClubEvening, on_delete=models.CASCADE, related_name="reports")
    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="absence_reports"
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
    history = HistoricalRecords()

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

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="invitations")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    email = models.EmailField(_("e-mail address"), blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.member} ({self.created_at:%Y-%m-%d})"
