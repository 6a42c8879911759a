"""The engine: ranking order, tie-break groups, shared ranks, input checks, explanations."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from fractions import Fraction

import pytest

from competition.scoring import engine
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
from competition.scoring.records import ScoringInputError

F = Fraction


def entries_season(points: dict[int, Fraction], tiebreaks: tuple[str, ...] = ()) -> SeasonInput:
    """One round in which every participant's score is set by an entry (defaults: p × 1 point)."""
    return SeasonInput(
        participants=tuple(Participant(pid, f"P{pid}", start_rank=pid) for pid in points),
        rounds=(
            Round(
                1, entries=tuple(Entry(pid, EntryKind.BYE, value) for pid, value in points.items())
            ),
        ),
        tiebreaks=tiebreaks,
    )


def stub_tiebreaks(
    monkeypatch: pytest.MonkeyPatch,
    figures: dict[int, dict[str, Fraction]],
    encounter: dict[int, Fraction],
    calls: list,
) -> None:
    """Give the engine fixed tie-break figures and direct-encounter values."""

    class Sheet:
        def __init__(self, season: SeasonInput, rows: object) -> None:
            pass

        def figures(
            self, upto_round: int, codes: Sequence[str], members: Collection[int] | None = None
        ):
            return {
                pid: {code: figures.get(pid, {}).get(code, F(0)) for code in codes}
                for pid in (figures if members is None else members)
            }

        def meetings(self, upto_round: int, members: Collection[int]) -> dict:
            return {}

    def direct_encounter_values(meetings: dict, group: Collection[int]):
        calls.append(set(group))
        return {pid: encounter[pid] for pid in group}

    monkeypatch.setattr(engine, "TiebreakSheet", Sheet)
    monkeypatch.setattr(engine, "direct_encounter_values", direct_encounter_values)


def test_direct_encounter_reranks_only_the_tied_group(monkeypatch: pytest.MonkeyPatch) -> None:
    # PTS: P1 2, P2..P5 1, P6 0. BH separates P2 (5) from P3, P4, P5 (4 each); DE puts P4 and
    # P5 (1) above P3 (0); WIN leaves P4 and P5 equal: they share rank 3, listed by start rank.
    scores = {1: F(2), 2: F(1), 3: F(1), 4: F(1), 5: F(1), 6: F(0)}
    figures = {pid: {"BH": F(0), "WIN": F(0)} for pid in scores}
    figures[2]["BH"] = F(5)
    for pid in (3, 4, 5):
        figures[pid]["BH"] = F(4)
    figures[4]["WIN"] = figures[5]["WIN"] = F(1)
    calls: list[set[int]] = []
    stub_tiebreaks(monkeypatch, figures, {3: F(0), 4: F(1), 5: F(1)}, calls)
    standings = standings_after(entries_season(scores, ("BH", "DE", "WIN")), 1)
    assert [(row.participant_id, row.rank) for row in standings.rows] == [
        (1, 1), (2, 2), (4, 3), (5, 3), (3, 5), (6, 6),
    ]  # fmt: skip
    assert calls == [{3, 4, 5}]
    assert {row.participant_id for row in standings.rows if "DE" in row.values} == {3, 4, 5}
    assert standings.rows[0].values == {"PTS": F(2), "BH": F(0), "WIN": F(0)}


def test_equal_on_everything_listed_by_start_rank_then_name() -> None:
    season = SeasonInput(
        participants=(
            Participant(1, "Zeger", start_rank=2),
            Participant(2, "Anna"),
            Participant(3, "Bob"),
            Participant(4, "Yvonne", start_rank=1),
        ),
        rounds=(Round(1),),
    )
    rows = standings_after(season, 1).rows
    assert [row.participant_id for row in rows] == [4, 1, 2, 3]
    assert {row.rank for row in rows} == {1}


def points_season(tiebreaks: tuple[str, ...]) -> SeasonInput:
    # Round 1: Anna beats Bert. Round 2: Bert has a full-point bye, Anna is absent.
    return SeasonInput(
        participants=(Participant(1, "Bert", start_rank=1), Participant(2, "Anna", start_rank=2)),
        rounds=(
            Round(1, games=(Game(2, 1, Result.WHITE_WINS),)),
            Round(2, entries=(Entry(1, EntryKind.BYE, F(1)), Entry(2, EntryKind.ABSENT_NOTICE))),
        ),
        tiebreaks=tiebreaks,
    )


@pytest.mark.parametrize(
    ("tiebreaks", "order", "ranks"),
    [
        ((), [1, 2], [1, 1]),  # both 1 point: shared, Bert first by start rank
        (("DE",), [2, 1], [1, 2]),  # Anna beat Bert
    ],
)
def test_direct_encounter_with_the_real_tiebreaks(tiebreaks, order, ranks) -> None:
    rows = standings_after(points_season(tiebreaks), 2).rows
    assert [row.participant_id for row in rows] == order
    assert [row.rank for row in rows] == ranks


def test_tiebreak_with_the_code_of_a_system_figure_is_refused() -> None:
    season = SeasonInput(
        (Participant(1, "A"),), (Round(1),), system="internal-sb", tiebreaks=("SB",)
    )
    with pytest.raises(ScoringInputError, match="SB"):
        standings_after(season, 1)


def test_unknown_tiebreak_is_refused() -> None:
    with pytest.raises(ValueError, match="XYZ"):
        standings_after(points_season(("XYZ",)), 1)


@pytest.mark.parametrize("round_number", [-1, 3])
def test_round_outside_the_season(round_number: int) -> None:
    with pytest.raises(ScoringInputError, match=f"round {round_number}"):
        standings_after(points_season(()), round_number)


def test_rounds_out_of_order_are_refused() -> None:
    season = SeasonInput((Participant(1, "A"),), (Round(2), Round(1)))
    with pytest.raises(ScoringInputError, match="numbered"):
        standings_history(season)


def test_unknown_system() -> None:
    with pytest.raises(KeyError, match="swiss-gambit"):
        standings_after(SeasonInput((Participant(1, "A"),), (), system="swiss-gambit"), 0)


def test_round_zero_and_empty_history() -> None:
    season = SeasonInput((Participant(1, "A", start_rank=1),), ())
    assert standings_history(season).history == ()
    (row,) = standings_after(season, 0).rows
    assert (row.rank, row.score, row.games_played) == (1, F(0), 0)


@pytest.mark.parametrize(
    "system",
    [("points", {}), ("internal-sb", {}), ("van-den-brink", {}), ("keizer", {})],
    ids=lambda s: s[0],
)
def test_explanation_totals_are_the_standings_values(system) -> None:
    key, parameters = system
    base = points_season(("BH", "WIN", "DE"))
    season = SeasonInput(
        base.participants, base.rounds, system=key, parameters=parameters, tiebreaks=base.tiebreaks
    )
    rows = {row.participant_id: row for row in standings_after(season, 2).rows}
    for pid, row in rows.items():
        explanation = explain(season, participant_id=pid, after_round=2)
        assert explanation.totals == row.values
        for code in ("BH", "WIN"):
            lines = [line for line in explanation.lines if line.figure == code and line.counted]
            assert sum(line.amount for line in lines) == row.values[code]


def test_explain_unknown_participant() -> None:
    with pytest.raises(ScoringInputError, match="99"):
        explain(points_season(()), participant_id=99, after_round=1)


def test_direct_encounter_is_reapplied_to_a_still_tied_subgroup() -> None:
    # C.07 Art. 6.2 (docs/tiebreaks.md): A, B, C, D all met; a subgroup still tied on the mini
    # table is ranked by its own mini table. Start ranks B 1, A 2, C 3, D 4.
    # R1 A-B 1-0, C-D ½   R2 C-A 1-0, B-D 1-0   R3 A-D 1-0, B-C 1-0
    # R4 A-E ½, B-F ½, C-G 1-0, D-H 1-0          R5 D-E 1-0
    # Points: A 1+0+1+½ = 2½, B 0+1+1+½ = 2½, C ½+1+0+1 = 2½, D ½+0+0+1+1 = 2½.
    # Mini table: A 1 (B) + 0 (C) + 1 (D) = 2, B 0 + 1 + 1 = 2, C 1 + 0 + ½ = 1½,
    # D 0 + 0 + ½ = ½. A and B stay tied at 2; their own mini table: A beat B, so A 1, B 0.
    # Ranks: A 1, B 2, C 3, D 4 (without 6.2, A and B would share rank 1, B listed first).
    a, b, c, d = 2, 1, 3, 4
    season = SeasonInput(
        participants=tuple(
            Participant(pid, name, start_rank=pid) for pid, name in enumerate("BACDEFGH", start=1)
        ),
        rounds=(
            Round(1, (Game(a, b, Result.WHITE_WINS), Game(c, d, Result.DRAW))),
            Round(2, (Game(c, a, Result.WHITE_WINS), Game(b, d, Result.WHITE_WINS))),
            Round(3, (Game(a, d, Result.WHITE_WINS), Game(b, c, Result.WHITE_WINS))),
            Round(
                4,
                (
                    Game(a, 5, Result.DRAW),
                    Game(b, 6, Result.DRAW),
                    Game(c, 7, Result.WHITE_WINS),
                    Game(d, 8, Result.WHITE_WINS),
                ),
            ),
            Round(5, (Game(d, 5, Result.WHITE_WINS),)),
        ),
        tiebreaks=("DE",),
    )
    rows = standings_after(season, 5).rows
    assert [(row.participant_id, row.rank) for row in rows[:4]] == [(a, 1), (b, 2), (c, 3), (d, 4)]
    assert {row.participant_id: row.score for row in rows[:4]} == dict.fromkeys(
        (a, b, c, d), F(5, 2)
    )
    # the shown DE value is the whole group's mini table
    assert [rows[i].values["DE"] for i in range(4)] == [F(2), F(2), F(3, 2), F(1, 2)]


@pytest.mark.parametrize("system", ["points", "internal-sb", "van-den-brink", "keizer"])
def test_a_season_without_participants_has_empty_standings(system: str) -> None:
    """A season just made (nobody enrolled yet) shows empty standings, not an error."""
    season = SeasonInput(participants=(), rounds=(), system=system, tiebreaks=("BH", "DE"))
    assert standings_after(season, 0).rows == ()


def test_a_tiebreak_clashing_with_a_figure_is_refused_in_the_readers_words() -> None:
    from django.utils import translation

    from competition.presentation.labels import error_text

    season = SeasonInput(participants=(), rounds=(), system="internal-sb", tiebreaks=("SB",))
    with pytest.raises(ScoringInputError) as raised:
        standings_after(season, 0)
    assert str(raised.value) == (
        "tie-break SB has the same code as a figure of the ranking system "
        "(Internal competition with SB score); choose another tie-break"
    )
    with translation.override("nl"):
        assert error_text(raised.value).startswith("scheidingssysteem SB heeft dezelfde code")
