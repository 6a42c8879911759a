"""The packed fast path (``TiebreakSheet``) gives exactly what the readable rules give.

The engine builds one :class:`TiebreakSheet` per season reading and asks it for any round's
figures in the season's own order of codes; the readable rules (``RULES``, one function per
code) read the records afresh each time. On random events with games, forfeits, double forfeits,
byes, every kind of absence and late joiners, under every unplayed-round policy (both FIDE
editions always), Swiss and round robin, both must agree on every code after every round, and
the games the sheet finds within a group (direct encounter's input) must be the regular games
between its members.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.scoring.records import read_rows, records_by_participant
from competition.scoring.tiebreaks import (
    DIRECT_ENCOUNTER,
    RULES,
    TIEBREAK_CODES,
    UNPLAYED_POLICIES,
    TiebreakSheet,
    compute_tiebreaks_by_rules,
)
from competition.scoring.unplayed import categorise, halves, is_regular_game
from tests.profiles import examples
from tests.scoring.seasons import random_season

CODES = tuple(code for code in TIEBREAK_CODES if code != DIRECT_ENCOUNTER)

events = {
    "seed": st.integers(0, 10**6),
    "players": st.integers(2, 12),
    "rounds": st.integers(1, 9),
    "round_robin": st.booleans(),
}


def test_every_code_but_direct_encounter_has_a_rule() -> None:
    assert set(RULES) == set(CODES)


@pytest.mark.parametrize("policy", UNPLAYED_POLICIES)
@settings(max_examples=examples(100), deadline=None)
@given(**events, order_seed=st.integers(0, 10**6))
def test_one_sheet_gives_the_readable_rules_after_every_round(
    policy: str, seed: int, players: int, rounds: int, round_robin: bool, order_seed: int
) -> None:
    season = random_season(seed, players, rounds, policy=policy, round_robin=round_robin)
    sheet = TiebreakSheet(season, read_rows(season, rounds))
    rng = random.Random(order_seed)
    for upto in range(1, rounds + 1):
        # every code, then a random selection in a random order (the sheet places each code)
        for codes in (CODES, tuple(rng.sample(CODES, rng.randint(1, len(CODES))))):
            fast = sheet.figures(upto, codes)
            readable = compute_tiebreaks_by_rules(season, upto_round=upto, codes=codes)
            assert fast == readable, (upto, codes)
            assert all(tuple(values) == codes for values in fast.values())


@pytest.mark.parametrize("policy", UNPLAYED_POLICIES)
@settings(max_examples=examples(100), deadline=None)
@given(**events, member_seed=st.integers(0, 10**6))
def test_the_figures_of_some_members_are_their_rows_of_everybodys(
    policy: str, seed: int, players: int, rounds: int, round_robin: bool, member_seed: int
) -> None:
    """``figures(..., members=...)`` (the Keizer ranking asks for the participants tied in
    score) gives exactly those members' rows of the figures for everybody, AOB included (it
    reads the Buchholz of opponents outside the members). The sheet keeps each round's
    Buchholz as it finds them, so the members are asked of a sheet that has not yet computed
    everybody's, a few at a time, then again after everybody's."""
    season = random_season(seed, players, rounds, policy=policy, round_robin=round_robin)
    rows = read_rows(season, rounds)
    sheet, fresh = TiebreakSheet(season, rows), TiebreakSheet(season, rows)
    rng = random.Random(member_seed)
    ids = [p.id for p in season.participants]
    for upto in range(1, rounds + 1):
        codes = tuple(rng.sample(CODES, rng.randint(1, len(CODES))))
        if "AOB" not in codes and rng.random() < 0.5:
            codes = (*codes, "AOB")
        everybody = sheet.figures(upto, codes)
        for members in (rng.sample(ids, rng.randint(0, len(ids))) for _ in range(3)):
            for asked_of in (fresh, sheet):
                some = asked_of.figures(upto, codes, members)
                assert some == {pid: everybody[pid] for pid in members}, (upto, codes, members)
                assert all(tuple(values) == codes for values in some.values())
    with pytest.raises(ValueError, match="unknown participants"):
        sheet.figures(rounds, CODES, [max(ids) + 1])


@pytest.mark.parametrize("policy", ["fide-2024", "fide-2026"])
@settings(max_examples=examples(60), deadline=None)
@given(**events, group_seed=st.integers(0, 10**6))
def test_the_sheets_meetings_are_the_regular_games_within_the_group(
    policy: str, seed: int, players: int, rounds: int, round_robin: bool, group_seed: int
) -> None:
    season = random_season(seed, players, rounds, policy=policy, round_robin=round_robin)
    sheet = TiebreakSheet(season, read_rows(season, rounds))
    rng = random.Random(group_seed)
    upto = rng.randint(1, rounds)
    records = records_by_participant(season, upto)
    group = set(rng.sample(sorted(records), rng.randint(1, players)))
    expected: dict[tuple[int, int], list[int]] = {}
    for pid in sorted(group):
        for record, category in zip(records[pid], categorise(records[pid]), strict=True):
            regular = is_regular_game(category, record, round_robin=round_robin)
            if regular and record.opponent in group:
                expected.setdefault((pid, record.opponent), []).append(halves(record))
    assert sheet.meetings(upto, group) == expected
