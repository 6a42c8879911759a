"""A ranking system's parameters: their specification, validation and JSON storage.

Every system declares its parameters as :class:`ParameterSpec` values. A season stores the
values it chose as JSON; :func:`parameters_to_json` writes fractions as exact strings
(``Fraction(7, 100)`` becomes ``"7/100"``) so that :func:`parameters_from_json` gives back the
very same values. Floats are refused everywhere: ``0.07`` as a float is not seven hundredths.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from competition.scoring.model import ParameterValue

_FRACTION_TEXT = re.compile(r"^[+-]?\d+(/0*[1-9]\d*|\.\d+)?$")  # no zero denominator
EMPTY = ""  # the value of a parameter left empty (only where its spec's ``words`` allow it)


class ParameterError(ValueError):
    """A parameter value is missing, unknown, of the wrong kind or out of range."""


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
    description: str  # English, marked with gettext_noop; competition.labels translates it
    minimum: Fraction | int | None = None
    maximum: Fraction | int | None = None
    choices: tuple[str, ...] = ()
    words: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.words:
            if self.kind not in (ParameterKind.FRACTION, ParameterKind.INT):
                raise ValueError(f"{self.name}: only numbers can also accept words")
            if any(_FRACTION_TEXT.match(word) for word in self.words):
                raise ValueError(f"{self.name}: words must not look like numbers")
        if self.kind is ParameterKind.CHOICE:
            if not self.choices or self.default not in self.choices:
                raise ValueError(f"{self.name}: a choice needs choices that include the default")
            # A choice that looks like a number could not be told apart from a fraction in JSON.
            if any(_FRACTION_TEXT.match(choice) for choice in self.choices):
                raise ValueError(f"{self.name}: choices must not look like numbers")

    def allowed(self) -> str:
        """The allowed values in words, for error messages and forms."""
        if self.kind is ParameterKind.BOOL:
            return "true or false"
        if self.kind is ParameterKind.CHOICE:
            return "one of " + ", ".join(self.choices)
        noun = "a whole number" if self.kind is ParameterKind.INT else "an exact number"
        if self.minimum is not None and self.maximum is not None:
            text = f"{noun} from {self.minimum} to {self.maximum}"
        elif self.minimum is not None:
            text = f"{noun} of at least {self.minimum}"
        elif self.maximum is not None:
            text = f"{noun} of at most {self.maximum}"
        else:
            text = noun
        for word in self.words:
            text += " or empty" if word == EMPTY else f" or {word}"
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
        if isinstance(raw, str) and _FRACTION_TEXT.match(raw.strip().replace(",", ".")):
            return Fraction(raw.strip().replace(",", "."))
        raise self._error(raw)

    def _error(self, raw: object) -> ParameterError:
        return ParameterError(
            f"parameter {self.name}: {raw!r} is not allowed; use {self.allowed()}"
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
            f"unknown parameter {unknown[0]}; known parameters: {', '.join(known) or 'none'}"
        )
    return {
        spec.name: spec.coerce(raw[spec.name]) if spec.name in raw else spec.default
        for spec in specs
    }


def parameters_to_json(values: Mapping[str, ParameterValue]) -> dict[str, object]:
    """Values ready for a JSON field: fractions become exact strings such as ``"7/100"``."""
    stored: dict[str, object] = {}
    for name, value in values.items():
        if isinstance(value, Fraction):
            stored[name] = str(value)
        elif isinstance(value, bool | int | str):
            stored[name] = value
        else:
            raise ParameterError(f"parameter {name}: cannot store {value!r}")
    return stored


def parameters_from_json(data: Mapping[str, object]) -> dict[str, ParameterValue]:
    """The inverse of :func:`parameters_to_json`.

    A string that reads as a number (``"7/100"``, ``"3"``, ``"-3"``) is a fraction; other
    strings are choices (choices never look like numbers); ints and bools stay as they are.
    """
    values: dict[str, ParameterValue] = {}
    for name, value in data.items():
        if isinstance(value, str) and _FRACTION_TEXT.match(value):
            values[name] = Fraction(value)
        elif isinstance(value, bool | int | str):
            values[name] = value
        else:
            raise ParameterError(f"parameter {name}: cannot read {value!r}")
    return values
