"""factory_boy factories for the competition models."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth.models import User

from competition.models import Club, Game, Member, Participant, Round, RoundEntry, Season


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ["slug"]

    name = "Schaakclub Test"
    slug = "sc-test"


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Member

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Speler {n:02d}")
    rating = factory.Sequence(lambda n: 2200 - (n * 10) % 1000)


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Competitie {n}")
    slug = factory.Sequence(lambda n: f"competitie-{n}")
    start_date = datetime.date(2026, 9, 1)
    system = "internal-sb"
    unplayed_policy = "unplayed-as-draw"


class ParticipantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Participant

    season = factory.SubFactory(SeasonFactory)
    member = factory.SubFactory(MemberFactory, club=factory.SelfAttribute("..season.club"))
    start_rank = factory.Sequence(lambda n: n + 1)
    rating = factory.SelfAttribute("member.rating")  # the event rating, as at enrolment


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    season = factory.SubFactory(SeasonFactory)
    number = factory.Sequence(lambda n: n + 1)
    date = datetime.date(2026, 9, 10)
    # A season has one open round at most (a constraint): rounds made for a test are past
    # rounds unless the test says otherwise.
    status = Round.Status.COMPLETED


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    round = factory.SubFactory(RoundFactory)
    board = factory.Sequence(lambda n: n + 1)
    white = factory.SubFactory(ParticipantFactory, season=factory.SelfAttribute("..round.season"))
    black = factory.SubFactory(ParticipantFactory, season=factory.SelfAttribute("..round.season"))
    result = Game.Result.NOT_PLAYED


class RoundEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RoundEntry

    round = factory.SubFactory(RoundFactory)
    participant = factory.SubFactory(
        ParticipantFactory, season=factory.SelfAttribute("..round.season")
    )
    kind = RoundEntry.Kind.ABSENT_NOTICE


def club_admin_user(username: str = "staff", *, club: Club | None = None) -> User:
    """A user who is an admin of ``club`` (the factories' club when None): the role that sets a
    season's rules."""
    from competition.permissions import admin_group

    user = User.objects.create_user(username, password="staff-pass-123")
    user.groups.add(admin_group(club or ClubFactory()))
    return user
