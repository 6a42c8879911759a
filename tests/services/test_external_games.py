"""External games through the TD's pages (issue 14): the result of a club duty that was a team
match, recorded in the open round, refused where it makes no sense, corrected in a closed round
with a reason; the standings follow the season's ``external_game`` parameter.

Internal SB with external_game "result". Round 1 (closed): Anna beats Bart, Cor draws Dirk,
Eva on club duty (a team match). Round 2 is open (published), Eva again on club duty.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from competition.models import Participant, Round, RoundEntry, StandingsSnapshot
from competition.permissions import td_group
from competition.services.errors import ServiceError
from competition.services.evening import entry_correct
from competition.services.rounds import external_result_record
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


@pytest.fixture
def season_with_duties():
    club = ClubFactory()
    season = SeasonFactory(
        club=club,
        name="Intern",
        slug="intern",
        system="internal-sb",
        parameters={"external_game": "result"},
        tiebreaks=[],
    )
    people = {
        name[0]: ParticipantFactory(
            season=season, member=MemberFactory(club=club, name=name), start_rank=i + 1
        )
        for i, name in enumerate(["Anna", "Bart", "Cor", "Dirk", "Eva"])
    }
    r1 = RoundFactory(season=season, number=1, date=datetime.date(2026, 9, 10))
    GameFactory(round=r1, board=1, white=people["A"], black=people["B"], result="1-0")
    GameFactory(round=r1, board=2, white=people["C"], black=people["D"], result="1/2")
    duty1 = RoundEntryFactory(round=r1, participant=people["E"], kind="club_duty", points=0)
    r2 = RoundFactory(
        season=season, number=2, date=datetime.date(2026, 9, 17), status=Round.Status.PAIRED
    )
    GameFactory(round=r2, board=1, white=people["A"], black=people["C"], result="")
    duty2 = RoundEntryFactory(round=r2, participant=people["E"], kind="club_duty", points=0)
    absent = RoundEntryFactory(round=r2, participant=people["B"], kind="absent_notice", points=0)
    standings_recompute(season=season)
    return season, people, duty1, duty2, absent


def eva_ip(season) -> Fraction:
    eva = Participant.objects.get(season=season, member__name="Eva")
    snapshot = StandingsSnapshot.objects.get(season=season, round_number=1)
    return F(next(r for r in snapshot.rows if r["participant_id"] == eva.pk)["values"]["IP"])


def test_the_td_records_an_external_game_in_the_open_round(client, season_with_duties) -> None:
    season, _people, _duty1, duty2, absent = season_with_duties
    td = User.objects.create_user("td", password="x-td-pass-123")
    td.groups.add(td_group(season.club))
    client.force_login(td)
    client.cookies["django_language"] = "en"
    results = club_reverse("competition:td_results", args=[season.slug, 2])
    page = client.get(results).content.decode()
    save = club_reverse("competition:td_external_result_save", args=[season.slug, 2, duty2.pk])
    assert f'action="{save}"' in page and "external game won" in page
    response = client.post(save, {"result": "1", "version": duty2.version}, follow=True)
    assert response.status_code == 200
    duty2.refresh_from_db()
    assert (duty2.external_result, duty2.version) == ("1", 2)
    # a second tap with the old version: refused, nothing changes
    stale = client.post(save, {"result": "0", "version": 1}, follow=True).content.decode()
    assert "was changed meanwhile" in stale
    duty2.refresh_from_db()
    assert duty2.external_result == "1"
    # another kind of entry is no external game
    with pytest.raises(ServiceError, match="only a club duty can be an external game"):
        external_result_record(entry_id=absent.pk, result="1", expected_version=absent.version)


def test_a_closed_round_takes_it_through_a_correction(season_with_duties) -> None:
    """Round 1 closed: Eva's club duty counts ½ (no result yet); the correction records the
    team match as won: with external_game "result" her IP becomes 1."""
    season, _people, duty1, _duty2, _absent = season_with_duties
    assert eva_ip(season) == F(1, 2)
    with pytest.raises(ServiceError, match="correction page"):
        external_result_record(entry_id=duty1.pk, result="1", expected_version=duty1.version)
    entry_correct(
        entry_id=duty1.pk,
        kind="club_duty",
        points=None,
        reason="teamwedstrijd gewonnen",
        user=None,
        expected_version=duty1.version,
        external_result="1",
    )
    assert eva_ip(season) == 1
    # a change of kind ends the external game
    duty1.refresh_from_db()
    entry_correct(
        entry_id=duty1.pk,
        kind="absent_notice",
        points=None,
        reason="toch afwezig",
        user=None,
        expected_version=duty1.version,
    )
    assert RoundEntry.objects.get(pk=duty1.pk).external_result == ""
    assert eva_ip(season) == F(1, 2)


def test_the_participant_page_counts_external_games_apart(client, season_with_duties) -> None:
    """Eva: no game over the board, one external game (won) in round 1: "External games 1 (1)"
    beside "Games 0"."""
    cache.clear()  # pages of other tests' seasons share ids and versions
    season, people, duty1, _duty2, _absent = season_with_duties
    entry_correct(
        entry_id=duty1.pk,
        kind="club_duty",
        points=None,
        reason="teamwedstrijd gewonnen",
        user=None,
        expected_version=duty1.version,
        external_result="1",
    )
    client.cookies["django_language"] = "en"
    html = client.get(
        club_reverse("competition:participant", args=[season.slug, people["E"].pk])
    ).content.decode()
    block = html[html.index('class="external-games"') :]
    assert "External games" in block and '<dd class="h4 mb-0">1 <small' in block
