"""The production settings read HTTPS, cookies, framing and login throttling from the
environment, and ``manage.py check --deploy`` is clean with the environment that README
"Production" and .env.example document (the test reads .env.example, so they cannot drift).

Each case runs ``clubcomp.settings`` (not the test settings) in a subprocess with a clean
environment: settings are read once per process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management.utils import get_random_secret_key

ROOT = Path(settings.BASE_DIR)
ENV_EXAMPLE = ROOT / ".env.example"
README = (ROOT / "README.md").read_text()
PLACEHOLDER_SECRET = "change-me-to-a-long-random-string"
# What a real deployment never takes from .env.example as it is: the database is the stack's own
# (these tests use SQLite), the secret is the operator's own.
NOT_FOR_THE_TEST = {"DATABASE_URL", "POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"}
OURS = re.compile(
    r"^(DEBUG|SECRET_KEY|ALLOWED_HOSTS|CSRF_TRUSTED_ORIGINS|DATABASE_URL|REDIS_URL|CACHE_URL|"
    r"SECURE_\w+|BEHIND_TLS_PROXY|FRAME_ANCESTORS|LOGIN_\w+|TD_PUBLIC_NAME|DEMO_DATA|"
    r"DJANGO_SETTINGS_MODULE)$"
)


def env_example() -> dict[str, str]:
    """The KEY=value lines of .env.example (comments and blank lines left out)."""
    pairs = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            pairs[key.strip()] = value.strip()
    return pairs


def clean_environment(**values: str) -> dict[str, str]:
    """This process's environment without any setting of ours, plus ``values``."""
    env = {k: v for k, v in os.environ.items() if not OURS.match(k)}
    env["DJANGO_SETTINGS_MODULE"] = "clubcomp.settings"
    return {**env, **values}


def production_environment() -> dict[str, str]:
    documented = {k: v for k, v in env_example().items() if k not in NOT_FOR_THE_TEST}
    assert documented["SECRET_KEY"] == PLACEHOLDER_SECRET  # never a real secret in the repo
    documented["SECRET_KEY"] = get_random_secret_key()  # what the operator puts there
    return clean_environment(**documented)


def settings_under(names: list[str], **values: str) -> dict[str, object]:
    code = (
        "import json, sys, django; from django.conf import settings; django.setup(); "
        "print(json.dumps({n: getattr(settings, n, None) for n in sys.argv[1:]}, default=str))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code, *names],
        cwd=ROOT,
        env=clean_environment(SECRET_KEY=get_random_secret_key(), **values),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(completed.stdout)


COOKIES = ["SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "LANGUAGE_COOKIE_SECURE"]
SAMESITE = ["SESSION_COOKIE_SAMESITE", "CSRF_COOKIE_SAMESITE", "LANGUAGE_COOKIE_SAMESITE"]
HTTPS = [
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_PROXY_SSL_HEADER",
    "AXES_CLIENT_IP_CALLABLE",
]
OTHERS = ["FRAME_ANCESTORS", "AXES_FAILURE_LIMIT", "AXES_COOLOFF_TIME", "TD_PUBLIC_NAME"]


def test_production_defaults() -> None:
    """DEBUG unset and nothing else said: Secure-only Lax cookies, no HTTPS assumptions."""
    found = settings_under([*COOKIES, *SAMESITE, "LANGUAGE_COOKIE_HTTPONLY", *HTTPS, *OTHERS])
    assert found == {
        **dict.fromkeys(COOKIES, True),
        **dict.fromkeys(SAMESITE, "Lax"),
        "LANGUAGE_COOKIE_HTTPONLY": True,
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_HSTS_PRELOAD": False,
        "SECURE_PROXY_SSL_HEADER": None,
        "AXES_CLIENT_IP_CALLABLE": None,
        "FRAME_ANCESTORS": ["'none'"],
        "AXES_FAILURE_LIMIT": 5,
        "AXES_COOLOFF_TIME": "0:15:00",
        "TD_PUBLIC_NAME": "",
    }


@pytest.mark.parametrize(
    ("values", "secure"), [({"SECURE_COOKIES": "0"}, False), ({"DEBUG": "1"}, False)]
)
def test_plain_http_turns_secure_cookies_off(values: dict[str, str], secure: bool) -> None:
    assert settings_under(COOKIES, **values) == dict.fromkeys(COOKIES, secure)


def test_https_framing_throttling_and_td_name_from_the_environment() -> None:
    found = settings_under(
        [*HTTPS, *OTHERS],
        SECURE_SSL_REDIRECT="1",
        SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        SECURE_HSTS_PRELOAD="true",
        BEHIND_TLS_PROXY="1",
        FRAME_ANCESTORS="self https://www.schaakclub.example.nl",
        LOGIN_FAILURE_LIMIT="3",
        LOGIN_COOLOFF_MINUTES="30",
        TD_PUBLIC_NAME="Jan (wedstrijdleider)",
    )
    assert found == {
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 3600,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": True,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "AXES_CLIENT_IP_CALLABLE": "competition.security.client_ip_behind_proxy",
        "FRAME_ANCESTORS": ["'self'", "https://www.schaakclub.example.nl"],
        "AXES_FAILURE_LIMIT": 3,
        "AXES_COOLOFF_TIME": "0:30:00",
        "TD_PUBLIC_NAME": "Jan (wedstrijdleider)",
    }


def test_check_deploy_is_clean_with_the_documented_production_environment() -> None:
    completed = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_environment(),
        capture_output=True,
        text=True,
    )
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    assert not re.search(r"\bW\d{3}\b", output), output
    assert "System check identified no issues (0 silenced)." in output


def test_check_deploy_still_warns_without_https() -> None:
    """The test above proves something: the same check fails on the plain-http settings."""
    plain = {"SECURE_COOKIES": "0", "SECURE_SSL_REDIRECT": "0", "SECURE_HSTS_SECONDS": "0"}
    completed = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**production_environment(), **plain},
        capture_output=True,
        text=True,
    )
    assert completed.returncode != 0
    for code in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert code in completed.stderr


def test_readme_documents_every_setting_of_the_production_environment() -> None:
    for key in env_example():
        if key not in NOT_FOR_THE_TEST:
            assert f"`{key}" in README, f"README does not mention {key} of .env.example"
