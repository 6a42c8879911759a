"""The TD's categories, prizes and periods of a season (the rules are in
:mod:`competition.scoring.categories` and docs/scoring.md).

Every write bumps the season's ``data_version`` (``seasons_touch``), so the cached public pages
(standings, categories, periods, the participant page) show the change at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from competition.models import Category, Participant, Season
from competition.services.chances_queue import chances_request
from competition.services.errors import ServiceError
from competition.services.standings import seasons_touch


@dataclass(frozen=True)
class CategoryFields:
    """A category as the TD sets it (see :class:`competition.models.Category`)."""

    name: str
    kind: str
    rating_from: int | None = None
    rating_below: int | None = None
    unrated: bool = False
    born_from: int | None = None
    born_to: int | None = None
    prizes: int = 3
    most_improved: bool = False
    chosen: tuple[int, ...] = ()  # participant ids, for a hand-made list
    order: int | None = None  # None: after the last one


def categories_counted(*, season: Season) -> None:
    """Store how many categories the season has (``Season.category_count``)."""
    Season.objects.filter(pk=season.pk).update(
        category_count=Category.objects.filter(season=season).count()
    )


def _validated(season: Season, fields: CategoryFields) -> list[Participant]:
    if not fields.name.strip():
        raise ServiceError(_("Give the category a name."))
    if fields.kind not in Category.Kind.values:
        raise ServiceError(_("Unknown kind of category."))
    if fields.prizes < 0:
        raise ServiceError(_("The number of prizes cannot be negative."))
    if (
        fields.rating_from is not None
        and fields.rating_below is not None
        and fields.rating_from >= fields.rating_below
    ):
        raise ServiceError(_("The lower rating bound must be below the upper one."))
    if (
        fields.born_from is not None
        and fields.born_to is not None
        and fields.born_from > fields.born_to
    ):
        raise ServiceError(_("The first birth year cannot be after the last one."))
    chosen = list(Participant.objects.filter(season=season, pk__in=fields.chosen))
    if len(chosen) != len(set(fields.chosen)):
        raise ServiceError(_("This player does not take part in this season."))
    return chosen


def _apply(category: Category, fields: CategoryFields) -> None:
    category.name = fields.name.strip()[:60]
    category.kind = fields.kind
    category.rating_from = fields.rating_from
    category.rating_below = fields.rating_below
    category.unrated = fields.unrated
    category.born_from = fields.born_from
    category.born_to = fields.born_to
    category.prizes = fields.prizes
    category.most_improved = fields.most_improved


@transaction.atomic
def category_add(*, season: Season, fields: CategoryFields) -> Category:
    """A new category of the season, after the last one unless ``fields.order`` says where."""
    chosen = _validated(season, fields)
    order = fields.order
    if order is None:
        last = Category.objects.filter(season=season).aggregate(last=Max("order"))["last"]
        order = (last or 0) + 1
    category = Category(season=season, order=order)
    _apply(category, fields)
    _save(category, fields, chosen)
    categories_counted(season=season)
    _categories_changed(season)
    return category


@transaction.atomic
def category_change(*, season: Season, category_id: int, fields: CategoryFields) -> Category:
    """Change a category of the season (its order stays unless ``fields.order`` is given)."""
    category = Category.objects.filter(season=season, pk=category_id).first()
    if category is None:
        raise ServiceError(_("This category no longer exists."))
    chosen = _validated(season, fields)
    _apply(category, fields)
    if fields.order is not None:
        category.order = fields.order
    _save(category, fields, chosen)
    _categories_changed(season)
    return category


def _save(category: Category, fields: CategoryFields, chosen: list[Participant]) -> None:
    """Save the category and its hand-picked players; its order must be free in its season."""
    try:
        with transaction.atomic():
            category.save()
    except IntegrityError as error:
        raise ServiceError(_("Another category of this season has this order.")) from error
    category.chosen.set(chosen if fields.kind == Category.Kind.HAND_LIST else [])


@transaction.atomic
def category_remove(*, season: Season, category_id: int) -> None:
    deleted, _rows = Category.objects.filter(season=season, pk=category_id).delete()
    if not deleted:
        raise ServiceError(_("This category no longer exists."))
    categories_counted(season=season)
    _categories_changed(season)


def _categories_changed(season: Season) -> None:
    """Pages are rebuilt, and the chances computed again: the chances page gives each
    category's chances."""
    seasons_touch(seasons=[season])
    chances_request(season=season)


@transaction.atomic
def season_prizes_update(
    *, season: Season, period_ends: Sequence[int] | Iterable[int], several_prizes: bool
) -> Season:
    """The season's periods (the last round of each) and whether a player may win several
    prizes."""
    ends = sorted(set(period_ends))
    if any(end < 1 for end in ends):
        raise ServiceError(_("Give the last round of each period as numbers, for example: 12, 24."))
    season = Season.objects.select_for_update().get(pk=season.pk)
    season.period_ends = ends
    season.several_prizes = several_prizes
    season.save(update_fields=["period_ends", "several_prizes"])
    seasons_touch(seasons=[season])
    return season
