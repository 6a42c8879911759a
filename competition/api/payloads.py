"""The API's documents built from what the public pages' selectors give: plain dicts of JSON
values, in the shapes of :mod:`competition.api.schemas`.

Every figure is given twice: ``exact`` (the exact value as text, ``"58.25"`` or ``"1356/7"``,
as :mod:`competition.scoring.exact` writes it: rankings are decided on these) and ``display``
(as the pages write it in the reader's language, ``"58,25"`` or ``"7½"``; rounded for display
only).
Nothing here computes a figure: the standings come from the stored snapshots
(``selectors.standings.standings_for_season``), a participant's explanation from
``selectors.participants.participant_detail``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from clubcomp.addresses import site_url
from competition.clubs import club_url
from competition.models import Club, Game, Round, Season
from competition.presentation import numbers
from competition.presentation.labels import entry_label, figure_label, note_label, system_name
from competition.presentation.legend import separation_labels
from competition.scoring.exact import fraction_to_text
from competition.scoring.registry import SYSTEMS
from competition.selectors.api import EveningItem, PublicParticipant
from competition.selectors.participants import ParticipantPage
from competition.selectors.ratings import RatingList as RatingListPage
from competition.selectors.rounds import RoundPage
from competition.selectors.standings import SeasonStandingsPage


def figure(value: Fraction | int | None, code: str = "") -> dict[str, str] | None:
    """A figure as ``{"exact": "1.5", "display": "1½"}`` (points with ½, other values as
    decimals in the active language); None stays None.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     figure(Fraction(233, 4), "SB"), figure(Fraction(3, 2), "IP")
    ({'exact': '58.25', 'display': '58.25'}, {'exact': '1.5', 'display': '1½'})
    >>> figure(Fraction(1, 3), "SB")["exact"]
    '1/3'
    """
    if value is None:
        return None
    return {"exact": fraction_to_text(value), "display": numbers.figure_text(value, code)}


def _api(viewname: str, **kwargs: Any) -> str:
    return site_url(f"api-1:{viewname}", kwargs=kwargs)


def club_item(club: Club) -> dict[str, Any]:
    return {
        "slug": club.slug,
        "name": club.name,
        "page": club_url(club.slug, "competition:home"),
        "api": _api("club", club=club.slug),
    }


def season_item(season: Season) -> dict[str, Any]:
    club = season.club.slug
    system = SYSTEMS.get(season.system)
    return {
        "slug": season.slug,
        "name": season.name,
        "club": club,
        "status": season.status,
        "kind": season.kind,
        "system": season.system,
        "system_name": system_name(system) if system else season.system,
        "start_date": season.start_date,
        "end_date": season.end_date,
        "page": club_url(club, "competition:standings", args=[season.slug]),
        "api": _api("season", club=club, season=season.slug),
    }


def season_detail(season: Season, *, round_count: int, after_round: int | None) -> dict[str, Any]:
    club = season.club.slug
    links = {
        name: _api(name, club=club, season=season.slug)
        for name in ("standings", "rounds", "participants", "calendar")
    }
    links["embed"] = club_url(club, "competition:season_embed", args=[season.slug])
    return {
        **season_item(season),
        "tiebreaks": [
            {"code": code, "label": figure_label(code)} for code in season.tiebreaks or ()
        ],
        "unplayed_policy": season.unplayed_policy,
        "min_games": season.min_games,
        "rules_version": season.rules_version,
        "data_version": season.data_version,
        "rounds": round_count,
        "after_round": after_round,
        "links": links,
    }


def _standing_figures(row: Mapping[str, Any], primary: str) -> dict[str, Any]:
    """A standings row's score, game points and figures (``primary``: the score's code), and
    its games and prize eligibility."""
    return {
        "score": figure(row["score"], primary),
        "game_points": figure(row["game_points"], "game_points"),
        "values": {code: figure(value, code) for code, value in row["values"].items()},
        "games": row["games"],
        "eligible": row["eligible"],
    }


def standings(page: SeasonStandingsPage) -> dict[str, Any]:
    """The standings after ``page.after_round``: every row's figures, its move since the round
    before and, for a row below an equal score, what separated them (in words)."""
    season = page.season
    club = season.club.slug
    codes = [page.primary, *page.figure_codes, *page.tiebreak_codes]
    reasons = separation_labels(page.order_criteria)
    rows = []
    for row in page.rows:
        separated_by = row.get("separated_by")
        rows.append(
            {
                "rank": row["rank"],
                "participant_id": row["participant_id"],
                "name": row["name"],
                **_standing_figures(row, page.primary),
                "withdrawn_from_round": row.get("withdrawn_from_round"),
                "movement": row.get("movement"),
                "separated_by": separated_by,
                "separation": reasons[separated_by][1] if separated_by in reasons else None,
                "page": club_url(
                    club, "competition:participant", args=[season.slug, row["participant_id"]]
                ),
                "api": _api(
                    "participant",
                    club=club,
                    season=season.slug,
                    participant_id=row["participant_id"],
                ),
            }
        )
    return {
        "club": club,
        "season": season.slug,
        "system": season.system,
        "after_round": page.after_round,
        "rounds": page.rounds,
        "primary": page.primary,
        "figures": [{"code": code, "label": figure_label(code)} for code in codes],
        "tiebreaks": list(page.tiebreak_codes),
        "order_criteria": list(page.order_criteria),
        "fingerprint": page.fingerprint,
        "rules_version": page.rules_version,
        "standings": rows,
    }


def round_item(season: Season, rnd: Round) -> dict[str, Any]:
    club = season.club.slug
    return {
        "number": rnd.number,
        "date": rnd.date,
        "status": rnd.status,
        "page": club_url(club, "competition:round", args=[season.slug, rnd.number]),
        "api": _api("round", club=club, season=season.slug, number=rnd.number),
    }


def _player(participant_id: int, names: Mapping[int, str]) -> dict[str, Any]:
    return {"id": participant_id, "name": names.get(participant_id, "?")}


def round_detail(page: RoundPage) -> dict[str, Any]:
    """A round's boards with results, its rounds without a game and its corrections. A round
    whose pairing is not published yet shows neither boards nor byes (as its page)."""
    labels = dict(Game.Result.choices)
    return {
        **round_item(page.season, page.round),
        "published": not page.round.is_planned,
        "games": [
            {
                "board": game.board,
                "white": _player(game.white_id, page.names),
                "black": _player(game.black_id, page.names),
                "result": game.result,
                "result_display": str(labels.get(game.result, game.result)),
            }
            for game in page.games
        ],
        "entries": [
            {
                "participant": _player(entry.participant_id, page.names),
                "kind": kind,
                "kind_display": label,
                "points": figure(Fraction(entry.points), "points"),
            }
            for kind, label, entries in page.entries_by_kind
            for entry in entries
        ],
        "corrections": [
            {
                "corrected_at": correction.corrected_at,
                "board": correction.board,
                "players": correction.players,
                "before": correction.before,
                "after": correction.after,
                "reason": correction.reason,
            }
            for correction in page.corrections
        ],
    }


def participant_item(season: Season, participant: PublicParticipant) -> dict[str, Any]:
    club = season.club.slug
    return {
        "id": participant.id,
        "name": participant.name,
        "start_number": participant.start_number,
        "joined_round": participant.joined_round,
        "withdrawn_from_round": participant.withdrawn_from_round,
        "page": club_url(club, "competition:participant", args=[season.slug, participant.id]),
        "api": _api("participant", club=club, season=season.slug, participant_id=participant.id),
    }


def _part(value: Fraction | str) -> str:
    return fraction_to_text(value) if isinstance(value, Fraction | int) else str(value)


def participant_detail(page: ParticipantPage) -> dict[str, Any]:
    """His figures after ``page.after_round``, every game with what it adds to each figure,
    the explanation of each figure line by line, and his rank and score after each round."""
    names = page.names
    row = page.row
    return {
        "id": page.participant_id,
        "name": page.name,
        "club": page.season.club.slug,
        "season": page.season.slug,
        "after_round": page.after_round,
        "rounds": page.rounds,
        "withdrawn_from_round": page.withdrawn_round,
        "standing": None
        if row is None
        else {"rank": row["rank"], **_standing_figures(row, page.primary)},
        "games": [
            {
                "round": line.round_number,
                "opponent": None if line.opponent_id is None else _player(line.opponent_id, names),
                "colour": line.colour,
                "result": line.result,
                "entry": line.entry,
                "entry_display": entry_label(line.entry) if line.entry else "",
                "points": figure(line.points, "points"),
                "played": line.played,
                "contributions": {
                    code: figure(amount, code) for code, amount in line.contributions.items()
                },
            }
            for line in page.games
        ],
        "explanations": [
            {
                "code": section.code,
                "label": figure_label(section.code),
                "total": figure(section.total, section.code),
                "lines": [
                    {
                        "round": line.round_number,
                        "opponent": None
                        if line.opponent_id is None
                        else _player(line.opponent_id, names),
                        "amount": figure(line.amount, section.code),
                        "counted": line.counted,
                        "note": note_label(line),
                        "parts": {name: _part(value) for name, value in line.parts.items()},
                    }
                    for line in section.lines
                ],
            }
            for section in page.sections
        ],
        "history": [
            {
                "round": chart.round_number,
                "rank": chart.rank,
                "score": figure(chart.score, page.primary),
            }
            for chart in page.history
        ],
        "error": page.error,
    }


def evening_item(evening: EveningItem) -> dict[str, Any]:
    return {
        "date": evening.date,
        "round": evening.round_number,
        "on_calendar": evening.on_calendar,
        "note": evening.note,
        "start": evening.start,
    }


def rating_list(data: RatingListPage) -> dict[str, Any]:
    club = data.club.slug
    return {
        "club": club,
        "as_of": data.as_of,
        "method": "fide",
        "season": data.season.slug if data.season else None,
        "season_start": data.season_start,
        "ratings": [
            {
                "rank": row.rank,
                "member_id": row.member_id,
                "name": row.name,
                "rating": row.rating,
                "games": row.games,
                "last_evening": row.last_evening,
                "change_month": row.change_month,
                "change_season": row.change_season,
                "page": club_url(club, "competition:member_rating", args=[row.member_id]),
            }
            for row in data.rows
        ],
    }
