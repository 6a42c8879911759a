"""Corrections of closed rounds: a reason is required, later standings follow, history keeps all."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from competition.models import Game, RoundEntry, StandingsSnapshot
from competition.selectors.corrections import corrections_for_round
from competition.services import evening
from competition.services.errors import ServiceError
from competition.services.rounds import game_create, result_record, round_complete, round_create
from tests.factories import ParticipantFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_messages():
    """The messages are asserted in the source language; the app's default is Dutch."""
    with translation.override("en"):
        yield


@pytest.fixture
def two_rounds(td_user):
    """Points system, A B C D. Round 1: A-B 1-0, C-D 1-0. Round 2: A-C 1-0, B-D 1-0."""
    season = SeasonFactory(system="points")
    a, b, c, d = (ParticipantFactory(season=season, start_rank=i) for i in range(1, 5))
    (r1,) = round_create(seasons=[season], date=datetime.date(2026, 9, 10))
    g1 = game_create(round=r1, board=1, white=a, black=b, result="1-0")
    game_create(round=r1, board=2, white=c, black=d, result="1-0")
    evening.round_publish(round=r1, user=td_user)
    round_complete(round=r1, user=td_user)
    (r2,) = round_create(seasons=[season], date=datetime.date(2026, 9, 17))
    game_create(round=r2, board=1, white=a, black=c, result="1-0")
    game_create(round=r2, board=2, white=b, black=d, result="1-0")
    evening.round_publish(round=r2, user=td_user)
    round_complete(round=r2, user=td_user)
    return season, (a, b, c, d), r1, g1, td_user


def points(season, round_number: int) -> dict[int, str]:
    rows = StandingsSnapshot.objects.get(season=season, round_number=round_number).rows
    return {row["participant_id"]: row["game_points"] for row in rows}


def test_correction_needs_a_reason_and_changes_nothing_without(two_rounds) -> None:
    _season, _players, _r1, g1, user = two_rounds
    with pytest.raises(ServiceError, match="reason"):
        result_record(game_id=g1.id, result="0-1", expected_version=1, user=user)
    g1.refresh_from_db()
    assert (g1.result, g1.version) == ("1-0", 1)


def test_a_closed_round_cannot_get_an_open_board_back(two_rounds) -> None:
    season, _players, _r1, g1, user = two_rounds
    before = points(season, 1)
    with pytest.raises(ServiceError, match=r"Round 1 is closed: board 1 needs a result\."):
        result_record(game_id=g1.id, result="", expected_version=1, user=user, reason="undo")
    g1.refresh_from_db()
    assert (g1.result, g1.version) == ("1-0", 1)
    assert points(season, 1) == before


def test_correction_recomputes_that_round_and_later_ones(two_rounds) -> None:
    season, (a, b, c, d), r1, g1, user = two_rounds
    # Before: after round 2 A 1+1 = 2, B 0+1 = 1, C 1+0 = 1, D 0.
    assert points(season, 2) == {a.id: "2", b.id: "1", c.id: "1", d.id: "0"}
    result_record(
        game_id=g1.id, result="0-1", expected_version=1, user=user, reason="Players swapped seats"
    )
    # Round 1 now B wins: after round 1 A 0, B 1; after round 2 A 0+1 = 1, B 1+1 = 2.
    assert points(season, 1) == {a.id: "0", b.id: "1", c.id: "1", d.id: "0"}
    assert points(season, 2) == {a.id: "1", b.id: "2", c.id: "1", d.id: "0"}
    (correction,) = corrections_for_round(round=r1)
    assert correction.board == 1
    assert correction.reason == "Players swapped seats"
    assert (correction.before, correction.after) == ("1-0", "0-1")
    assert correction.corrected_by == user.get_username()
    assert correction.players == f"{a.member.name} – {b.member.name}"


def test_history_keeps_every_change_with_reason(two_rounds) -> None:
    _season, _players, _r1, g1, user = two_rounds
    result_record(game_id=g1.id, result="1/2", expected_version=1, user=user, reason="first fix")
    result_record(game_id=g1.id, result="0-1", expected_version=2, user=user, reason="second fix")
    records = list(Game.history.filter(id=g1.id).order_by("history_date", "history_id"))
    assert [(r.result, r.history_change_reason or "") for r in records] == [
        ("1-0", ""),
        ("1/2", "first fix"),
        ("0-1", "second fix"),
    ]


def test_entry_correction_with_reason(two_rounds, td_user) -> None:
    season, _players, r1, _g1, user = two_rounds
    late = ParticipantFactory(season=season, start_rank=5)
    entry = RoundEntry.objects.create(round=r1, participant=late, kind="absent_no_notice")
    with pytest.raises(ServiceError, match="reason"):
        evening.entry_correct(
            entry_id=entry.id,
            kind="absent_notice",
            points=None,
            reason=" ",
            user=user,
            expected_version=1,
        )
    evening.entry_correct(
        entry_id=entry.id,
        kind="absent_notice",
        points=Decimal("0"),
        reason="He had called the TD",
        user=user,
        expected_version=1,
    )
    entry.refresh_from_db()
    assert entry.kind == "absent_notice"
    (correction,) = corrections_for_round(round=r1)
    assert correction.board is None
    assert correction.reason == "He had called the TD"
    assert "absent without notice" in correction.before
    assert "absent with notice" in correction.after


def test_two_entry_corrections_from_one_version_the_second_is_refused(two_rounds) -> None:
    """Two TDs correct the same absence from the same page: the second is told who was first,
    and nothing of the first is overwritten."""
    season, _players, r1, _g1, _user = two_rounds
    anna = User.objects.create_user("td-anna", first_name="Anna")
    bert = User.objects.create_user("td-bert", first_name="Bert")
    late = ParticipantFactory(season=season, start_rank=5)
    entry = RoundEntry.objects.create(round=r1, participant=late, kind="absent_no_notice")
    shown = entry.version
    evening.entry_correct(
        entry_id=entry.id,
        kind="absent_notice",
        points=Decimal("0.5"),
        reason="He had called Anna",
        user=anna,
        expected_version=shown,
    )
    with pytest.raises(ServiceError, match="meanwhile") as refused:
        evening.entry_correct(
            entry_id=entry.id,
            kind="club_duty",
            points=Decimal("1"),
            reason="He was the arbiter",
            user=bert,
            expected_version=shown,
        )
    assert "Anna" in str(refused.value) and "absent with notice" in str(refused.value)
    entry.refresh_from_db()
    assert (entry.kind, entry.points, entry.updated_by) == ("absent_notice", Decimal("0.5"), anna)
    assert entry.version == shown + 1
    assert [c.reason for c in corrections_for_round(round=r1)] == ["He had called Anna"]
    # With the version the refusal showed, Bert's correction goes through.
    evening.entry_correct(
        entry_id=entry.id,
        kind="club_duty",
        points=Decimal("1"),
        reason="He was the arbiter",
        user=bert,
        expected_version=entry.version,
    )
    entry.refresh_from_db()
    assert (entry.kind, entry.version) == ("club_duty", shown + 2)


def test_draft_bookkeeping_is_not_a_correction(td_user) -> None:
    season = SeasonFactory(system="points")
    for i in range(1, 4):
        ParticipantFactory(season=season, start_rank=i)
    rnd = round_create(seasons=[season])[0]
    evening.pairing_propose(round=rnd, user=td_user)
    evening.pairing_propose(round=rnd, user=td_user, keep_fixed=False)
    assert corrections_for_round(round=rnd) == []
