"""The settings read the environment strictly (``clubcomp/env.py``): a flag that is neither on
nor off, a number that is not one, a secret both given and named by a file, each stops the start
with a message naming the variable; a secret can come from a file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from clubcomp import env

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("true", True), ("Yes", True), (" ON ", True), ("0", False), ("false", False),
     ("no", False), ("Off", False), ("", False)],
)  # fmt: skip
def test_a_flag_reads_the_words_for_on_and_off(value: str, expected: bool) -> None:
    assert env.flag("DEBUG", environ={"DEBUG": value}) is expected


def test_a_missing_flag_is_its_default() -> None:
    assert env.flag("DEBUG", environ={}) is False
    assert env.flag("SECURE_COOKIES", True, environ={}) is True


@pytest.mark.parametrize("value", ["ture", "2", "yes please", "aan"])
def test_a_flag_that_is_neither_is_refused_naming_the_variable(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=rf"^SECURE_COOKIES='{value}' is neither on"):
        env.flag("SECURE_COOKIES", True, environ={"SECURE_COOKIES": value})


def test_numbers() -> None:
    assert env.integer("EMAIL_PORT", 25, environ={"EMAIL_PORT": " 587 "}) == 587
    assert env.integer("EMAIL_PORT", 25, environ={"EMAIL_PORT": ""}) == 25
    assert env.number("TASK_RETRY_SECONDS", 30.0, environ={"TASK_RETRY_SECONDS": "0.5"}) == 0.5
    with pytest.raises(ImproperlyConfigured, match=r"^EMAIL_PORT='80a' is not a whole number"):
        env.integer("EMAIL_PORT", 25, environ={"EMAIL_PORT": "80a"})
    with pytest.raises(ImproperlyConfigured, match=r"TASK_RETRY_SECONDS='0,5' is not a number"):
        env.number("TASK_RETRY_SECONDS", 30.0, environ={"TASK_RETRY_SECONDS": "0,5"})


def test_a_secret_from_a_file(tmp_path: Path) -> None:
    key = tmp_path / "key"
    key.write_text("s3cret-from-file\n", encoding="utf-8")
    assert env.text("SECRET_KEY", environ={"SECRET_KEY_FILE": str(key)}) == "s3cret-from-file"
    assert env.text("SECRET_KEY", environ={"SECRET_KEY": "direct"}) == "direct"
    assert env.text("SECRET_KEY", "fallback", environ={}) == "fallback"
    with pytest.raises(ImproperlyConfigured, match=r"^Set SECRET_KEY or SECRET_KEY_FILE, not both"):
        env.text("SECRET_KEY", environ={"SECRET_KEY": "a", "SECRET_KEY_FILE": str(key)})
    missing = tmp_path / "nothing"
    with pytest.raises(
        ImproperlyConfigured, match=r"^SECRET_KEY_FILE names .*nothing.*cannot be read"
    ):
        env.text("SECRET_KEY", environ={"SECRET_KEY_FILE": str(missing)})


def _start(**variables: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")}
    environ.update(DJANGO_SETTINGS_MODULE="clubcomp.settings", SECRET_KEY="x" * 50, **variables)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "CRITICAL"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_the_site_does_not_start_on_a_misspelt_flag() -> None:
    started = _start(SECURE_COOKIES="ture")
    assert started.returncode != 0
    assert "SECURE_COOKIES='ture' is neither on (1, true, yes, on) nor off" in started.stderr
    assert _start(SECURE_COOKIES="true").returncode == 0, _start(SECURE_COOKIES="true").stderr
