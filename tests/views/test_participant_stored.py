"""The participant pages the worker stores beside the standings snapshot
(competition.services.explanations) are the pages computed on request: the same data and the
same HTML for every participant of every demo season, in both languages. They hold no name, go
with their snapshot, and a computation overtaken by a change stores nothing.
"""

from __future__ import annotations

import dataclasses

from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from competition.clubs import club_url
from competition.models import Member, ParticipantExplanation, Season, StandingsSnapshot
from competition.selectors import participants as participants_selectors
from competition.selectors import snapshots as snapshot_selectors
from competition.selectors.page_payload import LAYOUT, page_from_text, page_to_text
from competition.services import explanations
from competition.services.privacy import member_name_display_set
from competition.services.standings import standings_recompute
from tests.tasks import queued, run_worker


def _seasons_with_rounds() -> list[Season]:
    return list(Season.objects.filter(snapshots__isnull=False).distinct().order_by("pk"))


def _computed(season: Season, participant_id: int) -> participants_selectors.ParticipantPage:
    season_in, names = participants_selectors.season_input_for_page(season=season)
    return participants_selectors.participant_page(
        season=season,
        season_in=season_in,
        names=names,
        texts=snapshot_selectors.snapshot_texts(season_id=season.pk),
        participant_id=participant_id,
    )


def _page_html(client: Client, season: Season, participant_id: int, language: str) -> str:
    cache.clear()
    url = club_url(season.club.slug, "competition:participant", args=[season.slug, participant_id])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    return response.content.decode()


def test_stored_pages_are_the_computed_pages(demo_club) -> None:
    seasons = _seasons_with_rounds()
    assert len(seasons) >= 4
    client = Client()
    checked = 0
    for season in seasons:
        participant_ids = list(season.participants.values_list("pk", flat=True))
        before = {
            (pid, language): _page_html(client, season, pid, language)
            for pid in participant_ids
            for language in ("nl", "en")
        }
        assert explanations.explanations_store(season_id=season.pk) == len(participant_ids)
        latest = StandingsSnapshot.objects.filter(season=season).order_by("-round_number")[0]
        assert latest.explanations.count() == len(participant_ids)
        for pid in participant_ids:
            stored = participants_selectors.stored_participant_page(
                season=season, participant_id=pid
            )
            assert stored is not None
            assert stored == _computed(season, pid), (season.slug, pid)
            for language in ("nl", "en"):
                assert _page_html(client, season, pid, language) == before[pid, language]
            checked += 1
        # stored already: nothing more to do
        assert explanations.explanations_store(season_id=season.pk) == 0
    assert checked > 50


def test_the_stored_page_is_read_without_the_season(demo_club) -> None:
    season = _seasons_with_rounds()[0]
    pid = season.participants.values_list("pk", flat=True)[0]
    with CaptureQueriesContext(connection) as computed:
        participants_selectors.participant_detail(season=season, participant_id=pid)
    explanations.explanations_store(season_id=season.pk)
    with CaptureQueriesContext(connection) as stored:
        page = participants_selectors.participant_detail(season=season, participant_id=pid)
    assert page == _computed(season, pid)
    assert len(stored) == 1  # the names, with his stored page
    assert len(computed) > len(stored)
    assert not any("competition_game" in query["sql"] for query in stored.captured_queries)
    # an earlier round is computed, as before
    earlier = participants_selectors.participant_detail(
        season=season, participant_id=pid, after_round=1
    )
    assert earlier.after_round == 1


def test_no_name_is_stored_and_a_hidden_name_hides_at_once(demo_club) -> None:
    season = _seasons_with_rounds()[0]
    explanations.explanations_store(season_id=season.pk)
    members = list(Member.objects.filter(participations__season=season))
    assert members
    payloads = list(ParticipantExplanation.objects.values_list("payload", flat=True))
    assert payloads
    for member in members:
        assert len(member.name) > 5
        assert not any(member.name in payload for payload in payloads), member.name
    # a member who shows only his first name and initial: at once on every stored page
    member = next(m for m in members if " " in m.name)
    member_name_display_set(member=member, choice="short", user=_td(season))
    participant = member.participations.get(season=season)
    page = participants_selectors.participant_detail(season=season, participant_id=participant.pk)
    assert (
        participants_selectors.stored_participant_page(season=season, participant_id=participant.pk)
        is not None
    )
    assert page.name != member.name
    assert member.name not in page.names.values()
    html = _page_html(Client(), season, participant.pk, "nl")
    assert member.name not in html


def _td(season: Season):
    from django.contrib.auth.models import User

    return User.objects.get(username="wedstrijdleider")


def test_a_change_replaces_the_stored_pages(demo_club, django_capture_on_commit_callbacks) -> None:
    season = _seasons_with_rounds()[0]
    explanations.explanations_store(season_id=season.pk)
    assert ParticipantExplanation.objects.filter(snapshot__season=season).exists()
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(season=season)
    assert not ParticipantExplanation.objects.filter(snapshot__season=season).exists()
    # the change queued the worker's task, which stores the pages of the new snapshots
    assert [task.args_kwargs["kwargs"] for task in queued("participant_explanations")] == [
        {"season_id": season.pk}
    ]
    run_worker()
    assert ParticipantExplanation.objects.filter(snapshot__season=season).count() == (
        season.participants.count()
    )


def test_a_computation_overtaken_by_a_change_stores_nothing(demo_club, monkeypatch) -> None:
    season = _seasons_with_rounds()[0]
    reading = explanations.season_input_for_page

    def read_then_change(*, season: Season):
        read = reading(season=season)
        standings_recompute(season=season)  # a TD saves a result meanwhile
        return read

    monkeypatch.setattr(explanations, "season_input_for_page", read_then_change)
    assert explanations.explanations_store(season_id=season.pk) == 0
    assert not ParticipantExplanation.objects.filter(snapshot__season=season).exists()


def test_a_page_of_another_layout_is_not_read(demo_club) -> None:
    season = _seasons_with_rounds()[0]
    explanations.explanations_store(season_id=season.pk)
    ParticipantExplanation.objects.filter(snapshot__season=season).update(layout="0" * 16)
    pid = season.participants.values_list("pk", flat=True)[0]
    assert participants_selectors.stored_participant_page(season=season, participant_id=pid) is None
    assert explanations.explanations_sweep() >= 1
    run_worker()
    assert set(
        ParticipantExplanation.objects.filter(snapshot__season=season).values_list(
            "layout", flat=True
        )
    ) == {LAYOUT}


def test_the_payload_keeps_every_type(demo_club) -> None:
    for season in _seasons_with_rounds():
        pid = season.participants.values_list("pk", flat=True)[0]
        page = _computed(season, pid)
        with translation.override("nl"):
            again = page_from_text(text=page_to_text(page=page), season=season, names=page.names)
        assert again == page
        assert type(again.corrections) is dict and type(again.movements) is tuple


def test_a_page_that_could_not_be_computed_is_not_stored(demo_club, monkeypatch) -> None:
    # its message is in the language of whoever reads it, so it is computed for each reader
    season = _seasons_with_rounds()[0]
    failing = season.participants.values_list("pk", flat=True)[0]
    computing = explanations.participant_page

    def page(**kwargs):
        found = computing(**kwargs)
        if kwargs["participant_id"] == failing:
            return dataclasses.replace(found, error="De stand kon niet worden berekend.")
        return found

    monkeypatch.setattr(explanations, "participant_page", page)
    stored = explanations.explanations_store(season_id=season.pk)
    assert stored == season.participants.count() - 1
    assert (
        participants_selectors.stored_participant_page(season=season, participant_id=failing)
        is None
    )


def test_the_sweep_queues_exactly_the_seasons_without_every_page(demo_club) -> None:
    seasons = _seasons_with_rounds()
    done, partly = seasons[0], seasons[1]
    explanations.explanations_store(season_id=done.pk)
    explanations.explanations_store(season_id=partly.pk)
    ParticipantExplanation.objects.filter(snapshot__season=partly).first().delete()
    before = {task.pk for task in queued("participant_explanations")}
    assert explanations.explanations_sweep() == len(seasons) - 1
    new = [task for task in queued("participant_explanations") if task.pk not in before]
    assert sorted(task.args_kwargs["kwargs"]["season_id"] for task in new) == sorted(
        season.pk for season in seasons if season != done
    )
