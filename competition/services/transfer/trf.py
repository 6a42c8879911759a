"""TRF in and out: a season as a FIDE TRF16 file with TRF-2026 national rating lines
(:func:`season_trf`), and a TRF file as a new season of the club (:func:`trf_import`).
The format itself is :mod:`competition.formats.trf`; docs/commands.md describes the commands.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from competition.formats import rating_report as rr
from competition.formats import trf as ft
from competition.formats.errors import FormatError
from competition.formats.trf_reader import parse_trf
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
from competition.presentation.labels import error_text, text_label
from competition.scoring import model as scoring
from competition.scoring.engine import standings_after
from competition.scoring.parameters import ParameterError, parameters_to_json
from competition.scoring.registry import UnknownSystemError, get_system
from competition.scoring.text import Text
from competition.scoring.tiebreaks import UNPLAYED_POLICIES, validate_tiebreaks
from competition.selectors.common import season_input
from competition.services.errors import ServiceError
from competition.services.ratings import club_ratings_season_replay
from competition.services.standings import standings_recompute
from competition.services.transfer.columns import column_problem
from competition.services.transfer.common import (
    ImportReport,
    club_for_import,
    decode_text,
    match_member,
    member_matcher,
    run_import,
)


def _trf_date(text: str) -> datetime.date | None:
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
        raise ServiceError(
            _("%(what)s: %(value)s points cannot be stored (one decimal, 0 to 99.9).")
            % {"what": what, "value": value}
        )
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
        raise ServiceError(error_text(error)) from None
    if unplayed not in UNPLAYED_POLICIES:
        raise ServiceError(
            _("Unknown policy for unplayed rounds %(policy)s; known: %(known)s.")
            % {"policy": repr(unplayed), "known": ", ".join(UNPLAYED_POLICIES)}
        )
    try:
        codes = validate_tiebreaks(tiebreaks)
        values = ranking.validate(parameters)
    except (ValueError, ParameterError) as error:
        raise ServiceError(error_text(error)) from None
    # Store only what was asked for; defaults stay implicit as in a season made by hand.
    return parameters_to_json({k: v for k, v in values.items() if k in parameters}), codes


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
    season_file = _season_tournament(season)
    try:
        tournament = ft.apply_rounds(season_file.tournament, season_file.pairings)
        return ft.write_trf(
            tournament, national_ratings=bool(season_file.tournament.national_ratings)
        )
    except ValueError as error:
        raise ServiceError(f"This season cannot be written as TRF: {error}") from None


@dataclass(frozen=True)
class _SeasonFile:
    """A season as a TRF: the tournament (tags, players, national ratings), its rounds'
    pairings, the start number of each participant and the rounds written."""

    tournament: ft.TrfTournament
    pairings: list[ft.RoundPairings]
    numbers: dict[int, int]
    participants: list[Participant]
    rounds: list[Round]


def _season_pairings(
    season: Season, participants: Sequence[Participant], numbers: Mapping[int, int]
) -> tuple[list[Round], list[ft.RoundPairings], dict[int, Fraction]]:
    """The rounds written (up to the last with games or entries), their pairings by start
    number, and each participant's points (game points and entry points) after them."""
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
    return rounds, pairings, points


def _season_players(
    season: Season,
    participants: Sequence[Participant],
    numbers: Mapping[int, int],
    points: Mapping[int, Fraction],
) -> tuple[list[ft.TrfPlayer], list[ft.TrfNationalRating]]:
    """The player records in start-number order, with the season's own rank after its last
    completed round, and a national rating record of each member with a relatienummer."""
    ranks: dict[int, int] = {}
    engine_input = season_input(season=season)
    if engine_input.rounds:
        final = standings_after(engine_input, len(engine_input.rounds))
        ranks = {row.participant_id: row.rank for row in final.rows}

    players = []
    nationals = []
    for p in sorted(participants, key=lambda p: numbers[p.id]):
        member = p.member
        birth = str(member.birth_year) if member.birth_year else ""
        players.append(
            ft.TrfPlayer(
                start_rank=numbers[p.id],
                name=member.name,
                rating=p.rating,
                fide_id=member.fide_id,
                birth=birth,
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
                    birth=birth,
                )
            )
    return players, nationals


def _season_tags(
    season: Season, players: int, rounds: int, national_ratings: bool
) -> tuple[tuple[str, str], ...]:
    """The header tags: name, dates, numbers of players and rounds, a bye's points when not
    1, the national rating federation and the tie-breaks."""
    tags: list[tuple[str, str]] = [("012", season.name)]
    if season.start_date:
        tags.append(("042", season.start_date.strftime("%Y/%m/%d")))
    if season.end_date:
        tags.append(("052", season.end_date.strftime("%Y/%m/%d")))
    tags.append(("062", str(players)))
    tags.append(("142", str(rounds)))
    if Fraction(season.bye_points) != 1:
        tags.append(("162", f"W 1.0 D 0.5 L 0.0 A 0.0 P {_trf_points(season.bye_points)}"))
    if national_ratings:
        tags.append(("172", "NED"))
    if season.tiebreaks:
        tags.append(("202", ",".join(season.tiebreaks)))
    return tuple(tags)


def _season_tournament(season: Season) -> _SeasonFile:
    participants = list(
        Participant.objects.filter(season=season).select_related("member").order_by("id")
    )
    numbers = _start_numbers(participants)
    rounds, pairings, points = _season_pairings(season, participants, numbers)
    players, nationals = _season_players(season, participants, numbers, points)
    tournament = ft.TrfTournament(
        tags=_season_tags(season, len(participants), len(rounds), bool(nationals)),
        round_dates=tuple(r.date.strftime("%y/%m/%d") for r in rounds),
        players=tuple(players),
        national_ratings=tuple(nationals),
    )
    return _SeasonFile(tournament, pairings, numbers, participants, rounds)


# --- the FIDE rating report ------------------------------------------------------------------


@dataclass(frozen=True)
class RatingReport:
    """The season as a FIDE rating report (TRF16) and what keeps it from being rated."""

    text: str
    problems: list[Text]
    event: rr.ReportEvent


def _tournament_type(season: Season) -> str:
    if season.tournament_type.strip():
        return season.tournament_type.strip()
    return "Individual: Round-Robin" if season.is_round_robin else "Individual: Swiss-System"


def _trf_name(name: str) -> str:
    """ "Jan van der Berg" as TRF writes a name: "van der Berg, Jan" (last word(s) first);
    a name with a comma is left as it is."""
    if "," in name:
        return name
    words = name.split()
    if len(words) < 2:
        return name
    first, rest = words[0], words[1:]
    return f"{' '.join(rest)}, {first}"


def season_rating_report(*, season: Season) -> RatingReport:
    """The season as a FIDE-ratable TRF16 and the list of what is missing for that (named,
    translatable): the header lines a rating officer needs, each player's FIDE ID and
    federation, FIDE ratings (a rated player has a FIDE ID and a rating), round dates."""
    season_file = _season_tournament(season)
    by_id = {p.id: p for p in season_file.participants}
    players = [
        rr.ReportPlayer(
            start_rank=number,
            name=_trf_name(by_id[pid].member.name),
            fide_id=by_id[pid].member.fide_id,
            federation=by_id[pid].member.federation,
            rating=by_id[pid].rating if by_id[pid].member.fide_id is not None else None,
        )
        for pid, number in sorted(season_file.numbers.items(), key=lambda item: item[1])
    ]
    rounds = season_file.rounds
    dates = [r.date for r in rounds]
    event = rr.ReportEvent(
        name=season.name,
        city=season.city,
        federation=season.federation,
        start_date=season.start_date or (min(dates) if dates else None),
        end_date=season.end_date or (max(dates) if dates else None),
        tournament_type=_tournament_type(season),
        chief_arbiter=season.chief_arbiter,
        deputy_arbiters=tuple(
            line.strip() for line in season.deputy_arbiters.splitlines() if line.strip()
        ),
        time_control=season.time_control,
    )
    over_the_board = [
        (game.white, game.black, rnd.number)
        for rnd in season_file.pairings
        for game in rnd.games
        if game.result in ("1-0", "1/2", "0-1")
    ]
    problems = rr.rating_report_problems(event, players, round_dates=dates, games=over_the_board)
    tournament = rr.rating_report(season_file.tournament, event, players, dates)
    tournament = replace(tournament, national_ratings=())
    try:
        tournament = ft.apply_rounds(tournament, season_file.pairings)
        text = ft.write_trf(tournament)
    except ValueError as error:
        raise ServiceError(f"This season cannot be written as TRF: {error}") from None
    return RatingReport(text, problems, event)


@transaction.atomic
def season_rating_report_set(
    *,
    season: Season,
    city: str,
    federation: str,
    chief_arbiter: str,
    deputy_arbiters: str,
    time_control: str,
    tournament_type: str,
) -> Season:
    """Save what the FIDE rating report says about the event (one transaction)."""
    federation = federation.strip().upper()
    if federation and not re.fullmatch(r"[A-Z]{3}", federation):
        raise ServiceError(
            _("The federation is FIDE's three-letter code, such as NED; not %(code)s.")
            % {"code": federation}
        )
    season = Season.objects.select_for_update().get(pk=season.pk)
    season.city, season.federation = city.strip(), federation
    season.chief_arbiter, season.deputy_arbiters = chief_arbiter.strip(), deputy_arbiters.strip()
    season.time_control, season.tournament_type = time_control.strip(), tournament_type.strip()
    for name in ("city", "chief_arbiter", "time_control", "tournament_type"):
        field = Season._meta.get_field(name)
        if len(getattr(season, name)) > field.max_length:  # type: ignore[union-attr,operator]
            raise ServiceError(
                _("%(field)s is longer than %(length)s characters.")
                % {"field": field.verbose_name, "length": field.max_length}  # type: ignore[union-attr]
            )
    season.save(
        update_fields=[
            "city", "federation", "chief_arbiter", "deputy_arbiters", "time_control",
            "tournament_type",
        ]
    )  # fmt: skip
    return season


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
    warnings: tuple[str | Text, ...]
    round_dates: tuple[datetime.date | None, ...]  # by round number, from 1


def _round_dates(t: ft.TrfTournament, count: int) -> tuple[datetime.date | None, ...]:
    """Each round's date: the 132 line's, else a week after the round before from the start
    date (tag 042), else unknown. A start date so late that the rounds would pass the year
    9999 is refused."""
    start = _trf_date(t.start_date)
    dates: list[datetime.date | None] = []
    for number in range(1, count + 1):
        day = t.round_date(number)
        if day is None and start is not None:
            try:
                day = start + datetime.timedelta(weeks=number - 1)
            except OverflowError:
                raise FormatError(
                    gettext_noop(
                        "tag 042: the start date %(date)s leaves no room for round %(round)s a "
                        "week after the one before"
                    ),
                    {"date": t.start_date, "round": number},
                ) from None
        dates.append(day)
    return tuple(dates)


def _tiebreaks_from_file(codes: Sequence[str]) -> tuple[tuple[str, ...], list[str | Text]]:
    known: list[str] = []
    warnings: list[str | Text] = []
    for code in codes:
        try:
            known.extend(validate_tiebreaks([code]))
        except ValueError:
            warnings.append(
                _("Tie-break %(code)s of tag 202 is not known here and was left out.")
                % {"code": repr(code)}
            )
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
    tournament = parse_trf(decode_text(data))
    if not tournament.players:
        raise FormatError(gettext_noop("the file has no player records (001)"))
    rounds = ft.tournament_rounds(tournament)
    ft.check_points_column(tournament)
    warnings: list[str | Text] = []
    if tiebreaks is None:
        tiebreaks, warnings = _tiebreaks_from_file(tournament.tiebreaks)
    warnings.extend(ft.points_disagreements(tournament))
    round_dates = _round_dates(tournament, len(rounds))
    stored_parameters, codes = _validated_rules(
        system=system, tiebreaks=tiebreaks, unplayed=unplayed, parameters=parameters
    )
    name = tournament.name or "TRF import"
    club = club_for_import(club_slug=club_slug, create_name=name)
    slug = season_slug or slugify(name)[:50] or "trf-import"
    problem = column_problem(Season, "slug", slug)
    if problem is not None:
        raise ServiceError(
            _("The short name %(slug)s: %(problem)s.")
            % {"slug": repr(slug), "problem": text_label(Text(*problem))}
        )
    if club is not None and Season.objects.filter(club=club, slug=slug).exists():
        raise ServiceError(
            _("A season with the short name '%(slug)s' already exists; choose another short name.")
            % {"slug": slug}
        )
    scoring_points = tournament.scoring
    bye_points = _entry_points(scoring_points["P"], "tag 162 (pairing-allocated bye)")
    for rnd in rounds:
        for entry in rnd.entries:
            _entry_points(entry.points, f"round {rnd.number}, start rank {entry.start_rank}")
    nationals = {n.start_rank: n for n in tournament.national_ratings}
    members = _matched_members(tournament, nationals, club)
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
        round_dates=round_dates,
    )


def _matched_members(
    tournament: ft.TrfTournament, nationals: Mapping[int, ft.TrfNationalRating], club: Club | None
) -> dict[int, Member | None]:
    """The club member of each start rank (None: a new member), matched by relatienummer, FIDE
    ID or name; two start ranks of one member are refused."""
    matcher = member_matcher(club)
    members: dict[int, Member | None] = {}
    taken: dict[int, int] = {}
    for player in tournament.players:
        national = nationals.get(player.start_rank)
        knsb_id = national.national_id.strip() if national else ""
        member = match_member(matcher, name=player.name, knsb_id=knsb_id, fide_id=player.fide_id)
        if member is not None:
            if member.pk in taken:
                raise ServiceError(
                    _("Start ranks %(first)s and %(second)s are both the club member %(name)s.")
                    % {"first": taken[member.pk], "second": player.start_rank, "name": member.name}
                )
            taken[member.pk] = player.start_rank
        members[player.start_rank] = member
    return members


def _refuse_duplicate_ids(
    tournament: ft.TrfTournament, nationals: Mapping[int, ft.TrfNationalRating]
) -> None:
    seen_fide: dict[int, int] = {}
    seen_knsb: dict[str, int] = {}
    for player in tournament.players:
        if player.fide_id is not None:
            if player.fide_id in seen_fide:
                raise ServiceError(
                    _("Start ranks %(first)s and %(second)s have the same FIDE ID %(id)s.")
                    % {
                        "first": seen_fide[player.fide_id],
                        "second": player.start_rank,
                        "id": player.fide_id,
                    }
                )
            seen_fide[player.fide_id] = player.start_rank
        national = nationals.get(player.start_rank)
        knsb_id = national.national_id.strip() if national else ""
        if knsb_id:
            if knsb_id in seen_knsb:
                raise ServiceError(
                    _("Start ranks %(first)s and %(second)s have the same relatienummer %(id)s.")
                    % {"first": seen_knsb[knsb_id], "second": player.start_rank, "id": knsb_id}
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
    return run_import(dry_run, lambda: _write_trf(plan, dry_run))


def _season_from_trf(plan: _TrfPlan, club: Club) -> Season:
    """The season with its first rule set; an end date before the start date is left out."""
    t = plan.tournament
    start = _trf_date(t.start_date)
    end = _trf_date(t.end_date)
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
    return season


def _participants_from_trf(
    plan: _TrfPlan, club: Club, season: Season, report: ImportReport
) -> dict[int, Participant]:
    """A participant of each player record, by start rank; a member created for each player
    the plan matched to none."""
    participant_of: dict[int, Participant] = {}
    for player in sorted(plan.tournament.players, key=lambda p: p.start_rank):
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
        # The event's rating is the file's, also for a matched member (whose own rating
        # stays as it is: it belongs to the rating lists).
        participant_of[player.start_rank] = Participant.objects.create(
            season=season, member=member, start_rank=player.start_rank, rating=player.rating
        )
        report.participants += 1
    return participant_of


def _rounds_from_trf(
    plan: _TrfPlan,
    season: Season,
    participant_of: Mapping[int, Participant],
    report: ImportReport,
) -> None:
    """The rounds with their games (boards in file order) and entries; a round whose games
    all have results is completed."""
    for rnd in plan.rounds:
        date = plan.round_dates[rnd.number - 1]
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


def _write_trf(plan: _TrfPlan, dry_run: bool) -> ImportReport:
    report = ImportReport(season_slug=plan.season_slug, dry_run=dry_run)
    report.warnings.extend(plan.warnings)
    club = plan.club
    if club is None:
        club = Club.objects.create(
            name=plan.club_name[:120], slug=slugify(plan.club_name)[:50] or "trf-import"
        )
    report.club_slug = club.slug
    season = _season_from_trf(plan, club)
    participant_of = _participants_from_trf(plan, club, season, report)
    _rounds_from_trf(plan, season, participant_of, report)
    standings_recompute(season=season)
    club_ratings_season_replay(season=season)
    return report
