"""The README's set-up and addresses are true: the pages it names exist, and `make run` takes
the PORT and HOST it documents."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import Resolver404, resolve

README = (Path(settings.BASE_DIR) / "README.md").read_text()


def test_the_readme_names_the_tds_file_rules_and_admin_pages() -> None:
    for address in ("/<club>/td/", "/<club>/files/", "/<club>/season/<slug>/rules/", "/admin/"):
        assert f"`{address}`" in README, address


def test_every_address_in_the_readme_table_exists() -> None:
    addresses = re.findall(r"^\| `(/[^`]*)` \|", README, flags=re.MULTILINE)
    assert len(addresses) >= 5
    for address in addresses:
        # a club's page: the club's part is the club's address, the rest is the page's
        path = address.removeprefix("/<club>")
        try:
            resolve(path.replace("<slug>", "interne-2026-2027"))
        except Resolver404:
            pytest.fail(f"README names {address}, which is no page")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_takes_port_and_host() -> None:
    assert "make run HOST=0.0.0.0 PORT=8080" in README
    dry_run = subprocess.run(
        ["make", "-n", "run", "HOST=0.0.0.0", "PORT=8080"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "devserver 0.0.0.0:8080" in dry_run.stdout  # runserver with the task worker
