"""Why did I move (``competition.scoring.movement``): the change of score split into own
result, earlier rounds revalued and own value, and the change of place into who passed whom,
worked by hand per system; on random seasons of every system the parts add up exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.scoring import engine
from competition.scoring.model import (
    Entry,
    EntryKind,
    Game,
    Participant,
    Result,
    Round,
    SeasonInput,
)
from competition.scoring.movement import (
    CorrectionEffect,
    Movement,
    PlaceChange,
    ScoreChange,
    correction_effect,
    movements,
    place_change,
    ranks_of,
    round_contributions,
    score_changes,
    season_movements,
)
from tests.profiles import examples
from tests.scoring.test_engine_properties import random_season

F = Fraction
A, B, C, D, E = 1, 2, 3, 4, 5
W, DRAW, L = Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS


def _players(count: int) -> tuple[Participant, ...]:
    return tuple(Participant(pid, "ABCDE"[pid - 1], start_rank=pid) for pid in range(1, count + 1))


def _moved(season: SeasonInput, pid: int, number: int) -> Movement:
    """As the page: round 1 has no standings before it to compare with."""
    return season_movements(season, pid)[number - 1]


def _moved_from_start(season: SeasonInput, pid: int, number: int) -> Movement:
    """Round 1 compared with the engine's standings before it (the start list)."""
    standings = [engine.standings_after(season, 0), *engine.standings_history(season).history]
    return movements(season, pid, [ranks_of(after) for after in standings])[number - 1]


def test_points_drawing_level_counts_as_passing() -> None:
    """Round 1: A beats B, C has a full-point bye: A 1, C 1 share place 1, B 0 is 3rd.
    Round 2: B beats C, A absent: all three have 1 and share place 1.
    B in round 2: score 0 → 1, own result +1 (a win), nothing revalued (points never change);
    place 3 → 1: A and C were above him and no longer are (level), so he passed both.
    C in round 2: own result 0, place 1 → 1, nobody passed anybody."""
    season = SeasonInput(
        _players(3),
        (
            Round(1, (Game(A, B, W),), (Entry(C, EntryKind.BYE, F(1)),)),
            Round(2, (Game(B, C, W),), (Entry(A, EntryKind.ABSENT_NOTICE),)),
        ),
        system="points",
    )
    assert _moved(season, B, 2) == Movement(
        2, ScoreChange(2, F(0), F(1), F(1), F(0), F(0)), PlaceChange(2, 3, 1, (A, C), ())
    )
    assert _moved(season, B, 2).place.change == 2
    assert _moved(season, C, 2) == Movement(
        2, ScoreChange(2, F(1), F(1), F(0), F(0), F(0)), PlaceChange(2, 1, 1, (), ())
    )
    # round 1: no standings before it, so his place after it, not a move
    assert _moved(season, B, 1).place == PlaceChange(1, None, 3, (), (), level=True)
    assert not _moved(season, B, 1).place.moved and _moved(season, B, 2).place.moved
    # against the standings before it (everybody level on 0, all share place 1): a level start
    assert _moved_from_start(season, B, 1).place == PlaceChange(1, 1, 3, (), (A, C), level=True)


def test_everybody_level_before_the_round_is_no_move() -> None:
    """Points. Round 1: A–B and C–D drawn: all four ½, sharing place 1. Round 2: A beats C,
    B–D drawn: A 1½ 1st, B and D 1 share 2nd, C ½ 4th. Round 2 starts from a level field:
    nobody moved from a place of his own (level), yet the parts still add up (C: passed by
    A, B and D, rank 1 → 4)."""
    season = SeasonInput(
        _players(4),
        (
            Round(1, (Game(A, B, DRAW), Game(C, D, DRAW))),
            Round(2, (Game(A, C, W), Game(B, D, DRAW))),
        ),
        system="points",
    )
    assert _moved(season, C, 2) == Movement(
        2,
        ScoreChange(2, F(1, 2), F(1, 2), F(0), F(0), F(0)),
        PlaceChange(2, 1, 4, (), (A, B, D), level=True),
    )
    assert _moved(season, A, 2).place == PlaceChange(2, 1, 1, (), (), level=True)
    assert not _moved(season, A, 2).place.moved


def test_internal_sb_revaluation() -> None:
    """tests/views/public_data.small_season as a pure season (unplayed value ½).
    Round 1: A–B 1-0, C–D ½-½, E absent; round 2: A–C ½-½, B–D 0-1, E absent.
    IP after round 1: A 1, B 0, C ½, D ½, E ½; after round 2: A 1½, B 0, C 1, D 1½, E 1.
    SB after round 1: A 0, C ¼, D ¼ (C, D share 1st, A 3rd, E 4th, B 5th); after round 2:
    C 1½, A ½, D ½ (A and D share 2nd on SB and IP), E 4th, B 5th.
    D in round 2: SB ¼ → ½ = own result 0 (beat B: 1 × IP(B) 0) + revalued ¼ (round-1 draw
    with C: ½ × (1 − ½)); place 1 → 2, passed by C.
    A in round 2: SB 0 → ½ = own result ½ (draw with C: ½ × 1) + revalued 0 (round-1 win
    over B: 1 × (0 − 0)); place 3 → 2, passed D (D was above him, now level).
    C in round 2: SB ¼ → 1½ = own result ¾ (½ × IP(A) 1½) + revalued ½ (½ × (1½ − ½))."""
    season = SeasonInput(
        _players(5),
        (
            Round(1, (Game(A, B, W), Game(C, D, DRAW)), (Entry(E, EntryKind.ABSENT_NOTICE),)),
            Round(2, (Game(A, C, DRAW), Game(B, D, L)), (Entry(E, EntryKind.ABSENT_NOTICE),)),
        ),
        system="internal-sb",
    )
    assert _moved(season, D, 2) == Movement(
        2, ScoreChange(2, F(1, 4), F(1, 2), F(0), F(1, 4), F(0)), PlaceChange(2, 1, 2, (), (C,))
    )
    assert _moved(season, A, 2) == Movement(
        2, ScoreChange(2, F(0), F(1, 2), F(1, 2), F(0), F(0)), PlaceChange(2, 3, 2, (D,), ())
    )
    assert _moved(season, C, 2).score == ScoreChange(2, F(1, 4), F(3, 2), F(3, 4), F(1, 2), F(0))
    assert _moved(season, E, 2).place == PlaceChange(2, 4, 4, (), ())


def test_van_den_brink_own_result_only() -> None:
    """Start points A 200, B 199, C 198 (factor 0,07, ±3, rank values fixed before game 14).
    Round 1: B beats A: B +3 + 0,07 × (200 − 199) = +3,07 → 202,07; A −3,07 → 196,93; C absent.
    Round 2: C beats A: C +3 + 0,07 × (200 − 198) = +3,14 → 201,14; A −3,14 → 193,79.
    C in round 1: 198 → 198, own result 0; place 3 → 2 (passed A, who dropped below him).
    A in round 1: own result −3,07; place 1 → 3, passed by B and C.
    C in round 2: own result +3,14, nothing revalued (a game's points are fixed); place 2 → 2."""
    season = SeasonInput(
        _players(3),
        (
            Round(1, (Game(A, B, L),), (Entry(C, EntryKind.ABSENT_NOTICE),)),
            Round(2, (Game(C, A, W),), (Entry(B, EntryKind.ABSENT_NOTICE),)),
        ),
        system="van-den-brink",
    )
    assert _moved_from_start(season, C, 1) == Movement(
        1, ScoreChange(1, F(198), F(198), F(0), F(0), F(0)), PlaceChange(1, 3, 2, (A,), ())
    )
    assert _moved(season, C, 1).place == PlaceChange(1, None, 2, (), (), level=True)
    assert _moved_from_start(season, A, 1) == Movement(
        1,
        ScoreChange(1, F(200), F(19693, 100), F(-307, 100), F(0), F(0)),
        PlaceChange(1, 1, 3, (), (B, C)),
    )
    assert _moved(season, C, 2) == Movement(
        2,
        ScoreChange(2, F(198), F(20114, 100), F(314, 100), F(0), F(0)),
        PlaceChange(2, 2, 2, (), ()),
    )


def _keizer(*rounds: Round, recalculation: str) -> SeasonInput:
    return SeasonInput(
        _players(4),
        rounds,
        system="keizer",
        parameters={"top_value": 10, "recalculation": recalculation},
    )


def test_keizer_own_value_and_result() -> None:
    """docs/scoring.md's Keizer example (top 10, step 1, fixed point): start list A, B, C, D
    (values 10, 9, 8, 7); round 1 B beats A, D beats C; the ranking settles at B, D, A, C
    (values 10, 9, 8, 7): B 18, D 16, A 8, C 7.
    B: 9 → 18 = own value +1 (9 → 10) + own result 8 (1 × A's value 8); place 2 → 1, passed A.
    D: 7 → 16 = own value +2 (7 → 9) + own result 7 (C's value); 4 → 2, passed A and C.
    A: 10 → 8 = own value −2, own result 0 (a loss); 1 → 3, passed by B and D."""
    season = _keizer(Round(1, (Game(B, A, W), Game(D, C, W))), recalculation="fixed_point")
    assert _moved_from_start(season, B, 1) == Movement(
        1, ScoreChange(1, F(9), F(18), F(8), F(0), F(1)), PlaceChange(1, 2, 1, (A,), ())
    )
    assert _moved_from_start(season, D, 1) == Movement(
        1, ScoreChange(1, F(7), F(16), F(7), F(0), F(2)), PlaceChange(1, 4, 2, (A, C), ())
    )
    assert _moved_from_start(season, A, 1) == Movement(
        1, ScoreChange(1, F(10), F(8), F(0), F(0), F(-2)), PlaceChange(1, 1, 3, (), (B, D))
    )
    # as the page: his place after round 1, the score still from 9 (own value before it)
    assert _moved(season, B, 1) == Movement(
        1,
        ScoreChange(1, F(9), F(18), F(8), F(0), F(1)),
        PlaceChange(1, None, 1, (), (), level=True),
    )


def test_keizer_revaluation_of_earlier_games() -> None:
    """previous_values (one pass with the values of the ranking after the round before).
    Round 1 with the start values (A 10, B 9, C 8, D 7): B beats A, D beats C: B 9 + 10 = 19,
    D 7 + 8 = 15, A 10, C 8 → B, D, A, C (values 10, 9, 8, 7).
    Round 2: A beats D, C beats B, with the values after round 1: A 8 + 9 = 17, B 10 + 8 = 18,
    C 7 + 10 = 17, D 9 + 7 = 16 → B 18; A and C 17, A first by the previous ranking; D 16.
    B: 19 → 18 = own value +1 (9 → 10) + own result 0 (a loss) − 2 (round-1 win over A:
    10 → 8); place 1 → 1.
    D: 15 → 16 = own value +2 (7 → 9) + own result 0 − 1 (round-1 win over C: 8 → 7);
    place 2 → 4, passed by A and C.
    A: 10 → 17 = own value −2 (10 → 8) + own result 9 (D's value); 3 → 2, passed D."""
    season = _keizer(
        Round(1, (Game(B, A, W), Game(D, C, W))),
        Round(2, (Game(A, D, W), Game(C, B, W))),
        recalculation="previous_values",
    )
    assert _moved(season, B, 2) == Movement(
        2, ScoreChange(2, F(19), F(18), F(0), F(-2), F(1)), PlaceChange(2, 1, 1, (), ())
    )
    assert _moved(season, D, 2) == Movement(
        2, ScoreChange(2, F(15), F(16), F(0), F(-1), F(2)), PlaceChange(2, 2, 4, (), (A, C))
    )
    assert _moved(season, A, 2) == Movement(
        2, ScoreChange(2, F(10), F(17), F(9), F(0), F(-2)), PlaceChange(2, 3, 2, (D,), ())
    )


def test_place_change_with_shared_ranks() -> None:
    """Ranks 1, 2, 2, 4 → 1, 1, 3, 4: 3 moves up by drawing level with 1 (passed 1); 2, level
    with 3 before, is now below him: passed by 3, not counted as a pass by 2."""
    before = {1: 1, 2: 2, 3: 2, 4: 4}
    after = {1: 1, 3: 1, 2: 3, 4: 4}
    assert place_change(3, 5, before, after) == PlaceChange(5, 2, 1, (1,), ())
    assert place_change(2, 5, before, after) == PlaceChange(5, 2, 3, (), (3,))
    assert place_change(4, 5, before, after) == PlaceChange(5, 4, 4, (), ())


def test_players_on_an_equal_place_are_named_in_the_standings_order() -> None:
    """Start list Anna (id 3), Bart (id 2), Cor (id 1), Dirk (id 4); points.
    Round 1: Dirk beats Cor, Anna–Bart draw: Dirk 1, Anna ½, Bart ½, Cor 0.
    Round 2: Anna beats Cor, Bart beats Dirk: Anna and Bart 1½ share place 1 (listed Anna,
    Bart: start rank), Dirk 1 is 3rd. Dirk went 1 → 3, passed by Anna and Bart, named in that
    order as the standings list them (not by id: Bart is 2, Anna 3)."""
    cor, bart, anna, dirk = 1, 2, 3, 4
    players = (
        Participant(cor, "Cor", start_rank=3),
        Participant(bart, "Bart", start_rank=2),
        Participant(anna, "Anna", start_rank=1),
        Participant(dirk, "Dirk", start_rank=4),
    )
    season = SeasonInput(
        players,
        (
            Round(1, (Game(dirk, cor, W), Game(anna, bart, DRAW))),
            Round(2, (Game(anna, cor, W), Game(bart, dirk, W))),
        ),
        system="points",
    )
    rows = engine.standings_after(season, 2).rows
    assert [(row.participant_id, row.rank) for row in rows] == [
        (anna, 1),
        (bart, 1),
        (dirk, 3),
        (cor, 4),
    ]
    assert _moved(season, dirk, 2).place == PlaceChange(2, 1, 3, (), (anna, bart))
    # Cor (4th, then 4th) passed nobody; Bart (2nd → 1st) passed Dirk
    assert _moved(season, bart, 2).place == PlaceChange(2, 2, 1, (dirk,), ())
    # from a stored snapshot's rows (the page's source): the same order
    assert place_change(
        dirk, 2, {dirk: 1, anna: 2, bart: 2, cor: 4}, ranks_of(engine.standings_after(season, 2))
    ) == PlaceChange(2, 1, 3, (), (anna, bart))


def test_correction_effect() -> None:
    """Round 1 A–B first closed as 1-0, corrected to 0-1 (points): A 1 → 0 and place 1 → 2."""
    players = _players(2)
    first = SeasonInput(players, (Round(1, (Game(A, B, W),)),), system="points")
    now = SeasonInput(players, (Round(1, (Game(A, B, L),)),), system="points")
    assert correction_effect(first, now, A, 1) == CorrectionEffect(1, 1, 2, F(1), F(0))
    assert correction_effect(first, now, B, 1).score_change == 1


SYSTEMS = ["points", "internal-sb", "van-den-brink", "keizer"]


@settings(max_examples=examples(80), deadline=None)
@given(
    system=st.sampled_from(SYSTEMS),
    seed=st.integers(0, 10**6),
    players=st.integers(2, 10),
    rounds=st.integers(1, 7),
)
def test_parts_add_up_exactly_on_random_seasons(
    system: str, seed: int, players: int, rounds: int
) -> None:
    # every kind of round; tie-breaks BH, SB/C1, DE, WIN (shared ranks where all are equal)
    season = random_season(seed, players, rounds, system)
    standings = [engine.standings_after(season, 0), *engine.standings_history(season).history]
    rankings = [ranks_of(after) for after in standings]
    scores = [{row.participant_id: row.score for row in after.rows} for after in standings]
    for participant in season.participants:
        pid = participant.id
        moves = movements(season, pid, rankings)
        assert [move.round_number for move in moves] == list(range(1, rounds + 1))
        # the fast terms (internal SB in units) are the definition's
        definition = score_changes(round_contributions(season, pid))
        assert definition == tuple(move.score for move in moves)
        for move in moves:
            n, score, place = move.round_number, move.score, move.place
            assert score.before == scores[n - 1][pid]
            assert score.after == scores[n][pid]
            assert score.own_result + score.revaluation + score.own_value == score.change
            assert place.rank_before == rankings[n - 1][pid]
            assert place.rank_after == rankings[n][pid]
            assert place.rank_before - place.rank_after == place.change
            assert len(place.passed_by) - len(place.passed) == place.rank_after - place.rank_before
            assert not set(place.passed) & set(place.passed_by)
            assert place.level == all(rank == 1 for rank in rankings[n - 1].values())
            if system in ("points", "van-den-brink"):
                assert score.revaluation == score.own_value == 0
        # as the page: no standings before round 1, and the terms of the rounds up to a round
        # from the engine's context up to that round only (the one it explained him in)
        shown = [None, *rankings[1:]]
        for after_round in range(1, rounds + 1):
            _explanation, context = engine.explain_in_context(
                season, participant_id=pid, after_round=after_round
            )
            upto = movements(season, pid, shown[: after_round + 1], context=context)
            assert [move.score for move in upto] == [move.score for move in moves[:after_round]]
            first = upto[0].place
            assert first == PlaceChange(1, None, rankings[1][pid], (), (), level=True)
            assert [move.place for move in upto[1:]] == [
                move.place for move in moves[1:after_round]
            ]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_round_without_a_record_earns_nothing_of_its_own(system: str) -> None:
    """A participant with no record in a round (not paired): his own result is 0."""
    season = SeasonInput(
        _players(3),
        (Round(1, (Game(A, B, W),)), Round(2, (Game(B, C, DRAW),))),
        system=system,
    )
    assert _moved(season, C, 1).score.own_result == 0
    assert _moved(season, A, 2).score.own_result == 0
