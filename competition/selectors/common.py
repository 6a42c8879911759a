"""Reads shared by the page areas: the engine's input for a season, names, tie-break codes.

``season_input`` is also what the services feed the engine with (``standings_recompute``,
rule previews, exports): it is the one translation of a season's rows into the pure model.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from competition.models import Game, Participant, Round, RoundEntry, Season
from competition.scoring import model as scoring
from competition.scoring.parameters import parameters_from_json
from competition.scoring.tiebreaks import validate_tiebreaks


def season_input(
    season: Season,
    *,
    rules: Mapping[str, Any] | None = None,
    completed_only: bool = True,
) -> scoring.SeasonInput:
    """The engine's input for ``season`` (its completed rounds), in a constant number of queries.

    ``rules`` overrides the season's system, parameters, tiebreaks, unplayed_policy and
    min_games (for a preview of new rules or the reproduction of an earlier rule set).
    """
    rules = dict(rules or {})
    participants = tuple(
        scoring.Participant(
            id=p.id,
            name=p.member.name,
            start_rank=p.start_rank,
            start_points=Fraction(p.start_points) if p.start_points is not None else None,
            rating=p.rating,  # the event rating (C.07 10.1), frozen at enrolment
            joined_round=p.joined_round,
        )
        for p in Participant.objects.filter(season=season).select_related("member")
    )
    rounds_qs = Round.objects.filter(season=season).order_by("number")
    if completed_only:
        rounds_qs = rounds_qs.filter(status=Round.Status.COMPLETED)
    round_numbers = {r.id: r.number for r in rounds_qs}
    games: dict[int, list[scoring.Game]] = {rid: [] for rid in round_numbers}
    for g in Game.objects.filter(round_id__in=round_numbers).values_list(
        "round_id", "board", "white_id", "black_id", "result"
    ):
        games[g[0]].append(
            scoring.Game(white=g[2], black=g[3], result=scoring.Result(g[4]), board=g[1])
        )
    entries: dict[int, list[scoring.Entry]] = {rid: [] for rid in round_numbers}
    for e in RoundEntry.objects.filter(round_id__in=round_numbers).values_list(
        "round_id", "participant_id", "kind", "points"
    ):
        entries[e[0]].append(
            scoring.Entry(participant=e[1], kind=scoring.EntryKind(e[2]), points=Fraction(e[3]))
        )
    rounds = tuple(
        scoring.Round(number=number, games=tuple(games[rid]), entries=tuple(entries[rid]))
        for rid, number in sorted(round_numbers.items(), key=lambda item: item[1])
    )
    return scoring.SeasonInput(
        participants=participants,
        rounds=rounds,
        system=rules.get("system", season.system),
        parameters=parameters_from_json(rules.get("parameters", season.parameters)),
        tiebreaks=tuple(rules.get("tiebreaks", season.tiebreaks)),
        unplayed_policy=rules.get("unplayed_policy", season.unplayed_policy),
        min_games=rules.get("min_games", season.min_games),
        round_robin=season.is_round_robin,
    )


def participant_names(*, season_id: int) -> dict[int, str]:
    """Every participant's name by id (one query)."""
    return dict(Participant.objects.filter(season_id=season_id).values_list("id", "member__name"))


def season_tiebreak_codes(season: Season) -> tuple[str, ...]:
    """The season's tie-break codes, validated (as stored when they no longer validate)."""
    try:
        return validate_tiebreaks(season.tiebreaks)
    except ValueError:
        return tuple(season.tiebreaks)


def user_label(user: AbstractBaseUser) -> str:
    """How a TD is named to other TDs: first name when known, else the username."""
    first = getattr(user, "first_name", "")
    return first or user.get_username()


def input_names(season_in: scoring.SeasonInput) -> dict[int, str]:
    """Every participant's name by id, from the engine's input (no query)."""
    return {p.id: p.name for p in season_in.participants}
