"""Corrections of a round's results and entries: the public round page and the TD's pages.

A correction is a change of an existing row kept in the history with the reason a TD gave
(``services.rounds.result_record`` and ``services.evening.entry_correct`` give one); draft
bookkeeping and first results have no reason and are not corrections. The public page names the
TD as the club chose (``settings.TD_PUBLIC_NAME``, default "the TD"), never by the account.
"""

from __future__ import annotations

import datetime
from collections.abc import Container, Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext

from competition.models import Game, Round, RoundEntry
from competition.presentation.numbers import points_text
from competition.selectors.common import participant_names, public_names, user_label
from competition.selectors.result_reports import EnteredResult, entered_result


@dataclass(frozen=True)
class Correction:
    """One correction of a result or an entry, as the round pages show it."""

    corrected_at: datetime.datetime
    corrected_by: str  # the TD's name (public: td_public_name()), "" when unknown
    board: int | None  # None for an entry (absence, bye)
    players: str  # "White – Black", or the participant's name
    before: str
    after: str
    reason: str


def _result_label(code: str) -> str:
    return str(Game.Result(code).label) if code else str(Game.Result.NOT_PLAYED.label)


def td_public_name() -> str:
    """How the public pages name the TD who made a correction: the club's ``TD_PUBLIC_NAME``,
    else "the TD" in the reader's language (de wedstrijdleider)."""
    return str(getattr(settings, "TD_PUBLIC_NAME", "")) or gettext("the TD")


def _changes_of(model: type[Game] | type[RoundEntry], round: Round) -> Iterable[Any]:
    """The stored changes of ``model``'s rows of ``round``, oldest first, with who made them."""
    return (
        model.history.filter(round_id=round.id)
        .select_related("history_user", "updated_by")
        .order_by("history_date", "history_id")
    )


def _correction_reason(record: Any, earlier: Container[int]) -> str:
    """The TD's reason when ``record`` corrects a row already seen in ``earlier``; else ""."""
    reason = record.history_change_reason or ""
    return reason if record.history_type == "~" and record.id in earlier else ""


def corrections_for_round(*, round: Round, public: bool = False) -> list[Correction]:
    """Every correction made to ``round``'s results and entries, oldest first (four queries).

    ``public`` names every TD :func:`td_public_name` (members read the round page; the
    accounts' names are for the TDs' own pages) and every player by his public name.
    """
    return round_trail(round=round, public=public)[0]


def round_trail(
    *, round: Round, public: bool = False
) -> tuple[list[Correction], list[EnteredResult]]:
    """:func:`corrections_for_round`, and the results the players entered and confirmed
    (:func:`competition.selectors.result_reports.entered_result`), by board, from the same
    read of the history."""
    names = (public_names if public else participant_names)(season_id=round.season_id)
    corrections: list[Correction] = []
    users: dict[int, str] = {}
    public_name = td_public_name() if public else ""

    def who(record: object) -> str:
        user: AbstractBaseUser | None = getattr(record, "history_user", None) or getattr(
            record, "updated_by", None
        )
        if user is None:
            return ""
        if user.pk not in users:
            users[user.pk] = public_name or user_label(user=user)
        return users[user.pk]

    last_result: dict[int, str] = {}
    entered: dict[int, EnteredResult] = {}
    for record in _changes_of(Game, round):
        line = entered_result(
            history_type=record.history_type, before=last_result.get(record.id), record=record
        )
        if line is not None:  # the players' first result, not a correction
            entered[record.id] = line
        reason = "" if line is not None else _correction_reason(record, last_result)
        if reason:
            corrections.append(
                Correction(
                    corrected_at=record.history_date,
                    corrected_by=who(record),
                    board=record.board,
                    players=" – ".join(
                        names.get(pid, "?") for pid in (record.white_id, record.black_id)
                    ),
                    before=_result_label(last_result[record.id]),
                    after=_result_label(record.result),
                    reason=reason,
                )
            )
        last_result[record.id] = record.result
    last_entry: dict[int, tuple[str, Decimal]] = {}
    kinds = dict(RoundEntry.Kind.choices)
    for record in _changes_of(RoundEntry, round):
        reason = _correction_reason(record, last_entry)
        if reason:
            old_kind, old_points = last_entry[record.id]
            corrections.append(
                Correction(
                    corrected_at=record.history_date,
                    corrected_by=who(record),
                    board=None,
                    players=names.get(record.participant_id, "?"),
                    before=f"{kinds.get(old_kind, old_kind)} ({points_text(old_points)})",
                    after=f"{kinds.get(record.kind, record.kind)} ({points_text(record.points)})",
                    reason=reason,
                )
            )
        last_entry[record.id] = (record.kind, record.points)
    corrections.sort(key=lambda c: c.corrected_at)
    return corrections, sorted(entered.values(), key=lambda line: line.board)
