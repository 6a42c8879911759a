"""The access helpers of ``competition.permissions``: each finds the object its address names
within the club of the address, and answers 404 (with the message the page shows) otherwise."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404, HttpRequest
from django.test import RequestFactory
from django.utils import translation

from competition.models import Category, Club, ClubEvening, Member, Participant, Round, SeasonRules
from competition.permissions import (
    category_found,
    club_member,
    club_of_address,
    evening_found,
    export_format_of,
    invitation_of_address,
    named_in,
    participant_found,
    player_found,
    rapid_series_of_address,
    round_for_td,
    round_found,
    rule_set_found,
    season_member,
    season_of_address,
    season_participant,
)
from tests.factories import (
    ClubFactory,
    MemberFactory,
    ParticipantFactory,
    RoundFactory,
    SeasonFactory,
)


@pytest.fixture(autouse=True)
def _english() -> Any:
    with translation.override("en"):
        yield


def _request(club: Club | None, query: dict[str, str] | None = None) -> HttpRequest:
    """A request for an address of ``club`` (None: the site's own address), as the club
    address middleware leaves it."""
    request = RequestFactory().get("/", query or {})
    request.club = club  # type: ignore[attr-defined]
    request.user = AnonymousUser()
    return request


def _message(raised: pytest.ExceptionInfo[Http404]) -> str:
    return str(raised.value)


# --- pure: no database ---------------------------------------------------------------------


def test_named_in_finds_an_entry_of_the_table() -> None:
    assert named_in({"close": 3}, "close") == 3


@pytest.mark.parametrize(("message", "expected"), [(None, ""), ("No such step.", "No such step.")])
def test_named_in_refuses_any_other_name(message: str | None, expected: str) -> None:
    with pytest.raises(Http404) as raised:
        named_in({"close": 3}, "open", message)
    assert _message(raised) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({}, None),
        ({"_export": ""}, None),
        ({"_export": "csv"}, "csv"),
        ({"_export": "xlsx"}, "xlsx"),
    ],
)
def test_export_format_of_the_address(query: dict[str, str], expected: str | None) -> None:
    formats = {"csv": "text/csv", "xlsx": "application/xlsx"}
    assert export_format_of(_request(None, query), formats) == expected


def test_an_unknown_export_format_is_no_page() -> None:
    with pytest.raises(Http404) as raised:
        export_format_of(_request(None, {"_export": "pdf"}), {"csv": "text/csv"})
    assert _message(raised) == "Unknown export format."


def test_no_club_in_the_address_is_no_club() -> None:
    with pytest.raises(Http404) as raised:
        club_of_address(_request(None))
    assert _message(raised) == "No such club."


@pytest.mark.parametrize(
    ("helper", "missing", "message"),
    [
        (round_found, Round.DoesNotExist, "No such round."),
        (participant_found, Participant.DoesNotExist, "No such participant."),
        (rule_set_found, SeasonRules.DoesNotExist, "This season has no such rule set."),
        (evening_found, ClubEvening.DoesNotExist, "No such club evening."),
    ],
)
def test_a_page_read_of_nothing_is_no_page(
    helper: Any, missing: type[Exception], message: str
) -> None:
    def lookup() -> None:
        raise missing

    with pytest.raises(Http404) as raised:
        helper(lookup)
    assert _message(raised) == message
    assert helper(lambda: "read") == "read"


def _invitation(club_id: int) -> Any:
    return SimpleNamespace(member=SimpleNamespace(club_id=club_id))


def test_an_invitation_is_found_at_the_sites_address_and_its_clubs() -> None:
    invitation = _invitation(7)
    assert invitation_of_address(_request(None), invitation) is invitation
    assert invitation_of_address(_request(Club(pk=7)), invitation) is invitation


def test_another_clubs_invitation_is_no_page() -> None:
    with pytest.raises(Http404) as raised:
        invitation_of_address(_request(Club(pk=8)), _invitation(7))
    assert _message(raised) == "No such invitation."


def test_a_player_of_another_club_is_no_page() -> None:
    history = SimpleNamespace(member=Member(club_id=7))
    own = player_found(_request(Club(pk=7)), lambda: history, member=lambda read: read.member)
    assert own is history
    with pytest.raises(Http404) as raised:
        player_found(_request(Club(pk=8)), lambda: history, member=lambda read: read.member)
    assert _message(raised) == "No such player."


def test_no_such_player_is_no_page() -> None:
    def lookup() -> None:
        raise Member.DoesNotExist

    with pytest.raises(Http404) as raised:
        player_found(_request(None), lookup)
    assert _message(raised) == "No such player."


# --- with the database: the club of the address --------------------------------------------


@pytest.fixture
def two_clubs() -> tuple[Club, Club]:
    return ClubFactory(slug="first", name="First"), ClubFactory(slug="second", name="Second")


@pytest.mark.django_db
def test_a_season_is_found_only_at_its_clubs_address(two_clubs: tuple[Club, Club]) -> None:
    first, second = two_clubs
    season = SeasonFactory(club=first, slug="winter")
    assert season_of_address(_request(first), "winter") == season
    with pytest.raises(Http404):
        season_of_address(_request(second), "winter")
    with pytest.raises(Http404) as raised:
        season_of_address(_request(None), "winter")
    assert _message(raised) == "No such season."


@pytest.mark.django_db
def test_a_rapid_series_is_a_season_of_several_rounds_an_evening(
    two_clubs: tuple[Club, Club],
) -> None:
    first, second = two_clubs
    rapid = SeasonFactory(club=first, slug="rapid", rounds_per_evening=3)
    SeasonFactory(club=first, slug="winter")
    assert rapid_series_of_address(_request(first), "rapid") == rapid
    with pytest.raises(Http404) as raised:
        rapid_series_of_address(_request(first), "winter")
    assert _message(raised) == "This competition is not a rapid series."
    with pytest.raises(Http404):
        rapid_series_of_address(_request(second), "rapid")


@pytest.mark.django_db
def test_a_round_for_the_td_is_a_round_of_his_clubs_season(two_clubs: tuple[Club, Club]) -> None:
    first, second = two_clubs
    season = SeasonFactory(club=first, slug="winter")
    rnd = RoundFactory(season=season, number=1)
    request = _request(first)
    request.user = User(username="root", is_superuser=True, is_active=True)
    assert round_for_td(request, "winter", 1) == rnd
    with pytest.raises(Http404):
        round_for_td(request, "winter", 2)
    elsewhere = _request(second)
    elsewhere.user = request.user
    with pytest.raises(Http404):
        round_for_td(elsewhere, "winter", 1)


@pytest.mark.django_db
def test_members_and_participants_belong_to_the_club_and_season(
    two_clubs: tuple[Club, Club],
) -> None:
    first, second = two_clubs
    season = SeasonFactory(club=first)
    participant = ParticipantFactory(season=season)
    outsider = MemberFactory(club=second)
    assert club_member(first, participant.member_id) == participant.member
    assert season_member(season, participant.member_id) == participant.member
    assert season_participant(season, participant.member_id) == participant
    for wrong in (
        lambda: club_member(first, outsider.pk),
        lambda: club_member(second, participant.member_id),
        lambda: season_member(season, outsider.pk),
        lambda: season_participant(season, outsider.pk),
    ):
        with pytest.raises(Http404):
            wrong()


def test_category_found_says_no_such_category() -> None:
    def lookup() -> None:
        raise Category.DoesNotExist

    with pytest.raises(Http404) as raised:
        category_found(lookup)
    assert _message(raised) == "No such category."
