"""The Dutch catalogue is complete and compiled, and the pages speak Dutch by default, English
when asked (issue 6, "Look and language")."""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from competition.clubs import club_url
from competition.forms import rules as rules_forms
from competition.presentation import labels
from competition.scoring.model import Contribution
from competition.scoring.parameters import ParameterKind, ParameterSpec
from competition.scoring.registry import FIGURE_NAMES, SYSTEMS
from competition.scoring.tiebreaks import TIEBREAK_LABELS
from competition.scoring.unplayed import CATEGORY_NOTES
from competition.templatetags.clubcomp import note_text
from tests.addresses import club_reverse
from tests.views.public_data import small_season

LOCALE = Path(settings.BASE_DIR) / "locale"
NL_PO = LOCALE / "nl" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")

# Words that are the same in Dutch and English (or codes), so msgstr == msgid is right.
SAME_IN_DUTCH = {
    "Admin",
    "account",
    "Bye",
    "bye",
    "Kashdan",
    "Club",
    "club",
    "clubs",
    "Clubs",
    "Menu",
    "Parameters",
    "Parameters: %(system)s",
    "rating",
    "Rating",
    "SB",
    "Score",
    "score",
    "Sonneborn-Berger",
    "status",
    "w",
}


@dataclass
class Message:
    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False


def _unquote(text: str) -> str:
    """A .po string literal without its quotes, escapes resolved."""
    body = text.strip()[1:-1]
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(1)), body)


def parse_po(path: Path) -> list[Message]:
    """The entries of a .po file (a small reader: enough for what makemessages writes)."""
    messages: list[Message] = []
    current: Message | None = None
    target: tuple[str, int] = ("msgid", 0)
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if current is not None:
                messages.append(current)
            current = None
            continue
        if current is None:
            current = Message(msgid="")
        if line.startswith("#~"):
            current.obsolete = True
        elif line.startswith("#,"):
            current.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif match := re.match(
            r'^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")$', line
        ):
            keyword, index, value = (
                match.group(1),
                int(match.group(2) or 0),
                _unquote(match.group(3)),
            )
            target = (keyword, index)
            if keyword == "msgstr":
                current.msgstr[index] = value
            else:
                setattr(current, keyword, value)
        elif line.startswith('"'):
            keyword, index = target
            if keyword == "msgstr":
                current.msgstr[index] += _unquote(line)
            else:
                setattr(current, keyword, getattr(current, keyword) + _unquote(line))
    return [m for m in messages if not m.obsolete]


def _catalogue_from_po(messages: list[Message]) -> dict[object, str]:
    """The same keys GNUTranslations uses: "ctxt\\x04id" for a context, (id, n) for plurals."""
    catalogue: dict[object, str] = {}
    for m in messages:
        if not m.msgid:
            continue  # the header
        key = f"{m.msgctxt}\x04{m.msgid}" if m.msgctxt is not None else m.msgid
        if m.msgid_plural is not None:
            for index, text in m.msgstr.items():
                catalogue[(key, index)] = text
        else:
            catalogue[key] = m.msgstr[0]
    return catalogue


def _catalogue_from_mo(path: Path) -> dict[object, str]:
    with path.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    return {k: v for k, v in compiled._catalog.items() if k != ""}  # type: ignore[attr-defined]


PO_FILES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def test_there_is_a_dutch_catalogue() -> None:
    assert NL_PO in PO_FILES
    assert len(parse_po(NL_PO)) > 400  # every UI string; a near-empty file means a lost merge


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_every_message_is_translated_and_none_is_fuzzy(po: Path) -> None:
    messages = parse_po(po)
    header = messages[0]
    assert header.msgid == "" and "fuzzy" not in header.flags
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in header.msgstr[0]
    fuzzy = [m.msgid for m in messages if "fuzzy" in m.flags]
    untranslated = [m.msgid for m in messages[1:] if not all(m.msgstr.values()) or not m.msgstr]
    plurals_short = [m.msgid for m in messages if m.msgid_plural and len(m.msgstr) != 2]
    assert fuzzy == [] and untranslated == [] and plurals_short == []


# The functions that mark a message for translation, and the position of the message in them.
_MARKERS = {"_": 0, "gettext": 0, "gettext_lazy": 0, "gettext_noop": 0, "ngettext": 0}


def _marked_messages(path: Path) -> set[str]:
    """The literal messages ``path`` marks for translation (``_("...")``, ``gettext_lazy``...)."""
    marked = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            position = _MARKERS.get(name)
            if position is not None and len(node.args) > position:
                message = node.args[position]
                if isinstance(message, ast.Constant) and isinstance(message.value, str):
                    marked.add(message.value)
    return marked


def test_every_message_the_code_marks_is_in_the_catalogue() -> None:
    """A message added to the code without its Dutch line would show in English on Dutch
    pages: the catalogue (made with ``make messages``) must hold every one."""
    catalogue = {m.msgid for m in parse_po(NL_PO) if not m.obsolete}
    sources = sorted((settings.BASE_DIR / "competition").rglob("*.py"))
    missing = {
        f"{path.relative_to(settings.BASE_DIR)}: {message!r}"
        for path in sources
        if "migrations" not in path.parts
        for message in _marked_messages(path)
        if message and message not in catalogue
    }
    assert not missing, "\n".join(sorted(missing))


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_placeholders_are_kept(po: Path) -> None:
    wrong = []
    for m in parse_po(po)[1:]:
        wanted = set(PLACEHOLDER.findall(m.msgid + (m.msgid_plural or "")))
        for text in m.msgstr.values():
            if set(PLACEHOLDER.findall(text)) != wanted:
                wrong.append((m.msgid, text))
    assert wrong == []


def test_dutch_differs_from_the_english_source() -> None:
    """A msgstr equal to its msgid is usually an entry someone forgot to translate."""
    same = [
        m.msgid
        for m in parse_po(NL_PO)[1:]
        if m.msgid_plural is None and m.msgstr[0] == m.msgid and m.msgid not in SAME_IN_DUTCH
    ]
    assert same == []


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_the_committed_mo_holds_exactly_the_po(po: Path) -> None:
    """A .mo older than its .po would show stale or English text: compare their contents."""
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run compilemessages"
    assert _catalogue_from_mo(mo) == _catalogue_from_po(parse_po(po))


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_every_po_compiles_to_the_committed_mo(po: Path, tmp_path: Path) -> None:
    compiled = tmp_path / "check.mo"
    subprocess.run(
        ["msgfmt", "--check", "-o", str(compiled), str(po)], check=True, capture_output=True
    )
    assert _catalogue_from_mo(compiled) == _catalogue_from_mo(po.with_suffix(".mo"))


@pytest.mark.parametrize(
    ("note", "dutch"),
    [
        ("forfeit", "reglementair"),
        ("start points", "beginpuntental"),
        ("absent_notice", "afwezig met bericht"),
        (
            "forfeit loss (C.07 16.2.4); cut: lowest",
            "reglementair verlies (C.07 16.2.4); geschrapt: laagste",
        ),
        ("a note nobody translated", "a note nobody translated"),
    ],
)
def test_engine_notes_in_dutch(note: str, dutch: str) -> None:
    with translation.override("nl"):
        assert note_text(note) == dutch
    with translation.override("en"):
        assert note_text(note) == note if note != "absent_notice" else "absent with notice"


def test_a_note_with_a_number_carries_it_as_data() -> None:
    line = Contribution(
        "RV",
        14,
        Fraction(150),
        note="rank value set to the points after game %(n)s",
        note_values={"n": 14},
    )
    with translation.override("nl"):
        assert note_text(line) == "rangwaarde gelijkgesteld aan de punten na partij 14"
    with translation.override("en"):
        assert note_text(line) == "rank value set to the points after game 14"


def _scoring_texts() -> list[str]:
    """Every English text the scoring package marks with gettext_noop for the pages."""
    texts = [*TIEBREAK_LABELS.values(), *FIGURE_NAMES.values(), *CATEGORY_NOTES.values()]
    for system in SYSTEMS.values():
        texts += [system.name, system.description]
        texts += [spec.description for spec in system.parameters]
    return [text for text in texts if text]


def test_the_scoring_texts_are_in_the_dutch_catalogue() -> None:
    catalogue = _catalogue_from_po(parse_po(NL_PO))
    assert [text for text in _scoring_texts() if text not in catalogue] == []
    with translation.override("nl"):
        assert labels.figure_label("BH/C1") == "Buchholz min laagste"
        assert labels.system_name(SYSTEMS["van-den-brink"]) == "Van den Brinksysteem"
        assert labels.figure_label("XYZ") == "XYZ"


def test_every_unplayed_round_category_has_a_dutch_note() -> None:
    with translation.override("nl"):
        untranslated = [n for n in CATEGORY_NOTES.values() if n and note_text(n) == n]
    assert untranslated == []


# --- the pages ------------------------------------------------------------------------------

SLUG = "interne-2026-2027"


@pytest.fixture
def demo(demo_club) -> None:
    return None


def _get(client: Client, url: str, language: str | None) -> str:
    """The page after choosing ``language`` with the switch (None: the client's cookies as set)."""
    if language:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


PAGES = [
    # (url name, args, as TD, Dutch words, English words)
    ("competition:home", [], False, ["Alle clubs", "Inloggen"], ["All clubs", "Log in"]),
    (
        "competition:standings",
        [SLUG],
        False,
        ["Stand na ronde", "Kruistabel", "Ronden", "Zo werkt het"],
        ["Standings after round", "Crosstable", "Rounds", "How it works"],
    ),
    ("login", [], False, ["Inloggen", "Gebruikersnaam"], ["Log in", "Username"]),
    ("competition:td_home", [], True, ["Clubavond", "Uitloggen"], ["Club evening", "Log out"]),
]


@pytest.mark.parametrize(("name", "args", "as_td", "dutch", "english"), PAGES)
def test_pages_speak_dutch_by_default_and_english_when_asked(
    client: Client,
    demo: None,
    name: str,
    args: list[str],
    as_td: bool,
    dutch: list[str],
    english: list[str],
) -> None:
    if as_td:
        client.force_login(User.objects.get(username="wedstrijdleider"))
    url = (
        club_url("sc-de-toren", name, args=args)
        if name.startswith("competition:")
        else reverse(name, args=args)
    )
    html = _get(client, url, None)
    assert '<html lang="nl">' in html
    assert [w for w in dutch if w not in html] == []
    assert [w for w in english if w in html] == []
    html = _get(client, url, "en")
    assert '<html lang="en">' in html
    assert [w for w in english if w not in html] == []


def test_the_browsers_language_does_not_override_dutch(client: Client, demo: None) -> None:
    """Dutch is the club's language: an English phone still gets Dutch until the switch is used."""
    url = club_reverse("competition:standings", args=[SLUG])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    html = response.content.decode()
    assert '<html lang="nl">' in html
    assert "Stand na ronde" in html
    assert "Cookie" in response.headers["Vary"]


def test_the_language_cookie_switches_to_english(client: Client, demo: None) -> None:
    url = club_reverse("competition:standings", args=[SLUG])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Standings after round" in _get(client, url, None)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    assert "Stand na ronde" in _get(client, url, None)


def test_set_language_view_switches(client: Client, demo: None) -> None:
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert "Current standings" in _get(client, club_url("sc-de-toren", "competition:home"), None)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "sb", "contribution"), [("nl", ">1,5<", "0,75"), ("en", ">1.5<", "0.75")]
)
def test_numbers_follow_the_language(
    client: Client, language: str, sb: str, contribution: str
) -> None:
    """The small hand-worked season (tests/views/public_data.py): C drew with D and with A,
    both on 1½ internal points, so each game adds ½ × 1½ = 0.75 and C's SB is 1.5."""
    cache.clear()
    season, people = small_season()
    html = _get(client, club_reverse("competition:standings", args=[season.slug]), language)
    c_row = html.split(f'data-participant="{people["C"].pk}"')[1].split("</tr>")[0]
    assert sb in c_row
    html = _get(
        client,
        club_reverse("competition:participant", args=[season.slug, people["C"].pk]),
        language,
    )
    assert contribution in html
    cache.clear()


@pytest.mark.parametrize(
    ("kind", "minimum", "maximum", "dutch", "english"),
    [
        (
            ParameterKind.FRACTION,
            Fraction(0),
            Fraction(1, 2),
            "een exact getal van 0 tot en met 0,5",
            "an exact number from 0 to 0.5",
        ),
        (
            ParameterKind.INT,
            1,
            None,
            "een geheel getal van minstens 1",
            "a whole number of at least 1",
        ),
        (ParameterKind.INT, None, None, "een geheel getal", "a whole number"),
    ],
)
def test_parameter_ranges_in_the_readers_words(
    kind: ParameterKind, minimum: object, maximum: object, dutch: str, english: str
) -> None:
    spec = ParameterSpec("x", kind, minimum or 0, "x", minimum, maximum)  # type: ignore[arg-type]
    with translation.override("nl"):
        assert rules_forms._allowed(spec) == dutch
    with translation.override("en"):
        assert rules_forms._allowed(spec) == english
