"""The registry of ranking systems and their parameters (validation, JSON storage)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from competition.scoring.parameters import (
    ParameterError,
    parameters_from_json,
    parameters_to_json,
)
from competition.scoring.registry import SYSTEMS, UnknownSystemError, get_system

F = Fraction


def test_registered_keys() -> None:
    assert list(SYSTEMS) == ["points", "internal-sb", "van-den-brink", "keizer"]


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_every_system_and_parameter_is_described(key: str) -> None:
    """In English; tests/test_translations.py checks that each text has its Dutch one."""
    system = get_system(key)
    assert system.key == key
    for text in (system.name, system.description):
        assert text.strip()
    for spec in system.parameters:
        assert spec.description.strip()
        assert system.validate({})[spec.name] == spec.default


def test_unknown_system() -> None:
    with pytest.raises(UnknownSystemError, match="swiss-gambit"):
        get_system("swiss-gambit")


@pytest.mark.parametrize(
    ("key", "raw", "name", "expected"),
    [
        ("van-den-brink", {"factor": "0.07"}, "factor", F(7, 100)),
        ("van-den-brink", {"factor": "7/100"}, "factor", F(7, 100)),
        ("van-den-brink", {"factor": "0,07"}, "factor", F(7, 100)),
        ("van-den-brink", {"factor": F(1, 14)}, "factor", F(1, 14)),
        ("van-den-brink", {"games_per_update": "10"}, "games_per_update", 10),
        ("van-den-brink", {"games_per_update": F(10)}, "games_per_update", 10),
        ("van-den-brink", {"update_mode": "once"}, "update_mode", "once"),
        ("van-den-brink", {"forfeits_count": True}, "forfeits_count", True),
        ("internal-sb", {"unplayed_value": 0}, "unplayed_value", F(0)),
        ("points", {"win": 3}, "win", F(3)),
    ],
)
def test_valid_values(key: str, raw: dict[str, object], name: str, expected: object) -> None:
    values = get_system(key).validate(raw)
    assert values[name] == expected
    assert type(values[name]) is type(expected)


@pytest.mark.parametrize(
    ("key", "raw", "message"),
    [
        (
            "van-den-brink",
            {"factor": 0.07},
            r"factor: 0\.07 is not allowed; use an exact number from 0 to 1",
        ),
        ("van-den-brink", {"factor": "2"}, "factor.*from 0 to 1"),
        (
            "van-den-brink",
            {"games_per_update": 0},
            "games_per_update.*a whole number from 1 to 1000",
        ),
        ("van-den-brink", {"games_per_update": "1.5"}, "games_per_update"),
        ("van-den-brink", {"update_mode": "sometimes"}, "update_mode.*one of every_n, once"),
        ("van-den-brink", {"forfeits_count": "yes"}, "forfeits_count.*true or false"),
        ("van-den-brink", {"factr": F(1)}, "unknown parameter factr"),
        # a zero denominator is a bad value, not a ZeroDivisionError
        ("van-den-brink", {"factor": "7/0"}, r"factor: '7/0' is not allowed"),
        ("internal-sb", {"unplayed_value": True}, "unplayed_value"),
        ("internal-sb", {"count_rounds_before_joining": 1}, "count_rounds_before_joining"),
    ],
)
def test_invalid_values(key: str, raw: dict[str, object], message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        get_system(key).validate(raw)


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_json_round_trip(key: str) -> None:
    system = get_system(key)
    values = system.validate({})
    stored = parameters_to_json(values)
    assert parameters_from_json(stored) == values
    assert system.validate(parameters_from_json(stored)) == values


def test_json_form_of_fractions() -> None:
    values = get_system("van-den-brink").validate({"factor": "0.07"})
    stored = parameters_to_json(values)
    assert stored["factor"] == "0.07"
    assert stored["loss_part"] == "-3"
    assert stored["games_per_update"] == 14
    assert stored["update_mode"] == "every_n"
    assert stored["forfeits_count"] is False


def test_stored_zero_denominator_is_a_parameter_error() -> None:
    # "7/0" is no number: it reads back as a word, which validation then refuses
    with pytest.raises(ParameterError, match="factor"):
        get_system("van-den-brink").validate(parameters_from_json({"factor": "7/0"}))
