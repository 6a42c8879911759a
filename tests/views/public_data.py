"""A small internal-SB season whose standings are worked out by hand, and a larger one.

Small season (five participants A-E, unplayed value ½, no tie-breaks):
  round 1: A-B 1-0, C-D ½-½, E absent with notice
  round 2: A-C ½-½, B-D 0-1, E absent with notice
After round 2 the game points are A 1½, B 0, C 1, D 1½, E 0; only E has rounds without a game,
so the internal points are A 1½, B 0, C 1, D 1½, E 0 + 2 × ½ = 1.
SB: A = 1 × IP(B) 0 + ½ × IP(C) 1 = ½;  C = ½ × IP(D) 1½ + ½ × IP(A) 1½ = ¾ + ¾ = 1½;
    D = ½ × IP(C) 1 + 1 × IP(B) 0 = ½;  B = 0;  E = 0 (no games).
Ranking (SB, then IP): C 1½; A and D ½ with IP 1½ each share 2nd; E 0 (IP 1) 4th; B 0 (IP 0) 5th.
After round 1: IP A 1, B 0, C ½, D ½, E ½; SB A = 1 × 0 = 0, C = ½ × ½ = ¼, D = ¼:
    C and D share 1st, A 3rd, E 4th, B 5th; so since round 1 A moved up 1, D down 1.
"""

from __future__ import annotations

import datetime

from competition.models import Game, Participant, Round, RoundEntry, Season
from competition.services.standings import standings_recompute
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RoundEntryFactory,
    RoundFactory,
    SeasonFactory,
)

NAMES = ["Anna Aalders", "Bart Bos", "Cor Cools", "Dirk Dekker", "Eva Egbers"]


def small_season(**season_fields: object) -> tuple[Season, dict[str, Participant]]:
    club = ClubFactory()
    season = SeasonFactory(
        club=club, name="Interne test", slug="interne-test", system="internal-sb", **season_fields
    )
    people = {
        name[0]: ParticipantFactory(
            season=season,
            member=MemberFactory(club=club, name=name, rating=1800 - 10 * i),
            start_rank=i + 1,
        )
        for i, name in enumerate(NAMES)
    }
    a, b, c, d, e = (people[k] for k in "ABCDE")
    r1 = RoundFactory(season=season, number=1, date=datetime.date(2026, 9, 10))
    r2 = RoundFactory(season=season, number=2, date=datetime.date(2026, 9, 17))
    GameFactory(round=r1, board=1, white=a, black=b, result="1-0")
    GameFactory(round=r1, board=2, white=c, black=d, result="1/2")
    RoundEntryFactory(round=r1, participant=e, kind=RoundEntry.Kind.ABSENT_NOTICE)
    GameFactory(round=r2, board=1, white=a, black=c, result="1/2")
    GameFactory(round=r2, board=2, white=b, black=d, result="0-1")
    RoundEntryFactory(round=r2, participant=e, kind=RoundEntry.Kind.ABSENT_NOTICE)
    Round.objects.filter(season=season).update(status=Round.Status.COMPLETED)
    standings_recompute(season=season)
    season.refresh_from_db()
    return season, people


def large_season(players: int = 30, rounds: int = 8, slug: str = "groot") -> Season:
    """A season of ``players`` × ``rounds`` (a round robin-like rotation) built in bulk."""
    club = ClubFactory()
    season = Season.objects.create(
        club=club,
        name=f"Groot {players}",
        slug=slug,
        system="internal-sb",
        tiebreaks=["BH", "WIN"],
        unplayed_policy="unplayed-as-draw",
        min_games=2,
    )
    members = [
        MemberFactory(club=club, name=f"Lid {slug} {i:03d}", rating=1500 + i)
        for i in range(players)
    ]
    participants = Participant.objects.bulk_create(
        Participant(season=season, member=m, start_rank=i + 1) for i, m in enumerate(members)
    )
    results = ["1-0", "1/2", "0-1"]
    games = []
    entries = []
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(season=season, number=number, status=Round.Status.COMPLETED)
        order = participants[number % players :] + participants[: number % players]
        for board, i in enumerate(range(0, players - 1, 2), start=1):
            white, black = order[i], order[i + 1]
            games.append(
                Game(
                    round=rnd,
                    board=board,
                    white=white,
                    black=black,
                    result=results[(board + number) % 3],
                )
            )
        if players % 2:
            entries.append(
                RoundEntry(round=rnd, participant=order[-1], kind=RoundEntry.Kind.BYE, points=1)
            )
    Game.objects.bulk_create(games)
    RoundEntry.objects.bulk_create(entries)
    standings_recompute(season=season)
    season.refresh_from_db()
    return season
