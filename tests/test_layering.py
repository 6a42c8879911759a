"""The layers of the code, checked in one place on the source (without importing it).

- The pure packages (scoring, pairing, formats, simulation, rating) import nothing of Django and
  nothing of the app outside the pure packages: they run, and are tested, without a database.
- Selectors only read: they never import services (services may read through selectors).
- Neither selectors nor services import views.
- Public selectors take keyword arguments only.
- The views and the API make no query of their own: they read through the selectors and find an
  object (or 404) through the access helpers of competition/permissions.py.
- The presentation package (words and numbers for a reader) imports no models, selectors,
  services or views: it is handed values.
- The settings and the project's own helpers they use import nothing of the app: the settings
  load before any app is ready.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PURE = (
    "competition.scoring",
    "competition.pairing",
    "competition.formats",
    "competition.simulation",
    "competition.rating",
)
# (the modules a rule is about, the modules they must not import, why)
RULES = (
    (PURE, ("django", "competition"), "pure packages import no Django and no app code"),
    (("competition.selectors",), ("competition.services",), "selectors never import services"),
    (
        ("competition.selectors", "competition.services"),
        ("competition.views",),
        "reads and writes know no views",
    ),
    (
        ("competition.presentation",),
        (
            "competition.models",
            "competition.selectors",
            "competition.services",
            "competition.views",
        ),
        "presentation turns values into words: it reads nothing and writes nothing",
    ),
    (
        ("clubcomp.settings", "clubcomp.env", "clubcomp.addresses"),
        ("competition",),
        "the settings import no app code",
    ),
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            modules.add(module)
            modules.update(f"{module}.{alias.name}" for alias in node.names)
    return modules


def within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def sources() -> list[Path]:
    return sorted(
        path
        for folder in ("competition", "clubcomp")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    )


def broken_rules(path: Path) -> list[str]:
    name = module_name(path)
    found = []
    for subjects, forbidden, why in RULES:
        if not within(name, subjects):
            continue
        allowed = PURE if subjects == PURE else ()
        for module in sorted(imported_modules(path)):
            if within(module, forbidden) and not within(module, allowed):
                found.append(f"{name} imports {module}: {why}")
    return found


def test_every_layer_keeps_its_rules() -> None:
    broken = [line for path in sources() for line in broken_rules(path)]
    assert not broken, "\n".join(broken)


# The web layer reads through the selectors and finds objects through the access helpers of
# competition/permissions.py: no query of its own (the health check's SELECT 1 aside).
WEB = ("competition.views", "competition.api")


def own_queries(path: Path) -> list[str]:
    """Where ``path`` queries by itself: a model's manager (``X.objects``) or get_object_or_404."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            found.append(f"{module_name(path)}:{node.lineno} uses .objects")
        elif isinstance(node, ast.Name) and node.id == "get_object_or_404":
            found.append(f"{module_name(path)}:{node.lineno} calls get_object_or_404")
    return found


def test_the_web_layer_makes_no_queries_of_its_own() -> None:
    own = [
        line for path in sources() if within(module_name(path), WEB) for line in own_queries(path)
    ]
    assert not own, "\n".join(own)


@pytest.mark.parametrize(
    "source",
    [
        "from competition.models import Member\nMember.objects.filter(club=1)\n",
        "from django.shortcuts import get_object_or_404\nget_object_or_404(X, pk=1)\n",
    ],
)
def test_the_query_checker_sees_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    path = tmp_path / "competition" / "views" / "x.py"
    path.parent.mkdir(parents=True)
    path.write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert own_queries(path)


# Passed as values (the TD's round page looks a board or an entry up through either).
POSITIONAL_SELECTORS = {"competition.selectors.rounds": {"round_game", "round_entry"}}


def test_public_selectors_take_keywords() -> None:
    """A read is called as ``standings_for_season(season=s, after_round=3)``: the call names
    what it passes (the style of the services)."""
    positional = []
    for path in sources():
        name = module_name(path)
        if not within(name, ("competition.selectors",)):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (
                isinstance(node, ast.FunctionDef)
                and not node.name.startswith("_")
                and (node.args.args or node.args.posonlyargs)
                and node.name not in POSITIONAL_SELECTORS.get(name, set())
            ):
                positional.append(f"{name}.{node.name}")
    assert not positional, ", ".join(positional)


def test_every_rule_is_about_modules_that_exist() -> None:
    names = {module_name(path) for path in sources()}
    for subjects, _forbidden, _why in RULES:
        for subject in subjects:
            assert any(within(name, (subject,)) for name in names), subject


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        ("from django.db import models\n", "competition.scoring.x", "django.db"),
        ("import django.conf as c\n", "competition.scoring.x", "django.conf"),
        ("from ..services import rounds\n", "competition.selectors.x", "competition.services"),
        ("from competition.services.chances import f\n", "competition.selectors.x", None),
    ],
)
def test_the_checker_sees_every_kind_of_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, module: str, expected: str | None
) -> None:
    *folders, leaf = module.split(".")
    path = tmp_path.joinpath(*folders, f"{leaf}.py")
    path.parent.mkdir(parents=True)
    path.write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    imported = imported_modules(path)
    assert expected is None or expected in imported
    assert broken_rules(path), f"{source!r} in {module} passed"


def test_the_pure_packages_load_no_django_when_imported() -> None:
    """Importing every pure module (their other libraries included) loads no Django at all."""
    names = [
        module_name(path)
        for path in sources()
        if within(module_name(path), PURE) and path.name != "__main__.py"
    ]
    assert len(names) > 30
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"
