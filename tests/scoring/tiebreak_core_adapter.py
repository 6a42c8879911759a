"""Feeds a :class:`SeasonInput` to the independent tiebreak-core library (for tests and bench).

Mapping of our rounds to tiebreak-core game kinds: game over the board -> ``played``;
forfeit -> ``forfeit_win`` / ``forfeit_loss`` with the scheduled opponent (double forfeit:
both ``forfeit_loss``); ``bye`` -> ``pairing_bye``; ``absent_notice`` / ``club_duty`` ->
``requested_bye``; ``absent_no_notice`` / ``not_paired`` -> ``forfeit_loss`` without an
opponent (the library then does not cap the 2026 dummy, see docs/tiebreaks.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tiebreak_core import fide2024, fide2026
from tiebreak_core.models import (
    FORFEIT_LOSS,
    FORFEIT_WIN,
    PAIRING_BYE,
    PLAYED,
    REQUESTED_BYE,
    GameRecord,
    PlayerTiebreakData,
)

from competition.scoring.model import EntryKind, SeasonInput
from competition.scoring.records import records_by_participant

CRITERIA: dict[str, str] = {
    "BH": "buchholz",
    "BH/C1": "buchholz_cut1",
    "BH/C2": "buchholz_cut2",
    "BH/M1": "median_buchholz",
    "BH/M2": "median_buchholz_2",
    "SB": "sonneborn_berger",
    "SB/C1": "sonneborn_berger_cut1",
    "PS": "progressive",
    "KS": "koya",
    "WIN": "wins",
    "WON": "won",
    "BPG": "games_black",
    "BWG": "wins_black",
    "ARO": "aro",
    "TPR": "tpr",
    "AOB": "aob",
}


def _players(season: SeasonInput, upto_round: int) -> dict[int, PlayerTiebreakData]:
    ratings = {p.id: p.rating or 0 for p in season.participants}
    players: dict[int, PlayerTiebreakData] = {}
    for pid, rows in records_by_participant(season, upto_round).items():
        games = []
        for record in rows:
            opponent = record.opponent if record.opponent is not None else -1
            if record.result is not None and record.result.is_played:
                kind = PLAYED
            elif record.result is not None:
                kind = FORFEIT_WIN if record.points > 0 else FORFEIT_LOSS
            elif record.entry == EntryKind.BYE:
                kind = PAIRING_BYE
            elif record.entry in (EntryKind.ABSENT_NOTICE, EntryKind.CLUB_DUTY):
                kind = REQUESTED_BYE
            else:
                kind = FORFEIT_LOSS
            games.append(
                GameRecord(
                    opponent_id=opponent,
                    opponent_rating=ratings.get(opponent, 0),
                    score=float(record.points),
                    color="black" if record.colour == "b" else "white",
                    round_number=record.round_number,
                    kind=kind,
                )
            )
        points = float(sum(r.points for r in rows))
        players[pid] = PlayerTiebreakData(pid, ratings[pid], points, games)
    return players


def compute_with_tiebreak_core(
    season: SeasonInput, *, upto_round: int, codes: Sequence[str], policy: str
) -> dict[int, dict[str, Fraction]]:
    """The codes tiebreak-core knows, under its ``fide-2024`` or ``fide-2026`` ruleset."""
    players = _players(season, upto_round)
    criteria = [CRITERIA[code] for code in codes]
    out: dict[int, dict[str, Fraction]] = {}
    if policy == "fide-2024":
        pre = fide2024._precompute(players, upto_round)
        for pid, player in players.items():
            values = {
                c: fide2024.calculate(player, players, c, upto_round, 0.0, pre) for c in criteria
            }
            out[pid] = {code: _exact(values[CRITERIA[code]]) for code in codes}
    elif policy == "fide-2026":
        mode = "round_robin" if season.round_robin else "swiss"
        for pid, player in players.items():
            values = fide2026.calculate_all(player, players, criteria, upto_round, mode=mode)
            out[pid] = {code: _exact(values[CRITERIA[code]]) for code in codes}
    else:
        raise ValueError(f"tiebreak-core has no ruleset for policy {policy!r}")
    return out


def _exact(value: float) -> Fraction:
    # Sums of halves and quarters are exact binary fractions; AOB may be a true average.
    return Fraction(value).limit_denominator(10_000)
