"""The ranking systems a season can choose, by key.

>>> get_system("internal-sb").name
'Internal competition with SB score'
"""

from __future__ import annotations

from competition.scoring.systems.base import RankingSystem
from competition.scoring.systems.internal_sb import InternalSonnebornBerger
from competition.scoring.systems.keizer import Keizer
from competition.scoring.systems.points import PointsSystem
from competition.scoring.systems.van_den_brink import VanDenBrink
from competition.scoring.text import TextError, gettext_noop

# Names of the systems' own figures (the tie-breaks have theirs in TIEBREAK_LABELS), in
# English; competition.presentation.labels translates them.
FIGURE_NAMES: dict[str, str] = {
    "SB": gettext_noop("SB score"),
    "IP": gettext_noop("Internal points"),
    "VDB": gettext_noop("Points"),
    "RV": gettext_noop("Rank value"),
    "PTS": gettext_noop("Points"),
    "KEIZER": gettext_noop("Keizer score"),
    "VALUE": gettext_noop("Keizer value"),
}

SYSTEMS: dict[str, RankingSystem] = {
    system.key: system
    for system in (PointsSystem(), InternalSonnebornBerger(), VanDenBrink(), Keizer())
}


class UnknownSystemError(KeyError, TextError):
    """The season names a ranking system that does not exist (an English template plus
    values: :class:`TextError`)."""

    def __init__(self, template: str, values: dict[str, object] | None = None) -> None:
        TextError.__init__(self, template, values)

    def __str__(self) -> str:
        return str(self.args[0])


def get_system(key: str) -> RankingSystem:
    """The ranking system registered under ``key``; raises :class:`UnknownSystemError`."""
    try:
        return SYSTEMS[key]
    except KeyError:
        raise UnknownSystemError(
            gettext_noop("unknown ranking system %(key)s; known systems: %(known)s"),
            {"key": repr(key), "known": ", ".join(SYSTEMS)},
        ) from None
