"""A participant's page: every game with what it adds to each figure, the explanation of every
figure, and his rank and score after each round.

His page after the latest round is read as the worker stored it beside the standings snapshot
(competition.services.explanations): one query, no engine run. Otherwise the season is loaded
once (``season_input_for_page``, four queries) and the pure engine runs on it; his rank and score
per round come from the stored snapshots (only his row of each is decoded,
:mod:`competition.selectors.snapshots`). Numbers stay exact (``Fraction``) up to the template.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import connections, router
from django.db.models import (
    Case,
    CharField,
    DecimalField,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    TextField,
    Value,
    When,
)

from competition.models import Game, Participant, ParticipantExplanation, Round, RoundEntry, Season
from competition.presentation.labels import error_text
from competition.scoring import engine, movement
from competition.scoring import model as scoring
from competition.scoring.exact import fraction_from_text
from competition.scoring.parameters import parameters_from_json
from competition.scoring.records import RoundRecord, ScoringInputError, participant_records
from competition.scoring.registry import get_system
from competition.scoring.systems.base import SystemContext
from competition.selectors.common import (
    participant_names,
    season_tiebreak_codes,
    shown_name,
    with_rule_sets,
)
from competition.selectors.snapshots import (
    own_rows_in_texts,
    ranking_in_snapshot_text,
    snapshot_texts,
)


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
class CorrectedRow:
    """One result or entry of a closed round as first closed and as corrected (last state)."""

    board: int | None  # None for an entry
    white: int | None  # the game's players, or the entry's participant as ``white``
    black: int | None
    before: str  # result code, or entry kind
    after: str
    before_points: Fraction | None  # an entry's points
    after_points: Fraction | None
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class RoundCorrections:
    """The corrections of one closed round and their effect on him after that round."""

    round_number: int
    rows: tuple[CorrectedRow, ...]
    effect: movement.CorrectionEffect | None  # None when the figures could not be computed


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
    # why he moved in each round 1..after_round, latest first (competition.scoring.movement)
    movements: tuple[movement.Movement, ...] = ()
    # round number -> the corrections made to it after it closed, and what they did to him
    corrections: dict[int, RoundCorrections] = dataclasses.field(default_factory=dict)
    withdrawn_round: int | None = None  # withdrawn from the season from this round on
    # his external games (team matches on club night) up to after_round: (round, result)
    external_games: tuple[tuple[int, Fraction], ...] = ()

    @property
    def external_points(self) -> Fraction:
        return sum((result for _round, result in self.external_games), Fraction(0))


@dataclass(frozen=True)
class ParticipantHeading:
    name: str  # as the public sees it
    member_id: int  # for the link to his profile across seasons


def participant_heading(*, season: Season, participant_id: int) -> ParticipantHeading | None:
    """The participant's public name and member, or None when he is not in this season (one
    query)."""
    row = (
        Participant.objects.filter(season=season, pk=participant_id)
        .order_by()  # one row: no ordering (the default one joins the season and its club)
        .values_list(
            "member_id",
            "member__name",
            "member__name_display",
            "member__birth_year",
            "member__anonymised_at",
        )
        .first()
    )
    if row is None:
        return None
    member_id, name, choice, birth_year, anonymised_at = row
    return ParticipantHeading(
        name=shown_name(
            name=name,
            member_choice=choice,
            birth_year=birth_year,
            anonymised_at=anonymised_at,
            season_choice=season.name_display,
            junior_birth_year=season.junior_birth_year,
        ),
        member_id=member_id,
    )


_RESULTS = {result.value: result for result in scoring.Result}


_ENTRY_KINDS = {kind.value: kind for kind in scoring.EntryKind}


# ids beyond the database's integers (from an address): no participant has one
_LARGEST_ID = 2**63 - 1


def _enrolled(
    season: Season, *, page_of: int | None = None, after_round: int | None = None
) -> tuple[list[scoring.Participant], dict[int, str], str | None]:
    """The season's participants for the engine, their names as the public sees them and, for
    participant ``page_of``, his page after ``after_round`` (None: the latest) as the worker
    stored it, or None (one query)."""
    # the payload module reads this module's dataclasses, so it comes in here
    from competition.selectors.page_payload import LAYOUT

    # the default ordering within one season, without its joins of the season and the club
    enrolled = Participant.objects.filter(season=season).order_by("start_rank", "member__name")
    page: Case | Value
    if page_of is not None and 0 < page_of <= _LARGEST_ID:
        stored = ParticipantExplanation.objects.filter(participant_id=OuterRef("pk"), layout=LAYOUT)
        if after_round is not None:
            stored = stored.filter(snapshot__round_number=after_round)
        page = Case(
            When(pk=page_of, then=Subquery(stored.values("payload")[:1])),
            default=None,
            output_field=TextField(),
        )
    else:
        page = Value(None, output_field=TextField())
    participants: list[scoring.Participant] = []
    names: dict[int, str] = {}
    stored_page: str | None = None
    rows = enrolled.annotate(page=page).values_list(
        "id",
        "member__name",
        "start_rank",
        "start_points",
        "rating",
        "joined_round",
        "withdrawn_from_round",
        "member__name_display",
        "member__birth_year",
        "member__anonymised_at",
        "page",
    )
    for (
        pid,
        name,
        start_rank,
        start_points,
        rating,
        joined_round,
        withdrawn_round,
        member_choice,
        birth_year,
        anonymised_at,
        text,
    ) in rows:
        if text is not None:
            stored_page = text
        participants.append(
            scoring.Participant(
                id=pid,
                name=name,
                start_rank=start_rank,
                start_points=Fraction(start_points) if start_points is not None else None,
                rating=rating,
                joined_round=joined_round,
                withdrawn_round=withdrawn_round,
            )
        )
        names[pid] = shown_name(
            name=name,
            member_choice=member_choice,
            birth_year=birth_year,
            anonymised_at=anonymised_at,
            season_choice=season.name_display,
            junior_birth_year=season.junior_birth_year,
        )
    return participants, names, stored_page


def season_input_for_page(
    *,
    season: Season,
    enrolled: tuple[list[scoring.Participant], dict[int, str]] | None = None,
) -> tuple[scoring.SeasonInput, dict[int, str]]:
    """What :func:`~competition.selectors.common.season_input_with_public_names` gives (the
    engine's input for the completed rounds and the public names), reading only the columns
    they need, as tuples, in four queries (three when the participants and their names are
    ``enrolled`` already): model instances, the joins of the models' default orderings and
    ``Enum`` calls cost a fifth of the page.
    """
    participants, names = enrolled or _enrolled(season)[:2]
    round_numbers = dict(
        Round.objects.filter(season=season, status=Round.Status.COMPLETED)
        .order_by("number")
        .values_list("id", "number")
    )
    games: dict[int, list[scoring.Game]] = {rid: [] for rid in round_numbers}
    # by board within a round (unique), as the default ordering gives, without its joins
    for round_id, board, white, black, result in (
        Game.objects.filter(round_id__in=round_numbers)
        .order_by("round_id", "board")
        .values_list("round_id", "board", "white_id", "black_id", "result")
    ):
        # positional: keywords cost a third more over a season's games
        games[round_id].append(scoring.Game(white, black, _RESULTS[result], board))
    entries: dict[int, list[scoring.Entry]] = {rid: [] for rid in round_numbers}
    # within a round as the default ordering gives (kind, then the participants' ordering)
    entry_rows = (
        RoundEntry.objects.filter(round_id__in=round_numbers)
        .order_by("round_id", "kind", "participant__start_rank", "participant__member__name")
        .values_list("round_id", "participant_id", "kind", "points", "external_result")
    )
    for round_id, participant_id, kind, points, external in entry_rows:
        entry = scoring.Entry(
            participant_id,
            _ENTRY_KINDS[kind],
            Fraction(points),
            Fraction(external) if external else None,
        )
        entries[round_id].append(entry)
    season_in = scoring.SeasonInput(
        participants=tuple(participants),
        rounds=tuple(
            scoring.Round(number=number, games=tuple(games[rid]), entries=tuple(entries[rid]))
            for rid, number in round_numbers.items()
        ),
        system=season.system,
        parameters=parameters_from_json(season.parameters),
        tiebreaks=tuple(season.tiebreaks),
        unplayed_policy=season.unplayed_policy,
        min_games=season.min_games,
        round_robin=season.is_round_robin,
    )
    return with_rule_sets(season_in=season_in, season=season), names


def participant_detail(
    *, season: Season, participant_id: int, after_round: int | None = None
) -> ParticipantPage:
    """Every game of the participant with what it adds to each figure, the explanation of every
    figure from ``engine.explain``, and his rank and score after each round (for the chart).

    His page after the latest round is read as the worker stored it beside the standings
    snapshot (``ParticipantExplanation``, competition.services.explanations): one query (the
    names and his stored page) and no engine run. Any other round, or before the worker has
    stored it, is computed: five queries (the season's input and its snapshots). Raises
    ``Participant.DoesNotExist``.
    """
    from competition.selectors.page_payload import page_from_text  # see _enrolled

    participants, names, stored = _enrolled(season, page_of=participant_id, after_round=after_round)
    if stored is not None:
        return page_from_text(text=stored, season=season, names=names)
    season_in, names = season_input_for_page(season=season, enrolled=(participants, names))
    return participant_page(
        season=season,
        season_in=season_in,
        names=names,
        texts=snapshot_texts(season_id=season.pk),
        participant_id=participant_id,
        after_round=after_round,
    )


def stored_participant_page(
    *, season: Season, participant_id: int, after_round: int | None = None
) -> ParticipantPage | None:
    """His page after ``after_round`` (None: the latest) as the worker stored it, or None when
    it is not stored (one query)."""
    from competition.selectors.page_payload import page_from_text  # see _enrolled

    _participants, names, stored = _enrolled(
        season, page_of=participant_id, after_round=after_round
    )
    return None if stored is None else page_from_text(text=stored, season=season, names=names)


def _page_without_figures(
    season: Season,
    season_in: scoring.SeasonInput,
    names: dict[int, str],
    texts: list[tuple[int, str]],
    participant_id: int,
    after_round: int | None,
) -> tuple[ParticipantPage, dict[str, Any] | None]:
    """His page with its heading, history and external games but no figures yet, and his row
    after its round as last stored (None when the round has no snapshot)."""
    system = get_system(season.system)
    others = tuple(code for code in system.figure_codes if code != system.primary)
    last = len(season_in.rounds)
    rounds = list(range(1, last + 1))
    if after_round not in rounds:
        after_round = last or None
    history: list[ChartRow] = []
    stored: dict[str, Any] | None = None  # his row after ``after_round``, as last computed
    for round_number, own in own_rows_in_texts(texts=texts, participant_id=participant_id):
        history.append(ChartRow(round_number, own["rank"], fraction_from_text(own["score"])))
        if round_number == after_round:
            stored = own
    page = ParticipantPage(
        season, participant_id, names[participant_id], after_round, rounds, None,
        len(names), system.primary, others, season_tiebreak_codes(season=season), [], [], names,
        history,
        withdrawn_round=next(
            p.withdrawn_round for p in season_in.participants if p.id == participant_id
        ),
        external_games=tuple(
            sorted(
                (number, result)
                for (pid, number), result in scoring.external_results(season_in).items()
                if pid == participant_id and number <= (after_round or 0)
            )
        ),
    )  # fmt: skip
    return page, stored


def _figures_by_engine(
    season_in: scoring.SeasonInput, participant_id: int, after_round: int
) -> dict[str, Any]:
    """His figures after ``after_round`` computed afresh (for a season without a snapshot)."""
    standings = engine.standings_after(season_in, after_round)
    row = next(r for r in standings.rows if r.participant_id == participant_id)
    return {
        "rank": row.rank,
        "score": row.score,
        "game_points": row.game_points,
        "values": dict(row.values),
        "games": row.games_played,
        "eligible": row.eligible,
    }


def _games_and_sections(
    explanation: scoring.Explanation,
    records: Sequence[RoundRecord],
    names: Mapping[int, str],
    order: Sequence[str],
) -> tuple[list[GameLine], list[ExplanationSection]]:
    """His games, each with what it added to each figure, and the explanation's lines per
    figure: those of ``order`` first in that order, then any other."""
    per_round: dict[int, dict[str, Fraction]] = defaultdict(dict)
    sections: dict[str, list[scoring.Contribution]] = {}
    for line in explanation.lines:
        sections.setdefault(line.figure, []).append(line)
        if line.counted and line.round_number > 0:
            bucket = per_round[line.round_number]
            bucket[line.figure] = bucket.get(line.figure, Fraction(0)) + line.amount
    games = [_game_line(record, names, per_round[record.round_number]) for record in records]
    ordered = [code for code in order if code in sections] + [
        code for code in sections if code not in order
    ]
    return games, [
        ExplanationSection(code, explanation.totals.get(code), sections[code]) for code in ordered
    ]


def participant_page(
    *,
    season: Season,
    season_in: scoring.SeasonInput,
    names: dict[int, str],
    texts: list[tuple[int, str]],
    participant_id: int,
    after_round: int | None = None,
) -> ParticipantPage:
    """:func:`participant_detail` computed from the season's input, its public ``names`` and
    its snapshots' ``texts`` (:func:`season_input_for_page`,
    :func:`~competition.selectors.snapshots.snapshot_texts`), read once for all the
    participants the worker stores."""
    if participant_id not in names:
        raise Participant.DoesNotExist(participant_id)
    base, stored = _page_without_figures(
        season, season_in, names, texts, participant_id, after_round
    )
    after_round = base.after_round
    if not after_round:
        return base
    try:
        # The stored snapshot is the engine's output for these rules and results (rebuilt by
        # every write); the engine runs only for a season without one.
        figures = _row_from_snapshot(stored) if stored is not None else None
        explanation, context = engine.explain_in_context(
            season_in,
            participant_id=participant_id,
            after_round=after_round,
            totals=figures["values"] if figures is not None else None,
        )
        if figures is None:
            figures = _figures_by_engine(season_in, participant_id, after_round)
        moves = _movements(season_in, participant_id, texts, after_round, context)
        corrections = _corrections(season_in, participant_id, after_round, season)
    except (ScoringInputError, ValueError) as error:
        return dataclasses.replace(base, error=error_text(error))
    records = participant_records(season_in, participant_id, after_round)
    order = [base.primary, *base.figure_codes, *base.tiebreak_codes]
    games, sections = _games_and_sections(explanation, records, names, order)
    return dataclasses.replace(
        base, row=figures, games=games, movements=moves, corrections=corrections, sections=sections
    )


_CORRECTED_COLUMNS = (
    "id", "round__number", "history_id", "history_date", "history_type", "history_change_reason",
)  # fmt: skip


# A season id no season has: the corrections query is compiled with it, then run with the real one
_ANY_SEASON = -7390218465


@functools.cache
def _correction_history_sql(alias: str) -> tuple[str, tuple[Any, ...]]:
    """The SQL and parameters of the corrections query for one database, compiled once with
    :data:`_ANY_SEASON` in the season's place: compiling it took ten times longer than running
    it (and most seasons have no corrections)."""
    closed = Q(round__season_id=_ANY_SEASON, round__status=Round.Status.COMPLETED)
    corrected = closed & Q(history_type="~", history_change_reason__gt="")
    # no ordering in the parts of a UNION (the history's default ordering is by date)
    games = (
        Game.history.using(alias)
        .filter(closed, id__in=Game.history.filter(corrected).values("id"))
        .order_by()
        .values_list(
            Value("game", output_field=CharField()),
            *_CORRECTED_COLUMNS,
            "result",
            Value(None, output_field=DecimalField(max_digits=3, decimal_places=1)),
            "white_id",
            "black_id",
            "board",
        )
    )
    entries = (
        RoundEntry.history.using(alias)
        .filter(closed, id__in=RoundEntry.history.filter(corrected).values("id"))
        .order_by()
        .values_list(
            Value("entry", output_field=CharField()),
            *_CORRECTED_COLUMNS,
            "kind",
            "points",
            "participant_id",
            Value(None, output_field=IntegerField()),
            Value(None, output_field=IntegerField()),
        )
    )
    sql, params = games.union(entries, all=True).query.sql_with_params()
    assert params.count(_ANY_SEASON) == 4, params  # the season in each filter of each part
    return sql, tuple(params)


def _correction_history(season: Season) -> list[tuple[Any, ...]]:
    """Every history record of the results and entries of the season's closed rounds that
    were ever corrected (a change with a reason), oldest first, games and entries in one
    query: (source, id, round number, history id, date, type, reason, result or kind, points,
    white or participant, black, board). Points as ``Fraction`` (entries), None for games."""
    alias = router.db_for_read(Game)
    sql, params = _correction_history_sql(alias)
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, [season.pk if param == _ANY_SEASON else param for param in params])
        rows = cursor.fetchall()
    # the date only orders the records (as the database returns it: text or a datetime)
    return sorted(
        ((*row[:8], None if row[8] is None else Fraction(str(row[8])), *row[9:]) for row in rows),
        key=lambda row: (row[4], row[3]),
    )


def _corrections(
    season_in: scoring.SeasonInput,
    participant_id: int,
    after_round: int,
    season: Season,
) -> dict[int, RoundCorrections]:
    """The corrections of rounds 1..``after_round`` and what each round's corrections did to
    him after that round (docs/scoring.md, "Why did I move"): the round as first closed (each
    corrected row as it was before its first correction in that round's closed state) against
    the round as it is now, every other round as now. One query, and two engine runs per
    corrected round (corrections are rare).
    """
    first: dict[tuple[str, int], tuple[Any, ...]] = {}  # the row as first closed
    last: dict[tuple[str, int], tuple[Any, ...]] = {}
    reasons: dict[tuple[str, int], list[str]] = defaultdict(list)
    previous: dict[tuple[str, int], tuple[Any, ...]] = {}
    for record in _correction_history(season):
        key = (record[0], record[1])
        reason = record[6] or ""
        # (a game's first result with a reason is the players' entry, not a correction)
        first_result = key[0] == "game" and key in previous and not previous[key][7]
        if record[5] == "~" and reason and key in previous and not first_result:
            first.setdefault(key, previous[key])
            reasons[key].append(reason)
            last[key] = record
        previous[key] = record
    by_round: dict[int, list[CorrectedRow]] = defaultdict(list)
    for key, before in first.items():
        after = last[key]
        number = after[2]
        if number > after_round:
            continue
        is_entry = key[0] == "entry"
        by_round[number].append(
            CorrectedRow(
                board=None if is_entry else after[11],
                white=after[9],
                black=after[10],
                before=before[7],
                after=after[7],
                before_points=Fraction(before[8]) if is_entry else None,
                after_points=Fraction(after[8]) if is_entry else None,
                reasons=tuple(reasons[key]),
            )
        )
    corrections = {}
    for number in sorted(by_round):
        rows = tuple(sorted(by_round[number], key=lambda row: (row.board is None, row.board or 0)))
        uncorrected = _as_first_closed(season_in, number, rows)
        effect = movement.correction_effect(uncorrected, season_in, participant_id, number)
        corrections[number] = RoundCorrections(number, rows, effect)
    return corrections


def _as_first_closed(
    season_in: scoring.SeasonInput, number: int, rows: tuple[CorrectedRow, ...]
) -> scoring.SeasonInput:
    """The season with round ``number``'s corrected rows as they were before the corrections."""
    games = {(row.white, row.black): row for row in rows if row.board is not None}
    entries = {row.white: row for row in rows if row.board is None}
    old = season_in.rounds[number - 1]
    restored = scoring.Round(
        number,
        tuple(
            dataclasses.replace(game, result=_RESULTS[games[game.white, game.black].before])
            if (game.white, game.black) in games
            else game
            for game in old.games
        ),
        tuple(
            scoring.Entry(
                entry.participant,
                _ENTRY_KINDS[entries[entry.participant].before],
                entries[entry.participant].before_points or Fraction(0),
            )
            if entry.participant in entries
            else entry
            for entry in old.entries
        ),
    )
    rounds = list(season_in.rounds)
    rounds[number - 1] = restored
    return dataclasses.replace(season_in, rounds=tuple(rounds))


def _movements(
    season_in: scoring.SeasonInput,
    participant_id: int,
    texts: list[tuple[int, str]],
    after_round: int,
    context: SystemContext | None,
) -> tuple[movement.Movement, ...]:
    """Why he moved in rounds 1..``after_round``, latest first.

    The rankings come from the stored snapshots (every row's id and rank, read from the text
    without decoding the rows), a round without a snapshot's from the engine; round 1 is not
    compared with the standings before it (docs/scoring.md, "Why did I move"). ``context`` is
    the one the engine explained him in (rounds 1..``after_round``): the score terms reuse it.
    """
    stored = dict(texts)
    rankings: list[Mapping[int, int] | None] = [None]
    for round_number in range(1, after_round + 1):
        text = stored.get(round_number)
        ranking = ranking_in_snapshot_text(text=text) if text is not None else None
        if ranking is None or participant_id not in ranking:
            ranking = movement.ranks_of(engine.standings_after(season_in, round_number))
        rankings.append(ranking)
    if context is None or context.upto_round != after_round:
        context = engine.system_context(season_in, after_round)
    moves = movement.movements(season_in, participant_id, rankings, context=context)
    return tuple(reversed(moves))


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


def season_players(*, season: Season) -> list[tuple[int, str]]:
    """(participant id, name) of the season's participants, by name, for the TD's forms."""
    names = participant_names(season_id=season.pk)
    return sorted(names.items(), key=lambda item: (item[1].casefold(), item[0]))
