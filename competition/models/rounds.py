"""Rounds and what happened in them: games, byes, absences and other entries the TD records."""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competition.history import History
from competition.models.fields import optional_account, optional_text
from competition.models.seasons import Participant, Season
from competition.scoring.model import EntryKind as ScoringEntryKind
from competition.scoring.model import Result as ScoringResult


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
    # Members check in themselves (competition.services.check_in): the short code of the link
    # the TD shows (kept after closing, so the link says "closed" instead of "not found"), and
    # the window: open from ``check_in_opened_at`` until ``check_in_closed_at``.
    check_in_code = models.CharField(
        _("check-in code"), max_length=8, null=True, blank=True, unique=True, editable=False
    )
    check_in_opened_at = models.DateTimeField(
        _("check-in opened at"), null=True, blank=True, editable=False
    )
    check_in_closed_at = models.DateTimeField(
        _("check-in closed at"), null=True, blank=True, editable=False
    )

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

    @property
    def check_in_is_open(self) -> bool:
        """Members may check in: the TD opened the window, has not closed it, and the pairing is
        not published yet."""
        return (
            self.is_planned
            and self.check_in_opened_at is not None
            and self.check_in_closed_at is None
        )


class RecordedByTD(models.Model):
    """What a TD records on an evening (a board's game, a round without a game): who last
    changed it and when, whether the TD fixed it by hand, and its full history of changes."""

    # Set by the TD on a draft board or a bye, so re-running the pairing engine "on the rest"
    # keeps it.
    fixed_by_td = models.BooleanField(_("fixed by the TD"), default=False)
    updated_by = optional_account(_("last changed by"), editable=False)
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
    # A game played on another date than its round's evening (in advance or postponed: an
    # "inhaalpartij"); empty: on the evening. Without a result it is pending
    # (competition.services.postponed): the round can be closed without it.
    played_on = models.DateField(_("played on another date"), null=True, blank=True)

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

    @property
    def is_pending(self) -> bool:
        """Played on another date and still without a result."""
        return self.played_on is not None and self.result == Game.Result.NOT_PLAYED


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
    note = optional_text(_("note"), max_length=200)
    # An absence recorded because he left after the pairing was published: the board he left
    # (services.evening.player_leaves; the TD's pairing page says what happened).
    left_board = models.PositiveSmallIntegerField(_("left board"), null=True, blank=True)
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
