"""A small club for the member pages: a running season of four players, one of whom (``me``)
has a member account, a TD of the club, and a client reading English."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from competition.models import ClubEvening, Participant, Season
from competition.permissions import td_group
from tests.factories import ClubFactory, MemberFactory, ParticipantFactory, SeasonFactory


@dataclass
class MemberClub:
    season: Season
    td: User
    user: User  # the member's own account
    me: Participant
    others: list[Participant]

    def evening(self, day: datetime.date, **fields: object) -> ClubEvening:
        number = ClubEvening.objects.filter(season=self.season).count() + 1
        return ClubEvening.objects.create(
            season=self.season, date=day, round_number=number, **fields
        )


def member_club(
    *,
    requested_byes: bool = False,
    deadline: datetime.time | None = None,
    slug: str = "interne",
) -> MemberClub:
    club = ClubFactory()
    season = SeasonFactory(
        club=club,
        name="Interne competitie",
        slug=slug,
        requested_byes=requested_byes,
        absence_deadline=deadline,
    )
    suffix = "" if slug == "interne" else f"-{slug}"  # a second season has its own people
    td = User.objects.create_user(f"td-sc{suffix}", password="td-pass-12345", first_name="Tom")
    td.groups.add(td_group(club))
    user = User.objects.create_user(f"anna{suffix}", password="anna-pass-12345")
    me = ParticipantFactory(season=season, member=MemberFactory(club=club, name="Anna de Vries"))
    me.member.user = user
    me.member.save()
    others = [
        ParticipantFactory(season=season, member=MemberFactory(club=club, name=name))
        for name in ("Bram Jansen", "Cor Visser", "Dirk Bakker")
    ]
    return MemberClub(season, td, user, me, others)


def english(client: Client, user: User) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def today() -> datetime.date:
    from django.utils import timezone

    return timezone.localdate()
