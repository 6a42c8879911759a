"""The standings fingerprint: a short hash of everything a season's standings are computed from.

Two installations holding the same season (an archive exported here and imported there) show
the same fingerprint; one changed result, start number or rule gives another. It is a pure
function of the engine's input (:class:`~competition.scoring.model.SeasonInput`), so database
ids, timestamps, the order rows come back in and anything the engine does not read (notes,
who entered a result, rounds not yet completed) do not enter it.

The definition, exactly (docs/formats.md, *Standings fingerprint*, says the same for another
program):

1. The **canonical document** is a JSON object::

       {"definition": 1,
        "rules": {"system": ..., "parameters": {name: text, ...}, "tiebreaks": [codes],
                  "unplayed_policy": ..., "min_games": n, "round_robin": true|false},
        "rounds": [the completed round numbers, ascending],
        "participants": [one record per participant, see below]}

   A participant's record is ``{"start_number", "name", "rating", "start_points",
   "joined_round", "rounds"}`` (and ``"withdrawn_round"`` for a participant who withdrew);
   ``rounds`` lists his completed rounds in round order (a game before an entry in the same
   round), each an array: ``[round, "white"|"black", board,
   result, opponent]`` for a game, where ``opponent`` is the opponent's
   ``[start_number, name, rating, start_points, joined_round]``, or ``[round, "entry", kind,
   points]`` for an entry (with the external game's result as a fifth element when the club
   duty was one). The records are sorted by their own JSON text (as in step 2).
   Participants are therefore told apart by their data, never by an id.
   When the rules score only the rounds from a later round on (``SeasonInput.rules_from_round``
   above 1), ``"rules"`` also holds ``"from_round": n`` and the document a key
   ``"earlier_rules"``: the rule sets that score the rounds before, in order, each
   ``{"version", "from_round", "system", "parameters", "tiebreaks", "unplayed_policy",
   "min_games"}`` written like ``"rules"``. Rules for the whole season add neither key (the
   document is the same as before rule sets could apply from a later round).
2. Numbers that must stay exact (start points, entry points, number parameters) are strings:
   the exact decimal when the fraction has one (``"0.07"``, ``"199.5"``, ``"3"``), else
   ``"numerator/denominator"`` (``"1356/7"``). Boolean parameters are ``"true"``/``"false"``,
   word parameters their word. Integers are JSON integers, unknown values ``null``.
3. The text is the document written with sorted keys, no spaces (``","`` and ``":"``), non-ASCII
   characters as they are (Python's ``json.dumps(document, sort_keys=True, ensure_ascii=False,
   separators=(",", ":"))``), encoded as UTF-8.
4. The **fingerprint** is the SHA-256 of those bytes as 64 lower-case hex digits; its **short
   form**, shown on pages and in exports, is the first 12 hex digits in groups of four joined
   by hyphens (``3f9a-0c41-be27``).

>>> from competition.scoring.model import Participant, SeasonInput
>>> empty = SeasonInput(participants=(Participant(1, "Anna"),), rounds=())
>>> canonical_text(empty)[:60]
'{"definition":1,"participants":[{"joined_round":1,"name":"An'
>>> short_form("3f9a0c41be27d5e6" + "0" * 48)
'3f9a-0c41-be27'
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import Any

from competition.scoring.exact import fraction_to_text
from competition.scoring.model import ParameterValue, Participant, SeasonInput

DEFINITION = 1  # bumped when the canonical document changes; part of the document
SHORT_DIGITS = 12  # hex digits of the short form (48 bits)


def parameter_text(value: ParameterValue) -> str:
    """A rule parameter as text: ``True`` → ``"true"``, ``Fraction(7, 100)`` → ``"0.07"``,
    a word as it is (numbers in the one written form of :mod:`competition.scoring.exact`).

    >>> parameter_text(True), parameter_text(Fraction(7, 100)), parameter_text("result")
    ('true', '0.07', 'result')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Fraction):
        return fraction_to_text(value)
    return value


def _identity(participant: Participant) -> list[Any]:
    return [
        participant.start_rank,
        participant.name,
        participant.rating,
        None if participant.start_points is None else fraction_to_text(participant.start_points),
        participant.joined_round,
    ]


def _text(document: object) -> str:
    return json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _record(participant: Participant, rounds: list[list[Any]]) -> dict[str, Any]:
    """A participant's record in the canonical document (``withdrawn_round`` only when he
    withdrew, so that a season without withdrawals keeps its fingerprint)."""
    record: dict[str, Any] = {
        "start_number": participant.start_rank,
        "name": participant.name,
        "rating": participant.rating,
        "start_points": None
        if participant.start_points is None
        else fraction_to_text(participant.start_points),
        "joined_round": participant.joined_round,
        "rounds": rounds,
    }
    if participant.withdrawn_round is not None:
        record["withdrawn_round"] = participant.withdrawn_round
    return record


def canonical_document(season: SeasonInput) -> dict[str, Any]:
    """The document the fingerprint hashes (see the module docstring)."""
    by_id = {p.id: p for p in season.participants}
    played: dict[int, list[list[Any]]] = {p.id: [] for p in season.participants}
    for rnd in sorted(season.rounds, key=lambda r: r.number):
        games = sorted(rnd.games, key=lambda g: (g.board, _text(_identity(by_id[g.white]))))
        for game in games:
            for colour, own, other in (
                ("white", game.white, game.black),
                ("black", game.black, game.white),
            ):
                played[own].append(
                    [rnd.number, colour, game.board, str(game.result), _identity(by_id[other])]
                )
        for entry in rnd.entries:
            record = [rnd.number, "entry", str(entry.kind), fraction_to_text(entry.points)]
            if entry.external_result is not None:
                record.append(fraction_to_text(entry.external_result))  # an external game
            played[entry.participant].append(record)
    records = sorted(
        (_text(_record(p, played[p.id])) for p in season.participants),
        key=lambda text: text.encode("utf-8"),
    )
    document: dict[str, Any] = {
        "definition": DEFINITION,
        "rules": {
            "system": season.system,
            "parameters": {name: parameter_text(v) for name, v in season.parameters.items()},
            "tiebreaks": list(season.tiebreaks),
            "unplayed_policy": season.unplayed_policy,
            "min_games": season.min_games,
            "round_robin": season.round_robin,
        },
        "rounds": sorted(r.number for r in season.rounds),
        "participants": [json.loads(text) for text in records],
    }
    if season.rules_from_round > 1 and season.earlier_rules:
        document["rules"]["from_round"] = season.rules_from_round
        document["earlier_rules"] = [
            {
                "version": rules.version,
                "from_round": rules.from_round,
                "system": rules.system,
                "parameters": {name: parameter_text(v) for name, v in rules.parameters.items()},
                "tiebreaks": list(rules.tiebreaks),
                "unplayed_policy": rules.unplayed_policy,
                "min_games": rules.min_games,
            }
            for rules in season.earlier_rules
        ]
    return document


def canonical_text(season: SeasonInput) -> str:
    """The canonical document as text (the bytes hashed are its UTF-8 encoding)."""
    return _text(canonical_document(season))


def season_fingerprint(season: SeasonInput) -> str:
    """The fingerprint: SHA-256 of :func:`canonical_text` as 64 lower-case hex digits."""
    return hashlib.sha256(canonical_text(season).encode("utf-8")).hexdigest()


def short_form(fingerprint: str) -> str:
    """The fingerprint as people read it: its first 12 hex digits in groups of four."""
    head = fingerprint[:SHORT_DIGITS]
    return "-".join(head[i : i + 4] for i in range(0, SHORT_DIGITS, 4))


def short_fingerprint(season: SeasonInput) -> str:
    """The short form of ``season``'s fingerprint (``3f9a-0c41-be27``)."""
    return short_form(season_fingerprint(season))
