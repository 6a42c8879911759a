"""The member's own pages: my page, absence reports for coming evenings, the private calendar
feed, the results a player enters for his own board; and the TD's calendar of club evenings."""

from django.urls import path

from competition.views import absences, calendar, check_in, feeds, members, push, result_reports

urlpatterns = [
    path("me/", members.my_page, name="my_page"),
    path("in/<str:code>/", check_in.check_in_page, name="check_in"),
    path(
        "me/evening/<int:evening_id>/report/", absences.my_evening_report, name="my_evening_report"
    ),
    path(
        "me/evening/<int:evening_id>/withdraw/",
        absences.my_evening_withdraw,
        name="my_evening_withdraw",
    ),
    path(
        "me/board/<int:game_id>/result/", result_reports.my_result_report, name="my_result_report"
    ),
    path(
        "me/result/<int:report_id>/answer/",
        result_reports.my_result_answer,
        name="my_result_answer",
    ),
    path("me/calendar/new-address/", feeds.my_feed_renew, name="my_feed_renew"),
    path("me/settings/<int:member_id>/", members.my_preferences, name="my_preferences"),
    path("me/push/subscribe/", push.push_subscribe, name="push_subscribe"),
    path("me/push/unsubscribe/", push.push_unsubscribe, name="push_unsubscribe"),
    path("me/push/stop/", push.push_stop, name="push_stop"),
    path("ical/<str:token>/<slug:season_slug>.ics", feeds.member_feed, name="member_feed"),
    path("td/<slug:season_slug>/calendar/", calendar.td_calendar, name="td_calendar"),
]
