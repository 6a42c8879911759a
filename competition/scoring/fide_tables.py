"""FIDE's table converting a fractional score into a rating difference.

Source: FIDE Rating Regulations, table 8.1(a), as quoted in DOMAIN.md (see docs/sources.md). Only
the upper half is stored; the lower half follows from dp(1 - p) = -dp(p). Used by TPR (FIDE C.07
Art. 10.2).
"""

from __future__ import annotations

# dp for p = 0.50, 0.51, ..., 1.00 (index = hundredths - 50).
_UPPER_HALF: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)  # fmt: skip


def rating_difference(hundredths: int) -> int:
    """dp for a score fraction p given in hundredths (0..100).

    Example: p = 0.73 gives 175; p = 0.27 gives -175; p = 0.50 gives 0.
    """
    if not 0 <= hundredths <= 100:
        raise ValueError(f"score fraction out of range: {hundredths}/100")
    if hundredths >= 50:
        return _UPPER_HALF[hundredths - 50]
    return -_UPPER_HALF[50 - hundredths]
