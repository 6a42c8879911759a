"""The TD's file pages: upload a TRF, season archive or rating list (preview, then confirm),
and download a season as TRF, archive or standings CSV/JSON."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from competition.api.v1 import standings_document as api_standings
from competition.formats.errors import FormatError
from competition.forms.files import ArchiveUploadForm, ConfirmForm, RatingsUploadForm, TrfUploadForm
from competition.models import Season
from competition.permissions import is_td, request_club, season_for_td, td_required
from competition.presentation.labels import error_text, text_label
from competition.selectors.clubs import club_by_slug, seasons_of_clubs, td_clubs
from competition.services.errors import ServiceError
from competition.services.transfer import (
    archive_import,
    parse_parameters,
    ratings_import,
    season_archive_text,
    season_trf,
    standings_csv,
    standings_document,
    trf_import,
)
from competition.services.uploads import upload_keep, upload_take

_PENDING = "files_pending"


def _home(request: HttpRequest, status: int = 200, **forms: Any) -> HttpResponse:
    clubs = [c for c in td_clubs(user=request.user) if request_club(request) in (None, c)]
    context = {
        "seasons": seasons_of_clubs(clubs=clubs),
        "trf_form": forms.get("trf_form") or TrfUploadForm(clubs=clubs),
        "archive_form": forms.get("archive_form") or ArchiveUploadForm(),
        "ratings_form": forms.get("ratings_form") or RatingsUploadForm(clubs=clubs),
    }
    return render(request, "competition/files/home.html", context, status=status)


@require_safe
@td_required
def files_home(request: HttpRequest) -> HttpResponse:
    return _home(request)


def _run(kind: str, options: dict[str, Any], data: bytes, dry_run: bool) -> Any:
    """The one service call behind an upload (``dry_run`` for the preview)."""
    if kind == "trf":
        return trf_import(data=data, dry_run=dry_run, **options)
    if kind == "archive":
        return archive_import(data=data, dry_run=dry_run)
    options = dict(options)
    if options.get("list_date"):  # kept as text in the session
        options["list_date"] = datetime.date.fromisoformat(options["list_date"])
    return ratings_import(data=data, dry_run=dry_run, **options)


def _preview(
    request: HttpRequest, kind: str, form: Any, options: dict[str, Any], form_name: str
) -> HttpResponse:
    upload = form.cleaned_data["file"]
    data = upload.read()
    options = dict(options)
    if kind == "ratings":
        options["filename"] = upload.name
    try:
        report = _run(kind, options, data, dry_run=True)
    except (FormatError, ServiceError) as error:
        form.add_error("file", f"{upload.name}: {error_text(error)}")
        return _home(request, status=400, **{form_name: form})
    club_slug = report.club_slug if kind == "archive" else options["club_slug"]
    if not _may_import(request, club_slug):
        raise PermissionDenied
    token = upload_keep(data=data)
    pending = request.session.get(_PENDING, {})
    pending[token] = {"kind": kind, "options": options, "name": upload.name, "club": club_slug}
    request.session[_PENDING] = pending
    context = {
        "kind": kind,
        "report": report,
        "warnings": [text_label(warning) for warning in report.warnings],
        "file_name": upload.name,
        "confirm_form": ConfirmForm(initial={"token": token}),
    }
    return render(request, "competition/files/preview.html", context)


def _may_import(request: HttpRequest, club_slug: str | None) -> bool:
    """Whether the user may import into that club (a club not in the database yet: staff only);
    asked at the preview and again at the confirmation."""
    club = club_by_slug(slug=club_slug) if club_slug else None
    return is_td(request.user, club) if club else request.user.is_staff


def _club_slug(form: Any, request: HttpRequest) -> str:
    club = form.cleaned_data["club"]
    if not is_td(request.user, club):
        raise PermissionDenied
    return club.slug


@require_POST
@td_required
def files_import_trf(request: HttpRequest) -> HttpResponse:
    form = TrfUploadForm(request.POST, request.FILES, clubs=td_clubs(user=request.user))
    if not form.is_valid():
        return _home(request, status=400, trf_form=form)
    data = form.cleaned_data
    tiebreaks = data["tiebreaks"].strip()
    try:
        parameters = parse_parameters(line for line in data["parameters"].splitlines() if line)
    except ServiceError as error:
        form.add_error("parameters", str(error))
        return _home(request, status=400, trf_form=form)
    options = {
        "club_slug": _club_slug(form, request),
        "season_slug": data["season_slug"] or None,
        "system": data["system"],
        "tiebreaks": [c for c in tiebreaks.split(",") if c.strip()] if tiebreaks else None,
        "unplayed": data["unplayed"],
        "parameters": parameters,
        "min_games": data["min_games"],
        "round_robin": data["round_robin"],
    }
    return _preview(request, "trf", form, options, "trf_form")


@require_POST
@td_required
def files_import_season(request: HttpRequest) -> HttpResponse:
    form = ArchiveUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _home(request, status=400, archive_form=form)
    return _preview(request, "archive", form, {}, "archive_form")


@require_POST
@td_required
def files_import_ratings(request: HttpRequest) -> HttpResponse:
    form = RatingsUploadForm(request.POST, request.FILES, clubs=td_clubs(user=request.user))
    if not form.is_valid():
        return _home(request, status=400, ratings_form=form)
    data = form.cleaned_data
    options = {
        "club_slug": _club_slug(form, request),
        "format": data["format"] or None,
        "list_date": data["list_date"].isoformat() if data["list_date"] else None,
        "only_club_members": data["only_club_members"],
    }
    return _preview(request, "ratings", form, options, "ratings_form")


@require_POST
@td_required
def files_import_confirm(request: HttpRequest) -> HttpResponse:
    form = ConfirmForm(request.POST)
    pending = request.session.get(_PENDING, {})
    token = form.cleaned_data["token"] if form.is_valid() else ""
    upload = pending.pop(token, None)
    request.session[_PENDING] = pending
    data = upload_take(token=token) if upload else None
    if upload is None or data is None:
        messages.error(request, _("This upload has expired; please upload the file again."))
        return redirect("competition:files_home")
    # The rights may have changed since the preview (or an old session holds the token).
    if not _may_import(request, upload.get("club", upload["options"].get("club_slug"))):
        raise PermissionDenied
    try:
        report = _run(upload["kind"], upload["options"], data, dry_run=False)
    except (FormatError, ServiceError) as error:
        messages.error(request, f"{upload['name']}: {error_text(error)}")
        return redirect("competition:files_home")
    if upload["kind"] == "ratings":
        messages.success(
            request,
            _("Rating list imported: %(created)s created, %(updated)s updated, %(same)s unchanged.")
            % {"created": report.created, "updated": report.updated, "same": report.unchanged},
        )
    else:
        messages.success(
            request,
            _("Season %(slug)s imported: %(players)s participants, %(games)s games.")
            % {"slug": report.season_slug, "players": report.participants, "games": report.games},
        )
    return redirect("competition:files_home")


def download_response(content: str, content_type: str, filename: str) -> HttpResponse:
    """``content`` as a file to save (UTF-8), under ``filename``."""
    response = HttpResponse(content.encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


SeasonFile = Callable[[Season], str]
SeasonView = Callable[[HttpRequest, str], HttpResponse]


def season_download(written: SeasonFile, content_type: str, suffix: str) -> SeasonView:
    """The TD's download view of the file ``written(season)`` of the season of the address,
    saved as ``<slug><suffix>``; when the service refuses (:class:`ServiceError`), back to the
    files page with its reason."""

    @require_safe
    @td_required
    def download(request: HttpRequest, slug: str) -> HttpResponse:
        season = season_for_td(request.user, slug, club=request_club(request))
        try:
            text = written(season)
        except ServiceError as error:
            messages.error(request, str(error))
            return redirect("competition:files_home")
        return download_response(text, content_type, f"{season.slug}{suffix}")

    return download


season_export_trf = season_download(
    lambda season: season_trf(season=season), "text/plain; charset=utf-8", ".trf"
)
season_export_archive = season_download(
    lambda season: season_archive_text(season=season), "application/json; charset=utf-8", ".json"
)
# The standings CSV for a spreadsheet in the page's language (Dutch Excel: ``;`` and ``58,25``,
# with a byte order mark); the columns of docs/commands.md.
season_standings_csv = season_download(
    lambda season: standings_csv(
        standings_document(season=season, fingerprint=True), language=get_language() or "nl"
    ),
    "text/csv; charset=utf-8",
    "-standings.csv",
)
# The standings as the public API gives them (``/api/v1/…/standings/``: the same document).
season_standings_json = season_download(
    lambda season: json.dumps(api_standings(season), ensure_ascii=False, indent=2) + "\n",
    "application/json; charset=utf-8",
    "-standings.json",
)
