"""Groups with promotion and relegation through the services (issue 14): the worked figures
of tests/groups_data.py."""

from __future__ import annotations

import pytest
from django.utils import translation

from competition.models import GroupCompetition, Season
from competition.selectors.groups import group_competition_page, participant_group_line
from competition.services.errors import ServiceError
from competition.services.groups import (
    group_competition_create,
    groups_promote,
    groups_promotion_preview,
)
from tests.groups_data import (
    both_periods_played,
    evenings_play,
    group_competition_built,
    period_seasons,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _dutch():
    """The services speak the active language: Dutch, the default, whatever ran before."""
    with translation.override("nl"):
        yield


def _names(season: Season) -> list[str]:
    return list(season.participants.order_by("start_rank").values_list("member__name", flat=True))


def test_the_first_period_is_made_of_one_season_per_group() -> None:
    competition = group_competition_built()
    a, b = period_seasons(competition, 1)
    assert (a.group_letter, a.group_period, a.slug) == ("A", 1, "groepen-a1")
    assert (b.group_letter, b.group_period, b.slug) == ("B", 1, "groepen-b1")
    assert a.is_round_robin and a.system == "points"
    assert _names(a) == ["Ada", "Bob", "Cor", "Dirk"]
    assert _names(b) == ["Eva", "Fer", "Gus", "Hans"]


def test_promotion_is_refused_until_every_group_completed_the_period() -> None:
    competition = group_competition_built()
    seasons = period_seasons(competition, 1)
    evenings_play(seasons, 1, 2)
    with pytest.raises(ServiceError, match="Groep A heeft 2 van de 3 ronden van periode 1"):
        groups_promote(competition=competition)
    assert competition.group_seasons.count() == 2  # nothing made


def test_one_up_one_down_after_the_first_period() -> None:
    competition = group_competition_built()
    seasons = period_seasons(competition, 1)
    evenings_play(seasons, 1, 3)
    preview = groups_promotion_preview(competition=competition)
    by_name = {name: member for member, name in preview.names.items()}
    # A: Ada 3, Bob 2, Cor 1, Dirk 0; B: Eva 3, Fer 2, Gus 1, Hans 0.
    assert [preview.names[p] for p in preview.groups[0].standing.players] == [
        "Ada",
        "Bob",
        "Cor",
        "Dirk",
    ]
    assert preview.moves[by_name["Dirk"]] == "down"
    assert preview.moves[by_name["Eva"]] == "up"
    assert preview.moves[by_name["Ada"]] == "stay"  # the top group's winner has nowhere to go
    a2, b2 = groups_promote(competition=competition)
    assert (a2.group_letter, a2.group_period, a2.name) == (
        "A",
        2,
        "Groepencompetitie, groep A, periode 2",
    )
    assert _names(a2) == ["Ada", "Bob", "Cor", "Eva"]
    assert _names(b2) == ["Dirk", "Fer", "Gus", "Hans"]
    # the new seasons take over the system; the ended ones are finished
    assert (a2.kind, a2.system, a2.status) == ("round_robin", "points", "running")
    assert {s.status for s in period_seasons(competition, 1)} == {"finished"}


def test_no_promotion_after_the_last_period() -> None:
    competition = both_periods_played()
    with pytest.raises(ServiceError, match="Periode 2 is de laatste"):
        groups_promote(competition=competition)


@pytest.mark.parametrize(
    ("rule", "champion", "points"),
    [
        (GroupCompetition.ChampionRule.TOP_GROUP, "Cor", None),  # 3 of 3 in group A, period 2
        (GroupCompetition.ChampionRule.MOST_POINTS, "Ada", 5),  # 3 + 2 over both periods
    ],
)
def test_the_club_champion_by_each_rule(rule, champion, points) -> None:
    competition = both_periods_played(champion_rule=rule)
    page = group_competition_page(competition=competition)
    assert page.champion is not None
    assert page.champion.name == champion
    assert page.champion.game_points == points
    final_a = page.periods[1].groups[0]
    assert [(r.name, r.game_points) for r in final_a.rows] == [
        ("Cor", 3),
        ("Ada", 2),
        ("Eva", 1),
        ("Bob", 0),
    ]
    # period 1 marks who went; the last period marks nobody
    first_b = page.periods[0].groups[1]
    assert [(r.name, r.move) for r in first_b.rows] == [
        ("Eva", "up"),
        ("Fer", "stay"),
        ("Gus", "stay"),
        ("Hans", "stay"),
    ]
    assert {r.move for g in page.periods[1].groups for r in g.rows} == {""}


def test_no_champion_before_the_last_period_is_complete() -> None:
    competition = group_competition_built()
    evenings_play(period_seasons(competition, 1), 1, 3)
    assert group_competition_page(competition=competition).champion is None


def test_the_participant_line_says_where_he_went() -> None:
    competition = group_competition_built()
    a1, b1 = period_seasons(competition, 1)
    evenings_play([a1, b1], 1, 3)
    eva = b1.participants.get(member__name="Eva")
    dirk = a1.participants.get(member__name="Dirk")
    fer = b1.participants.get(member__name="Fer")
    # before the promotion: the place and what it would give
    assert participant_group_line(season=b1, participant_id=eva.pk) == (
        "Groep B, periode 1: 1e, een promotieplaats"
    )
    groups_promote(competition=competition)
    b1.refresh_from_db()
    assert participant_group_line(season=b1, participant_id=eva.pk) == (
        "Groep B, periode 1: 1e, gepromoveerd naar groep A"
    )
    assert participant_group_line(season=a1, participant_id=dirk.pk) == (
        "Groep A, periode 1: 4e, gedegradeerd naar groep B"
    )
    assert participant_group_line(season=b1, participant_id=fer.pk) == (
        "Groep B, periode 1: 2e, blijft in groep B"
    )


def test_a_group_too_small_for_the_moves_is_refused() -> None:
    competition = group_competition_built()
    members = list(competition.club.members.order_by("name"))
    with pytest.raises(ServiceError, match="Groep B heeft minder spelers dan er zouden"):
        group_competition_create(
            club=competition.club,
            name="Te klein",
            slug="te-klein",
            # B has two players; three would go up
            groups=[members[:4], members[4:6]],
            promoted=3,
            relegated=1,
        )


def test_a_competition_without_groups_has_nothing_to_promote() -> None:
    competition = group_competition_built()
    empty = GroupCompetition.objects.create(club=competition.club, name="Leeg", slug="leeg")
    with pytest.raises(ServiceError, match="Deze competitie heeft nog geen groepen"):
        groups_promote(competition=empty)
