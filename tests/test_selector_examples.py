"""The worked examples in the selectors' docstrings run as written (they call the selectors as
the code must: by keyword)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

SELECTORS = sorted(
    path.stem
    for path in (Path(__file__).resolve().parents[1] / "competition" / "selectors").glob("*.py")
    if path.stem != "__init__"
)


@pytest.mark.parametrize("name", SELECTORS)
def test_the_examples_hold(name: str) -> None:
    module = importlib.import_module(f"competition.selectors.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"


def test_there_are_examples_to_run() -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(f"competition.selectors.{name}")).attempted
        for name in SELECTORS
    )
    assert attempted >= 17  # as many as there were when this test was written
