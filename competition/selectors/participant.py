"""A participant's page: every game with what it adds to each figure, the explanation of every
figure, and his rank and score after each round.

The season is loaded once with ``season_input`` (four queries) and the pure engine runs on it;
numbers stay exact (``Fraction``) up to the template.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from competition.exact import fraction_from_text
from competition.models import Participant, Season, StandingsSnapshot
from competition.scoring import engine
from competition.scoring import model as scoring
from competition.scoring.records import RoundRecord, ScoringInputError, participant_records
from competition.scoring.registry import get_system
from competition.selectors.common import input_names, season_input, season_tiebreak_codes


@dataclass(frozen=True)
class GameLine:
    round_number: int
    opponent_id: int | None
    opponent_name: str
    colour: str  # "w", "b" or ""
    result: str  # result code of the game, "" for an entry
    entry: str  # entry kind, "" for a game
    points: Fraction
    played: bool
    contributions: dict[str, Fraction]  # figure code -> counted amount this round


@dataclass(frozen=True)
class ExplanationSection:
    code: str
    total: Fraction | None
    lines: list[scoring.Contribution]


@dataclass(frozen=True)
class ChartRow:
    round_number: int
    rank: int
    score: Fraction


@dataclass(frozen=True)
class ParticipantPage:
    season: Season
    participant_id: int
    name: str
    after_round: int | None
    rounds: list[int]
    row: dict[str, Any] | None
    field_size: int
    primary: str
    figure_codes: tuple[str, ...]
    tiebreak_codes: tuple[str, ...]
    games: list[GameLine]
    sections: list[ExplanationSection]  # one per figure: the system's, then tie-breaks
    names: dict[int, str]
    history: list[ChartRow]
    error: str = ""


def participant_name(*, season: Season, participant_id: int) -> str | None:
    """The participant's name, or None when he is not in this season (one query)."""
    return (
        Participant.objects.filter(season=season, pk=participant_id)
        .values_list("member__name", flat=True)
        .first()
    )


def participant_detail(
    *, season: Season, participant_id: int, after_round: int | None = None
) -> ParticipantPage:
    """Every game of the participant with what it adds to each figure, the explanation of every
    figure from ``engine.explain``, and his rank and score after each round (for the chart).

    Five queries (the season's input and its snapshots). Raises ``Participant.DoesNotExist``.
    """
    season_in = season_input(season)
    names = input_names(season_in)
    if participant_id not in names:
        raise Participant.DoesNotExist(participant_id)
    system = get_system(season.system)
    codes = season_tiebreak_codes(season)
    others = tuple(code for code in system.figure_codes if code != system.primary)
    last = len(season_in.rounds)
    rounds = list(range(1, last + 1))
    if after_round not in rounds:
        after_round = last or None
    history: list[ChartRow] = []
    stored: dict[str, Any] | None = None  # his row after ``after_round``, as last computed
    for snapshot in StandingsSnapshot.objects.filter(season=season).order_by("round_number"):
        for row in snapshot.rows:
            if row["participant_id"] == participant_id:
                history.append(
                    ChartRow(snapshot.round_number, row["rank"], fraction_from_text(row["score"]))
                )
                if snapshot.round_number == after_round:
                    stored = row
                break
    base = ParticipantPage(
        season, participant_id, names[participant_id], after_round, rounds, None,
        len(names), system.primary, others, codes, [], [], names, history,
    )  # fmt: skip
    if not after_round:
        return base
    try:
        # The stored snapshot is the engine's output for these rules and results (rebuilt by
        # every write); the engine runs only for a season without one.
        figures = _row_from_snapshot(stored) if stored is not None else None
        explanation = engine.explain(
            season_in,
            participant_id=participant_id,
            after_round=after_round,
            totals=figures["values"] if figures is not None else None,
        )
        if figures is None:
            standings = engine.standings_after(season_in, after_round)
            row = next(r for r in standings.rows if r.participant_id == participant_id)
            figures = {
                "rank": row.rank,
                "score": row.score,
                "game_points": row.game_points,
                "values": dict(row.values),
                "games": row.games_played,
                "eligible": row.eligible,
            }
    except (ScoringInputError, ValueError) as error:
        return dataclasses.replace(base, error=str(error))
    records = participant_records(season_in, participant_id, after_round)
    per_round: dict[int, dict[str, Fraction]] = defaultdict(dict)
    sections: dict[str, list[scoring.Contribution]] = {}
    for line in explanation.lines:
        sections.setdefault(line.figure, []).append(line)
        if line.counted and line.round_number > 0:
            bucket = per_round[line.round_number]
            bucket[line.figure] = bucket.get(line.figure, Fraction(0)) + line.amount
    games = [_game_line(record, names, per_round[record.round_number]) for record in records]
    order = [system.primary, *others, *codes]
    ordered = [code for code in order if code in sections] + [
        code for code in sections if code not in order
    ]
    return dataclasses.replace(
        base,
        row=figures,
        games=games,
        sections=[
            ExplanationSection(code, explanation.totals.get(code), sections[code])
            for code in ordered
        ],
    )


def _row_from_snapshot(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "rank": row["rank"],
        "score": fraction_from_text(row["score"]),
        "game_points": fraction_from_text(row["game_points"]),
        "values": {code: fraction_from_text(text) for code, text in row["values"].items()},
        "games": row["games"],
        "eligible": row["eligible"],
    }


def _game_line(
    record: RoundRecord, names: Mapping[int, str], contributions: dict[str, Fraction]
) -> GameLine:
    return GameLine(
        round_number=record.round_number,
        opponent_id=record.opponent,
        opponent_name=names.get(record.opponent, "") if record.opponent else "",
        colour=record.colour,
        result=record.result.value if record.result is not None else "",
        entry=record.entry.value if record.entry is not None else "",
        points=record.points,
        played=record.played,
        contributions=contributions,
    )
