"""Names in public (AVG/GDPR): a junior (by the season's birth year) and a member who chose
"short" show as first name and initial on every public page and export; a junior who chose
"full" and the other members show in full; the TD's pages and files keep full names. A change
of a choice or of the season's setting shows at once on the cached public pages, and the pages
cost the same number of queries as with full names."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.admin import MemberAdmin, SeasonAdmin, SeasonAdminForm
from competition.models import Game, Member, Season
from competition.permissions import td_group
from competition.selectors.common import participant_names, public_names
from competition.services.errors import ServiceError
from competition.services.privacy import member_name_display_set
from competition.services.rounds import result_record
from competition.services.transfer import standings_document
from tests.addresses import club_reverse
from tests.views.public_data import small_season
from tests.views.test_public_queries import _urls

pytestmark = pytest.mark.django_db

# Anna Aalders is a junior (born 2012, the season's juniors from 2010): short by default.
# Bart Bos chose short. Cor Cools is a junior too, but chose full. Dirk and Eva: as the season.
SHORT = {"A": ("Anna A.", "Anna Aalders"), "B": ("Bart B.", "Bart Bos")}
FULL = ["Cor Cools", "Dirk Dekker"]


def _private_season():
    season, people = small_season(junior_birth_year=2010)
    Member.objects.filter(pk=people["A"].member_id).update(birth_year=2012)
    Member.objects.filter(pk=people["B"].member_id).update(name_display="short")
    Member.objects.filter(pk=people["C"].member_id).update(birth_year=2013, name_display="full")
    Member.objects.filter(pk=people["D"].member_id).update(birth_year=1980)
    season.refresh_from_db()
    return season, people


@pytest.fixture
def private():
    cache.clear()
    return _private_season()


def _page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _assert_public(text: str, *, present: tuple[str, ...] = ()) -> None:
    for _short, full in SHORT.values():
        assert full not in text
    for name in present:
        assert name in text, name


def test_the_central_selector_applies_the_rule(private) -> None:
    season, people = private
    names = public_names(season_id=season.pk)
    assert names == {
        people["A"].pk: "Anna A.",
        people["B"].pk: "Bart B.",
        people["C"].pk: "Cor Cools",
        people["D"].pk: "Dirk Dekker",
        people["E"].pk: "Eva Egbers",
    }
    # The TD's names stay full.
    assert participant_names(season_id=season.pk)[people["A"].pk] == "Anna Aalders"


def test_season_setting_short_shortens_all_but_who_chose_full(private) -> None:
    season, people = private
    Season.objects.filter(pk=season.pk).update(name_display="short")
    names = public_names(season_id=season.pk)
    assert names[people["D"].pk] == "Dirk D."
    assert names[people["E"].pk] == "Eva E."
    assert names[people["C"].pk] == "Cor Cools"  # his own choice wins


def test_an_anonymised_member_keeps_his_neutral_name(private) -> None:
    season, people = private
    Member.objects.filter(pk=people["A"].member_id).update(
        name="Oud-lid 17", anonymised_at="2026-10-01T12:00:00Z"
    )
    assert public_names(season_id=season.pk)[people["A"].pk] == "Oud-lid 17"


def test_standings_page(client, private) -> None:
    season, _people = private
    text = _page(client, club_reverse("competition:standings", args=[season.slug]))
    _assert_public(text, present=("Anna A.", "Bart B.", *FULL))
    # sorting by name keeps the public names
    text = _page(client, club_reverse("competition:standings", args=[season.slug]) + "?sort=name")
    _assert_public(text, present=("Anna A.", "Bart B."))


def test_participant_page_header_opponents_title_and_chart(client, private) -> None:
    season, people = private
    text = _page(
        client, club_reverse("competition:participant", args=[season.slug, people["A"].pk])
    )
    _assert_public(text, present=("Cor Cools",))
    assert "<title>Anna A. · Interne test" in text
    profile = club_reverse("competition:member_profile", args=[people["A"].member_id])
    assert f'<h2 class="h4"><a href="{profile}"' in text and ">Anna A.</a></h2>" in text
    assert "Anna A." in text.split("<svg")[1].split("</svg>")[0]  # the chart's title
    # C's page: his opponents A (short) and D (full) in the games and explanations
    text = _page(
        client, club_reverse("competition:participant", args=[season.slug, people["C"].pk])
    )
    _assert_public(text, present=("Anna A.", "Dirk Dekker", "Cor Cools"))


def test_crosstable_round_how_it_works_systems_home(client, private) -> None:
    season, _people = private
    for url in (
        club_reverse("competition:crosstable", args=[season.slug]),
        club_reverse("competition:round", args=[season.slug, 1]),
        club_reverse("competition:round", args=[season.slug, 2]),
        club_reverse("competition:how_it_works", args=[season.slug]),
        club_reverse("competition:systems", args=[season.slug]),
    ):
        _assert_public(_page(client, url), present=("Anna A.", "Cor Cools"))
    # Bart played in both rounds; Eva's absences show on the round page
    round_1 = _page(client, club_reverse("competition:round", args=[season.slug, 1]))
    assert "Bart B." in round_1 and "Eva Egbers" in round_1
    # The worked example is C's (the leader): his opponent in round 1 was D, in round 2 A.
    how = _page(client, club_reverse("competition:how_it_works", args=[season.slug]))
    assert "Dirk Dekker" in how
    home = _page(client, club_reverse("competition:home"))
    _assert_public(home, present=("Anna A.", "Cor Cools", "Dirk Dekker"))


def test_public_exports_csv_and_xlsx(client, private) -> None:
    season, _people = private
    url = club_reverse("competition:standings", args=[season.slug])
    response = client.get(url + "?_export=csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    names = {row[2] for row in rows[1:]}
    assert names == {"Anna A.", "Bart B.", "Cor Cools", "Dirk Dekker", "Eva Egbers"}
    response = client.get(url + "?_export=xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert {row[2] for row in sheet.iter_rows(min_row=2, values_only=True)} == names


def test_the_standings_document_is_full_unless_public(private) -> None:
    season, _people = private
    full = {row["name"] for row in standings_document(season=season)["standings"]}
    public = {
        row["name"] for row in standings_document(season=season, public_names=True)["standings"]
    }
    assert "Anna Aalders" in full and "Bart Bos" in full
    assert "Anna A." in public and "Anna Aalders" not in public


def test_a_public_correction_names_the_players_publicly(client, td_user, private) -> None:
    season, people = private
    td_user.groups.add(td_group(season.club))
    game = Game.objects.get(round__season=season, round__number=2, white=people["A"])
    result_record(
        game_id=game.pk,
        result="1-0",
        expected_version=game.version,
        user=td_user,
        reason="Wrongly recorded",
    )
    text = _page(client, club_reverse("competition:round", args=[season.slug, 2]))
    line = text.split('<ul class="corrections">')[1].split("</ul>")[0]
    assert "Anna A. – Cor Cools" in line


def test_the_td_pages_and_files_keep_full_names(client, td_user, private) -> None:
    season, _people = private
    td_user.groups.add(td_group(season.club))
    client.force_login(td_user)
    summary = _page(
        client,
        club_reverse(
            "competition:td_round_summary", kwargs={"season_slug": season.slug, "round_number": 2}
        ),
    )
    assert "Anna Aalders" in summary and "Anna A." not in summary
    csv_text = _page(client, club_reverse("competition:season_standings_csv", args=[season.slug]))
    assert "Anna Aalders" in csv_text and "Bart Bos" in csv_text
    archive = _page(client, club_reverse("competition:season_export_archive", args=[season.slug]))
    assert "Anna Aalders" in archive


def test_public_pages_cost_the_same_queries_with_private_names(client) -> None:
    season, people = small_season()

    def counts() -> list[int]:
        found = []
        for url in _urls(season):
            cache.clear()
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200, url
            found.append(len(queries))
        return found

    before = counts()
    Season.objects.filter(pk=season.pk).update(junior_birth_year=2010, name_display="short")
    Member.objects.filter(pk=people["A"].member_id).update(birth_year=2012)
    Member.objects.filter(pk=people["C"].member_id).update(name_display="full")
    season.refresh_from_db()
    assert counts() == before


def _standings(client, season) -> str:
    return _page(client, club_reverse("competition:standings", args=[season.slug]))


def test_a_members_choice_shows_at_once_on_cached_pages(
    client, private, django_assert_num_queries
) -> None:
    season, people = private
    user = User.objects.create_user("dirk", password="dirk-pass-12345")
    Member.objects.filter(pk=people["D"].member_id).update(user=user)
    member = Member.objects.get(pk=people["D"].member_id)
    assert "Dirk Dekker" in _standings(client, season)
    url = club_reverse("competition:standings", args=[season.slug])
    with django_assert_num_queries(2):  # cached: the club and the season's versions
        assert "Dirk Dekker" in _page(client, url)
    version = Season.objects.get(pk=season.pk).data_version
    member_name_display_set(member=member, choice="short", user=user)
    assert Season.objects.get(pk=season.pk).data_version == version + 1
    text = _standings(client, season)
    assert "Dirk D." in text and "Dirk Dekker" not in text
    participant = club_reverse("competition:participant", args=[season.slug, people["C"].pk])
    assert "Dirk D." in _page(client, participant)
    # back to "as the season says": an adult in a full-name season
    member_name_display_set(member=member, choice="", user=user)
    assert "Dirk Dekker" in _standings(client, season)


def test_the_same_choice_again_touches_nothing(private) -> None:
    season, people = private
    member = Member.objects.get(pk=people["B"].member_id)
    version = Season.objects.get(pk=season.pk).data_version
    member_name_display_set(member=member, choice="short", user=User.objects.create_superuser("s"))
    assert Season.objects.get(pk=season.pk).data_version == version


def test_another_user_cannot_change_a_members_choice(private, member_user) -> None:
    _season, people = private
    member = Member.objects.get(pk=people["D"].member_id)
    with pytest.raises(ServiceError, match="je eigen naam"):
        member_name_display_set(member=member, choice="short", user=member_user)
    assert Member.objects.get(pk=member.pk).name_display == ""


def test_an_unknown_choice_is_refused(private) -> None:
    _season, people = private
    user = User.objects.create_user("dirk", password="dirk-pass-12345")
    member = Member.objects.get(pk=people["D"].member_id)
    Member.objects.filter(pk=member.pk).update(user=user)
    member.refresh_from_db()
    with pytest.raises(ServiceError, match="volledig, of voornaam"):
        member_name_display_set(member=member, choice="initials", user=user)
    assert Member.objects.get(pk=member.pk).name_display == ""


def test_a_td_of_his_club_may_change_it(private, td_user) -> None:
    season, people = private
    td_user.groups.add(td_group(season.club))
    member = Member.objects.get(pk=people["D"].member_id)
    member_name_display_set(member=member, choice="short", user=td_user)
    assert public_names(season_id=season.pk)[people["D"].pk] == "Dirk D."


def test_the_admin_save_paths_refresh_the_cached_pages(client, private, superuser) -> None:
    season, people = private
    assert {"name_display", "junior_birth_year"} <= set(SeasonAdminForm.base_fields)
    request = RequestFactory().post("/admin/")
    request.user = superuser
    assert "Eva Egbers" in _standings(client, season)

    from django.contrib import admin

    season_admin = SeasonAdmin(Season, admin.site)
    season.name_display = "short"
    season_admin.save_model(request, season, form=None, change=True)
    text = _standings(client, season)
    assert "Eva E." in text and "Eva Egbers" not in text and "Cor Cools" in text

    member_admin = MemberAdmin(Member, admin.site)
    cor = Member.objects.get(pk=people["C"].member_id)
    cor.name_display = ""  # a junior again (born 2013)
    member_admin.save_model(request, cor, form=None, change=True)
    text = _standings(client, season)
    assert "Cor C." in text and "Cor Cools" not in text


def test_the_admin_forms_offer_the_choices(client, private, superuser) -> None:
    season, people = private
    client.force_login(superuser)
    page = _page(client, reverse("admin:competition_season_change", args=[season.pk]))
    assert 'name="name_display"' in page and 'name="junior_birth_year"' in page
    page = _page(client, reverse("admin:competition_member_change", args=[people["A"].member_id]))
    assert 'name="name_display"' in page


def test_an_anonymous_visitor_cannot_change_it(private) -> None:
    from django.contrib.auth.models import AnonymousUser

    _season, people = private
    member = Member.objects.get(pk=people["D"].member_id)
    with pytest.raises(ServiceError):
        member_name_display_set(member=member, choice="short", user=AnonymousUser())
    assert Member.objects.get(pk=member.pk).name_display == ""


def test_an_anonymised_member_has_no_choice_left(private, superuser) -> None:
    _season, people = private
    Member.objects.filter(pk=people["D"].member_id).update(
        name="Oud-lid 4", anonymised_at="2026-10-01T12:00:00Z"
    )
    member = Member.objects.get(pk=people["D"].member_id)
    with pytest.raises(ServiceError, match="geanonimiseerd"):
        member_name_display_set(member=member, choice="full", user=superuser)
    assert Member.objects.get(pk=member.pk).name_display == ""
