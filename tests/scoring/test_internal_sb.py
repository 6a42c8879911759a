"""The internal SB competition (seed 000): internal points, SB and the explanation table."""

from __future__ import annotations

from fractions import Fraction

import pytest

from competition.scoring.engine import explain, standings_after, standings_history
from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from competition.scoring.parameters import ParameterError

F = Fraction
HALF = F(1, 2)
WIN, DRAW, LOSS = F(1), HALF, F(0)

# Seed 000: X's opponents A..J with X's score against each, and each opponent's results in his
# other games. Row by row (game points / rounds without a game over the board / IP = gp + ½ × n):
#   A: lost to X, won 1 other      -> 2 games, gp 1,            14 absent, IP 1 + 7    = 8
#   B: beat X, 5 wins 2 losses     -> 8 games, gp 1 + 5 = 6,     8 absent, IP 6 + 4    = 10
#   C: lost to X, 3 wins 1 loss    -> 5 games, gp 3,            11 absent, IP 3 + 5½   = 8½
#   D: lost to X, 7 wins 1 loss    -> 9 games, gp 7,             7 absent, IP 7 + 3½   = 10½
#   E: lost to X, 1 win 2 losses   -> 4 games, gp 1,            12 absent, IP 1 + 6    = 7
#   F: beat X, 4 wins 1 loss       -> 6 games, gp 1 + 4 = 5,    10 absent, IP 5 + 5    = 10
#   G: lost to X, 3 wins 1 loss    -> 5 games, gp 3,            11 absent, IP 3 + 5½   = 8½
#   H: drew X, 2 wins 1 draw 5 l.  -> 9 games, gp ½ + 2½ = 3,    7 absent, IP 3 + 3½   = 6½
#   I: lost to X, 3 w 1 d 3 l.     -> 8 games, gp 3½,            8 absent, IP 3½ + 4   = 7½
#   J: drew X, 4 wins              -> 5 games, gp ½ + 4 = 4½,   11 absent, IP 4½ + 5½  = 10
# X's SB = 8 + 0 + 8½ + 10½ + 7 + 0 + 8½ + ½×6½ + 7½ + ½×10
#        = 8 + 8.5 + 10.5 + 7 + 8.5 + 3.25 + 7.5 + 5 = 58.25 (the seed's total; every row checks).
SEED_000 = {
    # name: (X's score, opponent's other results, opponent's gp, absences, IP, SB contribution)
    "A": (WIN, [WIN], F(1), 14, F(8), F(8)),
    "B": (LOSS, [WIN] * 5 + [LOSS] * 2, F(6), 8, F(10), F(0)),
    "C": (WIN, [WIN] * 3 + [LOSS], F(3), 11, F(17, 2), F(17, 2)),
    "D": (WIN, [WIN] * 7 + [LOSS], F(7), 7, F(21, 2), F(21, 2)),
    "E": (WIN, [WIN] + [LOSS] * 2, F(1), 12, F(7), F(7)),
    "F": (LOSS, [WIN] * 4 + [LOSS], F(5), 10, F(10), F(0)),
    "G": (WIN, [WIN] * 3 + [LOSS], F(3), 11, F(17, 2), F(17, 2)),
    "H": (DRAW, [WIN] * 2 + [DRAW] + [LOSS] * 5, F(3), 7, F(13, 2), F(13, 4)),
    "I": (WIN, [WIN] * 3 + [DRAW] + [LOSS] * 3, F(7, 2), 8, F(15, 2), F(15, 2)),
    "J": (DRAW, [WIN] * 4, F(9, 2), 11, F(10), F(5)),
}
X = 1
OPPONENT_ID = {name: 2 + index for index, name in enumerate(SEED_000)}
FILLER_ID = {name: 20 + index for index, name in enumerate(SEED_000)}
RESULT_FOR_WHITE = {WIN: Result.WHITE_WINS, DRAW: Result.DRAW, LOSS: Result.BLACK_WINS}


def seed_000_season(**parameters: object) -> SeasonInput:
    """16 rounds: X meets A..J in rounds 1..10 and is absent in rounds 11..16.

    Each opponent's other games are against his own filler player, in the first free rounds;
    every other round he is absent with notice.
    """
    participants = [Participant(X, "X", start_rank=1)]
    participants += [
        Participant(OPPONENT_ID[n], n, start_rank=2 + i) for i, n in enumerate(SEED_000)
    ]
    participants += [
        Participant(FILLER_ID[n], f"filler {n}", start_rank=20 + i) for i, n in enumerate(SEED_000)
    ]
    games: dict[int, list[Game]] = {number: [] for number in range(1, 17)}
    for index, (name, (x_score, others, *_)) in enumerate(SEED_000.items()):
        x_round = index + 1
        games[x_round].append(Game(X, OPPONENT_ID[name], RESULT_FOR_WHITE[x_score]))
        free_rounds = [number for number in range(1, 17) if number != x_round]
        for number, score in zip(free_rounds, others, strict=False):
            games[number].append(Game(OPPONENT_ID[name], FILLER_ID[name], RESULT_FOR_WHITE[score]))
    rounds = []
    for number in range(1, 17):
        playing = {pid for game in games[number] for pid in (game.white, game.black)}
        entries = tuple(
            Entry(p.id, EntryKind.ABSENT_NOTICE) for p in participants if p.id not in playing
        )
        rounds.append(Round(number, tuple(games[number]), entries))
    return SeasonInput(
        tuple(participants), tuple(rounds), system="internal-sb", parameters=parameters
    )


def row_of(standings, participant_id):
    return next(row for row in standings.rows if row.participant_id == participant_id)


def test_seed_000_sb_of_x_after_16_rounds_is_58_25() -> None:
    standings = standings_after(seed_000_season(), 16)
    x_row = row_of(standings, X)
    assert x_row.score == F(233, 4)
    assert x_row.values["SB"] == F(233, 4)
    # X: 7 game points (6 wins, 2 draws) + 6 absences × ½ = 10
    assert x_row.game_points == F(7)
    assert x_row.values["IP"] == F(10)
    assert x_row.games_played == 10


@pytest.mark.parametrize("name", list(SEED_000))
def test_seed_000_opponent_rows(name: str) -> None:
    _, _, game_points, absences, internal_points, _ = SEED_000[name]
    row = row_of(standings_after(seed_000_season(), 16), OPPONENT_ID[name])
    assert row.game_points == game_points
    assert row.games_played == 16 - absences
    assert row.values["IP"] == internal_points


def test_seed_000_explanation_is_the_seed_table() -> None:
    explanation = explain(seed_000_season(), participant_id=X, after_round=16)
    sb_lines = [line for line in explanation.lines if line.figure == "SB"]
    table = [
        (
            line.opponent_id,
            line.parts["opponent_game_points"],
            line.parts["opponent_unplayed_rounds"],
            line.parts["opponent_internal_points"],
            line.parts["score"],
            line.amount,
        )
        for line in sb_lines
    ]
    expected = [
        (OPPONENT_ID[name], gp, F(absent), ip, x_score, contribution)
        for name, (x_score, _, gp, absent, ip, contribution) in SEED_000.items()
    ]
    assert table == expected
    assert sum(line.amount for line in sb_lines) == F(233, 4) == explanation.totals["SB"]
    ip_lines = [line for line in explanation.lines if line.figure == "IP"]
    assert sum(line.amount for line in ip_lines) == explanation.totals["IP"] == F(10)


@pytest.mark.parametrize(
    ("unplayed_value", "expected_sb"),
    [
        # with 0, IP = game points: 1 + 3 + 7 + 1 + 3 + ½×3 + 3½ + ½×4½ = 22¼
        (F(0), F(89, 4)),
        # with 1: A 15, C 14, D 14, E 13, G 14, H ½×10, I 11½, J ½×15½ -> 15+14+14+13+14+5+11.5+7.75
        (F(1), F(377, 4)),
    ],
)
def test_seed_000_unplayed_value_parameter(unplayed_value: Fraction, expected_sb: Fraction) -> None:
    season = seed_000_season(unplayed_value=unplayed_value)
    assert row_of(standings_after(season, 16), X).score == expected_sb


def small_season(**parameters: object) -> SeasonInput:
    """Four players, three rounds, with a forfeit, a full-point bye and absences."""
    return SeasonInput(
        participants=(
            Participant(1, "Anna", start_rank=1),
            Participant(2, "Bert", start_rank=2),
            Participant(3, "Cor", start_rank=3),
            Participant(4, "Dirk", start_rank=4),
        ),
        rounds=(
            Round(1, games=(Game(1, 2, Result.WHITE_WINS), Game(3, 4, Result.DRAW))),
            Round(
                2,
                games=(Game(1, 3, Result.WHITE_WINS_FORFEIT),),
                entries=(Entry(2, EntryKind.BYE, F(1)), Entry(4, EntryKind.ABSENT_NOTICE)),
            ),
            Round(
                3,
                games=(Game(2, 4, Result.BLACK_WINS),),
                entries=(Entry(1, EntryKind.CLUB_DUTY), Entry(3, EntryKind.ABSENT_NO_NOTICE)),
            ),
        ),
        system="internal-sb",
        parameters=parameters,
    )


# After round 3 (½ per round without a game over the board):
#   Anna: gp 1 + 1 (forfeit win) + 0 = 2, unplayed rounds 2, 3 -> IP 2 + 1 = 3
#   Bert: gp 0 + 1 (bye) + 0 = 1, unplayed round 2 -> IP 1½
#   Cor:  gp ½ + 0 + 0 = ½, unplayed rounds 2, 3 -> IP 1½
#   Dirk: gp ½ + 0 + 1 = 1½, unplayed round 2 -> IP 2
# SB: Anna 1 × IP(Bert) = 1½ (the forfeit is not a game over the board); Bert 0;
#     Cor ½ × IP(Dirk) = 1; Dirk ½ × IP(Cor) + 1 × IP(Bert) = ¾ + 1½ = 2¼
@pytest.mark.parametrize(
    ("pid", "rank", "sb", "ip", "games"),
    [
        (4, 1, F(9, 4), F(2), 2),
        (1, 2, F(3, 2), F(3), 1),
        (3, 3, F(1), F(3, 2), 1),
        (2, 4, F(0), F(3, 2), 2),
    ],
)
def test_small_season_after_round_3(
    pid: int, rank: int, sb: Fraction, ip: Fraction, games: int
) -> None:
    standings = standings_after(small_season(), 3)
    assert [row.participant_id for row in standings.rows] == [4, 1, 3, 2]
    row = row_of(standings, pid)
    assert (row.rank, row.values["SB"], row.values["IP"], row.games_played) == (rank, sb, ip, games)


def test_small_season_after_round_1_shares_a_rank() -> None:
    # IP after round 1: Anna 1, Bert 0, Cor ½, Dirk ½.
    # SB: Anna 1 × 0 = 0, Cor ½ × ½ = ¼, Dirk ½ × ½ = ¼, Bert 0.
    # Cor and Dirk are equal on SB and IP: both rank 1, listed by start rank. Anna beats Bert on IP.
    standings = standings_history(small_season()).after(1)
    assert [(row.participant_id, row.rank) for row in standings.rows] == [
        (3, 1),
        (4, 1),
        (1, 3),
        (2, 4),
    ]
    assert row_of(standings, 3).score == F(1, 4)


def test_rounds_before_joining() -> None:
    season = SeasonInput(
        participants=(
            Participant(1, "Anna", start_rank=1),
            Participant(2, "Bert", start_rank=2, joined_round=3),
        ),
        rounds=(Round(1), Round(2), Round(3, games=(Game(1, 2, Result.BLACK_WINS),))),
        system="internal-sb",
    )
    # Counted (default): Bert 1 + ½ × 2 = 2; Anna 0 + ½ × 2 = 1; Anna's SB 0, Bert's 1 × 1 = 1.
    bert = row_of(standings_after(season, 3), 2)
    assert (bert.values["IP"], bert.score) == (F(2), F(1))
    # Not counted: Bert's IP is his single point; Anna's rounds 1-2 without a record still count.
    season = SeasonInput(
        season.participants, season.rounds, "internal-sb", {"count_rounds_before_joining": False}
    )
    bert = row_of(standings_after(season, 3), 2)
    assert (bert.values["IP"], bert.score) == (F(1), F(1))


def test_an_opponent_met_twice_appears_twice() -> None:
    season = SeasonInput(
        participants=(Participant(1, "Anna"), Participant(2, "Bert")),
        rounds=(
            Round(1, games=(Game(1, 2, Result.WHITE_WINS),)),
            Round(2, games=(Game(2, 1, Result.DRAW),)),
        ),
        system="internal-sb",
    )
    # Bert's IP = ½; Anna's SB = 1 × ½ + ½ × ½ = ¾.
    explanation = explain(season, participant_id=1, after_round=2)
    assert [line.opponent_id for line in explanation.lines if line.figure == "SB"] == [2, 2]
    assert explanation.totals["SB"] == F(3, 4)


@pytest.mark.parametrize(
    "raw", [{"unplayed_value": F(2)}, {"unplayed_value": -1}, {"unplayed_value": 0.5}, {"other": 1}]
)
def test_bad_parameters_are_refused(raw: dict[str, object]) -> None:
    season = small_season(**raw)
    with pytest.raises(ParameterError):
        standings_after(season, 1)
