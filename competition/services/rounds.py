"""Rounds, games and entries: the writes of a club evening and the invariants they keep.

The database refuses a board taken twice, a player on both sides, two entries for one
participant; :func:`ensure_participants_free` refuses what it cannot express: a participant
with more than one game or entry in a round. Every function here runs in one transaction;
those that change a round lock it first (:func:`round_lock`), so two TDs take turns.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from competition.models import (
    AbsenceReport,
    ExternalResult,
    Game,
    Participant,
    ResultReport,
    Round,
    RoundEntry,
    Season,
    taking_part_in,
)
from competition.selectors.common import user_label
from competition.services.background import after_commit
from competition.services.errors import ServiceError
from competition.services.ratings import club_ratings_round_replay
from competition.services.standings import standings_recompute


def round_lock(round_id: int) -> Round:
    """The round read again under a row lock (with its season and club), for the transaction."""
    return (
        Round.objects.select_for_update(of=("self",))
        .select_related("season__club")
        .get(pk=round_id)
    )


def ensure_participants_free(
    *,
    round: Round,
    participants: Iterable[Participant],
    except_game: Game | None = None,
    except_entry: RoundEntry | None = None,
) -> None:
    """Refuse when one of ``participants`` already has a game or an entry in ``round``."""
    ids = {p.id for p in participants}
    games = Game.objects.filter(round=round).filter(Q(white_id__in=ids) | Q(black_id__in=ids))
    if except_game is not None:
        games = games.exclude(pk=except_game.pk)
    entries = RoundEntry.objects.filter(round=round, participant_id__in=ids)
    if except_entry is not None:
        entries = entries.exclude(pk=except_entry.pk)
    for game in games.select_related("white__member", "black__member"):
        busy = game.white if game.white_id in ids else game.black
        raise ServiceError(
            _("%(name)s already plays on board %(board)s in round %(round)s.")
            % {"name": busy.member.name, "board": game.board, "round": round.number}
        )
    for entry in entries.select_related("participant__member"):
        raise ServiceError(
            _("%(name)s is already recorded as “%(kind)s” in round %(round)s.")
            % {
                "name": entry.participant.member.name,
                "kind": entry.get_kind_display(),
                "round": round.number,
            }
        )


def _ensure_same_season(round: Round, *participants: Participant) -> None:
    for participant in participants:
        if participant.season_id != round.season_id:
            raise ServiceError(
                _("%(name)s does not take part in %(season)s.")
                % {"name": participant.member.name, "season": round.season.name}
            )


def _open_round(season: Season) -> Round | None:
    return (
        Round.objects.filter(season=season)
        .exclude(status=Round.Status.COMPLETED)
        .order_by("-number")
        .first()
    )


def _tonights_round(season: Season, date: datetime.date) -> Round:
    """The season's open round, or a new one numbered one more than the season's highest.

    The caller holds the season's lock, so a second request (a double tap, another TD) waits
    and then finds the first one's round. Should a round slip through all the same, the
    constraint ``round_one_open_per_season`` refuses it, and this request too lands on the
    round the other made.
    """
    open_round = _open_round(season)
    if open_round is not None:
        return open_round
    last = Round.objects.filter(season=season).aggregate(last=Max("number"))["last"] or 0
    try:
        with transaction.atomic():  # a savepoint: the transaction goes on after a refusal
            round = Round.objects.create(season=season, number=last + 1, date=date)
    except IntegrityError:
        open_round = _open_round(season)
        if open_round is None:
            raise
        return open_round
    reported_absences_record(round=round)
    return round


def reported_absences_record(*, round: Round) -> None:
    """Start ``round``'s attendance from what members reported for its evening (same date):
    each "I can't come" becomes an absence with notice, by the member who reported it.

    Participants who already have an entry keep it (the TD's word comes first). A round-robin
    round follows its Berger table: there the TD sees the reports and records forfeits.
    """
    if round.season.is_round_robin:
        return
    reports = AbsenceReport.objects.filter(
        taking_part_in(round.number, prefix="participant__"),
        evening__season=round.season,
        evening__date=round.date,
        kind=AbsenceReport.Kind.ABSENT,
    ).select_related("participant", "reported_by")
    taken = set(RoundEntry.objects.filter(round=round).values_list("participant_id", flat=True))
    for report in reports:
        if report.participant_id not in taken:
            entry_record(
                round=round,
                participant=report.participant,
                kind=RoundEntry.Kind.ABSENT_NOTICE,
                note=report.note,
                user=report.reported_by,
            )


@transaction.atomic
def round_create(*, seasons: Sequence[Season], date: datetime.date | None = None) -> list[Round]:
    """Tonight's round for each of ``seasons``, dated ``date`` (today by default), all or nothing.

    A season whose latest round is still open gets no new one: that round is tonight's. A new
    round is numbered one more than the season's highest. The seasons are locked first, in the
    order of their ids, so two TDs starting the same competitions take turns instead of each
    waiting for the other.
    """
    if not seasons:
        raise ServiceError(_("Choose at least one competition."))
    ids = sorted({season.pk for season in seasons})
    locked = {
        pk: Season.objects.select_for_update().select_related("club").get(pk=pk) for pk in ids
    }
    for season in locked.values():
        if season.status != Season.Status.RUNNING:
            raise ServiceError(_("%(season)s is not running.") % {"season": season.name})
    tonight = date or timezone.localdate()
    by_season = {pk: _tonights_round(season, tonight) for pk, season in locked.items()}
    return [by_season[season.pk] for season in seasons]


@transaction.atomic
def game_create(
    *,
    round: Round,
    board: int,
    white: Participant,
    black: Participant,
    result: str = Game.Result.NOT_PLAYED,
    user: User | None = None,
) -> Game:
    if white.pk == black.pk:
        raise ServiceError(_("A player cannot play himself."))
    _ensure_same_season(round, white, black)
    ensure_participants_free(round=round, participants=[white, black])
    if Game.objects.filter(round=round, board=board).exists():
        raise ServiceError(
            _("Board %(board)s is already taken in round %(round)s.")
            % {"board": board, "round": round.number}
        )
    return Game.objects.create(
        round=round, board=board, white=white, black=black, result=result, updated_by=user
    )


def default_entry_points(season: Season, kind: str) -> Decimal:
    """The game points an entry gets unless the TD says otherwise: the season's bye value."""
    return season.bye_points if kind == RoundEntry.Kind.BYE else Decimal("0")


@transaction.atomic
def entry_record(
    *,
    round: Round,
    participant: Participant,
    kind: str,
    points: Decimal | None = None,
    note: str = "",
    user: User | None = None,
) -> RoundEntry:
    """Record (or change) a participant's entry for ``round``: absence, club duty or bye."""
    if kind not in RoundEntry.Kind.values:
        raise ServiceError(_("Unknown kind of entry: %(kind)s.") % {"kind": kind})
    _ensure_same_season(round, participant)
    existing = RoundEntry.objects.filter(round=round, participant=participant).first()
    ensure_participants_free(round=round, participants=[participant], except_entry=existing)
    points = default_entry_points(round.season, kind) if points is None else points
    if existing is None:
        return RoundEntry.objects.create(
            round=round,
            participant=participant,
            kind=kind,
            points=points,
            note=note,
            updated_by=user,
        )
    existing.kind, existing.points, existing.note, existing.updated_by = kind, points, note, user
    if kind != RoundEntry.Kind.CLUB_DUTY:
        existing.external_result = ""  # only a club duty can be an external game
    existing.version += 1
    existing.save()
    return existing


@transaction.atomic
def external_result_record(
    *, entry_id: int, result: str, expected_version: int, user: User | None = None
) -> RoundEntry:
    """The result of a club duty that was a game for the club elsewhere (a team match), in a
    round not yet closed; ``""`` takes it back. Refused for another kind of entry, for a closed
    round (its correction page records it, with a reason) and when someone else changed the
    entry since ``expected_version``."""
    if result not in ("", *ExternalResult.values):
        raise ServiceError(
            _("Unknown result of an external game: %(result)s.") % {"result": result}
        )
    round_id = RoundEntry.objects.filter(pk=entry_id).values_list("round_id", flat=True).first()
    if round_id is None:
        raise ServiceError(_("This entry no longer exists; reload the round."))
    round = round_lock(round_id)
    if round.is_completed:
        raise ServiceError(
            _("Round %(round)s is closed: correct the entry on its correction page.")
            % {"round": round.number}
        )
    entry = (
        RoundEntry.objects.select_for_update(of=("self",))
        .select_related("participant__member")
        .get(pk=entry_id)
    )
    if entry.kind != RoundEntry.Kind.CLUB_DUTY:
        raise ServiceError(
            _("%(name)s is not on club duty: only a club duty can be an external game.")
            % {"name": entry.participant.member.name}
        )
    if entry.version != expected_version:
        raise ServiceError(
            _("The entry of %(name)s was changed meanwhile; reload the round.")
            % {"name": entry.participant.member.name}
        )
    if entry.external_result == result:
        return entry  # a second tap
    entry.external_result, entry.updated_by = result, user
    entry.version += 1
    entry.save()
    return entry


def changed_by(record: Game | RoundEntry) -> dict[str, str]:
    """Who saved ``record`` last and at what time (``who``, ``when``), for the TD whose save
    came second: "changed by Anna at 21:43 meanwhile"."""
    return {
        "who": user_label(user=record.updated_by) if record.updated_by else _("someone"),
        "when": time_format(timezone.localtime(record.updated_at), "H:i"),
    }


def _describe_change(game: Game, user: User | None) -> str:
    """Why a save from an older page is refused: someone else's save, or the TD's own (from
    another tab, or a page Back brought up again), with what the board holds now."""
    if user is not None and game.updated_by_id == user.pk:
        return _(
            "Board %(board)s: you saved %(result)s at %(when)s already (on another page); "
            "it holds that now."
        ) % {"board": game.board, "result": game.get_result_display(), **changed_by(game)}
    return _("Board %(board)s was changed by %(who)s at %(when)s meanwhile; now %(result)s.") % {
        "board": game.board,
        "result": game.get_result_display(),
        **changed_by(game),
    }


@transaction.atomic
def result_record(
    *,
    game_id: int,
    result: str,
    expected_version: int,
    user: User | None,
    reason: str = "",
) -> Game:
    """Save a board's result unless someone else changed it since ``expected_version``.

    Results are entered once the pairing is published. In a completed round a result is a
    correction: it needs a reason, is kept in the history with that reason, and the standings
    of that round and every later one are recomputed. A pending game's first result (a game
    played on another date, competition.services.postponed) needs no reason: its history says
    the date it was played on; the standings are recomputed all the same.
    """
    # ordered by the key alone: the default ordering joins the round, season and club
    round_id = (
        Game.objects.filter(pk=game_id).order_by("pk").values_list("round_id", flat=True).first()
    )
    if round_id is None:
        raise ServiceError(_("This board no longer exists; reload the round."))
    # Lock the round as round_complete does: a result saved while the round is being closed
    # would otherwise miss the standings that the closing computes.
    round = round_lock(round_id)
    if round.is_planned:
        raise ServiceError(_("Publish the pairing before entering results."))
    if result not in Game.Result.values:
        raise ServiceError(_("Unknown result code: %(result)s.") % {"result": result})
    game = (
        # Lock only the game row. The user who saved it last is read after the lock, not
        # joined here: when this waits for another TD's save, PostgreSQL hands back the new
        # game row but the joined rows as they were before it (no user at all).
        Game.objects.select_for_update(of=("self",)).filter(pk=game_id).order_by("pk").first()
    )
    if game is None:
        raise ServiceError(_("This board no longer exists; reload the round."))
    game.round = round
    if game.version != expected_version:
        raise ServiceError(_describe_change(game, user))
    in_completed_round = round.is_completed
    # A pending game's first result (played on another date) is not a correction.
    played_later = in_completed_round and game.is_pending
    is_correction = in_completed_round and not played_later
    if is_correction and not reason.strip():
        raise ServiceError(_("Correcting a result of a completed round needs a reason."))
    if in_completed_round and result == Game.Result.NOT_PLAYED:
        # round_complete refuses to close a round with an open board; a correction must not
        # open one again afterwards.
        raise ServiceError(
            _("Round %(round)s is closed: board %(board)s needs a result.")
            % {"round": round.number, "board": game.board}
        )
    if game.result == result:
        return game
    game.result = result
    game.version += 1
    game.updated_by = user
    game._change_reason = reason.strip()  # read by simple-history
    if played_later and game.played_on is not None and not game._change_reason:
        game._change_reason = _("played on %(date)s") % {"date": date_format(game.played_on)}
    game.save()
    # The result saved is final: what the players still had open on this board is settled by
    # it (services.result_reports marks its own reports confirmed after this).
    ResultReport.objects.filter(
        game=game, status__in=(ResultReport.Status.ENTERED, ResultReport.Status.DISPUTED)
    ).update(status=ResultReport.Status.SUPERSEDED)
    if in_completed_round:  # the standings of this round and every later one
        standings_recompute(season=round.season, from_round=round.number)
        club_ratings_round_replay(round=round)
    if is_correction:
        after_commit("mail_result_corrected", game_id=game.pk)
    return game


@transaction.atomic
def round_complete(*, round: Round, user: User | None) -> Round:
    """Close a published round once every board has a result or is played on another date
    (pending: competition.services.postponed); the standings are recomputed."""
    round = round_lock(round.pk)
    if round.is_planned:
        raise ServiceError(_("Publish the pairing and enter the results first."))
    if round.is_completed:
        raise ServiceError(_("Round %(round)s is already closed.") % {"round": round.number})
    open_boards = list(
        Game.objects.filter(
            round=round, result=Game.Result.NOT_PLAYED, played_on__isnull=True
        ).values_list("board", flat=True)
    )
    if open_boards:
        raise ServiceError(
            _("Boards without a result: %(boards)s.")
            % {"boards": ", ".join(str(b) for b in open_boards)}
        )
    round.status = Round.Status.COMPLETED
    round.save(update_fields=["status"])
    # the rounds before it are as they were: only this round's standings are new
    standings_recompute(season=round.season, from_round=round.number)
    club_ratings_round_replay(round=round)
    return round
