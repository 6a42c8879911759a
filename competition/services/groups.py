"""Groups with promotion and relegation: a group competition's writes.

Each group of a period is a :class:`Season` of its own (``group_competition``, ``group_letter``,
``group_period``), so the TD's evening, the pairing, the results and the standings are those of
any season; the TD runs the groups of one evening together (``round_create(seasons=...)``).
After a period, :func:`groups_promote` moves the players (competition.scoring.groups) and
creates the next period's group seasons in one transaction; :func:`groups_promotion_preview`
shows what it would do. Both refuse while a group has not completed the period's rounds.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _

from competition.models import (
    Club,
    GroupCompetition,
    Member,
    Participant,
    Round,
    Season,
    StandingsSnapshot,
)
from competition.scoring import groups as group_rules
from competition.services.errors import ServiceError
from competition.services.standings import seasons_touch

# What a period's group season takes over from the season it follows (same letter, the period
# before): the system and its settings, so a club sets them once.
COPIED_FIELDS = (
    "kind",
    "system",
    "parameters",
    "tiebreaks",
    "unplayed_policy",
    "min_games",
    "bye_points",
    "rematch_window",
    "name_display",
    "junior_birth_year",
    "absence_deadline",
    "requested_byes",
    "evening_start",
    "result_entry",
)


def group_season_name(competition: GroupCompetition, letter: str, period: int) -> str:
    return _("%(name)s, group %(group)s, period %(period)s") % {
        "name": competition.name,
        "group": letter,
        "period": period,
    }


def _group_season(
    competition: GroupCompetition,
    letter: str,
    period: int,
    members: Sequence[Member],
    fields: Mapping[str, Any],
    start_date: datetime.date | None,
) -> Season:
    season = Season.objects.create(
        club=competition.club,
        name=group_season_name(competition, letter, period),
        slug=f"{competition.slug}-{letter.lower()}{period}",
        start_date=start_date,
        group_competition=competition,
        group_letter=letter,
        group_period=period,
        **fields,
    )
    Participant.objects.bulk_create(
        Participant(season=season, member=member, start_rank=rank, rating=member.rating)
        for rank, member in enumerate(members, start=1)
    )
    return season


def _check_settings(
    sizes: Sequence[int], *, periods: int, rounds_per_period: int, promoted: int, relegated: int
) -> None:
    if not 2 <= len(sizes) <= len(group_rules.LETTERS):
        raise ServiceError(
            _("A group competition has 2 to %(most)s groups.") % {"most": len(group_rules.LETTERS)}
        )
    if min(sizes) < 2:
        raise ServiceError(_("Every group needs at least two players."))
    if periods < 1 or rounds_per_period < 1:
        raise ServiceError(_("A group competition has at least one period of one round."))
    if promoted < 0 or relegated < 0:
        raise ServiceError(_("The number of players going up or down cannot be negative."))
    too_small = group_rules.check_moves(sizes, promoted=promoted, relegated=relegated)
    if too_small is not None:
        raise ServiceError(
            _("Group %(group)s has fewer players than would move up and down.")
            % {"group": group_rules.LETTERS[too_small]}
        )


@transaction.atomic
def group_competition_create(
    *,
    club: Club,
    name: str,
    slug: str,
    groups: Sequence[Sequence[Member]],
    season_fields: Mapping[str, Any] | None = None,
    periods: int = 2,
    rounds_per_period: int = 3,
    promoted: int = 1,
    relegated: int = 1,
    champion_rule: str = GroupCompetition.ChampionRule.TOP_GROUP,
    start_date: datetime.date | None = None,
) -> GroupCompetition:
    """A group competition with the first period's group seasons: ``groups`` from the top
    group (A) down, each in its start order. ``season_fields`` (the system, its parameters,
    tie-breaks ...) go to every group season, and later periods copy them."""
    _check_settings(
        [len(members) for members in groups],
        periods=periods,
        rounds_per_period=rounds_per_period,
        promoted=promoted,
        relegated=relegated,
    )
    if champion_rule not in GroupCompetition.ChampionRule.values:
        raise ServiceError(_("Choose a rule for the club champion."))
    competition = GroupCompetition.objects.create(
        club=club,
        name=name,
        slug=slug,
        periods=periods,
        rounds_per_period=rounds_per_period,
        promoted=promoted,
        relegated=relegated,
        champion_rule=champion_rule,
    )
    fields = dict(season_fields or {})
    for letter, members in zip(group_rules.LETTERS, groups, strict=False):
        _group_season(competition, letter, 1, members, fields, start_date)
    return competition


# --------------------------------------------------------------------------------------------
# After a period: who moves where


@dataclass(frozen=True)
class PeriodGroup:
    """One group of a period with its players in standings order (member ids)."""

    season: Season
    standing: group_rules.GroupStanding
    completed_rounds: int


def current_period(competition: GroupCompetition) -> int:
    return (
        Season.objects.filter(group_competition=competition)
        .order_by("-group_period")
        .values_list("group_period", flat=True)
        .first()
        or 1
    )


def period_groups(competition: GroupCompetition, period: int) -> list[PeriodGroup]:
    """The groups of ``period`` from the top, each in the order of its latest standings
    (the engine's order; players without a completed round follow by start number)."""
    seasons = list(
        Season.objects.filter(group_competition=competition, group_period=period)
        .annotate(
            completed=Count("rounds", filter=Q(rounds__status=Round.Status.COMPLETED)),
        )
        .order_by("group_letter")
    )
    latest: dict[int, list[dict[str, Any]]] = {}
    for snapshot in StandingsSnapshot.objects.filter(season__in=seasons).order_by("round_number"):
        latest[snapshot.season_id] = snapshot.rows
    participants = list(
        Participant.objects.filter(season__in=seasons)
        .order_by("start_rank", "member__name")
        .values_list("id", "season_id", "member_id")
    )
    member_of = {pid: member_id for pid, _season, member_id in participants}
    groups = []
    for season in seasons:
        ranked = [member_of[row["participant_id"]] for row in latest.get(season.pk, [])]
        unranked = [m for _p, sid, m in participants if sid == season.pk and m not in ranked]
        groups.append(
            PeriodGroup(
                season=season,
                standing=group_rules.GroupStanding(season.group_letter, tuple(ranked + unranked)),
                completed_rounds=season.completed,
            )
        )
    return groups


def _require_promotable(competition: GroupCompetition, groups: Sequence[PeriodGroup]) -> None:
    if not groups:
        raise ServiceError(_("This competition has no groups yet."))
    period = groups[0].season.group_period
    if period is not None and period >= competition.periods:
        raise ServiceError(
            _("Period %(period)s is the last one: nobody goes up or down after it.")
            % {"period": period}
        )
    for group in groups:
        open_round = group.season.rounds.exclude(status=Round.Status.COMPLETED).exists()
        if group.completed_rounds < competition.rounds_per_period or open_round:
            raise ServiceError(
                _(
                    "Group %(group)s has completed %(done)s of the %(rounds)s rounds of period "
                    "%(period)s: promote when every group has played them."
                )
                % {
                    "group": group.season.group_letter,
                    "done": group.completed_rounds,
                    "rounds": competition.rounds_per_period,
                    "period": period,
                }
            )


@dataclass(frozen=True)
class PromotionPreview:
    """What :func:`groups_promote` will do: each player's move and the next groups."""

    period: int
    groups: list[PeriodGroup]
    moves: dict[int, str]  # member id -> up / down / stay
    next_groups: tuple[group_rules.GroupStanding, ...]
    names: dict[int, str]  # member id -> name


def groups_promotion_preview(*, competition: GroupCompetition) -> PromotionPreview:
    """The moves after the current period; refuses (ServiceError) as :func:`groups_promote`."""
    period = current_period(competition)
    groups = period_groups(competition, period)
    _require_promotable(competition, groups)
    standings = [group.standing for group in groups]
    names = dict(
        Member.objects.filter(
            pk__in=[player for standing in standings for player in standing.players]
        ).values_list("pk", "name")
    )
    return PromotionPreview(
        period=period,
        groups=groups,
        moves=group_rules.movements(
            standings, promoted=competition.promoted, relegated=competition.relegated
        ),
        next_groups=group_rules.next_groups(
            standings, promoted=competition.promoted, relegated=competition.relegated
        ),
        names=names,
    )


@transaction.atomic
def groups_promote(
    *, competition: GroupCompetition, start_date: datetime.date | None = None
) -> list[Season]:
    """End the current period: its group seasons are finished and the next period's are
    created with the moved players (in the start order of competition.scoring.groups), each
    with the settings of the same group's season of the period before. All or nothing."""
    competition = GroupCompetition.objects.select_for_update().get(pk=competition.pk)
    preview = groups_promotion_preview(competition=competition)
    members = Member.objects.in_bulk(preview.names)
    created = []
    for group, standing in zip(preview.groups, preview.next_groups, strict=True):
        fields = {name: getattr(group.season, name) for name in COPIED_FIELDS}
        created.append(
            _group_season(
                competition,
                standing.letter,
                preview.period + 1,
                [members[player] for player in standing.players],
                fields,
                start_date,
            )
        )
    ended = [group.season for group in preview.groups]
    Season.objects.filter(pk__in=[season.pk for season in ended]).update(
        status=Season.Status.FINISHED
    )
    # their participant pages now say where each player went: rebuild their cached pages
    seasons_touch(seasons=ended)
    return created
