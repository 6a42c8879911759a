"""Members check in ("Ik ben er"): the TD opens and closes the window on tonight's planned round;
a member checks in only himself, only tonight, only in his own season, only while it is open;
closing may mark the rest absent without notice; the TD's marks stay his."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone, translation

from competition.models import PRESENT, AbsenceReport, CheckIn, Game, Round, RoundEntry
from competition.selectors.check_in import (
    CODE_ALPHABET,
    CODE_LENGTH,
    check_in_state,
    round_by_check_in_code,
)
from competition.services import evening
from competition.services.absences import absence_report
from competition.services.check_in import (
    check_in_close,
    check_in_code_new,
    check_in_open,
    member_check_in,
)
from competition.services.errors import ServiceError
from competition.services.rounds import round_create
from tests.factories import ClubFactory, MemberFactory, ParticipantFactory, SeasonFactory
from tests.views.member_club import MemberClub, member_club, today

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_messages():
    with translation.override("en"):
        yield


@pytest.fixture
def club() -> MemberClub:
    return member_club()


def tonight(club: MemberClub) -> Round:
    return round_create(seasons=[club.season])[0]


def opened(club: MemberClub) -> Round:
    return check_in_open(round=tonight(club), user=club.td)


def entries(rnd: Round) -> dict[int, str]:
    return dict(RoundEntry.objects.filter(round=rnd).values_list("participant_id", "kind"))


def refused(call) -> str:
    with pytest.raises(ServiceError) as caught:
        call()
    return str(caught.value)


# --- the code --------------------------------------------------------------------------------


def test_a_code_has_six_unambiguous_characters() -> None:
    codes = {check_in_code_new() for _n in range(200)}
    assert len(codes) > 190  # random, not a counter
    for code in codes:
        assert len(code) == CODE_LENGTH == 6
        assert set(code) <= set(CODE_ALPHABET)
        assert not set(code) & set("0O1IL")


def test_opening_gives_the_round_a_code_and_a_second_tap_keeps_it(club) -> None:
    rnd = opened(club)
    code = rnd.check_in_code
    assert code and len(code) == 6 and rnd.check_in_is_open
    again = check_in_open(round=rnd, user=club.td)
    assert again.check_in_code == code and again.check_in_opened_at == rnd.check_in_opened_at
    assert round_by_check_in_code(code=code.lower(), club=None) == rnd
    assert round_by_check_in_code(code=code, club=club.season.club) == rnd


def test_the_code_is_not_found_under_another_clubs_address(club) -> None:
    rnd = opened(club)
    other = ClubFactory(name="Elders", slug="elders")
    assert round_by_check_in_code(code=rnd.check_in_code, club=other) is None
    assert round_by_check_in_code(code="", club=None) is None
    assert round_by_check_in_code(code="ZZZZZZZZZZZZ", club=None) is None


def test_reopening_after_closing_keeps_the_code(club) -> None:
    rnd = opened(club)
    code = rnd.check_in_code
    check_in_close(round=rnd, user=club.td)
    rnd.refresh_from_db()
    assert not rnd.check_in_is_open and rnd.check_in_code == code
    rnd = check_in_open(round=rnd, user=club.td)
    assert rnd.check_in_is_open and rnd.check_in_code == code


def test_opening_is_refused_for_a_published_round_another_day_and_a_round_robin(club) -> None:
    rnd = tonight(club)
    Round.objects.filter(pk=rnd.pk).update(date=today() - datetime.timedelta(days=7))
    rnd.refresh_from_db()
    assert "Check-in is for tonight's round" in refused(
        lambda: check_in_open(round=rnd, user=club.td)
    )
    Round.objects.filter(pk=rnd.pk).update(date=today(), status=Round.Status.PAIRED)
    rnd.refresh_from_db()
    assert refused(lambda: check_in_open(round=rnd, user=club.td)) == (
        "The pairing of round 1 is published; check-in is over."
    )
    robin = SeasonFactory(club=club.season.club, kind="round_robin", slug="robin")
    ParticipantFactory(season=robin)
    robin_round = round_create(seasons=[robin])[0]
    assert "members do not check in" in refused(
        lambda: check_in_open(round=robin_round, user=club.td)
    )
    assert Round.objects.filter(check_in_code__isnull=False).count() == 0


# --- the member ------------------------------------------------------------------------------


def test_a_member_checks_in_once_however_often_he_taps(club) -> None:
    rnd = opened(club)
    first = member_check_in(round=rnd, user=club.user)
    second = member_check_in(round=rnd, user=club.user)
    assert (first.created, second.created) == (True, False)
    assert first.check_in.pk == second.check_in.pk
    row = CheckIn.objects.get()
    assert (row.round, row.participant, row.checked_in_by) == (rnd, club.me, club.user)
    assert first.mark == PRESENT and entries(rnd) == {}
    state = check_in_state(round=rnd)
    assert state.count == 1 and state.checked_in() == {club.me.pk: row.checked_in_at}


def test_the_window_closed_refuses_and_changes_nothing(club) -> None:
    rnd = tonight(club)
    assert refused(lambda: member_check_in(round=rnd, user=club.user)) == (
        "Check-in is closed; tell the tournament director you are here."
    )
    rnd = check_in_open(round=rnd, user=club.td)
    check_in_close(round=rnd, user=club.td)
    rnd.refresh_from_db()
    assert "Check-in is closed" in refused(lambda: member_check_in(round=rnd, user=club.user))
    assert CheckIn.objects.count() == 0


def test_a_member_of_another_season_or_club_or_none_is_refused(club) -> None:
    rnd = opened(club)
    second = member_club(slug="tweede")  # same club, another season with its own people
    assert refused(lambda: member_check_in(round=rnd, user=second.user)) == (
        "You do not play in this season."
    )
    elsewhere = User.objects.create_user("elders-lid", password="elders-pass-123")
    MemberFactory(club=ClubFactory(name="Elders", slug="elders"), user=elsewhere)
    assert refused(lambda: member_check_in(round=rnd, user=elsewhere)) == (
        "You do not play in this season."
    )
    nobody = User.objects.create_user("geen-lid", password="geen-pass-12345")
    assert refused(lambda: member_check_in(round=rnd, user=nobody)) == (
        "You do not play in this season."
    )
    # The TD himself is no participant either: he marks, he does not check in.
    assert refused(lambda: member_check_in(round=rnd, user=club.td)) == (
        "You do not play in this season."
    )
    assert CheckIn.objects.count() == 0


def test_a_withdrawn_player_is_refused(club) -> None:
    rnd = opened(club)
    club.me.joined_round = 2
    club.me.save()
    assert refused(lambda: member_check_in(round=rnd, user=club.user)) == (
        "You do not take part in round 1."
    )


def test_no_round_tonight_when_the_round_is_dated_another_day(club) -> None:
    rnd = opened(club)
    later = timezone.now() + datetime.timedelta(days=1)
    assert refused(lambda: member_check_in(round=rnd, user=club.user, now=later)) == (
        "There is no round tonight in Interne competitie."
    )
    assert CheckIn.objects.count() == 0


def test_once_paired_a_check_in_is_refused(club) -> None:
    rnd = opened(club)
    evening.pairing_propose(round=rnd, user=club.td)
    evening.round_publish(round=rnd, user=club.td)
    rnd.refresh_from_db()
    assert not rnd.check_in_is_open
    assert refused(lambda: member_check_in(round=rnd, user=club.user)) == (
        "The pairing of round 1 is published; check-in is over."
    )
    assert "published" in refused(lambda: check_in_close(round=rnd, user=club.td))
    assert CheckIn.objects.count() == 0


def test_a_check_in_clears_his_absence_and_his_report(club) -> None:
    day = today()
    evening_row = club.evening(day)
    absence_report(evening=evening_row, participant=club.me, user=club.user, note="ziek")
    rnd = tonight(club)  # the report becomes an absence with notice
    assert entries(rnd) == {club.me.pk: RoundEntry.Kind.ABSENT_NOTICE}
    rnd = check_in_open(round=rnd, user=club.td)
    done = member_check_in(round=rnd, user=club.user)
    assert done.mark == PRESENT and entries(rnd) == {}
    assert AbsenceReport.objects.count() == 0
    # another member's report stays
    assert check_in_state(round=rnd).marks[club.others[0].pk] == PRESENT


def test_a_reported_absence_of_someone_else_stays_as_it_is(club) -> None:
    evening_row = club.evening(today())
    other_user = User.objects.create_user("bram", password="bram-pass-12345")
    club.others[0].member.user = other_user
    club.others[0].member.save()
    absence_report(evening=evening_row, participant=club.others[0], user=other_user)
    rnd = opened(club)
    member_check_in(round=rnd, user=club.user)
    check_in_close(round=rnd, user=club.td, absent_rest=True)
    assert entries(rnd) == {
        club.others[0].pk: RoundEntry.Kind.ABSENT_NOTICE,  # his report, unchanged
        club.others[1].pk: RoundEntry.Kind.ABSENT_NO_NOTICE,
        club.others[2].pk: RoundEntry.Kind.ABSENT_NO_NOTICE,
    }
    assert AbsenceReport.objects.get().participant == club.others[0]


def test_a_club_duty_stays_when_he_checks_in(club) -> None:
    rnd = opened(club)
    evening.attendance_record(
        round=rnd, marks={club.me.pk: RoundEntry.Kind.CLUB_DUTY}, user=club.td
    )
    done = member_check_in(round=rnd, user=club.user)
    assert done.created and done.mark == RoundEntry.Kind.CLUB_DUTY
    assert entries(rnd) == {club.me.pk: RoundEntry.Kind.CLUB_DUTY}


def test_a_check_in_discards_the_draft_it_changes(club) -> None:
    rnd = opened(club)
    evening.attendance_record(
        round=rnd, marks={club.me.pk: RoundEntry.Kind.ABSENT_NO_NOTICE}, user=club.td
    )
    evening.pairing_propose(round=rnd, user=club.td)
    assert Game.objects.filter(round=rnd).count() == 1  # three present: one board and a bye
    member_check_in(round=rnd, user=club.user)
    assert Game.objects.filter(round=rnd).count() == 0  # the draft lacked him: thrown away
    assert entries(rnd) == {}


# --- closing and the TD's word ---------------------------------------------------------------


def test_closing_marks_the_rest_absent_without_notice_in_one_go(club) -> None:
    rnd = opened(club)
    member_check_in(round=rnd, user=club.user)
    done = check_in_close(
        round=rnd,
        user=club.td,
        absent_rest=True,
        marks={club.others[0].pk: RoundEntry.Kind.CLUB_DUTY},
    )
    assert done.marked_absent == 2
    assert entries(rnd) == {
        club.others[0].pk: RoundEntry.Kind.CLUB_DUTY,  # the TD's mark, posted along
        club.others[1].pk: RoundEntry.Kind.ABSENT_NO_NOTICE,
        club.others[2].pk: RoundEntry.Kind.ABSENT_NO_NOTICE,
    }
    assert RoundEntry.objects.get(participant=club.others[1], round=rnd).updated_by == club.td
    rnd.refresh_from_db()
    assert not rnd.check_in_is_open


def test_closing_twice_is_refused_and_keeps_the_tds_marks_since(club) -> None:
    rnd = opened(club)
    check_in_close(round=rnd, user=club.td, absent_rest=True)
    # Dirk came without checking in: the TD marks him present
    evening.attendance_record(round=rnd, marks={club.others[2].pk: PRESENT}, user=club.td)
    assert refused(lambda: check_in_close(round=rnd, user=club.td, absent_rest=True)) == (
        "Check-in is not open."
    )
    assert club.others[2].pk not in entries(rnd)


def test_the_td_overrides_a_check_in(club) -> None:
    rnd = opened(club)
    member_check_in(round=rnd, user=club.user)
    evening.attendance_record(
        round=rnd, marks={club.me.pk: RoundEntry.Kind.ABSENT_NOTICE}, user=club.td
    )
    # a second tap does not undo the TD's mark
    again = member_check_in(round=rnd, user=club.user)
    assert not again.created and again.mark == RoundEntry.Kind.ABSENT_NOTICE
    assert entries(rnd) == {club.me.pk: RoundEntry.Kind.ABSENT_NOTICE}
    state = check_in_state(round=rnd)
    assert [(r.participant_id, r.mark) for r in state.rows] == [
        (club.me.pk, RoundEntry.Kind.ABSENT_NOTICE)
    ]
    # closing with the rest absent leaves him as the TD marked him
    check_in_close(round=rnd, user=club.td, absent_rest=True)
    assert entries(rnd)[club.me.pk] == RoundEntry.Kind.ABSENT_NOTICE


def test_a_refused_close_saves_no_marks(club) -> None:
    rnd = tonight(club)
    assert refused(
        lambda: check_in_close(
            round=rnd, user=club.td, marks={club.me.pk: RoundEntry.Kind.ABSENT_NOTICE}
        )
    ) == ("Check-in is not open.")
    assert entries(rnd) == {}
