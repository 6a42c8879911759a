"""Every public page costs the same number of queries for a small and a large season."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competition.clubs import club_url
from competition.models import Game, Participant, Round
from competition.services.explanations import explanations_store
from competition.services.rounds import result_record
from tests.addresses import club_reverse
from tests.views.public_data import large_season, small_season

pytestmark = pytest.mark.django_db

# One bound for every page and every size: the club (from the address) + season + at most the
# season's input (4) + snapshots + names + the round page's history reads.
MAX_QUERIES = 10


def _urls(season) -> list[str]:
    participant = Participant.objects.filter(season=season).order_by("pk").first()
    assert participant is not None
    return [
        club_url(season.club.slug, "competition:home"),
        club_url(season.club.slug, "competition:standings", args=[season.slug]),
        club_url(season.club.slug, "competition:standings", args=[season.slug]) + "?round=1",
        club_url(season.club.slug, "competition:standings", args=[season.slug]) + "?_export=xlsx",
        club_url(season.club.slug, "competition:round", args=[season.slug, 2]),
        club_url(season.club.slug, "competition:participant", args=[season.slug, participant.pk]),
        club_url(season.club.slug, "competition:crosstable", args=[season.slug]),
        club_url(season.club.slug, "competition:how_it_works", args=[season.slug]),
        club_url(season.club.slug, "competition:systems", args=[season.slug]),
        club_url(season.club.slug, "competition:chances", args=[season.slug]),
    ]


@pytest.mark.parametrize("stored", [False, True], ids=["computed", "stored"])
@pytest.mark.parametrize("size", ["small", "large"])
def test_pages_use_a_constant_number_of_queries(
    client, django_assert_max_num_queries, size: str, stored: bool
) -> None:
    season = small_season()[0] if size == "small" else large_season(players=41, rounds=12)
    if stored:  # the participant pages as the worker stores them after a change
        assert explanations_store(season_id=season.pk) > 0
    for url in _urls(season):
        cache.clear()
        with django_assert_max_num_queries(MAX_QUERIES):
            assert client.get(url).status_code == 200, url


def _cached_urls(season, participant_pk: int) -> list[str]:
    standings = club_url(season.club.slug, "competition:standings", args=[season.slug])
    return [
        standings,
        standings + "?round=1",
        standings + "?sort=name",
        club_url(season.club.slug, "competition:participant", args=[season.slug, participant_pk]),
        club_url(season.club.slug, "competition:crosstable", args=[season.slug]),
        club_url(season.club.slug, "competition:how_it_works", args=[season.slug]),
        club_url(season.club.slug, "competition:systems", args=[season.slug]),
    ]


def test_an_anonymous_cached_page_costs_one_query(client, django_assert_num_queries) -> None:
    season, people = small_season()
    cache.clear()
    for url in _cached_urls(season, people["C"].pk):
        first = client.get(url)
        with django_assert_num_queries(2):  # the club and the season's versions, nothing else
            again = client.get(url)
        assert again.status_code == 200, url
        assert again.content == first.content, url
        assert again["Content-Type"] == first["Content-Type"] == "text/html; charset=utf-8"
        assert again["Content-Language"] == "nl"
        assert "Cookie" in again["Vary"]


def _row(html: str, participant_pk: int) -> str:
    return html.split(f'data-participant="{participant_pk}"')[1].split("</tr>")[0]


def test_an_anonymous_cached_page_is_refreshed_after_a_write(
    client, td_user, django_assert_num_queries
) -> None:
    season, people = small_season()
    cache.clear()
    url = club_url(season.club.slug, "competition:standings", args=[season.slug])
    # Before: C has SB ½ × IP(D) 1½ + ½ × IP(A) 1½ = 1½ (see tests/views/public_data.py).
    assert ">1,5<" in _row(client.get(url).content.decode(), people["C"].pk)
    with django_assert_num_queries(2):
        assert ">1,5<" in _row(client.get(url).content.decode(), people["C"].pk)

    # Correct round 2, A-C ½-½ to 1-0. Then IP A 2, C ½, D 1½ (C's other game: ½ with D);
    # C's SB = ½ × IP(D) 1½ + 0 × IP(A) 2 = ¾, shown 0,75.
    game = Game.objects.get(round__season=season, round__number=2, white=people["A"])
    result_record(
        game_id=game.pk,
        result="1-0",
        expected_version=game.version,
        user=td_user,
        reason="Wrongly recorded as a draw",
    )
    c_row = _row(client.get(url).content.decode(), people["C"].pk)
    assert ">0,75<" in c_row and ">1,5<" not in c_row
    with django_assert_num_queries(2):  # cached again, under the new version
        assert ">0,75<" in _row(client.get(url).content.decode(), people["C"].pk)


def test_logged_in_readers_get_their_own_frame(client, member_user) -> None:
    season, _people = small_season()
    cache.clear()
    url = club_url(season.club.slug, "competition:standings", args=[season.slug])
    anonymous = client.get(url).content.decode()
    assert "csrfmiddlewaretoken" not in anonymous and "Inloggen" in anonymous
    client.force_login(member_user)
    member = client.get(url).content.decode()
    assert "Uitloggen (member)" in member and "Inloggen" not in member


def test_query_keys_the_page_does_not_use_skip_the_whole_page_cache(client) -> None:
    season, _people = small_season()
    cache.clear()
    url = (
        club_url(season.club.slug, "competition:standings", args=[season.slug]) + "?from=newsletter"
    )
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    # The frame is rendered again around the cached body, so the season is read with its club
    # (selectors.season_get), not only its versions.
    assert any("competition_club" in q["sql"] for q in queries)


def test_a_missing_season_is_not_found(client) -> None:
    assert (
        client.get(club_reverse("competition:standings", args=["no-such-season"])).status_code
        == 404
    )


def test_a_result_saved_in_the_open_round_changes_that_rounds_page_only(
    client, td_user, django_assert_num_queries
) -> None:
    """A result of the open round is no part of any standings yet: the cached standings, the
    participant pages and the crosstable stay cached (one query), while the round's own page
    shows the result at once."""
    season, people = small_season()
    round3 = Round.objects.create(season=season, number=3, status=Round.Status.PAIRED)
    game = Game.objects.create(round=round3, board=1, white=people["A"], black=people["E"])
    cache.clear()
    cached = _cached_urls(season, people["A"].pk)
    before = {url: client.get(url).content for url in cached}
    round_url = club_url(season.club.slug, "competition:round", args=[season.slug, 3])
    assert "1-0" not in client.get(round_url).content.decode().split("<tbody>")[1]

    result_record(game_id=game.pk, result="1-0", expected_version=game.version, user=td_user)

    for url in cached:
        with django_assert_num_queries(2):  # still the cached page: nothing to rebuild
            assert client.get(url).content == before[url], url
    assert "1-0" in client.get(round_url).content.decode().split("<tbody>")[1]


def test_the_round_page_is_cached_until_the_round_changes(
    client, td_user, django_assert_num_queries
) -> None:
    """An anonymous reader's round page costs one query while nothing in the round changes, and
    is built anew after each kind of change: a result, a correction, an absence, a new board,
    publishing, a rename (the season's data_version)."""
    from competition.models import RoundEntry
    from competition.services.evening import round_publish
    from competition.services.rounds import entry_record
    from competition.services.standings import seasons_touch

    season, people = small_season()
    round3 = Round.objects.create(season=season, number=3, status=Round.Status.PLANNED)
    url = club_url(season.club.slug, "competition:round", args=[season.slug, 3])
    closed = club_url(season.club.slug, "competition:round", args=[season.slug, 2])
    cache.clear()

    def page(path: str = url) -> str:
        return client.get(path).content.decode()

    def cached(path: str = url) -> str:
        with django_assert_num_queries(2):
            return page(path)

    assert 'id="not-published"' in page() and 'id="not-published"' in cached()
    game = Game.objects.create(round=round3, board=1, white=people["A"], black=people["B"])
    Game.objects.create(round=round3, board=2, white=people["C"], black=people["D"])
    entry_record(round=round3, participant=people["E"], kind=RoundEntry.Kind.ABSENT_NOTICE)
    assert 'id="not-published"' in page()  # a draft: still not shown
    round_publish(round=round3, user=td_user)
    shown = page()
    assert "Bart Bos" in shown and 'id="not-published"' not in shown
    assert cached() == shown

    result_record(game_id=game.pk, result="0-1", expected_version=game.version, user=td_user)
    assert "0-1" in page().split("<tbody>")[1] and "0-1" in cached().split("<tbody>")[1]

    no_notice = str(RoundEntry.Kind.ABSENT_NO_NOTICE.label)
    assert no_notice not in page().lower()
    entry_record(round=round3, participant=people["E"], kind=RoundEntry.Kind.ABSENT_NO_NOTICE)
    assert no_notice in page().lower() and no_notice in cached().lower()

    people["C"].member.name = "Cor Cools-Jansen"
    people["C"].member.save()
    seasons_touch(seasons=[season])
    # round 2's page names C (his game with A): it follows the rename
    assert "Cor Cools-Jansen" in page(closed) and "Cor Cools-Jansen" in cached(closed)

    corrected = Game.objects.get(round__season=season, round__number=2, white=people["A"])
    result_record(
        game_id=corrected.pk, result="1-0", expected_version=corrected.version,
        user=td_user, reason="Wrongly recorded",
    )  # fmt: skip
    assert "Wrongly recorded" in page(closed) and "Wrongly recorded" in cached(closed)
