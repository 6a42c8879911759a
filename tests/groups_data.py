"""A group competition played through the services, for the groups tests (issue 14).

Two groups of four, round robin, three rounds per period, one up and one down. In every game
the player earlier in the period's strength order wins:

- period 1: Eva, Ada, Bob, Cor, Dirk, Fer, Gus, Hans
- period 2: Cor, Ada, Eva, Bob, Dirk, Fer, Gus, Hans (Cor's good spell)

Period 1: A (Ada, Bob, Cor, Dirk) ends Ada 3, Bob 2, Cor 1, Dirk 0; B (Eva, Fer, Gus, Hans)
ends Eva 3, Fer 2, Gus 1, Hans 0. Dirk goes down, Eva goes up.
Period 2: A (Ada, Bob, Cor, Eva) ends Cor 3, Ada 2, Eva 1, Bob 0; B (Dirk, Fer, Gus, Hans)
ends Dirk 3, Fer 2, Gus 1, Hans 0.
Game points over both periods: Ada 3 + 2 = 5, Cor 1 + 3 = 4, Eva 3 + 1 = 4, Fer 2 + 2 = 4,
Dirk 0 + 3 = 3, Bob 2 + 0 = 2, Gus 1 + 1 = 2, Hans 0.
Club champion: Cor by "winner of the top group of the last period", Ada by "most points".
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from competition.models import Club, Game, GroupCompetition, Member, Season
from competition.services.evening import pairing_propose, round_publish
from competition.services.groups import group_competition_create, groups_promote
from competition.services.rounds import result_record, round_complete, round_create

NAMES = ["Ada", "Bob", "Cor", "Dirk", "Eva", "Fer", "Gus", "Hans"]
STRENGTH = {
    1: ["Eva", "Ada", "Bob", "Cor", "Dirk", "Fer", "Gus", "Hans"],
    2: ["Cor", "Ada", "Eva", "Bob", "Dirk", "Fer", "Gus", "Hans"],
}
FIRST_EVENING = datetime.date(2026, 9, 10)


def group_competition_built(
    *, champion_rule: str = GroupCompetition.ChampionRule.TOP_GROUP, slug: str = "groepen"
) -> GroupCompetition:
    club = Club.objects.create(name="Schaakclub De Pion", slug=f"{slug}-club")
    members = {name: Member.objects.create(club=club, name=name) for name in NAMES}
    return group_competition_create(
        club=club,
        name="Groepencompetitie",
        slug=slug,
        groups=[[members[n] for n in NAMES[:4]], [members[n] for n in NAMES[4:]]],
        season_fields={
            "kind": Season.Kind.ROUND_ROBIN,
            "system": "points",
            "tiebreaks": [],
            "unplayed_policy": "plain",
        },
        champion_rule=champion_rule,
        start_date=FIRST_EVENING,
    )


def evenings_play(seasons: Sequence[Season], period: int, count: int, first: int = 0) -> None:
    """``count`` club evenings with every group of the period on each (one round_create)."""
    order = STRENGTH[period]
    for number in range(first, first + count):
        date = FIRST_EVENING + datetime.timedelta(weeks=number + 10 * (period - 1))
        for rnd in round_create(seasons=list(seasons), date=date):
            pairing_propose(round=rnd, user=None)
            round_publish(round=rnd, user=None)
            games = Game.objects.filter(round=rnd).select_related("white__member", "black__member")
            for game in games:
                white, black = game.white.member.name, game.black.member.name
                result = (
                    Game.Result.WHITE_WINS
                    if order.index(white) < order.index(black)
                    else Game.Result.BLACK_WINS
                )
                result_record(
                    game_id=game.id, result=result, expected_version=game.version, user=None
                )
            round_complete(round=rnd, user=None)


def period_seasons(competition: GroupCompetition, period: int) -> list[Season]:
    return list(competition.group_seasons.filter(group_period=period).order_by("group_letter"))


def both_periods_played(
    *, champion_rule: str = GroupCompetition.ChampionRule.TOP_GROUP
) -> GroupCompetition:
    competition = group_competition_built(champion_rule=champion_rule)
    evenings_play(period_seasons(competition, 1), 1, 3)
    groups_promote(competition=competition, start_date=FIRST_EVENING + datetime.timedelta(weeks=10))
    evenings_play(period_seasons(competition, 2), 2, 3)
    return competition
