"""Public pages: no login needed. They only read (through ``competition.selectors``).

Pages computed from a season's results (standings, a participant's breakdown, the crosstable,
how it works, the systems side by side) cache their rendered body in Django's cache, keyed by
the season's ``data_version`` and ``rules_version`` (both bumped by every write that changes
the figures), the language and the query.

For anonymous readers (who all see the same page) the whole rendered response is cached too,
keyed by the full path, the language and both versions: a cached page then costs one small
query (the season's versions, read from the database so that a write made by another worker
process is seen at once) and no template rendering. A round's page is keyed by the round's own
versions instead (its boards, entries and status), so a result saved in the open round rebuilds
that page only. Logged-in readers get the cached body
inside a freshly rendered frame, since their navigation differs.

Nothing in a page for an anonymous reader may depend on that reader: the language switch is
therefore a plain link to :func:`language` (a GET), not a form with a CSRF token.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections import defaultdict
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import check_for_language, get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from competition.models import Club, Game, Participant, Round, Season, SeasonRules
from competition.permissions import (
    found,
    is_club_admin,
    is_td,
    is_td_anywhere,
    present,
    request_club,
    season_of_address,
)
from competition.presentation import numbers
from competition.presentation.charts import ChartLabels, ChartPoint, rank_score_svg
from competition.presentation.descriptions import system_in_words
from competition.presentation.labels import (
    figure_label,
    parameter_label,
    system_description,
    system_name,
)
from competition.presentation.legend import order_sentence, separation_labels, standings_legend
from competition.scoring.registry import FIGURE_NAMES, get_system
from competition.selectors import categories as category_selectors
from competition.selectors import clubs as clubs_selectors
from competition.selectors import groups as group_selectors
from competition.selectors import page_cache as page_cache_selectors
from competition.selectors import participants as participants_selectors
from competition.selectors import postponed as postponed_selectors
from competition.selectors import rounds as rounds_selectors
from competition.selectors import rules as rules_selectors
from competition.selectors import series as series_selectors
from competition.selectors import standings as standings_selectors
from competition.selectors import systems as systems_selectors
from competition.selectors.evenings import club_next_evening
from competition.selectors.members import user_members
from competition.services.errors import ServiceError
from competition.services.transfer import EXPORT_FORMATS, standings_document, standings_export
from competition.views.participant_rows import (
    CellTexts,
    game_rows_html,
    history_rows_html,
    movement_items_html,
    round_options_html,
    sections_with_rows,
)
from competition.views.tables import PairingsTable, standings_table, table_rows_html

CACHE_SECONDS = 60 * 60 * 24


def _round_param(request: HttpRequest) -> int | None:
    try:
        return int(request.GET["round"])
    except (KeyError, ValueError):
        return None


def _cached_body(
    request: HttpRequest,
    season: Season,
    page: str,
    build: Callable[[], SafeString],
    keep: tuple[str, ...] = ("round",),
    tab: str = "standings",
) -> SafeString:
    """The page's content (season header and body) from the cache, or built and stored.

    Only the ``keep`` query keys vary it, besides the language and whether the reader is one of
    the club's admins (they see one more tab, the rules).
    """
    query = "&".join(f"{key}={request.GET.get(key, '')}" for key in keep)
    staff = int(is_club_admin(request.user, season.club))
    key = (
        f"clubcomp:{page}:{season.pk}:{season.data_version}:{season.rules_version}:"
        f"{get_language()}:{staff}:{query}"
    )
    content = cache.get(key)
    if content is None:
        header = render_to_string(
            "competition/_season_header.html", {"season": season, "tab": tab}, request=request
        )
        content = header + str(build())
        cache.set(key, content, CACHE_SECONDS)
    return mark_safe(content)


def _anonymous_cacheable(request: HttpRequest, keep: tuple[str, ...]) -> bool:
    """Whether the response may be shared by every anonymous reader of this URL.

    Only plain GETs whose query holds nothing but the page's own keys (``_export`` and the
    like take the normal path), and never while a message waits to be shown to this reader.
    """
    return (
        request.method == "GET"
        and not request.user.is_authenticated
        and set(request.GET) <= set(keep)
        and len(get_messages(request)) == 0
    )


def _season_versions(club: Club | None, slug: str, **kwargs: Any) -> tuple[Any, ...] | None:
    return page_cache_selectors.season_versions(club=club, slug=slug)


def anonymous_page_cache(
    keep: tuple[str, ...] = ("round",),
    versions: Callable[..., tuple[Any, ...] | None] = _season_versions,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Cache a season page's whole response for anonymous readers (see the module docstring).

    The key holds the full path with its query (the page links back to it, e.g. in the
    language switch), the language and the season's ``data_version`` and ``rules_version``,
    read fresh on every request: a write bumps one of them, so the next request builds anew.
    The versions are read *before* the page is built, so a page stored under them is never
    older than they are.
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
            if not _anonymous_cacheable(request, keep):
                return view(request, slug, **kwargs)
            found = versions(request_club(request), slug, **kwargs)
            if found is None:
                return view(request, slug, **kwargs)  # the view says what does not exist
            language = get_language()
            page = repr((found, request.get_full_path())).encode()
            key = f"clubcomp:anon:{found[0]}:{language}:{hashlib.sha256(page).hexdigest()[:40]}"
            stored = cache.get(key)
            if stored is not None:
                content, content_type = stored
                response = HttpResponse(content, content_type=content_type)
                response.headers["Content-Language"] = language
                return response
            response = view(request, slug, **kwargs)
            personal = (
                response.cookies
                or request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
                or request.session.modified
            )
            if response.status_code == 200 and not response.streaming and not personal:
                cache.set(key, (response.content, response["Content-Type"]), CACHE_SECONDS)
            return response

        return wrapper

    return decorate


def _page(
    request: HttpRequest, template: str, season: Season, body: SafeString, **extra: Any
) -> HttpResponse:
    return render(request, template, {"season": season, "body": body, **extra})


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """A club's home page (its running seasons with their latest standings, its next evening,
    its group competitions), or at the site's own address the directory of clubs."""
    club = request_club(request)
    if club is None:
        return render(
            request, "competition/clubs.html", {"clubs": clubs_selectors.club_directory()}
        )
    return render(
        request,
        "competition/home.html",
        {
            "club": club,
            "summaries": clubs_selectors.season_summaries(club=club),
            "next_evening": club_next_evening(club=club, today=timezone.localdate()),
            # competitions played in groups, each linking to its page
            "group_competitions": group_selectors.group_competitions_listed(club=club),
        },
    )


@never_cache
@require_safe
def language(request: HttpRequest) -> HttpResponse:
    """The language switch: ``?language=en&next=/season/…/`` sets the language cookie the way
    Django's ``set_language`` does and goes back to ``next``.

    A GET, so that the pages carry plain links instead of a form with a CSRF token (which would
    tie a cached page to one reader). An unknown code leaves the cookie alone; a ``next``
    pointing off this site (or missing) leads to the home page.
    """
    next_url = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        url=next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    code = request.GET.get("language", "")
    if code in dict(settings.LANGUAGES) and check_for_language(code):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


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
    export_format = request.GET.get("_export")
    if export_format and export_format not in EXPORT_FORMATS:
        raise Http404(_("Unknown export format."))
    return export_format or None


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
        data = found(
            lambda: standings_selectors.standings_for_season(
                season=season, after_round=_round_param(request), rules_version=rules_version
            ),
            SeasonRules.DoesNotExist,
            _("This season has no such rule set."),
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


def _pairings_table(season: Season, data: rounds_selectors.RoundPage) -> PairingsTable:
    results = dict(Game.Result.choices)
    return PairingsTable(
        [
            {
                "board": game.board,
                "white": data.names[game.white_id],
                "white_id": game.white_id,
                "black": data.names[game.black_id],
                "black_id": game.black_id,
                "white_place": data.places.get(game.white_id),
                "black_place": data.places.get(game.black_id),
                "result": game.result,
                "result_display": results.get(game.result, game.result),
            }
            for game in data.games
        ],
        season_slug=season.slug,
    )


def _round_versions(club: Club | None, slug: str, number: int) -> tuple[Any, ...] | None:
    return page_cache_selectors.round_versions(club=club, slug=slug, number=number)


@require_safe
@anonymous_page_cache(keep=(), versions=_round_versions)
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round: pairings and results, absences by kind, byes, corrections.

    Not keyed by the season's versions like the other pages (a result saved in the open round
    changes this page before any standings): anonymous readers get it from the cache under
    :func:`~competition.selectors.page_cache.round_versions`, which every change to the round's
    boards, entries or status moves."""
    season = season_of_address(request, slug)
    data = found(
        lambda: rounds_selectors.round_detail(season=season, number=number),
        Round.DoesNotExist,
        _("No such round."),
    )
    table = _pairings_table(season, data)
    table.rows_html = table_rows_html(table)  # the rows without the template's per-cell work
    # The club's TDs get a way to correct the round from here (the page is never cached).
    td_url = ""
    if is_td(request.user, season.club):
        step = "td_round_summary" if data.round.is_completed else "td_round"
        td_url = reverse(
            f"competition:{step}", kwargs={"season_slug": season.slug, "round_number": number}
        )
    return render(
        request,
        "competition/round.html",
        {"season": season, "data": data, "table": table, "tab": "rounds", "td_url": td_url},
    )


@require_safe
def after_login(request: HttpRequest) -> HttpResponse:
    """Where the login sends a user without ``?next=`` (``LOGIN_REDIRECT_URL``): a TD to the
    club evening, a member with an account to his own page, everyone else to the home page."""
    if is_td_anywhere(request.user):
        return redirect("competition:td_home")
    if user_members(user=request.user):
        return redirect("competition:my_page")
    return redirect("competition:home")


@require_safe
def round_latest(request: HttpRequest, slug: str) -> HttpResponse:
    """The latest round of the season (the one being played, else the last one)."""
    season = season_of_address(request, slug)
    number = rounds_selectors.latest_round_number(season=season)
    if number is None:
        return render(
            request, "competition/round.html", {"season": season, "data": None, "tab": "rounds"}
        )
    return redirect("competition:round", slug=season.slug, number=number)


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
        data = found(
            lambda: participants_selectors.participant_detail(
                season=season, participant_id=participant_id, after_round=_round_param(request)
            ),
            Participant.DoesNotExist,
            _("No such participant."),
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


@require_safe
@anonymous_page_cache(keep=())
def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    season = season_of_address(request, slug)

    def build() -> SafeString:
        data = standings_selectors.crosstable(season=season)
        return render_to_string("competition/_crosstable.html", {"season": season, "data": data})

    body = _cached_body(request, season, "crosstable", build, keep=(), tab="crosstable")
    return _page(request, "competition/crosstable.html", season, body, tab="crosstable")


@require_safe
@anonymous_page_cache(keep=())
def how_it_works(request: HttpRequest, slug: str) -> HttpResponse:
    season = season_of_address(request, slug)

    def build() -> SafeString:
        data = rules_selectors.how_it_works(season=season)
        language = get_language() or "nl"
        context: dict[str, Any] = {
            "season": season,
            "data": data,
            "system_name": system_name(data.system, language),
            "description": system_description(data.system, language),
            "in_words": system_in_words(
                data.system.key,
                {spec.name: value for spec, value in data.parameters},
                participants=data.participants,
                language=language,
            ),
            "parameters": [
                (
                    parameter_label(spec, language),
                    value,
                    "word" if spec.words and isinstance(value, str) else spec.kind.value,
                )
                for spec, value in data.parameters
            ],
            "tiebreaks": [(code, figure_label(code, language)) for code in data.tiebreak_codes],
            "unplayed_policy": season.get_unplayed_policy_display(),
            "rule_changes": rules_selectors.rule_changes(season=season),
            "shown_rules_version": season.rules_version,
            "forbidden_pair_count": data.forbidden_pairs,
        }
        # the season's categories, prizes and periods with their own values
        context.update(category_selectors.categories_explained(season=season))
        # a rapid series: evenings, evening points and the best N
        context["series_rules"] = (
            series_selectors.series_rules(season=season) if season.is_rapid_series else None
        )
        if data.example is not None:
            context.update(
                {
                    f"example_{k}": v
                    for k, v in _participant_context(season, data.example, examples=True).items()
                }
            )
            # Keizer: the worked sentence takes the leader's first game over the board.
            context["example_game"] = next(
                (
                    line
                    for section in data.example.sections
                    if section.code == "KEIZER"
                    for line in section.lines
                    if line.opponent_id is not None
                ),
                None,
            )
        return render_to_string("competition/_how_it_works.html", context)

    body = _cached_body(request, season, "how", build, keep=(), tab="how")
    return _page(request, "competition/how_it_works.html", season, body, tab="how")


@require_safe
@anonymous_page_cache(keep=())
def systems(request: HttpRequest, slug: str) -> HttpResponse:
    season = season_of_address(request, slug)

    def build() -> SafeString:
        data = systems_selectors.systems_compared(season=season)
        language = get_language() or "nl"
        headers = [
            (key, system_name(get_system(key), language), code) for key, code in data.systems
        ]
        return render_to_string(
            "competition/_systems.html",
            {
                "season": season,
                "data": data,
                "headers": headers,
                "primary_labels": {key: figure_label(code, language) for key, code in data.systems},
                # Each system's score column in one style (7½, or the same decimals).
                "score_styles": {
                    key: numbers.column_style(
                        (row["scores"].get(key) for row in data.rows),
                        points=numbers.is_points(code),
                    )
                    for key, code in data.systems
                },
                "points_tiebreaks": ", ".join(data.points_tiebreaks),
                "disagreements": sum(row["differs"] for row in data.rows),
            },
        )

    body = _cached_body(request, season, "systems", build, keep=(), tab="systems")
    return _page(request, "competition/systems.html", season, body, tab="systems")
