"""A member's phones (or browsers) that receive Web Push notices: one row per device he gave
his consent on, made by that device's browser and deleted when he withdraws it.

Private like his e-mail address: the endpoint names the browser's push service and the keys
let anyone who has them send to that device, so no public page, API answer or export shows
them; "download my data" lists his devices (without the keys) and anonymising deletes them.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competition.models.clubs import Member


class PushSubscription(models.Model):
    """One device's push subscription for one member (the browser's ``PushSubscription``:
    its endpoint and the two keys that encrypt what is sent to it).

    Its existence is the member's consent: a device is sent the pairing only while its row
    exists. A person who is a member of two clubs with one account may subscribe the same phone
    for both, so the endpoint is unique per member.
    """

    member = models.ForeignKey(
        Member,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("member"),
    )
    endpoint = models.URLField(_("push address"), max_length=1000)
    p256dh = models.CharField(_("public key of the device"), max_length=200)
    auth = models.CharField(_("secret of the device"), max_length=100)
    # The language of the page the member subscribed on: the notices are written in it.
    language = models.CharField(_("language"), max_length=10, blank=True, default="")
    created_at = models.DateTimeField(_("subscribed at"), default=timezone.now)
    last_error = models.TextField(_("last error"), blank=True, default="")
    last_error_at = models.DateTimeField(_("last error at"), null=True, blank=True)

    class Meta:
        ordering = ["member", "created_at"]
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        constraints = [
            models.UniqueConstraint(
                fields=["member", "endpoint"],
                name="push_subscription_one_per_device_and_member",
                violation_error_message=_("This device is already subscribed for this member."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} ({self.created_at:%Y-%m-%d})"
