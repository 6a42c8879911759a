"""The mails the worker sends when a pairing is published or a result corrected: to the players
who asked for them, with their board, colour and opponent as the public pages name him."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import override_settings

from competition.models import Game, Member, Round, RoundEntry
from competition.services.notifications import pairing_published_notify, result_corrected_notify
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def outbox():
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
        mail.outbox = []
        yield mail.outbox


def _opt_in(*names: str, **flags: bool) -> None:
    for name in names:
        Member.objects.filter(name=name).update(
            email=f"{name.split()[0].lower()}@example.org", **flags
        )


def test_each_player_who_asked_is_told_his_board_colour_and_opponent(outbox) -> None:
    season, people = small_season()
    a, b = people["A"], people["B"]
    _opt_in(a.member.name, b.member.name, notify_pairing=True)
    round_1 = Round.objects.get(season=season, number=1)

    sent = pairing_published_notify(round_id=round_1.pk)

    assert sent == 2 and len(outbox) == 2
    by_address = {message.to[0]: message.body for message in outbox}
    white = by_address[f"{a.member.name.split()[0].lower()}@example.org"]
    black = by_address[f"{b.member.name.split()[0].lower()}@example.org"]
    assert f"Bord 1: je speelt met wit tegen {b.member.name}." in white, white
    assert f"Bord 1: je speelt met zwart tegen {a.member.name}." in black, black
    assert outbox[0].subject == "Interne test, ronde 1: je indeling"


def test_nobody_who_did_not_ask_gets_a_mail(outbox) -> None:
    season, people = small_season()
    Member.objects.filter(pk=people["A"].member_id).update(email="a@example.org")  # no consent
    round_1 = Round.objects.get(season=season, number=1)
    assert pairing_published_notify(round_id=round_1.pk) == 0 and outbox == []


def test_a_corrected_result_is_told_to_both_players_who_asked(outbox) -> None:
    season, people = small_season()
    a, b = people["A"], people["B"]
    _opt_in(a.member.name, b.member.name, notify_correction=True)
    game = Game.objects.get(round__season=season, round__number=1, board=1)
    Game.objects.filter(pk=game.pk).update(result="1/2")

    assert result_corrected_notify(game_id=game.pk) == 2
    bodies = sorted(message.body for message in outbox)
    assert any(f"tegen {b.member.name}: nu ½-½." in body for body in bodies), bodies
    assert result_corrected_notify(game_id=0) == 0  # removed meanwhile: nothing to tell


def test_an_absence_corrected_is_told_with_its_points(outbox) -> None:
    season, people = small_season()
    e = people["E"]
    _opt_in(e.member.name, notify_correction=True)
    entry = RoundEntry.objects.get(round__season=season, round__number=1, participant=e)
    assert result_corrected_notify(entry_id=entry.pk) == 1
    assert "Nu:" in outbox[0].body
