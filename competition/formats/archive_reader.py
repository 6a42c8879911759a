"""Reading a season archive: :func:`load_archive` reads the JSON text field by field as the
dataclasses of :mod:`competition.formats.archive` declare them (a field added after the
archive's version keeps its default), then checks the whole with
:func:`competition.formats.archive_checks.check_archive`. Every problem is a
:class:`FormatError` with the JSON path of the first one."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, time
from typing import Any

from competition.formats.archive import (
    FORMAT,
    SUPPORTED_VERSIONS,
    Check,
    SeasonArchive,
    _Field,
    _schema,
)
from competition.formats.archive_checks import check_archive
from competition.formats.errors import FormatError, Term
from competition.scoring.text import gettext_noop

_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_FRACTION = re.compile(r"-?[0-9]+/[1-9][0-9]*")
_SURROGATE = re.compile("[\ud800-\udfff]")
_FINGERPRINT = re.compile(r"[0-9a-f]{64}")
_TIME = re.compile(r"[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{6})?)?")

# The reasons Python's JSON reader gives (json.decoder and its C scanner), so that "not JSON
# (...)" is in the reader's language too; any other reason is shown as Python wrote it.
JSON_REASONS = (
    gettext_noop("Expecting value"),
    gettext_noop("Expecting ',' delimiter"),
    gettext_noop("Expecting ':' delimiter"),
    gettext_noop("Expecting property name enclosed in double quotes"),
    gettext_noop("Unterminated string starting at"),
    gettext_noop("Invalid control character at"),
    gettext_noop("Invalid \\escape"),
    gettext_noop("Invalid \\uXXXX escape"),
    gettext_noop("Extra data"),
)
_EXPECTED_OBJECT = gettext_noop("expected an object, found %(found)s")


def _kind(value: object) -> str:
    """What was found, for a message: a short value as written, else its kind (a
    :class:`Term`, translated with the message)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else Term(gettext_noop("a long string"))
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return Term(gettext_noop("a list"))
    return Term(gettext_noop("an object"))


def _at(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _json_object(value: object, path: str, keys: Any) -> dict[str, object]:
    """``value`` as a JSON object that holds no key outside ``keys``."""
    if not isinstance(value, dict):
        raise FormatError(_EXPECTED_OBJECT, {"found": _kind(value)}, path=path)
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise FormatError(
            gettext_noop("unknown field %(field)s"), {"field": repr(unknown[0])}, path=path
        )
    return value


def _raw(document: Mapping[str, object], key: str, path: str) -> object:
    if key not in document:
        raise FormatError(gettext_noop("missing"), path=path)
    return document[key]


def _read_object(cls: type[Any], value: object, path: str, version: int) -> Any:
    """An instance of the dataclass ``cls`` read from ``value``, checked field by field in the
    archive's order; a field added after ``version`` keeps its default."""
    schema = [spec for spec in _schema(cls) if spec.check.since <= version]
    keys = {spec.group or spec.key for spec in schema}
    document = _json_object(value, path, keys)
    groups: dict[str, dict[str, object]] = {}
    values: dict[str, object] = {}
    for spec in schema:
        source, where = document, path
        if spec.group is not None:
            where = _at(path, spec.group)
            if spec.group not in groups:
                members = {s.key for s in schema if s.group == spec.group}
                groups[spec.group] = _json_object(_raw(document, spec.group, where), where, members)
            source = groups[spec.group]
        values[spec.name] = _read_value(spec, source, _at(where, spec.key), version)
    return cls(**values)


def _read_value(spec: _Field, document: Mapping[str, object], path: str, version: int) -> object:
    value = _raw(document, spec.key, path)
    if value is None and spec.optional:
        return None
    rules = spec.check
    if spec.kind == "str" and rules.decimal:
        if not isinstance(value, str) or not (
            _DECIMAL.fullmatch(value) or (rules.fraction and _FRACTION.fullmatch(value))
        ):
            reason = (
                gettext_noop(
                    'expected an exact decimal string such as "0.5" or "1356/7", found %(found)s'
                )
                if rules.fraction
                else gettext_noop('expected an exact decimal string such as "0.5", found %(found)s')
            )
            raise FormatError(reason, {"found": _kind(value)}, path=path)
        return value
    if spec.kind == "str":
        return _read_str(value, path, rules, spec.optional)
    if spec.kind == "int":
        return _read_int(value, path, rules)
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise FormatError(
                gettext_noop("expected true or false, found %(found)s"),
                {"found": _kind(value)},
                path=path,
            )
        return value
    if spec.kind == "date":
        return _read_date(value, path, spec.optional)
    if spec.kind == "time":
        return _read_time(value, path)
    if spec.kind == "moment":
        return _read_moment(value, path)
    if spec.kind == "parameters":
        return _read_parameters(value, path)
    if spec.kind == "object":
        assert spec.item is not None
        return _read_object(spec.item, value, path, version)
    items = _read_list(value, path)
    if spec.kind == "strings":
        for index, item in enumerate(items):
            if not isinstance(item, str):
                raise FormatError(
                    gettext_noop("expected a string, found %(found)s"),
                    {"found": _kind(item)},
                    path=_at(path, index),
                )
            _storable(item, _at(path, index))
        return tuple(items)
    assert spec.item is not None
    return tuple(
        _read_object(spec.item, item, _at(path, index), version) for index, item in enumerate(items)
    )


def _storable(text: str, path: str) -> str:
    """``text`` when a database can store it: no NUL character (PostgreSQL refuses it) and no
    lone surrogate (JSON's ``"\\ud800"`` escape, which is not Unicode text)."""
    if "\x00" in text:
        raise FormatError(
            gettext_noop("contains the control character U+0000, which cannot be stored"),
            path=path,
        )
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:
        code = f"U+{ord(surrogate.group()):04X}"
        raise FormatError(
            gettext_noop("not valid Unicode text (a lone surrogate %(code)s)"),
            {"code": code},
            path=path,
        )
    return text


def _read_str(value: object, path: str, rules: Check, optional: bool) -> str:
    if not isinstance(value, str):
        reason = (
            gettext_noop("expected a string or null, found %(found)s")
            if optional
            else gettext_noop("expected a string, found %(found)s")
        )
        raise FormatError(reason, {"found": _kind(value)}, path=path)
    _storable(value, path)
    if rules.nonempty and not value:
        raise FormatError(gettext_noop("must not be empty"), path=path)
    if rules.choices is not None and value not in rules.choices:
        raise FormatError(
            gettext_noop("%(found)s is not one of %(choices)s"),
            {"found": repr(value), "choices": ", ".join(sorted(repr(c) for c in rules.choices))},
            path=path,
        )
    return value


def _read_int(value: object, path: str, rules: Check) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(
            gettext_noop("expected an integer, found %(found)s"), {"found": _kind(value)}, path=path
        )
    if rules.minimum is not None and value < rules.minimum:
        raise FormatError(
            gettext_noop("must be at least %(minimum)s, found %(found)s"),
            {"minimum": rules.minimum, "found": value},
            path=path,
        )
    if value > rules.maximum:
        raise FormatError(
            gettext_noop("must be at most %(maximum)s, found %(found)s"),
            {"maximum": rules.maximum, "found": value},
            path=path,
        )
    return value


def _read_date(value: object, path: str, optional: bool) -> date:
    try:
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError
        return date.fromisoformat(value)
    except ValueError:
        reason = (
            gettext_noop("expected a date YYYY-MM-DD or null, found %(found)s")
            if optional
            else gettext_noop("expected a date YYYY-MM-DD, found %(found)s")
        )
        raise FormatError(reason, {"found": _kind(value)}, path=path) from None


def _read_time(value: object, path: str) -> time:
    """A time of day, ``HH:MM`` or ``HH:MM:SS`` (microseconds allowed), without an offset."""
    try:
        if not isinstance(value, str) or not _TIME.fullmatch(value):
            raise ValueError
        return time.fromisoformat(value)
    except ValueError:
        raise FormatError(
            gettext_noop("expected a time of day such as 18:00 or null, found %(found)s"),
            {"found": _kind(value)},
            path=path,
        ) from None


def _read_moment(value: object, path: str) -> datetime:
    """An ISO 8601 moment with its offset, returned in UTC."""
    try:
        if not isinstance(value, str) or len(value) < 19 or value[10] != "T":
            raise ValueError
        moment = datetime.fromisoformat(value)
        if moment.tzinfo is None:
            raise ValueError
        return moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise FormatError(
            gettext_noop(
                "expected a moment such as 2026-09-20T12:00:00.000000+00:00, found %(found)s"
            ),
            {"found": _kind(value)},
            path=path,
        ) from None


def _read_parameters(value: object, path: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise FormatError(_EXPECTED_OBJECT, {"found": _kind(value)}, path=path)
    for name, text in value.items():
        if not isinstance(text, str):
            raise FormatError(
                gettext_noop("expected an exact string, found %(found)s"),
                {"found": _kind(text)},
                path=f"{path}.{name}",
            )
        _storable(name, path)
        _storable(text, f"{path}.{name}")
    return tuple(sorted(value.items()))


def _read_list(value: object, path: str) -> list[object]:
    if not isinstance(value, list):
        raise FormatError(
            gettext_noop("expected a list, found %(found)s"), {"found": _kind(value)}, path=path
        )
    return value


def load_archive(text: str) -> SeasonArchive:
    """Read and validate a season archive (format ``clubcomp-season``, any of
    :data:`SUPPORTED_VERSIONS`)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(
            gettext_noop("not JSON (%(detail)s)"),
            {"detail": Term(error.msg)},
            line=error.lineno,
            column=error.colno,
        ) from None
    except RecursionError:
        raise FormatError(gettext_noop("not JSON (nested too deeply)")) from None
    if not isinstance(document, dict):
        raise FormatError(_EXPECTED_OBJECT, {"found": _kind(document)}, path="$")
    if document.get("format") != FORMAT:
        raise FormatError(
            gettext_noop("not a season archive (expected %(format)s)"),
            {"format": repr(FORMAT)},
            path="format",
        )
    version = document.get("version")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or version not in SUPPORTED_VERSIONS
    ):
        supported = ", ".join(str(v) for v in sorted(SUPPORTED_VERSIONS))
        raise FormatError(
            gettext_noop("version %(found)s is not supported (supported: %(supported)s)"),
            {"found": _kind(version), "supported": supported},
            path="version",
        )
    content = {key: value for key, value in document.items() if key not in ("format", "version")}
    archive: SeasonArchive = _read_object(SeasonArchive, content, "", version)
    if archive.fingerprint is not None and not _FINGERPRINT.fullmatch(archive.fingerprint):
        raise FormatError(
            gettext_noop("expected 64 hex digits (SHA-256), found %(found)s"),
            {"found": _kind(archive.fingerprint)},
            path="fingerprint",
        )
    check_archive(archive)
    if version < 3:
        # ARO and TPR used the member's rating before participants had an event rating.
        ratings = {m.id: m.rating for m in archive.members}
        participants = tuple(
            dataclasses.replace(p, rating=ratings[p.member]) for p in archive.participants
        )
        archive = dataclasses.replace(archive, participants=participants)
    return archive
