"""Games on another date: a pending board, the round closed without it, its result a week later,
the season's deadline, and the refusals that change nothing."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import translation

from competition.models import Club, ClubRatingChange, Game, Round, StandingsSnapshot
from competition.permissions import td_group
from competition.selectors.corrections import corrections_for_round
from competition.services import evening
from competition.services.errors import ServiceError
from competition.services.postponed import (
    game_play_later,
    game_play_later_cancel,
    pending_games_expire,
)
from competition.services.ratings import club_ratings_replay
from competition.services.rounds import game_create, result_record, round_complete, round_create
from competition.services.transfer import season_trf
from tests.factories import ParticipantFactory, SeasonFactory

pytestmark = pytest.mark.django_db

EVENING = datetime.date(2026, 9, 10)
LATER = datetime.date(2026, 9, 17)


@pytest.fixture(autouse=True)
def _english_messages():
    """The messages are asserted in the source language; the app's default is Dutch."""
    with translation.override("en"):
        yield


@pytest.fixture
def published(td_user):
    """Points system, A B C D. Round 1 published: board 1 A-B 1-0, board 2 C-D without a result."""
    season = SeasonFactory(system="points", pending_days=14)
    td_user.groups.add(td_group(season.club))
    a, b, c, d = (ParticipantFactory(season=season, start_rank=i) for i in range(1, 5))
    (r1,) = round_create(seasons=[season], date=EVENING)
    game_create(round=r1, board=1, white=a, black=b, result="1-0")
    g2 = game_create(round=r1, board=2, white=c, black=d)
    evening.round_publish(round=r1, user=td_user)
    return season, (a, b, c, d), r1, g2, td_user


def points(season, round_number: int) -> dict[int, str]:
    rows = StandingsSnapshot.objects.get(season=season, round_number=round_number).rows
    return {row["participant_id"]: row["game_points"] for row in rows}


def games_played(season, round_number: int) -> dict[int, int]:
    rows = StandingsSnapshot.objects.get(season=season, round_number=round_number).rows
    return {row["participant_id"]: row["games"] for row in rows}


def test_a_round_closes_with_a_pending_board_and_its_result_a_week_later_counts(published):
    season, (a, b, c, d), r1, g2, user = published
    game = game_play_later(game_id=g2.id, played_on=LATER, user=user)
    assert (game.played_on, game.is_pending, game.version) == (LATER, True, 2)
    round_complete(round=r1, user=user)
    r1.refresh_from_db()
    assert r1.is_completed
    # The pending game counts nothing yet: C and D have 0 points and no game played.
    assert points(season, 1) == {a.id: "1", b.id: "0", c.id: "0", d.id: "0"}
    assert games_played(season, 1) == {a.id: 1, b.id: 1, c.id: 0, d.id: 0}
    # A week later: the first result needs no reason (it is not a correction).
    result_record(game_id=g2.id, result="0-1", expected_version=2, user=user)
    g2.refresh_from_db()
    assert (g2.result, g2.is_pending, g2.played_on) == ("0-1", False, LATER)
    assert points(season, 1) == {a.id: "1", b.id: "0", c.id: "0", d.id: "1"}
    assert games_played(season, 1) == {a.id: 1, b.id: 1, c.id: 1, d.id: 1}
    # The trail says when it was played.
    (entry,) = corrections_for_round(round=r1)
    assert (entry.board, entry.before, entry.after) == (2, "not yet played", "0-1")
    assert entry.reason == "played on 17 September 2026"


def test_later_rounds_follow_the_pending_result(published):
    season, (a, b, c, d), r1, g2, user = published
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    round_complete(round=r1, user=user)
    (r2,) = round_create(seasons=[season], date=LATER)
    game_create(round=r2, board=1, white=a, black=c, result="1-0")
    game_create(round=r2, board=2, white=b, black=d, result="1/2")
    evening.round_publish(round=r2, user=user)
    round_complete(round=r2, user=user)
    assert points(season, 2) == {a.id: "2", b.id: "0.5", c.id: "0", d.id: "0.5"}
    result_record(game_id=g2.id, result="1-0", expected_version=2, user=user)
    assert points(season, 1) == {a.id: "1", b.id: "0", c.id: "1", d.id: "0"}
    assert points(season, 2) == {a.id: "2", b.id: "0.5", c.id: "1", d.id: "0.5"}


def test_other_boards_without_a_result_still_refuse_the_closing(td_user):
    season = SeasonFactory(system="points")
    td_user.groups.add(td_group(season.club))
    a, b, c, d = (ParticipantFactory(season=season) for _ in range(4))
    (r1,) = round_create(seasons=[season], date=EVENING)
    g1 = game_create(round=r1, board=1, white=a, black=b)
    game_create(round=r1, board=2, white=c, black=d)
    evening.round_publish(round=r1, user=td_user)
    game_play_later(game_id=g1.id, played_on=LATER, user=td_user)
    with pytest.raises(ServiceError, match=r"Boards without a result: 2\."):
        round_complete(round=r1, user=td_user)
    r1.refresh_from_db()
    assert r1.status == Round.Status.PAIRED


def test_in_advance_works_the_same(published):
    season, (a, b, c, d), r1, g2, user = published
    earlier = datetime.date(2026, 9, 3)
    game_play_later(game_id=g2.id, played_on=earlier, user=user)
    round_complete(round=r1, user=user)
    result_record(game_id=g2.id, result="1/2", expected_version=2, user=user)
    assert points(season, 1) == {a.id: "1", b.id: "0", c.id: "0.5", d.id: "0.5"}
    (entry,) = corrections_for_round(round=r1)
    assert entry.reason == "played on 3 September 2026"


def test_a_pending_board_of_a_closed_round_cannot_go_back_to_no_result(published):
    _season, _players, r1, g2, user = published
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    round_complete(round=r1, user=user)
    result_record(game_id=g2.id, result="1-0", expected_version=2, user=user)
    with pytest.raises(ServiceError, match=r"Round 1 is closed: board 2 needs a result\."):
        result_record(game_id=g2.id, result="", expected_version=3, user=user, reason="undo")
    # Its second result is a correction again: it needs a reason.
    with pytest.raises(ServiceError, match="reason"):
        result_record(game_id=g2.id, result="0-1", expected_version=3, user=user)
    g2.refresh_from_db()
    assert (g2.result, g2.version) == ("1-0", 3)


@pytest.mark.parametrize(
    ("played_on", "message"),
    [
        ("2026-09-17", "Give the date"),
        (None, "Give the date"),
        (datetime.datetime(2026, 9, 17, 20, 0), "Give the date"),
        (EVENING, "Round 1 is played on that date"),
    ],
)
def test_a_bad_date_changes_nothing(published, played_on, message):
    _season, _players, _r1, g2, user = published
    with pytest.raises(ServiceError, match=message):
        game_play_later(game_id=g2.id, played_on=played_on, user=user)
    g2.refresh_from_db()
    assert (g2.played_on, g2.version) == (None, 1)


def test_a_board_with_a_result_is_refused(published):
    _season, _players, r1, _g2, user = published
    g1 = Game.objects.get(round=r1, board=1)
    with pytest.raises(ServiceError, match=r"Board 1 already has a result"):
        game_play_later(game_id=g1.id, played_on=LATER, user=user)
    g1.refresh_from_db()
    assert (g1.played_on, g1.version, g1.result) == (None, 1, "1-0")


def test_a_draft_round_is_refused(td_user):
    season = SeasonFactory()
    td_user.groups.add(td_group(season.club))
    a, b = (ParticipantFactory(season=season) for _ in range(2))
    (r1,) = round_create(seasons=[season], date=EVENING)
    game = game_create(round=r1, board=1, white=a, black=b)
    with pytest.raises(ServiceError, match="Publish the pairing"):
        game_play_later(game_id=game.id, played_on=LATER, user=td_user)
    game.refresh_from_db()
    assert (game.played_on, game.version) == (None, 1)


def test_a_td_of_another_club_is_refused(published):
    _season, _players, _r1, g2, _user = published
    other = Club.objects.create(name="Andere club", slug="andere")
    stranger = User.objects.create_user("other-td", password="x-pass-12345")
    stranger.groups.add(td_group(other))
    for user in (stranger, None):
        with pytest.raises(ServiceError, match="Only a TD of the club"):
            game_play_later(game_id=g2.id, played_on=LATER, user=user)
    g2.refresh_from_db()
    assert (g2.played_on, g2.version) == (None, 1)


def test_a_double_submit_is_one_change(published):
    _season, _players, _r1, g2, user = published
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    again = game_play_later(game_id=g2.id, played_on=LATER, user=user)
    assert (again.played_on, again.version) == (LATER, 2)
    assert Game.history.filter(id=g2.id).count() == 2  # created, marked


def test_cancel_in_an_open_round_but_not_in_a_closed_one(published):
    _season, _players, r1, g2, user = published
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    game = game_play_later_cancel(game_id=g2.id, user=user)
    assert (game.played_on, game.version) == (None, 3)
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    round_complete(round=r1, user=user)
    with pytest.raises(ServiceError, match=r"Round 1 is closed"):
        game_play_later_cancel(game_id=g2.id, user=user)
    g2.refresh_from_db()
    assert (g2.played_on, g2.version) == (LATER, 4)


def test_the_deadline_gives_a_double_forfeit(published):
    season, (a, b, c, d), r1, g2, user = published
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    round_complete(round=r1, user=user)
    # 14 days after 10 September is 24 September: still in time that day.
    assert pending_games_expire(today=datetime.date(2026, 9, 24)) == []
    g2.refresh_from_db()
    assert g2.is_pending
    assert pending_games_expire(today=datetime.date(2026, 9, 25)) == [g2.id]
    g2.refresh_from_db()
    assert (g2.result, g2.version, g2.updated_by) == ("--", 3, None)
    assert points(season, 1) == {a.id: "1", b.id: "0", c.id: "0", d.id: "0"}
    assert games_played(season, 1) == {a.id: 1, b.id: 1, c.id: 0, d.id: 0}
    (entry,) = corrections_for_round(round=r1)
    assert entry.after == "0-0 double forfeit"
    assert "deadline" in entry.reason
    # Once more changes nothing.
    assert pending_games_expire(today=datetime.date(2026, 9, 26)) == []


def test_no_deadline_no_forfeit(published):
    season, _players, r1, g2, user = published
    season.pending_days = None
    season.save(update_fields=["pending_days"])
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    round_complete(round=r1, user=user)
    assert pending_games_expire(today=datetime.date(2027, 6, 1)) == []
    g2.refresh_from_db()
    assert g2.is_pending


def test_the_command_expires_pending_games(published):
    _season, _players, r1, g2, user = published
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    round_complete(round=r1, user=user)
    out = StringIO()
    call_command("expire_pending_games", "--today", "2026-10-01", stdout=out)
    assert out.getvalue().strip() == "1 pending games given a double forfeit"
    g2.refresh_from_db()
    assert g2.result == "--"


def rating_dates(club) -> dict[int, list[str]]:
    """Each member's club rating changes, as the evenings they are dated on."""
    dates: dict[int, list[str]] = {}
    for member_id, day in (
        ClubRatingChange.objects.filter(club=club).order_by("date").values_list("member_id", "date")
    ):
        dates.setdefault(member_id, []).append(day.isoformat())
    return dates


def ledger_rows(club) -> list[tuple]:
    """The club's rating ledger, row by row in date and member order."""
    return list(
        ClubRatingChange.objects.filter(club=club)
        .values_list("member_id", "date", "rating_before", "rating_after", "change")
        .order_by("date", "member_id")
    )


def test_the_club_rating_counts_a_later_game_on_the_evening_it_was_played(published):
    season, (a, b, c, d), r1, g2, user = published
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    round_complete(round=r1, user=user)
    # Closed with C-D pending: only A and B have played a rated game.
    assert rating_dates(season.club) == {a.member_id: ["2026-09-10"], b.member_id: ["2026-09-10"]}
    result_record(game_id=g2.id, result="1-0", expected_version=2, user=user)
    assert rating_dates(season.club) == {
        a.member_id: ["2026-09-10"],
        b.member_id: ["2026-09-10"],
        c.member_id: ["2026-09-17"],
        d.member_id: ["2026-09-17"],
    }


def test_the_club_rating_counts_a_game_played_in_advance_on_its_own_evening(published):
    season, (a, b, c, d), r1, g2, user = published
    earlier = datetime.date(2026, 9, 3)
    game_play_later(game_id=g2.id, played_on=earlier, user=user)
    round_complete(round=r1, user=user)
    result_record(game_id=g2.id, result="1/2", expected_version=2, user=user)
    assert rating_dates(season.club) == {
        a.member_id: ["2026-09-10"],
        b.member_id: ["2026-09-10"],
        c.member_id: ["2026-09-03"],
        d.member_id: ["2026-09-03"],
    }
    # The same ledger as a full replay from the first evening.
    replayed = ledger_rows(season.club)
    club_ratings_replay(club=season.club)
    assert ledger_rows(season.club) == replayed


def test_the_trf_writes_a_pending_game_as_not_yet_played(published):
    _season, _players, r1, g2, user = published
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    round_complete(round=r1, user=user)
    trf = season_trf(season=r1.season)
    players = [line for line in trf.splitlines() if line.startswith("001")]
    # Start numbers 1-4: board 1 1-0, board 2 (3 against 4) paired without a result.
    # (a blank result closes the line: the TRF writer strips the trailing blanks)
    assert [line[91:99] for line in players] == ["   2 w 1", "   1 b 0", "   4 w", "   3 b"]
    result_record(game_id=g2.id, result="0-1", expected_version=2, user=user)
    players = [line for line in season_trf(season=r1.season).splitlines() if line.startswith("001")]
    assert [line[91:99] for line in players][2:] == ["   4 w 0", "   3 b 1"]


# --- every system and tie-break takes a pending game inside a closed round ------------------

ALL_TIEBREAKS = ["BH", "SB", "PS", "KS", "DE", "WIN", "WON", "BPG", "BWG", "ARO", "TPR", "AOB"]
SYSTEM_FIGURES = {"internal-sb": ("SB",)}  # a system's own figure is no tie-break of it


def _two_rounds(system: str, *, pending: bool, policy: str) -> tuple[object, list, Game | None]:
    """Six players, two closed rounds; round 1 board 3 (E-F) pending, or played 1-0 on the
    evening (``pending=False``)."""
    tiebreaks = [code for code in ALL_TIEBREAKS if code not in SYSTEM_FIGURES.get(system, ())]
    season = SeasonFactory(system=system, tiebreaks=tiebreaks, unplayed_policy=policy)
    user = User.objects.create_superuser(f"td-{season.slug}", password="x-pass-12345")
    p = [ParticipantFactory(season=season, start_rank=i, rating=1800 + i) for i in range(1, 7)]
    (r1,) = round_create(seasons=[season], date=EVENING)
    game_create(round=r1, board=1, white=p[0], black=p[1], result="1-0")
    game_create(round=r1, board=2, white=p[2], black=p[3], result="1/2")
    g3 = game_create(round=r1, board=3, white=p[4], black=p[5], result="" if pending else "1-0")
    evening.round_publish(round=r1, user=user)
    if pending:
        game_play_later(game_id=g3.id, played_on=LATER, user=user)
    round_complete(round=r1, user=user)
    (r2,) = round_create(seasons=[season], date=LATER)
    game_create(round=r2, board=1, white=p[1], black=p[4], result="0-1")
    game_create(round=r2, board=2, white=p[3], black=p[0], result="1/2")
    game_create(round=r2, board=3, white=p[5], black=p[2], result="0-1")
    evening.round_publish(round=r2, user=user)
    round_complete(round=r2, user=user)
    return season, p, g3 if pending else None


def _by_start(season, round_number: int, players) -> list[tuple]:
    rows = StandingsSnapshot.objects.get(season=season, round_number=round_number).rows
    by_id = {row["participant_id"]: row for row in rows}
    return [
        (by_id[p.id]["score"], by_id[p.id]["games"], sorted(by_id[p.id]["values"])) for p in players
    ]


@pytest.mark.parametrize("system", ["internal-sb", "van-den-brink", "keizer", "points"])
@pytest.mark.parametrize("policy", ["fide-2024", "fide-2026", "unplayed-as-draw"])
def test_every_system_counts_a_pending_game_as_no_result_until_it_is_played(system, policy):
    season, players, g3 = _two_rounds(system, pending=True, policy=policy)
    evening_season, evening_players, _ = _two_rounds(system, pending=False, policy=policy)
    figures = {
        code for code in ALL_TIEBREAKS if code not in ("DE", *SYSTEM_FIGURES.get(system, ()))
    }
    pending_rows = _by_start(season, 2, players)
    # Every tie-break is computed for everyone; E and F have one game fewer than the others.
    assert all(figures <= set(row[2]) for row in pending_rows)
    assert [row[1] for row in pending_rows] == [2, 2, 2, 2, 1, 1]
    rows = StandingsSnapshot.objects.get(season=season, round_number=1).rows
    games = {row["participant_id"]: row["games"] for row in rows}
    assert [games[p.id] for p in players] == [1, 1, 1, 1, 0, 0]
    # Its result a week later: the standings are those of the game played on the evening.
    result_record(game_id=g3.id, result="1-0", expected_version=2, user=g3.updated_by)
    for number in (1, 2):
        assert _by_start(season, number, players) == _by_start(
            evening_season, number, evening_players
        )
        after = StandingsSnapshot.objects.get(season=season, round_number=number).rows
        evening_rows = StandingsSnapshot.objects.get(
            season=evening_season, round_number=number
        ).rows
        index = {p.id: i for i, p in enumerate(players)}
        evening_index = {p.id: i for i, p in enumerate(evening_players)}
        assert [(index[r["participant_id"]], r["score"], r["values"]) for r in after] == [
            (evening_index[r["participant_id"]], r["score"], r["values"]) for r in evening_rows
        ]


def test_internal_sb_gives_a_pending_game_the_unplayed_value(td_user):
    season = SeasonFactory(system="internal-sb")
    td_user.groups.add(td_group(season.club))
    a, b, c, d = (ParticipantFactory(season=season, start_rank=i) for i in range(1, 5))
    (r1,) = round_create(seasons=[season], date=EVENING)
    game_create(round=r1, board=1, white=a, black=b, result="1-0")
    g2 = game_create(round=r1, board=2, white=c, black=d)
    evening.round_publish(round=r1, user=td_user)
    game_play_later(game_id=g2.id, played_on=LATER, user=td_user)
    round_complete(round=r1, user=td_user)

    def internal_points() -> list[str]:
        rows = StandingsSnapshot.objects.get(season=season, round_number=1).rows
        by_id = {row["participant_id"]: row["values"]["IP"] for row in rows}
        return [by_id[p.id] for p in (a, b, c, d)]

    assert internal_points() == ["1", "0", "0.5", "0.5"]  # ½: the season's unplayed value
    result_record(game_id=g2.id, result="1-0", expected_version=2, user=td_user)
    assert internal_points() == ["1", "0", "1", "0"]


def test_the_nightly_task_expires_pending_games_before_the_backup(published, monkeypatch):
    from competition import tasks
    from competition.services import backups

    _season, _players, r1, g2, user = published
    game_play_later(game_id=g2.id, played_on=LATER, user=user)
    round_complete(round=r1, user=user)
    seen: list[str] = []

    def backup_make(*, night: str) -> dict[str, object]:
        seen.append(Game.objects.get(pk=g2.pk).result)  # what the backup keeps
        return {"night": night}

    monkeypatch.setattr(backups, "backup_make", backup_make)
    monkeypatch.setattr(backups, "backup_schedule_next", lambda *, after=None: None)
    assert tasks.backup_nightly.call(night="2026-09-25") == {"night": "2026-09-25"}
    assert seen == ["--"]
