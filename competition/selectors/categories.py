"""Reads for categories, prizes and periods: the category pages, the period pages,
the prizes on a participant's page and the exports of both.

A category's ranking is the stored standings (``StandingsSnapshot``) filtered and renumbered
(:mod:`competition.scoring.categories`); nothing is computed again. A period's ranking runs the
engine on the season's input restricted to the period's rounds. Every read takes a constant
number of queries, whatever the season's size.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils.text import slugify
from django.utils.translation import gettext as _

from competition.models import Category, Participant, Season, StandingsSnapshot
from competition.scoring import categories as rules
from competition.scoring import engine
from competition.scoring.exact import fraction_from_text, written_decimal
from competition.scoring.fingerprint import short_form
from competition.scoring.model import SeasonInput, StandingRow
from competition.scoring.registry import get_system
from competition.selectors.common import (
    public_names,
    season_input_with_public_names,
    season_tiebreak_codes,
)
from competition.selectors.standings import SeasonStandingsPage, standings_entry
from competition.selectors.standings import _standings_page as standings_page

__all__ = [
    "CategoryPage",
    "PeriodPage",
    "category_description",
    "category_document",
    "category_links",
    "category_page",
    "participant_prizes",
    "period_document",
    "period_page",
    "season_periods",
]


def category_rule(*, category: Category, chosen: Sequence[int] = ()) -> rules.CategoryRule:
    """The stored category as the pure rules take it."""
    return rules.CategoryRule(
        kind=category.kind,
        rating_from=category.rating_from,
        rating_below=category.rating_below,
        unrated=category.unrated,
        born_from=category.born_from,
        born_to=category.born_to,
        chosen=frozenset(chosen),
        prizes=category.prizes,
        most_improved=category.most_improved,
    )


def category_description(*, category: Category) -> str:
    """Who is in the category, in words: "Rating 1700 or more", "Born 2008 to 2014"."""
    kind = category.kind
    if kind == Category.Kind.RATING:
        low, high = category.rating_from, category.rating_below
        if low is not None and high is not None:
            said = _("Rating from %(low)s to below %(high)s") % {"low": low, "high": high}
        elif low is not None:
            said = _("Rating %(low)s or more") % {"low": low}
        elif high is not None:
            said = _("Rating below %(high)s") % {"high": high}
        else:
            said = _("Every rated player")
        if category.unrated:
            said += _(", and unrated players")
        return said
    if kind == Category.Kind.AGE:
        first, last = category.born_from, category.born_to
        if first is not None and last is not None:
            return _("Born from %(first)s to %(last)s") % {"first": first, "last": last}
        if first is not None:
            return _("Born in %(first)s or later") % {"first": first}
        if last is not None:
            return _("Born in %(last)s or earlier") % {"last": last}
        return _("Every player with a known birth year")
    if kind == Category.Kind.NEWCOMERS:
        return _("Players who did not take part in the club's previous season")
    return _("Players chosen by the tournament director")


def prizes_description(*, category: Category) -> str:
    """What the category awards, in words."""
    parts = []
    if category.prizes == 1:
        parts.append(_("a prize for the first place"))
    elif category.prizes:
        parts.append(_("prizes for places 1 to %(n)s") % {"n": category.prizes})
    if category.most_improved:
        parts.append(_("a prize for the most improved player"))
    if not parts:
        return _("No prizes.")
    return " · ".join(parts)


@dataclass(frozen=True)
class CategoryLink:
    category_id: int
    name: str


def category_links(*, season: Season) -> list[CategoryLink]:
    """The season's categories in order, for the links on the standings page (one query; none
    for a season without categories)."""
    if not season.category_count:
        return []
    return [
        CategoryLink(pk, name)
        for pk, name in Category.objects.filter(season=season).values_list("pk", "name")
    ]


@dataclass(frozen=True)
class CategoryExplained:
    category_id: int
    name: str
    description: str
    prizes: str


def season_categories(*, season: Season) -> list[Category]:
    """The season's categories in their order, each with its hand-picked players."""
    return list(Category.objects.filter(season=season).prefetch_related("chosen"))


def categories_explained(*, season: Season) -> dict[str, Any]:
    """The season's categories in words, with its periods, for "how it works" (one query)."""
    categories = list(Category.objects.filter(season=season)) if season.category_count else []
    return {
        "categories": [
            CategoryExplained(
                c.pk, c.name, category_description(category=c), prizes_description(category=c)
            )
            for c in categories
        ],
        "most_improved": any(c.most_improved for c in categories),
        "periods": season_periods(season=season),
    }


def season_periods(*, season: Season) -> tuple[rules.Period, ...]:
    """The season's periods (no query: the season holds their ends)."""
    return rules.periods_of(int(end) for end in season.period_ends or ())


# --------------------------------------------------------------------------------------------
# Categories


@dataclass(frozen=True)
class _Awards:
    after_round: int | None
    categories: list[Category]
    rows: list[list[rules.CategoryRow]]  # per category, its rows with prizes
    snapshot: dict[int, Mapping[str, Any]]  # participant id -> the stored standings row
    start_ranks: dict[int, int | None] = field(default_factory=dict)
    fingerprint: str = ""  # the snapshot's full standings fingerprint


def _newcomers(season: Season) -> set[int]:
    """Participant ids of members who did not play the club's previous season (the club's
    season with the latest start date before this one's); none without such a season."""
    if season.start_date is None:
        return set()
    previous = (
        Season.objects.filter(club_id=season.club_id, start_date__lt=season.start_date)
        .exclude(pk=season.pk)
        .order_by("-start_date", "-pk")
        .values("pk")[:1]
    )
    rows = list(
        Participant.objects.filter(season=season)
        .annotate(
            earlier=Subquery(
                Participant.objects.filter(
                    season=Subquery(previous), member_id=OuterRef("member_id")
                ).values("pk")[:1]
            ),
            previous_season=Subquery(previous),
        )
        .values_list("pk", "earlier", "previous_season")
    )
    if not rows or rows[0][2] is None:
        return set()
    return {pk for pk, earlier, _previous in rows if earlier is None}


def _awards(season: Season, after_round: int | None = None) -> _Awards:
    """Every category's rows with prizes after ``after_round`` (default: the latest standings).

    Queries: the categories, the hand-made lists (only with such a category), the snapshot
    (two for a round without standings), the participants, the newcomers (only with such a
    category).
    """
    if not season.category_count:  # no query for a season without categories
        return _Awards(None, [], [], {})
    categories = list(Category.objects.filter(season=season))
    if not categories:
        return _Awards(None, [], [], {})
    chosen = _chosen(season, categories)
    snapshots = StandingsSnapshot.objects.filter(season=season)
    snapshot = None
    if after_round is not None:
        snapshot = snapshots.filter(round_number=after_round).first()
    if snapshot is None:  # no such round: the latest standings
        snapshot = snapshots.order_by("-round_number").first()
    if snapshot is None:
        return _Awards(None, categories, [[] for _c in categories], {})
    after_round = snapshot.round_number
    stored = snapshot.rows
    candidates = _candidates(season, categories)
    standings = [
        rules.Standing(row["participant_id"], row["rank"], row["eligible"]) for row in stored
    ]
    ruled = [(category_rule(category=c, chosen=chosen.get(c.pk, ())), c) for c in categories]
    awarded = rules.award_prizes(
        [(rule, rules.category_rows(rule, candidates, standings)) for rule, _c in ruled],
        several_prizes=season.several_prizes,
        start_ranks={c.participant_id: c.start_rank for c in candidates},
    )
    return _Awards(
        after_round,
        categories,
        awarded,
        {row["participant_id"]: row for row in stored},
        {c.participant_id: c.start_rank for c in candidates},
        snapshot.fingerprint,
    )


def _chosen(season: Season, categories: Sequence[Category]) -> dict[int, list[int]]:
    """The hand-made lists of ``categories`` by category id (no query without such a list)."""
    chosen: dict[int, list[int]] = defaultdict(list)
    if any(c.kind == Category.Kind.HAND_LIST for c in categories):
        for category_id, participant_id in Category.chosen.through.objects.filter(
            category__season=season
        ).values_list("category_id", "participant_id"):
            chosen[category_id].append(participant_id)
    return chosen


def _candidates(season: Season, categories: Sequence[Category]) -> list[rules.Candidate]:
    """The season's participants as the categories see them (the newcomers looked up only for
    a newcomers' category)."""
    newcomers = (
        _newcomers(season) if any(c.kind == Category.Kind.NEWCOMERS for c in categories) else set()
    )
    return [
        rules.Candidate(pid, rating, birth_year, pid in newcomers, start_rank)
        for pid, rating, birth_year, start_rank in Participant.objects.filter(
            season=season
        ).values_list("pk", "rating", "member__birth_year", "start_rank")
    ]


def prize_categories(*, season: Season) -> list[tuple[Category, frozenset[int]]]:
    """The season's categories with place prizes, in their order, each with its members'
    participant ids (a category of only the "most improved" prize is left out)."""
    if not season.category_count:
        return []
    categories = [c for c in Category.objects.filter(season=season) if c.prizes]
    if not categories:
        return []
    chosen = _chosen(season, categories)
    candidates = _candidates(season, categories)
    found = []
    for category in categories:
        rule = category_rule(category=category, chosen=chosen.get(category.pk, ()))
        members = frozenset(c.participant_id for c in candidates if rules.belongs(rule, c))
        found.append((category, members))
    return found


@dataclass(frozen=True)
class CategoryPage:
    season: Season
    category: Category
    description: str
    prizes: str
    after_round: int | None
    # place, rank, participant_id, name, score, game_points, games, eligible, prize,
    # most_improved, gain; in the standings' order
    rows: list[dict[str, Any]]
    others: list[CategoryLink]  # every category of the season, for the selector
    periods: tuple[rules.Period, ...] = ()


def award_text(*, row: rules.CategoryRow) -> str:
    """A row's prizes in words: "1st prize", "most improved"."""
    said = []
    if row.prize is not None:
        said.append(_("prize %(place)s") % {"place": row.prize})
    if row.most_improved:
        said.append(_("most improved"))
    return ", ".join(said)


def category_page(
    *, season: Season, category_id: int, after_round: int | None = None
) -> CategoryPage:
    """A category's ranking with its prizes; raises ``Category.DoesNotExist``."""
    awards = _awards(season, after_round)
    index = next((i for i, c in enumerate(awards.categories) if c.pk == category_id), None)
    if index is None:
        raise Category.DoesNotExist(f"season {season.pk} has no category {category_id}")
    category = awards.categories[index]
    names = public_names(season_id=season.pk)
    rows = []
    for row in awards.rows[index]:
        stored = awards.snapshot[row.participant_id]
        rows.append(
            {
                "participant_id": row.participant_id,
                "place": row.place,
                "rank": row.rank,
                "name": names.get(row.participant_id, "?"),
                "score": fraction_from_text(stored["score"]),
                "game_points": fraction_from_text(stored["game_points"]),
                "games": stored["games"],
                "eligible": row.eligible,
                "prize": row.prize,
                "most_improved": row.most_improved,
                "gain": row.gain,
                "award": award_text(row=row),
            }
        )
    return CategoryPage(
        season,
        category,
        category_description(category=category),
        prizes_description(category=category),
        awards.after_round,
        rows,
        [CategoryLink(c.pk, c.name) for c in awards.categories],
        season_periods(season=season),
    )


def _document_row(
    stored: Mapping[str, Any],
    rank: int,
    start_number: int | None,
    name: str,
    codes: Sequence[str],
) -> dict[str, Any]:
    """A stored standings row as a row of the standings document (exports), its figures in the
    order of ``codes`` (the engine's: a stored row's own order is the database's; PostgreSQL's
    jsonb sorts the keys)."""
    values = stored["values"]
    ordered = [code for code in codes if code in values]
    ordered += [code for code in values if code not in ordered]
    return {
        "rank": rank,
        "start_number": start_number,
        "name": name,
        "points": written_decimal(fraction_from_text(stored["game_points"])),
        "score": written_decimal(fraction_from_text(stored["score"])),
        "values": {code: written_decimal(fraction_from_text(values[code])) for code in ordered},
        "games": stored["games"],
        "eligible": stored["eligible"],
    }


def category_document(
    *, season: Season, category_id: int, after_round: int | None = None
) -> dict[str, Any]:
    """A category's ranking as a standings document (the columns of the standings export,
    ``rank`` being the place in the category, and ``award``: the prizes won), for its CSV and
    XLSX; from the stored standings, so no engine runs. Raises ``Category.DoesNotExist``."""
    awards = _awards(season, after_round)
    index = next((i for i, c in enumerate(awards.categories) if c.pk == category_id), None)
    if index is None:
        raise Category.DoesNotExist(f"season {season.pk} has no category {category_id}")
    names = public_names(season_id=season.pk)
    codes = (*get_system(season.system).figure_codes, *season_tiebreak_codes(season=season))
    rows = []
    for row in awards.rows[index]:
        entry = _document_row(
            awards.snapshot[row.participant_id],
            row.place,
            awards.start_ranks.get(row.participant_id),
            names.get(row.participant_id, "?"),
            codes,
        )
        entry["award"] = award_text(row=row)
        rows.append(entry)
    document: dict[str, Any] = {
        "season": season.slug,
        "category": slugify(awards.categories[index].name) or str(category_id),
        "after_round": awards.after_round or 0,
        "standings": rows,
    }
    if awards.fingerprint:
        document["fingerprint"] = short_form(awards.fingerprint)
        document["rules_version"] = season.rules_version
    return document


@dataclass(frozen=True)
class ParticipantPrize:
    category_id: int
    name: str
    place: int
    award: str  # "" without a prize


def participant_prizes(
    *, season: Season, participant_id: int, after_round: int | None = None
) -> list[ParticipantPrize]:
    """The categories ``participant_id`` is in, with his place and prize: "Category B: 2nd
    place, prize 2" on his page (one query for a season without categories)."""
    awards = _awards(season, after_round)
    found = []
    for category, rows in zip(awards.categories, awards.rows, strict=True):
        for row in rows:
            if row.participant_id == participant_id:
                found.append(
                    ParticipantPrize(category.pk, category.name, row.place, award_text(row=row))
                )
    return found


# --------------------------------------------------------------------------------------------
# Periods


@dataclass(frozen=True)
class PeriodPage:
    season: Season
    period: rules.Period
    periods: tuple[rules.Period, ...]
    rounds_played: int  # completed rounds of the period
    standings: SeasonStandingsPage  # the period's ranking, shown like the season's standings
    champion: str  # "" before the period's first completed round; shared first places joined
    complete: bool  # every round of the period is completed
    links: list[CategoryLink]  # the season's categories, for the links above the page


def period_standings(
    *, season: Season, number: int
) -> tuple[rules.Period, tuple[rules.Period, ...], SeasonInput, dict[int, str]]:
    """Period ``number``, the season's periods, the engine input restricted to the period's
    completed rounds (renumbered 1 … k) and the public names (five queries). Raises
    ``LookupError`` for a period the season does not have."""
    periods = season_periods(season=season)
    if not 1 <= number <= len(periods):
        raise LookupError(f"season {season.pk} has no period {number}")
    period = periods[number - 1]
    season_in, names = season_input_with_public_names(season=season)
    return period, periods, rules.period_input(season_in, period), names


def period_page(*, season: Season, number: int) -> PeriodPage:
    """A period's ranking from its own games and its champion (every first place)."""
    period, periods, restricted, names = period_standings(season=season, number=number)
    played = len(restricted.rounds)
    system = get_system(restricted.system)
    codes = season_tiebreak_codes(season=season)
    rows = list(engine.standings_after(restricted, played).rows) if played else []
    page = standings_page(
        season,
        system,
        codes,
        [played] if played else [],
        played or None,
        [_row(row, names) for row in rows],
        {},
        "",
    )
    champions = [names.get(row.participant_id, "?") for row in rows if row.rank == 1]
    return PeriodPage(
        season,
        period,
        periods,
        played,
        page,
        " · ".join(champions),
        played == period.last_round - period.first_round + 1,
        category_links(season=season),
    )


def _row(row: StandingRow, names: Mapping[int, str]) -> dict[str, Any]:
    return standings_entry(row=row, names=names)


def period_document(*, season: Season, number: int) -> dict[str, Any]:
    """A period's ranking as a standings document, for its CSV and XLSX (the engine on the
    period's rounds). Raises ``LookupError`` for a period the season does not have."""
    _period, _periods, restricted, names = period_standings(season=season, number=number)
    played = len(restricted.rounds)
    starts = {p.id: p.start_rank for p in restricted.participants}
    rows = list(engine.standings_after(restricted, played).rows) if played else []
    return {
        "season": season.slug,
        "after_round": played,
        "standings": [
            {
                "rank": row.rank,
                "start_number": starts.get(row.participant_id),
                "name": names.get(row.participant_id, "?"),
                "points": written_decimal(row.game_points),
                "score": written_decimal(row.score),
                "values": {code: written_decimal(value) for code, value in row.values.items()},
                "games": row.games_played,
                "eligible": row.eligible,
            }
            for row in rows
        ],
    }
