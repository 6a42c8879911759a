"""A season's compact page for a frame on the club's own site: framed only by the sites of the
club's own embed setting (and the site's FRAME_ANCESTORS), never by another club's; and the club
admin's page that sets those sites and hands out the snippet."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.templatetags.static import static
from django.test import Client, override_settings
from django.utils import translation

from competition.clubs import club_url
from competition.models import Club
from competition.permissions import td_group
from competition.services.clubs import club_embed_origins_set
from competition.services.errors import ServiceError
from tests.factories import SeasonFactory
from tests.views.public_data import small_season
from tests.views.test_security_headers import policy

pytestmark = pytest.mark.django_db

CLUB_SITE = "https://www.schaakclub.example.nl"
OTHER_SITE = "https://www.andere-club.example.nl"


def embed_url(season) -> str:
    return club_url(season.club.slug, "competition:season_embed", args=[season.slug])


def admin_of(club: Club, username: str = "clubadmin") -> User:
    group = Group.objects.create(name=f"admins {club.slug}")
    Club.objects.filter(pk=club.pk).update(admin_group=group)
    club.admin_group = group
    user = User.objects.create_user(username, password="admin-pass-123")
    user.groups.add(group)
    return user


def test_the_embed_page_shows_standings_and_the_latest_round(client: Client) -> None:
    season, _people = small_season()
    client.cookies["django_language"] = "en"
    cache.clear()
    response = client.get(embed_url(season))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Standings after round 2" in html and "Round 2" in html
    rows = html.split('id="embed-standings-table"')[1].split("</table>")[0]
    assert rows.index("Cor Cools") < rows.index("Anna Aalders") < rows.index("Bart Bos")
    assert '<base target="_blank">' in html  # links open the site in a new tab
    full = club_url(season.club.slug, "competition:standings", args=[season.slug])
    assert f'href="{full}"' in html and "Full standings" in html
    assert 'name="viewport"' in html and "<script" not in html


def test_a_club_without_sites_is_framed_by_nobody(client: Client) -> None:
    season, _people = small_season()
    response = client.get(embed_url(season))
    assert policy(response)["frame-ancestors"] == ["'none'"]
    assert response["X-Frame-Options"] == "DENY"


@override_settings(FRAME_ANCESTORS=["'self'"])
def test_a_club_without_sites_is_framed_by_the_site_itself_when_it_says_so(client) -> None:
    season, _people = small_season()
    response = client.get(embed_url(season))
    assert policy(response)["frame-ancestors"] == ["'self'"]
    assert response["X-Frame-Options"] == "SAMEORIGIN"


def test_the_clubs_own_site_may_frame_it_and_another_clubs_site_may_not(client) -> None:
    season, _people = small_season()
    Club.objects.filter(pk=season.club.pk).update(embed_origins=CLUB_SITE)
    other = Club.objects.create(name="Andere club", slug="andere-club", embed_origins=OTHER_SITE)
    other_season = SeasonFactory(club=other, slug=season.slug, name="Elders")
    response = client.get(embed_url(season))
    assert response.status_code == 200
    assert policy(response)["frame-ancestors"] == [CLUB_SITE]
    assert OTHER_SITE not in response["Content-Security-Policy"]
    assert "X-Frame-Options" not in response
    # the other club's page, same season address: its own site only
    theirs = client.get(embed_url(other_season))
    assert policy(theirs)["frame-ancestors"] == [OTHER_SITE]
    # the club's other public pages too; its TD's pages never
    standings = client.get(club_url(season.club.slug, "competition:standings", args=[season.slug]))
    assert policy(standings)["frame-ancestors"] == [CLUB_SITE]


def test_the_service_checks_every_line_and_names_the_bad_one() -> None:
    club = Club.objects.create(name="Schaakclub Test", slug="sc-test")
    admin = admin_of(club)
    with translation.override("en"), pytest.raises(ServiceError) as refused:
        club_embed_origins_set(club=club, text=f"{CLUB_SITE}\nwww.myclub.nl\n", user=admin)
    assert "Line 2 (“www.myclub.nl”)" in str(refused.value)
    club.refresh_from_db()
    assert club.embed_origins == ""  # nothing changed
    club_embed_origins_set(
        club=club, text=f" {CLUB_SITE}/ \n\nhttp://localhost:8000\n{CLUB_SITE}\n", user=admin
    )
    club.refresh_from_db()
    assert club.embed_origins == f"{CLUB_SITE}\nhttp://localhost:8000"
    with pytest.raises(ServiceError):
        club_embed_origins_set(club=club, text="", user=User.objects.create_user("x"))
    club.refresh_from_db()
    assert club.embed_origins == f"{CLUB_SITE}\nhttp://localhost:8000"


def test_the_club_admin_sets_the_sites_and_copies_a_snippet(client) -> None:
    season, _people = small_season()
    club = season.club
    client.force_login(admin_of(club))
    client.cookies["django_language"] = "en"
    url = club_url(club.slug, "competition:club_embed")
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="embed-no-origins"' in html
    assert f"&lt;iframe src=&quot;http://testserver{embed_url(season)}&quot;" in html or (
        f'&lt;iframe src="http://testserver{embed_url(season)}"' in html
    )
    assert 'data-copy-target="snippet-' in html and static("js/copy.js") in html
    bad = client.post(url, {"origins": f"{CLUB_SITE}\nftp://myclub.nl"})
    assert bad.status_code == 400 and "Line 2 (“ftp://myclub.nl”)" in bad.content.decode()
    saved = client.post(url, {"origins": CLUB_SITE})
    assert saved.status_code == 302
    club.refresh_from_db()
    assert club.embed_origins == CLUB_SITE
    assert 'id="embed-no-origins"' not in client.get(url).content.decode()


def test_only_the_clubs_admins_see_the_snippet_page(client) -> None:
    season, _people = small_season()
    club = season.club
    url = club_url(club.slug, "competition:club_embed")
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    other = Club.objects.create(name="Andere club", slug="andere-club")
    foreign_td = User.objects.create_user("td-elders", password="td-pass-12345")
    foreign_td.groups.add(td_group(other))
    foreign_admin = admin_of(other, "admin-elders")
    own_td = User.objects.create_user("td-eigen", password="td-pass-12345")
    own_td.groups.add(td_group(club))
    member = User.objects.create_user("lid", password="lid-pass-12345")
    for user in (foreign_td, foreign_admin, own_td, member):
        client.force_login(user)
        assert client.get(url).status_code == 403, user.username
        assert client.post(url, {"origins": CLUB_SITE}).status_code == 403, user.username
    club.refresh_from_db()
    assert club.embed_origins == ""


def test_the_td_home_links_the_club_settings_for_club_admins_only(client) -> None:
    season, _people = small_season()
    club = season.club
    td = User.objects.create_user("td-eigen", password="td-pass-12345")
    td.groups.add(td_group(club))
    client.force_login(td)
    home = club_url(club.slug, "competition:td_home")
    assert 'id="club-admin-link"' not in client.get(home).content.decode()
    admin_of(club, "other-admin")
    assert club.admin_group is not None
    td.groups.add(club.admin_group)  # the TD becomes a club admin too
    assert 'id="club-admin-link"' in client.get(home).content.decode()
    # and the club's settings lead to the snippet page
    settings_page = client.get(club_url(club.slug, "competition:club_admin")).content.decode()
    assert 'id="club-embed-link"' in settings_page


def test_the_embed_page_shows_scores_as_the_standings_page_does(client: Client) -> None:
    """One number style: each score in the frame is written as on the standings page (the
    column's style, e.g. 39,00 beside 33,50, not 39 beside 33,5)."""
    season, people = small_season()
    cache.clear()
    embed = client.get(embed_url(season)).content.decode()
    page = client.get(
        club_url(season.club.slug, "competition:standings", args=[season.slug])
    ).content.decode()
    styled = 0
    for participant in people.values():
        embed_row = embed.split(f'data-participant="{participant.pk}"')[1].split("</tr>")[0]
        score = embed_row.split('class="num">')[2].split("<")[0]
        page_row = page.split(f'data-participant="{participant.pk}"')[1].split("</tr>")[0]
        # the score is the standings row's first number after the name
        after_name = page_row.split("</th>")[1]
        page_score = re.search(r'class="[^"]*\bnum\b[^"]*"[^>]*>([^<]*)<', after_name).group(1)
        assert score == page_score, (participant, score, page_score)
        styled += "," in score
    assert styled  # the small season's SB scores have decimals: the check compares styles
