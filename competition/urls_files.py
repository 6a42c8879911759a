"""File uploads and downloads (TRF, season archive, rating lists, standings) for TDs."""

from django.urls import path

from competition.views import files, rating_report

_season = "files/seasons/<slug:slug>/"

urlpatterns = [
    path("files/", files.files_home, name="files_home"),
    *(
        path(f"files/import/{kind}/", view, name=f"files_import_{kind}")
        for kind, view in (
            ("trf", files.files_import_trf),
            ("season", files.files_import_season),
            ("ratings", files.files_import_ratings),
            ("confirm", files.files_import_confirm),
        )
    ),
    path(_season + "trf/", files.season_export_trf, name="season_export_trf"),
    path(
        _season + "fide-report/",
        rating_report.season_rating_report_page,
        name="season_rating_report",
    ),
    path(
        _season + "fide-report.trf",
        rating_report.season_rating_report_download,
        name="season_rating_report_download",
    ),
    path(_season + "archive/", files.season_export_archive, name="season_export_archive"),
    path(_season + "standings.csv", files.season_standings_csv, name="season_standings_csv"),
    path(_season + "standings.json", files.season_standings_json, name="season_standings_json"),
]
