"""Withdrawing a participant from a season (issue 14), through the service and the TD's members
page: refused while he is in a pairing, no longer offered for pairing, the standings follow,
taken back on a second thought.

Internal SB (unplayed value ½). Round 1: Anna beats Bart, Cor draws Dirk, Eva absent with
notice. Round 2: Anna draws Cor, Dirk beats Bart, Eva absent with notice. Round 3 is open.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import translation

from competition.models import Participant, Round, RoundEntry, Season, StandingsSnapshot
from competition.selectors.evening import participants_in_round
from competition.services.errors import ServiceError
from competition.services.evening import latecomer_add
from competition.services.participants import participant_reinstate, participant_withdraw
from competition.services.standings import standings_recompute
from tests.addresses import club_reverse
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RoundEntryFactory,
    RoundFactory,
    SeasonFactory,
)

pytestmark = pytest.mark.django_db
F = Fraction


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def internal_season() -> tuple[Season, dict[str, Participant]]:
    club = ClubFactory()
    season = SeasonFactory(
        club=club, name="Intern", slug="intern", system="internal-sb", parameters={}, tiebreaks=[]
    )
    people = {
        name[0]: ParticipantFactory(
            season=season, member=MemberFactory(club=club, name=name), start_rank=i + 1
        )
        for i, name in enumerate(["Anna", "Bart", "Cor", "Dirk", "Eva"])
    }
    a, b, c, d, e = (people[k] for k in "ABCDE")
    r1 = RoundFactory(season=season, number=1, date=datetime.date(2026, 9, 10))
    r2 = RoundFactory(season=season, number=2, date=datetime.date(2026, 9, 17))
    GameFactory(round=r1, board=1, white=a, black=b, result="1-0")
    GameFactory(round=r1, board=2, white=c, black=d, result="1/2")
    GameFactory(round=r2, board=1, white=a, black=c, result="1/2")
    GameFactory(round=r2, board=2, white=d, black=b, result="1-0")
    for rnd in (r1, r2):
        RoundEntryFactory(round=rnd, participant=e, kind=RoundEntry.Kind.ABSENT_NOTICE, points=0)
    Round.objects.filter(season=season).update(status=Round.Status.COMPLETED)
    RoundFactory(
        season=season, number=3, date=datetime.date(2026, 9, 24), status=Round.Status.PLANNED
    )
    standings_recompute(season=season)
    return season, people


def eva_ip(season: Season) -> Fraction:
    snapshot = StandingsSnapshot.objects.get(season=season, round_number=2)
    eva = Participant.objects.get(season=season, member__name="Eva")
    return F(next(r for r in snapshot.rows if r["participant_id"] == eva.pk)["values"]["IP"])


def test_withdrawn_from_round_two_her_absence_there_no_longer_counts() -> None:
    """Before: IP ½ + ½ = 1. Withdrawn from round 2: her absence in round 2 is removed and the
    round earns nothing: IP ½."""
    season, people = internal_season()
    assert eva_ip(season) == 1
    participant_withdraw(participant=people["E"], from_round=2, note="moved away")
    assert eva_ip(season) == F(1, 2)
    assert not RoundEntry.objects.filter(participant=people["E"], round__number=2).exists()
    assert RoundEntry.objects.filter(participant=people["E"], round__number=1).exists()
    eva = Participant.objects.get(pk=people["E"].pk)
    assert (eva.withdrawn_from_round, eva.withdrawal_note) == (2, "moved away")
    # not offered for the open round
    open_round = Round.objects.get(season=season, number=3)
    assert people["E"].pk not in {p.pk for p in participants_in_round(round=open_round)}
    assert people["A"].pk in {p.pk for p in participants_in_round(round=open_round)}
    # back on second thoughts: round 2 has no record now, which counts ½ again
    participant_reinstate(participant=eva)
    assert eva_ip(season) == 1
    assert people["E"].pk in {p.pk for p in participants_in_round(round=open_round)}


def test_a_withdrawal_before_his_last_board_is_refused_and_changes_nothing() -> None:
    season, people = internal_season()
    with pytest.raises(ServiceError, match="The earliest round is 3"):
        participant_withdraw(participant=people["A"], from_round=2)
    with pytest.raises(ServiceError, match="The earliest round is 2"):
        participant_withdraw(participant=people["E"], from_round=1)
    assert (
        Participant.objects.filter(season=season, withdrawn_from_round__isnull=False).count() == 0
    )
    assert eva_ip(season) == 1


def test_a_withdrawn_member_is_not_taken_as_a_late_comer() -> None:
    season, people = internal_season()
    participant_withdraw(participant=people["E"], from_round=3)
    open_round = Round.objects.get(season=season, number=3)
    with pytest.raises(ServiceError, match="withdrew from the season from round 3"):
        latecomer_add(round=open_round, member=people["E"].member, user=None)


def test_the_td_withdraws_on_the_members_page_and_the_standings_say_so(client) -> None:
    cache.clear()
    season, people = internal_season()
    td = User.objects.create_user("td", password="x-td-pass-123")
    from competition.permissions import td_group

    td.groups.add(td_group(season.club))
    client.force_login(td)
    client.cookies["django_language"] = "en"
    url = club_reverse("competition:td_members", kwargs={"season_slug": season.slug})
    page = client.get(url).content.decode()
    assert 'name="from_round"' in page and 'value="3"' in page  # the open round by default
    eva = people["E"]
    withdraw = club_reverse("competition:td_member_withdraw", args=[season.slug, eva.member_id])
    response = client.post(withdraw, {"from_round": "2", "note": "illness"}, follow=True)
    assert "Eva is withdrawn from the season from round 2." in response.content.decode()
    assert "withdrawn from round 2" in response.content.decode()
    # a refused withdrawal says why and changes nothing
    anna = people["A"]
    refused = client.post(
        club_reverse("competition:td_member_withdraw", args=[season.slug, anna.member_id]),
        {"from_round": "1"},
        follow=True,
    )
    assert "The earliest round is 3" in refused.content.decode()
    assert Participant.objects.get(pk=anna.pk).withdrawn_from_round is None
    standings = client.get(club_reverse("competition:standings", args=[season.slug])).content
    assert b"withdrawn from round 2" in standings
    client.post(club_reverse("competition:td_member_reinstate", args=[season.slug, eva.member_id]))
    assert Participant.objects.get(pk=eva.pk).withdrawn_from_round is None


def test_the_participant_page_says_he_withdrew(client) -> None:
    cache.clear()
    season, people = internal_season()
    participant_withdraw(participant=people["E"], from_round=2, note="moved away")
    client.cookies["django_language"] = "en"
    page = client.get(club_reverse("competition:participant", args=[season.slug, people["E"].pk]))
    assert "Withdrawn from the season from round 2" in page.content.decode()
    other = client.get(club_reverse("competition:participant", args=[season.slug, people["A"].pk]))
    assert "Withdrawn from the season" not in other.content.decode()
