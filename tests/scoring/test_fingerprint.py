"""The standings fingerprint (competition.scoring.fingerprint): a worked example whose text and
hash can be checked by hand (``printf '%s' TEXT | sha256sum``), and what changes it and what
does not."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.scoring.exact import fraction_to_text
from competition.scoring.fingerprint import (
    canonical_text,
    season_fingerprint,
    short_fingerprint,
    short_form,
)
from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from tests.scoring.seasons import random_season

ANNA = Participant(11, "Anna", start_rank=1, rating=1800)
BART = Participant(12, "Bart", start_rank=2, start_points=Fraction(1356, 7))
COR = Participant(13, "Cor")
WORKED = SeasonInput(
    participants=(ANNA, BART, COR),
    rounds=(
        Round(
            1,
            games=(Game(11, 12, Result.WHITE_WINS, board=1),),
            entries=(Entry(13, EntryKind.BYE, Fraction(1, 2)),),
        ),
    ),
    system="van-den-brink",
    parameters={"factor": Fraction(7, 100), "forfeits_count": True},
    tiebreaks=("SB",),
)
WORKED_TEXT = (
    '{"definition":1,"participants":['
    '{"joined_round":1,"name":"Anna","rating":1800,'
    '"rounds":[[1,"white",1,"1-0",[2,"Bart",null,"1356/7",1]]],'
    '"start_number":1,"start_points":null},'
    '{"joined_round":1,"name":"Bart","rating":null,'
    '"rounds":[[1,"black",1,"1-0",[1,"Anna",1800,null,1]]],'
    '"start_number":2,"start_points":"1356/7"},'
    '{"joined_round":1,"name":"Cor","rating":null,"rounds":[[1,"entry","bye","0.5"]],'
    '"start_number":null,"start_points":null}],'
    '"rounds":[1],'
    '"rules":{"min_games":0,"parameters":{"factor":"0.07","forfeits_count":"true"},'
    '"round_robin":false,"system":"van-den-brink","tiebreaks":["SB"],'
    '"unplayed_policy":"fide-2024"}}'
)
WORKED_SHA256 = "19b4b3119ffbf9ea434bdd662609a43c46c6aff315522d1b885fc8dad0687b64"


def test_the_worked_example() -> None:
    assert canonical_text(WORKED) == WORKED_TEXT
    assert hashlib.sha256(WORKED_TEXT.encode()).hexdigest() == WORKED_SHA256
    assert season_fingerprint(WORKED) == WORKED_SHA256
    assert short_fingerprint(WORKED) == "19b4-b311-9ffb"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(7, 100), "0.07"),
        (Fraction(1, 2), "0.5"),
        (Fraction(-1, 2), "-0.5"),
        (Fraction(399, 2), "199.5"),
        (Fraction(1, 1000), "0.001"),
        (Fraction(1356, 7), "1356/7"),
        (Fraction(1, 3), "1/3"),
        (3, "3"),
        (Fraction(0), "0"),
        (Fraction(-10), "-10"),
    ],
)
def test_exact_text(value: Fraction | int, text: str) -> None:
    assert fraction_to_text(value) == text
    assert Fraction(text) == value


@given(st.fractions(max_denominator=10**6))
def test_exact_text_is_exact(value: Fraction) -> None:
    assert Fraction(fraction_to_text(value)) == value


def _changed(**changes: object) -> SeasonInput:
    return dataclasses.replace(WORKED, **changes)


def _with_round(**changes: object) -> SeasonInput:
    return _changed(rounds=(dataclasses.replace(WORKED.rounds[0], **changes),))


@pytest.mark.parametrize(
    "changed",
    [
        # one result
        _with_round(games=(Game(11, 12, Result.DRAW, board=1),)),
        # a forfeit instead of a game over the board
        _with_round(games=(Game(11, 12, Result.WHITE_WINS_FORFEIT, board=1),)),
        # the colours swapped
        _with_round(games=(Game(12, 11, Result.BLACK_WINS, board=1),)),
        # an entry's points or kind
        _with_round(entries=(Entry(13, EntryKind.BYE, Fraction(1)),)),
        _with_round(entries=(Entry(13, EntryKind.ABSENT_NOTICE, Fraction(1, 2)),)),
        # a participant's start data
        _changed(participants=(dataclasses.replace(ANNA, start_rank=3), BART, COR)),
        _changed(participants=(dataclasses.replace(ANNA, rating=1801), BART, COR)),
        _changed(participants=(ANNA, dataclasses.replace(BART, start_points=Fraction(199)), COR)),
        _changed(participants=(ANNA, BART, dataclasses.replace(COR, joined_round=2))),
        _changed(participants=(ANNA, BART, dataclasses.replace(COR, name="Cor Cools"))),
        # the rules
        _changed(system="points"),
        _changed(parameters={"factor": Fraction(5, 100), "forfeits_count": True}),
        _changed(parameters={"factor": Fraction(7, 100)}),
        _changed(tiebreaks=("BH", "SB")),
        _changed(unplayed_policy="fide-2026"),
        _changed(min_games=1),
        _changed(round_robin=True),
        # another completed round, even an empty one
        _changed(rounds=(*WORKED.rounds, Round(2))),
    ],
)
def test_a_change_of_data_or_rules_changes_it(changed: SeasonInput) -> None:
    assert season_fingerprint(changed) != WORKED_SHA256


def test_ids_and_the_order_of_rows_do_not_change_it() -> None:
    # Other database ids (as after an import elsewhere), rows in another order.
    ids = {11: 907, 12: 5, 13: 66}
    moved = SeasonInput(
        participants=tuple(dataclasses.replace(p, id=ids[p.id]) for p in (COR, BART, ANNA)),
        rounds=(
            Round(
                1,
                games=(Game(907, 5, Result.WHITE_WINS, board=1),),
                entries=(Entry(66, EntryKind.BYE, Fraction(1, 2)),),
            ),
        ),
        system="van-den-brink",
        parameters={"forfeits_count": True, "factor": Fraction(7, 100)},
        tiebreaks=("SB",),
    )
    assert season_fingerprint(moved) == WORKED_SHA256


def test_parameters_read_from_the_database_or_an_archive_agree() -> None:
    # The database stores JSON true (and once stored "7/100"), an archive "0.07" and "true";
    # all read back as the same values (parameters_from_json), and an integer 7 is the fraction 7.
    as_stored = _changed(parameters={"factor": Fraction(7, 100), "forfeits_count": True, "n": 7})
    as_archived = _changed(
        parameters={"factor": Fraction(7, 100), "forfeits_count": "true", "n": Fraction(7)}
    )
    assert season_fingerprint(as_stored) == season_fingerprint(as_archived)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_shuffled_rows_give_the_same_fingerprint(seed: int) -> None:
    season = random_season(seed, 9, 6)
    shuffler = random.Random(seed)
    participants = list(season.participants)
    shuffler.shuffle(participants)
    rounds = []
    for rnd in season.rounds:
        games, entries = list(rnd.games), list(rnd.entries)
        shuffler.shuffle(games)
        shuffler.shuffle(entries)
        rounds.append(dataclasses.replace(rnd, games=tuple(games), entries=tuple(entries)))
    shuffled = dataclasses.replace(
        season, participants=tuple(participants), rounds=tuple(reversed(rounds))
    )
    assert season_fingerprint(shuffled) == season_fingerprint(season)


def test_short_form() -> None:
    assert short_form(WORKED_SHA256) == "19b4-b311-9ffb"
    assert short_form("0" * 64) == "0000-0000-0000"


def test_the_docstring_examples() -> None:
    import doctest

    import competition.scoring.fingerprint as module

    failures, tried = doctest.testmod(module)
    assert tried >= 5 and failures == 0
