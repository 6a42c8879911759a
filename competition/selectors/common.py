"""Reads shared by the page areas: the engine's input for a season, names, tie-break codes.

``season_input`` is also what the services feed the engine with (``standings_recompute``,
rule previews, exports): it is the one translation of a season's rows into the pure model.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from competition.models import Game, Member, Participant, Round, RoundEntry, Season, SeasonRules
from competition.presentation.names import public_name
from competition.scoring import model as scoring
from competition.scoring.parameters import parameters_from_json
from competition.scoring.tiebreaks import validate_tiebreaks


def season_input(
    *,
    season: Season,
    rules: Mapping[str, Any] | None = None,
    rules_version: int | None = None,
    completed_only: bool = True,
) -> scoring.SeasonInput:
    """The engine's input for ``season`` (its completed rounds), in a constant number of queries.

    The rules are those in force (with the earlier rule sets when they apply from a later
    round), or those of ``rules_version`` (the standings as that rule set gave them), or
    ``rules``: a system, parameters, tiebreaks, unplayed_policy and min_games for the whole
    season (a preview of new rules). The engine always gets the full names (it orders equal
    participants by name). Raises ``SeasonRules.DoesNotExist`` for an unknown version.
    """
    season_in = _season_input(season, rules=rules, completed_only=completed_only)[0]
    if rules is None:
        season_in = with_rule_sets(season_in=season_in, season=season, version=rules_version)
    return season_in


def with_rule_sets(
    *, season_in: scoring.SeasonInput, season: Season, version: int | None = None
) -> scoring.SeasonInput:
    """``season_in`` as rule set ``version`` of ``season`` (default: the one in force) scores
    it: its rules, the round they apply from and the earlier rule sets that score the rounds
    before (one query; none for rules in force that apply to the whole season)."""
    current = season.rules_version
    version = current if version is None else version
    if version == current and season.rules_from_round <= 1:
        return season_in
    stored = [
        earlier_rules_of(row=row)
        for row in SeasonRules.objects.filter(season=season, version__lte=version)
    ]
    if version == current:
        first = season.rules_from_round
    else:
        own = next((rules for rules in stored if rules.version == version), None)
        if own is None:
            raise SeasonRules.DoesNotExist(f"season {season.pk} has no rule set {version}")
        season_in = season_in.scored_by(own)
        first = own.from_round
    earlier = scoring.rule_sets_before(stored, version=version, from_round=first)
    if not earlier:
        return replace(season_in, rules_from_round=1, earlier_rules=())
    return replace(season_in, rules_from_round=first, earlier_rules=earlier)


def earlier_rules_of(*, row: SeasonRules) -> scoring.EarlierRules:
    """A stored rule set as the engine takes it for the rounds it scores."""
    return scoring.EarlierRules(
        version=row.version,
        from_round=row.from_round,
        system=row.system,
        parameters=parameters_from_json(row.parameters),
        tiebreaks=tuple(row.tiebreaks),
        unplayed_policy=row.unplayed_policy,
        min_games=row.min_games,
    )


def season_input_with_public_names(
    *, season: Season, completed_only: bool = True, rules_version: int | None = None
) -> tuple[scoring.SeasonInput, dict[int, str]]:
    """``season_input`` and every participant's name as the public sees it
    (:func:`public_names`), from the same queries: for the public pages that run the engine."""
    season_in, enrolled = _season_input(season, rules=None, completed_only=completed_only)
    season_in = with_rule_sets(season_in=season_in, season=season, version=rules_version)
    return season_in, {p.id: member_public_name(member=p.member, season=season) for p in enrolled}


def _season_input(
    season: Season, *, rules: Mapping[str, Any] | None, completed_only: bool
) -> tuple[scoring.SeasonInput, list[Participant]]:
    rules = dict(rules or {})
    enrolled = list(Participant.objects.filter(season=season).select_related("member"))
    participants = tuple(
        scoring.Participant(
            id=p.id,
            name=p.member.name,
            start_rank=p.start_rank,
            start_points=Fraction(p.start_points) if p.start_points is not None else None,
            rating=p.rating,  # the event rating (C.07 10.1), frozen at enrolment
            joined_round=p.joined_round,
            withdrawn_round=p.withdrawn_from_round,
        )
        for p in enrolled
    )
    rounds_qs = Round.objects.filter(season=season).order_by("number")
    if completed_only:
        rounds_qs = rounds_qs.filter(status=Round.Status.COMPLETED)
    round_numbers = {r.id: r.number for r in rounds_qs}
    games: dict[int, list[scoring.Game]] = {rid: [] for rid in round_numbers}
    # In the default orderings' order within a round, without their joins of the round, the
    # season and the club (on a database of 700 clubs, 30 times as slow: bench/chances_scale.py)
    in_order = Game.objects.filter(round_id__in=round_numbers).order_by("board")
    for g in in_order.values_list("round_id", "board", "white_id", "black_id", "result"):
        games[g[0]].append(
            scoring.Game(white=g[2], black=g[3], result=scoring.Result(g[4]), board=g[1])
        )
    entries: dict[int, list[scoring.Entry]] = {rid: [] for rid in round_numbers}
    for e in (
        RoundEntry.objects.filter(round_id__in=round_numbers)
        .order_by("kind", "participant__start_rank", "participant__member__name")
        .values_list("round_id", "participant_id", "kind", "points", "external_result")
    ):
        entries[e[0]].append(
            scoring.Entry(
                participant=e[1],
                kind=scoring.EntryKind(e[2]),
                points=Fraction(e[3]),
                external_result=Fraction(e[4]) if e[4] else None,
            )
        )
    rounds = tuple(
        scoring.Round(number=number, games=tuple(games[rid]), entries=tuple(entries[rid]))
        for rid, number in sorted(round_numbers.items(), key=lambda item: item[1])
    )
    season_in = scoring.SeasonInput(
        participants=participants,
        rounds=rounds,
        system=rules.get("system", season.system),
        parameters=parameters_from_json(rules.get("parameters", season.parameters)),
        tiebreaks=tuple(rules.get("tiebreaks", season.tiebreaks)),
        unplayed_policy=rules.get("unplayed_policy", season.unplayed_policy),
        min_games=rules.get("min_games", season.min_games),
        round_robin=season.is_round_robin,
    )
    return season_in, enrolled


def participant_names(*, season_id: int) -> dict[int, str]:
    """Every participant's full name by id (one query): for the TD's pages and files only;
    public pages, exports and feeds use :func:`public_names`."""
    return dict(Participant.objects.filter(season_id=season_id).values_list("id", "member__name"))


# --------------------------------------------------------------------------------------------
# Names in public (AVG/GDPR): the rule is competition.presentation.names.public_name; these feed it.

_PUBLIC_NAME_FIELDS = (
    "member__name",
    "member__name_display",
    "member__birth_year",
    "member__anonymised_at",
    "season__name_display",
    "season__junior_birth_year",
)


def shown_name(
    *,
    name: str,
    member_choice: str,
    birth_year: int | None,
    anonymised_at: datetime.datetime | None,
    season_choice: str,
    junior_birth_year: int | None,
) -> str:
    """A member's name as one season shows it in public. An anonymised member's name is
    already a neutral one and shows as it is (shortening it would make it look like a person's).
    """
    if anonymised_at is not None:
        return name
    return public_name(
        name,
        member_choice=member_choice,
        birth_year=birth_year,
        season_choice=season_choice,
        junior_birth_year=junior_birth_year,
    )


def member_public_name(*, member: Member, season: Season) -> str:
    """``member``'s name on ``season``'s public pages, from rows already loaded (no query)."""
    return shown_name(
        name=member.name,
        member_choice=member.name_display,
        birth_year=member.birth_year,
        anonymised_at=member.anonymised_at,
        season_choice=season.name_display,
        junior_birth_year=season.junior_birth_year,
    )


def _name_shown(fields: tuple[Any, ...]) -> str:
    """The public name from the values of :data:`_PUBLIC_NAME_FIELDS`, in that order."""
    name, choice, birth_year, anonymised_at, season_choice, junior_birth_year = fields
    return shown_name(
        name=name,
        member_choice=choice,
        birth_year=birth_year,
        anonymised_at=anonymised_at,
        season_choice=season_choice,
        junior_birth_year=junior_birth_year,
    )


def _public_names(participants: QuerySet[Participant]) -> dict[int, str]:
    return {
        pid: _name_shown(fields)
        for pid, *fields in participants.values_list("id", *_PUBLIC_NAME_FIELDS)
    }


def public_names_with_withdrawals(*, season_id: int) -> tuple[dict[int, str], dict[int, int]]:
    """:func:`public_names`, and the round each withdrawn participant withdrew from, in the
    same one query."""
    names: dict[int, str] = {}
    withdrawn: dict[int, int] = {}
    # unordered: the default ordering would join the season and its club for nothing
    rows = (
        Participant.objects.filter(season_id=season_id)
        .order_by()
        .values_list("id", "withdrawn_from_round", *_PUBLIC_NAME_FIELDS)
    )
    for pid, withdrawn_round, *fields in rows:
        names[pid] = _name_shown(tuple(fields))
        if withdrawn_round is not None:
            withdrawn[pid] = withdrawn_round
    return names, withdrawn


def public_names(*, season_id: int) -> dict[int, str]:
    """Every participant's name by id as public pages, exports and feeds show it: the
    member's own choice, else short for a junior, else the season's setting (one query)."""
    return _public_names(Participant.objects.filter(season_id=season_id))


def public_names_of(*, participant_ids: Iterable[int]) -> dict[int, str]:
    """The public names of these participants, of any seasons (one query)."""
    return _public_names(Participant.objects.filter(id__in=list(participant_ids)))


def season_tiebreak_codes(*, season: Season) -> tuple[str, ...]:
    """The season's tie-break codes, validated (as stored when they no longer validate)."""
    try:
        return validate_tiebreaks(season.tiebreaks)
    except ValueError:
        return tuple(season.tiebreaks)


def user_label(*, user: AbstractBaseUser) -> str:
    """How a TD is named to other TDs: first name when known, else the username."""
    first = getattr(user, "first_name", "")
    return first or user.get_username()


def input_names(*, season_in: scoring.SeasonInput) -> dict[int, str]:
    """Every participant's name by id, from the engine's input (no query)."""
    return {p.id: p.name for p in season_in.participants}
