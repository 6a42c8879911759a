"""Every page that answers GET answers HEAD the same (link checkers and monitors use HEAD)."""

import pytest

from competition.models import Round
from tests.addresses import club_reverse

pytestmark = pytest.mark.django_db

SLUG = "interne-2026-2027"


def _pages() -> list[str]:
    rnd = Round.objects.get(season__slug=SLUG, number=10)
    game, entry = rnd.games.order_by("board")[0], rnd.entries.order_by("pk")[0]
    in_round = {"season_slug": SLUG, "round_number": 10}
    return [
        club_reverse("competition:home"),
        *(
            club_reverse(f"competition:{name}", args=[SLUG])
            for name in ("standings", "crosstable", "how_it_works", "systems", "season_rules")
        ),
        club_reverse("competition:round", args=[SLUG, 10]),
        club_reverse("competition:td_home"),
        club_reverse("competition:td_round_new", kwargs={"season_slug": SLUG}),
        *(
            club_reverse(f"competition:{name}", kwargs=in_round)
            for name in ("td_round", "td_attendance", "td_pairing", "td_results")
        ),
        club_reverse("competition:td_result_correct", kwargs={**in_round, "game_id": game.pk}),
        club_reverse("competition:td_entry_correct", kwargs={**in_round, "entry_id": entry.pk}),
        club_reverse("competition:files_home"),
        club_reverse("competition:season_export_archive", args=[SLUG]),
    ]


def test_every_get_page_answers_head(client, demo_club, superuser) -> None:
    client.force_login(superuser)  # staff: the TD's pages of every club and the rules page
    for page in _pages():
        get, head = client.get(page), client.head(page)
        assert head.status_code == get.status_code != 405, page
