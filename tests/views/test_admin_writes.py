"""Admin writes keep the standings true: results recompute, renames refresh cached pages,
rules change only through the rules page."""

import pytest
from django.urls import reverse

from competition.models import Game, Member, Round, Season, StandingsSnapshot

pytestmark = pytest.mark.django_db

SLUG = "interne-2026-2027"


@pytest.fixture
def demo(demo_club):
    return None


def _change_form(client, model: str, obj) -> dict:
    """The admin change form's current values, ready to post back."""
    response = client.get(reverse(f"admin:competition_{model}_change", args=[obj.pk]))
    form = response.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None:
            value = ""
        data[name] = value
    return data


def test_a_result_changed_in_the_admin_recomputes_the_standings(client, demo, superuser) -> None:
    client.force_login(superuser)
    game = Game.objects.filter(round__season__slug=SLUG, round__number=10).order_by("board")[0]
    before = StandingsSnapshot.objects.get(season__slug=SLUG, round_number=10).data_version
    new_result = "0-1" if game.result != "0-1" else "1-0"
    data = _change_form(client, "game", game)
    data.update(result=new_result, white=game.white_id, black=game.black_id, round=game.round_id)
    response = client.post(reverse("admin:competition_game_change", args=[game.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    snapshot = StandingsSnapshot.objects.get(season__slug=SLUG, round_number=10)
    assert snapshot.data_version > before
    white_row = next(r for r in snapshot.rows if r["participant_id"] == game.white_id)
    # The snapshot now holds the game points of the new result for white.
    from fractions import Fraction

    from competition.selectors.common import season_input

    points = Fraction(0)
    for rnd in season_input(Season.objects.get(slug=SLUG)).rounds:
        for g in rnd.games:
            if g.white == game.white_id:
                points += g.result.white_points
            elif g.black == game.white_id:
                points += g.result.black_points
        for e in rnd.entries:
            if e.participant == game.white_id:
                points += e.points
    assert Fraction(white_row["game_points"]) == points


def test_a_renamed_member_refreshes_the_cached_standings(client, demo, superuser) -> None:
    page = reverse("competition:standings", args=[SLUG])
    assert "Edwin Tol" in client.get(page).content.decode()  # cached now
    client.force_login(superuser)
    member = Member.objects.get(name="Edwin Tol")
    data = _change_form(client, "member", member)
    data.update(name="Edwin Tol-Visser", club=member.club_id)
    response = client.post(reverse("admin:competition_member_change", args=[member.pk]), data)
    assert response.status_code == 302
    client.logout()
    assert "Edwin Tol-Visser" in client.get(page).content.decode()


def test_season_rules_are_read_only_in_the_admin(client, demo, superuser) -> None:
    client.force_login(superuser)
    season = Season.objects.get(slug=SLUG)
    html = client.get(reverse("admin:competition_season_change", args=[season.pk])).content
    assert reverse("competition:season_rules", args=[SLUG]).encode() in html
    assert b'name="system"' not in html


def test_a_new_season_in_the_admin_gets_its_rules_checked(client, demo, superuser) -> None:
    client.force_login(superuser)
    club = Season.objects.get(slug=SLUG).club
    data = {
        "club": club.pk,
        "name": "Snelschaak",
        "slug": "snelschaak",
        "kind": "ladder",
        "system": "van-den-brink",
        "parameters": '{"factor": "2"}',
        "tiebreaks": "[]",
        "unplayed_policy": "fide-2024",
        "min_games": 0,
        "bye_points": "1",
        "rematch_window": 3,
        "status": "running",
        "participants-TOTAL_FORMS": 0,
        "participants-INITIAL_FORMS": 0,
        "rounds-TOTAL_FORMS": 0,
        "rounds-INITIAL_FORMS": 0,
    }
    response = client.post(reverse("admin:competition_season_add"), data)
    assert response.status_code == 200  # the form again
    assert "factor" in response.content.decode()
    assert not Season.objects.filter(slug="snelschaak").exists()
    data["parameters"] = '{"factor": "1/14"}'
    response = client.post(reverse("admin:competition_season_add"), data)
    assert response.status_code == 302
    assert Season.objects.get(slug="snelschaak").parameters["factor"] == "1/14"
    assert Round.objects.filter(season__slug="snelschaak").count() == 0
