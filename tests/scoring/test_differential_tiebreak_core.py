"""Our FIDE tie-breaks against the independent tiebreak-core library on random Swiss events.

Random events have games, forfeits (one-sided and double), pairing-allocated byes and
requested half- and zero-point byes. No difference is tolerated: none has been found that
the C.07 text would settle against tiebreak-core (docs/tiebreaks.md, "Comparison").
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from competition.scoring.tiebreaks import compute_tiebreaks
from tests.profiles import examples
from tests.scoring.tiebreak_core_adapter import compute_with_tiebreak_core

CODES = ("BH", "BH/C1", "SB", "SB/C1", "PS", "ARO", "TPR")
_RESULTS = (
    Result.WHITE_WINS,
    Result.DRAW,
    Result.BLACK_WINS,
    Result.WHITE_WINS,
    Result.BLACK_WINS,
    Result.WHITE_WINS_FORFEIT,
    Result.BLACK_WINS_FORFEIT,
    Result.DOUBLE_FORFEIT,
)


@st.composite
def swiss_events(draw: st.DrawFn) -> SeasonInput:
    players = draw(st.integers(min_value=2, max_value=10))
    rounds = draw(st.integers(min_value=1, max_value=7))
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    ids = list(range(1, players + 1))
    built = []
    for number in range(1, rounds + 1):
        present = []
        entries = []
        for pid in ids:
            if rng.random() < 0.15:
                points = rng.choice((Fraction(0), Fraction(1, 2)))
                entries.append(Entry(pid, EntryKind.ABSENT_NOTICE, points))
            else:
                present.append(pid)
        rng.shuffle(present)
        if len(present) % 2:
            entries.append(Entry(present.pop(), EntryKind.BYE, Fraction(1)))
        games = tuple(
            Game(present[i], present[i + 1], rng.choice(_RESULTS))
            for i in range(0, len(present), 2)
        )
        built.append(Round(number, games, tuple(entries)))
    participants = tuple(
        Participant(pid, f"P{pid}", rating=rng.randrange(1000, 2400)) for pid in ids
    )
    policy = draw(st.sampled_from(("fide-2024", "fide-2026")))
    return SeasonInput(participants, tuple(built), unplayed_policy=policy)


@settings(max_examples=examples(300), deadline=None)
@given(swiss_events())
def test_same_figures_as_tiebreak_core(season: SeasonInput) -> None:
    last = len(season.rounds)
    ours = compute_tiebreaks(season, upto_round=last, codes=CODES)
    theirs = compute_with_tiebreak_core(
        season, upto_round=last, codes=CODES, policy=season.unplayed_policy
    )
    assert ours == theirs
