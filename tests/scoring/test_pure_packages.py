"""The pure packages import nothing from Django (checked on the source, without importing it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE_PACKAGES = (
    "competition/scoring",
    "competition/pairing",
    "competition/formats",
    "competition/simulation",
    "competition/rating",
)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
    return modules


def python_files() -> list[Path]:
    return sorted(path for package in PURE_PACKAGES for path in (ROOT / package).rglob("*.py"))


def test_the_pure_packages_exist() -> None:
    assert any(path.name == "engine.py" for path in python_files())


@pytest.mark.parametrize("path", python_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_django_import(path: Path) -> None:
    offending = {
        module
        for module in imported_modules(path)
        if module == "django" or module.startswith("django.")
    }
    offending |= {
        module
        for module in imported_modules(path)
        if module.startswith("competition.")
        and not module.startswith(
            (
                "competition.scoring",
                "competition.pairing",
                "competition.formats",
                "competition.simulation",
                "competition.rating",
            )
        )
    }
    assert not offending, f"{path} imports {sorted(offending)}"


def test_the_checker_sees_a_django_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom django.db import models\nimport django.conf as c\n")
    assert {"django.db", "django.conf"} <= imported_modules(sample)
