"""A late-comer after the pairing was published: he plays another late-comer who is still
unpaired, else the player who had the bye (on a new board), else he gets the bye; the boards
already paired stay as they are, their results above all."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import translation

from competition.models import Game, Participant, Round, RoundEntry
from competition.permissions import td_group
from competition.services import evening
from competition.services.errors import ServiceError
from competition.services.rounds import result_record, round_complete, round_create
from tests.addresses import club_reverse
from tests.factories import MemberFactory, ParticipantFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_messages():
    with translation.override("en"):
        yield


def published(td_user: User, players: int) -> tuple[Round, list[Participant]]:
    """A published first round of ``players`` players, board 1 with a result."""
    season = SeasonFactory(system="points", bye_points=Decimal("1"))
    people = [ParticipantFactory(season=season, start_rank=i) for i in range(1, players + 1)]
    (rnd,) = round_create(seasons=[season], date=datetime.date(2026, 9, 10))
    evening.pairing_propose(round=rnd, user=td_user)
    evening.round_publish(round=rnd, user=td_user)
    board_1 = Game.objects.get(round=rnd, board=1)
    result_record(game_id=board_1.pk, result="1-0", expected_version=1, user=td_user)
    return rnd, people


def boards(rnd: Round) -> list[tuple[object, ...]]:
    return list(
        Game.objects.filter(round=rnd)
        .order_by("board")
        .values_list("board", "white_id", "black_id", "result", "version", "updated_at")
    )


def bye_of(rnd: Round) -> int | None:
    entry = RoundEntry.objects.filter(round=rnd, kind=RoundEntry.Kind.BYE).first()
    return entry.participant_id if entry else None


def test_latecomer_plays_the_player_who_had_the_bye_on_a_new_board(td_user) -> None:
    rnd, _people = published(td_user, 5)
    before, had_bye = boards(rnd), bye_of(rnd)
    assert had_bye is not None and len(before) == 2
    late = evening.latecomer_add(round=rnd, name="Laat Komer", user=td_user)
    after = boards(rnd)
    assert after[:2] == before  # the boards already paired are untouched
    (new,) = after[2:]
    assert new[0] == 3 and {new[1], new[2]} == {late.pk, had_bye}
    assert new[3] == Game.Result.NOT_PLAYED
    assert bye_of(rnd) is None
    assert Round.objects.get(pk=rnd.pk).is_published


def test_latecomer_gets_the_bye_when_nobody_is_free(td_user) -> None:
    rnd, _people = published(td_user, 4)
    before = boards(rnd)
    assert bye_of(rnd) is None
    late = evening.latecomer_add(round=rnd, name="Laat Komer", user=td_user)
    assert boards(rnd) == before
    entry = RoundEntry.objects.get(round=rnd, participant=late)
    assert (entry.kind, entry.points) == (RoundEntry.Kind.BYE, Decimal("1"))


def test_latecomer_plays_another_unpaired_latecomer_before_the_bye(td_user) -> None:
    rnd, _people = published(td_user, 5)
    before, had_bye = boards(rnd), bye_of(rnd)
    # Someone who joined after the publishing without a board (an import, say).
    waiting = ParticipantFactory(season=rnd.season, start_rank=6, joined_round=1)
    late = evening.latecomer_add(round=rnd, name="Laat Komer", user=td_user)
    after = boards(rnd)
    assert after[:2] == before
    (new,) = after[2:]
    assert {new[1], new[2]} == {late.pk, waiting.pk}
    assert bye_of(rnd) == had_bye  # the bye stays where it was


def test_absent_member_who_comes_after_all_is_seated(td_user) -> None:
    season = SeasonFactory(system="points", bye_points=Decimal("1"))
    people = [ParticipantFactory(season=season, start_rank=i) for i in range(1, 6)]
    (rnd,) = round_create(seasons=[season], date=datetime.date(2026, 9, 10))
    evening.attendance_record(
        round=rnd, marks={people[4].pk: RoundEntry.Kind.ABSENT_NOTICE}, user=td_user
    )
    evening.pairing_propose(round=rnd, user=td_user)
    evening.round_publish(round=rnd, user=td_user)
    before = boards(rnd)
    evening.latecomer_add(round=rnd, member=people[4].member, user=td_user)
    assert boards(rnd) == before
    entry = RoundEntry.objects.get(round=rnd, participant=people[4])
    assert entry.kind == RoundEntry.Kind.BYE


def test_no_latecomer_in_a_closed_round(td_user) -> None:
    rnd, _people = published(td_user, 4)
    for game in Game.objects.filter(round=rnd, result=Game.Result.NOT_PLAYED):
        result_record(game_id=game.pk, result="1/2", expected_version=game.version, user=td_user)
    round_complete(round=rnd, user=td_user)
    with pytest.raises(ServiceError, match="closed"):
        evening.latecomer_add(round=rnd, name="Laat Komer", user=td_user)
    assert not Participant.objects.filter(member__name="Laat Komer").exists()


def test_results_page_adds_a_latecomer_and_says_where_he_plays(td_user) -> None:
    rnd, _people = published(td_user, 5)
    had_bye = Participant.objects.get(pk=bye_of(rnd))
    td_user.groups.add(td_group(rnd.season.club))
    client = Client()
    client.force_login(td_user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    results = club_reverse("competition:td_results", args=[rnd.season.slug, rnd.number])
    page = client.get(results).content.decode()
    assert club_reverse("competition:td_latecomer", args=[rnd.season.slug, rnd.number]) in page
    member = MemberFactory(club=rnd.season.club, name="Laura Laat")
    response = client.post(
        club_reverse("competition:td_latecomer", args=[rnd.season.slug, rnd.number]),
        {"member": member.pk, "back": "results"},
    )
    assert response["Location"] == results
    (message,) = [str(m) for m in get_messages(response.wsgi_request)]
    game = Game.objects.get(round=rnd, board=3)
    white, black = game.white.member.name, game.black.member.name
    assert {white, black} == {"Laura Laat", had_bye.member.name}
    other = black if white == "Laura Laat" else white
    assert message == f"Laura Laat plays {other} on board 3."
