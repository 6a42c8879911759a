"""Rows of the participant page's tables, built in Python: the games, the chart's figures, the
round choices and the explanation tables.

``_explanations.html`` writes one table per figure; a table's ``<tr>`` rows are written here, as
the template's loops wrote them (same markup and whitespace, every value escaped, numbers in the
reader's language by the same filters). The template loop cost about as much as computing the
figures: a page of 40 rounds has four tables of 40 rows with a filter in every cell.

A page repeats few numbers (0, ½, 1, the round numbers), so each formatted, escaped text is
computed once per value and language (:class:`CellTexts`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from competition.scoring.model import Contribution
from competition.selectors.participant import ChartRow, ExplanationSection, GameLine
from competition.templatetags.clubcomp import (
    colour_name,
    entry_name,
    exact_number,
    fraction_text,
    half,
    note_text,
    part_name,
    result_text,
    signed_number,
)

_UNPLAYED = ' class="unplayed"'
_SELECTED = " selected"


@dataclass(frozen=True)
class SectionWithRows(ExplanationSection):
    """A figure's explanation with its table rows already written (``{{ section.rows }}``)."""

    rows: SafeString


class CellTexts:
    """Escaped cell texts for one page in the active language, each value formatted once.

    The values are Fractions, ints and text; equal ones give equal texts with every formatter
    here (``exact_number`` reads an int and a Fraction of the same value alike), so a value is
    a sound key.
    """

    def __init__(self, names: Mapping[int, str]) -> None:
        self.number = _remembered(exact_number)  # {{ value|exact_number }}
        self.signed = _remembered(signed_number)  # {{ value|signed_number }}
        self.fraction = _remembered(fraction_text)  # {{ value|fraction_text }}
        self.integer = _remembered(localize)  # {{ value }} for a round number
        self.name = _remembered(lambda pid: names.get(pid, ""))  # {{ names|get_item:pid }}
        self.part = _remembered(part_name)  # {{ value|part_name }}
        self.half = _remembered(half)  # {{ value|half }}
        self.entry = _remembered(entry_name)  # {{ value|entry_name }}
        self.colour = _remembered(colour_name)  # {{ value|colour_name }}
        self.result = _remembered(result_text)  # {{ value|result_text }}


def _remembered(format_value: Callable[[Any], str]) -> Callable[[Any], str]:
    known: dict[Hashable, str] = {}

    def text(value: Any) -> str:
        try:
            return known[value]
        except KeyError:
            escaped = known[value] = conditional_escape(format_value(value))
            return escaped
        except TypeError:  # an unhashable value: not remembered
            return conditional_escape(format_value(value))

    return text


def game_rows_html(
    rows: Iterable[tuple[GameLine, str]], *, season_slug: str, cells: CellTexts
) -> SafeString:
    """The games table's ``<tr>`` rows: each game (with its figure cells, already written) as
    ``_participant.html`` wrote it, the opponent's name a link to his page."""
    url = _participant_url(season_slug)
    lines = []
    for game, figure_cells in rows:
        if game.opponent_id:
            who = f'<a href="{url(game.opponent_id)}">{conditional_escape(game.opponent_name)}</a>'
        else:
            who = f'<span class="text-body-secondary">{cells.entry(game.entry)}</span>'
        result = cells.result(game.result) if game.result else "–"
        lines.append(
            f"\n      <tr{'' if game.played else _UNPLAYED}>\n"
            f'        <td class="num">{cells.integer(game.round_number)}</td>\n'
            f'        <th scope="row" class="name-cell">{who}</th>\n'
            f"        <td>{cells.colour(game.colour)}</td>\n"
            f'        <td class="text-center">{result}</td>\n'
            f'        <td class="num">{cells.half(game.points)}</td>\n'
            f"        {figure_cells}\n"
            "      </tr>\n    "
        )
    return mark_safe("".join(lines))


def _participant_url(season_slug: str) -> Callable[[int], str]:
    """The (escaped) URL of a participant's page: reversed once, with a stand-in id put in its
    place, since reversing it for every opponent cost as much as the rest of his row."""
    stand_in = "7390218465"
    prefix, found, suffix = reverse(
        "competition:participant", args=[season_slug, int(stand_in)]
    ).rpartition(stand_in)
    if not found:  # a URL that does not hold the id as written: reversed for each
        return lambda participant_id: conditional_escape(
            reverse("competition:participant", args=[season_slug, participant_id])
        )
    return lambda participant_id: conditional_escape(f"{prefix}{participant_id}{suffix}")


def history_rows_html(history: Iterable[ChartRow], *, cells: CellTexts) -> SafeString:
    """The rows of the chart's figures as a table: round, rank, score."""
    return mark_safe(
        "".join(
            f'<tr><th scope="row">{cells.integer(point.round_number)}</th>'
            f'<td class="num">{cells.integer(point.rank)}</td>'
            f'<td class="num">{cells.number(point.score)}</td></tr>'
            for point in history
        )
    )


def round_options_html(
    rounds: Iterable[int], *, after_round: int | None, cells: CellTexts
) -> SafeString:
    """The ``<option>`` of every round for the "after round" choice, the shown one selected."""
    return mark_safe(
        "".join(
            f'<option value="{cells.integer(number)}"{_SELECTED if number == after_round else ""}>'
            f"{cells.integer(number)}</option>"
            for number in rounds
        )
    )


def sections_with_rows(
    sections: Iterable[ExplanationSection],
    *,
    names: Mapping[int, str],
    system_key: str,
    cells: CellTexts | None = None,
) -> list[ExplanationSection]:
    """``sections`` with the rows of each one's table (in the active language); ``cells`` may
    be shared with the page's other tables (made from the same ``names``)."""
    cells = cells or CellTexts(names)
    return [
        SectionWithRows(
            **{f.name: getattr(section, f.name) for f in dataclasses.fields(ExplanationSection)},
            rows=explanation_rows_html(section, cells=cells, system_key=system_key),
        )
        for section in sections
    ]


def explanation_rows_html(
    section: ExplanationSection, *, cells: CellTexts, system_key: str
) -> SafeString:
    """The ``<tr>`` rows of the section's table, as ``_explanations.html`` chooses the table:
    seed 000's for SB in the internal competition, Van den Brink's, Keizer's, else the general
    one (tie-breaks and the other figures)."""
    if section.code == "SB" and system_key == "internal-sb":
        rows = _seed_rows(section.lines, cells)
    elif section.code == "VDB":
        rows = _van_den_brink_rows(section.lines, cells)
    elif section.code == "KEIZER":
        rows = _keizer_rows(section.lines, cells)
    else:
        rows = _figure_rows(section.lines, cells)
    return mark_safe("".join(rows))


_CUT = ' class="cut"'


def _note(line: Contribution) -> str:
    return conditional_escape(note_text(line))


def _num_cells(*texts: str) -> str:
    """One line per cell, as the template writes the number columns."""
    return "".join(f'          <td class="num">{text}</td>\n' for text in texts)


def _seed_rows(lines: Sequence[Contribution], cells: CellTexts) -> Iterable[str]:
    for line in lines:
        parts = line.parts
        numbers = _num_cells(
            cells.integer(line.round_number),
            cells.number(parts.get("opponent_game_points")),
            cells.number(parts.get("opponent_unplayed_rounds")),
            cells.number(parts.get("opponent_internal_points")),
            cells.number(parts.get("score")),
            cells.number(line.amount),
        )
        yield (
            "\n        <tr>\n"
            f'          <th scope="row" class="name-cell">{cells.name(line.opponent_id)}</th>\n'
            f"{numbers}        </tr>\n      "
        )


def _van_den_brink_rows(lines: Sequence[Contribution], cells: CellTexts) -> Iterable[str]:
    for line in lines:
        if line.round_number == 0:  # start points
            yield (
                "\n        \n"
                f'        <tr><th scope="row" class="name-cell">{_note(line)}</th>'
                "<td></td><td></td><td></td><td></td><td></td>"
                f'<td class="num">{cells.number(line.amount)}</td></tr>\n'
                "        \n      "
            )
            continue
        parts = line.parts
        who = cells.name(line.opponent_id)
        if line.note:
            who += f' <small class="text-body-secondary">({_note(line)})</small>'
        numbers = _num_cells(
            cells.integer(line.round_number),
            cells.signed(parts.get("result_part")),
            cells.number(parts.get("own_rank_value")),
            cells.number(parts.get("opponent_rank_value")),
            cells.signed(parts.get("compensation")),
            cells.signed(line.amount),
        )
        yield (
            "\n        \n        <tr>\n"
            f'          <th scope="row" class="name-cell">{who}</th>\n'
            f"{numbers}        </tr>\n        \n      "
        )


def _keizer_rows(lines: Sequence[Contribution], cells: CellTexts) -> Iterable[str]:
    for line in lines:
        parts = line.parts
        if line.opponent_id:
            who = cells.name(line.opponent_id)
            if line.note:
                who += f' <small class="text-body-secondary">({_note(line)})</small>'
        else:
            who = _note(line)
        numbers = _num_cells(
            _round_or_blank(line, cells),
            cells.number(parts.get("opponent_value")),
            cells.number(parts.get("opponent_value_then")),
            cells.number(parts.get("own_value")),
            cells.fraction(parts.get("fraction")),
            cells.number(line.amount),
        )
        yield (
            f"\n        <tr{'' if line.opponent_id else _UNPLAYED}>\n"
            f'          <th scope="row" class="name-cell">{who}</th>\n'
            f"{numbers}        </tr>\n      "
        )


def _figure_rows(lines: Sequence[Contribution], cells: CellTexts) -> Iterable[str]:
    not_counted = conditional_escape(gettext("not counted"))
    cut = conditional_escape(gettext("cut"))
    for line in lines:
        if line.opponent_id:
            opponent = cells.name(line.opponent_id)
        else:
            opponent = '<span class="text-body-secondary">–</span>'
        parts = "; ".join(
            f"{cells.part(name)} {cells.number(value)}" for name, value in line.parts.items()
        )
        amount = cells.number(line.amount)
        if line.counted:
            counted = amount
            note = _note(line)
        else:
            counted = f'<del>{amount}</del> <span class="visually-hidden">{not_counted}</span>'
            note = f"<strong>{cut}</strong> {_note(line)}"
        yield (
            f"\n        <tr{'' if line.counted else _CUT}>\n"
            f'          <td class="num">{_round_or_blank(line, cells)}</td>\n'
            f'          <th scope="row">{opponent}</th>\n'
            f'          <td class="small parts-cell">{parts}</td>\n'
            f'          <td class="num">{counted}</td>\n'
            f'          <td class="small">{note}</td>\n'
            "        </tr>\n      "
        )


def _round_or_blank(line: Contribution, cells: CellTexts) -> str:
    return cells.integer(line.round_number) if line.round_number else ""
