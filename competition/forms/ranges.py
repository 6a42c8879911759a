"""Whole numbers people type, bounded by what every database stores.

SQLite stores any 64-bit integer in a ``PositiveSmallIntegerField``, PostgreSQL only 0 to
32767: a form that trusts the database in use accepts 40000 on one and answers 500 on the
other. ``integer_range`` gives the range every backend stores (Django's own table, the one
PostgreSQL enforces), narrowed by the field's own validators (a board is at least 1);
``small_number`` is a form's field for a ``PositiveSmallIntegerField``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Field

SMALL_MAX = 32767  # the most a PositiveSmallIntegerField stores on every database


def integer_range(model_field: Field) -> tuple[int, int] | None:
    """The portable (low, high) of an integer model field; None for any other field.

    >>> from competition.models import Season
    >>> integer_range(Season._meta.get_field("min_games"))
    (0, 32767)
    """
    ranges = BaseDatabaseOperations.integer_field_ranges
    internal_type = model_field.get_internal_type()
    if internal_type not in ranges or internal_type.endswith("AutoField"):
        return None
    low, high = ranges[internal_type]
    for validator in model_field.validators:
        if isinstance(validator, MinValueValidator) and isinstance(validator.limit_value, int):
            low = max(low, validator.limit_value)
        if isinstance(validator, MaxValueValidator) and isinstance(validator.limit_value, int):
            high = min(high, validator.limit_value)
    return low, high


def small_number(
    label: Any, *, min_value: int = 0, required: bool = True, help_text: Any = "", **kwargs: Any
) -> forms.IntegerField:
    """A whole number from ``min_value`` up to what a ``PositiveSmallIntegerField`` stores."""
    return forms.IntegerField(
        label=label,
        min_value=min_value,
        max_value=SMALL_MAX,
        required=required,
        help_text=help_text,
        **kwargs,
    )
