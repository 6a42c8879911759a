"""A ranking system's parameters: their specification, validation and JSON storage.

Every system declares its parameters as :class:`ParameterSpec` values. A season stores the
values it chose as JSON; :func:`parameters_to_json` writes fractions as exact strings in the
one written form of :mod:`competition.scoring.exact` (``Fraction(7, 100)`` becomes ``"0.07"``,
``Fraction(2, 3)`` ``"2/3"``) so that :func:`parameters_from_json` gives back the very same
values. Floats are refused everywhere: ``0.07`` as a float is not seven hundredths.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from competition.scoring.exact import (
    fraction_from_text,
    fraction_from_typed,
    fraction_to_text,
    is_fraction_text,
)
from competition.scoring.model import ParameterValue, ParameterValues
from competition.scoring.text import Term, Text, TextError, gettext_noop

EMPTY = ""  # the value of a parameter left empty (only where its spec's ``words`` allow it)


class ParameterError(TextError):
    """A parameter value is missing, unknown, of the wrong kind or out of range (an English
    template plus values: :class:`TextError`)."""


class ParameterKind(StrEnum):
    FRACTION = "fraction"
    INT = "int"
    BOOL = "bool"
    CHOICE = "choice"


@dataclass(frozen=True, slots=True)
class ParameterSpec:
    """One parameter of a ranking system, with its default and allowed range.

    ``minimum`` and ``maximum`` bound fraction and int parameters (inclusive, ``None`` for
    unbounded); ``choices`` lists the allowed words of a choice parameter. ``words`` lists the
    words a fraction or int parameter accepts besides numbers: :data:`EMPTY` ("" — left empty,
    the system then works the value out, as Keizer's ``top_value``) or a word such as
    ``"result"``. Like choices, a word never looks like a number, so JSON keeps them apart.
    """

    name: str
    kind: ParameterKind
    default: ParameterValue
    description: (
        str  # English, marked with gettext_noop; competition.presentation.labels translates it
    )
    minimum: Fraction | int | None = None
    maximum: Fraction | int | None = None
    choices: tuple[str, ...] = ()
    words: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.words:
            if self.kind not in (ParameterKind.FRACTION, ParameterKind.INT):
                raise ValueError(f"{self.name}: only numbers can also accept words")
            if any(is_fraction_text(word) for word in self.words):
                raise ValueError(f"{self.name}: words must not look like numbers")
        if self.kind is ParameterKind.CHOICE:
            if not self.choices or self.default not in self.choices:
                raise ValueError(f"{self.name}: a choice needs choices that include the default")
            # A choice that looks like a number could not be told apart from a fraction in JSON.
            if any(is_fraction_text(choice) for choice in self.choices):
                raise ValueError(f"{self.name}: choices must not look like numbers")

    def allowed(self) -> str:
        """The allowed values in English words, for error messages and forms.

        >>> ParameterSpec("n", ParameterKind.INT, 1, "", minimum=1, maximum=9).allowed()
        'a whole number from 1 to 9'
        """
        return str(self.allowed_text())

    def allowed_text(self) -> Text:
        """:meth:`allowed` as a text to translate
        (``competition.presentation.labels.text_label``)."""
        if self.kind is ParameterKind.BOOL:
            return Text(gettext_noop("true or false"))
        if self.kind is ParameterKind.CHOICE:
            return Text(gettext_noop("one of %(choices)s"), {"choices": ", ".join(self.choices)})
        low, high = self.minimum, self.maximum
        if self.kind is ParameterKind.INT:
            if low is not None and high is not None:
                text = Text(
                    gettext_noop("a whole number from %(low)s to %(high)s"),
                    {"low": low, "high": high},
                )
            elif low is not None:
                text = Text(gettext_noop("a whole number of at least %(low)s"), {"low": low})
            elif high is not None:
                text = Text(gettext_noop("a whole number of at most %(high)s"), {"high": high})
            else:
                text = Text(gettext_noop("a whole number"))
        elif low is not None and high is not None:
            text = Text(
                gettext_noop("an exact number from %(low)s to %(high)s"), {"low": low, "high": high}
            )
        elif low is not None:
            text = Text(gettext_noop("an exact number of at least %(low)s"), {"low": low})
        elif high is not None:
            text = Text(gettext_noop("an exact number of at most %(high)s"), {"high": high})
        else:
            text = Text(gettext_noop("an exact number"))
        for word in self.words:
            if word == EMPTY:
                text = Text(gettext_noop("%(allowed)s or empty"), {"allowed": text})
            else:
                text = Text(
                    gettext_noop("%(allowed)s or %(word)s"), {"allowed": text, "word": word}
                )
        return text

    def coerce(self, raw: object) -> ParameterValue:
        """The value ``raw`` as this parameter's kind, or :class:`ParameterError`."""
        value = self._convert(raw)
        if self.kind in (ParameterKind.FRACTION, ParameterKind.INT) and not isinstance(value, str):
            assert isinstance(value, Fraction | int)
            too_low = self.minimum is not None and value < self.minimum
            too_high = self.maximum is not None and value > self.maximum
            if too_low or too_high:
                raise self._error(raw)
        return value

    def _convert(self, raw: object) -> ParameterValue:
        if self.words:
            word = "" if raw is None else raw.strip() if isinstance(raw, str) else None
            if word in self.words:
                return word
        if self.kind is ParameterKind.BOOL:
            if isinstance(raw, bool):
                return raw
            raise self._error(raw)
        if self.kind is ParameterKind.CHOICE:
            if isinstance(raw, str) and raw in self.choices:
                return raw
            raise self._error(raw)
        if isinstance(raw, bool | float):
            raise self._error(raw)
        if self.kind is ParameterKind.INT:
            if isinstance(raw, int):
                return raw
            if isinstance(raw, Fraction) and raw.denominator == 1:
                return int(raw)
            if isinstance(raw, str) and re.fullmatch(r"[+-]?\d+", raw.strip()):
                return int(raw)
            raise self._error(raw)
        if isinstance(raw, Fraction | int | Decimal):
            return Fraction(raw)
        if isinstance(raw, str):
            try:
                return fraction_from_typed(raw)  # "0,07" too, as a person writes it
            except ValueError:
                raise self._error(raw) from None
        raise self._error(raw)

    def _error(self, raw: object) -> ParameterError:
        return ParameterError(
            gettext_noop("parameter %(name)s: %(value)s is not allowed; use %(allowed)s"),
            # A text quoted, a number as it reads ("2", not "Fraction(2, 1)").
            {
                "name": self.name,
                "value": repr(raw) if isinstance(raw, str) else str(raw),
                "allowed": self.allowed_text(),
            },
        )


def validate_parameters(
    specs: tuple[ParameterSpec, ...], raw: Mapping[str, object]
) -> dict[str, ParameterValue]:
    """Every parameter of ``specs`` with its value from ``raw`` or its default.

    Raises :class:`ParameterError` naming the parameter and its allowed range for a bad value,
    and naming the unknown parameter (and the known ones) for a name not in ``specs``.
    """
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise ParameterError(
            gettext_noop("unknown parameter %(name)s; known parameters: %(known)s"),
            {"name": unknown[0], "known": ", ".join(known) or Term(gettext_noop("none"))},
        )
    return {
        spec.name: spec.coerce(raw[spec.name]) if spec.name in raw else spec.default
        for spec in specs
    }


def parameters_to_json(values: ParameterValues) -> dict[str, object]:
    """Values ready for a JSON field: fractions become exact strings such as ``"0.07"``."""
    stored: dict[str, object] = {}
    for name, value in values.items():
        if isinstance(value, Fraction):
            stored[name] = fraction_to_text(value)
        elif isinstance(value, bool | int | str):
            stored[name] = value
        else:
            raise ParameterError(
                gettext_noop("parameter %(name)s: cannot store %(value)s"),
                {"name": name, "value": repr(value)},
            )
    return stored


def parameters_from_json(data: Mapping[str, object]) -> dict[str, ParameterValue]:
    """The inverse of :func:`parameters_to_json`.

    A string that reads as a number (``"0.07"``, ``"3"``, ``"-3"``, and ``"7/100"`` as seasons
    stored them before) is a fraction; other strings are choices (choices never look like
    numbers); ints and bools stay as they are.
    """
    values: dict[str, ParameterValue] = {}
    for name, value in data.items():
        if isinstance(value, str) and is_fraction_text(value):
            values[name] = fraction_from_text(value)
        elif isinstance(value, bool | int | str):
            values[name] = value
        else:
            raise ParameterError(
                gettext_noop("parameter %(name)s: cannot read %(value)s"),
                {"name": name, "value": repr(value)},
            )
    return values
