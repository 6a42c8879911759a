"""Every message the format readers can give is in the Dutch catalogue, and an upload error
reads as Dutch in the Dutch interface, its line and column first (issue 15).

The readers import nothing from Django: each message is an English template marked with
``gettext_noop`` plus its values, translated by
``competition.presentation.labels.format_error_text``. The
templates are collected by scanning the source, so a new message without a translation (or
one that is not marked, and so would never reach the catalogue) fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from competition.formats.archive_reader import load_archive
from competition.formats.errors import FormatError, Term
from competition.formats.ratings import parse_knsb
from competition.formats.text import decode_text
from competition.formats.trf_reader import parse_trf
from competition.presentation.labels import error_text, format_error_text
from tests.services.test_transfer import SMALL_TRF
from tests.test_translations import NL_PO, _catalogue_from_po, parse_po

BASE = Path(settings.BASE_DIR)
# Where FormatError is raised: the pure readers, and the import services that check an archive
# against the database.
SOURCES = [BASE / "competition" / "formats", BASE / "competition" / "services" / "transfer"]


def _files() -> list[Path]:
    return sorted(path for root in SOURCES for path in root.rglob("*.py"))


def _marked_texts() -> dict[str, str]:
    """Every literal passed to gettext_noop in SOURCES -> "file:line" where it is."""
    texts: dict[str, str] = {}
    for path in _files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                texts.setdefault(node.args[0].value, f"{path.relative_to(BASE)}:{node.lineno}")
    return texts


def _unmarked_reasons() -> list[str]:
    """FormatError calls whose reason is written out (a string or an f-string) instead of a
    template marked with gettext_noop: makemessages would never see it."""
    found = []
    for path in _files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "FormatError"
                and node.args
                and isinstance(node.args[0], ast.Constant | ast.JoinedStr | ast.BinOp)
            ):
                found.append(f"{path.relative_to(BASE)}:{node.lineno}")
    return found


def test_the_scan_finds_the_messages() -> None:
    texts = _marked_texts()
    assert len(texts) > 120  # TRF, rating lists, archive, text checks and the import services
    assert "unknown record %(code)s" in texts
    assert "line %(line)s, column %(column)s" in texts


def test_every_reason_is_a_marked_template() -> None:
    assert _unmarked_reasons() == []


def test_every_format_message_has_a_dutch_translation() -> None:
    catalogue = _catalogue_from_po(parse_po(NL_PO))
    missing = {text: where for text, where in _marked_texts().items() if text not in catalogue}
    assert missing == {}
    with translation.override("nl"):
        same = [t for t in _marked_texts() if translation.gettext(t) == t and t != "rating"]
    assert same == []


BROKEN_TRF = SMALL_TRF + "99X something\n"  # line 6: no such record


@pytest.mark.parametrize(
    ("read", "dutch", "english"),
    [
        (
            lambda: parse_trf(BROKEN_TRF),
            "regel 6, kolom 1: onbekende regel '99X'",
            "line 6, column 1: unknown record '99X'",
        ),
        (
            lambda: parse_trf(SMALL_TRF.replace("001    2", "001 12x4")),
            "regel 4, kolom 5: startnummer moet een getal zijn, gevonden: '12x4' (kolommen 5-8)",
            "line 4, column 5: start rank must be a number, found '12x4' (columns 5-8)",
        ),
        (
            lambda: decode_text("a\nb".encode("utf-16"), save_as="UTF-8 text"),
            "regel 1: het bestand is UTF-16; sla het op als UTF-8-tekst",
            "line 1: the file is UTF-16; save it as UTF-8 text",
        ),
        (
            lambda: parse_knsb(
                b"Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\n1;A;;NED;2000;1;1990;x\n"
            ),
            "regel 2, kolom 22: S moet 'w', 'm' of leeg zijn, gevonden: 'x'",
            "line 2, column 22: S must be 'w', 'm' or empty, found 'x'",
        ),
        (
            lambda: load_archive('{"format": "clubcomp-season", "version": 1, "club": []}'),
            "club: verwacht een object, gevonden: een lijst",
            "club: expected an object, found a list",
        ),
        (
            lambda: load_archive('{"format": "clubcomp-season",\n "version": }'),
            "regel 2, kolom 13: geen JSON (waarde verwacht)",
            "line 2, column 13: not JSON (Expecting value)",
        ),
    ],
)
def test_a_reader_error_in_dutch_and_english(read, dutch: str, english: str) -> None:
    with pytest.raises(FormatError) as caught:
        read()
    assert format_error_text(caught.value, "nl") == dutch
    assert format_error_text(caught.value, "en") == english
    assert str(caught.value) == english  # the command line and logs keep the English


def test_a_term_among_the_values_is_translated_a_plain_value_is_not() -> None:
    error = FormatError(
        "%(what)s %(value)s appears twice (also %(other)s)",
        {"what": Term("member id"), "value": "member id", "other": "members[0].id"},
        path="members[1].id",
    )
    assert format_error_text(error, "nl") == (
        "members[1].id: lid-id member id komt twee keer voor (ook members[0].id)"
    )


def test_an_untranslated_reason_stays_as_written() -> None:
    error = FormatError("50% of a reason nobody translated", line=4)
    assert format_error_text(error, "nl") == "regel 4: 50% of a reason nobody translated"
    assert error_text(ValueError("plain"), "nl") == "plain"
