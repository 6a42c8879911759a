"""Rows of the participant page's tables, built in Python: the games, the chart's figures, the
round choices and the explanation tables.

``_explanations.html`` writes one table per figure; a table's ``<tr>`` rows are written here, as the
template's loops wrote them (same markup and whitespace, every value escaped, numbers in the
reader's language by the functions the filters call). The template loop cost about as much as
computing the figures: a page of 40 rounds has four tables of 40 rows with a filter in every cell.

A page repeats few numbers (0, ½, 1, the round numbers), so each formatted, escaped text is
computed once per value and language (:class:`CellTexts`). A column of figures writes all its
values with the same decimals, points with ½
(:func:`competition.presentation.numbers.column_format`), and
one figure is written in one style wherever the page shows it (:meth:`CellTexts.figure`): the
games table's column of SB, the SB explanation's amounts and total, and for the primary score
the chart, its table and the "why did I move" sentences.

The one module of the package that still reaches outside it: it writes the rows of the
participant selector's dataclasses (:mod:`competition.selectors.participants`, an explanation
section is extended here) and a correction's before and after with the models' choice labels
(``Game.Result``, ``RoundEntry.Kind``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from competition.models import Game, RoundEntry
from competition.presentation import labels, numbers
from competition.scoring.model import Contribution
from competition.scoring.movement import Movement
from competition.selectors.participants import (
    ChartRow,
    CorrectedRow,
    ExplanationSection,
    GameLine,
    RoundCorrections,
)

_UNPLAYED = ' class="unplayed"'
_SELECTED = " selected"


@dataclass(frozen=True)
class SectionWithRows(ExplanationSection):
    """A figure's explanation with its table rows and its total already written
    (``{{ section.rows }}``, ``{{ section.total_text }}``)."""

    rows: SafeString
    total_text: str = ""
    # the worked example's numbers (the how-it-works page), each in the style of the table's
    # column that shows it; empty when the section has no example line
    example: Mapping[str, str] = dataclasses.field(default_factory=dict)


class CellTexts:
    """Escaped cell texts for one page in the active language, each value formatted once.

    The values are Fractions, ints and text; equal ones give equal texts with every formatter
    here (``number_text`` reads an int and a Fraction of the same value alike), so a value is
    a sound key.
    """

    def __init__(
        self, names: Mapping[int, str], figures: Mapping[str, Iterable[object]] | None = None
    ) -> None:
        """``figures``: every value the page shows of each figure (by code), so that each is
        written in one style on the whole page (:meth:`figure`)."""
        self._figures = {code: list(values) for code, values in (figures or {}).items()}
        self._styles: dict[tuple[str, bool], Callable[[Any], str]] = {}
        self.number = _remembered(numbers.number_text)  # {{ value|exact_number }}
        self.signed = _remembered(numbers.signed_text)  # {{ value|signed_number }}
        self.fraction = _remembered(numbers.fraction_text)  # {{ value|fraction_text }}
        self.integer = _remembered(localize)  # {{ value }} for a round number
        self.name = _remembered(lambda pid: names.get(pid, ""))  # {{ names|get_item:pid }}
        self.part = _remembered(labels.part_label)  # {{ value|part_name }}
        self.half = _remembered(numbers.points_text)  # {{ value|half }}
        self.entry = _remembered(labels.entry_label)  # {{ value|entry_name }}
        self.colour = _remembered(labels.colour_label)  # {{ value|colour_name }}
        self.result = _remembered(labels.result_label)  # {{ value|result_text }}
        self._notes: dict[tuple[str, tuple[tuple[str, int], ...]], str] = {}
        # the sentences' words, looked up once per page (in its language)
        self.gettext = functools.cache(gettext)
        self.ngettext = functools.cache(ngettext)

    def note(self, line: Contribution) -> str:
        """The escaped note of an explanation line (``{{ line|note_text }}``), each note once."""
        key = (line.note, tuple(line.note_values.items()))
        text = self._notes.get(key)
        if text is None:
            text = self._notes[key] = conditional_escape(labels.note_label(line))
        return text

    def column(self, values: Iterable[object], *, points: bool = False) -> Callable[[Any], str]:
        """Escaped texts for one column of figures (its decimals decided from ``values``)."""
        return _remembered(numbers.column_format(values, points=points))

    def figure(
        self, code: str, *, signed: bool = False, values: Iterable[object] = ()
    ) -> Callable[[Any], str]:
        """Escaped texts of the figure ``code`` in its one style on this page: the column of
        every value of it the page shows (else of ``values``, one table's), points with ½ for
        points; ``signed``: with the sign of a change. Without any values to decide the style
        from, each value is written on its own (never rounded to a style chosen for none)."""
        known = self._styles.get((code, signed))
        if known is not None:
            return known
        column = self._figures.get(code) or list(values)
        if not column:
            return self.signed if signed else self.number
        write = _remembered(
            numbers.column_format(column, points=numbers.is_points(code), signed=signed)
        )
        if code in self._figures:  # the page's style of the figure, the same for every table
            self._styles[code, signed] = write
        return write

    def signed_column(self, values: Iterable[object]) -> Callable[[Any], str]:
        """Escaped texts with their sign for one column of changes (+3,70, −2,30)."""
        places = numbers.column_places(values)
        return _remembered(lambda value: numbers.signed_text(value, places=places))


def _remembered(format_value: Callable[[Any], str]) -> Callable[[Any], str]:
    known: dict[Hashable, str] = {}

    def text(value: Any) -> str:
        # a Fraction's own hash is slow (a modular inverse): its two integers are the key (an
        # int n is the key (n, 1), as its Fraction: both give the same text)
        kind = type(value)
        key = (value.numerator, value.denominator) if kind is Fraction or kind is int else value
        try:
            return known[key]
        except KeyError:
            escaped = known[key] = conditional_escape(format_value(value))
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


def history_rows_html(
    history: Sequence[ChartRow], *, cells: CellTexts, code: str = ""
) -> SafeString:
    """The rows of the chart's figures as a table: round, rank, score (the figure ``code``, in
    its style on the page: points with ½)."""
    score = cells.figure(code, values=[point.score for point in history])
    return mark_safe(
        "".join(
            f'<tr><th scope="row">{cells.integer(point.round_number)}</th>'
            f'<td class="num">{cells.integer(point.rank)}</td>'
            f'<td class="num">{score(point.score)}</td></tr>'
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
    examples: bool = False,
) -> list[ExplanationSection]:
    """``sections`` with the rows of each one's table (in the active language); ``cells`` may
    be shared with the page's other tables (made from the same ``names``); ``examples``: with
    the numbers of each one's worked sentence too (:func:`example_numbers`)."""
    cells = cells or CellTexts(names)
    return [
        SectionWithRows(
            **{f.name: getattr(section, f.name) for f in dataclasses.fields(ExplanationSection)},
            rows=explanation_rows_html(section, cells=cells, system_key=system_key),
            total_text=_total_text(section, cells),
            example=(
                example_numbers(section, cells=cells, system_key=system_key) if examples else {}
            ),
        )
        for section in sections
    ]


def _total_text(section: ExplanationSection, cells: CellTexts) -> str:
    if section.total is None:
        return ""
    values = [line.amount for line in section.lines] + [section.total]
    return cells.figure(section.code, values=values)(section.total)


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
        rows = _figure_rows(section.lines, cells, code=section.code)
    return mark_safe("".join(rows))


_CUT = ' class="cut"'


def _num_cells(*texts: str) -> str:
    """One line per cell, as the template writes the number columns."""
    return "".join(f'          <td class="num">{text}</td>\n' for text in texts)


def _part_column(
    lines: Sequence[Contribution], cells: CellTexts, name: str, *, points: bool = False
) -> Callable[[Any], str]:
    return cells.column((line.parts.get(name) for line in lines), points=points)


def example_numbers(
    section: ExplanationSection, *, cells: CellTexts, system_key: str
) -> dict[str, str]:
    """The numbers of the how-it-works page's worked sentence for ``section`` (escaped), each
    written as the column of the section's table that shows it (:func:`explanation_rows_html`):
    the sentence and the table below it write one amount alike. The sentence's line: SB (seed
    000) the first, Van den Brink the second if it is a game, Keizer the first game over the
    board. ``{}`` when there is none."""
    lines = section.lines
    if section.code == "SB" and system_key == "internal-sb":
        if not lines:
            return {}
        line, seed = lines[0], _seed_columns(lines, cells)
        parts = line.parts
        return {
            "game_points": seed.game_points(parts.get("opponent_game_points")),
            "unplayed_rounds": cells.number(parts.get("opponent_unplayed_rounds")),
            "internal_points": seed.internal_points(parts.get("opponent_internal_points")),
            "score": seed.score(parts.get("score")),
            "amount": seed.amount(line.amount),
        }
    if section.code == "VDB":
        if len(lines) < 2 or not lines[1].round_number:
            return {}
        line, vdb = lines[1], _van_den_brink_columns(lines, cells)
        parts = line.parts
        return {
            "result_part": vdb.result_part(parts.get("result_part")),
            "own_rank_value": vdb.rank_values(parts.get("own_rank_value")),
            "opponent_rank_value": vdb.rank_values(parts.get("opponent_rank_value")),
            "compensation": vdb.compensation(parts.get("compensation")),
            "amount": vdb.amount(line.amount),
        }
    if section.code == "KEIZER":
        game = next((line for line in lines if line.opponent_id is not None), None)
        if game is None:
            return {}
        keizer = _keizer_columns(lines, cells)
        parts = game.parts
        return {
            "opponent_value": keizer.values(parts.get("opponent_value")),
            "opponent_value_then": keizer.values(parts.get("opponent_value_then")),
            "fraction": cells.fraction(parts.get("fraction")),
            "amount": keizer.amount(game.amount),
        }
    return {}


@dataclass(frozen=True)
class _SeedColumns:
    game_points: Callable[[Any], str]
    internal_points: Callable[[Any], str]
    score: Callable[[Any], str]
    amount: Callable[[Any], str]


def _seed_columns(lines: Sequence[Contribution], cells: CellTexts) -> _SeedColumns:
    return _SeedColumns(
        game_points=_part_column(lines, cells, "opponent_game_points", points=True),
        internal_points=_part_column(lines, cells, "opponent_internal_points", points=True),
        score=_part_column(lines, cells, "score", points=True),
        amount=cells.figure("SB", values=[line.amount for line in lines]),
    )


def _seed_rows(lines: Sequence[Contribution], cells: CellTexts) -> Iterable[str]:
    columns = _seed_columns(lines, cells)
    game_points, internal_points = columns.game_points, columns.internal_points
    score, amount = columns.score, columns.amount
    for line in lines:
        parts = line.parts
        figures = _num_cells(
            cells.integer(line.round_number),
            game_points(parts.get("opponent_game_points")),
            cells.number(parts.get("opponent_unplayed_rounds")),
            internal_points(parts.get("opponent_internal_points")),
            score(parts.get("score")),
            amount(line.amount),
        )
        # a line of no round (rules that apply from a later round) says what it is
        who = cells.note(line) if line.round_number == 0 else cells.name(line.opponent_id)
        yield (
            "\n        <tr>\n"
            f'          <th scope="row" class="name-cell">{who}</th>\n'
            f"{figures}        </tr>\n      "
        )


@dataclass(frozen=True)
class _VanDenBrinkColumns:
    result_part: Callable[[Any], str]
    rank_values: Callable[[Any], str]
    compensation: Callable[[Any], str]
    amount: Callable[[Any], str]
    start: Callable[[Any], str]


def _van_den_brink_columns(lines: Sequence[Contribution], cells: CellTexts) -> _VanDenBrinkColumns:
    games = [line for line in lines if line.round_number != 0]
    amounts = [line.amount for line in lines]
    return _VanDenBrinkColumns(
        result_part=cells.signed_column(line.parts.get("result_part") for line in games),
        rank_values=cells.column(
            value
            for line in games
            for value in (line.parts.get("own_rank_value"), line.parts.get("opponent_rank_value"))
        ),
        compensation=cells.signed_column(line.parts.get("compensation") for line in games),
        amount=cells.figure("VDB", signed=True, values=amounts),
        start=cells.figure("VDB", values=amounts),  # the same decimals, no sign
    )


def _van_den_brink_rows(lines: Sequence[Contribution], cells: CellTexts) -> Iterable[str]:
    columns = _van_den_brink_columns(lines, cells)
    result_part, rank_values = columns.result_part, columns.rank_values
    compensation, amount, start = columns.compensation, columns.amount, columns.start
    for line in lines:
        if line.round_number == 0:  # start points
            yield (
                "\n        \n"
                f'        <tr><th scope="row" class="name-cell">{cells.note(line)}</th>'
                "<td></td><td></td><td></td><td></td><td></td>"
                f'<td class="num">{start(line.amount)}</td></tr>\n'
                "        \n      "
            )
            continue
        parts = line.parts
        who = cells.name(line.opponent_id)
        if line.note:
            who += f' <small class="text-body-secondary">({cells.note(line)})</small>'
        figures = _num_cells(
            cells.integer(line.round_number),
            result_part(parts.get("result_part")),
            rank_values(parts.get("own_rank_value")),
            rank_values(parts.get("opponent_rank_value")),
            compensation(parts.get("compensation")),
            amount(line.amount),
        )
        yield (
            "\n        \n        <tr>\n"
            f'          <th scope="row" class="name-cell">{who}</th>\n'
            f"{figures}        </tr>\n        \n      "
        )


@dataclass(frozen=True)
class _KeizerColumns:
    values: Callable[[Any], str]  # the opponent's value now and then, his own value
    amount: Callable[[Any], str]


def _keizer_columns(lines: Sequence[Contribution], cells: CellTexts) -> _KeizerColumns:
    return _KeizerColumns(
        values=cells.column(
            value
            for line in lines
            for value in (
                line.parts.get("opponent_value"),
                line.parts.get("opponent_value_then"),
                line.parts.get("own_value"),
            )
        ),
        amount=cells.figure("KEIZER", values=[line.amount for line in lines]),
    )


def _keizer_rows(lines: Sequence[Contribution], cells: CellTexts) -> Iterable[str]:
    columns = _keizer_columns(lines, cells)
    values, amount = columns.values, columns.amount
    for line in lines:
        parts = line.parts
        if line.opponent_id:
            who = cells.name(line.opponent_id)
            if line.note:
                who += f' <small class="text-body-secondary">({cells.note(line)})</small>'
        else:
            who = cells.note(line)
        figures = _num_cells(
            _round_or_blank(line, cells),
            values(parts.get("opponent_value")),
            values(parts.get("opponent_value_then")),
            values(parts.get("own_value")),
            cells.fraction(parts.get("fraction")),
            amount(line.amount),
        )
        yield (
            f"\n        <tr{'' if line.opponent_id else _UNPLAYED}>\n"
            f'          <th scope="row" class="name-cell">{who}</th>\n'
            f"{figures}        </tr>\n      "
        )


# Inputs of an explanation line that are points (a game's score, a player's points): with ½.
_POINT_PARTS = frozenset(
    {"game_points", "unplayed_value", "opponent_score", "opponent_points", "result", "round_points"}
)


def _figure_rows(lines: Sequence[Contribution], cells: CellTexts, *, code: str) -> Iterable[str]:
    not_counted = conditional_escape(gettext("not counted"))
    cut = conditional_escape(gettext("cut"))
    amounts = cells.figure(code, values=[line.amount for line in lines])
    for line in lines:
        if line.opponent_id:
            opponent = cells.name(line.opponent_id)
        else:
            opponent = '<span class="text-body-secondary">–</span>'
        parts = "; ".join(
            f"{cells.part(name)} "
            f"{cells.half(value) if name in _POINT_PARTS else cells.number(value)}"
            for name, value in line.parts.items()
        )
        amount = amounts(line.amount)
        if line.counted:
            counted = amount
            note = cells.note(line)
        else:
            counted = f'<del>{amount}</del> <span class="visually-hidden">{not_counted}</span>'
            note = f"<strong>{cut}</strong> {cells.note(line)}"
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


# The most names a "passed" or "passed by" clause writes; more are counted ("and 3 others").
NAMES_SHOWN = 3


def movement_items_html(
    movements: Iterable[Movement],
    *,
    figure: str,
    cells: CellTexts,
    corrections: Mapping[int, RoundCorrections] | None = None,
    code: str = "",
) -> SafeString:
    """One ``<li>`` per round: why he moved (docs/scoring.md, "Why did I move"), e.g.
    "Round 7: up 2 places (4 → 2); SB +1,35 (10 → 11,35): own result +1, earlier rounds
    revalued +0,35; passed Jan de Vries and Piet Smit." Round 1 (and a round after which
    everybody shared place 1) gives his place after it instead: "Round 1: place 12 (SB score
    0): own result 0." ``figure`` names the primary score, ``code`` is its code (its numbers
    in the figure's style on the page, :meth:`CellTexts.figure`).
    A round corrected after it closed gets a second sentence: what was corrected and what the
    corrections did to him after that round."""
    corrections = corrections or {}
    items = []
    for move in movements:
        text = movement_sentence(move, figure=figure, cells=cells, code=code)
        corrected = corrections.get(move.round_number)
        if corrected is not None:
            text += " " + correction_sentence(corrected, figure=figure, cells=cells, code=code)
        items.append(f'<li data-round="{move.round_number}">{text}</li>')
    return mark_safe("".join(items))


def correction_sentence(
    corrected: RoundCorrections, *, figure: str, cells: CellTexts, code: str = ""
) -> str:
    """The escaped sentence of a round's corrections, e.g. "Corrected after the round closed:
    board 2, Jan – Piet: 1-0 → 0-1 (wrong result). Effect after this round: place 5 → 4, SB +2."
    """
    changes = "; ".join(_corrected_row(row, cells) for row in corrected.rows)
    text = cells.gettext("Corrected after the round closed: %(corrections)s.") % {
        "corrections": changes
    }
    effect = corrected.effect
    if effect is not None:
        text += " " + cells.gettext(
            "Effect after this round: place %(before)s → %(after)s, %(figure)s %(change)s."
        ) % {
            "before": cells.integer(effect.rank_before),
            "after": cells.integer(effect.rank_after),
            "figure": conditional_escape(figure),
            "change": cells.figure(code, signed=True)(effect.score_change),
        }
    return text


def _corrected_row(row: CorrectedRow, cells: CellTexts) -> str:
    reasons = conditional_escape("; ".join(row.reasons))
    if row.board is None:
        kinds = dict(RoundEntry.Kind.choices)
        before = f"{kinds.get(row.before, row.before)} ({cells.half(row.before_points)})"
        after = f"{kinds.get(row.after, row.after)} ({cells.half(row.after_points)})"
        return f"{cells.name(row.white)}: {conditional_escape(before)} → " + (
            f"{conditional_escape(after)} ({reasons})"
        )
    labels = dict(Game.Result.choices)
    board = cells.gettext("board %(board)s") % {"board": cells.integer(row.board)}
    return (
        f"{board}, {cells.name(row.white)} – {cells.name(row.black)}: "
        f"{conditional_escape(labels.get(row.before, row.before))} → "
        f"{conditional_escape(labels.get(row.after, row.after))} ({reasons})"
    )


def movement_sentence(move: Movement, *, figure: str, cells: CellTexts, code: str = "") -> str:
    """The escaped sentence of one round's movement (see :func:`movement_items_html`)."""
    place, score = move.place, move.score
    number, signed = cells.figure(code), cells.figure(code, signed=True)
    causes = [cells.gettext("own result %(amount)s") % {"amount": signed(score.own_result)}]
    if score.revaluation:
        causes.append(
            cells.gettext("earlier rounds revalued %(amount)s")
            % {"amount": signed(score.revaluation)}
        )
    if score.own_value:
        causes.append(cells.gettext("own value %(amount)s") % {"amount": signed(score.own_value)})
    heading = cells.gettext("Round %(round)s:") % {"round": cells.integer(move.round_number)}
    if not place.moved:
        # round 1, or everybody shared place 1 before: his place and score after the round
        if score.before:
            where = cells.gettext("place %(rank)s (%(figure)s %(before)s → %(after)s)") % {
                "rank": cells.integer(place.rank_after),
                "figure": conditional_escape(figure),
                "before": number(score.before),
                "after": number(score.after),
            }
        else:
            where = cells.gettext("place %(rank)s (%(figure)s %(score)s)") % {
                "rank": cells.integer(place.rank_after),
                "figure": conditional_escape(figure),
                "score": number(score.after),
            }
        return f"{heading} {where}: " + ", ".join(causes) + "."
    assert place.rank_before is not None  # moved: there were standings before the round
    figures = {"before": cells.integer(place.rank_before), "after": cells.integer(place.rank_after)}
    moved = place.change
    if moved > 0:
        where = cells.ngettext(
            "up %(n)s place (%(before)s → %(after)s)",
            "up %(n)s places (%(before)s → %(after)s)",
            moved,
        ) % {"n": cells.integer(moved), **figures}
    elif moved < 0:
        where = cells.ngettext(
            "down %(n)s place (%(before)s → %(after)s)",
            "down %(n)s places (%(before)s → %(after)s)",
            -moved,
        ) % {"n": cells.integer(-moved), **figures}
    else:
        where = cells.gettext("same place (%(rank)s)") % {"rank": figures["after"]}
    sentence = (
        heading
        + f" {where}; {conditional_escape(figure)} {signed(score.change)} "
        + f"({number(score.before)} → {number(score.after)}): "
        + ", ".join(causes)
    )
    if place.passed:
        sentence += "; " + cells.gettext("passed %(names)s") % {
            "names": _names(place.passed, cells)
        }
    if place.passed_by:
        sentence += "; " + cells.gettext("passed by %(names)s") % {
            "names": _names(place.passed_by, cells)
        }
    return sentence + "."


def _names(ids: Sequence[int], cells: CellTexts) -> str:
    """ "A", "A and B", "A, B and C", "A, B, C and 4 others" (escaped names)."""
    shown = [cells.name(pid) for pid in ids[:NAMES_SHOWN]]
    hidden = len(ids) - len(shown)
    if hidden:
        last = cells.ngettext("%(n)s other", "%(n)s others", hidden) % {"n": cells.integer(hidden)}
    else:
        last = shown.pop()
    if not shown:
        return last
    return cells.gettext("%(names)s and %(last)s") % {"names": ", ".join(shown), "last": last}
