"""Reads for groups with promotion and relegation: the group competition's public
page (every group's standings per period, who goes up or down, the club champion) in a constant
number of queries, and the line on a group season's participant page.

The standings are the group seasons' own cached standings (``StandingsSnapshot``: the real
engine on the group's games of the period); the moves follow competition.scoring.groups.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from competition.models import Club, GroupCompetition, Participant, Round, Season, StandingsSnapshot
from competition.scoring import groups as group_rules
from competition.scoring.exact import fraction_from_text
from competition.selectors.common import public_names_of


@dataclass(frozen=True)
class GroupRow:
    participant_id: int
    rank: int
    name: str
    score: Fraction
    game_points: Fraction
    move: str  # competition.scoring.groups UP / DOWN / STAY; "" in the last period


@dataclass(frozen=True)
class GroupTable:
    season: Season
    letter: str
    completed_rounds: int
    rows: list[GroupRow]


@dataclass(frozen=True)
class PeriodTables:
    number: int
    groups: list[GroupTable]
    complete: bool  # every group has completed the period's rounds
    promoted: bool  # the next period's groups exist: the moves happened
    last: bool  # the competition's last period: nobody moves after it


@dataclass(frozen=True)
class Champion:
    name: str
    season: Season
    participant_id: int
    game_points: Fraction | None  # the total over all periods (rule most_points)


@dataclass(frozen=True)
class GroupCompetitionPage:
    competition: GroupCompetition
    periods: list[PeriodTables]
    champion: Champion | None  # None until the last period is complete
    group_count: int


def group_competitions_listed(*, club: Club) -> list[GroupCompetition]:
    """The club's group competitions, for its home page (one query): a finished one keeps its
    champion to show."""
    return list(GroupCompetition.objects.filter(club=club).select_related("club").order_by("name"))


def latest_rows(*, seasons: Iterable[Season]) -> dict[int, list[dict[str, Any]]]:
    """Each season's rows in its latest standings, by season id (one query)."""
    latest: dict[int, list[dict[str, Any]]] = {}
    for snapshot in StandingsSnapshot.objects.filter(season__in=seasons).order_by("round_number"):
        latest[snapshot.season_id] = snapshot.rows
    return latest


def players_in_start_order(*, seasons: Iterable[Season]) -> list[tuple[int, int, int]]:
    """(participant id, season id, member id) of the seasons' players by start number, then
    name (one query)."""
    return list(
        Participant.objects.filter(season__in=seasons)
        .order_by("start_rank", "member__name")
        .values_list("id", "season_id", "member_id")
    )


def _rows_with_unranked(
    season: Season,
    latest: Mapping[int, list[dict[str, Any]]],
    players: Sequence[tuple[int, int, int]],
) -> list[dict[str, Any]]:
    """The season's latest standings rows, then its players without a standing yet."""
    rows = latest.get(season.pk, [])
    ranked = {row["participant_id"] for row in rows}
    return rows + [
        {"participant_id": pid, "rank": len(rows) + 1, "score": "0", "game_points": "0"}
        for pid, sid, _mid in players
        if sid == season.pk and pid not in ranked
    ]


def _group_table(
    season: Season,
    rows: list[dict[str, Any]],
    completed_rounds: int,
    names: Mapping[int, str],
    moves: Mapping[int, str],
) -> GroupTable:
    return GroupTable(
        season=season,
        letter=season.group_letter,
        completed_rounds=completed_rounds,
        rows=[
            GroupRow(
                participant_id=row["participant_id"],
                rank=row["rank"],
                name=names.get(row["participant_id"], "?"),
                score=fraction_from_text(row["score"]),
                game_points=fraction_from_text(row["game_points"]),
                move=moves.get(row["participant_id"], ""),
            )
            for row in rows
        ],
    )


def group_competition_page(*, competition: GroupCompetition) -> GroupCompetitionPage:
    """Every period's groups with their standings and moves, and the club champion once the
    last period is complete; four queries whatever the number of groups and players."""
    seasons = list(
        Season.objects.filter(group_competition=competition)
        .annotate(completed=Count("rounds", filter=Q(rounds__status=Round.Status.COMPLETED)))
        .order_by("group_period", "group_letter")
    )
    latest = latest_rows(seasons=seasons)
    participants = players_in_start_order(seasons=seasons)
    names = public_names_of(participant_ids=[pid for pid, _sid, _mid in participants])
    member_of = {pid: member_id for pid, _sid, member_id in participants}
    completed = {group_season.pk: group_season.completed for group_season in seasons}
    by_period: dict[int, list[Season]] = defaultdict(list)
    for group_season in seasons:
        by_period[group_season.group_period or 1].append(group_season)
    periods = []
    points: dict[int, Fraction] = defaultdict(Fraction)
    for number, period_seasons in sorted(by_period.items()):
        tables = [
            (season, _rows_with_unranked(season, latest, participants)) for season in period_seasons
        ]
        for _season, rows in tables:
            for row in rows:
                points[member_of[row["participant_id"]]] += fraction_from_text(row["game_points"])
        last = number >= competition.periods
        standings = [
            group_rules.GroupStanding(
                season.group_letter, tuple(row["participant_id"] for row in rows)
            )
            for season, rows in tables
        ]
        moves = (
            {}
            if last
            else group_rules.movements(
                standings, promoted=competition.promoted, relegated=competition.relegated
            )
        )
        groups = [
            _group_table(season, rows, completed[season.pk], names, moves)
            for season, rows in tables
        ]
        periods.append(
            PeriodTables(
                number=number,
                groups=groups,
                complete=all(g.completed_rounds >= competition.rounds_per_period for g in groups),
                promoted=number + 1 in by_period,
                last=last,
            )
        )
    return GroupCompetitionPage(
        competition=competition,
        periods=periods,
        champion=_champion(competition, periods, points, member_of),
        group_count=len(periods[0].groups) if periods else 0,
    )


def _champion(
    competition: GroupCompetition,
    periods: list[PeriodTables],
    points: dict[int, Fraction],
    member_of: dict[int, int],
) -> Champion | None:
    if not periods or not periods[-1].last or not periods[-1].complete:
        return None
    final = periods[-1]
    standings = [
        group_rules.GroupStanding(g.letter, tuple(member_of[r.participant_id] for r in g.rows))
        for g in final.groups
    ]
    winner = group_rules.champion(competition.champion_rule, standings, points)
    for group in final.groups:
        for row in group.rows:
            if member_of[row.participant_id] == winner:
                most = competition.champion_rule == group_rules.MOST_POINTS
                return Champion(
                    name=row.name,
                    season=group.season,
                    participant_id=row.participant_id,
                    game_points=points[winner] if most else None,
                )
    return None


def place_text(*, place: int) -> str:
    """A place as a reader says it: 1st, 2nd, 3rd, 4th (Dutch: 1e, 2e ...)."""
    if (get_language() or "nl").startswith("nl"):
        return f"{place}e"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place % 10 if place % 100 not in (11, 12, 13) else 0)
    return f"{place}{suffix or 'th'}"


def participant_group_line(*, season: Season, participant_id: int) -> str | None:
    """For a group season: "Group B, period 1: 2nd, promoted to group A" (once the next
    period's groups exist; before that the place and, in a promotion or relegation place, the
    move it would give). ``None`` for a season not played in groups (no query then)."""
    if season.group_competition_id is None:
        return None
    competition = season.group_competition
    assert competition is not None
    snapshot = StandingsSnapshot.objects.filter(season=season).order_by("-round_number").first()
    rows = snapshot.rows if snapshot else []
    place = next((r["rank"] for r in rows if r["participant_id"] == participant_id), None)
    period = season.group_period or 1
    head = _("Group %(group)s, period %(period)s") % {
        "group": season.group_letter,
        "period": period,
    }
    if place is not None:
        head = f"{head}: {place_text(place=place)}"
    member_id = (
        Participant.objects.filter(pk=participant_id).values_list("member_id", flat=True).first()
    )
    if member_id is None:
        return head
    following = (
        Season.objects.filter(
            group_competition=competition,
            group_period=period + 1,
            participants__member_id=member_id,
        )
        .values_list("group_letter", flat=True)
        .first()
    )
    if following is not None:
        if following < season.group_letter:
            return _("%(head)s, promoted to group %(group)s") % {"head": head, "group": following}
        if following > season.group_letter:
            return _("%(head)s, relegated to group %(group)s") % {"head": head, "group": following}
        return _("%(head)s, stays in group %(group)s") % {"head": head, "group": following}
    if place is None or period >= competition.periods:
        return head
    letters = list(
        Season.objects.filter(group_competition=competition, group_period=period)
        .order_by("group_letter")
        .values_list("group_letter", flat=True)
    )
    index = letters.index(season.group_letter)
    position = [r["participant_id"] for r in rows].index(participant_id)
    if index > 0 and position < competition.promoted:
        return _("%(head)s, a promotion place") % {"head": head}
    if index < len(letters) - 1 and position >= len(rows) - competition.relegated:
        return _("%(head)s, a relegation place") % {"head": head}
    return head
