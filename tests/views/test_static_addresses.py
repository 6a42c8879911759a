"""Static files are asked for at /static/, whatever request first reads the setting.

Django keeps STATIC_URL as it was at its first read, with the script prefix of that moment put
before a relative value; the club middleware sets that prefix to /<club>/ during a club's
request. Run on its own, tests/browser/test_content_security_policy.py found every stylesheet
and script at /sc-test/static/ (404): a club page had been the first to read the setting."""

from __future__ import annotations

from django.conf import settings
from django.test import override_settings
from django.urls import get_script_prefix, set_script_prefix

from clubcomp import settings as configured


def test_static_url_read_first_during_a_club_request_is_the_site_root() -> None:
    site = get_script_prefix()
    # The value as the settings module writes it; override_settings empties the settings' memory.
    with override_settings(STATIC_URL=configured.STATIC_URL):
        set_script_prefix(f"{site}sc-test/")  # as competition.middleware does for /sc-test/...
        try:
            assert settings.STATIC_URL == "/static/"
        finally:
            set_script_prefix(site)
