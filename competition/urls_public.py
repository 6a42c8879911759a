"""Public pages (no login) and the staff page for a season's rules."""

from django.urls import path

from competition.views import public, staff

urlpatterns = [
    path("", public.home, name="home"),
    path("taal/", public.language, name="language"),
    path("welcome/", public.after_login, name="after_login"),
    path("season/<slug:slug>/", public.standings, name="standings"),
    path("season/<slug:slug>/round/", public.round_latest, name="round_latest"),
    path("season/<slug:slug>/round/<int:number>/", public.round_detail, name="round"),
    path(
        "season/<slug:slug>/participant/<int:participant_id>/",
        public.participant,
        name="participant",
    ),
    path("season/<slug:slug>/crosstable/", public.crosstable, name="crosstable"),
    path("season/<slug:slug>/how-it-works/", public.how_it_works, name="how_it_works"),
    path("season/<slug:slug>/systems/", public.systems, name="systems"),
    path("season/<slug:slug>/rules/", staff.season_rules, name="season_rules"),
]
