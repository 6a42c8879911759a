"""Tie-breaks: FIDE C.07 (acronyms with TRF-26 modifiers) and the club ones from seed 002.

A participant's score is his game points up to the round. How unplayed rounds enter Buchholz
and Sonneborn-Berger is the season's ``unplayed_policy`` (see :mod:`competition.scoring.unplayed`).
Inside, every figure is an exact integer (quarters for Buchholz, eighths for SB, halves for
points); values become :class:`~fractions.Fraction` only on the way out. docs/tiebreaks.md
explains each code with a worked example.

Modules:

- :mod:`.codes`: the codes, their names, :func:`validate_tiebreaks`, shared constants;
- :mod:`.contributions`: the records read one contribution at a time, and the cuts;
- :mod:`.rules`: the readable rule of each code, one function per code in ``RULES``;
- :mod:`.direct_encounter`: DE within a tied group;
- :mod:`.explanations`: :func:`explain_tiebreaks`, the lines behind each figure;
- :mod:`.packed`: :class:`TiebreakSheet`, the fast path the standings use, and
  :func:`compute_tiebreaks`; it must equal the readable rules.
"""

from competition.scoring.tiebreaks.codes import (
    DIRECT_ENCOUNTER,
    TIEBREAK_CODES,
    TIEBREAK_LABELS,
    UnknownTiebreakError,
    validate_tiebreaks,
)
from competition.scoring.tiebreaks.direct_encounter import (
    direct_encounter,
    direct_encounter_values,
    everyone_met,
)
from competition.scoring.tiebreaks.explanations import explain_tiebreaks
from competition.scoring.tiebreaks.packed import Meetings, TiebreakSheet, compute_tiebreaks
from competition.scoring.tiebreaks.rules import RULES, compute_tiebreaks_by_rules
from competition.scoring.unplayed import UNPLAYED_POLICIES

__all__ = [
    "DIRECT_ENCOUNTER",
    "RULES",
    "TIEBREAK_CODES",
    "TIEBREAK_LABELS",
    "UNPLAYED_POLICIES",
    "Meetings",
    "TiebreakSheet",
    "UnknownTiebreakError",
    "compute_tiebreaks",
    "compute_tiebreaks_by_rules",
    "direct_encounter",
    "direct_encounter_values",
    "everyone_met",
    "explain_tiebreaks",
    "validate_tiebreaks",
]
