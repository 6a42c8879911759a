"""django-tables2 tables for the public pages, fed from plain dicts (the selectors' rows).

Numbers in the rows are exact (``Fraction``): they sort exactly and render in the reader's
style (58,25 in Dutch), each column with one number of decimals and points with ½
(:func:`competition.presentation.numbers.column_format`). The standings' CSV and XLSX exports
are not made
from these tables but from ``competition.services.transfer.standings_dataset`` (the columns of
docs/commands.md).
"""

from __future__ import annotations

import functools
import html
import inspect
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import conditional_escape, escape, format_html, strip_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from competition.presentation import numbers

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as StrPromise


class ExactColumn(tables.Column):
    """An exact number, right-aligned, in the reader's number style: ``write`` is the column's
    (:func:`competition.presentation.numbers.column_format` of its values), else each value on
    its own."""

    def __init__(
        self, *args: Any, write: Callable[[object], str] | None = None, **kwargs: Any
    ) -> None:
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        self.write = write or (lambda value: numbers.number_text(value))
        super().__init__(*args, **kwargs)

    def render(self, value: Fraction) -> str:
        return self.write(value)


def _column_write(
    rows: list[Mapping[str, Any]], key: str, code: str = ""
) -> Callable[[object], str]:
    """How the column of ``key`` (``"values__SB"`` for a figure) writes its values."""
    path = key.split("__")

    def value(row: Mapping[str, Any]) -> object:
        found: Any = row
        for part in path:  # a row is a dict: the abstract Mapping check only for others
            found = found.get(part) if type(found) is dict or isinstance(found, Mapping) else None
        return found

    return numbers.column_format(
        (value(row) for row in rows), points=numbers.is_points(code or path[-1])
    )


class StandingsTable(tables.Table):
    rank = tables.Column(
        verbose_name="#",
        attrs={"td": {"class": "num"}, "th": {"class": "num"}},
    )
    name = tables.Column(
        verbose_name=_("Name"),
        attrs={"th": {"class": "name-cell"}, "td": {"class": "name-cell"}},
    )
    movement = tables.Column(
        verbose_name=_("Move"),
        empty_values=(),
        attrs={"td": {"class": "num movement"}, "th": {"class": "num"}},
    )

    class Meta:
        template_name = "competition/_table.html"
        attrs = {"class": "table table-sm table-hover table-sticky-first standings align-middle"}
        orderable = True
        row_attrs = {
            "class": lambda record: "" if record.get("eligible", True) else "not-eligible",
            "data-participant": lambda record: record["participant_id"],
        }

    def __init__(
        self,
        *args: Any,
        season_slug: str = "",
        after_round: int | None = None,
        separation_labels: Mapping[str, tuple[str, str]] | None = None,
        **kw: Any,
    ) -> None:
        self.season_slug = season_slug
        self.after_round = after_round
        self.separation_labels = dict(separation_labels or {})
        super().__init__(*args, **kw)

    @functools.cached_property
    def _participant_url(self) -> str:
        """The participant page's URL with ``{}`` for the id (reversed once per table)."""
        marker = 987654321
        url = reverse(
            "competition:participant",
            kwargs={"slug": self.season_slug, "participant_id": marker},
        )
        return url.replace("{", "{{").replace("}", "}}").replace(str(marker), "{}")

    @functools.cached_property
    def _markers(self) -> tuple[str, str]:
        """The badges after a name: below the minimum of games, withdrawn (with ``{}`` for the
        round), escaped once per table."""
        below = format_html(
            ' <span class="badge text-bg-light border" title="{}">{}</span>',
            _("Below the minimum number of games for prizes"),
            "*",
        )
        withdrawn = format_html(
            ' <span class="badge text-bg-light border withdrawn">{}</span>',
            _("withdrawn from round %(round)s") % {"round": 987654321},
        )
        return below, withdrawn.replace("{", "{{").replace("}", "}}").replace("987654321", "{}")

    def render_name(self, value: str, record: Mapping[str, Any]) -> str:
        url = self._participant_url.format(record["participant_id"])
        if self.after_round:
            url += f"?round={self.after_round}"
        below, withdrawn = self._markers
        marker = "" if record.get("eligible", True) else below
        if record.get("withdrawn_from_round"):
            marker += withdrawn.format(int(record["withdrawn_from_round"]))
        return mark_safe(f'<a href="{escape(url)}">{escape(value)}</a>{marker}')

    def render_movement(self, value: int | None) -> str:
        if value is None:
            return format_html('<span class="text-body-secondary">{}</span>', _("new"))
        if value > 0:
            return format_html(
                '<span class="move-up" aria-hidden="true">▲{}</span>'
                '<span class="visually-hidden">{}</span>',
                value,
                _("up %(n)s") % {"n": value},
            )
        if value < 0:
            return format_html(
                '<span class="move-down" aria-hidden="true">▼{}</span>'
                '<span class="visually-hidden">{}</span>',
                -value,
                _("down %(n)s") % {"n": -value},
            )
        return format_html(
            '<span class="text-body-secondary" aria-hidden="true">–</span>'
            '<span class="visually-hidden">{}</span>',
            _("no change"),
        )

    def render_separated_by(self, value: str) -> str:
        """The tie-break that put this row below the one above with the same score: its code,
        with its name as the tooltip (``separation_labels``: code → (short, title))."""
        short, title = self.separation_labels.get(value, (value, value))
        return format_html('<abbr class="tb-reason" title="{}">{}</abbr>', title, short)

    def render_eligible(self, value: bool) -> str:
        if value:
            return format_html('<span aria-label="{}">✓</span>', _("eligible for prizes"))
        return format_html(
            '<span class="text-body-secondary" aria-label="{}">–</span>',
            _("not (yet) eligible for prizes"),
        )


def standings_table(
    rows: Iterable[Mapping[str, Any]],
    *,
    season_slug: str,
    after_round: int | None,
    primary: tuple[str, str],
    figures: Iterable[tuple[str, str]],
    tiebreaks: Iterable[tuple[str, str, str]],
    show_eligibility: bool,
    separation_labels: Mapping[str, tuple[str, str]] | None = None,
) -> StandingsTable:
    """The standings table with the season's columns: primary score, the system's other
    figures, game points, the tie-breaks in the season's order, what separated equal scores
    (only when some row was separated so), games, eligibility.

    ``primary`` and ``figures`` are (code, label); ``tiebreaks`` are (code, short, label);
    ``separation_labels`` maps what a row's ``separated_by`` holds to (short, title).
    """
    rows = list(rows)
    extra = _figure_columns(rows, primary, figures, tiebreaks)
    if any(row.get("separated_by") for row in rows):
        extra.append(("separated_by", _separated_by_column()))
    extra.append(
        (
            "games",
            tables.Column(
                verbose_name=_("Games"),
                attrs={"td": {"class": "num"}, "th": {"class": "num"}},
            ),
        )
    )
    if show_eligibility:
        extra.append(("eligible", _eligible_column()))
    return StandingsTable(
        rows,
        extra_columns=extra,
        season_slug=season_slug,
        after_round=after_round,
        separation_labels=separation_labels,
        order_by="rank",
        sequence=("rank", "name", "...", "movement"),
    )


def _figure_columns(
    rows: list[Mapping[str, Any]],
    primary: tuple[str, str],
    figures: Iterable[tuple[str, str]],
    tiebreaks: Iterable[tuple[str, str, str]],
) -> list[tuple[str, tables.Column]]:
    """The standings' number columns: the primary score, the system's other figures, game points
    (unless they are the primary score) and the tie-breaks in the season's order."""
    extra: list[tuple[str, tables.Column]] = [
        (
            "score",
            ExactColumn(
                verbose_name=primary[1],
                attrs={**_num_attrs(primary[1]), "td": {"class": "num lead"}},
                write=_column_write(rows, "score", primary[0]),
            ),
        )
    ]
    for index, (code, label) in enumerate(figures):
        extra.append(
            (
                f"figure_{index}",
                ExactColumn(
                    verbose_name=label,
                    accessor=f"values__{code}",
                    attrs=_num_attrs(label),
                    default="",
                    write=_column_write(rows, f"values__{code}"),
                ),
            )
        )
    if primary[0] != "PTS":
        extra.append(
            (
                "game_points",
                ExactColumn(
                    verbose_name=_("Pts"),
                    attrs=_num_attrs(_("Game points")),
                    write=_column_write(rows, "game_points", "PTS"),
                ),
            )
        )
    for index, (code, short, label) in enumerate(tiebreaks):
        extra.append(
            (
                f"tiebreak_{index}",
                ExactColumn(
                    verbose_name=short,
                    accessor=f"values__{code}",
                    attrs=_num_attrs(label),
                    default="",
                    write=_column_write(rows, f"values__{code}"),
                ),
            )
        )
    return extra


def _separated_by_column() -> tables.Column:
    """What placed a participant below the one just above him on equal score."""
    return tables.Column(
        verbose_name=_("Decided by"),
        orderable=False,
        default="",
        attrs={
            "td": {"class": "text-center lead"},
            "th": {
                "title": _(
                    "On equal score: what placed the participant below the one ranked just above"
                )
            },
        },
    )


def _eligible_column() -> tables.Column:
    """Whether a participant is eligible for prizes."""
    return tables.Column(
        verbose_name=_("Prize"),
        attrs={"td": {"class": "text-center"}, "th": {"title": _("Eligible for prizes")}},
    )


def _column_cells(column: Any, records: list[Any]) -> list[str]:
    """Every cell of ``column`` for ``records``, as django-tables2 renders them (accessor, empty
    values, default, the table's ``render_<name>`` or the column's ``render``), column by column:
    the signature is looked up once per column, and a cell rendered from its value alone
    (numbers, movement, eligibility) is rendered, and checked for being empty, once per distinct
    value."""
    path = str(column.accessor).split("__")
    empty, default, render = column.column.empty_values, column.default, column.render
    wants = set(inspect.signature(render).parameters)
    empty_cell = conditional_escape(default)

    def is_empty(value: Any) -> bool:
        if value is None or type(value) is Fraction or type(value) is int:
            return value is None and None in empty
        return value in empty

    values = []
    for record in records:
        value: Any = record
        for part in path:  # a record is a dict: the abstract Mapping check only for others
            value = value.get(part) if type(value) is dict or isinstance(value, Mapping) else None
        values.append(value)
    if wants != {"value"}:
        return [
            empty_cell
            if is_empty(value)
            else conditional_escape(
                render(**{k: v for k, v in (("value", value), ("record", record)) if k in wants})
            )
            for value, record in zip(values, records, strict=True)
        ]
    texts: dict[Any, str] = {}  # a cell that depends on its value only, per value
    cells = []
    for value in values:
        kind = type(value)
        # a Fraction's own hash is slow (a modular inverse): its two integers are the key
        key = (value.numerator, value.denominator) if kind is Fraction else (kind, value)
        text = texts.get(key)
        if text is None:
            text = texts[key] = empty_cell if is_empty(value) else conditional_escape(render(value))
        cells.append(text)
    return cells


def _label(column: Any) -> str:
    """The column's name as a cell's ``data-label`` (shown beside the value on a phone)."""
    return str(conditional_escape(strip_tags(str(column.header))))


def _attribute(value: Any) -> str:
    """``conditional_escape(value)`` of a row attribute, without its lazy-text wrapper for the
    plain numbers and texts rows hold (the same text)."""
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is str:
        return html.escape(value)
    return str(conditional_escape(value))


def table_rows_html(table: tables.Table) -> SafeString:
    """The ``<tr>`` rows of ``table`` as ``competition/_table.html`` renders them (row attributes
    with even/odd, the name cell as the row's header), built in Python: the template's loop costs
    several milliseconds per hundred rows and a page of standings has 150 rows × 12 columns.

    Only for tables whose columns have no links and static cell attributes (the standings).
    """
    records = list(table.data)
    # column by column: a column's cells in one loop, its opening and closing tag written once
    cell_columns = []
    for column in table.columns:
        header = column.name in ("name", "white")
        opening = 'th scope="row"' if header else "td"
        cell_attrs = f'{column.attrs["td"].as_html()} data-label="{_label(column)}"'
        start, end = f"<{opening} {cell_attrs}>", "</th>" if header else "</td>"
        cell_columns.append([start + cell + end for cell in _column_cells(column, records)])
    row_cells = zip(*cell_columns, strict=True) if cell_columns else [()] * len(records)
    row_attrs = list(table.row_attrs.items())
    lines = []
    for counter, (record, cells) in enumerate(zip(records, row_cells, strict=True)):
        attrs = {name: value(record) if callable(value) else value for name, value in row_attrs}
        parity = "odd" if counter % 2 else "even"
        attrs["class"] = f"{attrs['class']} {parity}" if attrs.get("class") else parity
        tr = " ".join(
            f'{name}="{_attribute(value)}"' for name, value in attrs.items() if value is not None
        )
        lines.append(f"<tr {tr}>{''.join(cells)}</tr>")
    return mark_safe("\n".join(lines))


def _num_attrs(title: str | StrPromise) -> dict[str, dict[str, str]]:
    return {
        "td": {"class": "num"},
        "th": {"class": "num", "title": str(title)},
    }


class PairingsTable(tables.Table):
    """A round's games: board, white, result, black."""

    board = tables.Column(verbose_name=_("Board"), attrs={"td": {"class": "num"}})
    white = tables.Column(verbose_name=_("White"), attrs={"td": {"class": "name-cell"}})
    result = tables.Column(
        verbose_name=_("Result"), empty_values=(), attrs={"td": {"class": "text-center result"}}
    )
    black = tables.Column(verbose_name=_("Black"), attrs={"td": {"class": "black"}})

    class Meta:
        template_name = "competition/_table.html"
        attrs = {"class": "table table-sm table-sticky-first pairings align-middle"}
        orderable = False

    def __init__(self, *args: Any, season_slug: str = "", **kwargs: Any) -> None:
        self.season_slug = season_slug
        super().__init__(*args, **kwargs)

    def _link(self, participant_id: int, name: str) -> str:
        if not hasattr(self, "_url_around_id"):
            # Resolved once per table, not twice per board: the URL around the id.
            marker = 987654321
            url = reverse(
                "competition:participant",
                kwargs={"slug": self.season_slug, "participant_id": marker},
            )
            self._url_around_id = url.split(str(marker))
        before, after = self._url_around_id
        return format_html('<a href="{}{}{}">{}</a>', before, participant_id, after, name)

    def _player(self, record: Mapping[str, Any], colour: str) -> str:
        """His name, linked, with his place in the standings before the round ("(3)")."""
        link = self._link(record[f"{colour}_id"], record[colour])
        place = record.get(f"{colour}_place")
        if place is None:
            return link
        return format_html('{} <small class="text-body-secondary place">({})</small>', link, place)

    def render_white(self, record: Mapping[str, Any]) -> str:
        return self._player(record, "white")

    def render_black(self, record: Mapping[str, Any]) -> str:
        return self._player(record, "black")

    def render_result(self, record: Mapping[str, Any]) -> str:
        if not record["result"]:
            return format_html('<span class="text-body-secondary">{}</span>', _("not yet played"))
        return record["result_display"]
