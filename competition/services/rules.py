"""A season's rules: validate, preview and save a new system, parameters and tie-break order.

The preview runs the pure engine on the season's completed rounds with the proposed rules and
saves nothing. Saving keeps the rule set that was in force as a ``SeasonRules`` row (with the
date it came into force), records the new one, bumps ``Season.rules_version`` and recomputes the
cached standings. A change applies to the whole season, or (``Season.rule_changes``
"next_round") only from the next round to be completed: the rounds before keep the values the
earlier rules gave them (``competition.scoring.engine``). ``rules_for_version`` gives back any
earlier rule set, and ``season_input(season, rules_version=N)`` the standings as rule set N gave
them, so standings published under it can be reproduced exactly.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.models import Round, RuleChanges, Season, SeasonRules, UnplayedPolicy
from competition.presentation import numbers
from competition.presentation.labels import error_text
from competition.scoring import engine, game_values
from competition.scoring import model as scoring
from competition.scoring.game_values import GameValues
from competition.scoring.parameters import parameters_from_json, parameters_to_json
from competition.scoring.records import ScoringInputError
from competition.scoring.registry import UnknownSystemError, get_system
from competition.scoring.tiebreaks import validate_tiebreaks
from competition.selectors.common import season_input
from competition.services.errors import ServiceError
from competition.services.standings import standings_recompute


@dataclass(frozen=True)
class Rules:
    """A complete rule set, as stored: parameters as JSON with exact strings ("0.07")."""

    system: str
    parameters: dict[str, object]
    tiebreaks: tuple[str, ...]
    unplayed_policy: str
    min_games: int

    def as_overrides(self) -> dict[str, Any]:
        """The mapping ``season_input(season, rules=...)`` takes."""
        return {
            "system": self.system,
            "parameters": self.parameters,
            "tiebreaks": self.tiebreaks,
            "unplayed_policy": self.unplayed_policy,
            "min_games": self.min_games,
        }


def rules_of_season(season: Season) -> Rules:
    """The rule set in force now."""
    return Rules(
        system=season.system,
        # In the written form of today, so that unchanged rules compare equal however stored.
        parameters=parameters_to_json(parameters_from_json(season.parameters)),
        tiebreaks=tuple(season.tiebreaks),
        unplayed_policy=season.unplayed_policy,
        min_games=season.min_games,
    )


def rules_validate(
    *,
    system: str,
    parameters: Mapping[str, object],
    tiebreaks: Sequence[str],
    unplayed_policy: str,
    min_games: int,
) -> Rules:
    """A checked rule set, or :class:`ServiceError` saying what is wrong.

    The system checks its own parameters (``get_system(key).validate``), the tie-break module its
    codes; a tie-break may not share a code with one of the system's own figures (an SB
    tie-break in the internal SB competition would be ambiguous). Defaults fill what is missing.
    """
    # The pure package's messages are English templates: said in the reader's language here.
    try:
        ranking_system = get_system(system)
    except UnknownSystemError as error:
        raise ServiceError(error_text(error)) from None
    try:
        values = ranking_system.validate(parameters_from_json(parameters))
    except ValueError as error:
        raise ServiceError(error_text(error)) from None
    try:
        codes = validate_tiebreaks(list(tiebreaks))
    except ValueError as error:
        raise ServiceError(error_text(error)) from None
    if len(set(codes)) != len(codes):
        raise ServiceError(_("Each tie-break may appear only once."))
    clash = sorted(set(codes) & set(ranking_system.figure_codes))
    if clash:
        raise ServiceError(
            _(
                "The tie-break %(code)s has the same code as a figure of the %(system)s system; "
                "choose another tie-break."
            )
            % {"code": clash[0], "system": system}
        )
    if unplayed_policy not in UnplayedPolicy.values:
        raise ServiceError(
            _("Unknown policy for unplayed rounds: %(policy)s") % {"policy": unplayed_policy}
        )
    if min_games < 0:
        raise ServiceError(_("The minimum number of games cannot be negative."))
    return Rules(system, parameters_to_json(values), codes, unplayed_policy, int(min_games))


@dataclass(frozen=True)
class PreviewRow:
    participant_id: int
    name: str
    current_rank: int | None
    current_score: Fraction | None
    new_rank: int
    new_score: Fraction
    moved: int  # places gained (positive) or lost (negative) under the new rules


@dataclass(frozen=True)
class GameValueRow:
    """What a game in the next round against the participant at ``place`` gives, under the
    rules in force (``old``) and the proposed ones (``new``); None for the player the table
    is seen from (no one plays himself)."""

    place: int
    name: str
    figure_old: Fraction | None  # the opponent's figure the value depends on (a rank value)
    figure_new: Fraction | None
    old: GameValues | None
    new: GameValues | None


@dataclass(frozen=True)
class SeenFrom:
    """The player a table of game values is for (Van den Brink: his own rank value counts)."""

    name: str
    place: int
    figure_old: Fraction  # his rank value under the rules in force and under the new ones
    figure_new: Fraction


@dataclass(frozen=True)
class GameValueTable:
    """The worth of a win, a draw and a loss against each place (or a sample of places)."""

    round_number: int  # the round these games would be played in
    system: str
    figure: str  # the code of the opponent's figure the worth depends on ("RV", "IP") or ""
    depends_on_opponent: bool
    # Van den Brink: whose games they are (the participant in the middle of the standings)
    seen_from: SeenFrom | None
    rows: list[GameValueRow]

    @property
    def style(self) -> str:
        """How the table writes its values (``styled_number``): one number of decimals for all,
        so that 3,70 stands above 3,42."""
        values = [
            value
            for row in self.rows
            for side in (row.old, row.new)
            if side is not None
            for value in (side.win, side.draw, side.loss)
        ]
        return numbers.column_style(values)

    @property
    def figure_style(self) -> str:
        """How the opponent's figure in brackets is written (``styled_number``): one style for
        the column of it, the player the table is seen from included (175,50 above 182,25, not
        175); points (internal points) with ½ when every value is a whole or a half."""
        values = [value for row in self.rows for value in (row.figure_old, row.figure_new)]
        if self.seen_from is not None:
            values += [self.seen_from.figure_old, self.seen_from.figure_new]
        return numbers.column_style(values, points=numbers.is_points(self.figure))


@dataclass(frozen=True)
class RulesPreview:
    after_round: int
    rows: list[PreviewRow]  # in the new order
    system: str = ""  # the new rules' system, and the one in force (their scores' kinds)
    current_system: str = ""
    from_round: int = 1  # the first round the new rules score
    # "from the next round": the standings as if the new rules had held all season
    whole_season: list[PreviewRow] | None = None
    game_values: GameValueTable | None = None

    @property
    def movers(self) -> list[PreviewRow]:
        return [row for row in self.rows if row.moved]

    def _score_style(self, rows: Sequence[PreviewRow]) -> str:
        """One style for a column of scores now and new (``styled_number``): game points with
        ½, other scores with one number of decimals."""
        points = all(
            numbers.is_points(get_system(key).primary)
            for key in {self.system, self.current_system}
            if key
        )
        values = [row.new_score for row in rows] + [row.current_score for row in rows]
        return numbers.column_style(values, points=points)

    @property
    def rows_style(self) -> str:
        return self._score_style(self.rows)

    @property
    def whole_season_style(self) -> str:
        return self._score_style(self.whole_season or [])

    @property
    def whole_season_movers(self) -> list[PreviewRow]:
        return [row for row in self.whole_season or [] if row.moved]


def first_round_of_change(*, season: Season, rule_changes: str) -> int:
    """The first round a change of rules made now scores: 1 for the whole season, else the
    next round to be completed (rounds completed so far + 1)."""
    if rule_changes != RuleChanges.NEXT_ROUND:
        return 1
    return Round.objects.filter(season=season, status=Round.Status.COMPLETED).count() + 1


def _refuse_a_system_change_midway(rules: Rules, system: str, from_round: int) -> None:
    if from_round > 1 and rules.system != system:
        raise ServiceError(
            _(
                'A change of ranking system applies to the whole season: choose "to the whole '
                'season" for this change.'
            )
        )


def _proposed_input(
    season: Season, current: scoring.SeasonInput, rules: Rules, from_round: int
) -> scoring.SeasonInput:
    """The season scored by ``rules`` from ``from_round`` on, the rule sets in force now
    scoring the rounds before it."""
    _refuse_a_system_change_midway(rules, current.system, from_round)
    whole = season_input(season=season, rules=rules.as_overrides())
    if from_round <= 1:
        return whole
    in_force = scoring.EarlierRules(
        version=season.rules_version,
        from_round=current.rules_from_round,
        system=current.system,
        parameters=current.parameters,
        tiebreaks=current.tiebreaks,
        unplayed_policy=current.unplayed_policy,
        min_games=current.min_games,
    )
    earlier = [rules for rules in current.earlier_rules if rules.from_round < from_round]
    if in_force.from_round < from_round:
        earlier.append(in_force)
    return replace(whole, rules_from_round=from_round, earlier_rules=tuple(earlier))


def _compared(
    proposed: scoring.RoundStandings,
    current: Mapping[int, scoring.StandingRow],
    names: Mapping[int, str],
) -> list[PreviewRow]:
    """The proposed standings' rows beside the current ones, in the proposed order."""
    rows = []
    for row in proposed.rows:
        before = current.get(row.participant_id)
        rows.append(
            PreviewRow(
                participant_id=row.participant_id,
                name=names[row.participant_id],
                current_rank=before.rank if before else None,
                current_score=before.score if before else None,
                new_rank=row.rank,
                new_score=row.score,
                moved=(before.rank - row.rank) if before else 0,
            )
        )
    return rows


SAMPLE_ALL = 12  # standings up to this size show every place in the table of game values


def _sample(count: int, also: int) -> list[int]:
    """The indexes of the places a table of game values shows: every place of a small field,
    else the top three, the quarters, the last and ``also``.

    >>> _sample(30, 14)
    [0, 1, 2, 7, 14, 15, 22, 29]
    """
    if count <= SAMPLE_ALL:
        return list(range(count))
    return sorted({0, 1, 2, count // 4, count // 2, (3 * count) // 4, count - 1, also})


def _game_value_table(
    *,
    current_input: scoring.SeasonInput,
    rules: Rules,
    current: Sequence[scoring.StandingRow],
    whole_season: Mapping[int, scoring.StandingRow],
    names: Mapping[int, str],
    round_number: int,
) -> GameValueTable | None:
    """What a game in round ``round_number`` against each place gives under the rules in force
    (with the figures of the current standings) and under ``rules`` (with the figures they
    give when they score the whole season, which the engine uses for the rounds they score).
    None when the system changes or nobody is in the standings."""
    if rules.system != current_input.system or not current:
        return None
    system = get_system(rules.system)
    try:
        old_parameters = system.validate(dict(current_input.parameters))
        new_parameters = system.validate(parameters_from_json(rules.parameters))
    except ValueError:
        return None
    figure = game_values.OPPONENT_FIGURE.get(rules.system, "")
    middle = (len(current) - 1) // 2
    own = current[middle]
    own_new = whole_season.get(own.participant_id, own)
    seen_from = None
    if game_values.depends_on_own_figure(rules.system):
        seen_from = SeenFrom(
            names[own.participant_id], own.rank, own.values[figure], own_new.values[figure]
        )
    participants = len(current_input.participants)
    rows = []
    for index in _sample(len(current), middle):
        row = current[index]
        new_row = whole_season.get(row.participant_id, row)
        himself = seen_from is not None and index == middle
        old = new = None
        if not himself:
            old, new = (
                game_values.game_values(
                    system=rules.system,
                    parameters=parameters,
                    place=row.rank,
                    participants=participants,
                    opponent=opponent.values,
                    own=player.values,
                )
                for parameters, opponent, player in (
                    (old_parameters, row, own),
                    (new_parameters, new_row, own_new),
                )
            )
        rows.append(
            GameValueRow(
                place=row.rank,
                name=names[row.participant_id],
                figure_old=row.values.get(figure) if figure else None,
                figure_new=new_row.values.get(figure) if figure else None,
                old=old,
                new=new,
            )
        )
    return GameValueTable(
        round_number=round_number,
        system=rules.system,
        figure=figure,
        depends_on_opponent=game_values.depends_on_opponent(rules.system),
        seen_from=seen_from,
        rows=rows,
    )


def rules_preview(
    *, season: Season, rules: Rules, rule_changes: str = RuleChanges.WHOLE_SEASON
) -> RulesPreview:
    """The standings after the last completed round under ``rules`` beside the current ones,
    and what a game of the next round against each place would give under both.

    With ``rule_changes`` "next_round" the new rules score only the rounds still to come, so the
    standings after the last completed round stay as they are; ``whole_season`` then gives the
    standings as if the new rules had held all season, which is what they will do to the rounds
    to come. Nothing is saved. Raises :class:`ServiceError` when the engine refuses the rules for
    this season (for example Van den Brink without start points for a participant).
    """
    current_input = season_input(season=season)
    from_round = first_round_of_change(season=season, rule_changes=rule_changes)
    proposed_input = _proposed_input(season, current_input, rules, from_round)
    last = len(current_input.rounds)
    names = {p.id: p.name for p in current_input.participants}
    try:
        proposed = engine.standings_after(proposed_input, last)
        whole = (
            proposed
            if from_round <= 1
            else engine.standings_after(
                season_input(season=season, rules=rules.as_overrides()), last
            )
        )
    except (ScoringInputError, ValueError) as error:
        raise ServiceError(error_text(error)) from None
    try:
        current_rows = engine.standings_after(current_input, last).rows
    except (ScoringInputError, ValueError):
        current_rows = ()  # the current rules may no longer fit the season; show the new ones only
    current = {row.participant_id: row for row in current_rows}
    table = _game_value_table(
        current_input=current_input,
        rules=rules,
        current=current_rows,
        whole_season={row.participant_id: row for row in whole.rows},
        names=names,
        round_number=last + 1,
    )
    return RulesPreview(
        after_round=last,
        rows=_compared(proposed, current, names),
        system=rules.system,
        current_system=current_input.system,
        from_round=from_round,
        whole_season=_compared(whole, current, names) if from_round > 1 else None,
        game_values=table,
    )


def _valid_from_of_current(season: Season) -> datetime.datetime:
    """When the current rules came into force, if no row says so: the season's start."""
    if season.start_date is not None:
        return timezone.make_aware(datetime.datetime.combine(season.start_date, datetime.time()))
    return timezone.now()


@transaction.atomic
def rules_save(
    *,
    season: Season,
    rules: Rules,
    user: User | None = None,
    rule_changes: str | None = None,
) -> Season:
    """Put ``rules`` in force for ``season``, keeping the earlier rule set.

    The rule set in force until now is stored as ``SeasonRules`` version ``rules_version`` (an
    existing row keeps its ``valid_from``); the new one becomes version ``rules_version + 1``,
    valid from now, scoring the whole season or (``rule_changes`` "next_round", which becomes
    the season's setting; default: the season's setting) the rounds from the next one to be
    completed. The standings are recomputed: the season is scored once, and rules the engine
    cannot apply (a :class:`ServiceError`) leave everything as it was.
    """
    season = Season.objects.select_for_update().get(pk=season.pk)
    if rule_changes is None:
        rule_changes = season.rule_changes
    if rule_changes not in RuleChanges.values:
        raise ServiceError(
            _("Unknown choice for a change of rules: %(value)s") % {"value": rule_changes}
        )
    from_round = first_round_of_change(season=season, rule_changes=rule_changes)
    old = rules_of_season(season)
    if rules == old and season.rule_changes == rule_changes:
        return season  # the rules in force again (a second tap on Save): no new version
    _refuse_a_system_change_midway(rules, old.system, from_round)
    SeasonRules.objects.get_or_create(
        season=season,
        version=season.rules_version,
        defaults={
            "valid_from": _valid_from_of_current(season),
            "system": old.system,
            "parameters": old.parameters,
            "tiebreaks": list(old.tiebreaks),
            "unplayed_policy": old.unplayed_policy,
            "min_games": old.min_games,
            "from_round": season.rules_from_round,
        },
    )
    new_version = season.rules_version + 1
    SeasonRules.objects.create(
        season=season,
        version=new_version,
        valid_from=timezone.now(),
        system=rules.system,
        parameters=rules.parameters,
        tiebreaks=list(rules.tiebreaks),
        unplayed_policy=rules.unplayed_policy,
        min_games=rules.min_games,
        from_round=from_round,
        changed_by=user if user is not None and user.is_authenticated else None,
    )
    Season.objects.filter(pk=season.pk).update(
        system=rules.system,
        parameters=rules.parameters,
        tiebreaks=list(rules.tiebreaks),
        unplayed_policy=rules.unplayed_policy,
        min_games=rules.min_games,
        rules_version=F("rules_version") + 1,
        changed_at=Now(),
        rules_from_round=from_round,
        rule_changes=rule_changes,
    )
    season.refresh_from_db()
    try:
        # Scoring the season for its stored standings is the proof that the engine takes the
        # rules; a refusal undoes the whole save (one transaction).
        standings_recompute(season=season)
    except (ScoringInputError, ValueError) as error:
        raise ServiceError(error_text(error)) from None
    season.refresh_from_db()
    return season


def rules_for_version(*, season: Season, version: int) -> Rules:
    """The rule set that was in force as ``version`` (the current one when it is current)."""
    if version == season.rules_version:
        return rules_of_season(season)
    try:
        stored = SeasonRules.objects.get(season=season, version=version)
    except SeasonRules.DoesNotExist:
        raise ServiceError(
            _("Season %(season)s has no rule set version %(version)s.")
            % {"season": season, "version": version}
        ) from None
    return Rules(
        stored.system,
        dict(stored.parameters),
        tuple(stored.tiebreaks),
        stored.unplayed_policy,
        stored.min_games,
    )
