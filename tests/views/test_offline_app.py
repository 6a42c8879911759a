"""The installable TD app (issue 16): the manifest, the service worker and the offline page answer
at the site's own addresses with the right types and headers, and the TD's pages link them."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.contrib.auth.models import User
from django.templatetags.static import static
from django.test import Client
from django.utils import translation

from competition.models import Round
from competition.permissions import td_group
from competition.views import offline
from tests.addresses import club_reverse
from tests.factories import ClubFactory, GameFactory, RoundFactory

pytestmark = pytest.mark.django_db


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_starts_the_app_at_the_clubs_evening(client: Client) -> None:
    club = ClubFactory(name="SV Hoogeveen", slug="sv-hoogeveen")
    response = client.get("/manifest.webmanifest", {"club": club.slug})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/sv-hoogeveen/td/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["name"] == "SV Hoogeveen · Clubavond"
    assert manifest["short_name"] == "Clubavond"
    assert manifest["theme_color"] == "#212529"
    assert [(i["sizes"], i["purpose"]) for i in manifest["icons"]] == [
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    ]


def test_the_manifests_icons_exist_with_their_sizes(client: Client) -> None:
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert manifest["start_url"] == "/td/"  # no club named: the site's club evening
    for icon in manifest["icons"]:
        assert icon["src"].startswith("/static/icons/")  # the collected file's hashed name
        response = client.get(icon["src"])
        assert response.status_code == 200
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert _png_size(b"".join(response.streaming_content)) == (width, height)


def test_an_unknown_club_in_the_manifest_is_the_site(client: Client) -> None:
    manifest = json.loads(client.get("/manifest.webmanifest", {"club": "nope"}).content)
    assert manifest["start_url"] == "/td/"


def test_the_service_worker_is_served_for_the_whole_site(client: Client) -> None:
    response = client.get("/service-worker.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    line = next(x for x in script.splitlines() if x.startswith(offline.WORKER_SETTINGS_LINE))
    worker_settings = json.loads(line.removeprefix(offline.WORKER_SETTINGS_LINE).rstrip(";"))
    assert re.fullmatch(r"[0-9a-f]{12}", worker_settings["version"])
    assert worker_settings["offline"] == "/offline"
    assert worker_settings["static_url"] == "/static/"
    # the hashed addresses of the collected files, as the pages link them
    assert static("js/td.js") in worker_settings["static"]
    assert re.fullmatch(r"/static/js/td\.[0-9a-f]{12}\.js", static("js/td.js"))
    # every static file it keeps exists (one missing file and the worker never installs)
    for url in worker_settings["static"]:
        assert client.get(url).status_code == 200, url


def test_the_workers_version_changes_with_a_kept_static_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = offline._worker_source()
    urls = ["/static/" + path for path in offline.KEPT_STATIC]
    before = offline._static_version(source, urls)
    renamed = [*urls[:-1], urls[-1] + "?v=2"]  # a deploy's new hashed name
    assert offline._static_version(source, renamed) != before
    assert offline._static_version(source + "\n", urls) != before


def test_the_offline_page_carries_no_ones_data(client: Client) -> None:
    response = client.get("/offline")
    assert response.status_code == 200
    with translation.override("nl"):
        assert "Geen verbinding" in response.content.decode()
    assert b"csrfmiddlewaretoken" not in response.content


def test_the_td_results_page_links_the_manifest_and_the_worker(client: Client) -> None:
    rnd = RoundFactory(number=1, status=Round.Status.PAIRED)
    GameFactory(round=rnd, board=1)
    td = User.objects.create_user("td-app", password="x-pass-12345")
    td.groups.add(td_group(rnd.season.club))
    client.force_login(td)
    response = client.get(club_reverse("competition:td_results", args=[rnd.season.slug, 1]))
    assert response.status_code == 200
    page = response.content.decode()
    club = rnd.season.club.slug
    assert f'<link rel="manifest" href="/manifest.webmanifest?club={club}">' in page
    assert 'data-service-worker="/service-worker.js"' in page
    assert 'id="queue-banner"' in page
    assert 'data-queued="nog niet verzonden"' in page
