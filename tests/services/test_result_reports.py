"""Results the players enter themselves: a player enters, the opponent confirms or disputes,
the TD confirms or settles; every saved result goes through the versioned result service, and
the TD's own entry is final."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from competition.models import Game, Participant, ResultEntry, ResultReport, Round, Season
from competition.selectors.corrections import corrections_for_round, round_trail
from competition.selectors.result_reports import (
    my_result_reports,
    round_entered_results,
    round_report_states,
)
from competition.services import evening
from competition.services.errors import ServiceError
from competition.services.result_reports import (
    result_report,
    result_report_answer,
    result_report_td_confirm,
    season_result_entry_update,
)
from competition.services.rounds import game_create, result_record, round_complete, round_create
from tests.factories import ClubFactory, MemberFactory, ParticipantFactory, SeasonFactory

pytestmark = pytest.mark.django_db

Reported = ResultReport.Status


@pytest.fixture(autouse=True)
def _english_messages():
    """The messages are asserted in the source language; the app's default is Dutch."""
    with translation.override("en"):
        yield


@dataclass
class Evening:
    season: Season
    round: Round
    game: Game  # board 1: white – black
    other: Game  # board 2: third – fourth
    white: Participant
    black: Participant
    third: Participant
    td: User

    def user(self, participant: Participant) -> User:
        return participant.member.user

    def enter(self, participant: Participant, result: str, game: Game | None = None):
        return result_report(
            game_id=(game or self.game).pk,
            participant=participant,
            result=result,
            user=self.user(participant),
        )

    def fresh_game(self) -> Game:
        return Game.objects.get(pk=self.game.pk)

    def reports(self) -> list[tuple[str, str, str]]:
        return [
            (r.participant.member.name, r.result, r.status)
            for r in ResultReport.objects.filter(game=self.game).order_by("pk")
        ]


def _player(season: Season, name: str, **member: object) -> Participant:
    user = User.objects.create_user(name.split()[0].lower(), password="player-pass-123")
    return ParticipantFactory(
        season=season, member=MemberFactory(club=season.club, name=name, user=user, **member)
    )


def published_evening(td_user: User, result_entry: str = ResultEntry.PLAYERS_AGREE) -> Evening:
    season = SeasonFactory(result_entry=result_entry)
    white = _player(season, "Anna de Vries")
    black = _player(season, "Bram Jansen")
    third = _player(season, "Cor Visser")
    fourth = _player(season, "Dirk Bakker")
    (rnd,) = round_create(seasons=[season], date=datetime.date(2026, 9, 10))
    game = game_create(round=rnd, board=1, white=white, black=black)
    other = game_create(round=rnd, board=2, white=third, black=fourth)
    evening.round_publish(round=rnd, user=td_user)
    rnd.refresh_from_db()
    return Evening(season, rnd, game, other, white, black, third, td_user)


@pytest.fixture
def tonight(td_user) -> Evening:
    return published_evening(td_user)


def test_agreement_saves_a_draw_through_the_result_service_with_version_plus_one(tonight):
    report = tonight.enter(tonight.white, Game.Result.DRAW)
    assert (report.status, tonight.fresh_game().result) == (Reported.ENTERED, "")
    answered = result_report_answer(
        report_id=report.pk,
        participant=tonight.black,
        agree=True,
        result=Game.Result.DRAW,
        user=tonight.user(tonight.black),
    )
    game = tonight.fresh_game()
    assert (game.result, game.version) == ("1/2", 2)
    assert game.updated_by == tonight.user(tonight.black)  # the player who confirmed
    assert (answered.pk, answered.status, answered.confirmed_by) == (
        report.pk,
        Reported.CONFIRMED,
        tonight.black,
    )
    last = game.history.first()
    assert last.history_change_reason == "entered by Anna de Vries, confirmed by Bram Jansen"
    assert last.updated_by == tonight.user(tonight.black)


def test_both_enter_different_results_at_the_same_moment_is_a_dispute(tonight):
    first = tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    second = tonight.enter(tonight.black, Game.Result.BLACK_WINS)  # sees the first
    assert second.status == Reported.DISPUTED
    assert tonight.reports() == [
        ("Anna de Vries", "1-0", Reported.DISPUTED),
        ("Bram Jansen", "0-1", Reported.DISPUTED),
    ]
    game = tonight.fresh_game()
    assert (game.result, game.version) == ("", 1)  # nothing saved: the TD decides
    with pytest.raises(ServiceError, match="disputed: the TD decides"):
        tonight.enter(tonight.white, Game.Result.DRAW)
    with pytest.raises(ServiceError, match="disputed: enter it yourself"):
        result_report_td_confirm(report_id=first.pk, user=tonight.td)
    assert round_report_states(round=tonight.round)[tonight.game.pk].state == "disputed"


def test_both_enter_the_same_result_is_an_agreement(tonight):
    tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    second = tonight.enter(tonight.black, Game.Result.WHITE_WINS)
    assert second.status == Reported.CONFIRMED and second.participant == tonight.white
    game = tonight.fresh_game()
    assert (game.result, game.version) == ("1-0", 2)


def test_the_td_settles_a_dispute_and_his_entry_supersedes_every_report(tonight):
    tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    tonight.enter(tonight.black, Game.Result.BLACK_WINS)
    result_record(
        game_id=tonight.game.pk, result=Game.Result.DRAW, expected_version=1, user=tonight.td
    )
    game = tonight.fresh_game()
    assert (game.result, game.version, game.updated_by) == ("1/2", 2, tonight.td)
    assert {status for _n, _r, status in tonight.reports()} == {Reported.SUPERSEDED}
    assert tonight.game.pk not in round_report_states(round=tonight.round)


def test_a_player_entering_after_the_td_is_refused_and_the_tds_result_stands(tonight):
    result_record(
        game_id=tonight.game.pk, result=Game.Result.BLACK_WINS, expected_version=1, user=tonight.td
    )
    with pytest.raises(ServiceError, match="already has its result: 0-1"):
        tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    game = tonight.fresh_game()
    assert (game.result, game.version) == ("0-1", 2)
    assert not ResultReport.objects.exists()


def test_an_answer_after_the_td_entered_the_board_is_refused(tonight):
    report = tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    result_record(
        game_id=tonight.game.pk, result=Game.Result.DRAW, expected_version=1, user=tonight.td
    )
    with pytest.raises(ServiceError, match="already has its result"):
        result_report_answer(
            report_id=report.pk,
            participant=tonight.black,
            agree=True,
            result=Game.Result.WHITE_WINS,
            user=tonight.user(tonight.black),
        )
    assert tonight.fresh_game().result == "1/2"
    assert tonight.reports() == [("Anna de Vries", "1-0", Reported.SUPERSEDED)]


def test_someone_from_another_board_cannot_enter_or_answer(tonight):
    with pytest.raises(ServiceError, match="do not play on board 1"):
        tonight.enter(tonight.third, Game.Result.WHITE_WINS)
    report = tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    with pytest.raises(ServiceError, match="do not play on board 1"):
        result_report_answer(
            report_id=report.pk,
            participant=tonight.third,
            agree=True,
            result=Game.Result.WHITE_WINS,
            user=tonight.user(tonight.third),
        )
    assert tonight.reports() == [("Anna de Vries", "1-0", Reported.ENTERED)]
    assert tonight.fresh_game().result == ""


def test_someone_not_playing_tonight_or_from_another_club_is_refused(tonight):
    resting = _player(tonight.season, "Eva Smit")  # in the season, without a game tonight
    other_club = SeasonFactory(club=ClubFactory(name="Het Paard", slug="het-paard"))
    stranger = _player(other_club, "Frits Meijer")
    for participant in (resting, stranger):
        with pytest.raises(ServiceError, match="do not play on board 1"):
            tonight.enter(participant, Game.Result.WHITE_WINS)
    assert not ResultReport.objects.exists()


def test_only_the_player_himself_can_enter(tonight):
    with pytest.raises(ServiceError, match="Only the player himself"):
        result_report(
            game_id=tonight.game.pk,
            participant=tonight.white,
            result=Game.Result.WHITE_WINS,
            user=tonight.user(tonight.black),
        )
    assert not ResultReport.objects.exists()


def test_the_round_closed_meanwhile_refuses_the_report(tonight):
    report = tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    for game in (tonight.game, tonight.other):
        result_record(game_id=game.pk, result=Game.Result.DRAW, expected_version=1, user=tonight.td)
    round_complete(round=tonight.round, user=tonight.td)
    with pytest.raises(ServiceError, match="Round 1 is closed"):
        result_report(
            game_id=tonight.other.pk,
            participant=tonight.third,
            result=Game.Result.WHITE_WINS,
            user=tonight.user(tonight.third),
        )
    with pytest.raises(ServiceError, match="Round 1 is closed"):
        result_report_answer(
            report_id=report.pk,
            participant=tonight.black,
            agree=True,
            result=Game.Result.WHITE_WINS,
            user=tonight.user(tonight.black),
        )
    assert tonight.fresh_game().result == "1/2"


def test_a_pairing_not_yet_published_refuses_the_report(td_user):
    season = SeasonFactory(result_entry=ResultEntry.PLAYERS_AGREE)
    white, black = _player(season, "Anna de Vries"), _player(season, "Bram Jansen")
    (rnd,) = round_create(seasons=[season], date=datetime.date(2026, 9, 10))
    game = game_create(round=rnd, board=1, white=white, black=black)
    with pytest.raises(ServiceError, match="not published yet"):
        result_report(game_id=game.pk, participant=white, result="1-0", user=white.member.user)
    assert not ResultReport.objects.exists()


def test_the_same_result_entered_twice_is_harmless(tonight):
    first = tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    again = tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    assert again.pk == first.pk
    assert tonight.reports() == [("Anna de Vries", "1-0", Reported.ENTERED)]
    # and a confirmation tapped twice saves once
    for _twice in range(2):
        result_report_answer(
            report_id=first.pk,
            participant=tonight.black,
            agree=True,
            result=Game.Result.WHITE_WINS,
            user=tonight.user(tonight.black),
        )
    game = tonight.fresh_game()
    assert (game.result, game.version, game.history.count()) == ("1-0", 2, 2)


def test_a_player_may_change_his_result_until_it_is_answered(tonight):
    report = tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    tonight.enter(tonight.white, Game.Result.DRAW)
    assert tonight.reports() == [("Anna de Vries", "1/2", Reported.ENTERED)]
    with pytest.raises(ServiceError, match="changed the result to ½-½ meanwhile"):
        result_report_answer(
            report_id=report.pk,
            participant=tonight.black,
            agree=True,
            result=Game.Result.WHITE_WINS,  # what his page showed before the change
            user=tonight.user(tonight.black),
        )
    assert tonight.fresh_game().result == ""


def test_a_dispute_by_the_opponent_goes_to_the_td(tonight):
    report = tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    for _twice in range(2):  # a second tap changes nothing
        disputed = result_report_answer(
            report_id=report.pk,
            participant=tonight.black,
            agree=False,
            result=Game.Result.WHITE_WINS,
            user=tonight.user(tonight.black),
        )
    assert disputed.status == Reported.DISPUTED
    state = round_report_states(round=tonight.round)[tonight.game.pk]
    assert (state.state, [line.name for line in state.lines]) == ("disputed", ["Anna de Vries"])
    with pytest.raises(ServiceError, match="Your opponent confirms your result"):
        result_report_answer(
            report_id=report.pk,
            participant=tonight.white,
            agree=True,
            result=Game.Result.WHITE_WINS,
            user=tonight.user(tonight.white),
        )


def test_forfeits_stay_the_tds(tonight):
    for forfeit in (Game.Result.WHITE_WINS_FORFEIT, Game.Result.DOUBLE_FORFEIT, ""):
        with pytest.raises(ServiceError, match="forfeits are for the TD"):
            tonight.enter(tonight.white, forfeit)
    assert not ResultReport.objects.exists()


def test_the_setting_td_refuses_players(td_user):
    tonight = published_evening(td_user, ResultEntry.TD)
    with pytest.raises(ServiceError, match="the TD enters the results"):
        tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    assert not ResultReport.objects.exists()
    assert round_report_states(round=tonight.round) == {}
    assert my_result_reports(user=tonight.user(tonight.white)) == {}


def test_where_the_td_confirms_agreement_waits_for_him(td_user):
    tonight = published_evening(td_user, ResultEntry.PLAYERS_TD_CONFIRMS)
    report = tonight.enter(tonight.white, Game.Result.BLACK_WINS)
    agreed = result_report_answer(
        report_id=report.pk,
        participant=tonight.black,
        agree=True,
        result=Game.Result.BLACK_WINS,
        user=tonight.user(tonight.black),
    )
    assert agreed.status == Reported.ENTERED and agreed.participant == tonight.black
    assert tonight.fresh_game().result == ""
    state = round_report_states(round=tonight.round)[tonight.game.pk]
    assert state.state == "entered" and state.to_confirm is not None
    assert [line.name for line in state.lines] == ["Anna de Vries", "Bram Jansen"]

    for _twice in range(2):  # one tap, and a second that changes nothing
        game = result_report_td_confirm(report_id=report.pk, user=td_user)
    assert (game.result, game.version, game.updated_by) == ("0-1", 2, td_user)
    assert game.history.first().history_change_reason == (
        "entered by Anna de Vries, confirmed by the TD"
    )
    assert {status for _n, _r, status in tonight.reports()} == {Reported.CONFIRMED}
    state = round_report_states(round=tonight.round)[tonight.game.pk]
    assert (state.state, state.confirmed.name, state.confirmed_by) == (
        "confirmed",
        "Anna de Vries",
        "",
    )


def test_the_td_confirms_in_one_tap_where_the_players_agree_too(tonight):
    report = tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    game = result_report_td_confirm(report_id=report.pk, user=tonight.td)
    assert (game.result, game.version) == ("1-0", 2)


def test_the_trail_names_the_players_by_their_public_names_and_is_no_correction(td_user):
    season = SeasonFactory(result_entry=ResultEntry.PLAYERS_AGREE, name_display="short")
    white, black = _player(season, "Anna de Vries"), _player(season, "Bram Jansen")
    (rnd,) = round_create(seasons=[season], date=datetime.date(2026, 9, 10))
    game = game_create(round=rnd, board=1, white=white, black=black)
    evening.round_publish(round=rnd, user=td_user)
    report = result_report(game_id=game.pk, participant=white, result="1-0", user=white.member.user)
    result_report_answer(
        report_id=report.pk, participant=black, agree=True, result="1-0", user=black.member.user
    )
    round_complete(round=rnd, user=td_user)
    rnd.refresh_from_db()
    (line,) = round_entered_results(round=rnd)
    assert "Anna de Vries" not in line.reason and "Bram Jansen" not in line.reason
    assert (line.board, line.result) == (1, "1-0")
    assert line.reason.startswith("entered by ") and ", confirmed by " in line.reason
    corrections, entered = round_trail(round=rnd, public=True)
    assert corrections == [] and entered == [line]
    assert corrections_for_round(round=rnd) == []
    # a correction afterwards is one, from the players' result
    result_record(game_id=game.pk, result="0-1", expected_version=2, user=td_user, reason="typo")
    (correction,) = corrections_for_round(round=rnd, public=True)
    assert (correction.before, correction.after, correction.reason) == ("1-0", "0-1", "typo")


def test_my_page_reads_tonights_board_with_both_words(tonight):
    tonight.enter(tonight.white, Game.Result.DRAW)
    mine = my_result_reports(user=tonight.user(tonight.black))[tonight.season.pk]
    assert (mine.board, mine.result, mine.mine) == (1, "", None)
    assert (mine.theirs.name, mine.theirs.result) == ("Anna de Vries", "1/2")
    assert [code for code, _label in mine.choices] == ["1-0", "1/2", "0-1"]


def test_my_page_reads_every_board_in_three_queries_and_one_per_season(
    tonight, django_assert_num_queries
):
    """Anna plays in two seasons tonight, both her boards with reports of both players: the
    participants, the boards, the open reports, and each season's public names."""
    anna = tonight.white
    second = SeasonFactory(club=tonight.season.club, result_entry=ResultEntry.PLAYERS_AGREE)
    anna_again = ParticipantFactory(season=second, member=anna.member)
    eve = _player(second, "Eve Smit")
    (rnd,) = round_create(seasons=[second], date=datetime.date(2026, 9, 10))
    game = game_create(round=rnd, board=1, white=eve, black=anna_again)
    evening.round_publish(round=rnd, user=tonight.td)
    tonight.enter(anna, Game.Result.DRAW)
    tonight.enter(tonight.third, Game.Result.WHITE_WINS, game=tonight.other)
    tonight.enter(eve, Game.Result.WHITE_WINS, game=game)
    with django_assert_num_queries(5):
        mine = my_result_reports(user=tonight.user(anna))
    assert set(mine) == {tonight.season.pk, second.pk}
    first, other = mine[tonight.season.pk], mine[second.pk]
    assert (first.board, first.mine.result, first.theirs) == (1, "1/2", None)
    assert (other.board, other.mine, other.theirs.name, other.theirs.result) == (
        1,
        None,
        "Eve Smit",
        "1-0",
    )


def test_the_season_setting_is_saved_and_refuses_an_unknown_value(tonight):
    season_result_entry_update(season=tonight.season, result_entry=ResultEntry.TD)
    tonight.season.refresh_from_db()
    assert tonight.season.result_entry == "td"
    with pytest.raises(ServiceError, match="Unknown way"):
        season_result_entry_update(season=tonight.season, result_entry="everyone")
    tonight.season.refresh_from_db()
    assert tonight.season.result_entry == "td"


def test_why_did_i_move_counts_the_players_result_as_first_closed(td_user):
    """The participant page's corrections compare the round as first closed with the round
    now: the players' first result is how the round was closed, not a correction of it."""
    from competition.selectors.participants import participant_detail

    tonight = published_evening(td_user)
    report = tonight.enter(tonight.white, Game.Result.WHITE_WINS)
    tonight.enter(tonight.black, Game.Result.WHITE_WINS)  # agreed
    result_report_td_confirm(report_id=report.pk, user=td_user)  # nothing left: a second tap
    result_record(game_id=tonight.other.pk, result="1/2", expected_version=1, user=td_user)
    round_complete(round=tonight.round, user=td_user)
    page = participant_detail(season=tonight.season, participant_id=tonight.white.pk)
    assert page.corrections == {}
    result_record(
        game_id=tonight.game.pk, result="0-1", expected_version=2, user=td_user, reason="typo"
    )
    page = participant_detail(season=tonight.season, participant_id=tonight.white.pk, after_round=1)
    (row,) = page.corrections[1].rows
    assert (row.before, row.after, row.reasons) == ("1-0", "0-1", ("typo",))


def _enter_at_once(
    game_id: int, participant: Participant, result: str, barrier, outcome: dict[int, str]
) -> None:
    from django.db import connections

    translation.activate("en")
    try:
        barrier.wait(timeout=10)
        report = result_report(
            game_id=game_id, participant=participant, result=result, user=participant.member.user
        )
        outcome[participant.pk] = report.status
    except ServiceError as error:
        outcome[participant.pk] = str(error)
    finally:
        translation.deactivate()
        connections.close_all()


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_both_players_at_the_same_moment_on_postgresql(td_user):
    """Two threads, one per player, enter at once: the round's lock makes them take turns, so
    the second sees the first. Different results: both disputed and nothing saved; the same
    result: saved once, with version 2."""
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks (set DATABASE_URL=postgres://...)")
    tonight = published_evening(td_user)
    for results, expected in ((("1-0", "0-1"), "disputed"), (("1/2", "1/2"), "agreed")):
        ResultReport.objects.all().delete()
        Game.objects.filter(pk=tonight.game.pk).update(result="", version=1)
        barrier = threading.Barrier(2)
        outcome: dict[int, str] = {}
        threads = [
            threading.Thread(
                target=_enter_at_once, args=(tonight.game.pk, player, result, barrier, outcome)
            )
            for player, result in zip((tonight.white, tonight.black), results, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        game = tonight.fresh_game()
        if expected == "disputed":
            assert sorted(outcome.values()) == ["disputed", "entered"]
            assert set(ResultReport.objects.values_list("status", flat=True)) == {"disputed"}
            assert (game.result, game.version) == ("", 1)
        else:
            assert sorted(outcome.values()) == ["confirmed", "entered"]
            assert (game.result, game.version) == ("1/2", 2)
            assert set(ResultReport.objects.values_list("status", flat=True)) == {"confirmed"}
