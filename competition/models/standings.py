"""Computed standings and chances: caches the service layer rebuilds, never edited by hand."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competition.models.fields import optional_text
from competition.models.seasons import Season


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
    claimed_by = optional_text(_("worker"), max_length=64)
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
