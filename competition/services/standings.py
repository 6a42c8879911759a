"""Standings: database rows in, engine out, cached per round in ``StandingsSnapshot``.

``standings_recompute`` is called by every service that changes a season (inside its
transaction), so the cache is never stale; pages only read it. The engine's input comes from
``selectors.common.season_input``, which explanations and previews read too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Now
from django.utils import timezone

from competition.models import Season, StandingsSnapshot
from competition.scoring import model as scoring
from competition.scoring.engine import standings_after, standings_history
from competition.scoring.exact import fraction_from_text, fraction_to_text
from competition.scoring.fingerprint import season_fingerprint
from competition.selectors.common import season_input
from competition.services.chances_queue import chances_request
from competition.services.explanations import explanations_request


def row_to_json(row: scoring.StandingRow) -> dict[str, Any]:
    return {
        "participant_id": row.participant_id,
        "rank": row.rank,
        "score": fraction_to_text(row.score),
        "game_points": fraction_to_text(row.game_points),
        "values": {code: fraction_to_text(value) for code, value in row.values.items()},
        "games": row.games_played,
        "eligible": row.eligible,
    }


@transaction.atomic
def standings_recompute(*, season: Season, from_round: int = 1) -> None:
    """Rebuild the cached standings after every completed round of ``season``.

    Bumps the season's ``data_version`` so anything keyed on it (page caches) is refreshed,
    and asks for the season's "can I still win?" and its participants' pages anew (queued
    when the transaction commits; the pages stored with the old snapshots go with them).

    ``from_round`` is the first round whose standings the change can move: the round just
    completed, the round of a corrected result (1, the default: any change, every round). Only
    the rounds from it on are computed and written. The snapshots before it keep their rows:
    their data and rules versions, the fingerprint and the time follow in one UPDATE, so they
    read exactly as a rebuild of every round would have written them, and closing a round
    writes two snapshots whatever the length of the season. The one just before
    ``from_round`` is written anew with the rows it had (a new row): it was the latest until
    now, and the participants' pages the worker stored with it, or is storing
    (competition.services.explanations), must go with it. When the snapshots before
    ``from_round`` are not all there under today's rules, every round is written.
    """
    Season.objects.filter(pk=season.pk).update(data_version=F("data_version") + 1, changed_at=Now())
    season.refresh_from_db(fields=["data_version", "rules_version"])
    season_in = season_input(season=season)
    fingerprint = season_fingerprint(season_in)
    now = timezone.now()
    last = len(season_in.rounds)
    first = min(max(1, from_round), last + 1)
    rows: dict[int, list[dict[str, Any]]] = {}  # round -> the rows to write
    if first > 1:
        own_rules = StandingsSnapshot.objects.filter(
            season=season, rules_version=season.rules_version
        )
        kept = own_rules.filter(round_number__lt=first - 1).update(
            data_version=season.data_version, fingerprint=fingerprint, computed_at=now
        )
        carried = (
            own_rules.filter(round_number=first - 1)
            .order_by("pk")  # not the default ordering: it joins the season and the club
            .values_list("rows", flat=True)
            .first()
        )
        if kept == first - 2 and carried is not None:
            rows[first - 1] = carried
        else:
            first = 1  # a round's snapshot missing, or under other rules: every round anew
    if first == 1:
        computed: Iterable[scoring.RoundStandings] = standings_history(season_in).history
    elif first == last:
        computed = (standings_after(season_in, last),)  # a round closed: that round alone
    else:
        computed = standings_history(season_in).history[first - 1 :]
    rows |= {
        standings.round_number: [row_to_json(r) for r in standings.rows] for standings in computed
    }
    replaced = StandingsSnapshot.objects.filter(season=season)
    if first > 1:
        replaced = replaced.filter(round_number__gte=first - 1)
    replaced.delete()
    StandingsSnapshot.objects.bulk_create(
        StandingsSnapshot(
            season=season,
            round_number=number,
            data_version=season.data_version,
            rules_version=season.rules_version,
            rows=round_rows,
            computed_at=now,
            fingerprint=fingerprint,
        )
        for number, round_rows in sorted(rows.items())
    )
    chances_request(season=season)
    explanations_request(season=season)


def seasons_touch(*, seasons: Iterable[Season]) -> None:
    """Mark ``seasons`` changed without new results (a renamed member, club or season), so
    every page cached under their ``data_version`` is rebuilt; the stored fingerprint follows
    (it covers the participants' names)."""
    ids = {season.pk for season in seasons}
    Season.objects.filter(pk__in=ids).update(data_version=F("data_version") + 1, changed_at=Now())
    for season in Season.objects.filter(pk__in=ids, snapshots__isnull=False).distinct():
        fingerprint = season_fingerprint(season_input(season=season))
        StandingsSnapshot.objects.filter(season=season).exclude(fingerprint=fingerprint).update(
            fingerprint=fingerprint
        )


# --------------------------------------------------------------------------------------------
# Verification: the stored standings against a fresh computation (manage.py verify_standings)


@dataclass(frozen=True)
class StandingsVerification:
    """The outcome of :func:`standings_verify`: the fingerprint of the season's data and rules
    (64 hex digits), the rounds compared and the first difference found (``None``: none)."""

    fingerprint: str
    rounds: tuple[int, ...]
    participants: int
    difference: str | None


_NUMBER_FIELDS = ("score", "game_points")


def _same_number(stored: object, computed: str) -> bool:
    try:
        return fraction_from_text(str(stored)) == fraction_from_text(computed)
    except (ValueError, ZeroDivisionError):
        return False


def _row_difference(stored: Mapping[str, Any], computed: Mapping[str, Any]) -> str | None:
    """The first field in which a stored row differs from the computed one, as
    ``"field SB: stored 12.5, computed 12"``."""
    for key in ("rank", "score", "game_points", "values", "games", "eligible"):
        if key not in stored:
            return f"field {key}: missing from the stored row"
        if key == "values":
            stored_values = stored["values"] if isinstance(stored["values"], Mapping) else {}
            for code, value in computed["values"].items():
                if code not in stored_values:
                    return f"field {code}: missing from the stored row (computed {value})"
                if not _same_number(stored_values[code], value):
                    return f"field {code}: stored {stored_values[code]}, computed {value}"
            for code in stored_values:
                if code not in computed["values"]:
                    return f"field {code}: stored {stored_values[code]}, not computed"
        elif key in _NUMBER_FIELDS:
            if not _same_number(stored[key], computed[key]):
                return f"field {key}: stored {stored[key]}, computed {computed[key]}"
        elif stored[key] != computed[key]:
            return f"field {key}: stored {stored[key]!r}, computed {computed[key]!r}"
    return None


def standings_verify(*, season: Season) -> StandingsVerification:
    """Compare every stored ``StandingsSnapshot`` of ``season`` with the standings computed
    afresh from its rows, and give the fingerprint of the data and rules they come from.

    The first difference is named by round, participant and field: a snapshot missing or left
    over, written under another rules version, a participant missing or extra, a figure that
    differs, or the same rows in another order.
    """
    season_in = season_input(season=season)
    fingerprint = season_fingerprint(season_in)
    names = {
        p.id: p.name if p.start_rank is None else f"{p.name} (start number {p.start_rank})"
        for p in season_in.participants
    }
    computed = {
        standings.round_number: [row_to_json(row) for row in standings.rows]
        for standings in standings_history(season_in).history
    }
    stored = {snap.round_number: snap for snap in StandingsSnapshot.objects.filter(season=season)}
    rounds = tuple(sorted(set(computed) | set(stored)))

    def outcome(difference: str | None) -> StandingsVerification:
        return StandingsVerification(fingerprint, rounds, len(season_in.participants), difference)

    for number in rounds:
        if number not in stored:
            return outcome(f"round {number}: no stored standings (the round is completed)")
        if number not in computed:
            return outcome(f"round {number}: stored standings, but the round is not completed")
        snapshot = stored[number]
        if snapshot.rules_version != season.rules_version:
            return outcome(
                f"round {number}: stored under rules version {snapshot.rules_version}, "
                f"the season's rules are version {season.rules_version}"
            )
        rows = snapshot.rows if isinstance(snapshot.rows, list) else []
        by_participant = {
            row.get("participant_id"): row for row in rows if isinstance(row, Mapping)
        }
        for row in computed[number]:
            pid = row["participant_id"]
            where = f"round {number}, participant {names.get(pid, pid)}"
            if pid not in by_participant:
                return outcome(f"{where}: missing from the stored standings")
            difference = _row_difference(by_participant[pid], row)
            if difference is not None:
                return outcome(f"{where}, {difference}")
        if len(rows) != len(computed[number]):
            return outcome(
                f"round {number}: {len(rows)} stored rows for "
                f"{len(computed[number])} participants in the standings"
            )
        order: list[Any] = [
            row.get("participant_id") if isinstance(row, Mapping) else None for row in rows
        ]
        expected = [row["participant_id"] for row in computed[number]]
        if order != expected:
            place = next(i for i, (a, b) in enumerate(zip(order, expected, strict=True)) if a != b)
            stored_name = names.get(order[place], order[place])
            return outcome(
                f"round {number}, place {place + 1}: stored {stored_name}, "
                f"computed {names[expected[place]]} (same figures, another order)"
            )
    # Every figure agrees; the fingerprint stored with them must be today's too (snapshots
    # computed before fingerprints were stored, migration 0008, carry none).
    for number in rounds:
        stored_fingerprint = stored[number].fingerprint
        if stored_fingerprint and stored_fingerprint != fingerprint:
            return outcome(
                f"round {number}: stored under fingerprint {stored_fingerprint}, "
                f"the season's data and rules give {fingerprint}"
            )
    return outcome(None)
