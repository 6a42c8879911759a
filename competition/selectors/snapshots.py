"""Reads of the stored standings snapshots as text: a participant's own rows, or every row's
rank, found in a snapshot's rows without decoding them all.

Decoding every snapshot whole (40 rounds × 150 rows) took a quarter of a participant page's
time; these read each snapshot as text and decode only what the page needs.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.db.models import TextField
from django.db.models.functions import Cast

from competition.models import StandingsSnapshot

_SNAPSHOT_ID = re.compile(r'"participant_id": ?(\d+)')
_SNAPSHOT_RANK = re.compile(r'"rank": ?(\d+)')
# a row's id followed by its rank: every row matches when the rows are written in that order
_SNAPSHOT_ID_RANK = re.compile(r'"participant_id": ?(\d+), ?"rank": ?(\d+)')


def ranking_in_snapshot_text(*, text: str) -> dict[int, int]:
    """Participant id → rank of every row of a snapshot's rows (a JSON list of objects, as
    text), without decoding the rows: each row holds one ``participant_id`` and one ``rank``,
    in either order (as ``json.dumps`` and PostgreSQL write them), and no other key or value of
    a row has either name. Rows that all hold the id just before the rank (as ``json.dumps``
    writes them) are read in one pass. When the counts disagree the list is decoded whole.

    >>> ranking_in_snapshot_text(text='[{"participant_id": 7, "rank": 1, "values": {"SB": "1"}}, '
    ...                               '{"rank": 1, "values": {}, "participant_id": 76}]')
    {7: 1, 76: 1}
    >>> ranking_in_snapshot_text(
    ...     text='[{"participant_id":7,"rank":2},{"participant_id":8,"rank":1}]')
    {7: 2, 8: 1}
    """
    if _SNAPSHOT_ID_RANK.match(text, max(text.find('"participant_id"'), 0)):
        # the first row as json.dumps writes it (not PostgreSQL): every row in one pass
        pairs = _SNAPSHOT_ID_RANK.findall(text)
        if len(pairs) == text.count('"participant_id"'):
            return {int(pid): int(rank) for pid, rank in pairs}
    ids, ranks = _SNAPSHOT_ID.findall(text), _SNAPSHOT_RANK.findall(text)
    if len(ids) == len(ranks):
        return {int(pid): int(rank) for pid, rank in zip(ids, ranks, strict=True)}
    return {row["participant_id"]: row["rank"] for row in json.loads(text)}


def snapshot_texts(*, season_id: int) -> list[tuple[int, str]]:
    """(round number, rows as JSON text) of every stored snapshot of the season (one query)."""
    return list(
        StandingsSnapshot.objects.filter(season_id=season_id)
        .order_by("round_number")
        .values_list("round_number", Cast("rows", output_field=TextField()))
    )


def own_snapshot_rows(*, season_id: int, participant_id: int) -> list[tuple[int, dict[str, Any]]]:
    """(round number, his row) for every stored snapshot of the season that holds him, by round
    (one query): what :func:`own_snapshot_rows_decoded` gives, decoding only his row of each.

    Decoding every snapshot whole (40 rounds × 150 rows) took a quarter of the page's time, so
    each is read as text and :func:`row_in_snapshot_text` decodes the row that holds his id.
    """
    return own_rows_in_texts(
        texts=snapshot_texts(season_id=season_id), participant_id=participant_id
    )


def own_rows_in_texts(
    *, texts: list[tuple[int, str]], participant_id: int
) -> list[tuple[int, dict[str, Any]]]:
    """(round number, his row) of each of the snapshot ``texts`` that holds him."""
    own = []
    for round_number, text in texts:
        row = row_in_snapshot_text(text=text, participant_id=participant_id)
        if row is not None:
            own.append((round_number, row))
    return own


_DECODER = json.JSONDecoder()
_NUMBER_GOES_ON = frozenset("0123456789.eE")


def row_in_snapshot_text(*, text: str, participant_id: int) -> dict[str, Any] | None:
    """The first row of a snapshot's rows (a JSON list of objects, as text) whose
    ``participant_id`` is ``participant_id``, or None.

    His row is found by its text ``"participant_id": <id>`` (as ``json.dumps`` and PostgreSQL
    write it, first or last in the row): the row opens at the last ``[{`` or ``, {`` before it
    (the values in a row hold no such text) and is decoded alone, then checked. When that
    fails (text laid out otherwise) the list is decoded whole: the layout decides the time
    taken, never the result.

    >>> row_in_snapshot_text(text='[{"participant_id": 76, "rank": 2}, {"participant_id": 7, '
    ...                      '"rank": 1, "values": {"SB": "1"}}]', participant_id=7)
    {'participant_id': 7, 'rank': 1, 'values': {'SB': '1'}}
    >>> row_in_snapshot_text(
    ...     text='[{"rank": 2, "values": {}, "participant_id": 7}]', participant_id=7)
    {'rank': 2, 'values': {}, 'participant_id': 7}
    >>> row_in_snapshot_text(text='[{"participant_id":7,"rank":1}]', participant_id=7)
    {'participant_id': 7, 'rank': 1}
    >>> row_in_snapshot_text(text='[{"participant_id": 76, "rank": 1}]', participant_id=7) is None
    True
    """
    key = f'"participant_id": {participant_id}'
    at = text.find(key)
    while at != -1:
        after = at + len(key)
        if text[after : after + 1] not in _NUMBER_GOES_ON:  # not 76 when looking for 7
            start = max(text.rfind("[{", 0, at) + 1, text.rfind(", {", 0, at) + 2)
            row = _object_at(text, start)
            if row is not None and row.get("participant_id") == participant_id:
                return row
            break
        at = text.find(key, after)
    return next((row for row in json.loads(text) if row["participant_id"] == participant_id), None)


def _object_at(text: str, start: int) -> dict[str, Any] | None:
    if text[start : start + 1] != "{":
        return None
    try:
        value, _end = _DECODER.raw_decode(text, start)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def own_snapshot_rows_decoded(
    *, season_id: int, participant_id: int
) -> list[tuple[int, dict[str, Any]]]:
    """:func:`own_snapshot_rows` by decoding every snapshot (one query)."""
    own = []
    for snapshot in StandingsSnapshot.objects.filter(season_id=season_id).order_by("round_number"):
        for row in snapshot.rows:
            if row["participant_id"] == participant_id:
                own.append((snapshot.round_number, row))
                break
    return own
