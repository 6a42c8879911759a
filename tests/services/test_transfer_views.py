"""The TD's file pages: permissions, downloads, and upload → preview → confirm."""

from __future__ import annotations

import html
import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from competition.models import Member, Season
from competition.permissions import td_group
from tests.addresses import club_reverse
from tests.services.test_transfer import KNSB_LIST, SMALL_TRF

pytestmark = pytest.mark.django_db

SLUG = "interne-2026-2027"


@pytest.fixture
def demo_td(client: Client, demo_club) -> Client:
    user = User.objects.create_user("td2", password="td-pass-12345")
    user.groups.add(td_group(Season.objects.get(slug=SLUG).club))
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("files_home", []),
        ("season_export_trf", [SLUG]),
        ("season_export_archive", [SLUG]),
        ("season_standings_csv", [SLUG]),
        ("season_standings_json", [SLUG]),
    ],
)
def test_permissions(client: Client, demo_club, name: str, args: list[str]) -> None:
    url = club_reverse(f"competition:{name}", args=args)
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    client.force_login(User.objects.create_user("gewoon-lid", password="lid-pass-12345"))
    assert client.get(url).status_code == 403
    client.force_login(User.objects.get(username="wedstrijdleider"))
    assert client.get(url).status_code == 200


def test_home_lists_seasons_and_forms(demo_td: Client) -> None:
    page = demo_td.get(club_reverse("competition:files_home")).content.decode()
    assert club_reverse("competition:season_export_trf", args=[SLUG]) in page
    assert 'enctype="multipart/form-data"' in page and "Rapidgroep A 2026" in page


def test_downloads(demo_td: Client) -> None:
    trf = demo_td.get(club_reverse("competition:season_export_trf", args=[SLUG]))
    assert trf["Content-Disposition"] == f'attachment; filename="{SLUG}.trf"'
    assert trf.content.startswith(b"012 Interne competitie 2026-2027\n")
    archive = json.loads(
        demo_td.get(club_reverse("competition:season_export_archive", args=[SLUG])).content
    )
    assert archive["season"]["slug"] == SLUG
    standings = json.loads(
        demo_td.get(club_reverse("competition:season_standings_json", args=[SLUG])).content
    )
    assert standings["after_round"] == 10 and len(standings["standings"]) == 17
    csv_text = demo_td.get(
        club_reverse("competition:season_standings_csv", args=[SLUG])
    ).content.decode()
    assert csv_text.startswith(  # for Dutch Excel: a byte order mark and ";"
        "\ufeffrank;start_number;name;points;score;SB;IP;games;eligible;fingerprint;rules_version\n"
    )
    assert len(csv_text.splitlines()) == 18


def test_trf_upload_preview_then_confirm(demo_td: Client) -> None:
    club = Season.objects.get(slug=SLUG).club
    upload = SimpleUploadedFile("zomer.trf", SMALL_TRF.encode())
    response = demo_td.post(
        club_reverse("competition:files_import_trf"),
        {
            "file": upload,
            "club": club.pk,
            "system": "points",
            "unplayed": "fide-2024",
            "min_games": 0,
        },
    )
    assert response.status_code == 200
    assert response.context["report"].games == 2
    assert not Season.objects.filter(slug="zomertoernooi").exists()  # only a preview
    token = response.context["confirm_form"].initial["token"]
    done = demo_td.post(club_reverse("competition:files_import_confirm"), {"token": token})
    assert done.status_code == 302
    assert Season.objects.get(slug="zomertoernooi").participants.count() == 3
    # The token is used up.
    again = demo_td.post(
        club_reverse("competition:files_import_confirm"), {"token": token}, follow=True
    )
    assert "verlopen" in again.content.decode()  # "expired", in Dutch (the default)


def _upload_broken_trf(client: Client) -> str:
    club = Season.objects.get(slug=SLUG).club
    upload = SimpleUploadedFile("kapot.trf", SMALL_TRF.replace("  3 b =", "  3 b Q").encode())
    response = client.post(
        club_reverse("competition:files_import_trf"),
        {
            "file": upload,
            "club": club.pk,
            "system": "points",
            "unplayed": "fide-2024",
            "min_games": 0,
        },
    )
    assert response.status_code == 400
    assert not Season.objects.filter(slug="zomertoernooi").exists()
    return html.unescape(response.content.decode())


def test_trf_upload_bad_file_shows_line_in_dutch(demo_td: Client) -> None:
    """The reader's message is shown in the interface's language (Dutch by default), with the
    line and column of the fault (issue 15)."""
    page = _upload_broken_trf(demo_td)
    assert (
        "kapot.trf: regel 3, kolom 109: ronde 2: onbekende uitslagcode 'Q' (verwacht een van "
        "1 = 0 + - W D L H F U Z of leeg)"
    ) in page
    assert "unknown result code" not in page and "line 3" not in page


def test_trf_upload_bad_file_shows_line_in_english(demo_td: Client) -> None:
    demo_td.cookies["django_language"] = "en"
    page = _upload_broken_trf(demo_td)
    assert "kapot.trf: line 3, column 109: round 2: unknown result code 'Q'" in page


def test_rating_list_upload_bad_file_in_dutch(demo_td: Client) -> None:
    """A rating list with a letter in the rating column: the Dutch message names the line."""
    club = Season.objects.get(slug=SLUG).club
    broken = KNSB_LIST.replace(b";NED;2111;", b";NED;abc;")
    upload = SimpleUploadedFile("lijst.csv", broken)
    response = demo_td.post(
        club_reverse("competition:files_import_ratings"),
        {"file": upload, "club": club.pk, "format": "knsb"},
    )
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert "lijst.csv: regel 2, kolom " in page
    assert "Rating moet een getal zijn, gevonden: 'abc'" in page


def test_ratings_upload(demo_td: Client) -> None:
    club = Season.objects.get(slug=SLUG).club
    upload = SimpleUploadedFile("knsb.csv", KNSB_LIST)
    response = demo_td.post(
        club_reverse("competition:files_import_ratings"),
        {"file": upload, "club": club.pk, "list_date": "2026-10-01", "only_club_members": "on"},
    )
    report = response.context["report"]
    assert (report.created, report.updated, report.unchanged) == (0, 2, 0)
    token = response.context["confirm_form"].initial["token"]
    demo_td.post(club_reverse("competition:files_import_confirm"), {"token": token})
    assert Member.objects.get(knsb_id="8100000").rating == 2111


def test_archive_upload_of_an_existing_season_is_refused(demo_td: Client) -> None:
    text = demo_td.get(club_reverse("competition:season_export_archive", args=[SLUG])).content
    response = demo_td.post(
        club_reverse("competition:files_import_season"),
        {"file": SimpleUploadedFile("a.json", text)},
    )
    assert response.status_code == 400
    # In the page's language (Dutch by default), without the command line's words.
    assert f"Er bestaat al een seizoen met de korte naam &#x27;{SLUG}&#x27;" in (
        response.content.decode()
    )


# --- previews: rights checked again at confirm, stale previews pruned (issue 10) --------------


@pytest.fixture
def upload_dir(tmp_path, monkeypatch):
    from competition.services import uploads

    monkeypatch.setattr(uploads, "UPLOAD_DIR", tmp_path / "uploads")
    return tmp_path / "uploads"


def _trf_preview(client: Client, club) -> str:
    response = client.post(
        club_reverse("competition:files_import_trf"),
        {
            "file": SimpleUploadedFile("zomer.trf", SMALL_TRF.encode()),
            "club": club.pk,
            "system": "points",
            "unplayed": "fide-2024",
            "min_games": 0,
        },
    )
    assert response.status_code == 200
    return response.context["confirm_form"].initial["token"]


def _td_elsewhere_only(club) -> None:
    """td2 stays a TD (of another club) but loses his rights for ``club``."""
    from competition.models import Club

    td2 = User.objects.get(username="td2")
    td2.groups.add(td_group(Club.objects.create(name="Andere club", slug="andere-club")))
    td2.groups.remove(td_group(club))


def test_a_td_who_lost_his_rights_cannot_confirm(demo_td: Client, upload_dir) -> None:
    club = Season.objects.get(slug=SLUG).club
    token = _trf_preview(demo_td, club)
    _td_elsewhere_only(club)
    seasons = Season.objects.count()
    response = demo_td.post(club_reverse("competition:files_import_confirm"), {"token": token})
    assert response.status_code == 403
    assert Season.objects.count() == seasons
    assert not Season.objects.filter(slug="zomertoernooi").exists()
    assert list(upload_dir.iterdir()) == []  # the refused preview is not kept


def test_a_td_who_lost_rights_to_the_archives_club_cannot_confirm(
    demo_td: Client, upload_dir
) -> None:
    text = demo_td.get(club_reverse("competition:season_export_archive", args=[SLUG])).content
    document = json.loads(text)
    document["season"]["slug"] = "interne-kopie"
    document["season"]["name"] = "Interne kopie"
    upload = SimpleUploadedFile("kopie.json", json.dumps(document).encode())
    response = demo_td.post(club_reverse("competition:files_import_season"), {"file": upload})
    assert response.status_code == 200, response.content.decode()[-3000:]
    token = response.context["confirm_form"].initial["token"]
    _td_elsewhere_only(Season.objects.get(slug=SLUG).club)
    response = demo_td.post(club_reverse("competition:files_import_confirm"), {"token": token})
    assert response.status_code == 403
    assert not Season.objects.filter(slug="interne-kopie").exists()


def test_a_td_of_another_club_cannot_confirm_with_the_token(demo_td: Client, upload_dir) -> None:
    from competition.models import Club

    token = _trf_preview(demo_td, Season.objects.get(slug=SLUG).club)
    other = Club.objects.create(name="Derde club", slug="derde-club")
    stranger = User.objects.create_user("td3", password="td-pass-12345")
    stranger.groups.add(td_group(other))
    client = Client()
    client.force_login(stranger)
    response = client.post(
        club_reverse("competition:files_import_confirm"), {"token": token}, follow=True
    )
    assert "verlopen" in response.content.decode()  # not his upload: "expired"
    assert not Season.objects.filter(slug="zomertoernooi").exists()


def _stale(upload_dir, name: str, days: float) -> None:
    import os
    import time

    upload_dir.mkdir(parents=True, exist_ok=True)
    path = upload_dir / name
    path.write_bytes(b"preview")
    then = time.time() - days * 86400
    os.utime(path, (then, then))


def test_prune_uploads_removes_previews_older_than_a_day(upload_dir) -> None:
    from django.core.management import call_command

    _stale(upload_dir, "a" * 32, days=2)
    _stale(upload_dir, "b" * 32, days=0.5)
    out = io.StringIO()
    call_command("prune_uploads", stdout=out)
    assert sorted(p.name for p in upload_dir.iterdir()) == ["b" * 32]
    assert "1" in out.getvalue()


def test_the_next_upload_prunes_stale_previews(demo_td: Client, upload_dir) -> None:
    _stale(upload_dir, "a" * 32, days=2)
    token = _trf_preview(demo_td, Season.objects.get(slug=SLUG).club)
    assert sorted(p.name for p in upload_dir.iterdir()) == [token]


@pytest.mark.parametrize("value", ["999999999999999999999", "32768"])
def test_a_trf_upload_with_a_huge_minimum_is_a_form_error(demo_td: Client, value: str) -> None:
    response = demo_td.post(
        club_reverse("competition:files_import_trf"),
        {
            "file": SimpleUploadedFile("zomer.trf", SMALL_TRF.encode()),
            "club": Season.objects.get(slug=SLUG).club.pk,
            "system": "points",
            "unplayed": "fide-2024",
            "min_games": value,
        },
    )
    assert response.status_code == 400
    assert list(response.context["trf_form"].errors) == ["min_games"]
    assert not Season.objects.filter(slug="zomertoernooi").exists()
