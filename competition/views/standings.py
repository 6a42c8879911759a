"""The public standings of a season (with its exports as CSV or JSON and the legend of its
columns) and the crosstable: no login needed, cached (:mod:`competition.views.page_cache`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from competition.models import Season
from competition.permissions import export_format_of, rule_set_found, season_of_address
from competition.presentation.labels import figure_label
from competition.presentation.legend import order_sentence, separation_labels, standings_legend
from competition.selectors import categories as category_selectors
from competition.selectors import postponed as postponed_selectors
from competition.selectors import rules as rules_selectors
from competition.selectors import standings as standings_selectors
from competition.services.errors import ServiceError
from competition.services.transfer import EXPORT_FORMATS, standings_document, standings_export
from competition.views.page_cache import _cached_body, _page, _round_param, anonymous_page_cache
from competition.views.tables import standings_table, table_rows_html


def _labels(
    data: standings_selectors.SeasonStandingsPage,
) -> tuple[tuple[str, str], list[tuple[str, str]], list]:
    language = get_language() or "nl"
    primary = (data.primary, figure_label(data.primary, language))
    figures = [(code, figure_label(code, language)) for code in data.figure_codes]
    tiebreaks = [(code, code, figure_label(code, language)) for code in data.tiebreak_codes]
    return primary, figures, tiebreaks


def _standings_table(
    request: HttpRequest, season: Season, data: standings_selectors.SeasonStandingsPage
):
    primary, figures, tiebreaks = _labels(data)
    table = standings_table(
        data.rows,
        season_slug=season.slug,
        after_round=data.after_round
        if data.rounds and data.after_round != data.rounds[-1]
        else None,
        primary=primary,
        figures=figures,
        tiebreaks=tiebreaks,
        show_eligibility=season.min_games > 0,
        separation_labels=separation_labels(data.order_criteria),
    )
    RequestConfig(request, paginate=False).configure(table)
    table.rows_html = table_rows_html(table)  # the rows without the template's per-cell work
    return table


def _standings_legend(
    season: Season, data: standings_selectors.SeasonStandingsPage, table
) -> dict[str, Any]:
    """The legend of the columns ``table`` shows and how equal scores are ordered."""
    return {
        "columns": standings_legend(
            [(column.name, str(column.header)) for column in table.columns],
            primary=data.primary,
            figure_codes=data.figure_codes,
            tiebreak_codes=data.tiebreak_codes,
        ),
        "order": order_sentence(data.order_criteria, strict=data.ranking_dependent),
    }


def _rules_param(request: HttpRequest) -> int | None:
    try:
        return int(request.GET["rules"])
    except (KeyError, ValueError):
        return None


def _export_format(request: HttpRequest) -> str | None:
    """The export the address asks for (``?_export=csv``), None for the page; 404 for a format
    there is none of."""
    return export_format_of(request, EXPORT_FORMATS)


def _export_response(
    document: dict[str, Any], export_format: str, *, headers: dict[str, str], filename: str
) -> HttpResponse:
    """A standings document as a download in ``export_format``, headed with ``headers``."""
    content = standings_export(
        document, export_format, headers=headers, language=get_language() or "nl"
    )
    response = HttpResponse(content, content_type=EXPORT_FORMATS[export_format])
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _standings_export(request: HttpRequest, season: Season, export_format: str) -> HttpResponse:
    """The standings as CSV or XLSX: the documented columns (docs/commands.md), in rank order,
    headed in the reader's language. A round without standings gives the latest ones."""
    after_round = _round_param(request)
    try:
        document = standings_document(
            season=season,
            after_round=after_round if after_round and after_round > 0 else None,
            public_names=True,
            fingerprint=True,
            rules_version=_rules_param(request),
        )
    except ServiceError:
        document = standings_document(season=season, public_names=True, fingerprint=True)
    headers = {
        "rank": "#",
        "start_number": capfirst(_("start number")),
        "name": _("Name"),
        "points": _("Pts"),
        "score": _("Score"),
        "games": _("Games"),
        "eligible": _("Prize"),
        "fingerprint": _("Fingerprint"),
        "rules_version": capfirst(_("rules version")),
    }
    after = document["after_round"]
    suffix = f"-{_('round')}-{after}" if after else ""
    return _export_response(
        document, export_format, headers=headers, filename=f"{season.slug}{suffix}.{export_format}"
    )


@require_safe
@anonymous_page_cache(keep=("round", "sort"))
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The season's standings after the latest (or a chosen) round, under the rules in force
    or an earlier rule set (``?rules=N``); CSV and XLSX export."""
    season = season_of_address(request, slug)
    if export_format := _export_format(request):
        return _standings_export(request, season, export_format)
    rules_version = _rules_param(request)

    def build() -> SafeString:
        data = rule_set_found(
            lambda: standings_selectors.standings_for_season(
                season=season, after_round=_round_param(request), rules_version=rules_version
            )
        )
        table = _standings_table(request, season, data) if data.rows else None
        legend = _standings_legend(season, data, table) if table is not None else None
        return render_to_string(
            "competition/_standings.html",
            {
                "season": season,
                "data": data,
                "table": table,
                "legend": legend,
                "rule_changes": rules_selectors.rule_changes(season=season),
                "earlier_rules": data.rules_version != season.rules_version,
                # links to the season's categories and periods
                "category_links": category_selectors.category_links(season=season),
                "periods": category_selectors.season_periods(season=season),
                "pending": postponed_selectors.pending_games(season=season) if data.rows else [],
            },
            request=request,
        )

    body = _cached_body(request, season, "standings", build, keep=("round", "sort", "rules"))
    return _page(request, "competition/standings.html", season, body, tab="standings")


@require_safe
@anonymous_page_cache(keep=())
def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    season = season_of_address(request, slug)

    def build() -> SafeString:
        data = standings_selectors.crosstable(season=season)
        return render_to_string("competition/_crosstable.html", {"season": season, "data": data})

    body = _cached_body(request, season, "crosstable", build, keep=(), tab="crosstable")
    return _page(request, "competition/crosstable.html", season, body, tab="crosstable")
