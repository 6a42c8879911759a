"""File uploads and downloads (TRF, season archive, rating lists, standings) for TDs."""

from django.urls import path

from competition.views import files

urlpatterns = [
    path("files/", files.files_home, name="files_home"),
    path("files/import/trf/", files.files_import_trf, name="files_import_trf"),
    path("files/import/season/", files.files_import_season, name="files_import_season"),
    path("files/import/ratings/", files.files_import_ratings, name="files_import_ratings"),
    path("files/import/confirm/", files.files_import_confirm, name="files_import_confirm"),
    path("files/seasons/<slug:slug>/trf/", files.season_export_trf, name="season_export_trf"),
    path(
        "files/seasons/<slug:slug>/archive/",
        files.season_export_archive,
        name="season_export_archive",
    ),
    path(
        "files/seasons/<slug:slug>/standings.csv",
        files.season_standings_csv,
        name="season_standings_csv",
    ),
    path(
        "files/seasons/<slug:slug>/standings.json",
        files.season_standings_json,
        name="season_standings_json",
    ),
]
