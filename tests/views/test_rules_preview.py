"""The rules page's preview: what a change "from the next round on" will do, with figures worked
out by hand from the rules in DOMAIN.md, and every option in words.

The Van den Brink season: start points (set by the TD) Anna 200, Bart 175, Cor 170, Dirk 165;
round 1: Dirk beats Anna, Cor draws Bart. Fewer than 14 games: every rank value is still the
start points. Per game: result part (3 / 0 / −3) + factor × (opponent's rank value − own).

With factor 0,07: Anna 200 − 3 − 0,07 × 35 = 194,55; Bart 175 − 0,07 × 5 = 174,65; Cor 170 +
0,07 × 5 = 170,35; Dirk 165 + 3 + 0,07 × 35 = 170,45: Anna, Bart, Dirk, Cor.
With factor 0,05: Anna 195,25; Bart 174,75; Cor 170,25; Dirk 169,75: Anna, Bart, Cor, Dirk.
So 0,05 from the next round on leaves the standings after round 1 as they are, but had it held
all season Cor and Dirk would swap: 2 participants with another place.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from competition.forms.rules import SeasonRulesForm
from competition.models import Round, RuleChanges, Season, SeasonRules, UnplayedPolicy
from competition.scoring.registry import SYSTEMS
from competition.services.standings import standings_recompute
from tests.addresses import club_reverse
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RoundFactory,
    SeasonFactory,
    club_admin_user,
)
from tests.views.test_staff_rules import _form

pytestmark = pytest.mark.django_db


def vdb_season() -> Season:
    club = ClubFactory()
    season = SeasonFactory(
        club=club,
        name="Van den Brink",
        slug="vdb-test",
        system="van-den-brink",
        parameters={},
        tiebreaks=[],
        unplayed_policy="plain",
        start_date=datetime.date(2026, 9, 1),
    )
    people = {
        name: ParticipantFactory(
            season=season,
            member=MemberFactory(club=club, name=name),
            start_rank=rank,
            start_points=points,
        )
        for rank, (name, points) in enumerate(
            [("Anna", 200), ("Bart", 175), ("Cor", 170), ("Dirk", 165)], start=1
        )
    }
    r1 = RoundFactory(season=season, number=1, date=datetime.date(2026, 9, 10))
    GameFactory(round=r1, board=1, white=people["Dirk"], black=people["Anna"], result="1-0")
    GameFactory(round=r1, board=2, white=people["Cor"], black=people["Bart"], result="1/2")
    Round.objects.filter(season=season).update(status=Round.Status.COMPLETED)
    standings_recompute(season=season)
    season.refresh_from_db()
    return season


@pytest.fixture
def staff(client) -> User:
    user = club_admin_user()
    client.force_login(user)
    return user


def _text(html: str) -> str:
    """The page's text, tags and runs of white space gone."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _section(html: str, start: str, end: str | None = None) -> str:
    part = html[html.index(start) :]
    return part[: part.index(end)] if end else part


def _preview(client, season: Season, **fields: str) -> str:
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(system="van-den-brink", preview="1", **fields),
    )
    assert response.status_code == 200
    assert not response.context["form"].errors
    return response.content.decode()


def test_the_standings_as_the_current_factor_gives_them(client, staff) -> None:
    season = vdb_season()
    rows = season.snapshots.get(round_number=1).rows
    order = [(row["participant_id"], row["values"]["VDB"]) for row in rows]
    names = dict(season.participants.values_list("pk", "member__name"))
    assert [(names[pid], value) for pid, value in order] == [
        ("Anna", "194.55"),
        ("Bart", "174.65"),
        ("Dirk", "170.45"),
        ("Cor", "170.35"),
    ]


def test_a_factor_from_the_next_round_shows_old_and_new_points_and_the_season_as_if(
    client, staff
) -> None:
    season = vdb_season()
    html = _preview(
        client,
        season,
        rule_changes=RuleChanges.NEXT_ROUND,
        **{"van-den-brink__factor": "0,05"},
    )
    assert "0 deelnemers zouden van plaats veranderen" not in html
    text = _text(html)
    assert "De nieuwe regels tellen vanaf ronde 2" in text
    # The table is seen from the middle of the standings: Bart, place 2, rank value 175.
    table = _text(_section(html, 'id="game-values-heading"', "</table>"))
    assert "Wat een partij in ronde 2 zou opleveren" in table
    assert "Bart (plaats 2, rangwaarde 175 nu, 175 met de nieuwe regels)" in table
    # against place 1 (Anna, rank value 200): 3 + 0,07 × 25 = 4,75 now, 3 + 0,05 × 25 = 4,25;
    # a draw 0 + 1,75 → 1,25; a loss −3 + 1,75 = −1,25 → −1,75
    first = _text(_section(html, "plaats 1", "</tr>"))
    assert "Anna" in first
    assert "nu 4,75 → met de nieuwe regels 4,25" in first
    assert "nu 1,75 → met de nieuwe regels 1,25" in first
    assert "nu −1,25 → met de nieuwe regels −1,75" in first
    # against place 3 (Dirk, 165): a win 3 − 0,07 × 10 = 2,30 now, 3 − 0,05 × 10 = 2,50
    third = _text(_section(_section(html, 'id="game-values-heading"'), "plaats 3", "</tr>"))
    assert "Dirk" in third and "nu 2,30 → met de nieuwe regels 2,50" in third
    # As if 0,05 had held all season, Cor and Dirk swap places.
    whole = _section(html, 'id="whole-season-heading"', "</table>")
    assert "2 deelnemers zouden een andere plaats hebben dan nu" in _text(whole)
    rows = [_text(row) for row in re.findall(r"<tr.*?</tr>", whole, re.S)[1:]]
    assert [row.split()[0:2] for row in rows] == [
        ["1", "Anna"],
        ["2", "Bart"],
        ["3", "Cor"],
        ["4", "Dirk"],
    ]
    assert "nu 170,35 → met de nieuwe regels 170,25" in rows[2] and "▲1" in rows[2]
    assert "nu 170,45 → met de nieuwe regels 169,75" in rows[3] and "▼1" in rows[3]
    # the preview comes first and the Preview button opens the page at it
    assert html.index('id="preview"') < html.index('name="system"')
    assert 'formaction="#preview"' in html
    season.refresh_from_db()
    assert season.rules_version == 1 and not SeasonRules.objects.exists()


def test_the_preview_in_english(client, staff) -> None:
    season = vdb_season()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = _preview(
        client,
        season,
        rule_changes=RuleChanges.NEXT_ROUND,
        **{"van-den-brink__factor": "0,05"},
    )
    text = _text(html)
    assert "now 4.75 → with the new rules 4.25" in text
    assert "2 participants would have another place than now" in text


def test_a_keizer_step_from_the_next_round_shows_the_values_of_the_places(client, staff) -> None:
    """Keizer with top value 10: a win against place 1 is worth V(1) = 10, against place 3
    10 − 2 × 1 = 8 with step 1 and 10 − 2 × 2 = 6 with step 2; a draw half of it."""
    season = vdb_season()
    Season.objects.filter(pk=season.pk).update(system="keizer", parameters={"top_value": 10})
    season.refresh_from_db()
    standings_recompute(season=season)
    html = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(
            system="keizer",
            preview="1",
            rule_changes=RuleChanges.NEXT_ROUND,
            **{"keizer__top_value": "10", "keizer__value_step": "2"},
        ),
    ).content.decode()
    table = _section(html, 'id="game-values-heading"', "</table>")
    first = _text(_section(table, "plaats 1", "</tr>"))
    # one number of decimals for the whole table: a draw against place 2 is worth 4,5
    assert "nu 10,0 → met de nieuwe regels 10,0" in first
    assert "nu 5,0 → met de nieuwe regels 5,0" in first
    third = _text(_section(table, "plaats 3", "</tr>"))
    assert "nu 8,0 → met de nieuwe regels 6,0" in third
    assert "nu 4,0 → met de nieuwe regels 3,0" in third


def test_only_the_chosen_systems_parameters_show(client, staff) -> None:
    season = vdb_season()
    html = client.get(club_reverse("competition:season_rules", args=[season.slug])).content
    page = html.decode()
    chosen = _section(page, 'id="chosen-system-parameters"', 'id="other-systems"')
    assert 'data-system="van-den-brink"' in chosen and 'data-system="keizer"' not in chosen
    others = _section(page, 'id="other-systems"', "</details>")
    assert others.startswith('id="other-systems">')  # closed
    for key in ("points", "internal-sb", "keizer"):
        assert f'data-system="{key}"' in others
    assert "Instellingen van de andere systemen" in others


CODES = {
    "none",
    "equal_opponent",
    "nothing",
    "absent_with_notice",
    "unplayed",
    "result",
    "every_n",
    "once",
    "fixed_point",
    "previous_values",
    "frozen",
    *UnplayedPolicy.values,
    *RuleChanges.values,
}


@pytest.mark.parametrize("language", ["nl", "en"])
def test_every_option_is_in_words(language: str) -> None:
    from django.utils import translation

    season = vdb_season()
    with translation.override(language):
        form = SeasonRulesForm(season=season)
        for name, field in form.fields.items():
            for value, label in getattr(field, "choices", []):
                assert str(label) not in CODES, (name, value, label)
                assert "_" not in str(label), (name, value, label)
                assert str(label).upper() != str(label) or not str(label).isalpha()


def test_no_codes_in_the_preview_headers(client, staff) -> None:
    season = vdb_season()
    for language in ("nl", "en"):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        html = _preview(client, season, **{"van-den-brink__factor": "0,05"})
        headers = [_text(th).strip() for th in re.findall(r"<th[^>]*>.*?</th>", html, re.S)]
        for code in ("KEIZER", "VALUE", "PTS", "VDB", "RV"):
            assert code not in headers
        assert all(not header.isupper() for header in headers if header.isalpha())


def test_every_system_has_its_choices_in_words() -> None:
    from competition.presentation import labels
    from competition.scoring.parameters import ParameterKind

    for system in SYSTEMS.values():
        for spec in system.parameters:
            if spec.kind is ParameterKind.CHOICE:
                for choice in spec.choices:
                    for language in ("nl", "en"):
                        assert labels.choice_label(choice, language) != choice


def test_an_error_in_another_systems_settings_opens_them(client, staff) -> None:
    season = vdb_season()
    response = client.post(
        club_reverse("competition:season_rules", args=[season.slug]),
        _form(system="van-den-brink", preview="1", **{"keizer__top_value": "9" * 21}),
    )
    assert list(response.context["form"].errors) == ["keizer__top_value"]
    page = response.content.decode()
    assert 'id="other-systems" open>' in page
    # no preview: Preview opens the page at the form, where the error is
    assert '<div id="preview"></div>' in page
