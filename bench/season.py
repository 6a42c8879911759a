"""A large season for the benchmarks: ``players`` participants × ``rounds`` completed rounds.

Members, participants, games and absences are bulk-inserted (building 6 000 games one service
call at a time would take minutes), then ``standings_recompute`` — the service every write ends
with — computes the standings snapshots. With ``open_round`` one more round is paired and
published with no results yet: the round of a club evening in progress, whose boards the TD
fills in (``competition.services.rounds.result_record``).
"""

from __future__ import annotations

import argparse
import time
from typing import Any


def build_season(
    *, players: int, rounds: int, open_round: bool = False, slug: str = "bench"
) -> tuple[Any, list[Any]]:
    from competition.models import Club, Game, Member, Participant, Round, RoundEntry, Season
    from competition.services.standings import standings_recompute

    club = Club.objects.create(name="Benchclub", slug="benchclub")
    season = Season.objects.create(
        club=club,
        name="Bench",
        slug=slug,
        system="internal-sb",
        tiebreaks=["BH", "WIN"],
        unplayed_policy="unplayed-as-draw",
        min_games=10,
    )
    members = Member.objects.bulk_create(
        Member(club=club, name=f"Speler {i:03d}", rating=2200 - 5 * i) for i in range(players)
    )
    participants = Participant.objects.bulk_create(
        Participant(season=season, member=m, start_rank=i + 1) for i, m in enumerate(members)
    )
    results = ["1-0", "1/2", "0-1", "1-0", "0-1"]
    games, entries = [], []
    for number in range(1, rounds + 1 + int(open_round)):
        is_open = number > rounds
        rnd = Round.objects.create(
            season=season,
            number=number,
            status=Round.Status.PAIRED if is_open else Round.Status.COMPLETED,
        )
        shift = (number * 7) % players
        order = participants[shift:] + participants[:shift]
        absent = order[-6:]  # six absences every round, of mixed kinds
        present = order[:-6]
        for board, i in enumerate(range(0, len(present) - 1, 2), start=1):
            result = (
                Game.Result.NOT_PLAYED if is_open else results[(board * 3 + number) % len(results)]
            )
            games.append(
                Game(round=rnd, board=board, white=present[i], black=present[i + 1], result=result)
            )
        kinds = ["absent_notice", "absent_no_notice", "club_duty"]
        for j, p in enumerate(absent):
            entries.append(RoundEntry(round=rnd, participant=p, kind=kinds[j % 3]))
    Game.objects.bulk_create(games)
    RoundEntry.objects.bulk_create(entries)
    started = time.perf_counter()
    standings_recompute(season=season)
    print(f"standings_recompute: {1000 * (time.perf_counter() - started):.0f} ms")
    return season, participants


def add_size_options(
    parser: argparse.ArgumentParser, *, players: int, rounds: int, repeats: int
) -> None:
    """The season's size and the number of runs (the script adds its own ``--smoke``, which
    :func:`season_of_size` reads)."""
    parser.add_argument("--players", type=int, default=players)
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--repeats", type=int, default=repeats)


def season_of_size(options: argparse.Namespace) -> tuple[Any, list[Any]]:
    """The season of the options' size (tiny ones under ``--smoke``, which also sets one run),
    built on a freshly migrated database."""
    from django.core.management import call_command

    if options.smoke:
        options.players, options.rounds, options.repeats = 8, 3, 1
    call_command("migrate", verbosity=0)
    return build_season(players=options.players, rounds=options.rounds)
