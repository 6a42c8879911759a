"""The results page explains its forfeit buttons in words, in the TD's language."""

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from competition.models import Round
from tests.addresses import club_reverse

pytestmark = pytest.mark.django_db

SLUG = "vandenbrink-2026-2027"


@pytest.fixture
def results_page(client, demo_club):
    rnd = Round.objects.get(season__slug=SLUG, number=10)
    rnd.status = Round.Status.PAIRED  # reopened so the result buttons show
    rnd.save()
    client.force_login(User.objects.get(username="wedstrijdleider"))  # not via axes
    return club_reverse(
        "competition:td_results", kwargs={"season_slug": SLUG, "round_number": rnd.number}
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("nl", ["+/− = 1-0 reglementair", "−/+ = 0-1 reglementair"]),
        ("en", ["+/− = 1-0 forfeit", "−/+ = 0-1 forfeit", "−/− = 0-0 double forfeit"]),
    ],
)
def test_forfeit_buttons_are_explained(client, results_page, language, words) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(results_page).content.decode()
    legend = html.split('id="forfeit-legend"')[1].split("</p>")[0]
    assert [w for w in words if w not in legend] == []
    assert "½-½ =" not in legend  # played results need no explanation
    assert 'aria-label="1-0 reglementair"' in html or language == "en"
