"""A participant's public page: every figure explained from every game, his movements and the
chart of his rank and score (cached, :mod:`competition.views.page_cache`)."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from competition.models import Season
from competition.permissions import participant_found, present, season_of_address
from competition.presentation.charts import ChartLabels, ChartPoint, rank_score_svg
from competition.presentation.labels import figure_label
from competition.scoring.registry import FIGURE_NAMES
from competition.selectors import categories as category_selectors
from competition.selectors import groups as group_selectors
from competition.selectors import participants as participants_selectors
from competition.selectors import series as series_selectors
from competition.views.page_cache import _cached_body, _page, _round_param, anonymous_page_cache
from competition.views.participant_rows import (
    CellTexts,
    game_rows_html,
    history_rows_html,
    movement_items_html,
    round_options_html,
    sections_with_rows,
)


def _chart(
    data: participants_selectors.ParticipantPage, format_number: Callable[[object], str]
) -> SafeString:
    language = get_language() or "nl"
    score_label = figure_label(data.primary, language)
    points = [ChartPoint(row.round_number, row.rank, row.score) for row in data.history]
    svg = rank_score_svg(
        points,
        field_size=data.field_size,
        labels=ChartLabels(
            title=_("Rank and %(score)s of %(name)s per round")
            % {"score": score_label, "name": data.name},
            description=_("Upper panel: rank (1 at the top); lower panel: %(score)s.")
            % {"score": score_label},
            rank=_("Rank"),
            score=score_label,
            round=_("Round"),
        ),
        # The score's style on the page: its ticks and tooltips read as the table beside it.
        format_number=format_number,
        element_id=f"chart-{data.participant_id}",
    )
    return mark_safe(svg)


@require_safe
@anonymous_page_cache()
def participant(request: HttpRequest, slug: str, participant_id: int) -> HttpResponse:
    """A participant: every game with what it adds to each figure, the explanation of each
    figure, and a chart of his rank and score per round."""
    season = season_of_address(request, slug)

    def build() -> SafeString:
        data = participant_found(
            lambda: participants_selectors.participant_detail(
                season=season, participant_id=participant_id, after_round=_round_param(request)
            )
        )
        context = _participant_context(season, data)
        context["profile_url"] = profile_url  # his profile across seasons
        # his categories with place and prize
        context["prizes"] = category_selectors.participant_prizes(
            season=season, participant_id=participant_id, after_round=data.after_round
        )
        # his group and period with his place and move; None outside groups
        context["group_line"] = group_selectors.participant_group_line(
            season=season, participant_id=participant_id
        )
        # his evenings in a rapid series: places, points, which count
        context["series"] = (
            series_selectors.participant_series(season=season, participant_id=participant_id)
            if season.is_rapid_series
            else None
        )
        return render_to_string("competition/_participant.html", context, request=request)

    heading = present(
        participants_selectors.participant_heading(season=season, participant_id=participant_id),
        _("No such participant."),
    )
    profile_url = reverse("competition:member_profile", kwargs={"member_id": heading.member_id})
    body = _cached_body(request, season, f"participant:{participant_id}", build)
    return _page(
        request,
        "competition/participant.html",
        season,
        body,
        tab="standings",
        participant_name=heading.name,
    )


def _participant_context(
    season: Season, data: participants_selectors.ParticipantPage, *, examples: bool = False
) -> dict[str, Any]:
    """The participant page's context; ``examples``: with each explanation's worked sentence's
    numbers (the how-it-works page)."""
    language = get_language() or "nl"
    labels = {section.code: figure_label(section.code, language) for section in data.sections}
    # a system's own figure is headed by its name ("Keizerwaarde", not the code VALUE); a
    # tie-break by its usual abbreviation (SB, BH), its name as the tooltip
    columns = [
        (code, labels.get(code, code), labels[code] if code in FIGURE_NAMES else code)
        for code in [s.code for s in data.sections]
    ]
    codes = [code for code, _label, _header in columns]
    cells = CellTexts(data.names, figures=_figure_values(data))
    return {
        "season": season,
        # each table's rows, built in Python: the template's loops cost more than the figures
        "data": dataclasses.replace(
            data,
            sections=sections_with_rows(
                data.sections,
                names=data.names,
                system_key=season.system,
                cells=cells,
                examples=examples,
            ),
        ),
        # the tables' rows, built here: the template's loops cost more than the rest of the page
        "game_rows": game_rows_html(
            [
                (game, _contribution_cells(game.contributions, codes, cells=cells))
                for game in data.games
            ],
            season_slug=season.slug,
            cells=cells,
        ),
        "history_rows": history_rows_html(data.history, cells=cells, code=data.primary),
        "round_options": round_options_html(data.rounds, after_round=data.after_round, cells=cells),
        "chart": _chart(data, cells.figure(data.primary)),
        "score_text": "" if data.row is None else cells.figure(data.primary)(data.row["score"]),
        "labels": labels,
        "columns": columns,
        "system_key": season.system,
        "primary_label": figure_label(data.primary, language),
        # why he moved, one sentence per round (docs/scoring.md, "Why did I move")
        "movement_items": movement_items_html(
            data.movements,
            figure=figure_label(data.primary, language),
            cells=cells,
            corrections=data.corrections,
            code=data.primary,
        ),
    }


def _figure_values(data: participants_selectors.ParticipantPage) -> dict[str, list[object]]:
    """Every value the participant page shows of each figure, by code: what each game adds
    (the games table and the explanation), the total and, for the primary score, the score
    after each round and its changes (the chart and "why did I move"). Each figure is written
    in the style of all of them, so one value reads the same in every table of the page."""
    values: dict[str, list[object]] = defaultdict(list)
    for game in data.games:
        for code, amount in game.contributions.items():
            values[code].append(amount)
    for section in data.sections:
        values[section.code] += [line.amount for line in section.lines]
        if section.total is not None:
            values[section.code].append(section.total)
    primary = values[data.primary]
    primary += [point.score for point in data.history]
    if data.row is not None:
        primary.append(data.row["score"])
    for move in data.movements:
        score = move.score
        primary += [score.before, score.after, score.own_result, score.revaluation, score.own_value]
    for corrected in data.corrections.values():
        if corrected.effect is not None:
            primary.append(corrected.effect.score_change)
    return dict(values)


def _contribution_cells(
    contributions: Mapping[str, Fraction], codes: list[str], *, cells: CellTexts | None = None
) -> SafeString:
    """The ``<td>`` cells of what one game adds to each figure, as the template wrote them,
    each figure in its style on the page (:meth:`CellTexts.figure`)."""
    cells = cells or CellTexts({})
    return mark_safe(
        "".join(
            f'<td class="num">{cells.figure(code)(contributions.get(code))}</td>' for code in codes
        )
    )
