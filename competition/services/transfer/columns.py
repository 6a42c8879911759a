"""What the app allows to be stored, read from the models: the one place where an importer checks
an imported value against the column it goes to.

A value is refused, as a :class:`FormatError` naming the field (its archive path, or its line and
column), when the model field would not take it: text longer than ``max_length`` or empty where
the field is not ``blank``, a code outside its ``choices``, an integer outside the column's
range (the portable one, PostgreSQL's: SQLite would store any 64-bit integer, and an archive
must import into either) or its ``MinValueValidator``/``MaxValueValidator``, a decimal with more
places or digits than the column has, or anything the field's other validators refuse (a slug,
a club address the site keeps for itself, an exact number). :func:`check_row` then checks the
row's ``CheckConstraint``\\ s, as Django's own model validation does.

Nothing here copies a number from the models: a changed ``max_length`` or a new validator is
checked on import from then on.

>>> from competition.models import Season
>>> column_problem(Season, "group_letter", "AB")
('longer than %(limit)s character', {'limit': 1})
>>> column_problem(Season, "min_games", 40000)
('must be at most %(maximum)s, found %(found)s', {'maximum': 32767, 'found': 40000})
>>> column_problem(Season, "group_letter", "A") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core import validators
from django.core.exceptions import ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import gettext_noop

from competition.formats.errors import FormatError

Problem = tuple[str, dict[str, object]]

# Validators whose limits are read from the field itself below, with messages of their own.
_READ_HERE = (
    validators.MaxLengthValidator,
    validators.MinValueValidator,
    validators.MaxValueValidator,
    validators.DecimalValidator,
)


def column(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """The model's concrete field ``name``."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field) and field.concrete, f"{model.__name__}.{name}"
    return field


def integer_range(field: models.Field[Any, Any], *, rules: bool = True) -> tuple[int, int]:
    """The integers ``field`` stores: its column's portable range, narrowed by its validators
    unless ``rules`` is false.

    >>> from competition.models import Round
    >>> integer_range(column(Round, "number"))
    (1, 32767)
    >>> integer_range(column(Round, "number"), rules=False)
    (0, 32767)
    """
    low, high = BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()]
    for validator in field.validators if rules else ():
        if isinstance(validator, validators.MinValueValidator):
            low = max(low, int(validator.limit_value))
        elif isinstance(validator, validators.MaxValueValidator):
            high = min(high, int(validator.limit_value))
    return low, high


def _found(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 42 else text[:40] + "…'"


def _text_problem(field: models.Field[Any, Any], value: object, rules: bool) -> Problem | None:
    if not isinstance(value, str):
        return gettext_noop("expected a string, found %(found)s"), {"found": _found(value)}
    if rules and value == "" and not field.blank:
        return gettext_noop("must not be empty"), {}
    limit = field.max_length
    if limit is not None and len(value) > limit:
        template = (
            gettext_noop("longer than %(limit)s character")
            if limit == 1
            else gettext_noop("longer than %(limit)s characters")
        )
        return template, {"limit": limit}
    return None


def _integer_problem(field: models.Field[Any, Any], value: object, rules: bool) -> Problem | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return gettext_noop("expected an integer, found %(found)s"), {"found": _found(value)}
    low, high = integer_range(field, rules=rules)
    if value < low:
        return gettext_noop("must be at least %(minimum)s, found %(found)s"), {
            "minimum": low,
            "found": value,
        }
    if value > high:
        return gettext_noop("must be at most %(maximum)s, found %(found)s"), {
            "maximum": high,
            "found": value,
        }
    return None


def _decimal_problem(
    field: models.DecimalField[Any, Any], name: str, value: object, rules: bool
) -> Problem | None:
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return gettext_noop("expected an exact decimal, found %(found)s"), {"found": _found(value)}
    places = -min(0, int(number.normalize().as_tuple().exponent))
    limit = Decimal(10) ** (field.max_digits - field.decimal_places)
    if not number.is_finite() or places > field.decimal_places or abs(number) >= limit:
        template = (
            gettext_noop(
                "%(field)s must have at most %(places)s decimal and lie below %(limit)s, found "
                "%(found)s"
            )
            if field.decimal_places == 1
            else gettext_noop(
                "%(field)s must have at most %(places)s decimals and lie below %(limit)s, found "
                "%(found)s"
            )
        )
        return template, {
            "field": name,
            "places": field.decimal_places,
            "limit": limit,
            "found": str(value),
        }
    for validator in field.validators if rules else ():
        if isinstance(validator, validators.MinValueValidator) and number < validator.limit_value:
            return gettext_noop("must be at least %(minimum)s, found %(found)s"), {
                "minimum": validator.limit_value,
                "found": str(value),
            }
    return None


def column_problem(
    model: type[models.Model], name: str, value: object, *, rules: bool = True
) -> Problem | None:
    """Why the column ``model.name`` cannot hold ``value`` (an English template marked with
    ``gettext_noop`` and its values), or None when it can. With ``rules`` false only what the
    database column itself holds is asked (its type, length, range and digits), not the
    field's choices, ``blank`` and validators: a history row keeps what its row once held."""
    field = column(model, name)
    if value is None:
        return None if field.null else (gettext_noop("must not be null"), {})
    if isinstance(field, models.CharField | models.TextField):
        problem = _text_problem(field, value, rules)
    elif isinstance(field, models.IntegerField):
        problem = _integer_problem(field, value, rules)
    elif isinstance(field, models.DecimalField):
        problem = _decimal_problem(field, name, value, rules)
    else:
        problem = None
    if problem is not None or not rules:
        return problem
    if field.choices and not (value == "" and field.blank):
        allowed = {str(choice) for choice, _label in field.flatchoices}
        if str(value) not in allowed:
            return gettext_noop("%(found)s is not one of %(choices)s"), {
                "found": _found(value),
                "choices": ", ".join(sorted(repr(choice) for choice in allowed)),
            }
    for validator in field.validators:
        if isinstance(validator, _READ_HERE):
            continue
        try:
            validator(value)
        except ValidationError as error:
            return gettext_noop("%(found)s cannot be stored: %(reason)s"), {
                "found": _found(value),
                "reason": _messages(error),
            }
    return None


def _messages(error: ValidationError) -> str:
    """The validator's messages, in the language active where they are shown (lazy)."""
    return lazy(lambda: " ".join(error.messages), str)()


def check_column(
    model: type[models.Model],
    name: str,
    value: object,
    *,
    path: str | None = None,
    line: int | None = None,
    at_column: int | None = None,
) -> None:
    """Refuse ``value`` when the column ``model.name`` cannot hold it, naming the archive path
    or the line and column of the file."""
    problem = column_problem(model, name, value)
    if problem is not None:
        raise FormatError(*problem, path=path, line=line, column=at_column)


def check_row(
    model: type[models.Model],
    values: Mapping[str, object],
    *,
    paths: Mapping[str, str],
    path: str,
    rules: bool = True,
    passed: set[tuple[object, ...]] | None = None,
) -> None:
    """Check each column of a row (``values`` by model field name, ``paths`` the archive path of
    each), then the model's check constraints on those columns (with ``rules``, as
    :func:`column_problem`). A violated constraint names ``path``, the row, with the
    constraint's own message.

    A constraint is evaluated as Django's model validation does (a query), once for each
    combination of the values it reads: ``passed`` remembers those that held, so a season's
    hundreds of entries cost a few queries. A constraint on a column the row does not give (a
    reference to another row) is left to the database."""
    for name, value in values.items():
        problem = column_problem(model, name, value, rules=rules)
        if problem is not None:
            raise FormatError(*problem, path=paths.get(name, path))
    if not rules:
        return
    instance: models.Model | None = None
    for constraint in model._meta.constraints:
        if not isinstance(constraint, models.CheckConstraint):
            continue
        reads = sorted(Q(constraint.condition).referenced_base_fields)
        if not set(reads) <= set(values):
            continue
        key = (model._meta.label, constraint.name, *(values[name] for name in reads))
        if passed is not None and key in passed:
            continue
        instance = instance or model(**values)
        # Django's own model validation of the constraint (django-stubs does not declare it).
        validate: Any = constraint.validate  # type: ignore[attr-defined]
        try:
            validate(model, instance)
        except ValidationError as error:
            raise FormatError(
                gettext_noop("the database does not allow this row: %(reason)s"),
                {"reason": _messages(error)},
                path=path,
            ) from None
        if passed is not None:
            passed.add(key)
