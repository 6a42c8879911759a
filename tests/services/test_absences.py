"""Members' reports for coming club evenings, the TD's calendar of evenings, the calendar token."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import override

from competition.models import AbsenceReport, ClubEvening, Member, Round, RoundEntry, Season
from competition.services import absences, feeds
from competition.services.errors import ServiceError
from competition.services.rounds import round_create
from tests.factories import ParticipantFactory, RoundFactory, SeasonFactory
from tests.views.member_club import member_club, today

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """The messages are matched in English (Dutch is the default language)."""
    with override("en"):
        yield


def numbers(season: Season) -> list[tuple[datetime.date, int]]:
    return list(
        ClubEvening.objects.filter(season=season)
        .order_by("date")
        .values_list("date", "round_number")
    )


# --- the calendar ------------------------------------------------------------------------------


def test_evenings_are_numbered_in_date_order() -> None:
    season = SeasonFactory()
    absences.evenings_add(season=season, dates=[D(2027, 1, 21), D(2027, 1, 14)])
    assert numbers(season) == [(D(2027, 1, 14), 1), (D(2027, 1, 21), 2)]
    # An evening before the others moves them up.
    added = absences.evenings_add(season=season, dates=[D(2027, 1, 7)], note="Bekeravond")
    assert [(e.date, e.round_number, e.note) for e in added] == [(D(2027, 1, 7), 1, "Bekeravond")]
    assert numbers(season) == [(D(2027, 1, 7), 1), (D(2027, 1, 14), 2), (D(2027, 1, 21), 3)]


def test_evenings_follow_the_rounds_played() -> None:
    season = SeasonFactory()
    RoundFactory(season=season, number=1, date=D(2026, 9, 10))
    RoundFactory(season=season, number=2, date=D(2026, 9, 17))
    absences.evenings_add(season=season, dates=[D(2026, 9, 17), D(2026, 10, 1), D(2026, 9, 24)])
    # The evening of round 2 keeps its number; the coming ones follow it.
    assert numbers(season) == [(D(2026, 9, 17), 2), (D(2026, 9, 24), 3), (D(2026, 10, 1), 4)]


def test_a_date_in_the_calendar_refuses_the_whole_list() -> None:
    season = SeasonFactory()
    absences.evenings_add(season=season, dates=[D(2027, 1, 14)])
    with pytest.raises(ServiceError, match="Already in the calendar"):
        absences.evenings_add(season=season, dates=[D(2027, 1, 21), D(2027, 1, 14)])
    assert numbers(season) == [(D(2027, 1, 14), 1)]
    with pytest.raises(ServiceError, match="at least one date"):
        absences.evenings_add(season=season, dates=[])


def test_an_evening_with_reports_is_not_deleted() -> None:
    club = member_club()
    first = club.evening(today() + datetime.timedelta(days=7))
    second = club.evening(today() + datetime.timedelta(days=14))
    absences.absence_report(evening=first, participant=club.me, user=club.user)
    with pytest.raises(ServiceError, match="1 member reported for this evening"):
        absences.evening_delete(evening=first)
    assert ClubEvening.objects.filter(pk=first.pk).exists()
    absences.evening_delete(evening=second)
    assert list(ClubEvening.objects.filter(season=club.season)) == [first]


def test_deleting_an_evening_renumbers_the_later_ones() -> None:
    season = SeasonFactory()
    first, _second, third = absences.evenings_add(
        season=season, dates=[D(2027, 1, 7), D(2027, 1, 14), D(2027, 1, 21)]
    )
    absences.evening_delete(evening=first)
    third.refresh_from_db()
    assert third.round_number == 2


def test_season_report_settings() -> None:
    season = SeasonFactory()
    absences.season_absence_settings_update(
        season=season,
        absence_deadline=datetime.time(18, 0),
        requested_byes=True,
        evening_start=datetime.time(19, 30),
    )
    season.refresh_from_db()
    assert (season.absence_deadline, season.requested_byes) == (datetime.time(18, 0), True)
    assert season.evening_start == season.evening_starts_at == datetime.time(19, 30)
    absences.season_absence_settings_update(
        season=season, absence_deadline=None, requested_byes=False, evening_start=None
    )
    season.refresh_from_db()
    assert (season.absence_deadline, season.requested_byes) == (None, False)
    assert season.evening_start is None
    assert season.evening_starts_at == season.club.evening_start == datetime.time(20, 0)


# --- reports -----------------------------------------------------------------------------------


def test_a_second_report_replaces_the_first() -> None:
    club = member_club(requested_byes=True)
    evening = club.evening(today() + datetime.timedelta(days=7))
    absences.absence_report(evening=evening, participant=club.me, user=club.user, note="ziek")
    absences.absence_report(
        evening=evening, participant=club.me, user=club.user, kind=AbsenceReport.Kind.BYE
    )
    report = AbsenceReport.objects.get(evening=evening)
    assert (report.kind, report.note, report.reported_by) == ("bye", "", club.user)
    assert report.history.count() == 2  # the trail keeps both


def test_only_for_himself_and_his_seasons() -> None:
    club = member_club()
    evening = club.evening(today() + datetime.timedelta(days=7))
    with pytest.raises(ServiceError, match="only report for yourself"):
        absences.absence_report(evening=evening, participant=club.others[0], user=club.user)
    other_season = SeasonFactory(club=club.season.club, slug="rapid")
    elsewhere = ParticipantFactory(season=other_season, member=club.me.member)
    with pytest.raises(ServiceError, match="do not play in this season"):
        absences.absence_report(evening=evening, participant=elsewhere, user=club.user)
    assert not AbsenceReport.objects.exists()


def test_no_report_after_the_deadline_or_for_a_past_evening() -> None:
    club = member_club(deadline=datetime.time(18, 0))
    day = D(2027, 1, 14)
    evening = club.evening(day)
    tz = timezone.get_current_timezone()
    before = datetime.datetime(2027, 1, 14, 17, 59, tzinfo=tz)
    after = datetime.datetime(2027, 1, 14, 18, 0, tzinfo=tz)
    absences.absence_report(evening=evening, participant=club.me, user=club.user, now=before)
    with pytest.raises(ServiceError, match="closed at 14 January 18:00"):
        absences.absence_withdraw(evening=evening, participant=club.me, user=club.user, now=after)
    with pytest.raises(ServiceError, match="has passed"):
        absences.absence_report(
            evening=evening,
            participant=club.me,
            user=club.user,
            now=after + datetime.timedelta(days=1),
        )
    assert AbsenceReport.objects.filter(evening=evening).count() == 1


def test_no_bye_unless_the_season_allows_it() -> None:
    club = member_club(requested_byes=False)
    evening = club.evening(today() + datetime.timedelta(days=7))
    with pytest.raises(ServiceError, match="no requested byes"):
        absences.absence_report(
            evening=evening, participant=club.me, user=club.user, kind=AbsenceReport.Kind.BYE
        )
    assert not AbsenceReport.objects.exists()


def test_no_report_in_a_finished_season() -> None:
    club = member_club()
    evening = club.evening(today() + datetime.timedelta(days=7))
    Season.objects.filter(pk=club.season.pk).update(status=Season.Status.FINISHED)
    with pytest.raises(ServiceError, match="has finished"):
        absences.absence_report(evening=evening, participant=club.me, user=club.user)


def test_taking_back_twice_says_there_is_nothing_to_take_back() -> None:
    club = member_club()
    evening = club.evening(today() + datetime.timedelta(days=7))
    absences.absence_report(evening=evening, participant=club.me, user=club.user)
    absences.absence_withdraw(evening=evening, participant=club.me, user=club.user)
    with pytest.raises(ServiceError, match="no report to take back"):
        absences.absence_withdraw(evening=evening, participant=club.me, user=club.user)
    assert not AbsenceReport.objects.exists()


def test_reports_become_absences_with_notice_when_the_round_opens() -> None:
    club = member_club(requested_byes=True)
    evening = club.evening(today())
    absences.absence_report(evening=evening, participant=club.me, user=club.user, note="werk")
    absences.absence_report(
        evening=evening, participant=club.others[0], user=_own(club.others[0]),
        kind=AbsenceReport.Kind.BYE,
    )  # fmt: skip
    (rnd,) = round_create(seasons=[club.season], date=today())
    entries = list(
        RoundEntry.objects.filter(round=rnd).values_list("participant_id", "kind", "note")
    )
    assert entries == [(club.me.pk, "absent_notice", "werk")]  # a bye request is the TD's call


def test_a_report_on_an_open_round_is_recorded_at_once_and_taken_back() -> None:
    club = member_club()
    evening = club.evening(today())
    (rnd,) = round_create(seasons=[club.season], date=today())
    absences.absence_report(evening=evening, participant=club.me, user=club.user)
    assert RoundEntry.objects.get(round=rnd, participant=club.me).kind == "absent_notice"
    absences.absence_withdraw(evening=evening, participant=club.me, user=club.user)
    assert not RoundEntry.objects.filter(round=rnd, participant=club.me).exists()
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PAIRED)
    with pytest.raises(ServiceError, match="published"):
        absences.absence_report(evening=evening, participant=club.me, user=club.user)


def _own(participant) -> User:
    user = User.objects.create_user(f"user-{participant.pk}", password="x-pass-12345")
    Member.objects.filter(pk=participant.member_id).update(user=user)
    participant.member.user = user
    return user


# --- the calendar token -----------------------------------------------------------------------


def test_the_calendar_token_is_made_once_and_renewed_on_request() -> None:
    club = member_club()
    member = club.me.member
    token = feeds.member_feed_token(member=member)
    assert len(token) == 43
    assert feeds.member_feed_token(member=Member.objects.get(pk=member.pk)) == token
    renewed = feeds.member_feed_token_renew(member=member)
    assert renewed != token and len(renewed) == 43
    assert Member.objects.get(pk=member.pk).feed_token == renewed
