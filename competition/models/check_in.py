"""Members checking in on the club evening ("Ik ben er"): one row per member who tapped it.

The window is the round's (``Round.check_in_code``, ``check_in_opened_at``,
``check_in_closed_at``): the TD opens it on tonight's planned round and closes it before the
pairing. A check-in is a record of what the member said; attendance itself stays the round's
entries (no entry: present), which the TD may still change.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competition.models.fields import optional_account
from competition.models.rounds import Round
from competition.models.seasons import Participant


class CheckIn(models.Model):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("round")
    )
    participant = models.ForeignKey(
        Participant,
        on_delete=models.CASCADE,
        related_name="check_ins",
        verbose_name=_("participant"),
    )
    checked_in_at = models.DateTimeField(_("checked in at"), default=timezone.now)
    checked_in_by = optional_account(_("checked in by"))

    class Meta:
        ordering = ["round", "checked_in_at"]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "participant"],
                name="check_in_once_per_round",
                violation_error_message=_("This player has already checked in for this round."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.participant} ({self.checked_in_at:%H:%M})"
