"""Reading a FIDE Tournament Report File (the layout is described in
:mod:`competition.formats.trf`): :func:`parse_trf` validates the whole file (layout, codes,
both sides of every pairing) and raises :class:`FormatError` naming the line and column."""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from competition.formats.errors import FormatError, Term, refuse_repeat
from competition.formats.trf import (
    _ROUND_DATE,
    BYE_CODES,
    OVER_THE_BOARD_CODES,
    RESULT_CODES,
    TrfNationalRating,
    TrfPlayer,
    TrfRoundResult,
    TrfTournament,
    _round_of,
    parse_scoring,
    unwritable_character,
)
from competition.scoring.text import gettext_noop

_START_RANK_TWICE = gettext_noop("start rank %(rank)s appears twice (also line %(other)s)")

# The result each side of a game may show, as (code of one side, code of the other side).
_COMPLEMENT = {
    "1": "0",
    "0": "1",
    "=": "=",
    "W": "L",
    "L": "W",
    "D": "D",
    "+": "-",
    "": "",
}

# Records of TRF-2026 that are kept verbatim but not interpreted (teams, byes, accelerations,
# prohibited pairings, abnormal points, informative team records) and Tornelo's DAT lines.
_KEPT_RECORDS = frozenset(
    {"013", "240", "250", "260", "299", "300", "310", "320", "330", "801", "802", "DAT"}
)
_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?")


def parse_trf(text: str) -> TrfTournament:
    """Read and validate a whole TRF16/TRF-2026 file.

    Raises :class:`FormatError` (with line and, where it helps, column) for a short or
    misaligned line, an unknown result code, an opponent who does not exist, a player claimed
    by two opponents in one round, a pairing one side does not confirm, results or colours that
    contradict each other, a duplicate start rank, or an unknown record.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    tags: list[tuple[str, str]] = []
    round_dates: tuple[str, ...] = ()
    players: list[TrfPlayer] = []
    player_lines: dict[int, int] = {}  # start rank -> line number
    nationals: list[tuple[TrfNationalRating, int]] = []
    others: list[str] = []
    scoring_line: tuple[str, int] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line or line.startswith("###"):
            continue
        _check_characters(line, number)
        code = line[:3]
        if len(line) > 3 and line[3] != " ":
            raise FormatError(
                gettext_noop("expected a blank after record code %(code)s"),
                {"code": repr(code)},
                line=number,
                column=4,
            )
        if code == "001":
            player = _parse_player(line, number)
            refuse_repeat(
                player_lines, player.start_rank, _START_RANK_TWICE, "rank", line=number, column=5
            )
            players.append(player)
        elif code == "132":
            round_dates = _parse_round_dates(line, number)
        elif re.fullmatch(r"[0-9][0-9]2", code) or re.fullmatch(r"(XX|BB)[A-Z]", code):
            tags.append((code, line[4:]))
            if code == "162" and scoring_line is None:
                scoring_line = (line, number)
        elif code in _KEPT_RECORDS:
            others.append(line)
        elif re.fullmatch(r"[A-Z]{3}", code):
            nationals.append((_parse_national(line, number), number))
        else:
            raise FormatError(
                gettext_noop("unknown record %(code)s"), {"code": repr(code)}, line=number, column=1
            )
    if scoring_line is not None:
        parse_scoring(scoring_line[0][4:], line=scoring_line[1])
    for national, number in nationals:
        if national.start_rank not in player_lines:
            raise FormatError(
                gettext_noop(
                    "national rating record for start rank %(rank)s, which has no 001 record"
                ),
                {"rank": national.start_rank},
                line=number,
                column=5,
            )
    _check_pairings(players, player_lines)
    return TrfTournament(
        tags=tuple(tags),
        round_dates=round_dates,
        players=tuple(players),
        national_ratings=tuple(n for n, _ in nationals),
        other_lines=tuple(others),
        player_lines=tuple(player_lines[p.start_rank] for p in players),
    )


def _check_characters(line: str, number: int) -> None:
    if unwritable_character(line) is None:
        return
    for index, char in enumerate(line):
        if unwritable_character(char):
            raise FormatError(
                gettext_noop("unexpected control character %(char)s"),
                {"char": repr(char)},
                line=number,
                column=index + 1,
            )


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last`` (1-based, inclusive), stripped."""
    return line[first - 1 : last].strip()


def _blank_columns(line: str, number: int, columns: Sequence[int], what: str) -> None:
    """Refuse a character in a column that must be blank; ``what`` (the record, marked with
    ``gettext_noop``) names it in the message."""
    for column in columns:
        if column <= len(line) and line[column - 1] != " ":
            raise FormatError(
                gettext_noop(
                    "misaligned %(what)s: column %(column)s must be blank, found %(found)s"
                ),
                {"what": Term(what), "column": column, "found": repr(line[column - 1])},
                line=number,
                column=column,
            )


def _integer(line: str, number: int, first: int, last: int, what: str) -> int | None:
    """The number in columns ``first``..``last``, or None when they are blank; ``what`` (marked
    with ``gettext_noop``) names it in the message."""
    text = _field(line, first, last)
    if not text:
        return None
    if not text.isdigit() or not text.isascii():
        raise FormatError(
            gettext_noop("%(what)s must be a number, found %(found)s (columns %(first)s-%(last)s)"),
            {"what": Term(what), "found": repr(text), "first": first, "last": last},
            line=number,
            column=first,
        )
    return int(text)


def _start_rank(line: str, number: int) -> int:
    """The start rank of a player or national rating record (columns 5-8), 1 to 9999."""
    start_rank = _integer(line, number, 5, 8, gettext_noop("start rank"))
    if not start_rank:
        raise FormatError(
            gettext_noop("start rank must be 1 to 9999 (columns 5-8)"), line=number, column=5
        )
    return start_rank


def _person_fields(line: str) -> dict[str, str]:
    """The columns a national rating record keeps where the player record has them: sex (10),
    name (15-47) and birth date (70-79)."""
    return {
        "sex": _field(line, 10, 10),
        "name": _field(line, 15, 47),
        "birth": _field(line, 70, 79),
    }


def _parse_player(line: str, number: int) -> TrfPlayer:
    if len(line) < 84:
        raise FormatError(
            gettext_noop(
                "player record too short (%(length)s characters; points end at column 84)"
            ),
            {"length": len(line)},
            line=number,
            column=len(line) + 1,
        )
    _blank_columns(
        line, number, (9, 14, 48, 53, 57, 69, 80, 85, 90, 91), gettext_noop("player record")
    )
    start_rank = _start_rank(line, number)
    points_text = _field(line, 81, 84)
    if points_text and not _NUMBER.fullmatch(points_text):
        raise FormatError(
            gettext_noop("points must look like 11.5, found %(found)s (columns 81-84)"),
            {"found": repr(points_text)},
            line=number,
            column=81,
        )
    rounds: list[TrfRoundResult] = []
    for index, start in enumerate(range(89, len(line), 10)):
        rounds.append(_parse_round(line[start : start + 10].ljust(10), number, index + 1))
    return TrfPlayer(
        start_rank=start_rank,
        **_person_fields(line),
        title=_field(line, 11, 13),
        rating=_integer(line, number, 49, 52, gettext_noop("rating")),
        federation=_field(line, 54, 56),
        fide_id=_integer(line, number, 58, 68, gettext_noop("FIDE ID")),
        points=Fraction(points_text) if points_text else Fraction(0),
        rank=_integer(line, number, 86, 89, gettext_noop("rank")),
        rounds=tuple(rounds),
    )


def _parse_round(block: str, number: int, round_number: int) -> TrfRoundResult:
    """A 10-character round block: 2 blanks, opponent (4), blank, colour, blank, result."""
    base = 92 + 10 * (round_number - 1)  # column of the opponent field
    for offset in (-2, -1, 4, 6):
        char = block[offset + 2]
        if char != " ":
            raise FormatError(
                gettext_noop(
                    "misaligned round %(round)s: column %(column)s must be blank, found %(found)s "
                    "(round n starts at column 92 + 10(n-1))"
                ),
                {"round": round_number, "column": base + offset, "found": repr(char)},
                line=number,
                column=base + offset,
            )
    opponent_text = block[2:6].strip()
    if opponent_text and not (opponent_text.isdigit() and opponent_text.isascii()):
        raise FormatError(
            gettext_noop("round %(round)s: opponent must be a start rank, found %(found)s"),
            {"round": round_number, "found": repr(opponent_text)},
            line=number,
            column=base,
        )
    colour = block[7].lower()
    if colour == " ":
        colour = "-"
    if colour not in ("w", "b", "-"):
        raise FormatError(
            gettext_noop("round %(round)s: unknown colour %(found)s (expected w, b or -)"),
            {"round": round_number, "found": repr(block[7])},
            line=number,
            column=base + 5,
        )
    code = block[9].strip().upper()
    if code not in RESULT_CODES:
        raise FormatError(
            gettext_noop(
                "round %(round)s: unknown result code %(found)s "
                "(expected one of 1 = 0 + - W D L H F U Z or blank)"
            ),
            {"round": round_number, "found": repr(block[9])},
            line=number,
            column=base + 7,
        )
    opponent = int(opponent_text) if opponent_text else None
    return TrfRoundResult(opponent or None, colour, code)


def _parse_round_dates(line: str, number: int) -> tuple[str, ...]:
    if line[3:91].strip():
        raise FormatError(
            gettext_noop("round dates must start at column 92 (round n at 92 + 10(n-1))"),
            line=number,
            column=4 + len(line[3:91]) - len(line[3:91].lstrip()),
        )
    dates: list[str] = []
    for index, start in enumerate(range(91, len(line), 10)):
        text = line[start : start + 10].strip()
        if text and not _ROUND_DATE.fullmatch(text):
            raise FormatError(
                gettext_noop("round %(round)s: date %(found)s is not YY/MM/DD"),
                {"round": index + 1, "found": repr(text)},
                line=number,
                column=start + 1,
            )
        dates.append(text)
    while dates and not dates[-1]:
        dates.pop()
    return tuple(dates)


def _parse_national(line: str, number: int) -> TrfNationalRating:
    if len(line) < 8:
        raise FormatError(
            gettext_noop("national rating record too short (start rank at columns 5-8)"),
            line=number,
            column=len(line) + 1,
        )
    _blank_columns(line, number, (9, 14, 48, 53, 57, 69), gettext_noop("national rating record"))
    start_rank = _start_rank(line, number)
    if len(line) > 79:
        raise FormatError(
            gettext_noop("national rating record too long (it ends at column 79)"),
            line=number,
            column=80,
        )
    return TrfNationalRating(
        federation=line[:3],
        start_rank=start_rank,
        **_person_fields(line),
        classification=_field(line, 11, 13),
        rating=_integer(line, number, 49, 52, gettext_noop("national rating")),
        origin=_field(line, 54, 56),
        national_id=_field(line, 58, 68),
    )


def _check_pairings(players: Sequence[TrfPlayer], lines: dict[int, int]) -> None:
    """Both sides of every pairing must agree: opponent, colour and result."""
    by_rank = {p.start_rank: p for p in players}
    for player in players:
        for index, record in enumerate(player.rounds):
            _check_own_record(player, index + 1, record, by_rank, lines[player.start_rank])
    _check_paired_once(players, lines)
    for player in players:
        for round_number, record in enumerate(player.rounds, start=1):
            if record.opponent is not None:
                _check_both_sides(player, round_number, record, by_rank, lines)


def _check_paired_once(players: Sequence[TrfPlayer], lines: dict[int, int]) -> None:
    """No player is the opponent of two players in one round."""
    for round_number in range(1, max((len(p.rounds) for p in players), default=0) + 1):
        claimed: dict[int, int] = {}
        for player in players:
            opponent = _round_of(player, round_number).opponent
            if opponent is None:
                continue
            if opponent in claimed:
                raise FormatError(
                    gettext_noop(
                        "round %(round)s: player %(player)s is paired twice (by player %(first)s "
                        "and player %(second)s)"
                    ),
                    {
                        "round": round_number,
                        "player": opponent,
                        "first": claimed[opponent],
                        "second": player.start_rank,
                    },
                    line=lines[player.start_rank],
                    column=_column(round_number, 0),
                )
            claimed[opponent] = player.start_rank


def _check_both_sides(
    player: TrfPlayer,
    round_number: int,
    record: TrfRoundResult,
    by_rank: dict[int, TrfPlayer],
    lines: dict[int, int],
) -> None:
    """``player``'s record of a round with an opponent and the opponent's record agree:
    opponent, colour and result."""
    assert record.opponent is not None
    own_line = lines[player.start_rank]
    other = _round_of(by_rank[record.opponent], round_number)
    other_line = lines[record.opponent]
    if other.opponent != player.start_rank:
        if other.opponent is None:
            reason = gettext_noop(
                "round %(round)s: player %(player)s is paired with player %(opponent)s, "
                "but line %(other_line)s gives player %(opponent)s no opponent"
            )
        else:
            reason = gettext_noop(
                "round %(round)s: player %(player)s is paired with player %(opponent)s, "
                "but line %(other_line)s pairs player %(opponent)s with player %(says)s"
            )
        raise FormatError(
            reason,
            {
                "round": round_number,
                "player": player.start_rank,
                "opponent": record.opponent,
                "other_line": other_line,
                "says": other.opponent,
            },
            line=own_line,
            column=_column(round_number, 0),
        )
    if record.colour == other.colour:
        raise FormatError(
            gettext_noop(
                "round %(round)s: players %(player)s and %(opponent)s both have colour "
                "%(colour)s (line %(other_line)s)"
            ),
            {
                "round": round_number,
                "player": player.start_rank,
                "opponent": record.opponent,
                "colour": repr(record.colour),
                "other_line": other_line,
            },
            line=own_line,
            column=_column(round_number, 5),
        )
    if not _results_agree(record.code, other.code):
        raise FormatError(
            gettext_noop(
                "round %(round)s: result %(result)s of player %(player)s contradicts "
                "result %(other_result)s of player %(opponent)s (line %(other_line)s)"
            ),
            {
                "round": round_number,
                "result": repr(record.code or " "),
                "player": player.start_rank,
                "other_result": repr(other.code or " "),
                "opponent": record.opponent,
                "other_line": other_line,
            },
            line=own_line,
            column=_column(round_number, 7),
        )


def _results_agree(code: str, other: str) -> bool:
    if code == "-":  # a forfeit loss meets a forfeit win or a double forfeit
        return other in ("+", "-")
    return _COMPLEMENT.get(code) == other


def _check_own_record(
    player: TrfPlayer,
    round_number: int,
    record: TrfRoundResult,
    by_rank: dict[int, TrfPlayer],
    number: int,
) -> None:
    if record.opponent is None:
        if record.code in OVER_THE_BOARD_CODES:
            raise FormatError(
                gettext_noop("round %(round)s: result %(result)s is a game and needs an opponent"),
                {"round": round_number, "result": repr(record.code)},
                line=number,
                column=_column(round_number, 0),
            )
        if record.colour != "-":
            raise FormatError(
                gettext_noop("round %(round)s: colour %(colour)s without an opponent"),
                {"round": round_number, "colour": repr(record.colour)},
                line=number,
                column=_column(round_number, 5),
            )
        return
    if record.code in BYE_CODES:
        raise FormatError(
            gettext_noop("round %(round)s: result %(result)s is a bye and cannot have an opponent"),
            {"round": round_number, "result": repr(record.code)},
            line=number,
            column=_column(round_number, 7),
        )
    if record.opponent == player.start_rank:
        raise FormatError(
            gettext_noop("round %(round)s: player %(player)s is paired with himself"),
            {"round": round_number, "player": player.start_rank},
            line=number,
            column=_column(round_number, 0),
        )
    if record.opponent not in by_rank:
        raise FormatError(
            gettext_noop("round %(round)s: opponent %(opponent)s does not exist"),
            {"round": round_number, "opponent": record.opponent},
            line=number,
            column=_column(round_number, 0),
        )
    if record.colour == "-":
        raise FormatError(
            gettext_noop("round %(round)s: a pairing needs colour 'w' or 'b'"),
            {"round": round_number},
            line=number,
            column=_column(round_number, 5),
        )


def _column(round_number: int, offset: int) -> int:
    """Column of a round block's field: 0 opponent, 5 colour, 7 result."""
    return 92 + 10 * (round_number - 1) + offset
