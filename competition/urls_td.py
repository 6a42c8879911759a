"""The tournament director's pages (login and TD rights needed): one club evening, step by step."""

from django.urls import path

from competition.views import (
    categories,
    check_in,
    evening,
    groups,
    pairing_rules,
    postponed,
    result_reports,
    rounds,
    series,
)

_round = "td/<slug:season_slug>/<int:round_number>/"

urlpatterns = [
    path("td/", evening.td_home, name="td_home"),
    path("td/evening/start/", evening.td_evening_start, name="td_evening_start"),
    path("td/groups/new/", groups.td_group_new, name="td_group_new"),
    path("td/groups/<slug:group_slug>/", groups.td_groups, name="td_groups"),
    path("td/<slug:season_slug>/new-round/", rounds.td_round_new, name="td_round_new"),
    path(
        "td/<slug:season_slug>/pairing-rules/",
        pairing_rules.td_pairing_rules,
        name="td_pairing_rules",
    ),
    path(
        "td/<slug:season_slug>/categories/",
        categories.td_categories,
        name="td_categories",
    ),
    path(_round, rounds.td_round, name="td_round"),
    path(_round + "attendance/", evening.td_attendance, name="td_attendance"),
    path(_round + "latecomer/", evening.td_latecomer, name="td_latecomer"),
    path(_round + "check-in/open/", check_in.td_check_in_open, name="td_check_in_open"),
    path(_round + "check-in/close/", check_in.td_check_in_close, name="td_check_in_close"),
    path(_round + "check-in/state/", check_in.td_check_in_state, name="td_check_in_state"),
    path(_round + "pairing/", evening.td_pairing, name="td_pairing"),
    # One view for the TD's changes to the pairing: td_pairing_propose, _swap, _fix and _bye (the
    # draft), _leaves (a published round).
    *(
        path(
            _round + f"pairing/{action}/",
            evening.td_pairing_action,
            {"action": action},
            name=f"td_pairing_{action}",
        )
        for action in evening.PAIRING_ACTIONS
    ),
    # One view for the round's steps: td_round_publish, _unpublish and _close.
    *(
        path(_round + f"{step}/", rounds.td_round_step, {"step": step}, name=f"td_round_{step}")
        for step in rounds.ROUND_STEPS
    ),
    path(_round + "next/", series.td_rapid_next, name="td_rapid_next"),
    path(_round + "print/", rounds.td_round_print, name="td_round_print"),
    path(_round + "results/", rounds.td_results, name="td_results"),
    path(_round + "results/<int:game_id>/", rounds.td_result_save, name="td_result_save"),
    path(_round + "results/state/", result_reports.td_results_state, name="td_results_state"),
    path(
        _round + "reports/<int:report_id>/confirm/",
        result_reports.td_result_report_confirm,
        name="td_result_report_confirm",
    ),
    path(
        _round + "results/<int:game_id>/correct/",
        rounds.td_result_correct,
        name="td_result_correct",
    ),
    path(
        _round + "results/<int:game_id>/later/",
        postponed.td_game_play_later,
        name="td_game_play_later",
    ),
    path(
        _round + "entries/<int:entry_id>/correct/", rounds.td_entry_correct, name="td_entry_correct"
    ),
    path(
        _round + "entries/<int:entry_id>/external/",
        rounds.td_external_result_save,
        name="td_external_result_save",
    ),
    path(_round + "summary/", rounds.td_round_summary, name="td_round_summary"),
]
