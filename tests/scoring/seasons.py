"""Builders for scoring tests (no tests here): seasons from crosstables, round lists, or a seed."""

from __future__ import annotations

import random
from fractions import Fraction

from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)

_RESULTS = {"1": Result.WHITE_WINS, "=": Result.DRAW, "0": Result.BLACK_WINS}
_RESULTS.update({"+": Result.WHITE_WINS_FORFEIT, "-": Result.BLACK_WINS_FORFEIT})
_RESULTS["--"] = Result.DOUBLE_FORFEIT


def round_robin_schedule(ids: list[int]) -> list[list[tuple[int, int]]]:
    """Circle-method rounds for an even number of players: list of (white, black) per round."""
    players = list(ids)
    rounds = []
    for number in range(len(players) - 1):
        pairs = []
        for i in range(len(players) // 2):
            a, b = players[i], players[-1 - i]
            pairs.append((a, b) if (number + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def season_from_crosstable(
    rows: dict[int, str],
    *,
    ratings: dict[int, int] | None = None,
    policy: str = "plain",
    round_robin: bool = True,
) -> SeasonInput:
    """A round robin whose results come from a crosstable.

    ``rows[p]`` has one character per player in key order: ``1`` win, ``=`` draw, ``0`` loss,
    ``-`` both forfeited, ``x`` the diagonal.
    """
    ids = list(rows)
    column = {pid: i for i, pid in enumerate(ids)}
    schedule = round_robin_schedule(ids if len(ids) % 2 == 0 else [*ids, -1])
    rounds = []
    for number, pairs in enumerate(schedule, start=1):
        games = []
        entries = []
        for white, black in pairs:
            if -1 in (white, black):
                entries.append(Entry(white if black == -1 else black, EntryKind.BYE))
                continue
            mark = rows[white][column[black]]
            result = Result.DOUBLE_FORFEIT if mark == "-" else _RESULTS[mark]
            games.append(Game(white, black, result))
        rounds.append(Round(number, tuple(games), tuple(entries)))
    ratings = ratings or {}
    participants = tuple(Participant(pid, f"P{pid}", rating=ratings.get(pid)) for pid in ids)
    return SeasonInput(participants, tuple(rounds), unplayed_policy=policy, round_robin=round_robin)


def season_from_rounds(
    players: list[int],
    rounds: list[list[tuple]],
    *,
    policy: str = "fide-2024",
    ratings: dict[int, int] | None = None,
    joined: dict[int, int] | None = None,
    round_robin: bool = False,
) -> SeasonInput:
    """A season from short round lists.

    Each round item is ``(white, black, "1-0")`` for a game (results as in :class:`Result`) or
    ``(pid, "bye" | "absent_notice" | ..., points)`` for an entry; players missing from a round
    get ``not_paired``.
    """
    built = []
    for number, items in enumerate(rounds, start=1):
        games = []
        entries = []
        for item in items:
            if isinstance(item[1], int):
                games.append(Game(item[0], item[1], Result(item[2])))
            else:
                entries.append(Entry(item[0], EntryKind(item[1]), Fraction(item[2])))
        built.append(Round(number, tuple(games), tuple(entries)))
    ratings = ratings or {}
    joined = joined or {}
    participants = tuple(
        Participant(pid, f"P{pid}", rating=ratings.get(pid), joined_round=joined.get(pid, 1))
        for pid in players
    )
    return SeasonInput(participants, tuple(built), unplayed_policy=policy, round_robin=round_robin)


def random_season(
    seed: int,
    players: int,
    rounds: int,
    *,
    policy: str = "fide-2024",
    round_robin: bool = False,
    tiebreaks: tuple[str, ...] = (),
) -> SeasonInput:
    """A seeded random season with every kind of round: games with any result (forfeits,
    double forfeits, pairings without a result), byes, every kind of absence, rounds without a
    record and rounds before joining; some participants unrated or without a start rank."""
    rng = random.Random(seed)
    participants = tuple(
        Participant(
            pid,
            f"P{pid}",
            start_rank=rng.choice([pid, pid, None]),
            rating=rng.choice([None, 0, rng.randint(1000, 2400)]),
            joined_round=rng.choice([1, 1, 1, 2, 3]),
        )
        for pid in range(1, players + 1)
    )
    built = []
    for number in range(1, rounds + 1):
        present = [p.id for p in participants if rng.random() < 0.75]
        rng.shuffle(present)
        entries = [
            Entry(
                p.id,
                rng.choice(list(EntryKind)),
                rng.choice([Fraction(0), Fraction(0), Fraction(1, 2), Fraction(1)]),
            )
            for p in participants
            if p.id not in present and rng.random() < 0.85  # else: no record (not paired)
        ]
        if len(present) % 2:
            entries.append(
                Entry(present.pop(), EntryKind.BYE, rng.choice([Fraction(1), Fraction(1, 2)]))
            )
        games = tuple(
            Game(present[i], present[i + 1], rng.choice(list(Result)), board=i // 2 + 1)
            for i in range(0, len(present), 2)
        )
        built.append(Round(number, games, tuple(entries)))
    return SeasonInput(
        participants,
        tuple(built),
        tiebreaks=tiebreaks,
        unplayed_policy=policy,
        round_robin=round_robin,
    )
