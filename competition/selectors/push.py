"""Reads for the member's push settings: how many devices each of his members has subscribed.

The subscriptions themselves (endpoints, keys) are read only by the service that sends
(competition.services.push); no page shows them.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count

from competition.models import PushSubscription


def push_device_counts(*, member_ids: Iterable[int]) -> dict[int, int]:
    """Per member id, the number of devices subscribed to his push notices (0 for none), in
    one query.

    >>> push_device_counts(member_ids=[])
    {}
    """
    ids = list(member_ids)
    if not ids:
        return {}
    counts = dict(
        PushSubscription.objects.filter(member_id__in=ids)
        .values("member_id")
        .annotate(devices=Count("pk"))
        .values_list("member_id", "devices")
    )
    return {member_id: counts.get(member_id, 0) for member_id in ids}
