"""One language at a time (issue 15): the Dutch pages show no English words or technical tokens,
and one number style.

Every page of every demo season without arguments beyond the season's (the URL walk of
tests/views/test_permissions.py, with the season's latest round, a participant and the first
game and entry) is read in Dutch as an anonymous visitor, the member ``lid``, the TD and the
admin; its visible text (tags, scripts and styles removed) and its tooltips and labels must not
hold a word of :data:`FORBIDDEN`. The untranslated msgids of the Dutch catalogue are checked by
tests/test_translations.py (``test_every_message_is_translated_and_none_is_fuzzy``).
"""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db.models import QuerySet
from django.test import Client

from competition.models import Game, Participant, Round, RoundEntry, Season
from tests.addresses import club_reverse
from tests.views.test_permissions import project_patterns

# Words that have been seen on Dutch pages: choice codes, command-line words, English messages,
# and the spellings the Dutch pages do not use ("rondes": the pages say "ronden").
FORBIDDEN = re.compile(
    r"\b(every_n|once|fixed_point|previous_values|frozen|slug|season-slug|Unknown|unknown|"
    r"round robin|Round robin|rondes|Rondes|Van den Brink-systeem|een ½ punt|None|True|False)\b"
)
INVISIBLE = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)
ATTRIBUTES = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"')


def visible_text(page: str) -> str:
    """What a reader sees or hears of ``page``: its text and its tooltips and labels."""
    words = INVISIBLE.sub("\n", page) + "\n" + "\n".join(ATTRIBUTES.findall(page))
    return html.unescape(words)


def _first_pk(rows: QuerySet) -> int:
    return rows.order_by("pk").values_list("pk", flat=True).first() or 1


def _season_urls(season: Season) -> list[str]:
    rnd = Round.objects.filter(season=season).order_by("-number").first()
    values: dict[str, object] = {
        "slug": season.slug,
        "season_slug": season.slug,
        "club_slug": season.club.slug,
        "number": rnd.number if rnd else 1,
        "round_number": rnd.number if rnd else 1,
        "game_id": _first_pk(Game.objects.filter(round=rnd)),
        "entry_id": _first_pk(RoundEntry.objects.filter(round__season=season)),
        "participant_id": _first_pk(Participant.objects.filter(season=season)),
        "pk": season.pk,
    }
    urls = []
    for namespace, pattern in project_patterns():
        names = list(getattr(pattern.pattern, "converters", {}))
        if names and all(name in values for name in names):
            urls.append(
                club_reverse(f"{namespace}{pattern.name}", kwargs={n: values[n] for n in names})
            )
    return urls


@pytest.mark.parametrize("username", [None, "lid", "wedstrijdleider", "beheerder"])
def test_dutch_pages_hold_no_english_or_technical_words(demo_club, username: str | None) -> None:
    cache.clear()
    client = Client()
    if username:
        client.force_login(User.objects.get(username=username))
    urls = [club_reverse("competition:home"), club_reverse("competition:files_home")]
    for season in Season.objects.order_by("pk"):
        urls += _season_urls(season)
    read, found = 0, {}
    for url in urls:
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        read += 1
        words = FORBIDDEN.findall(visible_text(response.content.decode()))
        if words:
            found[url] = sorted(set(words))
    assert found == {}
    assert read >= (40 if username in ("wedstrijdleider", "beheerder") else 20)


def test_the_rules_page_names_the_choices_in_dutch(client, demo_club) -> None:
    """Van den Brink's update mode and Keizer's recalculation are chosen by their Dutch names;
    the codes stay the values sent."""
    client.force_login(User.objects.get(username="beheerder"))
    page = client.get(club_reverse("competition:season_rules", args=["vandenbrink-2026-2027"]))
    text = page.content.decode()
    assert '<option value="every_n" selected>na elke N partijen</option>' in text
    assert '<option value="once">alleen na de eerste N partijen</option>' in text
    assert '<option value="fixed_point" selected>tot de stand niet meer verandert</option>' in text


def test_numbers_in_one_style_on_the_dutch_pages(client, demo_club) -> None:
    """The Van den Brink standings write every score with two decimals (211,28, 198,67) and
    game points with ½ (4½); the internal competition's SB column with the decimals its values
    need and internal points with ½."""
    cache.clear()
    page = client.get(club_reverse("competition:standings", args=["vandenbrink-2026-2027"]))
    cells = re.findall(r'<td class="(?:lead )?num"[^>]*>([^<]*)</td>', page.content.decode())
    scores = [c for c in cells if "," in c]
    assert scores and all(re.fullmatch(r"−?\d+,\d\d", c) for c in scores)
    assert any(c.endswith("½") for c in cells)
    assert not any(re.fullmatch(r"\d+,5", c) for c in cells)  # no game points as 4,5
