"""A change of rules from the next round on: earlier rounds keep their values (issue 15).

The season: game points, Anna, Bart, Cor and Dirk. Round 1: Anna beats Bart, Cor draws Dirk.
Round 2: Anna draws Cor, Dirk beats Bart. Under 1-½-0 after round 2: Anna 1½, Bart 0, Cor 1,
Dirk 1½. The rules change to 3-1-0; round 3: Bart beats Anna, Cor beats Dirk.
"""

from __future__ import annotations

import datetime
import io
import json
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from competition.models import (
    Participant,
    Round,
    RuleChanges,
    Season,
    SeasonRules,
    StandingsSnapshot,
)
from competition.scoring.engine import standings_after
from competition.selectors.common import season_input
from competition.services.errors import ServiceError
from competition.services.rules import rules_preview, rules_save, rules_validate
from competition.services.standings import standings_recompute, standings_verify
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RoundFactory,
    SeasonFactory,
)

pytestmark = pytest.mark.django_db
F = Fraction


@pytest.fixture(autouse=True)
def _english_messages():
    with translation.override("en"):
        yield


def points_season() -> tuple[Season, dict[str, int]]:
    club = ClubFactory()
    season = SeasonFactory(
        club=club,
        name="Punten",
        slug="punten",
        system="points",
        parameters={},
        tiebreaks=[],
        unplayed_policy="plain",
        start_date=datetime.date(2026, 9, 1),
    )
    people = {
        name[0]: ParticipantFactory(
            season=season, member=MemberFactory(club=club, name=name), start_rank=i + 1
        )
        for i, name in enumerate(["Anna", "Bart", "Cor", "Dirk"])
    }
    a, b, c, d = (people[k] for k in "ABCD")
    r1 = RoundFactory(season=season, number=1, date=datetime.date(2026, 9, 10))
    r2 = RoundFactory(season=season, number=2, date=datetime.date(2026, 9, 17))
    GameFactory(round=r1, board=1, white=a, black=b, result="1-0")
    GameFactory(round=r1, board=2, white=c, black=d, result="1/2")
    GameFactory(round=r2, board=1, white=a, black=c, result="1/2")
    GameFactory(round=r2, board=2, white=b, black=d, result="0-1")
    Round.objects.filter(season=season).update(status=Round.Status.COMPLETED)
    standings_recompute(season=season)
    season.refresh_from_db()
    return season, {key: p.pk for key, p in people.items()}


def player(pk: int) -> Participant:
    return Participant.objects.get(pk=pk)


def play_round_three(season: Season, ids: dict[str, int]) -> None:
    r3 = RoundFactory(season=season, number=3, date=datetime.date(2026, 9, 24))
    GameFactory(round=r3, board=1, white=player(ids["B"]), black=player(ids["A"]), result="1-0")
    GameFactory(round=r3, board=2, white=player(ids["C"]), black=player(ids["D"]), result="1-0")
    Round.objects.filter(pk=r3.pk).update(status=Round.Status.COMPLETED)
    standings_recompute(season=season)
    season.refresh_from_db()


FOOTBALL = {"system": "points", "parameters": {"win": "3", "draw": "1"}}


def football():
    return rules_validate(**FOOTBALL, tiebreaks=[], unplayed_policy="plain", min_games=0)


def scores(season: Season, after: int) -> dict[str, Fraction]:
    snapshot = StandingsSnapshot.objects.get(season=season, round_number=after)
    names = {p.pk: p.member.name[0] for p in season.participants.select_related("member")}
    return {names[row["participant_id"]]: F(row["score"]) for row in snapshot.rows}


def test_a_change_from_the_next_round_keeps_the_published_rounds() -> None:
    season, ids = points_season()
    published = {s.round_number: s.rows for s in StandingsSnapshot.objects.filter(season=season)}
    season = rules_save(season=season, rules=football(), rule_changes=RuleChanges.NEXT_ROUND)
    assert (season.rules_version, season.rules_from_round, season.rule_changes) == (
        2,
        3,
        "next_round",
    )
    assert list(
        SeasonRules.objects.filter(season=season)
        .order_by("version")
        .values_list("version", "from_round")
    ) == [
        (1, 1),
        (2, 3),
    ]
    # rounds 1 and 2 stay exactly as published
    for snapshot in StandingsSnapshot.objects.filter(season=season):
        assert snapshot.rows == published[snapshot.round_number]
        assert snapshot.rules_version == 2
    play_round_three(season, ids)
    # Round 3 under 3-1-0 on top of rounds 1-2 under 1-½-0: Anna 1½ + 0, Bart 0 + 3,
    # Cor 1 + 3, Dirk 1½ + 0.
    assert scores(season, 3) == {"A": F(3, 2), "B": 3, "C": 4, "D": F(3, 2)}
    assert scores(season, 2) == {"A": F(3, 2), "B": 0, "C": 1, "D": F(3, 2)}
    assert standings_verify(season=season).difference is None


def test_a_change_for_the_whole_season_recomputes_every_round() -> None:
    """3-1-0 everywhere: Anna 3 + 1 + 0, Bart 0 + 0 + 3, Cor 1 + 1 + 3, Dirk 1 + 3 + 0."""
    season, ids = points_season()
    season = rules_save(season=season, rules=football(), rule_changes=RuleChanges.WHOLE_SEASON)
    assert season.rules_from_round == 1
    assert scores(season, 2) == {"A": 4, "B": 0, "C": 2, "D": 4}
    play_round_three(season, ids)
    assert scores(season, 3) == {"A": 4, "B": 3, "C": 5, "D": 4}


def test_the_standings_under_rule_set_one_are_those_before_the_change() -> None:
    season, ids = points_season()
    before = standings_after(season_input(season=season), 2)
    season = rules_save(season=season, rules=football(), rule_changes=RuleChanges.NEXT_ROUND)
    play_round_three(season, ids)
    under_one = season_input(season=season, rules_version=1)
    assert (under_one.rules_from_round, under_one.earlier_rules) == (1, ())
    assert standings_after(under_one, 2) == before
    # Round 3 under 1-½-0 alone: Anna 1½, Bart 1, Cor 2, Dirk 1½.
    assert {row.participant_id: row.score for row in standings_after(under_one, 3).rows} == {
        ids["A"]: F(3, 2),
        ids["B"]: 1,
        ids["C"]: 2,
        ids["D"]: F(3, 2),
    }
    with pytest.raises(SeasonRules.DoesNotExist):
        season_input(season=season, rules_version=7)


def test_a_second_change_from_a_later_round_chains_the_rule_sets() -> None:
    """Rule set 3 (2-1-0) from round 4: rounds 1-2 under 1-½-0, round 3 under 3-1-0, round 4
    under 2-1-0. Round 4: Anna beats Dirk, Bart draws Cor: Anna 1½ + 2 = 3½, Bart 3 + 1 = 4,
    Cor 4 + 1 = 5, Dirk 1½."""
    season, ids = points_season()
    season = rules_save(season=season, rules=football(), rule_changes=RuleChanges.NEXT_ROUND)
    play_round_three(season, ids)
    two_one = rules_validate(
        system="points",
        parameters={"win": "2", "draw": "1"},
        tiebreaks=[],
        unplayed_policy="plain",
        min_games=0,
    )
    season = rules_save(season=season, rules=two_one)  # the season's setting: next round
    assert (season.rules_version, season.rules_from_round) == (3, 4)
    r4 = RoundFactory(season=season, number=4, date=datetime.date(2026, 10, 1))
    GameFactory(round=r4, board=1, white=player(ids["A"]), black=player(ids["D"]), result="1-0")
    GameFactory(round=r4, board=2, white=player(ids["B"]), black=player(ids["C"]), result="1/2")
    Round.objects.filter(pk=r4.pk).update(status=Round.Status.COMPLETED)
    standings_recompute(season=season)
    assert scores(season, 3) == {"A": F(3, 2), "B": 3, "C": 4, "D": F(3, 2)}
    assert scores(season, 4) == {"A": F(7, 2), "B": 4, "C": 5, "D": F(3, 2)}
    chained = season_input(season=season)
    assert [(r.version, r.from_round) for r in chained.earlier_rules] == [(1, 1), (2, 3)]


def test_a_change_of_system_cannot_apply_from_the_next_round() -> None:
    season, _ids = points_season()
    internal = rules_validate(
        system="internal-sb", parameters={}, tiebreaks=[], unplayed_policy="plain", min_games=0
    )
    with pytest.raises(ServiceError, match="applies to the whole season"):
        rules_save(season=season, rules=internal, rule_changes=RuleChanges.NEXT_ROUND)
    season.refresh_from_db()
    assert (season.rules_version, season.system) == (1, "points")


def test_the_preview_of_a_change_from_the_next_round_moves_nobody() -> None:
    season, _ids = points_season()
    preview = rules_preview(season=season, rules=football(), rule_changes=RuleChanges.NEXT_ROUND)
    assert preview.movers == []
    assert [row.new_score for row in preview.rows] == [row.current_score for row in preview.rows]
    whole = rules_preview(season=season, rules=football())
    assert {row.name: row.new_score for row in whole.rows}["Anna"] == 4


def test_the_standings_command_under_an_earlier_rule_set() -> None:
    season, ids = points_season()
    season = rules_save(season=season, rules=football(), rule_changes=RuleChanges.NEXT_ROUND)
    play_round_three(season, ids)
    out = io.StringIO()
    call_command("standings", "punten", "--rules-version", "1", "--format", "json", stdout=out)
    document = json.loads(out.getvalue())
    assert document["rules_version"] == 1
    assert {row["name"]: row["score"] for row in document["standings"]} == {
        "Anna": 1.5,
        "Bart": 1,
        "Cor": 2,
        "Dirk": 1.5,
    }
    out = io.StringIO()
    call_command("standings", "punten", "--format", "json", stdout=out)
    current = json.loads(out.getvalue())
    assert current["rules_version"] == 2
    assert {row["name"]: row["score"] for row in current["standings"]}["Cor"] == 4
    with pytest.raises(CommandError, match="no rule set version 5"):
        call_command("standings", "punten", "--rules-version", "5", stdout=io.StringIO())


def test_saving_the_same_rules_twice_makes_one_version() -> None:
    """A double tap on Save: the second save finds the rules in force and changes nothing."""
    season, _ids = points_season()
    season = rules_save(season=season, rules=football(), rule_changes=RuleChanges.NEXT_ROUND)
    again = rules_save(season=season, rules=football(), rule_changes=RuleChanges.NEXT_ROUND)
    assert (again.rules_version, again.rules_from_round) == (2, 3)
    assert SeasonRules.objects.filter(season=season).count() == 2
    # the same rules for the whole season are a change of scope: a new version
    whole = rules_save(season=season, rules=football(), rule_changes=RuleChanges.WHOLE_SEASON)
    assert (whole.rules_version, whole.rules_from_round) == (3, 1)
