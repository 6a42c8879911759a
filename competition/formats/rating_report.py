"""A season as a FIDE rating report: the TRF16 a federation's rating officer sends to FIDE
(FIDE Handbook C.04 Annex 2, the TRF16 layout of :mod:`competition.formats.trf`).

:func:`rating_report` adds to a tournament the header lines a rating officer needs — 012 name,
022 city, 032 federation, 042/052 first and last date, 062 players, 072 rated players, 092 type,
102 chief arbiter, 112 deputy arbiters (one line each), 122 time control and the 132 round
dates — and each player's FIDE ID and federation; unplayed rounds stay as TRF16 writes them
(forfeits ``+``/``-`` against the opponent, byes ``0000 - U``/``F``/``H``/``Z``).

:func:`rating_report_problems` checks the report before it is sent and names what is missing,
as translatable texts: the arbiter, the city, the federation, the dates of the rounds, the time
control, players without FIDE ID or federation, games against an unrated player. A rated player
is one with a FIDE ID and a rating.

>>> event = ReportEvent(name="Interne 2026", city="Apeldoorn", federation="NED",
...     chief_arbiter="Jan Jansen (1012345)", time_control="90 min + 30 s",
...     tournament_type="Individual: Swiss-System", start_date=date(2026, 9, 3),
...     end_date=date(2026, 9, 3))
>>> players = (ReportPlayer(1, "Aalders, Anna", 1012346, "NED", 1850),
...            ReportPlayer(2, "Bos, Bart", None, "NED", None))
>>> [str(p) for p in rating_report_problems(event, players, round_dates=(date(2026, 9, 3),),
...     games=((1, 2, 1),))]  # doctest: +NORMALIZE_WHITESPACE
['Bos, Bart (start number 2) has no FIDE ID.',
 'Aalders, Anna played Bos, Bart in round 1, who has no FIDE rating.']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from competition.formats.trf import TrfPlayer, TrfTournament
from competition.scoring.text import Text, gettext_noop

_FEDERATION = re.compile(r"[A-Z]{3}")


@dataclass(frozen=True, slots=True)
class ReportEvent:
    """What the header says about the event."""

    name: str
    city: str = ""
    federation: str = ""
    start_date: date | None = None
    end_date: date | None = None
    tournament_type: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    time_control: str = ""


@dataclass(frozen=True, slots=True)
class ReportPlayer:
    """A player as the report writes him: start number, name, FIDE ID, federation, FIDE
    rating (None: unrated)."""

    start_rank: int
    name: str
    fide_id: int | None = None
    federation: str = ""
    rating: int | None = None

    @property
    def rated(self) -> bool:
        return self.fide_id is not None and self.rating is not None


def _date(value: date | None) -> str:
    return value.strftime("%Y/%m/%d") if value else ""


def rating_report(
    tournament: TrfTournament,
    event: ReportEvent,
    players: Sequence[ReportPlayer],
    round_dates: Sequence[date | None],
) -> TrfTournament:
    """``tournament`` (its ``001`` records and rounds) with the rating officer's header and each
    player's FIDE ID, federation and FIDE rating from ``players`` (by start number). Tags of
    the tournament that the header does not set (142 rounds, 162 scoring, 202 tie-breaks) stay
    after it; the 132 line carries ``round_dates`` (YY/MM/DD)."""
    by_rank = {p.start_rank: p for p in players}
    header: list[tuple[str, str]] = [
        ("012", event.name),
        ("022", event.city),
        ("032", event.federation),
        ("042", _date(event.start_date)),
        ("052", _date(event.end_date)),
        ("062", str(len(players))),
        ("072", str(sum(p.rated for p in players))),
        ("092", event.tournament_type),
        ("102", event.chief_arbiter),
        *(("112", deputy) for deputy in event.deputy_arbiters),
        ("122", event.time_control),
    ]
    own = {code for code, _value in header}
    kept = tuple((code, value) for code, value in tournament.tags if code not in own)
    rewritten: list[TrfPlayer] = []
    for player in tournament.players:
        known = by_rank.get(player.start_rank)
        if known is None:
            rewritten.append(player)
            continue
        rewritten.append(
            replace(
                player,
                name=known.name,
                fide_id=known.fide_id,
                federation=known.federation,
                rating=known.rating,
            )
        )
    return replace(
        tournament,
        tags=(*header, *kept),
        round_dates=tuple(d.strftime("%y/%m/%d") if d else "" for d in round_dates),
        players=tuple(rewritten),
    )


def rating_report_problems(
    event: ReportEvent,
    players: Sequence[ReportPlayer],
    *,
    round_dates: Sequence[date | None],
    games: Sequence[tuple[int, int, int]],
) -> list[Text]:
    """What keeps the report from being rated, in the order a rating officer reads it.

    ``games`` are the games over the board as (white, black, round) with start numbers.
    Returns an empty list for a complete report.
    """
    problems: list[Text] = []
    if not event.name.strip():
        problems.append(Text(gettext_noop("The tournament has no name (line 012).")))
    if not event.city.strip():
        problems.append(Text(gettext_noop("The city is missing (line 022).")))
    if not _FEDERATION.fullmatch(event.federation):
        problems.append(
            Text(gettext_noop("The federation (line 032) is not a FIDE code such as NED."))
        )
    if event.start_date is None or event.end_date is None:
        problems.append(Text(gettext_noop("The first or the last date is missing (042, 052).")))
    if not event.chief_arbiter.strip():
        problems.append(Text(gettext_noop("The chief arbiter is missing (line 102).")))
    if not event.time_control.strip():
        problems.append(Text(gettext_noop("The time control is missing (line 122).")))
    if not event.tournament_type.strip():
        problems.append(Text(gettext_noop("The type of tournament is missing (line 092).")))
    missing_dates = [str(n) for n, day in enumerate(round_dates, start=1) if day is None]
    if missing_dates:
        problems.append(
            Text(
                gettext_noop("Rounds without a date: %(rounds)s."),
                {"rounds": ", ".join(missing_dates)},
            )
        )
    if not games:
        problems.append(Text(gettext_noop("No game was played over the board.")))
    for player in players:
        who = {"name": player.name, "number": player.start_rank}
        if player.fide_id is None:
            problems.append(
                Text(gettext_noop("%(name)s (start number %(number)s) has no FIDE ID."), who)
            )
        if not _FEDERATION.fullmatch(player.federation):
            problems.append(
                Text(gettext_noop("%(name)s (start number %(number)s) has no federation."), who)
            )
    by_rank = {p.start_rank: p for p in players}
    for white_rank, black_rank, round_number in games:
        white, black = by_rank[white_rank], by_rank[black_rank]
        for player, opponent in ((white, black), (black, white)):
            if player.rated and not opponent.rated:
                problems.append(
                    Text(
                        gettext_noop(
                            "%(name)s played %(opponent)s in round %(round)s, who has no FIDE "
                            "rating."
                        ),
                        {"name": player.name, "opponent": opponent.name, "round": round_number},
                    )
                )
    return problems
