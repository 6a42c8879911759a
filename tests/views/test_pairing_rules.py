"""The TD's pairing rules page (forbidden pairs, settings), and the rules on the pairing page:
a forbidden pair kept apart and said so, a requested bye honoured (season's bye points) or
refused with an even number."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages

from competition.models import (
    AbsenceReport,
    Club,
    ForbiddenPair,
    Round,
    RoundEntry,
    Season,
)
from competition.permissions import td_group
from competition.services.evening import pairing_propose
from tests.addresses import club_reverse
from tests.factories import ParticipantFactory, SeasonFactory
from tests.views.member_club import english, member_club, today

pytestmark = pytest.mark.django_db


def rules_url(season: Season) -> str:
    return club_reverse("competition:td_pairing_rules", args=[season.slug])


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_td_adds_and_removes_a_forbidden_pair(client) -> None:
    club = member_club()
    anna, bram = club.me, club.others[0]
    english(client, club.td)
    response = client.post(
        rules_url(club.season),
        {"action": "add", "first": bram.pk, "second": anna.pk, "note": "broer en zus"},
    )
    assert response.status_code == 302
    assert said(response) == [
        "Anna de Vries and Bram Jansen will not be paired against each other."
    ]
    pair = ForbiddenPair.objects.get(season=club.season)
    assert (pair.first_id, pair.second_id, pair.note) == (
        min(anna.pk, bram.pk),
        max(anna.pk, bram.pk),
        "broer en zus",
    )
    page = client.get(rules_url(club.season)).content.decode()
    listed = page.split('id="forbidden-pair-list"')[1].split("</ul>")[0]
    assert "Anna de Vries" in listed and "Bram Jansen" in listed and "broer en zus" in listed
    # The same pair the other way round is refused: stored once.
    response = client.post(
        rules_url(club.season), {"action": "add", "first": anna.pk, "second": bram.pk}
    )
    assert response.status_code == 200
    assert said(response) == ["Anna de Vries and Bram Jansen are already a forbidden pair."]
    assert ForbiddenPair.objects.count() == 1
    response = client.post(rules_url(club.season), {"action": "remove", "pair": pair.pk})
    assert response.status_code == 302 and said(response) == ["Forbidden pair removed."]
    assert not ForbiddenPair.objects.exists()
    response = client.post(rules_url(club.season), {"action": "remove", "pair": pair.pk})
    assert said(response)[-1] == "This forbidden pair no longer exists."


def test_bad_input_names_what_is_wrong(client) -> None:
    club = member_club()
    other_season = ParticipantFactory(season=SeasonFactory(club=club.season.club))
    english(client, club.td)
    url = rules_url(club.season)
    cases = [
        (
            {"action": "add", "first": club.me.pk, "second": club.me.pk},
            "Choose two different players.",
        ),
        (
            {"action": "add", "first": club.me.pk, "second": other_season.pk},
            f"Not against: Select a valid choice. {other_season.pk} is not one of the "
            "available choices.",
        ),
        ({"action": "add", "second": club.me.pk}, "Player: This field is required."),
        (
            {"action": "settings", "rematch_window": "3", "max_meetings": "0"},
            "At most this many games between two players: Ensure this value is greater than "
            "or equal to 1.",
        ),
        (
            {"action": "settings", "rematch_window": "3", "max_meetings": "twee"},
            "At most this many games between two players: Enter a whole number.",
        ),
        (
            {"action": "settings", "rematch_window": "-1"},
            "No rematch within this many rounds: Ensure this value is greater than or equal to 0.",
        ),
        ({"action": "nonsense"}, "Unknown action."),
    ]
    for data, message in cases:
        response = client.post(url, data)
        assert message in said(response), data
    assert not ForbiddenPair.objects.exists()
    club.season.refresh_from_db()
    assert club.season.max_meetings is None


def test_the_settings_are_saved(client) -> None:
    club = member_club()
    english(client, club.td)
    url = rules_url(club.season)
    data = {"action": "settings", "rematch_window": "5", "max_meetings": "2"}
    response = client.post(url, {**data, "one_pairing_bye": "on", "player_leaves": "forfeit"})
    assert response.status_code == 302 and said(response) == ["Pairing rules saved."]
    club.season.refresh_from_db()
    assert (club.season.max_meetings, club.season.rematch_colours_reversed) == (2, False)
    assert club.season.rematch_window == 5
    assert club.season.one_pairing_bye
    assert club.season.player_leaves == "forfeit"
    page = client.get(url).content.decode()
    assert 'name="max_meetings" value="2"' in page
    client.post(
        url,
        {
            "action": "settings",
            "rematch_window": "0",
            "max_meetings": "",
            "rematch_colours_reversed": "on",
            "player_leaves": "repair",
        },
    )
    club.season.refresh_from_db()
    assert club.season.max_meetings is None and club.season.rematch_colours_reversed
    assert not club.season.one_pairing_bye and club.season.rematch_window == 0


def test_only_this_clubs_tds(client, member_user) -> None:
    club = member_club()
    anna, bram = club.me, club.others[0]
    kept = ForbiddenPair.objects.create(
        season=club.season,
        first=min(anna, bram, key=lambda p: p.pk),
        second=max(anna, bram, key=lambda p: p.pk),
    )
    url = rules_url(club.season)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    english(client, member_user)
    assert client.get(url).status_code == 403
    elders = Club.objects.create(name="Elders", slug="elders")
    outsider = User.objects.create_user("elders-td", password="elders-pass-123")
    outsider.groups.add(td_group(elders))
    english(client, outsider)
    assert client.get(url).status_code == 403
    posts = [
        {"action": "add", "first": club.others[1].pk, "second": club.others[2].pk},
        {"action": "remove", "pair": kept.pk},
        {"action": "settings", "rematch_window": "1", "max_meetings": "1"},
    ]
    for data in posts:
        assert client.post(url, data).status_code == 403
    assert list(ForbiddenPair.objects.values_list("pk", flat=True)) == [kept.pk]
    club.season.refresh_from_db()
    assert club.season.max_meetings is None
    assert (
        client.get(club_reverse("competition:td_pairing_rules", args=["nope"])).status_code == 404
    )


def test_the_td_pages_link_to_the_rules(client) -> None:
    club = member_club()
    english(client, club.td)
    url = rules_url(club.season)
    assert url in client.get(club_reverse("competition:td_home")).content.decode()
    rnd = Round.objects.create(season=club.season, number=1, date=today())
    page = client.get(club_reverse("competition:td_pairing", args=[club.season.slug, rnd.number]))
    assert url in page.content.decode()


# --- the rules on the pairing page ----------------------------------------------------------


def pairing_page(client, season: Season) -> str:
    return client.get(
        club_reverse("competition:td_pairing", args=[season.slug, 1])
    ).content.decode()


def test_a_forbidden_pair_is_kept_apart_and_the_page_says_why(client) -> None:
    club = member_club()
    anna, bram = club.me, club.others[0]  # start numbers 1 and 2: the ladder pairs them
    ForbiddenPair.objects.create(
        season=club.season,
        first=min(anna, bram, key=lambda p: p.pk),
        second=max(anna, bram, key=lambda p: p.pk),
    )
    rnd = Round.objects.create(season=club.season, number=1, date=today())
    proposal = pairing_propose(round=rnd, user=club.td)
    assert proposal is not None
    assert {anna.pk, bram.pk} not in [set(b.player_ids) for b in proposal.boards]
    english(client, club.td)
    reasons = pairing_page(client, club.season).split('id="pairing-reasons"')[1]
    assert "Anna de Vries and Bram Jansen not paired: forbidden pair." in reasons


def test_a_requested_bye_with_an_odd_number(client) -> None:
    club = member_club(requested_byes=True)
    club.season.bye_points = Decimal("0.5")
    club.season.save()
    evening = club.evening(today())
    cor = club.others[1]
    AbsenceReport.objects.create(evening=evening, participant=cor, kind=AbsenceReport.Kind.BYE)
    rnd = Round.objects.create(season=club.season, number=1, date=today())
    RoundEntry.objects.create(round=rnd, participant=club.others[2], kind="absent_notice")
    proposal = pairing_propose(round=rnd, user=club.td)
    assert proposal is not None and proposal.bye_id == cor.pk
    bye = RoundEntry.objects.get(round=rnd, kind=RoundEntry.Kind.BYE)
    assert (bye.participant_id, bye.points) == (cor.pk, Decimal("0.5"))  # the season's bye
    english(client, club.td)
    reasons = pairing_page(client, club.season).split('id="pairing-reasons"')[1]
    assert "Cor Visser gets the bye: he asked for it." in reasons


def test_a_requested_bye_with_an_even_number_is_refused_and_said(client) -> None:
    club = member_club(requested_byes=True)
    evening = club.evening(today())
    cor = club.others[1]
    AbsenceReport.objects.create(evening=evening, participant=cor, kind=AbsenceReport.Kind.BYE)
    rnd = Round.objects.create(season=club.season, number=1, date=today())
    proposal = pairing_propose(round=rnd, user=club.td)
    assert proposal is not None and proposal.bye_id is None
    english(client, club.td)
    reasons = pairing_page(client, club.season).split('id="pairing-reasons"')[1]
    assert (
        "Cor Visser asked for a bye, but an even number of players is paired: nobody gets a bye."
        in reasons
    )


def test_a_bye_request_counts_only_when_the_season_allows_it() -> None:
    club = member_club(requested_byes=False)
    evening = club.evening(today())
    bram, cor = club.others[0], club.others[1]
    AbsenceReport.objects.create(evening=evening, participant=bram, kind=AbsenceReport.Kind.BYE)
    rnd = Round.objects.create(season=club.season, number=1, date=today())
    RoundEntry.objects.create(round=rnd, participant=club.others[2], kind="absent_notice")
    proposal = pairing_propose(round=rnd, user=club.td)
    assert proposal is not None and proposal.bye_id == cor.pk  # the lowest placed, as always
