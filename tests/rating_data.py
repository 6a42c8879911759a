"""A club of four members whose club ratings are worked out by hand (tests/rating/
test_ledger.py: hand_worked_season has the arithmetic in its docstring)."""

from __future__ import annotations

import datetime
from typing import Any

from competition.models import Round, Season
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RoundFactory,
    SeasonFactory,
)

SEP3, SEP10, SEP17 = (datetime.date(2026, 9, day) for day in (3, 10, 17))


def four_player_club() -> dict[str, Any]:
    """The hand-worked season of tests/rating/test_ledger.py: P3 has no imported rating and
    starts at the club's fixed 1500; P4 (a junior) has 1500 as his event rating."""
    club = ClubFactory(slug="rating-club", name="Ratingclub")
    season = SeasonFactory(club=club, slug="intern", status=Season.Status.RUNNING)
    members = {
        "P1": MemberFactory(club=club, name="P1 Eerste", rating=1800, birth_year=1970),
        "P2": MemberFactory(club=club, name="P2 Tweede", rating=1650),
        "P3": MemberFactory(club=club, name="P3 Derde", rating=None, birth_year=1985),
        "P4": MemberFactory(club=club, name="P4 Vierde", rating=1500, birth_year=2010),
    }
    people = {k: ParticipantFactory(season=season, member=m) for k, m in members.items()}
    r1 = RoundFactory(season=season, number=1, date=SEP3, status=Round.Status.COMPLETED)
    r2 = RoundFactory(season=season, number=2, date=SEP10, status=Round.Status.COMPLETED)
    GameFactory(round=r1, board=1, white=people["P1"], black=people["P2"], result="1-0")
    GameFactory(round=r1, board=2, white=people["P3"], black=people["P4"], result="1/2")
    GameFactory(round=r2, board=1, white=people["P1"], black=people["P3"], result="1/2")
    GameFactory(round=r2, board=2, white=people["P4"], black=people["P2"], result="1-0")
    return {"club": club, "season": season, "people": people, "rounds": (r1, r2)}


HAND_WORKED = [
    ("2026-09-03", "P1 Eerste", 1800, "12", 1812),
    ("2026-09-03", "P2 Tweede", 1650, "-12", 1638),
    ("2026-09-03", "P3 Derde", 1500, "0", 1500),
    ("2026-09-03", "P4 Vierde", 1500, "0", 1500),
    ("2026-09-10", "P1 Eerste", 1812, "-14.4", 1798),
    ("2026-09-10", "P2 Tweede", 1638, "-27.6", 1610),
    ("2026-09-10", "P3 Derde", 1500, "14.4", 1514),
    ("2026-09-10", "P4 Vierde", 1500, "27.6", 1528),
]
