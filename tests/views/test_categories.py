"""Categories, prizes and periods on the public pages (issue 14), worked out by hand on the
small season of ``tests/views/public_data.py``:

After round 2 the standings are C 1st, A and D 2nd (shared), E 4th, B 5th; start numbers
A 1, B 2, C 3, D 4, E 5; event ratings A 1800, B 1790, C 1780, D 1770, E 1760. With
``min_games`` 2, E (no games) is not eligible for prizes.

Category "Groep A", rating 1780 or more, 2 prizes, most improved: C (rank 1) place 1, A (rank 2)
place 2, B (rank 5) place 3. Prizes: C 1, A 2. Gains (start number − rank): A 1 − 2 = −1,
B 2 − 5 = −3, C 3 − 1 = 2: C is the most improved (and keeps prize 1: several prizes allowed).
Category "Groep B", rating below 1780, 1 prize: D (rank 2) place 1, E (rank 4) place 2; D wins.

Periods ending at rounds 1 and 2. Period 1 (round 1 alone): C and D share 1st (SB ¼ each,
as after round 1 of the season). Period 2 (round 2 alone, renumbered 1): game points A ½, C ½,
D 1, B 0, E 0; internal points E ½ (absent), the others their game points; SB A = ½ × IP(C) ½
= ¼, C = ½ × IP(A) ½ = ¼, D = 1 × IP(B) 0 = 0: A and C share 1st (SB ¼, IP ½), D 3rd (IP 1),
E 4th (IP ½), B 5th.
"""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.conf import settings
from django.core.cache import cache

from competition.models import Category, Season
from competition.selectors.categories import _newcomers as newcomers
from competition.services.categories import CategoryFields, category_add, season_prizes_update
from competition.services.standings import standings_recompute
from tests.addresses import club_reverse
from tests.factories import ParticipantFactory, SeasonFactory
from tests.views.public_data import large_season, small_season

pytestmark = pytest.mark.django_db


def categories_season() -> tuple[Season, dict, Category, Category]:
    season, people = small_season(min_games=2)
    standings_recompute(season=season)
    a = category_add(
        season=season,
        fields=CategoryFields(
            name="Groep A", kind="rating", rating_from=1780, prizes=2, most_improved=True
        ),
    )
    b = category_add(
        season=season,
        fields=CategoryFields(name="Groep B", kind="rating", rating_below=1780, prizes=1),
    )
    season_prizes_update(season=season, period_ends=[1, 2], several_prizes=True)
    season.refresh_from_db()
    return season, people, a, b


def rows(html: str) -> list[tuple[str, ...]]:
    """(place, name, overall, award) of each row of the category table."""
    body = html.split('class="table table-sm table-striped align-middle category-table"')[1]
    body = body.split("<tbody>")[1].split("</tbody>")[0]
    found = []
    for row in body.split("</tr>")[:-1]:
        cells = [cell.split("</td>")[0] for cell in row.split("<td")[1:]]
        texts = [cell.split(">", 1)[1] for cell in cells]
        name = texts[1].split(">")[1].split("<")[0]
        found.append((texts[0], name, texts[2], texts[5]))
    return found


def english(client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def test_a_rating_category_with_prizes_and_most_improved(client) -> None:
    season, _people, a, b = categories_season()
    english(client)
    html = client.get(
        club_reverse("competition:category", args=[season.slug, a.pk])
    ).content.decode()
    assert "Rating 1780 or more" in html
    assert "prizes for places 1 to 2 · a prize for the most improved player" in html
    assert rows(html) == [
        ("1", "Cor Cools", "1", "prize 1, most improved"),
        ("2", "Anna Aalders", "2", "prize 2"),
        ("3", "Bart Bos", "5", ""),
    ]
    html = client.get(
        club_reverse("competition:category", args=[season.slug, b.pk])
    ).content.decode()
    assert "Rating below 1780" in html
    # E has no games: not eligible (min_games 2), so only D wins.
    assert rows(html) == [("1", "Dirk Dekker", "2", "prize 1"), ("2", "Eva Egbers", "4", "")]


def test_newcomers_did_not_play_the_clubs_previous_season(client) -> None:
    # The club's previous season (started a year earlier) had A and B, and a season before it
    # had C: C is a newcomer all the same (only the previous season counts). Newcomers: C, D
    # and E at ranks 1, 2 and 4: places 1, 2, 3; one prize.
    season, people = small_season()
    earlier = SeasonFactory(club=season.club, start_date=datetime.date(2024, 9, 1))
    ParticipantFactory(season=earlier, member=people["C"].member)
    previous = SeasonFactory(club=season.club, start_date=datetime.date(2025, 9, 1))
    for key in "AB":
        ParticipantFactory(season=previous, member=people[key].member)
    new = category_add(
        season=season, fields=CategoryFields(name="Nieuw", kind="newcomers", prizes=1)
    )
    listed = category_add(
        season=season,
        fields=CategoryFields(
            name="Bestuur", kind="list", chosen=(people["B"].pk, people["E"].pk), prizes=2
        ),
    )
    season.refresh_from_db()
    english(client)
    html = client.get(club_reverse("competition:category", args=[season.slug, new.pk])).content
    assert "Players who did not take part in the club&#x27;s previous season" in html.decode()
    assert rows(html.decode()) == [
        ("1", "Cor Cools", "1", "prize 1"),
        ("2", "Dirk Dekker", "2", ""),
        ("3", "Eva Egbers", "4", ""),
    ]
    # The hand-made list: E (rank 4) and B (rank 5); two prizes (min_games 0: both eligible).
    html = client.get(club_reverse("competition:category", args=[season.slug, listed.pk])).content
    assert rows(html.decode()) == [
        ("1", "Eva Egbers", "4", "prize 1"),
        ("2", "Bart Bos", "5", "prize 2"),
    ]
    # Without a previous season (the 2024 one is the club's first) nobody is a newcomer.
    assert newcomers(season) == {people[key].pk for key in "CDE"}
    assert newcomers(earlier) == set()


def test_the_category_page_in_dutch(client) -> None:
    season, _people, a, _b = categories_season()
    html = client.get(
        club_reverse("competition:category", args=[season.slug, a.pk])
    ).content.decode()
    assert 'lang="nl"' in html
    assert "Rating 1780 of hoger" in html
    assert rows(html)[0] == ("1", "Cor Cools", "1", "prijs 1, meest verbeterd")


def test_the_categories_and_periods_are_reachable_from_the_standings(client) -> None:
    season, _people, a, b = categories_season()
    html = client.get(club_reverse("competition:standings", args=[season.slug])).content.decode()
    links = html.split('class="small mb-2 d-print-none category-links"')[1].split("</nav>")[0]
    for url in (
        club_reverse("competition:category", args=[season.slug, a.pk]),
        club_reverse("competition:category", args=[season.slug, b.pk]),
        club_reverse("competition:period", args=[season.slug, 1]),
        club_reverse("competition:period", args=[season.slug, 2]),
    ):
        assert f'href="{url}"' in links
        assert client.get(url).status_code == 200


def test_each_period_has_its_own_champion(client) -> None:
    season, *_rest = categories_season()
    english(client)
    first = client.get(club_reverse("competition:period", args=[season.slug, 1])).content.decode()
    assert "Period 1: rounds 1 to 1" in first
    assert "Champion of the period: <strong>Cor Cools · Dirk Dekker</strong>" in first
    second = client.get(club_reverse("competition:period", args=[season.slug, 2])).content.decode()
    assert "Champion of the period: <strong>Anna Aalders · Cor Cools</strong>" in second
    # the table in rank order: A and C share 1st, then D, E, B
    order = [
        name
        for name in ("Anna Aalders", "Cor Cools", "Dirk Dekker", "Eva Egbers", "Bart Bos")
        if name in second
    ]
    positions = [second.index(f">{name}<") for name in order]
    assert positions == sorted(positions)
    dutch = client.get(
        club_reverse("competition:period", args=[season.slug, 2]),
        HTTP_COOKIE=f"{settings.LANGUAGE_COOKIE_NAME}=nl",
    )
    assert dutch.status_code == 200
    assert client.get(club_reverse("competition:period", args=[season.slug, 3])).status_code == 404


def test_the_period_page_in_dutch(client) -> None:
    season, *_rest = categories_season()
    html = client.get(club_reverse("competition:period", args=[season.slug, 2])).content.decode()
    assert "Periode 2: ronde 2 tot en met 2" in html
    assert "Kampioen van de periode: <strong>Anna Aalders · Cor Cools</strong>" in html


def test_the_participant_page_names_his_categories_and_prizes(client) -> None:
    season, people, _a, _b = categories_season()
    english(client)
    url = club_reverse("competition:participant", args=[season.slug, people["C"].pk])
    html = client.get(url).content.decode()
    block = html.split('class="mb-3 participant-categories"')[1].split("</section>")[0]
    assert "Groep A</a>: place 1, <strong>prize 1, most improved</strong>" in block
    html = client.get(
        club_reverse("competition:participant", args=[season.slug, people["E"].pk])
    ).content.decode()
    block = html.split('class="mb-3 participant-categories"')[1].split("</section>")[0]
    assert "Groep B</a>: place 2</li>" in block


def test_how_it_works_shows_the_seasons_own_values(client) -> None:
    season, *_rest = categories_season()
    english(client)
    html = client.get(club_reverse("competition:how_it_works", args=[season.slug])).content.decode()
    section = html.split('class="mb-4 how-categories"')[1].split("</section>")[0]
    assert "<strong>Groep A</strong></a>: Rating 1780 or more; prizes for places 1 to 2" in section
    assert "<strong>Groep B</strong></a>: Rating below 1780; a prize for the first place" in section
    assert "rounds 1–1</a>, " in section and "rounds 2–2</a>." in section


def test_the_category_export(client) -> None:
    season, _people, a, _b = categories_season()
    english(client)
    url = club_reverse("competition:category", args=[season.slug, a.pk])
    response = client.get(url + "?_export=csv")
    assert response.status_code == 200
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header = lines[0]
    assert header[:3] == ["Place", "Start number", "Name"]
    assert header[-3:] == ["Won", "Fingerprint", "Rules version"]
    assert [(line[0], line[1], line[2]) for line in lines[1:]] == [
        ("1", "3", "Cor Cools"),
        ("2", "1", "Anna Aalders"),
        ("3", "2", "Bart Bos"),
    ]
    assert lines[1][header.index("Won")] == "prize 1, most improved"
    assert lines[1][header.index("Prize")] == "yes"  # eligible
    xlsx = client.get(url + "?_export=xlsx")
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    period = client.get(club_reverse("competition:period", args=[season.slug, 2]) + "?_export=csv")
    period_lines = list(csv.reader(io.StringIO(period.content.decode("utf-8-sig"))))
    assert [line[2] for line in period_lines[1:]] == [
        "Anna Aalders",
        "Cor Cools",
        "Dirk Dekker",
        "Eva Egbers",
        "Bart Bos",
    ]


def test_the_category_export_has_the_standings_export_columns(client) -> None:
    """The figures stand in the standings' order on every database: PostgreSQL's jsonb keeps a
    stored row's figures in an order of its own (IP before SB), SQLite keeps them as written."""
    season, tiebreaks = categories_season()[0], ["BH"]
    Season.objects.filter(pk=season.pk).update(tiebreaks=tiebreaks)
    season.refresh_from_db()
    standings_recompute(season=season)
    english(client)
    category = Category.objects.filter(season=season).first()
    assert category is not None

    def header(url: str) -> list[str]:
        content = client.get(url + "?_export=csv").content.decode("utf-8-sig")
        return next(csv.reader(io.StringIO(content)))

    overall = header(club_reverse("competition:standings", args=[season.slug]))
    in_category = header(club_reverse("competition:category", args=[season.slug, category.pk]))
    assert overall[3:8] == ["Pts", "Score", "SB", "IP", "BH"]
    assert in_category[3:8] == overall[3:8]


def test_unknown_category_and_period_are_not_found(client) -> None:
    season, *_rest = categories_season()
    assert (
        client.get(club_reverse("competition:category", args=[season.slug, 999999])).status_code
        == 404
    )
    # another season's category is not this season's
    other = large_season(players=4, rounds=1, slug="ander")
    theirs = category_add(season=other, fields=CategoryFields(name="X", kind="newcomers"))
    url = club_reverse("competition:category", args=[season.slug, theirs.pk])
    assert client.get(url).status_code == 404
    assert client.get(club_reverse("competition:period", args=[other.slug, 1])).status_code == 404


def _pages(season: Season) -> list[str]:
    category = Category.objects.filter(season=season).first()
    assert category is not None
    return [
        club_reverse("competition:category", args=[season.slug, category.pk]),
        club_reverse("competition:category", args=[season.slug, category.pk]) + "?_export=csv",
        club_reverse("competition:period", args=[season.slug, 1]),
        club_reverse("competition:period", args=[season.slug, 1]) + "?_export=xlsx",
        club_reverse("competition:standings", args=[season.slug]),
        club_reverse("competition:how_it_works", args=[season.slug]),
        club_reverse(
            "competition:participant",
            args=[season.slug, category.chosen.model.objects.filter(season=season).first().pk],
        ),
    ]


def test_the_new_pages_take_as_many_queries_for_a_large_season(
    client, django_assert_max_num_queries
) -> None:
    small, *_rest = categories_season()
    large = large_season(players=41, rounds=12)
    category_add(
        season=large,
        fields=CategoryFields(name="A", kind="rating", rating_from=1520, most_improved=True),
    )
    category_add(season=large, fields=CategoryFields(name="Jeugd", kind="age", born_from=2008))
    season_prizes_update(season=large, period_ends=[6, 12], several_prizes=False)
    large.refresh_from_db()
    counts: dict[int, list[int]] = {}
    for season in (small, large):
        for index, url in enumerate(_pages(season)):
            cache.clear()
            # the public pages' bound, and the categories' four reads on the pages that show
            # a participant's categories (participant page, how it works)
            with django_assert_max_num_queries(9 if index < 4 else 14) as captured:
                assert client.get(url).status_code == 200, url
            counts.setdefault(index, []).append(len(captured))
    for index, (small_count, large_count) in counts.items():
        assert small_count == large_count, _pages(small)[index]


def test_the_demo_has_an_a_b_category_ranking_with_prizes_and_two_periods(
    client, demo_club
) -> None:
    season = Season.objects.get(slug="interne-2026-2027")
    categories = list(Category.objects.filter(season=season))
    assert [(c.name, c.rating_from, c.rating_below, c.prizes) for c in categories] == [
        ("Groep A", 1850, None, 3),
        ("Groep B", None, 1850, 3),
    ]
    assert (season.period_ends, season.category_count) == ([5, 10], 2)
    english(client)
    standings = client.get(
        club_reverse("competition:standings", args=[season.slug])
    ).content.decode()
    found = {}
    for category in categories:
        url = club_reverse("competition:category", args=[season.slug, category.pk])
        assert f'href="{url}"' in standings
        found[category.name] = rows(client.get(url).content.decode())
    # 17 players by rating 2105 … 1660: eight from 1850 (down to 1862), nine below.
    assert (len(found["Groep A"]), len(found["Groep B"])) == (8, 9)
    for name, table in found.items():
        prizes = [row[3].split(",")[0] for row in table if row[3].startswith("prize")]
        assert prizes[:3] == ["prize 1", "prize 2", "prize 3"], name
    assert sum("most improved" in row[3] for row in found["Groep B"]) == 1
    for number in (1, 2):
        html = client.get(club_reverse("competition:period", args=[season.slug, number])).content
        assert b"Champion of the period: <strong>" in html
