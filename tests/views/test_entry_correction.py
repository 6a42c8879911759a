"""Correcting an absence of a closed round from two phones: the page carries the version it
showed, the second correction is refused with the first TD's name, nothing is overwritten."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client

from competition.models import RoundEntry
from competition.permissions import td_group
from tests.addresses import club_reverse
from tests.factories import RoundEntryFactory, RoundFactory

pytestmark = pytest.mark.django_db


def _td(name: str, entry: RoundEntry) -> Client:
    user = User.objects.create_user(f"td-{name.lower()}", first_name=name)
    user.groups.add(td_group(entry.round.season.club))
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_second_correction_from_the_same_page_is_refused_with_the_first_name() -> None:
    entry = RoundEntryFactory(round=RoundFactory(number=1), kind=RoundEntry.Kind.ABSENT_NO_NOTICE)
    anna, bert = _td("Anna", entry), _td("Bert", entry)
    url = club_reverse(
        "competition:td_entry_correct",
        args=[entry.round.season.slug, entry.round.number, entry.pk],
    )
    page = anna.get(url).content.decode()
    assert f'name="version" value="{entry.version}"' in page
    posted = {"points": "0", "version": entry.version}
    response = anna.post(url, {**posted, "kind": "absent_notice", "reason": "He called Anna"})
    assert response.status_code == 302
    response = bert.post(url, {**posted, "kind": "club_duty", "reason": "He was the arbiter"})
    assert response.status_code == 200  # the form again, with what happened
    (message,) = [str(m) for m in get_messages(response.wsgi_request)]
    assert "Anna" in message and "meanwhile" in message and "absent with notice" in message
    entry.refresh_from_db()
    assert (entry.kind, entry.version) == ("absent_notice", 2)
    # The form Bert sees again carries the new version: sending it once more goes through.
    assert 'name="version" value="2"' in response.content.decode()
    response = bert.post(
        url, {**posted, "version": 2, "kind": "club_duty", "reason": "He was the arbiter"}
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert (entry.kind, entry.version) == ("club_duty", 3)
