"""Shared fixtures: users with roles, a small season."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from hypothesis import HealthCheck, settings

# Timings are never assertions here (the machines are shared and noisy): no per-example
# deadline, and no failure because generating data was slow.
settings.register_profile("clubcomp", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("clubcomp")


@pytest.fixture
def superuser(db) -> User:
    return User.objects.create_superuser("admin", "admin@example.org", "admin-pass-123")


@pytest.fixture
def td_user(db) -> User:
    from competition.permissions import td_group

    user = User.objects.create_user("td", password="td-pass-12345")
    user.groups.add(td_group())
    return user


@pytest.fixture
def member_user(db) -> User:
    return User.objects.create_user("member", password="member-pass-123")


__all__ = ["Group"]
