"""The admin speaks Dutch (issue 15: "no English or technical words left in the Dutch
interface"): every label of every model in the admin, simple-history's included, has Dutch of
its own, and the admin's pages show none of the English labels."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib import admin
from django.core.cache import cache
from django.db.models import Model
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from tests.addresses import club_reverse

# Labels that are the same word in Dutch and English, so Dutch equal to English is right.
SAME_IN_BOTH = {
    "club",  # Dutch "club", plural "clubs"
    "clubs",
    "status",
    "rating",  # the Dutch chess word (KNSB-rating)
    "account",
    "id",  # Django's own label of the primary key ("ID" in its Dutch catalogue)
    "elo",
    "trf",
}


def _models() -> list[type[Model]]:
    """The models in the admin, with the historical models of those that keep a history."""
    registered = list(admin.site._registry)
    history = [m.history.model for m in registered if hasattr(m, "history")]
    return registered + history


def _labels(model: type[Model]) -> dict[str, object]:
    labels: dict[str, object] = {
        "verbose_name": model._meta.verbose_name,
        "verbose_name_plural": model._meta.verbose_name_plural,
    }
    for field in model._meta.concrete_fields:
        labels[field.name] = field.verbose_name
    return labels


def _in(language: str, label: object) -> str:
    with translation.override(language):
        return str(label)


def test_every_label_in_the_admin_has_dutch_of_its_own() -> None:
    same = [
        f"{model.__name__}.{name}: {_in('en', label)}"
        for model in _models()
        for name, label in _labels(model).items()
        if _in("nl", label) == _in("en", label) and _in("en", label).lower() not in SAME_IN_BOTH
    ]
    assert same == []


def test_the_messages_of_apps_without_dutch_have_dutch_in_our_catalogue() -> None:
    from django.utils.translation import gettext

    from competition import vendor_messages

    messages = [
        m
        for m in vendor_messages.SIMPLE_HISTORY
        + vendor_messages.AXES
        + vendor_messages.DJANGO_ADMIN
        + vendor_messages.TASKS
        if isinstance(m, str)
    ]
    assert len(messages) > 40
    with translation.override("nl"):
        untranslated = [m for m in messages if gettext(m) == m]
        statuses = [str(m) for m in vendor_messages.TASKS if not isinstance(m, str)]
    assert untranslated == []
    assert statuses == ["Klaar", "Bezig", "Mislukt", "Gelukt"]
    entries = next(m for m in vendor_messages.SIMPLE_HISTORY if not isinstance(m, str))
    # "%" picks the plural form in the language active at that moment
    with translation.override("nl"):
        assert (entries % {"counter": 1}, entries % {"counter": 2}) == ("regel", "regels")
    with translation.override("en"):
        assert (entries % {"counter": 1}, entries % {"counter": 2}) == ("entry", "entries")


def test_a_few_labels_read_as_they_should() -> None:
    from competition.models import Game, Invitation, Season

    historical_game = Game.history.model
    assert _in("nl", Season._meta.get_field("slug").verbose_name) == "webadres"
    assert _in("nl", Game._meta.get_field("updated_by").verbose_name) == "laatst gewijzigd door"
    assert _in("nl", Invitation._meta.get_field("expires_at").verbose_name) == "geldig tot"
    assert _in("nl", historical_game._meta.verbose_name) == "partij (geschiedenis)"
    assert _in("en", historical_game._meta.verbose_name) == "historical game"
    assert _in("nl", historical_game._meta.get_field("history_date").verbose_name) == (
        "gewijzigd op"
    )
    created = dict(historical_game._meta.get_field("history_type").choices)["+"]
    assert (_in("nl", created), _in("en", created)) == ("Aangemaakt", "Created")


def _english_labels() -> set[str]:
    """Every label whose Dutch differs: none of them may be on a Dutch page."""
    # Django's admin headers and simple-history's kinds of change, from catalogues we complete.
    extra = {"model name", "add link", "change or view list link", "created", "changed", "deleted"}
    return extra | {
        _in("en", label).lower()
        for model in _models()
        for label in _labels(model).values()
        if _in("nl", label) != _in("en", label)
    }


class _Text(HTMLParser):
    """The text an admin page shows: one entry per piece of text between tags, with the
    label's colon and a filter's "By "/"Op " taken off."""

    def __init__(self) -> None:
        super().__init__()
        self.pieces: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split()).rstrip(":").strip().lower()
        if text and not self._skip:
            self.pieces.append(text.removeprefix("by ").removeprefix("op "))


def _shown(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return parser.pieces


@pytest.mark.django_db
def test_the_admin_pages_show_no_english_label(client, demo_club, superuser) -> None:
    english = _english_labels()
    assert "club" not in english  # the same in Dutch: no reason to look for it
    assert {"last changed by", "web address", "historical game", "first player"} <= english
    client.force_login(superuser)
    client.cookies["django_language"] = "nl"
    cache.clear()
    request = RequestFactory().get("/admin/")
    request.user = superuser
    pages = [reverse("admin:index")]
    for model, model_admin in admin.site._registry.items():
        base = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        pages.append(club_reverse(f"{base}_changelist"))
        if model_admin.has_add_permission(request):
            pages.append(club_reverse(f"{base}_add"))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            pages.append(club_reverse(f"{base}_change", args=[first.pk]))
            if hasattr(model, "history"):
                pages.append(club_reverse(f"{base}_history", args=[first.pk]))
    found = {}
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        html = response.content.decode()
        assert 'lang="nl"' in html, page
        english_here = sorted(set(_shown(html)) & english)
        if english_here:
            found[page] = english_here
    assert found == {}
    assert len(pages) > 30


def _cells(html: str) -> list[str]:
    """The text of every cell of the history table (a cell's whitespace folded)."""
    table = html.split('id="change-history"', 1)[1].split("</table>", 1)[0]
    return [" ".join(cell.split()) for cell in re.findall(r"<td>(.*?)</td>", table, re.S)]


@pytest.mark.django_db
def test_a_games_history_in_dutch_has_no_none_and_names_the_app(
    client, demo_club, superuser
) -> None:
    """simple-history's pages (our copies in templates/simple_history): an empty change reason
    is "—", not "None"; the breadcrumb names the app as the admin does ("Competitie")."""
    from competition.models import Game

    game = Game.objects.order_by("pk")[0]
    record = game.history.order_by("history_id")[0]
    # Made without a reason: None (rendered "None" by the package's own template).
    game.history.filter(history_id=record.history_id).update(history_change_reason=None)
    client.force_login(superuser)
    client.cookies["django_language"] = "nl"
    cache.clear()
    listing = client.get(club_reverse("admin:competition_game_history", args=[game.pk]))
    assert listing.status_code == 200
    html = listing.content.decode()
    cells = _cells(html)
    assert "—" in cells
    assert "None" not in cells
    assert "Competitie</a>" in html
    page = client.get(
        club_reverse("admin:competition_game_simple_history", args=[game.pk, record.pk])
    )
    assert page.status_code == 200
    breadcrumbs = page.content.decode().split('class="breadcrumbs"', 1)[1].split("</div>", 1)[0]
    assert ">Competitie</a>" in breadcrumbs
    assert "Competition" not in breadcrumbs
    assert ">Partijen</a>" in breadcrumbs
