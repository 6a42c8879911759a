"""The database and the round service refuse impossible rounds, and change nothing when they do."""

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from competition.models import Game, RoundEntry
from competition.services.errors import ServiceError
from competition.services.rounds import entry_record, game_create
from tests.factories import ParticipantFactory, RoundFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def four():
    season = SeasonFactory()
    rnd = RoundFactory(season=season, number=1)
    players = [ParticipantFactory(season=season) for _ in range(4)]
    return rnd, players


def test_database_refuses_white_equal_black(four) -> None:
    rnd, (a, *_rest) = four
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(round=rnd, board=1, white=a, black=a)
    assert Game.objects.count() == 0


def test_database_refuses_two_entries_for_one_participant(four) -> None:
    rnd, (a, *_rest) = four
    RoundEntry.objects.create(round=rnd, participant=a, kind=RoundEntry.Kind.ABSENT_NOTICE)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundEntry.objects.create(round=rnd, participant=a, kind=RoundEntry.Kind.CLUB_DUTY)
    assert RoundEntry.objects.count() == 1


def test_database_refuses_a_board_twice(four) -> None:
    rnd, (a, b, c, d) = four
    Game.objects.create(round=rnd, board=1, white=a, black=b)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(round=rnd, board=1, white=c, black=d)


def test_service_refuses_playing_himself(four) -> None:
    rnd, (a, *_rest) = four
    with pytest.raises(ServiceError, match=r"cannot play himself|kan niet tegen zichzelf"):
        game_create(round=rnd, board=1, white=a, black=a)
    assert Game.objects.count() == 0


def test_service_refuses_a_participant_twice_in_a_round_across_colours(four) -> None:
    rnd, (a, b, c, _d) = four
    game_create(round=rnd, board=1, white=a, black=b)
    # b is black on board 1; as white on board 2 the database's per-colour constraints pass,
    # so the service must refuse it.
    with pytest.raises(ServiceError) as error:
        game_create(round=rnd, board=2, white=b, black=c)
    assert b.member.name in str(error.value)
    assert "1" in str(error.value)
    assert Game.objects.count() == 1


def test_service_refuses_absent_and_paired(four) -> None:
    rnd, (a, b, *_rest) = four
    game_create(round=rnd, board=1, white=a, black=b)
    with pytest.raises(ServiceError) as error:
        entry_record(round=rnd, participant=a, kind=RoundEntry.Kind.ABSENT_NOTICE)
    assert a.member.name in str(error.value)
    assert RoundEntry.objects.count() == 0


def test_service_refuses_paired_when_absent(four) -> None:
    rnd, (a, b, *_rest) = four
    entry_record(round=rnd, participant=a, kind=RoundEntry.Kind.CLUB_DUTY)
    with pytest.raises(ServiceError):
        game_create(round=rnd, board=1, white=a, black=b)
    assert Game.objects.count() == 0


def test_bye_gets_the_seasons_bye_points(four) -> None:
    rnd, (a, *_rest) = four
    rnd.season.bye_points = Decimal("0.5")
    rnd.season.save()
    entry = entry_record(round=rnd, participant=a, kind=RoundEntry.Kind.BYE)
    assert entry.points == Decimal("0.5")
    absent = entry_record(round=rnd, participant=a, kind=RoundEntry.Kind.ABSENT_NOTICE)
    assert absent.points == Decimal("0")
    assert RoundEntry.objects.count() == 1


def test_participant_of_another_season_is_refused(four) -> None:
    rnd, (a, *_rest) = four
    stranger = ParticipantFactory(season=SeasonFactory())
    with pytest.raises(ServiceError):
        game_create(round=rnd, board=1, white=a, black=stranger)
