"""FIDE Tournament Report Files (TRF16 and TRF-2026): reading, validating and writing.

A TRF is a fixed-width text file (FIDE Handbook C.04 Annex 2; TRF-2026 approved 12 May 2025).
Columns are 1-based as in the specification:

- tournament tags ``??2`` (``012`` name, ``022`` city, ..., ``142`` number of rounds, ``162``
  scoring, ``202`` tie-breaks), the ``132`` line with round dates at columns 92-99, 102-109, ...
  and the pairing-engine extensions ``XX?`` / ``BB?`` (``XXR`` rounds, ``XXC`` first colour);
- ``001`` player records: start rank 5-8, sex 10, title 11-13, name 15-47, rating 49-52,
  federation 54-56, FIDE ID 58-68, birth 70-79, points 81-84, rank 86-89, and round n at column
  92 + 10(n-1): opponent (4), colour at +5 (``w``/``b``/``-``), result code at +7;
- TRF-2026 National Rating Support records: the ``001`` static layout introduced by a federation
  code (``NED``) instead of ``001``, with the national number (the KNSB relatienummer) at 58-68.

:func:`competition.formats.trf_reader.parse_trf` validates the whole file (layout, codes, both
sides of every pairing) and raises :class:`FormatError` naming the line and column; this module
holds the tournament as read, its per-round view and the writer. :func:`tournament_rounds`
turns the player records into per-round games and entries in the project's vocabulary;
:func:`apply_rounds` is its inverse, and :func:`write_trf` writes a file ``parse_trf`` reads
back unchanged.
See ``docs/formats.md`` for the letter-by-letter mapping.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction

from competition.formats.errors import FormatError
from competition.scoring.text import Text, gettext_noop

RESULT_CODES = frozenset({"1", "=", "0", "+", "-", "W", "D", "L", "H", "F", "U", "Z", ""})
OVER_THE_BOARD_CODES = frozenset({"1", "=", "0"})  # need an opponent
BYE_CODES = frozenset({"H", "F", "U", "Z"})  # never have an opponent

_ROUND_DATE = re.compile(r"([0-9]{2}|[0-9]{4})[/.\-][0-9]{2}[/.\-][0-9]{2}")
_SCORING_ITEM = re.compile(r"([WDLAPX])\s*([0-9]+(?:\.[0-9]+)?)")
_SCORING = re.compile(r"\s*([WDLAPXwdlapx]\s*[0-9]+(\.[0-9]+)?\s*)*")

# Default points of TRF-2026 tag 162: W win/forfeit win/full-point bye, D draw/half-point bye,
# L loss, A absence (zero-point bye, forfeit loss), P pairing-allocated bye, X unknown result.
DEFAULT_SCORING: dict[str, Fraction] = {
    "W": Fraction(1),
    "D": Fraction(1, 2),
    "L": Fraction(0),
    "A": Fraction(0),
    "P": Fraction(1),
    "X": Fraction(1, 2),
}


@dataclass(frozen=True, slots=True)
class TrfRoundResult:
    """One round of a player record: opponent start rank (None for ``0000``), colour, code."""

    opponent: int | None
    colour: str = "-"  # "w", "b" or "-"
    code: str = ""  # one of RESULT_CODES, upper case; "" for a blank result


BLANK_ROUND = TrfRoundResult(None, "-", "")


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    """A ``001`` record."""

    start_rank: int
    name: str
    sex: str = ""
    title: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: int | None = None
    birth: str = ""  # as written, usually YYYY/MM/DD or YYYY
    points: Fraction = Fraction(0)
    rank: int | None = None
    rounds: tuple[TrfRoundResult, ...] = ()


@dataclass(frozen=True, slots=True)
class TrfNationalRating:
    """A TRF-2026 National Rating Support record, linked to a player by start rank."""

    federation: str  # the rating federation, e.g. "NED"
    start_rank: int
    sex: str = ""
    classification: str = ""
    name: str = ""
    rating: int | None = None
    origin: str = ""
    national_id: str = ""  # e.g. the KNSB relatienummer
    birth: str = ""


class _TagText:
    """A tournament's property read from its tags: the text of the first tag ``code``, trimmed,
    "" where the file has none (``TrfTournament.name`` is tag 012's)."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __get__(self, tournament: TrfTournament, owner: type[TrfTournament]) -> str:
        return (tournament.tag(self.code) or "").strip()


@dataclass(frozen=True, slots=True)
class TrfTournament:
    """A whole TRF: tags in file order, round dates, players, national ratings, kept records."""

    tags: tuple[tuple[str, str], ...] = ()  # (code, value) such as ("012", "Club Championship")
    round_dates: tuple[str, ...] = ()  # as written on the 132 line, "" where blank
    players: tuple[TrfPlayer, ...] = ()
    national_ratings: tuple[TrfNationalRating, ...] = ()
    other_lines: tuple[str, ...] = ()  # 013, 240, 250, 260, 299, 3xx, 8xx, DAT: kept, not read
    # the line of each player's 001 record, in the order of ``players`` (a file read: for
    # messages about a player; not part of the tournament's value)
    player_lines: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def tag(self, code: str) -> str | None:
        """The value of the first tag ``code``, or None."""
        for tag_code, value in self.tags:
            if tag_code == code:
                return value
        return None

    # The texts of the header's tags, trimmed ("" where the file has none).
    name = _TagText("012")
    city = _TagText("022")
    federation = _TagText("032")
    start_date = _TagText("042")
    end_date = _TagText("052")

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        """The tie-break codes of tag 202 (TRF-2026), e.g. ``("BH/C1", "SB")``."""
        value = self.tag("202") or ""
        return tuple(code.strip() for code in value.split(",") if code.strip())

    @property
    def number_of_rounds(self) -> int | None:
        """Tag 142 (TRF-2026), else JaVaFo's ``XXR``, else None."""
        for code in ("142", "XXR"):
            value = (self.tag(code) or "").strip()
            if value.isdigit():
                return int(value)
        return None

    @property
    def scoring(self) -> dict[str, Fraction]:
        """Points per result class from tag 162, defaults where absent (see DEFAULT_SCORING)."""
        return parse_scoring(self.tag("162") or "", line=None)

    @property
    def rounds_paired(self) -> int:
        """The number of round blocks in the longest player record."""
        return max((len(p.rounds) for p in self.players), default=0)

    def round_date(self, number: int) -> date | None:
        """Round ``number``'s date from the 132 line (YY/MM/DD is read as 20YY), or None."""
        if not 1 <= number <= len(self.round_dates):
            return None
        text = self.round_dates[number - 1]
        if not _ROUND_DATE.fullmatch(text):
            return None
        year, month, day = (int(part) for part in re.split(r"[/.\-]", text))
        try:
            return date(year + 2000 if year < 100 else year, month, day)
        except ValueError:
            return None


def unwritable_character(text: str) -> str | None:
    """The first character of ``text`` a TRF line cannot hold, as ``U+000A``, or None.

    TRF is UTF-8 text: format characters such as U+202E (right-to-left override) or U+200D
    (zero-width joiner) are kept, but control characters, surrogates and line or paragraph
    separators would break the fixed-width lines.
    """
    for char in text:
        if not char.isprintable() and unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp"):
            return f"U+{ord(char):04X}"
    return None


def parse_scoring(value: str, *, line: int | None) -> dict[str, Fraction]:
    """Tag 162: pairs of a result class letter (W D L A P X) and its points, e.g.
    ``" W 3.0    D 1.0    L 0.0"`` (letters at columns 6, 15, 24, ...; read by token, so a
    file that does not keep those columns exactly is read too)."""
    if not _SCORING.fullmatch(value):
        raise FormatError(
            gettext_noop(
                "scoring (tag 162) %(found)s is not letters W D L A P X each followed by points "
                "like 1.0"
            ),
            {"found": repr(value.strip())},
            line=line,
            column=5,
        )
    explicit = {letter: Fraction(points) for letter, points in _SCORING_ITEM.findall(value.upper())}
    scoring = dict(DEFAULT_SCORING)
    scoring.update(explicit)
    # TRF-2026: P (pairing-allocated bye) defaults to W, X (unknown result) to D.
    if "P" not in explicit:
        scoring["P"] = scoring["W"]
    if "X" not in explicit:
        scoring["X"] = scoring["D"]
    return scoring


# --- per-round view ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairedGame:
    """A game between two start ranks; ``result`` in the project's vocabulary."""

    white: int
    black: int
    result: str  # "1-0", "1/2", "0-1", "+-", "-+", "--", or "" (paired, no result yet)


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """A start rank's round without a game; ``kind`` in the project's vocabulary."""

    start_rank: int
    kind: str  # "bye", "absent_notice", "absent_no_notice", "not_paired"
    points: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class RoundPairings:
    number: int
    games: tuple[PairedGame, ...] = ()
    entries: tuple[RoundEntry, ...] = ()


# White's code -> result; "-" depends on black's code ("+" or "-").
_GAME_RESULT = {"1": "1-0", "W": "1-0", "=": "1/2", "D": "1/2", "0": "0-1", "L": "0-1"}
_GAME_RESULT.update({"+": "+-", "": ""})
_RESULT_CODES_OUT = {  # result -> (white's code, black's code)
    "1-0": ("1", "0"),
    "1/2": ("=", "="),
    "0-1": ("0", "1"),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
    "--": ("-", "-"),
    "": ("", ""),
}


def _entry_for(code: str, scoring: dict[str, Fraction], *, paired: bool) -> tuple[str, Fraction]:
    """The entry kind and points of a round without an opponent (see docs/formats.md).

    TRF16 makes a blank result equivalent to ``Z``, and ``0000 - -`` (a forfeit without an
    opponent) is how many programs write a player they did not pair: all three are the
    zero-point bye, ``absent_notice`` with the absence points, which the engine categorises
    as a requested bye, and as C.07 16.2.5 when only such rounds follow (a withdrawal, C.07
    16.1.1). Only in a round nobody is paired in yet (``paired`` false: a file written for
    the pairing of that round) is a blank no record at all.
    """
    if code == "U":
        return "bye", scoring["P"]
    if code in ("F", "+", "W"):
        return "bye", scoring["W"]
    if code in ("H", "D"):
        return "absent_notice", scoring["D"]
    if code == "" and not paired:
        return "not_paired", Fraction(0)
    return "absent_notice", scoring["A"]  # Z, "-", L or blank: the zero-point bye


def tournament_rounds(t: TrfTournament) -> list[RoundPairings]:
    """Rounds 1..``t.rounds_paired`` as games (white's view) and entries, by start rank.

    Every player appears exactly once per round: in a game, or in an entry. A blank round, a
    record that stops before the round and ``0000 - -`` are the zero-point bye
    (``absent_notice``, see :func:`_entry_for`), except in a round without any game, where a
    blank is ``not_paired`` (no record).
    """
    scoring = t.scoring
    by_rank = {p.start_rank: p for p in t.players}
    result: list[RoundPairings] = []
    for number in range(1, t.rounds_paired + 1):
        games: list[PairedGame] = []
        entries: list[RoundEntry] = []
        paired = any(_round_of(p, number).opponent is not None for p in t.players)
        for rank in sorted(by_rank):
            record = _round_of(by_rank[rank], number)
            if record.opponent is None:
                kind, points = _entry_for(record.code, scoring, paired=paired)
                entries.append(RoundEntry(rank, kind, points))
            elif record.colour == "w":
                black_code = _round_of(by_rank[record.opponent], number).code
                outcome = "--" if (record.code, black_code) == ("-", "-") else None
                if outcome is None:
                    outcome = "-+" if record.code == "-" else _GAME_RESULT[record.code]
                games.append(PairedGame(rank, record.opponent, outcome))
        result.append(RoundPairings(number, tuple(games), tuple(entries)))
    return result


_GAME_POINTS = {  # result -> (white's class, black's class) in tag 162's letters
    "1-0": ("W", "L"),
    "1/2": ("D", "D"),
    "0-1": ("L", "W"),
    "+-": ("W", "A"),
    "-+": ("A", "W"),
    "--": ("A", "A"),
}


def points_disagreements(t: TrfTournament) -> list[Text]:
    """A warning for every player whose points column (81-84) differs from what his rounds
    give under tag 162 (games, forfeits and byes; a game without a result gives nothing).

    Not an error: programs add acceleration points (records 250) or keep points of rounds
    cut from the file. Example: ``start rank 1 (Anna): the points column (81-84) says 2.0,
    but the rounds give 1 point``. A warning is an English template plus values, translated
    where it is shown (``competition.presentation.labels.text_label``).
    """
    scoring = t.scoring
    totals = {p.start_rank: Fraction(0) for p in t.players}
    for rnd in tournament_rounds(t):
        for game in rnd.games:
            if game.result:
                white, black = _GAME_POINTS[game.result]
                totals[game.white] += scoring[white]
                totals[game.black] += scoring[black]
        for entry in rnd.entries:
            totals[entry.start_rank] += entry.points
    accelerated = any(line.startswith("250") for line in t.other_lines)
    warnings = []
    for player in t.players:
        total = totals[player.start_rank]
        if total != player.points:
            template = (
                gettext_noop(
                    "start rank %(rank)s (%(name)s): the points column (81-84) says %(says)s, "
                    "but the rounds give %(total)s point"
                )
                if total == 1
                else gettext_noop(
                    "start rank %(rank)s (%(name)s): the points column (81-84) says %(says)s, "
                    "but the rounds give %(total)s points"
                )
            )
            warning = Text(
                template,
                {
                    "rank": player.start_rank,
                    "name": player.name,
                    "says": _points_text(player.points).strip(),
                    "total": _number_text(total),
                },
            )
            if accelerated:
                warning = Text(
                    gettext_noop("%(warning)s (the acceleration records 250 may explain it)"),
                    {"warning": warning},
                )
            warnings.append(warning)
    return warnings


@dataclass(frozen=True, slots=True)
class PointsRange:
    """What a player's rounds give under tag 162 (``total``), and the least and most points
    the column 81-84 can hold when the program that wrote it scored the rounds without a game
    over the board differently (``most`` None: acceleration records make the column's points
    unbounded from above)."""

    total: Fraction
    least: Fraction
    most: Fraction | None


def points_ranges(t: TrfTournament) -> dict[int, PointsRange]:
    """Per start rank, what the rounds give and what the points column can explain.

    A game over the board, a forfeit and a double forfeit score what tag 162 gives them, as
    both sides' codes say. A round without a game (a bye of any kind, a blank, a record that
    stops early), a paired game without a result yet, and a round the tournament has (tag 142
    or XXR) but the file does not, may have been scored anything from nothing to the most a
    round gives (the highest value of tag 162): TRF16 reads a blank as a zero-point bye, but
    programs also write blanks for rounds they scored, and a file may leave out rounds.

    >>> record = "001    1      " + "Anna".ljust(33) + " 1800" + " " * 28 + " 2.5    1"
    >>> points_ranges(parse_trf(record + "  0000 - U"))[1]  # a bye: 1 point, or 0 to 1
    PointsRange(total=Fraction(1, 1), least=Fraction(0, 1), most=Fraction(1, 1))
    """
    scoring = t.scoring
    most_per_round = max(scoring.values())
    totals = {p.start_rank: Fraction(0) for p in t.players}
    open_points = {p.start_rank: Fraction(0) for p in t.players}  # given to rounds without a game
    open_rounds = {p.start_rank: 0 for p in t.players}
    rounds = tournament_rounds(t)
    for rnd in rounds:
        for game in rnd.games:
            if game.result:
                white, black = _GAME_POINTS[game.result]
                totals[game.white] += scoring[white]
                totals[game.black] += scoring[black]
            else:
                open_rounds[game.white] += 1
                open_rounds[game.black] += 1
        for entry in rnd.entries:
            totals[entry.start_rank] += entry.points
            open_points[entry.start_rank] += entry.points
            open_rounds[entry.start_rank] += 1
    missing = max(0, (t.number_of_rounds or 0) - len(rounds))
    accelerated = any(line.startswith("250") for line in t.other_lines)
    ranges = {}
    for player in t.players:
        rank = player.start_rank
        total = totals[rank]
        most = total - open_points[rank] + (open_rounds[rank] + missing) * most_per_round
        ranges[rank] = PointsRange(total, total - open_points[rank], None if accelerated else most)
    return ranges


def check_points_column(t: TrfTournament) -> None:
    """Refuse a points column (81-84) that the rounds cannot explain (:func:`points_ranges`),
    naming the line and both numbers: ``line 2, column 81: start rank 1 (Anna): the points
    column (81-84) says 99.0, but the rounds give 1 point, and at most 1 with every unplayed
    round scored in full``. A column within the range that still differs from the rounds is a
    warning (:func:`points_disagreements`)."""
    ranges = points_ranges(t)
    for index, player in enumerate(t.players):
        bounds = ranges[player.start_rank]
        values = {
            "rank": player.start_rank,
            "name": player.name,
            "says": _points_text(player.points).strip(),
            "total": _number_text(bounds.total),
        }
        one = bounds.total == 1
        if bounds.most is not None and player.points > bounds.most:
            template = (
                gettext_noop(
                    "start rank %(rank)s (%(name)s): the points column (81-84) says %(says)s, "
                    "but the rounds give %(total)s point, and at most %(most)s with every "
                    "unplayed round scored in full"
                )
                if one
                else gettext_noop(
                    "start rank %(rank)s (%(name)s): the points column (81-84) says %(says)s, "
                    "but the rounds give %(total)s points, and at most %(most)s with every "
                    "unplayed round scored in full"
                )
            )
            values["most"] = _number_text(bounds.most)
        elif player.points < bounds.least:
            template = (
                gettext_noop(
                    "start rank %(rank)s (%(name)s): the points column (81-84) says %(says)s, "
                    "but the rounds give %(total)s point, and at least %(least)s with every "
                    "unplayed round scored as nothing"
                )
                if one
                else gettext_noop(
                    "start rank %(rank)s (%(name)s): the points column (81-84) says %(says)s, "
                    "but the rounds give %(total)s points, and at least %(least)s with every "
                    "unplayed round scored as nothing"
                )
            )
            values["least"] = _number_text(bounds.least)
        else:
            continue
        line = t.player_lines[index] if index < len(t.player_lines) else None
        raise FormatError(template, values, line=line, column=None if line is None else 81)


def _number_text(value: Fraction) -> str:
    """``1``, ``1.5``, ``2.25``; a fraction without a short decimal as ``7/3``."""
    for decimals in range(3):
        scaled = value * 10**decimals
        if scaled.denominator == 1:
            return format(Decimal(scaled.numerator).scaleb(-decimals), "f")
    return str(value)


def apply_rounds(t: TrfTournament, rounds: Sequence[RoundPairings]) -> TrfTournament:
    """``t`` with every player's round blocks rebuilt from ``rounds`` (the inverse of
    :func:`tournament_rounds`). Points and ranks are left as they are.

    Byes are written ``U`` (one per round, worth the 162 ``P`` value) or ``F`` (worth ``W``);
    ``absent_notice`` with the draw value ``H``, with the absence value ``Z``; ``club_duty``,
    which TRF lacks, is written ``H``/``Z``/``F`` by its points and reads back as an absence
    with notice or a bye. Raises ValueError for anything TRF cannot express.
    """
    scoring = t.scoring
    known = {p.start_rank for p in t.players}
    blocks: dict[int, list[TrfRoundResult]] = {rank: [] for rank in known}
    for position, rnd in enumerate(rounds, start=1):
        if rnd.number != position:
            raise ValueError(f"rounds must be numbered 1, 2, ...; got {rnd.number} at {position}")
        this_round = _round_blocks(rnd, known, scoring)
        for rank in known:
            blocks[rank].append(this_round.get(rank, BLANK_ROUND))
    players = tuple(replace(p, rounds=tuple(blocks[p.start_rank])) for p in t.players)
    return replace(t, players=players)


def _round_blocks(
    rnd: RoundPairings, known: set[int], scoring: dict[str, Fraction]
) -> dict[int, TrfRoundResult]:
    """Each start rank's block for one round (players missing from it are left out)."""
    blocks: dict[int, TrfRoundResult] = {}

    def put(rank: int, record: TrfRoundResult) -> None:
        if rank not in known:
            raise ValueError(f"round {rnd.number}: unknown start rank {rank}")
        if rank in blocks:
            raise ValueError(f"round {rnd.number}: start rank {rank} appears twice")
        blocks[rank] = record

    for game in rnd.games:
        if game.result not in _RESULT_CODES_OUT:
            raise ValueError(f"round {rnd.number}: unknown result {game.result!r}")
        white_code, black_code = _RESULT_CODES_OUT[game.result]
        put(game.white, TrfRoundResult(game.black, "w", white_code))
        put(game.black, TrfRoundResult(game.white, "b", black_code))
    pairing_bye_written = False
    for entry in rnd.entries:
        code = _code_for(entry, scoring, pairing_bye_written)
        pairing_bye_written = pairing_bye_written or code == "U"
        put(entry.start_rank, TrfRoundResult(None, "-", code))
    return blocks


def _code_for(entry: RoundEntry, scoring: dict[str, Fraction], pab_written: bool) -> str:
    kind, points = entry.kind, entry.points
    if kind == "not_paired" and points == 0:
        return ""
    if kind == "bye":
        if points == scoring["P"] and not pab_written:
            return "U"
        if points == scoring["W"]:
            return "F"
    if kind in ("absent_notice", "club_duty"):
        if points == scoring["D"]:
            return "H"
        if points == scoring["A"]:
            return "Z"
        if kind == "club_duty" and points == scoring["W"]:
            return "F"
    if kind == "absent_no_notice" and points == scoring["A"]:
        return "-"
    raise ValueError(
        f"start rank {entry.start_rank}: TRF cannot express {kind!r} with {points} points"
    )


def _round_of(player: TrfPlayer, number: int) -> TrfRoundResult:
    return player.rounds[number - 1] if number <= len(player.rounds) else BLANK_ROUND


# --- writing -------------------------------------------------------------------------------


def write_trf(t: TrfTournament, *, national_ratings: bool = False, newline: str = "\n") -> str:
    """The TRF text of ``t``: tags in order, the 132 line, ``001`` records, then (if asked)
    the national rating records and the kept records. ``parse_trf(write_trf(t)) == t``.

    TRF-2026 asks for tag 172 when national rating records are present; put it in ``t.tags``.
    Names longer than 33 characters are cut. Raises ValueError for a value that does not fit
    its columns (a rating above 9999, a start rank above 9999, a 4-character title, ...).
    """
    lines = [f"{code} {value}".rstrip() for code, value in t.tags]
    if t.round_dates:
        lines.append(("132" + " " * 88 + "".join(f"{d:<10}" for d in t.round_dates)).rstrip())
    for player in t.players:
        lines.append(_player_line(player))
    if national_ratings:
        for national in t.national_ratings:
            lines.append(_national_line(national))
    lines.extend(t.other_lines)
    named: list[TrfPlayer | TrfNationalRating] = [*t.players, *t.national_ratings]
    for record in named:
        unwritable = unwritable_character(record.name)
        if unwritable:
            raise ValueError(
                f"start rank {record.start_rank}: the name {record.name!r} contains the "
                f"control character {unwritable}"
            )
    for line in lines:
        unwritable = unwritable_character(line)
        if unwritable:
            raise ValueError(f"control character {unwritable} in {line!r}")
    return newline.join(lines) + newline


def _fit(value: str, width: int, what: str, *, right: bool = False, cut: bool = False) -> str:
    if cut:
        value = value[:width]
    if len(value) > width:
        raise ValueError(f"{what} {value!r} is longer than {width} characters")
    return value.rjust(width) if right else value.ljust(width)


def _number(value: int | None, width: int, what: str) -> str:
    if value is None:
        return " " * width
    return _fit(str(value), width, what, right=True)


def _points_text(points: Fraction) -> str:
    for decimals in (1, 2):
        scaled = points * 10**decimals
        if scaled.denominator == 1 and points >= 0:
            whole, fraction = divmod(int(scaled), 10**decimals)
            return _fit(f"{whole}.{fraction:0{decimals}d}", 4, "points", right=True)
    raise ValueError(f"points {points} cannot be written in columns 81-84")


def _static_part(
    code: str,
    start_rank: int,
    sex: str,
    title: str,
    name: str,
    rating: int | None,
    federation: str,
    number: str,
    birth: str,
) -> str:
    if not 1 <= start_rank <= 9999:
        raise ValueError(f"start rank {start_rank} is not 1 to 9999")
    return " ".join(
        (
            code,
            f"{start_rank:>4}",
            _fit(sex, 1, "sex") + _fit(title, 3, "title", right=True),
            _fit(name, 33, "name", cut=True),
            _number(rating, 4, "rating"),
            _fit(federation, 3, "federation"),
            _fit(number, 11, "identification number", right=True),
            _fit(birth, 10, "birth date"),
        )
    )


def _player_line(player: TrfPlayer) -> str:
    fide_id = "" if player.fide_id is None else str(player.fide_id)
    line = _static_part(
        "001",
        player.start_rank,
        player.sex,
        player.title,
        player.name,
        player.rating,
        player.federation,
        fide_id,
        player.birth,
    )
    line += " " + _points_text(player.points) + " " + _number(player.rank, 4, "rank")
    for record in player.rounds:
        opponent = "0000" if record.opponent is None else _number(record.opponent, 4, "opponent")
        if record.colour not in ("w", "b", "-") or record.code not in RESULT_CODES:
            raise ValueError(f"start rank {player.start_rank}: cannot write {record}")
        line += f"  {opponent} {record.colour} {record.code or ' '}"
    return line.rstrip()


def _national_line(national: TrfNationalRating) -> str:
    if not re.fullmatch(r"[A-Z]{3}", national.federation) or national.federation in ("DAT",):
        raise ValueError(f"national rating federation {national.federation!r} is not a code")
    return _static_part(
        national.federation,
        national.start_rank,
        national.sex,
        national.classification,
        national.name,
        national.rating,
        national.origin,
        national.national_id,
        national.birth,
    ).rstrip()
