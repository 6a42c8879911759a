"""A change of rules from the next round on, through the pages (issue 15): the TD's choice on
the rules page, the notice on the public standings, and the standings under rule set 1.

The season is the one of tests/services/test_rules_from_round.py: after round 2 under 1-½-0,
Anna 1½, Bart 0, Cor 1, Dirk 1½; the rules change to 3-1-0.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.urls import reverse

from competition.models import RuleChanges, Season
from tests.addresses import club_reverse
from tests.factories import club_admin_user
from tests.services.test_rules_from_round import play_round_three, points_season
from tests.views.test_staff_rules import _form

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client) -> User:
    user = club_admin_user()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return user


def _save_from_next_round(client, season: Season) -> Season:
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(
            unplayed_policy="plain",
            save="1",
            rule_changes=RuleChanges.NEXT_ROUND,
            **{"points__win": "3", "points__draw": "1"},
        ),
    )
    assert response.status_code == 302
    season.refresh_from_db()
    return season


def _scores(html: str) -> str:
    """The table's rows (its headings' sort links carry the query)."""
    return html[html.index("<tbody") : html.index("</tbody>")]


def test_the_td_chooses_next_round_and_the_history_says_so(client, staff) -> None:
    cache.clear()
    season, _ids = points_season()
    page = client.get(club_reverse("competition:season_rules", args=[season.slug])).content.decode()
    assert 'name="rule_changes" value="next_round"' in page
    season = _save_from_next_round(client, season)
    assert (season.rules_version, season.rules_from_round, season.rule_changes) == (
        2,
        3,
        "next_round",
    )
    page = client.get(club_reverse("competition:season_rules", args=[season.slug])).content.decode()
    assert "Scores the rounds from round 3 on; the rounds before keep their earlier values." in page
    assert "Scores the whole season." in page  # version 1
    assert f"{reverse('competition:standings', args=[season.slug])}?rules=1" in page


def test_public_standings_say_the_rules_changed_and_show_rule_set_one(client, staff) -> None:
    cache.clear()
    season, ids = points_season()
    url = club_reverse("competition:standings", args=[season.slug])
    before = _scores(client.get(url).content.decode())
    season = _save_from_next_round(client, season)
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(url).content.decode()
    assert "the rules changed (rule set 2): they score the rounds from round 3 on" in page
    assert f'href="{url}?rules=1"' in page
    earlier = client.get(f"{url}?rules=1").content.decode()
    assert "These are the standings under rule set 1, not the rules in force." in earlier
    # nothing was played since: the standings under rule set 1 are those before the change
    assert _scores(earlier) == before
    assert _scores(page) == before  # and the change left rounds 1 and 2 as they were
    play_round_three(season, ids)
    now = client.get(url).content.decode()
    under_one = client.get(f"{url}?rules=1").content.decode()
    assert "Fingerprint" in under_one and "rules version 1" in under_one
    assert _scores(now) != _scores(under_one)
    assert client.get(f"{url}?rules=9").status_code == 404


def test_a_whole_season_change_says_every_round_was_recomputed(client, staff) -> None:
    cache.clear()
    season, _ids = points_season()
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(
            unplayed_policy="plain",
            save="1",
            rule_changes=RuleChanges.WHOLE_SEASON,
            **{"points__win": "3", "points__draw": "1"},
        ),
    )
    assert response.status_code == 302
    page = client.get(club_reverse("competition:standings", args=[season.slug])).content.decode()
    assert "every round was recomputed under the new rules" in page


def test_a_change_of_system_from_the_next_round_is_refused_on_the_page(client, staff) -> None:
    season, _ids = points_season()
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(system="internal-sb", save="1", rule_changes=RuleChanges.NEXT_ROUND),
    )
    assert response.status_code == 200
    assert "A change of ranking system applies to the whole season" in response.content.decode()
    season.refresh_from_db()
    assert season.rules_version == 1


def test_the_participant_page_shows_the_carried_values(client, staff) -> None:
    """Cor after round 3: 3-1-0 gives him 1 + 1 + 3 = 5 for the whole season, but rounds 1 and
    2 keep 1 under 1-½-0: a line of −1 (1 instead of 2), total 4."""
    cache.clear()
    season, ids = points_season()
    season = _save_from_next_round(client, season)
    play_round_three(season, ids)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = club_reverse("competition:participant", args=[season.slug, ids["C"]])
    page = client.get(url).content.decode()
    assert "rounds 1 to 2 keep their values under rule set 1" in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    page = client.get(url).content.decode()
    assert "ronde 1 tot en met 2 houden hun waarden onder regelset 1" in page


def test_an_internal_sb_participant_page_names_the_carried_line(client, staff) -> None:
    """Internal SB; Eva is absent with notice in rounds 1-3; the unplayed value changes from ½
    to 0 from round 3 on. Her internal points: ½ + ½ kept from rounds 1-2, 0 for round 3: 1
    (0 under the new rules alone): the IP table shows a line "+1" named by its words."""
    from competition.services.rules import rules_save, rules_validate
    from competition.services.standings import standings_recompute
    from tests.factories import MemberFactory, ParticipantFactory, RoundEntryFactory

    cache.clear()
    season, ids = points_season()
    eva = ParticipantFactory(
        season=season, member=MemberFactory(club=season.club, name="Eva"), start_rank=5
    )
    for rnd in season.rounds.all():
        RoundEntryFactory(round=rnd, participant=eva, kind="absent_notice", points=0)
    Season.objects.filter(pk=season.pk).update(system="internal-sb", rule_changes="next_round")
    season.refresh_from_db()
    standings_recompute(season=season)
    rules = rules_validate(
        system="internal-sb",
        parameters={"unplayed_value": "0"},
        tiebreaks=[],
        unplayed_policy="plain",
        min_games=0,
    )
    season = rules_save(season=season, rules=rules)
    play_round_three(season, ids)
    r3 = season.rounds.get(number=3)
    RoundEntryFactory(round=r3, participant=eva, kind="absent_notice", points=0)
    standings_recompute(season=season)
    snapshot = season.snapshots.get(round_number=3)
    row = next(r for r in snapshot.rows if r["participant_id"] == eva.pk)
    assert row["values"]["IP"] == "1"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(club_reverse("competition:participant", args=[season.slug, eva.pk])).content
    assert b"rounds 1 to 2 keep their values under rule set 1" in html


def test_how_it_works_tells_of_the_change(client, staff) -> None:
    cache.clear()
    season, _ids = points_season()
    season = _save_from_next_round(client, season)
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    page = client.get(club_reverse("competition:how_it_works", args=[season.slug])).content.decode()
    assert "zijn de regels gewijzigd (regelset 2): ze tellen voor de ronden vanaf ronde 3" in page
    assert f"{reverse('competition:standings', args=[season.slug])}?rules=1" in page
