"""The tie-break codes, their names, and the constants both the rules and the fast path share.

Codes are FIDE C.07 acronyms with TRF-26 modifiers (``BH/C1``) plus the club ones of seed 002
(``BH/MED``, ``BH/KS``, ``KASH``).
"""

from __future__ import annotations

from collections.abc import Sequence

from competition.scoring.text import TextError, gettext_noop

TIEBREAK_LABELS: dict[
    str, str
] = {  # English names; competition.presentation.labels translates them
    "BH": gettext_noop("Buchholz"),
    "BH/C1": gettext_noop("Buchholz Cut 1"),
    "BH/C2": gettext_noop("Buchholz Cut 2"),
    "BH/M1": gettext_noop("Median Buchholz 1"),
    "BH/M2": gettext_noop("Median Buchholz 2"),
    "BH/MED": gettext_noop("Median Buchholz (club)"),
    "BH/KS": gettext_noop("Koya (sum of scores)"),
    "SB": gettext_noop("Sonneborn-Berger"),
    "SB/C1": gettext_noop("Sonneborn-Berger Cut 1"),
    "PS": gettext_noop("Progressive score"),
    "KS": gettext_noop("Koya system"),
    "DE": gettext_noop("Direct encounter"),
    "WIN": gettext_noop("Number of wins"),
    "WON": gettext_noop("Games won"),
    "BPG": gettext_noop("Games played with black"),
    "BWG": gettext_noop("Games won with black"),
    "ARO": gettext_noop("Average rating of opponents"),
    "TPR": gettext_noop("Tournament performance rating"),
    "AOB": gettext_noop("Average of opponents' Buchholz"),
    "KASH": gettext_noop("Kashdan"),
}
TIEBREAK_CODES: tuple[str, ...] = tuple(TIEBREAK_LABELS)

DIRECT_ENCOUNTER = "DE"  # not a per-participant figure: it exists only within a tied group

# Buchholz variants: how many lowest and highest contributions each cuts (C.07 Art. 14).
BUCHHOLZ_CUTS: dict[str, tuple[int, int]] = {
    "BH": (0, 0),
    "BH/C1": (1, 0),
    "BH/C2": (2, 0),
    "BH/M1": (1, 1),
    "BH/M2": (2, 2),
}
MEDIAN = "BH/MED"
MEDIAN_SWITCH = 8  # seed 002: 1 + 1 cut up to 8 games, 2 + 2 from 9 games

# Seed 002: Kashdan points for a loss, a draw and a win over the board, by own halves (0, 1, 2).
KASHDAN: tuple[int, int, int] = (1, 2, 4)


class UnknownTiebreakError(TextError):
    """A tie-break code that does not exist (a ``ValueError``; an English template plus
    values: :class:`TextError`)."""


def validate_tiebreaks(codes: Sequence[str]) -> tuple[str, ...]:
    """Normalise codes ("bh / c1" -> "BH/C1", "SB-C1" -> "SB/C1"); unknown ones raise
    :class:`UnknownTiebreakError`."""
    normalised: list[str] = []
    for code in codes:
        clean = "".join(str(code).split()).upper().replace("-", "/")
        if clean not in TIEBREAK_LABELS:
            raise UnknownTiebreakError(
                gettext_noop("unknown tie-break %(code)s; known codes: %(known)s"),
                {"code": repr(code), "known": ", ".join(TIEBREAK_CODES)},
            )
        normalised.append(clean)
    return tuple(normalised)


def figure_codes(codes: Sequence[str]) -> list[str]:
    """The validated codes that are per-participant figures (all but ``DE``), in order."""
    return [code for code in validate_tiebreaks(codes) if code != DIRECT_ENCOUNTER]


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded to the nearest integer, .5 up (C.07 Art. 10).

    Example: 22245 / 15 = 1483 exactly; 7 / 2 = 3.5 gives 4.
    """
    return (2 * numerator + denominator) // (2 * denominator)
