"""One number style per figure on a page: the demo seasons' public pages (standings, participant
pages, how it works, cross table, systems, series and evening pages) and the rules preview never
write one figure in two styles.

A page's tables are read from its HTML. A figure is named by its column: the header's tooltip
(``title``) or text; in a figure's explanation (``section.explanation``) its amounts and its total
are named by the section's heading, the name the games table gives that figure's column. Two
checks:

- within a column every number has the same style: points with ½ (whole numbers among them), or
  the same number of decimals ("9,5" beside "6" is two styles; "6,0" beside "9,5" is one);
- one value of one figure is written one way on the page ("9,5" in the games table and "9½" in
  the explanation, or "6" and "6,0", are two styles of one figure).

The how-it-works page's worked sentence (``p.example-sentence``) writes each of its numbers as
the explanation table below it writes the same amount in the sentence's game's row.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache

from competition.forms.rules import SeasonRulesForm
from competition.models import Season
from tests.addresses import club_reverse

pytestmark = pytest.mark.django_db

NUMBER = re.compile(r"[−+-]?(?:\d+(?:[.,]\d+)?½?|½)")
# Columns of a rule's parameter, written as the rule states it (0,5; 1; 1/3): not a figure.
RULE_COLUMNS = {"Deel"}  # Keizer's fraction of a result


@dataclass
class Table:
    heading: str  # the section's heading of an explanation, else ""
    labels: list[str] = field(default_factory=list)  # one per column
    head: list[list[tuple[str, int, int]]] = field(default_factory=list)  # (text, span, rows)
    rows: list[list[tuple[bool, str]]] = field(default_factory=list)  # (numeric, text)
    foot: list[list[tuple[bool, str]]] = field(default_factory=list)


class _Tables(HTMLParser):
    """The tables of a page: headers, numeric cells (class ``num`` or ``text-end``), text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[Table] = []
        self._open: list[Table] = []
        self._sections: list[tuple[str, bool]] = []  # (tag, is an explanation)
        self._heading = ""  # the latest explanation heading
        self._in_heading = False
        self._in_small = 0
        self._part = ""  # "head", "body", "foot"
        self._cell: list[str] | None = None
        self._cell_numeric = False
        self._cell_span = 1
        self._cell_rows = 1
        self._cell_title = ""
        self._row: list[tuple[bool, str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        classes = attributes.get("class", "").split()
        if tag == "section":
            self._sections.append((tag, "explanation" in classes))
        elif tag in ("h2", "h3") and self._explanation():
            self._heading, self._in_heading = "", True
        elif tag == "small" and self._in_heading:
            self._in_small += 1
        elif tag == "table":
            self._open.append(Table(heading=self._heading if self._explanation() else ""))
        elif tag in ("thead", "tbody", "tfoot"):
            self._part = tag[1:] if tag != "tbody" else "body"
        elif tag == "tr" and self._open:
            self._row = []
            self._head_cells: list[tuple[str, int, int]] = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
            self._cell_numeric = bool({"num", "text-end"} & set(classes))
            self._cell_span = int(attributes.get("colspan") or 1)
            self._cell_rows = int(attributes.get("rowspan") or 1)
            self._cell_title = attributes.get("title", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self._sections:
            self._sections.pop()
        elif tag in ("h2", "h3"):
            self._in_heading = False
            self._heading = self._heading.strip()
        elif tag == "small" and self._in_small:
            self._in_small -= 1
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            text = re.sub(r"\s+", " ", "".join(self._cell)).strip()
            if self._part == "head":
                text = self._cell_title or text
                self._head_cells.append((text, self._cell_span, self._cell_rows))
            self._row.extend([(self._cell_numeric, text)] * self._cell_span)
            self._cell = None
        elif tag == "tr" and self._row is not None and self._open:
            table = self._open[-1]
            if self._part == "head":
                table.head.append(self._head_cells)
                table.labels = _labels(table.head)
            elif self._part == "foot":
                table.foot.append(self._row)
            else:
                table.rows.append(self._row)
            self._row = None
        elif tag == "table" and self._open:
            self.tables.append(self._open.pop())

    def handle_data(self, data: str) -> None:
        if self._in_heading and not self._in_small:
            self._heading += data
        if self._cell is not None:
            self._cell.append(data)

    def _explanation(self) -> bool:
        return any(explanation for _tag, explanation in self._sections)


def _labels(head: list[list[tuple[str, int, int]]]) -> list[str]:
    """One name per column from the header rows (``colspan``, ``rowspan``): a column under a
    group's header is named by both ("Keizer / #")."""
    grid: dict[tuple[int, int], str] = {}
    for row_index, cells in enumerate(head):
        column = 0
        for text, span, rows in cells:
            while (row_index, column) in grid:
                column += 1
            for extra_row in range(rows):
                for extra_column in range(span):
                    grid[row_index + extra_row, column + extra_column] = text
            column += span
    width = max((column for _row, column in grid), default=-1) + 1
    labels = []
    for column in range(width):
        texts = [grid.get((row, column), "") for row in range(len(head))]
        labels.append(" / ".join(dict.fromkeys(text for text in texts if text)))
    return labels


def value_of(text: str) -> Fraction:
    """``"9½"`` → 19/2, ``"−2,30"`` → −23/10, ``"½"`` → 1/2."""
    negative = text[0] in "−-"
    text = text.lstrip("−+-")
    half = text.endswith("½")
    whole = text.rstrip("½") or "0"
    number = Fraction(whole.replace(",", ".")) + (Fraction(1, 2) if half else 0)
    return -number if negative else number


def style_of(text: str) -> str:
    """``"points"`` for a number with ½, else its decimals (``"0"`` for a whole number)."""
    if "½" in text:
        return "points"
    _whole, _separator, decimals = text.lstrip("−+-").replace(",", ".").partition(".")
    return str(len(decimals))


def figures(table: Table) -> dict[str, list[list[str]]]:
    """Per figure name, the numbers of each of its cells (a preview cell holds now → new)."""
    columns: dict[str, list[list[str]]] = defaultdict(list)
    numeric = [
        index
        for index in range(len(table.labels))
        if any(index < len(row) and row[index][0] for row in table.rows)
    ]
    for row in table.rows + table.foot:
        for index in numeric:
            if index >= len(row) or not row[index][0]:
                continue
            label = table.labels[index]
            if label in RULE_COLUMNS:
                continue
            # an explanation's amounts and its total: the figure its heading names
            if table.heading and index == numeric[-1]:
                label = table.heading
            columns[label].append(NUMBER.findall(row[index][1]))
    return columns


def style_mix(html: str) -> list[str]:
    """What the page writes in two styles: a column with two styles, one value two ways."""
    reader = _Tables()
    reader.feed(html)
    found = []
    texts: dict[str, dict[Fraction, set[str]]] = defaultdict(lambda: defaultdict(set))
    for table in reader.tables:
        for label, cells in figures(table).items():
            numbers = [text for cell in cells for text in cell]
            styles = {style_of(text) for text in numbers} - ({"0"} if len(numbers) else set())
            whole = any(style_of(text) == "0" for text in numbers)
            if len(styles) > 1 or (whole and styles and styles != {"points"}):
                found.append(f"column {label!r}: {sorted(set(numbers))}")
            for text in numbers:
                texts[label][value_of(text)].add(text.lstrip("+"))
    for label, values in texts.items():
        for value, written in values.items():
            if len(written) > 1:
                found.append(f"{label!r} {value} written as {sorted(written)}")
    return found


def test_the_reader_finds_two_styles() -> None:
    page = """
    <table><thead><tr><th class="num">Rd</th><th class="num" title="Punten">Pnt</th>
      <th class="num" title="Weerstandspunten (Buchholz)">BH</th></tr></thead>
    <tbody><tr><td class="num">1</td><td class="num">½</td><td class="num">9,5</td></tr>
      <tr><td class="num">2</td><td class="num">1</td><td class="num">6</td></tr></tbody></table>
    <section class="explanation"><h3>Weerstandspunten (Buchholz) <small>(BH = 15,5)</small></h3>
    <table><thead><tr><th class="num">Rd</th><th>Opm</th><th class="num">Waarde</th></tr></thead>
    <tbody><tr><td class="num">1</td><td>9½</td><td class="num">9,5</td></tr>
      <tr><td class="num">2</td><td>6</td><td class="num">6,0</td></tr></tbody>
    <tfoot><tr><th colspan="2">Totaal</th><td class="num">15,5</td></tr></tfoot></table>
    </section>
    <section class="explanation"><h3>Punten <small>(PTS = 1½)</small></h3>
    <table><thead><tr><th class="num">Rd</th><th class="num">Waarde</th></tr></thead>
    <tbody><tr><td class="num">1</td><td class="num">0,5</td></tr></tbody></table></section>
    """
    assert style_mix(page) == [
        "column 'Weerstandspunten (Buchholz)': ['6', '9,5']",
        "'Punten' 1/2 written as ['0,5', '½']",
        "'Weerstandspunten (Buchholz)' 6 written as ['6', '6,0']",
    ]
    assert style_mix(page.replace('"num">6<', '"num">6,0<').replace("0,5", "½")) == []


def _rules_form_data(season: Season) -> dict[str, object]:
    """The rules form as the browser sends it for the season's current rules, with Preview."""
    form = SeasonRulesForm(season=season)
    data: dict[str, object] = {"preview": "1"}
    for name, bound in form.fields.items():
        value = form[name].value()
        widget = bound.widget
        if widget.input_type == "checkbox" if hasattr(widget, "input_type") else False:
            if value:
                data[name] = "on"
        elif isinstance(value, list | tuple):
            data[name] = [str(item) for item in value]
        elif value is not None:
            data[name] = widget.format_value(value) or ""
    return data


def _pages(season: Season) -> list[str]:
    slug = season.slug
    pages = [
        club_reverse(f"competition:{name}", args=[slug])
        for name in ("standings", "how_it_works", "crosstable", "systems")
    ]
    pages += [
        club_reverse("competition:participant", args=[slug, participant_id])
        for participant_id in season.participants.values_list("pk", flat=True)
    ]
    if season.is_rapid_series:
        pages.append(club_reverse("competition:series", args=[slug]))
        played = season.rounds.count()
        evenings = -(-played // season.rounds_per_evening)
        pages += [
            club_reverse("competition:evening", args=[slug, number])
            for number in range(1, evenings + 1)
        ]
    return pages


def test_no_figure_in_two_styles_on_the_demo_pages(client, demo_club) -> None:
    cache.clear()
    mixed: dict[str, list[str]] = {}
    walked = 0
    for season in Season.objects.order_by("pk"):
        for page in _pages(season):
            response = client.get(page)
            assert response.status_code == 200, page
            walked += 1
            if found := style_mix(response.content.decode()):
                mixed[page] = found
    assert walked > 100
    assert mixed == {}


def test_no_figure_in_two_styles_in_the_rules_previews(client, demo_club) -> None:
    client.force_login(User.objects.get(username="clubbeheerder"))
    mixed: dict[str, list[str]] = {}
    previews = 0
    for season in Season.objects.filter(club__slug="sc-de-toren").order_by("pk"):
        page = club_reverse("competition:season_rules", args=[season.slug])
        html = client.post(page, _rules_form_data(season)).content.decode()
        assert 'id="preview"' in html, page
        previews += 1
        if found := style_mix(html):
            mixed[page] = found
    assert previews >= 5
    assert mixed == {}


# A worked sentence's numbers in order (both languages keep it), each the cell of the explanation
# table's row of that round: SB (seed 000): round, game points, unplayed rounds, internal points,
# score, score, internal points, the amount; Van den Brink: round, result part, own and the
# opponent's rank value, compensation, the amount; Keizer: round, the opponent's value now and
# then, the fraction twice, the value now, the amount. Cell 0 is the opponent's name.
SENTENCE_CELLS = {
    8: ("SB", [1, 2, 3, 4, 5, 5, 4, 6]),
    6: ("VDB", [1, 2, 3, 4, 5, 6]),
    7: ("KEIZER", [1, 2, 3, 5, 5, 2, 6]),
}
SENTENCE_NUMBER = re.compile(r"[−+-]?\d+/\d+|" + NUMBER.pattern)  # a fraction as 1/3 too


class _Sentences(_Tables):
    """The tables of a page and its worked sentences, each with the index of the next table."""

    def __init__(self) -> None:
        super().__init__()
        self.sentences: list[tuple[str, int]] = []
        self._sentence: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "p" and "example-sentence" in (dict(attrs).get("class") or "").split():
            self._sentence = []
        super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "p" and self._sentence is not None:
            self.sentences.append((" ".join("".join(self._sentence).split()), len(self.tables)))
            self._sentence = None
        super().handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if self._sentence is not None:
            self._sentence.append(data)
        super().handle_data(data)


def sentence_mix(html: str) -> list[str]:
    """Each number of a worked sentence written otherwise than its cell in the table below."""
    reader = _Sentences()
    reader.feed(html)
    found = []
    for sentence, table_index in reader.sentences:
        written = SENTENCE_NUMBER.findall(sentence)
        code, cells = SENTENCE_CELLS[len(written)]
        table = reader.tables[table_index]
        row = next(row for row in table.rows if len(row) > 1 and row[1][1] == written[0])
        for text, cell in zip(written, cells, strict=True):
            if text != row[cell][1]:
                found.append(f"{code}: {text!r} in the sentence, {row[cell][1]!r} in the table")
    return found


def test_the_reader_compares_a_sentence_with_its_table() -> None:
    page = """
    <p class="example-sentence">In round 2 the opponent was Jan: result part +1; rank values
      4,5 (own) and 3 (opponent), so the compensation is −0,3; together +0,7.</p>
    <section class="explanation"><h3>Van den Brink <small>(VDB = 1,70)</small></h3>
    <table><thead><tr><th>Opponent</th><th class="num">Rnd</th><th class="num">R</th>
      <th class="num">Own</th><th class="num">Opp</th><th class="num">C</th>
      <th class="num">Pts</th></tr></thead>
    <tbody><tr><th>Piet</th><td class="num">1</td><td class="num">+1,0</td>
      <td class="num">4,00</td><td class="num">3,50</td><td class="num">+0,5</td>
      <td class="num">+1,00</td></tr>
      <tr><th>Jan</th><td class="num">2</td><td class="num">+1,0</td><td class="num">4,50</td>
      <td class="num">3,00</td><td class="num">−0,3</td><td class="num">+0,70</td></tr></tbody>
    </table></section>
    """
    assert sentence_mix(page) == [
        "VDB: '+1' in the sentence, '+1,0' in the table",
        "VDB: '4,5' in the sentence, '4,50' in the table",
        "VDB: '3' in the sentence, '3,00' in the table",
        "VDB: '+0,7' in the sentence, '+0,70' in the table",
    ]
    fixed = page.replace("part +1;", "part +1,0;").replace("4,5 (own)", "4,50 (own)")
    fixed = fixed.replace("3 (opponent)", "3,00 (opponent)").replace("+0,7.", "+0,70.")
    assert sentence_mix(fixed) == []


@pytest.mark.parametrize("language", ["nl", "en"])
def test_the_worked_sentences_write_numbers_as_their_tables(client, demo_club, language) -> None:
    cache.clear()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    mixed: dict[str, list[str]] = {}
    codes: set[str] = set()
    for season in Season.objects.order_by("pk"):
        page = club_reverse("competition:how_it_works", args=[season.slug])
        html = client.get(page).content.decode()
        reader = _Sentences()
        reader.feed(html)
        codes |= {SENTENCE_CELLS[len(SENTENCE_NUMBER.findall(s))][0] for s, _ in reader.sentences}
        if found := sentence_mix(html):
            mixed[page] = found
    assert codes == {"SB", "VDB", "KEIZER"}  # every kind of worked sentence was compared
    assert mixed == {}
