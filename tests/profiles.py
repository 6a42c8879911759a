"""How many examples the property tests run: a quick profile for `make test`, a thorough one for CI.

Each property states the number of examples it needs to be thorough; ``examples`` gives that
number under the ``thorough`` profile and a tenth of it (at least 10) under ``quick``, the
default. Both profiles check the very same properties; CI chooses the thorough one with
``HYPOTHESIS_PROFILE=thorough``. Timings are never assertions here (the machines are shared and
noisy): no per-example deadline, and no failure because generating data was slow.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "quick")
if PROFILE not in {"quick", "thorough"}:
    raise ValueError(f"HYPOTHESIS_PROFILE must be quick or thorough, not {PROFILE!r}")

for _name, _count in (("quick", 10), ("thorough", 100)):
    settings.register_profile(
        _name, max_examples=_count, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
settings.load_profile(PROFILE)


def examples(thorough: int) -> int:
    """``thorough`` examples under the thorough profile, a tenth (at least 10) under quick."""
    return thorough if PROFILE == "thorough" else max(10, thorough // 10)
