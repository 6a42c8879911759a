"""Fixtures of the page tests."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client


@pytest.fixture
def td(client: Client, demo_club: None) -> Client:
    """The demo's TD, logged in, reading English (the assertions read the English texts)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(User.objects.get(username="wedstrijdleider"))  # not via axes
    return client
