"""Admin writes keep the standings true: results recompute, renames refresh cached pages,
rules change only through the rules page."""

import pytest
from django.urls import reverse

from competition.models import Game, Member, Round, RoundEntry, Season, StandingsSnapshot
from tests.addresses import club_reverse

pytestmark = pytest.mark.django_db

SLUG = "interne-2026-2027"
REFUSED = "Alleen de laatste ronde van een seizoen kan worden verwijderd"  # only the last round


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
    """An open round's game stays editable in the admin (a closed round's is corrected on the
    TD's page); the write recomputes the season's standings."""
    client.force_login(superuser)
    Round.objects.filter(season__slug=SLUG, number=10).update(status=Round.Status.PAIRED)
    game = Game.objects.filter(round__season__slug=SLUG, round__number=10).order_by("board")[0]
    before = Season.objects.get(slug=SLUG).data_version
    new_result = "0-1" if game.result != "0-1" else "1-0"
    data = _change_form(client, "game", game)
    data.update(result=new_result, white=game.white_id, black=game.black_id, round=game.round_id)
    response = client.post(reverse("admin:competition_game_change", args=[game.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.get(pk=game.pk).result == new_result
    assert StandingsSnapshot.objects.get(season__slug=SLUG, round_number=9).data_version > before
    assert not StandingsSnapshot.objects.filter(season__slug=SLUG, round_number=10).exists()


def test_a_renamed_member_refreshes_the_cached_standings(client, demo, superuser) -> None:
    page = club_reverse("competition:standings", args=[SLUG])
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
    assert club_reverse("competition:season_rules", args=[SLUG]).encode() in html
    assert b'name="system"' not in html


def _new_season_form(club) -> dict:
    """The admin's add form of a new season, filled in."""
    return {
        "club": club.pk,
        "name": "Snelschaak",
        "slug": "snelschaak",
        "kind": "ladder",
        "system": "van-den-brink",
        "parameters": '{"factor": "1/14"}',
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


def test_a_new_season_in_the_admin_gets_its_rules_checked(client, demo, superuser) -> None:
    client.force_login(superuser)
    club = Season.objects.get(slug=SLUG).club
    data = {**_new_season_form(club), "parameters": '{"factor": "2"}'}
    response = client.post(reverse("admin:competition_season_add"), data)
    assert response.status_code == 200  # the form again
    assert "factor" in response.content.decode()
    assert not Season.objects.filter(slug="snelschaak").exists()
    data["parameters"] = '{"factor": "1/14"}'
    response = client.post(reverse("admin:competition_season_add"), data)
    assert response.status_code == 302
    assert Season.objects.get(slug="snelschaak").parameters["factor"] == "1/14"
    assert Round.objects.filter(season__slug="snelschaak").count() == 0


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("min_games", "32768"),  # SQLite would store it, PostgreSQL's smallint not
        ("min_games", "999999999999999999999"),
        ("rematch_window", "32768"),
        ("rematch_window", "-1"),
        ("bye_points", "999999999999999999999"),
    ],
)
def test_a_new_season_with_a_number_out_of_range_is_a_form_error(
    client, demo, superuser, field: str, value: str
) -> None:
    client.force_login(superuser)
    data = _new_season_form(Season.objects.get(slug=SLUG).club)
    data[field] = value
    response = client.post(reverse("admin:competition_season_add"), data)
    assert response.status_code == 200
    assert list(response.context["adminform"].form.errors) == [field]
    assert not Season.objects.filter(slug="snelschaak").exists()


@pytest.mark.parametrize(
    ("field", "value"), [("rating", "40000"), ("birth_year", "999999999999999999999")]
)
def test_a_members_number_out_of_range_is_a_form_error(
    client, demo, superuser, field: str, value: str
) -> None:
    client.force_login(superuser)
    member = Member.objects.get(name="Edwin Tol")
    data = _change_form(client, "member", member)
    data.update(club=member.club_id, **{field: value})
    response = client.post(reverse("admin:competition_member_change", args=[member.pk]), data)
    assert response.status_code == 200
    assert list(response.context["adminform"].form.errors) == [field]
    assert getattr(Member.objects.get(pk=member.pk), field) == getattr(member, field)


# --- closed rounds: corrections go through the TD's correction page (issue 10) ----------------


def _closed_round(number: int = 10) -> Round:
    return Round.objects.get(season__slug=SLUG, number=number)


def test_a_closed_rounds_game_is_read_only_with_a_link_to_the_correction_page(
    client, demo, superuser
) -> None:
    client.force_login(superuser)
    game = Game.objects.filter(round=_closed_round()).order_by("board")[0]
    page = reverse("admin:competition_game_change", args=[game.pk])
    html = client.get(page).content.decode()
    assert 'name="result"' not in html
    correct = club_reverse(
        "competition:td_result_correct",
        kwargs={"season_slug": SLUG, "round_number": 10, "game_id": game.pk},
    )
    assert f'href="{correct}"' in html
    new_result = "0-1" if game.result != "0-1" else "1-0"
    data = {"round": game.round_id, "board": game.board, "white": game.white_id}
    data.update(black=game.black_id, result=new_result)
    before = (Season.objects.get(slug=SLUG).data_version, game.history.count())
    response = client.post(page, data)
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).result == game.result
    assert (Season.objects.get(slug=SLUG).data_version, game.history.count()) == before


def test_a_closed_rounds_entry_is_read_only_with_a_link_to_the_correction_page(
    client, demo, superuser
) -> None:
    client.force_login(superuser)
    entry = RoundEntry.objects.filter(round=_closed_round()).order_by("pk")[0]
    page = reverse("admin:competition_roundentry_change", args=[entry.pk])
    html = client.get(page).content.decode()
    assert 'name="kind"' not in html and 'name="points"' not in html
    correct = club_reverse(
        "competition:td_entry_correct",
        kwargs={"season_slug": SLUG, "round_number": 10, "entry_id": entry.pk},
    )
    assert f'href="{correct}"' in html
    data = {"round": entry.round_id, "participant": entry.participant_id, "kind": "bye"}
    data.update(points="5", note="changed in the admin")
    response = client.post(page, data)
    assert response.status_code == 403
    assert RoundEntry.objects.get(pk=entry.pk).points == entry.points
    assert RoundEntry.objects.get(pk=entry.pk).note == entry.note


def test_a_closed_rounds_games_and_entries_are_read_only_on_the_round_page(
    client, demo, superuser
) -> None:
    client.force_login(superuser)
    rnd = _closed_round()
    html = client.get(reverse("admin:competition_round_change", args=[rnd.pk])).content.decode()
    assert 'name="games-0-result"' not in html and 'name="entries-0-kind"' not in html
    for game in rnd.games.all():
        kwargs = {"season_slug": SLUG, "round_number": 10, "game_id": game.pk}
        assert club_reverse("competition:td_result_correct", kwargs=kwargs) in html
    for entry in rnd.entries.all():
        kwargs = {"season_slug": SLUG, "round_number": 10, "entry_id": entry.pk}
        assert club_reverse("competition:td_entry_correct", kwargs=kwargs) in html
    assert 'name="status"' not in html  # a closed round is not reopened past the trail either


def test_an_open_rounds_game_stays_editable_on_the_round_page(client, demo, superuser) -> None:
    client.force_login(superuser)
    rnd = _closed_round()
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PAIRED)
    html = client.get(reverse("admin:competition_round_change", args=[rnd.pk])).content.decode()
    assert 'name="games-0-result"' in html and 'name="entries-0-kind"' in html
    assert 'name="status"' in html


def test_deleting_a_round_before_the_last_is_refused_with_a_message(
    client, demo, superuser
) -> None:
    client.force_login(superuser)
    rnd = _closed_round(9)
    rounds, games = Round.objects.count(), Game.objects.count()
    snapshots = StandingsSnapshot.objects.count()
    page = reverse("admin:competition_round_delete", args=[rnd.pk])
    response = client.post(page, {"post": "yes"}, follow=True)
    assert response.status_code == 200
    assert REFUSED in response.content.decode()
    assert (Round.objects.count(), Game.objects.count()) == (rounds, games)
    assert StandingsSnapshot.objects.count() == snapshots


def test_deleting_rounds_before_the_last_in_bulk_is_refused_with_a_message(
    client, demo, superuser
) -> None:
    client.force_login(superuser)
    selected = [_closed_round(8).pk, _closed_round(9).pk]
    rounds, games = Round.objects.count(), Game.objects.count()
    data = {"action": "delete_selected", "_selected_action": selected, "post": "yes"}
    response = client.post(reverse("admin:competition_round_changelist"), data, follow=True)
    assert response.status_code == 200
    assert REFUSED in response.content.decode()
    assert (Round.objects.count(), Game.objects.count()) == (rounds, games)


def test_the_last_rounds_can_be_deleted_and_the_standings_follow(client, demo, superuser) -> None:
    client.force_login(superuser)
    selected = [_closed_round(9).pk, _closed_round(10).pk]
    data = {"action": "delete_selected", "_selected_action": selected, "post": "yes"}
    response = client.post(reverse("admin:competition_round_changelist"), data)
    assert response.status_code == 302
    assert not Round.objects.filter(pk__in=selected).exists()
    numbers = StandingsSnapshot.objects.filter(season__slug=SLUG).values_list("round_number")
    assert max(n for (n,) in numbers) == 8


def test_a_closed_rounds_game_cannot_be_deleted_on_its_own(client, demo, superuser) -> None:
    client.force_login(superuser)
    game = Game.objects.filter(round=_closed_round()).order_by("board")[0]
    page = reverse("admin:competition_game_delete", args=[game.pk])
    assert client.post(page, {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()
