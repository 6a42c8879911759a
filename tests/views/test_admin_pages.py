"""Every admin page of every model answers 200 for a superuser, on the demo data."""

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.addresses import club_reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(demo_club):
    return None


READ_ONLY = {
    "invitation",
    "seasonchances",
    "seasonchancesjob",
    "clubratingchange",
    "resultreport",
    "checkin",
    "pushsubscription",
}


def _admin_models():
    return [model for model in admin.site._registry if model._meta.app_label == "competition"]


def test_every_competition_model_is_registered() -> None:
    names = {model.__name__ for model in _admin_models()}
    assert {
        "Club",
        "Member",
        "Season",
        "SeasonRules",
        "Participant",
        "Round",
        "Game",
        "RoundEntry",
        "StandingsSnapshot",
    } <= names


def test_admin_changelist_add_and_change_pages(client, demo, superuser) -> None:
    client.force_login(superuser)
    assert client.get(reverse("admin:index")).status_code == 200
    for model in _admin_models():
        opts = model._meta
        base = f"admin:{opts.app_label}_{opts.model_name}"
        assert client.get(club_reverse(f"{base}_changelist")).status_code == 200, opts.model_name
        # Read-only tables (invitations: made on the TD's members page only) have no add page.
        expected = 403 if opts.model_name in READ_ONLY else 200
        assert client.get(club_reverse(f"{base}_add")).status_code == expected, opts.model_name
        obj = model.objects.order_by("pk").first()
        if obj is not None:
            response = client.get(club_reverse(f"{base}_change", args=[obj.pk]))
            assert response.status_code == 200, opts.model_name
        if hasattr(model, "history") and obj is not None:
            response = client.get(club_reverse(f"{base}_history", args=[obj.pk]))
            assert response.status_code == 200, opts.model_name


def test_admin_search_and_filters_work(client, demo, superuser) -> None:
    client.force_login(superuser)
    response = client.get(reverse("admin:competition_member_changelist"), {"q": "Mulder"})
    assert response.status_code == 200
    assert "Hemmo Mulder" in response.content.decode()
