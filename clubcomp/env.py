"""Reading the settings from the environment, strictly: a value that cannot be meant is refused
at start-up with a message naming the variable, instead of quietly read as something else (a
flag "ture" as off, a port "80a" as a crash deep inside a library).

A secret may come from a file instead: ``SECRET_KEY_FILE=/run/secrets/key`` reads the key from
that file (Docker and systemd secrets), for every variable read with :func:`text`. Setting both
the variable and its ``_FILE`` is refused: which one wins would be a guess.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

from django.core.exceptions import ImproperlyConfigured

TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off", ""})
N = TypeVar("N", int, float)


def text(name: str, default: str = "", *, environ: Mapping[str, str] | None = None) -> str:
    """The variable ``name``, or the contents of the file ``name_FILE`` names (without its
    final line break), or ``default``."""
    environ = os.environ if environ is None else environ
    value, path = environ.get(name), environ.get(f"{name}_FILE")
    if value is not None and path is not None:
        raise ImproperlyConfigured(f"Set {name} or {name}_FILE, not both.")
    if path is not None:
        try:
            return Path(path).read_text(encoding="utf-8").rstrip("\r\n")
        except OSError as error:
            raise ImproperlyConfigured(
                f"{name}_FILE names {path!r}, which cannot be read: {error.strerror}."
            ) from None
    return default if value is None else value


def flag(name: str, default: bool = False, *, environ: Mapping[str, str] | None = None) -> bool:
    """A yes/no variable: 1, true, yes, on or 0, false, no, off (any case; empty is off)."""
    environ = os.environ if environ is None else environ
    value = environ.get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE:
        return True
    if word in FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is neither on (1, true, yes, on) nor off (0, false, no, off)."
    )


def integer(name: str, default: int, *, environ: Mapping[str, str] | None = None) -> int:
    """A whole number, e.g. a port or a limit."""
    return _converted(name, default, environ, int, "is not a whole number")


def number(name: str, default: float, *, environ: Mapping[str, str] | None = None) -> float:
    """A number that may have decimals (a point, not a comma: 0.5), e.g. seconds."""
    return _converted(name, default, environ, float, "is not a number (write 0.5, not 0,5)")


def _converted(
    name: str,
    default: N,
    environ: Mapping[str, str] | None,
    convert: Callable[[str], N],
    refusal: str,
) -> N:
    """The variable converted, ``default`` when it is unset or blank; refused when it does
    not convert."""
    environ = os.environ if environ is None else environ
    value = environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        return convert(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} {refusal}.") from None
