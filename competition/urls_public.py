"""Public pages (no login) and the club admin's pages (the club, a season's rules)."""

from django.urls import path

from competition.security import embeddable
from competition.views import (
    accounts,
    categories,
    chances,
    clubs,
    embed,
    groups,
    participants,
    profile,
    ratings,
    rounds,
    rules,
    series,
    standings,
)

# The pages a club may show on its own site in a frame (settings.FRAME_ANCESTORS); the
# language switch, the after-login landing and the staff's rules page are not among them.
urlpatterns = [
    path("", embeddable(clubs.home), name="home"),
    path("taal/", clubs.language, name="language"),
    path("welcome/", accounts.after_login, name="after_login"),
    path("season/<slug:slug>/", embeddable(standings.standings), name="standings"),
    path("season/<slug:slug>/round/", embeddable(rounds.round_latest), name="round_latest"),
    path("season/<slug:slug>/round/<int:number>/", embeddable(rounds.round_detail), name="round"),
    path(
        "season/<slug:slug>/participant/<int:participant_id>/",
        embeddable(participants.participant),
        name="participant",
    ),
    path("season/<slug:slug>/crosstable/", embeddable(standings.crosstable), name="crosstable"),
    path("season/<slug:slug>/how-it-works/", embeddable(rules.how_it_works), name="how_it_works"),
    path("season/<slug:slug>/systems/", embeddable(rules.systems), name="systems"),
    path("season/<slug:slug>/chances/", embeddable(chances.season_chances), name="chances"),
    path(
        "season/<slug:slug>/category/<int:category_id>/",
        embeddable(categories.category),
        name="category",
    ),
    path("season/<slug:slug>/period/<int:number>/", embeddable(categories.period), name="period"),
    path("season/<slug:slug>/series/", embeddable(series.series), name="series"),
    path("season/<slug:slug>/evening/<int:number>/", embeddable(series.evening), name="evening"),
    # compact, for a frame on the club's own site (the club's embed setting)
    path("season/<slug:slug>/embed/", embeddable(embed.season_embed), name="season_embed"),
    path("club/", clubs.club_admin, name="club_admin"),
    path("club/embed/", embed.club_embed, name="club_embed"),
    path("club/rating/", ratings.club_rating_rules_save, name="club_rating_rules"),
    path("ratings/", embeddable(ratings.club_ratings), name="club_ratings"),
    path(
        "ratings/how-it-works/",
        embeddable(ratings.how_ratings_work),
        name="how_ratings_work",
    ),
    path("season/<slug:slug>/rules/", rules.season_rules, name="season_rules"),
    path(
        "groups/<slug:group_slug>/",
        embeddable(groups.group_competition),
        name="group_competition",
    ),
    path("member/<int:member_id>/", embeddable(profile.member_profile), name="member_profile"),
    path(
        "member/<int:member_id>/rating/",
        embeddable(ratings.member_rating),
        name="member_rating",
    ),
]
