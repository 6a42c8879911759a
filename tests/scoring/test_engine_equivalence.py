"""The fast paths of the engine give exactly what the plain reading of the rules gives.

``compute_tiebreaks`` and the engine work on flat integer lists with running totals (see
docs/scoring.md, "Speed"). Here they are compared, on random seasons with every kind of round
(games, forfeits, double forfeits, pairings without a result, byes, absences, club duty, rounds
before joining), with straightforward references:

- the tie-breaks one contribution at a time (``compute_tiebreaks_by_rules``, the path the
  explanations use), for every code and every unplayed-round policy, Swiss and round robin, after
  every round; and the explanation lines, whose counted amounts add up to the figure;
- the records read round by round;
- the standings of the ``points`` system ranked in the simplest possible way.
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from competition.scoring.engine import standings_after, standings_history
from competition.scoring.model import (
    EntryKind,
    SeasonInput,
)
from competition.scoring.records import RoundRecord, records_by_participant
from competition.scoring.tiebreaks import (
    TIEBREAK_CODES,
    UNPLAYED_POLICIES,
    compute_tiebreaks,
    compute_tiebreaks_by_rules,
    direct_encounter,
    explain_tiebreaks,
)
from competition.scoring.unplayed import categorise, is_regular_game
from tests.profiles import examples
from tests.scoring.seasons import random_season

F = Fraction
CODES = tuple(code for code in TIEBREAK_CODES if code != "DE")
AVERAGES = {"ARO", "TPR", "AOB"}  # their explanation lines list the inputs of an average


season_shapes = {
    "seed": st.integers(0, 10**6),
    "players": st.integers(2, 11),
    "rounds": st.integers(1, 9),
    "policy": st.sampled_from(UNPLAYED_POLICIES),
    "round_robin": st.booleans(),
}


@settings(max_examples=examples(150), deadline=None)
@given(**season_shapes)
def test_tiebreaks_equal_the_contribution_by_contribution_reference(
    seed: int, players: int, rounds: int, policy: str, round_robin: bool
) -> None:
    season = random_season(seed, players, rounds, policy=policy, round_robin=round_robin)
    for upto in range(rounds + 1):
        fast = compute_tiebreaks(season, upto_round=upto, codes=CODES)
        reference = compute_tiebreaks_by_rules(season, upto_round=upto, codes=CODES)
        assert fast == reference
        assert all(list(values) == list(CODES) for values in fast.values())  # the asked order


@settings(max_examples=examples(60), deadline=None)
@given(**season_shapes)
def test_explanation_lines_add_up_to_the_figures(
    seed: int, players: int, rounds: int, policy: str, round_robin: bool
) -> None:
    season = random_season(seed, players, rounds, policy=policy, round_robin=round_robin)
    values = compute_tiebreaks(season, upto_round=rounds, codes=CODES)
    for pid in values:
        lines = explain_tiebreaks(season, participant_id=pid, upto_round=rounds, codes=CODES)
        for code in set(CODES) - AVERAGES - {"PS"}:
            counted = sum(
                (line.amount for line in lines if line.figure == code and line.counted), F(0)
            )
            assert counted == values[pid][code], code
        # PS lines are the running scores after each round; their sum is PS
        running = [line.amount for line in lines if line.figure == "PS"]
        assert sum(running, F(0)) == values[pid]["PS"]


@settings(max_examples=examples(60), deadline=None)
@given(**season_shapes, group_seed=st.integers(0, 10**6))
def test_direct_encounter_in_a_fully_met_group_is_the_mini_table(
    seed: int, players: int, rounds: int, policy: str, round_robin: bool, group_seed: int
) -> None:
    season = random_season(seed, players, rounds, policy=policy, round_robin=round_robin)
    records = records_by_participant(season)
    rng = random.Random(group_seed)
    group = set(rng.sample(sorted(records), rng.randint(1, players)))
    # Reference (Art. 6.1, 6.1.2, 15.2): the meetings within the group from the records.
    meetings: dict[tuple[int, int], list[Fraction]] = {}
    for pid in group:
        for record, category in zip(records[pid], categorise(records[pid]), strict=True):
            if record.opponent in group and is_regular_game(
                category, record, round_robin=round_robin
            ):
                meetings.setdefault((pid, record.opponent), []).append(record.points)
    values = direct_encounter(season, upto_round=rounds, group=group)
    assert set(values) == group
    if all((a, b) in meetings for a in group for b in group if a != b):
        for pid in group:
            expected = sum(
                (sum(scores) / len(scores) for (a, _), scores in meetings.items() if a == pid),
                F(0),
            )
            assert values[pid] == expected


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 11), rounds=st.integers(0, 9))
def test_records_equal_a_round_by_round_reading(seed: int, players: int, rounds: int) -> None:
    season = random_season(seed, players, rounds)
    upto = random.Random(seed).randint(0, rounds)
    expected: dict[int, list[RoundRecord]] = {p.id: [] for p in season.participants}
    joined = {p.id: p.joined_round for p in season.participants}
    for rnd in season.rounds[:upto]:
        for pid in expected:
            before = rnd.number < joined[pid]
            record = RoundRecord(
                rnd.number, F(0), entry=EntryKind.NOT_PAIRED, before_joining=before
            )
            for game in rnd.games:
                if pid == game.white:
                    record = RoundRecord(
                        rnd.number, game.result.white_points, game.black, "w", game.result,
                        before_joining=before,
                    )  # fmt: skip
                elif pid == game.black:
                    record = RoundRecord(
                        rnd.number, game.result.black_points, game.white, "b", game.result,
                        before_joining=before,
                    )  # fmt: skip
            for entry in rnd.entries:
                if entry.participant == pid:
                    record = RoundRecord(
                        rnd.number, entry.points, entry=entry.kind, before_joining=before
                    )
            expected[pid].append(record)
    assert records_by_participant(season, upto) == {
        pid: tuple(rows) for pid, rows in expected.items()
    }


def _reference_points_standings(season: SeasonInput, after: int) -> list[tuple]:
    """The ``points`` system (defaults 1, ½, 0) ranked plainly: sort on (PTS, tie-breaks...)."""
    codes = season.tiebreaks
    records = records_by_participant(season, after)
    tiebreak_values = (
        compute_tiebreaks_by_rules(season, upto_round=after, codes=codes)
        if after
        else {pid: dict.fromkeys(codes, F(0)) for pid in records}
    )
    people = {p.id: p for p in season.participants}
    values = {
        pid: {"PTS": sum((r.points for r in records[pid]), F(0)), **tiebreak_values[pid]}
        for pid in records
    }

    def key(pid: int) -> tuple:
        return tuple(values[pid][code] for code in ("PTS", *codes))

    ordered = sorted(
        records,
        key=lambda pid: (
            [-value for value in key(pid)],
            people[pid].start_rank is None,
            people[pid].start_rank or 0,
            people[pid].name,
            pid,
        ),
    )
    rows = []
    for place, pid in enumerate(ordered, start=1):
        rank = place
        if rows and key(rows[-1][0]) == key(pid):
            rank = rows[-1][1]  # equal on every criterion: the same rank
        played = sum(1 for r in records[pid] if r.played)
        rows.append((pid, rank, values[pid]["PTS"], values[pid]["PTS"], values[pid], played))
    return rows


@settings(max_examples=examples(60), deadline=None)
@given(**season_shapes, codes_seed=st.integers(0, 10**6))
def test_points_standings_equal_a_plain_ranking(
    seed: int, players: int, rounds: int, policy: str, round_robin: bool, codes_seed: int
) -> None:
    codes = list(CODES)
    random.Random(codes_seed).shuffle(codes)
    season = random_season(
        seed,
        players,
        rounds,
        policy=policy,
        round_robin=round_robin,
        tiebreaks=tuple(codes[: random.Random(codes_seed).randint(0, 6)]),
    )
    history = standings_history(season)
    for after in range(rounds + 1):
        standings = history.after(after) if after else standings_after(season, 0)
        got = [
            (row.participant_id, row.rank, row.score, row.game_points, dict(row.values),
             row.games_played)
            for row in standings.rows
        ]  # fmt: skip
        assert got == _reference_points_standings(season, after)
