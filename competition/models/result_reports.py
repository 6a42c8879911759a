"""Results the players enter themselves on their phones, before they are the board's result.

A report is one player's word on his own board. Whether it is saved as the board's result
depends on the season's ``result_entry`` (:class:`~competition.models.seasons.ResultEntry`):
the opponent's agreement, or the TD's confirmation. The board's result itself is only ever
written by ``competition.services.rounds.result_record``; a report never changes a game on
its own.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competition.models.rounds import Game
from competition.models.seasons import Participant

# The results a player may enter for his own board: forfeits stay the TD's.
PLAYER_RESULTS = (Game.Result.WHITE_WINS, Game.Result.DRAW, Game.Result.BLACK_WINS)


class ResultReport(models.Model):
    class Status(models.TextChoices):
        ENTERED = "entered", _("entered")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        SUPERSEDED = "superseded", _("superseded by the TD")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="reports", verbose_name=_("game")
    )
    participant = models.ForeignKey(
        Participant,
        on_delete=models.CASCADE,
        related_name="result_reports",
        verbose_name=_("reported by"),
    )
    result = models.CharField(_("result"), max_length=3, choices=Game.Result)
    reported_at = models.DateTimeField(_("reported at"), default=timezone.now)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.ENTERED)
    # Who confirmed it: the opponent, or (None, with a confirmed status) the TD.
    confirmed_by = models.ForeignKey(
        Participant,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("confirmed by"),
    )

    class Meta:
        ordering = ["game", "reported_at", "pk"]
        verbose_name = _("result report")
        verbose_name_plural = _("result reports")
        constraints = [
            # A player has one open word on his board: a second tap finds it, not a twin.
            models.UniqueConstraint(
                fields=["game", "participant"],
                condition=Q(status__in=["entered", "disputed"]),
                name="result_report_one_open_per_player",
                violation_error_message=_("This player already reported a result for this board."),
            ),
            models.CheckConstraint(
                condition=Q(result__in=["1-0", "1/2", "0-1"]),
                name="result_report_over_the_board",
                violation_error_message=_("Players enter 1-0, ½-½ or 0-1 only."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.get_result_display()} ({self.participant}, {self.status})"


# The reports still waiting for the other player or the TD (the constraint's "open": one per
# player and board).
OPEN_STATUSES = (ResultReport.Status.ENTERED, ResultReport.Status.DISPUTED)
