"""Import and export: the database on one side, the pure readers and writers of
:mod:`competition.formats` on the other.

Every importer reads and validates the whole file first (``FormatError`` from the reader, a
:class:`~competition.services.errors.ServiceError` for what only the database can judge, such as
a season slug that is taken), and only then writes, in one transaction. A dry run performs the
very same writes and rolls them back, so its counts are exactly what the real run would do.

Exports: :func:`standings_document` (the JSON contract of ``manage.py standings``, with exact
numbers), :func:`season_trf` (TRF16 plus TRF-2026 national rating lines) and
:func:`season_archive_text` (the canonical season archive). Imports: :func:`trf_import`,
:func:`archive_import` and :func:`ratings_import`. docs/commands.md describes the commands.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.text import slugify

from competition.exact import fraction_to_decimal, fraction_to_text, is_terminating
from competition.formats import archive as fa
from competition.formats import ratings as fr
from competition.formats import trf as ft
from competition.formats.errors import FormatError
from competition.models import (
    Club,
    Game,
    Member,
    Participant,
    Round,
    RoundEntry,
    Season,
    SeasonRules,
)
from competition.scoring import model as scoring
from competition.scoring.engine import standings_after
from competition.scoring.parameters import ParameterError, ParameterKind, parameters_to_json
from competition.scoring.registry import UnknownSystemError, get_system
from competition.scoring.tiebreaks import UNPLAYED_POLICIES, validate_tiebreaks
from competition.services.errors import ServiceError
from competition.services.standings import season_input, standings_recompute

__all__ = [
    "DECIMAL_PLACES",
    "FormatError",
    "ImportReport",
    "RatingsReport",
    "archive_import",
    "club_for_import",
    "decode_text",
    "exact_json",
    "ratings_import",
    "season_archive",
    "season_archive_text",
    "season_trf",
    "standings_csv",
    "standings_document",
    "standings_table",
    "trf_import",
]

# A figure without a finite decimal expansion (1/3) is written rounded half away from zero to
# this many decimals in the standings JSON/CSV/table; everything else is written exactly.
DECIMAL_PLACES = 10


class _DryRun(Exception):
    """Raised inside the import transaction to roll a dry run back."""


# --- exact numbers ---------------------------------------------------------------------------


def exact_number(value: Fraction | int | Decimal) -> Decimal:
    """The decimal to write for ``value``: exact when it terminates, else rounded.

    >>> exact_number(Fraction(233, 4))
    Decimal('58.25')
    >>> exact_number(Fraction(1, 3))
    Decimal('0.3333333333')
    >>> exact_number(Fraction(2, 3))
    Decimal('0.6666666667')
    """
    value = Fraction(value)
    if is_terminating(value):
        return fraction_to_decimal(value)
    quantum = Decimal(1).scaleb(-DECIMAL_PLACES)
    rounded = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        quantum, rounding=ROUND_HALF_UP
    )
    # Decimal division carries 28 significant digits, enough for 10 decimals below 10^17.
    return rounded.normalize()


def _number_text(value: Decimal) -> str:
    return format(value, "f")


def exact_json(value: Any, indent: int = 2, _level: int = 0) -> str:
    """JSON text in which every :class:`~decimal.Decimal` is written verbatim as a number.

    ``json`` would turn 58.25 into a float first; here ``Decimal("58.25")`` becomes ``58.25``
    and ``Decimal("10")`` becomes ``10``.

    >>> exact_json({"score": Decimal("58.25"), "ok": True}, indent=0)
    '{"score": 58.25, "ok": true}'
    """
    import json

    pad = "\n" + " " * (indent * (_level + 1)) if indent else ""
    end = "\n" + " " * (indent * _level) if indent else ""
    sep = "," if indent else ", "
    if isinstance(value, Decimal):
        return _number_text(value)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        items = [
            f"{pad}{json.dumps(str(key), ensure_ascii=False)}: "
            f"{exact_json(item, indent, _level + 1)}"
            for key, item in value.items()
        ]
        return "{" + sep.join(items) + end + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        items = [f"{pad}{exact_json(item, indent, _level + 1)}" for item in value]
        return "[" + sep.join(items) + end + "]"
    if isinstance(value, Fraction):
        return _number_text(exact_number(value))
    if isinstance(value, float):
        raise TypeError("floats are not exact; pass a Decimal or Fraction")
    return json.dumps(value, ensure_ascii=False)


# --- standings -------------------------------------------------------------------------------


def _completed_rounds(season: Season) -> int:
    return Round.objects.filter(season=season, status=Round.Status.COMPLETED).count()


def standings_document(*, season: Season, after_round: int | None = None) -> dict[str, Any]:
    """The standings as the ``standings --format json`` contract (numbers as Decimals).

    ``after_round`` defaults to the last completed round; 0 gives the standings before round 1.
    """
    engine_input = season_input(season)
    completed = len(engine_input.rounds)
    if after_round is None:
        after_round = completed
    if not 0 <= after_round <= completed:
        raise ServiceError(
            f"{season.slug} has {completed} completed rounds; "
            f"cannot show the standings after round {after_round}."
        )
    standings = standings_after(engine_input, after_round)
    participants = {p.id: p for p in engine_input.participants}
    return {
        "season": season.slug,
        "system": season.system,
        "unplayed": season.unplayed_policy,
        "after_round": after_round,
        "tiebreaks": list(engine_input.tiebreaks),
        "standings": [
            {
                "rank": row.rank,
                "start_number": participants[row.participant_id].start_rank,
                "name": participants[row.participant_id].name,
                "points": exact_number(row.game_points),
                "score": exact_number(row.score),
                "values": {code: exact_number(v) for code, v in row.values.items()},
                "games": row.games_played,
                "eligible": row.eligible,
            }
            for row in standings.rows
        ],
    }


def _value_codes(document: Mapping[str, Any]) -> list[str]:
    codes: list[str] = []
    for row in document["standings"]:
        for code in row["values"]:
            if code not in codes:
                codes.append(code)
    return codes


def standings_csv(document: Mapping[str, Any]) -> str:
    """The standings as CSV: one header row, numbers with a decimal point, exact."""
    codes = _value_codes(document)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["rank", "start_number", "name", "points", "score", *codes, "games", "eligible"]
    )
    for row in document["standings"]:
        writer.writerow(
            [
                row["rank"],
                "" if row["start_number"] is None else row["start_number"],
                row["name"],
                _number_text(row["points"]),
                _number_text(row["score"]),
                *(_number_text(row["values"][c]) if c in row["values"] else "" for c in codes),
                row["games"],
                "yes" if row["eligible"] else "no",
            ]
        )
    return out.getvalue()


def standings_table(document: Mapping[str, Any]) -> str:
    """The standings as a plain-text table for a terminal."""
    codes = _value_codes(document)
    header = ["#", "Nr", "Name", "Pts", "Score", *codes, "G", "Elig"]
    rows = [
        [
            str(row["rank"]),
            "" if row["start_number"] is None else str(row["start_number"]),
            row["name"],
            _number_text(row["points"]),
            _number_text(row["score"]),
            *(_number_text(row["values"][c]) if c in row["values"] else "" for c in codes),
            str(row["games"]),
            "yes" if row["eligible"] else "no",
        ]
        for row in document["standings"]
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [f"{document['season']} · {document['system']} · after round {document['after_round']}"]
    for cells in [header, *rows]:
        lines.append(
            "  ".join(
                cell.ljust(widths[i]) if i == 2 else cell.rjust(widths[i])
                for i, cell in enumerate(cells)
            ).rstrip()
        )
    return "\n".join(lines) + "\n"


# --- shared helpers for imports --------------------------------------------------------------


@dataclass
class ImportReport:
    """What an import did (or, for a dry run, would do)."""

    season_slug: str = ""
    club_slug: str = ""
    dry_run: bool = False
    members_created: int = 0
    members_matched: int = 0
    participants: int = 0
    rounds: int = 0
    games: int = 0
    entries: int = 0
    corrections: int = 0
    warnings: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "members_created": self.members_created,
            "members_matched": self.members_matched,
            "participants": self.participants,
            "rounds": self.rounds,
            "games": self.games,
            "entries": self.entries,
            "corrections": self.corrections,
        }


def decode_text(data: bytes | str) -> str:
    """File bytes as text: UTF-8 (with or without BOM), else Windows-1252.

    UTF-16 (a BOM or NUL bytes) and bytes that are neither are refused with the line number.
    """
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data[:4096]:
        raise FormatError("the file is UTF-16; save it as UTF-8 text", line=1)
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise FormatError(
            f"byte 0x{data[error.start]:02x} is neither UTF-8 nor Windows-1252 text",
            line=line,
            column=column,
        ) from None


def club_for_import(*, club_slug: str | None, create_name: str | None = None) -> Club | None:
    """The club an import goes to: ``club_slug``, else the only club.

    With no club at all, returns None when ``create_name`` is given (the caller creates it),
    else refuses. Several clubs and no slug: refused, naming them.
    """
    if club_slug:
        club = Club.objects.filter(slug=club_slug).first()
        if club is None:
            raise ServiceError(f"There is no club with slug {club_slug!r}.")
        return club
    clubs = list(Club.objects.order_by("slug")[:20])
    if len(clubs) == 1:
        return clubs[0]
    if not clubs:
        if create_name is not None:
            return None
        raise ServiceError("The database holds no club yet; create one first.")
    raise ServiceError(
        "There are several clubs; choose one with --club: " + ", ".join(c.slug for c in clubs) + "."
    )


def _run_import(dry_run: bool, write: Any) -> Any:
    """Run ``write()`` in one transaction; roll it back for a dry run."""
    result: Any = None
    try:
        with transaction.atomic():
            result = write()
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    except IntegrityError as error:
        raise ServiceError(f"The database refused the import: {error}") from None
    return result


def _parse_date(text: str) -> datetime.date | None:
    """A TRF date written YYYY/MM/DD, YY/MM/DD, DD.MM.YYYY or YYYY-MM-DD, else None."""
    text = text.strip()
    for pattern in ("%Y/%m/%d", "%y/%m/%d", "%d.%m.%Y", "%Y-%m-%d", "%d/%m/%Y", "%Y.%m.%d"):
        try:
            return datetime.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def _entry_points(value: Fraction, what: str) -> Decimal:
    """Points as the one-decimal database field holds them, refused when they do not fit."""
    scaled = value * 10
    if scaled.denominator != 1 or not 0 <= value < 100:
        raise ServiceError(f"{what}: {value} points cannot be stored (one decimal, 0 to 99.9).")
    return Decimal(int(scaled)).scaleb(-1)


def _validated_rules(
    *,
    system: str,
    tiebreaks: Sequence[str],
    unplayed: str,
    parameters: Mapping[str, object],
) -> tuple[dict[str, object], tuple[str, ...]]:
    try:
        ranking = get_system(system)
    except UnknownSystemError as error:
        raise ServiceError(str(error)) from None
    if unplayed not in UNPLAYED_POLICIES:
        raise ServiceError(
            f"Unknown unplayed policy {unplayed!r}; known: {', '.join(UNPLAYED_POLICIES)}."
        )
    try:
        codes = validate_tiebreaks(tiebreaks)
        values = ranking.validate(parameters)
    except (ValueError, ParameterError) as error:
        raise ServiceError(str(error)) from None
    # Store only what was asked for; defaults stay implicit as in a season made by hand.
    return parameters_to_json({k: v for k, v in values.items() if k in parameters}), codes


def parse_parameters(pairs: Iterable[str]) -> dict[str, str]:
    """``["factor=0.07", "games_per_reset=14"]`` as a mapping; a pair without ``=`` is refused."""
    result: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ServiceError(f"--param needs NAME=VALUE, found {pair!r}.")
        result[name.strip()] = value.strip()
    return result


def _member_matcher(club: Club | None) -> tuple[dict[str, Member], dict[int, Member], dict]:
    if club is None:
        return {}, {}, {}
    members = list(Member.objects.filter(club=club))
    by_knsb = {m.knsb_id: m for m in members if m.knsb_id}
    by_fide = {m.fide_id: m for m in members if m.fide_id is not None}
    by_name: dict[str, list[Member]] = {}
    for m in members:
        by_name.setdefault(m.name.casefold(), []).append(m)
    return by_knsb, by_fide, by_name


def _match_member(
    matcher: tuple[dict[str, Member], dict[int, Member], dict],
    *,
    name: str,
    knsb_id: str,
    fide_id: int | None,
) -> Member | None:
    """The club's member with this relatienummer, else FIDE ID, else (unique) name."""
    by_knsb, by_fide, by_name = matcher
    if knsb_id and knsb_id in by_knsb:
        return by_knsb[knsb_id]
    if fide_id is not None and fide_id in by_fide:
        return by_fide[fide_id]
    candidates = [
        m
        for m in by_name.get(name.casefold(), [])
        if (not knsb_id or not m.knsb_id) and (fide_id is None or m.fide_id is None)
    ]
    return candidates[0] if len(candidates) == 1 else None


# --- TRF export ------------------------------------------------------------------------------


def _start_numbers(participants: Sequence[Participant]) -> dict[int, int]:
    """Participant id -> TRF start rank: the season's start numbers, when complete and unique."""
    ranks = [p.start_rank for p in participants]
    if all(r is not None for r in ranks) and len(set(ranks)) == len(ranks):
        return {p.id: p.start_rank for p in participants}  # type: ignore[misc]
    ordered = sorted(
        participants, key=lambda p: (p.start_rank is None, p.start_rank or 0, p.member.name, p.id)
    )
    return {p.id: number for number, p in enumerate(ordered, start=1)}


def season_trf(*, season: Season) -> str:
    """The season as a TRF16 file, with TRF-2026 national rating lines (``NED``) carrying the
    KNSB relatienummer of members who have one.

    Rounds with games or entries are written; a round whose games have no result yet has blank
    results. Points (columns 81-84) are the game points including entry points; the rank is the
    season's own rank after the last completed round. Boards are not part of TRF.
    """
    participants = list(
        Participant.objects.filter(season=season).select_related("member").order_by("id")
    )
    numbers = _start_numbers(participants)
    rounds = list(Round.objects.filter(season=season).order_by("number"))
    games_by_round: dict[int, list[Game]] = {r.id: [] for r in rounds}
    for game in Game.objects.filter(round__season=season).order_by("board"):
        games_by_round[game.round_id].append(game)
    entries_by_round: dict[int, list[RoundEntry]] = {r.id: [] for r in rounds}
    for entry in RoundEntry.objects.filter(round__season=season).order_by("participant_id"):
        entries_by_round[entry.round_id].append(entry)
    while rounds and not games_by_round[rounds[-1].id] and not entries_by_round[rounds[-1].id]:
        rounds.pop()

    points: dict[int, Fraction] = {p.id: Fraction(0) for p in participants}
    pairings: list[ft.RoundPairings] = []
    for position, rnd in enumerate(rounds, start=1):
        games = []
        for game in games_by_round[rnd.id]:
            result = scoring.Result(game.result)
            points[game.white_id] += result.white_points
            points[game.black_id] += result.black_points
            games.append(ft.PairedGame(numbers[game.white_id], numbers[game.black_id], game.result))
        entries = []
        for entry in entries_by_round[rnd.id]:
            points[entry.participant_id] += Fraction(entry.points)
            entries.append(
                ft.RoundEntry(numbers[entry.participant_id], entry.kind, Fraction(entry.points))
            )
        pairings.append(ft.RoundPairings(position, tuple(games), tuple(entries)))

    ranks: dict[int, int] = {}
    engine_input = season_input(season)
    if engine_input.rounds:
        final = standings_after(engine_input, len(engine_input.rounds))
        ranks = {row.participant_id: row.rank for row in final.rows}

    players = []
    nationals = []
    for p in sorted(participants, key=lambda p: numbers[p.id]):
        member = p.member
        players.append(
            ft.TrfPlayer(
                start_rank=numbers[p.id],
                name=member.name,
                rating=member.rating,
                fide_id=member.fide_id,
                birth=str(member.birth_year) if member.birth_year else "",
                points=points[p.id],
                rank=ranks.get(p.id),
            )
        )
        if member.knsb_id:
            nationals.append(
                ft.TrfNationalRating(
                    federation="NED",
                    start_rank=numbers[p.id],
                    name=member.name,
                    rating=member.rating,
                    national_id=member.knsb_id,
                    birth=str(member.birth_year) if member.birth_year else "",
                )
            )
    tags: list[tuple[str, str]] = [("012", season.name)]
    if season.start_date:
        tags.append(("042", season.start_date.strftime("%Y/%m/%d")))
    if season.end_date:
        tags.append(("052", season.end_date.strftime("%Y/%m/%d")))
    tags.append(("062", str(len(participants))))
    tags.append(("142", str(len(rounds))))
    if Fraction(season.bye_points) != 1:
        tags.append(("162", f"W 1.0 D 0.5 L 0.0 A 0.0 P {_trf_points(season.bye_points)}"))
    if nationals:
        tags.append(("172", "NED"))
    if season.tiebreaks:
        tags.append(("202", ",".join(season.tiebreaks)))
    tournament = ft.TrfTournament(
        tags=tuple(tags),
        round_dates=tuple(r.date.strftime("%y/%m/%d") for r in rounds),
        players=tuple(players),
        national_ratings=tuple(nationals),
    )
    try:
        tournament = ft.apply_rounds(tournament, pairings)
        return ft.write_trf(tournament, national_ratings=bool(nationals))
    except ValueError as error:
        raise ServiceError(f"This season cannot be written as TRF: {error}") from None


def _trf_points(value: Decimal) -> str:
    return format(Decimal(value).quantize(Decimal("0.1")), "f")


# --- TRF import ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _TrfPlan:
    tournament: ft.TrfTournament
    rounds: list[ft.RoundPairings]
    club: Club | None
    club_name: str
    season_slug: str
    season_name: str
    system: str
    parameters: dict[str, object]
    tiebreaks: tuple[str, ...]
    unplayed: str
    round_robin: bool
    min_games: int
    bye_points: Decimal
    members: dict[int, Member | None]  # start rank -> matched member (None: create)
    nationals: dict[int, ft.TrfNationalRating]
    warnings: tuple[str, ...]


def _tiebreaks_from_file(codes: Sequence[str]) -> tuple[tuple[str, ...], list[str]]:
    known: list[str] = []
    warnings: list[str] = []
    for code in codes:
        try:
            known.extend(validate_tiebreaks([code]))
        except ValueError:
            warnings.append(f"tie-break {code!r} of tag 202 is not known here and was left out")
    return tuple(known), warnings


def _plan_trf(
    *,
    data: bytes | str,
    club_slug: str | None,
    season_slug: str | None,
    system: str,
    tiebreaks: Sequence[str] | None,
    unplayed: str,
    parameters: Mapping[str, object],
    round_robin: bool,
    min_games: int,
) -> _TrfPlan:
    tournament = ft.parse_trf(decode_text(data))
    if not tournament.players:
        raise FormatError("the file has no player records (001)")
    rounds = ft.tournament_rounds(tournament)
    warnings: list[str] = []
    if tiebreaks is None:
        tiebreaks, warnings = _tiebreaks_from_file(tournament.tiebreaks)
    stored_parameters, codes = _validated_rules(
        system=system, tiebreaks=tiebreaks, unplayed=unplayed, parameters=parameters
    )
    name = tournament.name or "TRF import"
    club = club_for_import(club_slug=club_slug, create_name=name)
    slug = season_slug or slugify(name)[:50] or "trf-import"
    if Season.objects.filter(slug=slug).exists():
        raise ServiceError(
            f"A season with slug {slug!r} already exists; choose another with --season-slug."
        )
    scoring_points = tournament.scoring
    bye_points = _entry_points(scoring_points["P"], "tag 162 (pairing-allocated bye)")
    for rnd in rounds:
        for entry in rnd.entries:
            _entry_points(entry.points, f"round {rnd.number}, start rank {entry.start_rank}")
    nationals = {n.start_rank: n for n in tournament.national_ratings}
    matcher = _member_matcher(club)
    members: dict[int, Member | None] = {}
    taken: dict[int, int] = {}
    for player in tournament.players:
        national = nationals.get(player.start_rank)
        knsb_id = national.national_id.strip() if national else ""
        member = _match_member(matcher, name=player.name, knsb_id=knsb_id, fide_id=player.fide_id)
        if member is not None:
            if member.pk in taken:
                raise ServiceError(
                    f"Start ranks {taken[member.pk]} and {player.start_rank} are both "
                    f"the club member {member.name}."
                )
            taken[member.pk] = player.start_rank
        members[player.start_rank] = member
    _refuse_duplicate_ids(tournament, nationals)
    return _TrfPlan(
        tournament=tournament,
        rounds=rounds,
        club=club,
        club_name=name,
        season_slug=slug,
        season_name=name,
        system=system,
        parameters=stored_parameters,
        tiebreaks=codes,
        unplayed=unplayed,
        round_robin=round_robin,
        min_games=min_games,
        bye_points=bye_points,
        members=members,
        nationals=nationals,
        warnings=tuple(warnings),
    )


def _refuse_duplicate_ids(
    tournament: ft.TrfTournament, nationals: Mapping[int, ft.TrfNationalRating]
) -> None:
    seen_fide: dict[int, int] = {}
    seen_knsb: dict[str, int] = {}
    for player in tournament.players:
        if player.fide_id is not None:
            if player.fide_id in seen_fide:
                raise ServiceError(
                    f"Start ranks {seen_fide[player.fide_id]} and {player.start_rank} have the "
                    f"same FIDE ID {player.fide_id}."
                )
            seen_fide[player.fide_id] = player.start_rank
        national = nationals.get(player.start_rank)
        knsb_id = national.national_id.strip() if national else ""
        if knsb_id:
            if knsb_id in seen_knsb:
                raise ServiceError(
                    f"Start ranks {seen_knsb[knsb_id]} and {player.start_rank} have the same "
                    f"relatienummer {knsb_id}."
                )
            seen_knsb[knsb_id] = player.start_rank


def trf_import(
    *,
    data: bytes | str,
    club_slug: str | None = None,
    season_slug: str | None = None,
    system: str = "points",
    tiebreaks: Sequence[str] | None = None,
    unplayed: str = "fide-2024",
    parameters: Mapping[str, object] | None = None,
    round_robin: bool = False,
    min_games: int = 0,
    dry_run: bool = False,
) -> ImportReport:
    """A TRF16/TRF-2026 file as a new season of the club, standings computed.

    Participants get the TRF start rank as start number; members are matched by relatienummer
    (TRF-2026 national record), FIDE ID or name and created when new. A round whose games all
    have results is completed; a blank round of a player is no entry (not paired). Without
    ``tiebreaks`` the file's tag 202 is used, unknown codes left out with a warning.
    Raises ``FormatError`` (file) or ``ServiceError`` (database) before writing anything.
    """
    plan = _plan_trf(
        data=data,
        club_slug=club_slug,
        season_slug=season_slug,
        system=system,
        tiebreaks=tiebreaks,
        unplayed=unplayed,
        parameters=parameters or {},
        round_robin=round_robin,
        min_games=min_games,
    )
    return _run_import(dry_run, lambda: _write_trf(plan, dry_run))


def _write_trf(plan: _TrfPlan, dry_run: bool) -> ImportReport:
    t = plan.tournament
    report = ImportReport(season_slug=plan.season_slug, dry_run=dry_run)
    report.warnings.extend(plan.warnings)
    club = plan.club
    if club is None:
        club = Club.objects.create(name=plan.club_name[:120], slug=slugify(plan.club_name)[:50])
    report.club_slug = club.slug
    start = _parse_date(t.start_date)
    end = _parse_date(t.end_date)
    if start and end and end < start:
        end = None
    season = Season.objects.create(
        club=club,
        name=plan.season_name[:120],
        slug=plan.season_slug,
        start_date=start,
        end_date=end,
        kind=Season.Kind.ROUND_ROBIN if plan.round_robin else Season.Kind.LADDER,
        system=plan.system,
        parameters=plan.parameters,
        tiebreaks=list(plan.tiebreaks),
        unplayed_policy=plan.unplayed,
        min_games=plan.min_games,
        bye_points=plan.bye_points,
    )
    SeasonRules.objects.create(
        season=season,
        version=1,
        system=plan.system,
        parameters=plan.parameters,
        tiebreaks=list(plan.tiebreaks),
        unplayed_policy=plan.unplayed,
        min_games=plan.min_games,
    )
    participant_of: dict[int, Participant] = {}
    for player in sorted(t.players, key=lambda p: p.start_rank):
        member = plan.members[player.start_rank]
        if member is None:
            national = plan.nationals.get(player.start_rank)
            birth = player.birth.strip()[:4]
            member = Member.objects.create(
                club=club,
                name=player.name[:120],
                knsb_id=(national.national_id.strip() if national else "")[:12],
                fide_id=player.fide_id,
                rating=player.rating,
                birth_year=int(birth) if birth.isdigit() and int(birth) > 0 else None,
            )
            report.members_created += 1
        else:
            report.members_matched += 1
        participant_of[player.start_rank] = Participant.objects.create(
            season=season, member=member, start_rank=player.start_rank
        )
        report.participants += 1
    for rnd in plan.rounds:
        date = t.round_date(rnd.number)
        if date is None:
            date = (start + datetime.timedelta(weeks=rnd.number - 1)) if start else None
        complete = all(game.result != "" for game in rnd.games)
        db_round = Round.objects.create(
            season=season,
            number=rnd.number,
            date=date or timezone.localdate(),
            status=Round.Status.COMPLETED if complete else Round.Status.PAIRED,
        )
        report.rounds += 1
        for board, game in enumerate(rnd.games, start=1):
            Game.objects.create(
                round=db_round,
                board=board,
                white=participant_of[game.white],
                black=participant_of[game.black],
                result=game.result,
            )
            report.games += 1
        for entry in rnd.entries:
            if entry.kind == RoundEntry.Kind.NOT_PAIRED and entry.points == 0:
                continue  # a blank round: no record, which the engine reads as not paired
            RoundEntry.objects.create(
                round=db_round,
                participant=participant_of[entry.start_rank],
                kind=entry.kind,
                points=_entry_points(entry.points, "entry"),
            )
            report.entries += 1
    standings_recompute(season=season)
    return report


# --- season archive: export ------------------------------------------------------------------


def _parameters_out(stored: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
    """A season's stored parameters as the archive's exact strings (``"0.07"``, ``"true"``)."""
    out = []
    for name, value in stored.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int):
            text = str(value)
        elif isinstance(value, str) and re.fullmatch(r"[+-]?\d+(/\d+|\.\d+)?", value):
            text = fraction_to_text(Fraction(value))
        else:
            text = str(value)
        out.append((name, text))
    return tuple(sorted(out))


def _parameters_in(system: str, pairs: Sequence[tuple[str, str]], path: str) -> dict[str, object]:
    """Archive parameters as the database stores them (``parameters_to_json``: ``"7/100"``)."""
    try:
        ranking = get_system(system)
    except UnknownSystemError as error:
        raise FormatError(str(error), path=f"{path}.system") from None
    specs = {spec.name: spec for spec in ranking.parameters}
    raw: dict[str, object] = {}
    for name, text in pairs:
        spec = specs.get(name)
        if spec is None:
            raise FormatError(f"unknown parameter of {system}", path=f"{path}.parameters.{name}")
        if spec.kind is ParameterKind.BOOL:
            if text not in ("true", "false"):
                raise FormatError("expected 'true' or 'false'", path=f"{path}.parameters.{name}")
            raw[name] = text == "true"
        else:
            raw[name] = text
    try:
        values = ranking.validate(raw)
    except ParameterError as error:
        raise FormatError(str(error), path=f"{path}.parameters") from None
    return parameters_to_json({k: v for k, v in values.items() if k in raw})


def _relatienummer(knsb_id: str) -> int | None:
    text = knsb_id.strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def _decimal_text(value: Decimal | None) -> str | None:
    """A stored decimal as the archive's exact string: ``Decimal("199.0000")`` → ``"199"``."""
    return None if value is None else fraction_to_text(Fraction(value))


def _usernames(user_ids: Iterable[int | None]) -> dict[int, str]:
    """The username of every user id given (one query); ids of deleted users are left out."""
    wanted = {pk for pk in user_ids if pk is not None}
    if not wanted:
        return {}
    user_model = get_user_model()
    return {user.pk: user.get_username() for user in user_model.objects.filter(pk__in=wanted)}


def _history_rows(model: Any, live_ids: Iterable[int], round_ids: Sequence[int]) -> list[Any]:
    """Every simple-history row of the season's live rows and of its deleted rows, in
    recording order. A deleted row is found by a history row naming one of the season's
    rounds and an id no live row has any more."""
    live = set(live_ids)
    deleted = set(
        model.history.filter(round_id__in=round_ids)
        .exclude(id__in=model.objects.values("id"))
        .values_list("id", flat=True)
    )
    return list(model.history.filter(id__in=live | deleted).order_by("history_date", "history_id"))


def _archive_ids(rows: Sequence[Any], live: Mapping[int, int], start: int) -> dict[int, int]:
    """Archive ids of the history's objects: a live row's own, a deleted row the next free one
    (``start``, ``start + 1``, ...) in order of its first history record."""
    ids = dict(live)
    for record in rows:
        if record.id not in ids:
            ids[record.id] = start
            start += 1
    return ids


def season_archive(*, season: Season) -> fa.SeasonArchive:
    """Everything of ``season`` as the archive's dataclasses, with archive-local ids.

    Participants are numbered 1, 2, ... by (start number, name, database id) and members with
    their participant's number; games 1, 2, ... by (round, board), then deleted games in order
    of their first history record; entries likewise by (round, participant). An archive
    loaded into an empty database numbers everything the same way again.
    """
    season = Season.objects.select_related("club").get(pk=season.pk)
    participants = sorted(
        Participant.objects.filter(season=season).select_related("member"),
        key=lambda p: (p.start_rank is None, p.start_rank or 0, p.member.name, p.id),
    )
    pid = {p.id: index for index, p in enumerate(participants, start=1)}
    rounds = list(Round.objects.filter(season=season).order_by("number"))
    round_number = {r.id: r.number for r in rounds}
    games = sorted(
        Game.objects.filter(round__season=season),
        key=lambda g: (round_number[g.round_id], g.board),
    )
    entries = sorted(
        RoundEntry.objects.filter(round__season=season),
        key=lambda e: (round_number[e.round_id], pid[e.participant_id]),
    )
    rule_rows = list(SeasonRules.objects.filter(season=season).order_by("version"))
    round_ids = [r.id for r in rounds]
    game_rows = _history_rows(Game, (g.id for g in games), round_ids)
    entry_rows = _history_rows(RoundEntry, (e.id for e in entries), round_ids)
    gid = _archive_ids(game_rows, {g.id: n for n, g in enumerate(games, start=1)}, len(games) + 1)
    eid = _archive_ids(
        entry_rows, {e.id: n for n, e in enumerate(entries, start=1)}, len(entries) + 1
    )
    names = _usernames(
        [r.changed_by_id for r in rule_rows]
        + [row.updated_by_id for row in (*games, *entries, *game_rows, *entry_rows)]
        + [row.history_user_id for row in (*game_rows, *entry_rows)]
    )

    def user(pk: int | None) -> str | None:
        return None if pk is None else names.get(pk)

    def participant(pk: int | None) -> int | None:
        return None if pk is None else pid.get(pk)

    def round_of(pk: int | None) -> int | None:
        return None if pk is None else round_number.get(pk)

    by_round_games: dict[int, list[fa.ArchiveGame]] = {r.id: [] for r in rounds}
    for g in games:
        by_round_games[g.round_id].append(
            fa.ArchiveGame(
                id=gid[g.id],
                board=g.board,
                white=pid[g.white_id],
                black=pid[g.black_id],
                result=g.result,
                version=g.version,
                updated_by=user(g.updated_by_id),
                updated_at=g.updated_at,
                fixed_by_td=g.fixed_by_td,
            )
        )
    by_round_entries: dict[int, list[fa.ArchiveEntry]] = {r.id: [] for r in rounds}
    for e in entries:
        by_round_entries[e.round_id].append(
            fa.ArchiveEntry(
                id=eid[e.id],
                participant=pid[e.participant_id],
                kind=e.kind,
                points=fraction_to_text(Fraction(e.points)),
                note=e.note,
                updated_by=user(e.updated_by_id),
                updated_at=e.updated_at,
                fixed_by_td=e.fixed_by_td,
            )
        )
    game_history = tuple(
        fa.ArchiveGameRecord(
            game=gid[h.id],
            history_date=h.history_date,
            history_type=h.history_type,
            history_user=user(h.history_user_id),
            history_change_reason=h.history_change_reason,
            round=round_of(h.round_id),
            board=h.board,
            white=participant(h.white_id),
            black=participant(h.black_id),
            result=h.result,
            version=h.version,
            updated_by=user(h.updated_by_id),
            updated_at=h.updated_at,
            fixed_by_td=h.fixed_by_td,
        )
        for h in game_rows
    )
    entry_history = tuple(
        fa.ArchiveEntryRecord(
            entry=eid[h.id],
            history_date=h.history_date,
            history_type=h.history_type,
            history_user=user(h.history_user_id),
            history_change_reason=h.history_change_reason,
            round=round_of(h.round_id),
            participant=participant(h.participant_id),
            kind=h.kind,
            points=fraction_to_text(Fraction(h.points)),
            note=h.note,
            updated_by=user(h.updated_by_id),
            updated_at=h.updated_at,
            fixed_by_td=h.fixed_by_td,
        )
        for h in entry_rows
    )
    return fa.SeasonArchive(
        club=fa.ArchiveClub(season.club.name, season.club.slug),
        season=fa.ArchiveSeason(
            name=season.name,
            slug=season.slug,
            start_date=season.start_date,
            end_date=season.end_date,
            kind=season.kind,
            system=season.system,
            parameters=_parameters_out(season.parameters),
            tiebreaks=tuple(season.tiebreaks),
            unplayed_policy=season.unplayed_policy,
            min_games=season.min_games,
            bye_points=fraction_to_text(Fraction(season.bye_points)),
            rematch_window=season.rematch_window,
            status=season.status,
            rules_version=season.rules_version,
        ),
        members=tuple(
            fa.ArchiveMember(
                id=pid[p.id],
                name=p.member.name,
                knsb_relatienummer=p.member.knsb_id or None,
                fide_id=p.member.fide_id,
                rating=p.member.rating,
                rating_date=p.member.rating_date,
                birth_year=p.member.birth_year,
                active=p.member.active,
            )
            for p in participants
        ),
        rule_sets=tuple(
            fa.ArchiveRuleSet(
                version=r.version,
                valid_from=r.valid_from,
                system=r.system,
                parameters=_parameters_out(r.parameters),
                tiebreaks=tuple(r.tiebreaks),
                unplayed_policy=r.unplayed_policy,
                min_games=r.min_games,
                changed_by=user(r.changed_by_id),
            )
            for r in rule_rows
        ),
        participants=tuple(
            fa.ArchiveParticipant(
                id=pid[p.id],
                member=pid[p.id],
                start_rank=p.start_rank,
                start_points=_decimal_text(p.start_points),
                initial_value=_decimal_text(p.initial_value),
                joined_round=p.joined_round,
            )
            for p in participants
        ),
        rounds=tuple(
            fa.ArchiveRound(
                number=r.number,
                date=r.date,
                status=r.status,
                games=tuple(by_round_games[r.id]),
                entries=tuple(by_round_entries[r.id]),
            )
            for r in rounds
        ),
        game_history=game_history,
        entry_history=entry_history,
    )


def season_archive_text(*, season: Season) -> str:
    """The canonical archive text of ``season`` (``export_season``)."""
    return fa.dump_archive(season_archive(season=season))


# --- season archive: import ------------------------------------------------------------------


def _check_decimal(
    text: str | None, path: str, *, model: Any, field: str, minimum: Decimal | None = None
) -> None:
    """Refuse a decimal the database column cannot hold exactly (too many places or digits)."""
    if text is None:
        return
    column = model._meta.get_field(field)
    value = Decimal(text)
    places = -min(0, int(value.normalize().as_tuple().exponent))
    limit = Decimal(10) ** (column.max_digits - column.decimal_places)
    if places > column.decimal_places or abs(value) >= limit:
        plural = "" if column.decimal_places == 1 else "s"
        raise FormatError(
            f"{field} must have at most {column.decimal_places} decimal{plural} and lie "
            f"below {limit}, found {text}",
            path=path,
        )
    if minimum is not None and value < minimum:
        raise FormatError(f"must be at least {minimum}, found {text}", path=path)


def _check_length(text: str | None, path: str, *, model: Any, field: str) -> None:
    limit = model._meta.get_field(field).max_length
    if text is not None and len(text) > limit:
        raise FormatError(f"longer than {limit} characters", path=path)


def _check_rules(system: str, tiebreaks: Sequence[str], unplayed: str, path: str) -> None:
    if unplayed not in UNPLAYED_POLICIES:
        raise FormatError(f"unknown policy {unplayed!r}", path=f"{path}.unplayed_policy")
    try:
        validate_tiebreaks(tiebreaks)
    except ValueError as error:
        raise FormatError(str(error), path=f"{path}.tiebreaks") from None


def _plan_archive(text: str) -> tuple[fa.SeasonArchive, dict[str, dict[str, object]]]:
    """The archive read and checked against everything the database will refuse."""
    archive = fa.load_archive(text)
    if Season.objects.filter(slug=archive.season.slug).exists():
        raise ServiceError(
            f"A season with slug {archive.season.slug!r} already exists; "
            "nothing was imported (delete or rename that season first)."
        )
    season = archive.season
    user_model = get_user_model()
    username_field = user_model.USERNAME_FIELD
    lengths: list[tuple[str | None, str, Any, str]] = [
        (archive.club.name, "club.name", Club, "name"),
        (archive.club.slug, "club.slug", Club, "slug"),
        (season.name, "season.name", Season, "name"),
        (season.slug, "season.slug", Season, "slug"),
    ]
    if season.start_date and season.end_date and season.end_date < season.start_date:
        raise FormatError("the season cannot end before it starts", path="season.end_date")
    _check_rules(season.system, season.tiebreaks, season.unplayed_policy, "season")
    _check_decimal(
        season.bye_points, "season.bye_points", model=Season, field="bye_points", minimum=Decimal(0)
    )
    parameters = {"season": _parameters_in(season.system, season.parameters, "season")}
    for index, rules in enumerate(archive.rule_sets):
        path = f"rule_sets[{index}]"
        parameters[path] = _parameters_in(rules.system, rules.parameters, path)
        _check_rules(rules.system, rules.tiebreaks, rules.unplayed_policy, path)
        lengths.append((rules.changed_by, f"{path}.changed_by", user_model, username_field))
    for index, m in enumerate(archive.members):
        lengths.append((m.name, f"members[{index}].name", Member, "name"))
        lengths.append(
            (m.knsb_relatienummer, f"members[{index}].knsb_relatienummer", Member, "knsb_id")
        )
    for index, p in enumerate(archive.participants):
        for name in ("start_points", "initial_value"):
            _check_decimal(
                getattr(p, name), f"participants[{index}].{name}", model=Participant, field=name
            )
    for index, rnd in enumerate(archive.rounds):
        for j, game in enumerate(rnd.games):
            path = f"rounds[{index}].games[{j}]"
            lengths.append((game.updated_by, f"{path}.updated_by", user_model, username_field))
        for j, entry in enumerate(rnd.entries):
            path = f"rounds[{index}].entries[{j}]"
            _check_decimal(
                entry.points, f"{path}.points", model=RoundEntry, field="points", minimum=Decimal(0)
            )
            lengths.append((entry.note, f"{path}.note", RoundEntry, "note"))
            lengths.append((entry.updated_by, f"{path}.updated_by", user_model, username_field))
    for key, records in (("games", archive.game_history), ("entries", archive.entry_history)):
        for index, h in enumerate(records):
            path = f"history.{key}[{index}]"
            model = Game.history.model if key == "games" else RoundEntry.history.model
            lengths.append((h.history_user, f"{path}.history_user", user_model, username_field))
            lengths.append((h.updated_by, f"{path}.updated_by", user_model, username_field))
            lengths.append(
                (
                    h.history_change_reason,
                    f"{path}.history_change_reason",
                    model,
                    "history_change_reason",
                )
            )
            if isinstance(h, fa.ArchiveEntryRecord):
                _check_decimal(
                    h.points, f"{path}.points", model=RoundEntry, field="points", minimum=Decimal(0)
                )
                lengths.append((h.note, f"{path}.note", RoundEntry, "note"))
    for text_value, path, model, name in lengths:
        _check_length(text_value, path, model=model, field=name)
    return archive, parameters


def archive_import(*, data: bytes | str, dry_run: bool = False) -> ImportReport:
    """A season archive as a new season; its club is matched by slug or created.

    Members are matched in the club by relatienummer, FIDE ID or name and created when new
    (a matched member keeps his own data). Games, entries and their simple-history rows are
    written as they are in the archive, with their dates, users and reasons; a user name that
    does not exist is created as an inactive account without a usable password, so that the
    names stay. Refuses a season slug that exists.
    """
    archive, parameters = _plan_archive(decode_text(data))
    return _run_import(dry_run, lambda: _write_archive(archive, parameters, dry_run))


def _history_user(username: str | None, cache: dict[str, Any]) -> Any:
    if not username:
        return None
    if username not in cache:
        user_model = get_user_model()
        user = user_model.objects.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is None:
            user = user_model(**{user_model.USERNAME_FIELD: username}, is_active=False)
            user.set_unusable_password()
            user.save()
        cache[username] = user
    return cache[username]


def _deleted_ids(model: Any, archive_ids: Iterable[int], live: Mapping[int, int]) -> dict[int, int]:
    """Database ids for objects that exist only in the history (deleted games or entries):
    negative (below every id in the history table), so that they can never be taken for the
    history of a live row or of a row created later."""
    lowest = model.history.aggregate(lowest=Min("id"))["lowest"]
    next_id = min(0, lowest or 0) - 1
    ids: dict[int, int] = {}
    for archive_id in archive_ids:
        if archive_id not in live and archive_id not in ids:
            ids[archive_id] = next_id
            next_id -= 1
    return ids


def _write_archive(
    archive: fa.SeasonArchive, parameters: Mapping[str, Mapping[str, object]], dry_run: bool
) -> ImportReport:
    a = archive.season
    report = ImportReport(season_slug=a.slug, club_slug=archive.club.slug, dry_run=dry_run)
    users: dict[str, Any] = {}

    def user_id(username: str | None) -> int | None:
        user = _history_user(username, users)
        return None if user is None else user.pk

    club = Club.objects.filter(slug=archive.club.slug).first()
    if club is None:
        club = Club.objects.create(name=archive.club.name, slug=archive.club.slug)
    season = Season.objects.create(
        club=club,
        name=a.name,
        slug=a.slug,
        start_date=a.start_date,
        end_date=a.end_date,
        kind=a.kind,
        system=a.system,
        parameters=dict(parameters["season"]),
        tiebreaks=list(a.tiebreaks),
        unplayed_policy=a.unplayed_policy,
        min_games=a.min_games,
        bye_points=Decimal(a.bye_points),
        rematch_window=a.rematch_window,
        status=a.status,
        rules_version=a.rules_version,
    )
    for index, rules in enumerate(archive.rule_sets):
        SeasonRules.objects.create(
            season=season,
            version=rules.version,
            valid_from=rules.valid_from,
            system=rules.system,
            parameters=dict(parameters[f"rule_sets[{index}]"]),
            tiebreaks=list(rules.tiebreaks),
            unplayed_policy=rules.unplayed_policy,
            min_games=rules.min_games,
            changed_by_id=user_id(rules.changed_by),
        )
    matcher = _member_matcher(club)
    member_of: dict[int, Member] = {}
    used: set[int] = set()
    for m in sorted(archive.members, key=lambda m: m.id):
        knsb_id = m.knsb_relatienummer or ""
        member = _match_member(matcher, name=m.name, knsb_id=knsb_id, fide_id=m.fide_id)
        if member is None or member.pk in used:
            member = Member.objects.create(
                club=club,
                name=m.name,
                knsb_id=knsb_id,
                fide_id=m.fide_id,
                rating=m.rating,
                rating_date=m.rating_date,
                birth_year=m.birth_year,
                active=m.active,
            )
            report.members_created += 1
        else:
            report.members_matched += 1
        used.add(member.pk)
        member_of[m.id] = member
    participant_of: dict[int, Participant] = {}
    for p in sorted(archive.participants, key=lambda p: p.id):
        participant_of[p.id] = Participant.objects.create(
            season=season,
            member=member_of[p.member],
            start_rank=p.start_rank,
            start_points=None if p.start_points is None else Decimal(p.start_points),
            initial_value=None if p.initial_value is None else Decimal(p.initial_value),
            joined_round=p.joined_round,
        )
        report.participants += 1
    round_of: dict[int, Round] = {}
    games: list[tuple[Game, fa.ArchiveGame]] = []
    entries: list[tuple[RoundEntry, fa.ArchiveEntry]] = []
    for r in sorted(archive.rounds, key=lambda r: r.number):
        db_round = round_of[r.number] = Round.objects.create(
            season=season, number=r.number, date=r.date, status=r.status
        )
        report.rounds += 1
        for g in sorted(r.games, key=lambda g: g.board):
            game = Game(
                round=db_round,
                board=g.board,
                white=participant_of[g.white],
                black=participant_of[g.black],
                result=g.result,
                version=g.version,
                updated_by_id=user_id(g.updated_by),
                fixed_by_td=g.fixed_by_td,
            )
            games.append((game, g))
        for e in sorted(r.entries, key=lambda e: e.participant):
            entry = RoundEntry(
                round=db_round,
                participant=participant_of[e.participant],
                kind=e.kind,
                points=Decimal(e.points),
                note=e.note,
                updated_by_id=user_id(e.updated_by),
                fixed_by_td=e.fixed_by_td,
            )
            entries.append((entry, e))
    # bulk_create writes no history row of its own (the history is the archive's); it does
    # set updated_at to now (auto_now), so the archive's moment is written afterwards.
    for model, pairs in ((Game, games), (RoundEntry, entries)):
        rows = model.objects.bulk_create([row for row, _ in pairs])
        for row, (_, item) in zip(rows, pairs, strict=True):
            if item.updated_at is not None:
                row.updated_at = item.updated_at
        model.objects.bulk_update(rows, ["updated_at"])
    report.games, report.entries = len(games), len(entries)

    def round_id(number: int | None) -> int | None:
        return None if number is None else round_of[number].pk

    def participant_id(number: int | None) -> int | None:
        return None if number is None else participant_of[number].pk

    live_games = {item.id: row.pk for row, item in games}
    game_ids = live_games | _deleted_ids(Game, (h.game for h in archive.game_history), live_games)
    Game.history.model.objects.bulk_create(
        [
            Game.history.model(
                id=game_ids[h.game],
                history_date=h.history_date,
                history_type=h.history_type,
                history_user_id=user_id(h.history_user),
                history_change_reason=h.history_change_reason,
                round_id=round_id(h.round),
                board=h.board,
                white_id=participant_id(h.white),
                black_id=participant_id(h.black),
                result=h.result,
                version=h.version,
                updated_by_id=user_id(h.updated_by),
                updated_at=h.updated_at,
                fixed_by_td=h.fixed_by_td,
            )
            for h in archive.game_history
        ]
    )
    live_entries = {item.id: row.pk for row, item in entries}
    entry_ids = live_entries | _deleted_ids(
        RoundEntry, (h.entry for h in archive.entry_history), live_entries
    )
    RoundEntry.history.model.objects.bulk_create(
        [
            RoundEntry.history.model(
                id=entry_ids[h.entry],
                history_date=h.history_date,
                history_type=h.history_type,
                history_user_id=user_id(h.history_user),
                history_change_reason=h.history_change_reason,
                round_id=round_id(h.round),
                participant_id=participant_id(h.participant),
                kind=h.kind,
                points=Decimal(h.points),
                note=h.note,
                updated_by_id=user_id(h.updated_by),
                updated_at=h.updated_at,
                fixed_by_td=h.fixed_by_td,
            )
            for h in archive.entry_history
        ]
    )
    report.corrections = sum(
        h.history_type != "+" for h in (*archive.game_history, *archive.entry_history)
    )
    standings_recompute(season=season)
    return report


# --- rating lists ----------------------------------------------------------------------------

RATING_FORMATS = ("knsb", "fide-txt", "fide-xml")


@dataclass
class RatingsReport:
    dry_run: bool = False
    list_date: datetime.date | None = None
    read: int = 0  # records kept by the filter
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    warnings: list[str] = field(default_factory=list)


def guess_rating_format(data: bytes, filename: str = "") -> str:
    """``fide-xml`` for XML, ``knsb`` for a KNSB header, else ``fide-txt``."""
    head = data[:200].lstrip(b"\xef\xbb\xbf").lstrip()
    if filename.lower().endswith(".xml") or head.startswith(b"<"):
        return "fide-xml"
    if head.lower().startswith(b"relatienummer"):
        return "knsb"
    return "fide-txt"


def parse_ids(text: str) -> frozenset[int]:
    """Numbers separated by commas, semicolons or white space; anything else is refused."""
    numbers = set()
    for token in re.split(r"[\s,;]+", text.strip()):
        if not token:
            continue
        if not token.isdigit():
            raise ServiceError(f"{token!r} is not a relatienummer or FIDE ID.")
        numbers.add(int(token))
    return frozenset(numbers)


def ratings_import(
    *,
    data: bytes,
    format: str | None = None,
    club_slug: str | None = None,
    list_date: datetime.date | None = None,
    only_club_members: bool = False,
    ids: Iterable[int] | None = None,
    filename: str = "",
    dry_run: bool = False,
) -> RatingsReport:
    """Create or update the club's members from a KNSB or FIDE rating list.

    KNSB records are matched by relatienummer, FIDE records by FIDE ID. A matched member gets
    the list's rating and date (and birth year when unknown); his name is kept. An unmatched
    record becomes a new member. ``only_club_members`` keeps only records of the club's
    members; ``ids`` keeps only those numbers. The list date is ``list_date``, else the one
    the file gives (FIDE's month column, or the file name).
    """
    format = format or guess_rating_format(data, filename)
    if format not in RATING_FORMATS:
        raise ServiceError(
            f"Unknown rating list format {format!r}; use {', '.join(RATING_FORMATS)}."
        )
    club = club_for_import(club_slug=club_slug)
    assert club is not None
    key = "relatienummers" if format == "knsb" else "fide_ids"
    wanted: frozenset[int] | None = None if ids is None else frozenset(ids)
    if only_club_members:
        members = Member.objects.filter(club=club)
        if format == "knsb":
            own = {_relatienummer(k) for k in members.values_list("knsb_id", flat=True)}
        else:
            own = set(members.exclude(fide_id=None).values_list("fide_id", flat=True))
        own.discard(None)
        wanted = frozenset(own) if wanted is None else wanted & frozenset(own)  # type: ignore[arg-type]
    keep = None if wanted is None else fr.RatingFilter(**{key: wanted})
    date_from_name = fr.list_date_from_filename(filename) if filename else None
    if format == "knsb":
        rating_list = fr.parse_knsb(data, list_date=list_date or date_from_name, keep=keep)
    elif format == "fide-txt":
        rating_list = fr.parse_fide_txt(data, list_date=list_date, keep=keep)
    else:
        rating_list = fr.parse_fide_xml(data, list_date=list_date or date_from_name, keep=keep)
    effective_date = list_date or rating_list.list_date or date_from_name
    report = RatingsReport(dry_run=dry_run, list_date=effective_date, read=len(rating_list.records))
    if effective_date is None:
        report.warnings.append(
            "the list's date is unknown (give --list-date); rating dates were left as they were"
        )
    return _run_import(dry_run, lambda: _write_ratings(club, rating_list, effective_date, report))


def _write_ratings(
    club: Club,
    rating_list: fr.RatingList,
    list_date: datetime.date | None,
    report: RatingsReport,
) -> RatingsReport:
    members = Member.objects.filter(club=club)
    if rating_list.source == "knsb":
        existing = {m.knsb_id.strip(): m for m in members.exclude(knsb_id="")}
    else:
        existing = {str(m.fide_id): m for m in members.exclude(fide_id=None)}
    new: list[Member] = []
    changed: list[Member] = []
    for record in rating_list.records:
        number = record.relatienummer if rating_list.source == "knsb" else record.fide_id
        member = existing.get(str(number))
        if member is None:
            new.append(
                Member(
                    club=club,
                    name=record.name[:120] or str(number),
                    knsb_id=str(record.relatienummer or "")[:12],
                    fide_id=record.fide_id,
                    rating=record.rating,
                    rating_date=list_date if record.rating is not None else None,
                    birth_year=record.birth_year,
                )
            )
            continue
        before = (member.rating, member.rating_date, member.birth_year)
        member.rating = record.rating
        if list_date is not None:
            member.rating_date = list_date
        if member.birth_year is None and record.birth_year:
            member.birth_year = record.birth_year
        if (member.rating, member.rating_date, member.birth_year) != before:
            changed.append(member)
        else:
            report.unchanged += 1
    Member.objects.bulk_create(new, batch_size=1000)
    Member.objects.bulk_update(changed, ["rating", "rating_date", "birth_year"], batch_size=1000)
    report.created, report.updated = len(new), len(changed)
    return report
