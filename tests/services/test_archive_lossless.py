"""The season archive is lossless: a season with a non-default value in every field survives
export → empty database → import → export byte for byte, row for row and standing for standing.

Rows are compared field by field over every concrete field of the models (``_meta``), with
database ids replaced by what they stand for (a participant by his member's name, a round by
its number, an evening by its date, a user by his username, a deleted game by the order in
which it first appears in the history), so a field added to a model later and forgotten by the
archive fails this test. What the archive leaves out on purpose is listed, with the reason, in
:data:`NOT_CARRIED` (fields) and :data:`MODELS_NOT_CARRIED` (models); every other model of the
app must be compared here.
"""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import models

from competition.formats.errors import FormatError
from competition.models import (
    AbsenceReport,
    Category,
    Club,
    ClubEvening,
    ClubRatingRules,
    ForbiddenPair,
    Game,
    GroupCompetition,
    Invitation,
    Member,
    NameDisplay,
    Participant,
    Round,
    RoundEntry,
    RuleChanges,
    Season,
    SeasonRules,
)
from competition.services.errors import ServiceError
from competition.services.standings import standings_recompute
from competition.services.transfer import (
    archive_import,
    season_archive_text,
    standings_document,
)

UTC = datetime.UTC
SLUG = "ic-2026-2027"

# Fields of compared models that a season archive leaves out on purpose (docs/decisions.md,
# "Formats"). Database ids are never carried; a field missing here and in the archive fails.
NOT_CARRIED: dict[str, dict[str, str]] = {
    "competition.club": {
        "td_group": "permissions belong to the receiving site",
        "evening_start": "a club setting (a season carries its own evening_start)",
    },
    "competition.season": {
        "data_version": "a cache counter; the standings are rebuilt",
        "changed_at": "when data_version last moved (the API's Last-Modified): the import's moment",
        "result_entry": "how the club evening's results are entered, not what they are: the "
        "results and who entered and confirmed them (the history's reasons) are carried",
    },
    "competition.round": {
        "check_in_code": "the evening's check-in link, for that evening on this site only",
        "check_in_opened_at": "when the evening's check-in opened: no part of the season's record",
        "check_in_closed_at": "when the evening's check-in closed: no part of the season's record",
    },
    "competition.member": {
        "user": "accounts do not travel between installations",
        "email": "personal data the season's record does not need",
        "notify_pairing": "a setting of the member's account",
        "notify_correction": "a setting of the member's account",
        "feed_token": "the secret of the member's private calendar address",
    },
}
# Models no season archive carries.
MODELS_NOT_CARRIED: dict[str, str] = {
    "competition.invitation": "an account matter: a one-time link to make an account",
    "competition.standingssnapshot": "a cache, rebuilt by the import",
    "competition.participantexplanation": "pages derived from the snapshots, stored by the "
    "worker after the import's recompute",
    "competition.seasonchances": "a simulation's result, recomputed by the chances worker",
    "competition.seasonchancesjob": "the task queue's bookkeeping; the import asks for the "
    "chances anew",
    "competition.clubratingchange": "the club rating's ledger, replayed from the games on import",
    "competition.checkin": "what members tapped on the evening; the attendance they led to is "
    "in the round's entries",
    "competition.pushsubscription": "a member's phones for push notices: private, and bound to "
    "the browser that subscribed; he subscribes again after a restore",
    "competition.resultreport": "the players' words before they are a result: the results, and "
    "who entered and confirmed them (the history's reasons), are carried",
}
# Models whose every row of the season _rows compares, field by field.
COMPARED = {
    "competition.club",
    "competition.season",
    "competition.seasonrules",
    "competition.member",
    "competition.participant",
    "competition.round",
    "competition.game",
    "competition.roundentry",
    "competition.historicalgame",
    "competition.historicalroundentry",
    "competition.clubevening",
    "competition.absencereport",
    "competition.historicalabsencereport",
    "competition.forbiddenpair",
    "competition.category",
    "competition.groupcompetition",
    "competition.clubratingrules",
}


def at(day: int, hour: int, minute: int = 0, micro: int = 0) -> datetime.datetime:
    return datetime.datetime(2026, 9, day, hour, minute, 0, micro, tzinfo=UTC)


def _save(row: models.Model, *, when: datetime.datetime, user: User | None, reason: str = ""):
    """Save with simple-history's moment, user and reason as a request would give them."""
    row._history_date = when  # type: ignore[attr-defined]
    row._history_user = user  # type: ignore[attr-defined]
    if reason:
        row._change_reason = reason  # type: ignore[attr-defined]
    row.save()
    for name in ("_history_date", "_history_user", "_change_reason"):
        if hasattr(row, name):
            delattr(row, name)


def build_season() -> Season:
    """A finished round-robin Van den Brink season with a non-default value in every field,
    its calendar and absence reports, and account data the archive must leave out."""
    wim = User.objects.create_user("wim", password="x-pass-12345")
    anna = User.objects.create_user("anna.td", password="x-pass-12345")
    bert = User.objects.create_user("bert", password="x-pass-12345")
    cees = User.objects.create_user("cees", password="x-pass-12345")
    # Aalders's own account: linked to her member, never named by the season's rows.
    User.objects.create_user("anna.speler", password="x-pass-12345")
    club = Club.objects.create(name="Schaakclub Het Paard", slug="het-paard")
    ClubRatingRules.objects.create(
        club=club, k_new_player=32, k_standard=16, k_top=8, k_junior=24, start_rule="fixed",
        start_rating=1400, rapid_counts=True, external_counts=True,
    )  # fmt: skip
    season = Season.objects.create(
        club=club,
        name="Interne competitie 2026-2027",
        slug=SLUG,
        start_date=datetime.date(2026, 9, 3),
        end_date=datetime.date(2027, 5, 27),
        kind=Season.Kind.ROUND_ROBIN,
        system="van-den-brink",
        # As the rules service stores them (parameters_to_json): fractions as "n/d".
        parameters={"factor": "0.05", "games_per_update": 7, "forfeits_count": True},
        tiebreaks=["SB", "BH"],
        unplayed_policy="half-value",
        min_games=2,
        bye_points=Decimal("0.5"),
        rematch_window=5,
        status=Season.Status.FINISHED,
        rules_version=2,
        absence_deadline=datetime.time(18, 30),
        requested_byes=True,
        evening_start=datetime.time(19, 45),
        name_display=NameDisplay.SHORT,
        junior_birth_year=2010,
        max_meetings=2,
        rematch_colours_reversed=True,
        one_pairing_bye=True,
        # the club rating as the pairing seed, and the FIDE rating report's header
        seed_by_club_rating=True,
        city="Apeldoorn",
        federation="NED",
        chief_arbiter="Jan Jansen (1012345)",
        deputy_arbiters="Piet Pietersen\nKlaas Klaassen",
        time_control="90 min + 30 s",
        tournament_type="Individual: Round-Robin",
        # games on another date: a double forfeit 10 days after the round (version 8)
        pending_days=10,
        # rule set 2 scores the rounds from round 2 on
        rule_changes=RuleChanges.NEXT_ROUND,
        rules_from_round=2,
        # group C of period 2 of a group competition with settings other than the defaults
        group_competition=GroupCompetition.objects.create(
            club=club,
            name="Zomergroepen 2026",
            slug="zomergroepen-2026",
            periods=3,
            rounds_per_period=5,
            promoted=2,
            relegated=0,
            champion_rule=GroupCompetition.ChampionRule.MOST_POINTS,
        ),
        group_letter="C",
        group_period=2,
    )
    SeasonRules.objects.create(
        season=season,
        version=1,
        valid_from=at(1, 19, 30, 123456),
        system="van-den-brink",
        parameters={"factor": "0.07"},
        tiebreaks=["SB"],
        unplayed_policy="fide-2024",
        min_games=1,
        changed_by=wim,
    )
    SeasonRules.objects.create(
        season=season,
        version=2,
        valid_from=at(9, 22, 15, 7),
        system="van-den-brink",
        parameters={"factor": "0.05", "games_per_update": 7, "forfeits_count": True},
        tiebreaks=["SB", "BH"],
        unplayed_policy="half-value",
        min_games=2,
        changed_by=anna,
        from_round=2,
    )
    members = [
        Member.objects.create(
            club=club,
            name="Aalders, Anna",
            knsb_id="0123456",  # a leading zero that an integer would lose
            fide_id=1503014,
            rating=2051,
            rating_date=datetime.date(2026, 8, 1),
            birth_year=1990,
            name_display=NameDisplay.FULL,
            federation="NED",
            # Account data, not carried (NOT_CARRIED):
            user=User.objects.get(username="anna.speler"),
            email="anna.aalders@example.org",
            notify_pairing=True,
            notify_correction=True,
            feed_token="f" * 43,
        ),
        Member.objects.create(
            club=club,
            name="Bos, Bert",
            knsb_id="8012345",
            rating=1875,
            name_display=NameDisplay.SHORT,
            user=bert,
        ),
        Member.objects.create(club=club, name="Claassen, Cees", active=False, birth_year=1961),
        Member.objects.create(
            club=club,
            name="Dekker, Dirk",
            rating_date=datetime.date(2026, 7, 1),
            anonymised_at=at(20, 12, 0, 5),
        ),
    ]
    Invitation.objects.create(
        member=members[2],
        token_hash="0" * 64,
        email="cees.claassen@example.org",
        created_by=anna,
        expires_at=at(27, 12),
    )
    Member.objects.create(club=club, name="Niet, Mee")  # a member outside the season
    a, b, c, d = (
        Participant.objects.create(
            season=season,
            member=member,
            start_rank=rank,
            start_points=Decimal(points),
            initial_value=initial,
            joined_round=joined,
        )
        for member, rank, points, initial, joined in zip(
            members,
            (1, 2, 3, None),
            ("200", "199.5", "198.25", "150"),
            (Decimal("12.5"), None, Decimal("0.0625"), Decimal("-3")),
            (1, 1, 1, 2),
            strict=True,
        )
    )
    # Cees withdraws from round 3 on (version 6)
    Participant.objects.filter(pk=c.pk).update(withdrawn_from_round=3, withdrawal_note="verhuisd")
    r1 = Round.objects.create(
        season=season, number=1, date=datetime.date(2026, 9, 3), status="completed"
    )
    r2 = Round.objects.create(
        season=season, number=2, date=datetime.date(2026, 9, 10), status="paired"
    )
    # Round 1: a game played on another date (version 8), entered as 0-1 and corrected to 1-0
    # by Anna with a reason; a second board paired and then removed ("board removed"); Dirk not
    # yet taking part.
    game = Game(
        round=r1,
        board=1,
        white=a,
        black=b,
        result="0-1",
        updated_by=wim,
        played_on=datetime.date(2026, 9, 5),
    )
    _save(game, when=at(3, 20), user=wim)
    game.result, game.version, game.updated_by = "1-0", 2, anna
    _save(game, when=at(4, 9, 5, 250), user=anna, reason="Uitslag verkeerd ingevoerd")
    removed = Game(round=r1, board=2, white=c, black=d, result="")
    _save(removed, when=at(3, 19, 45), user=wim)
    removed._history_date = at(3, 19, 50)  # type: ignore[attr-defined]
    removed._history_user = wim  # type: ignore[attr-defined]
    removed._change_reason = "board removed"  # type: ignore[attr-defined]
    removed.delete()
    entry = RoundEntry(round=r1, participant=c, kind="absent_notice", note="vakantie")
    _save(entry, when=at(2, 12), user=None)
    entry.kind, entry.points, entry.updated_by, entry.version = "club_duty", Decimal("0.5"), wim, 2
    entry.external_result = "1/2"  # the club duty was a team match, drawn (version 6)
    _save(entry, when=at(3, 19, 55), user=wim, reason="wedstrijdleider van dienst")
    gone = RoundEntry(round=r1, participant=d, kind="not_paired", note="meldt zich nog")
    _save(gone, when=at(3, 19, 40), user=wim)
    gone._history_date = at(3, 19, 41)  # type: ignore[attr-defined]
    gone.delete()
    # Round 2: one game without a result and Bert's bye of half a point, both set by the TD.
    _save(
        Game(round=r2, board=1, white=d, black=a, result="", fixed_by_td=True),
        when=at(10, 19),
        user=anna,
    )
    _save(
        RoundEntry(
            round=r2,
            participant=b,
            kind="bye",
            points=Decimal("0.5"),
            note="oneven",
            fixed_by_td=True,
        ),
        when=at(10, 19, 1),
        user=anna,
    )
    _save(RoundEntry(round=r2, participant=c, kind="absent_no_notice"), when=at(10, 21), user=None)
    # The calendar: three evenings, the last one announced with a note.
    e1, e2, e3 = (
        ClubEvening.objects.create(season=season, date=datetime.date(2026, 9, day), round_number=n)
        for n, day in ((1, 3), (2, 10), (3, 17))
    )
    e3.note = "bekeravond, interne ronde later"
    e3.save()
    # Reports: Cees can't come on the 10th (reported by himself, with a note); Bert asks for a
    # bye on the 17th after first reporting absent; Dirk's report for the 17th is taken back;
    # the TD records Anna's absence after the deadline.
    _save(
        AbsenceReport(
            evening=e2,
            participant=c,
            note="op vakantie",
            reported_by=cees,
            reported_at=at(8, 10, 0, 1),
        ),
        when=at(8, 10, 0, 1),
        user=cees,
    )
    bye = AbsenceReport(evening=e3, participant=b, reported_by=bert, reported_at=at(12, 9))
    _save(bye, when=at(12, 9), user=bert)
    bye.kind, bye.note, bye.reported_at = AbsenceReport.Kind.BYE, "liever een bye", at(13, 9)
    _save(bye, when=at(13, 9), user=bert, reason="bye gevraagd")
    withdrawn = AbsenceReport(evening=e3, participant=d, reported_by=None, reported_at=at(14, 20))
    _save(withdrawn, when=at(14, 20), user=None)
    withdrawn._history_date = at(15, 8)  # type: ignore[attr-defined]
    withdrawn._history_user = wim  # type: ignore[attr-defined]
    withdrawn._change_reason = "toch aanwezig"  # type: ignore[attr-defined]
    withdrawn.delete()
    _save(
        AbsenceReport(evening=e3, participant=a, reported_by=anna, reported_at=at(17, 19)),
        when=at(17, 19),
        user=anna,
    )
    assert e1.reports.count() == 0
    # Bos and Dekker drive together: a forbidden pair (stored lower id first).
    ForbiddenPair.objects.create(season=season, first=b, second=d, note="rijden samen")
    # Categories and periods (version 6): a rating class with the unrated, a youth class and a
    # hand-made list; periods ending at rounds 1 and 3; one prize per player.
    Category.objects.create(
        season=season, order=1, name="Groep B", kind="rating", rating_below=1700, unrated=True
    )
    Category.objects.create(
        season=season, order=2, name="Jeugd", kind="age", born_from=2008, born_to=2014, prizes=1
    )
    chosen = Category.objects.create(
        season=season, order=3, name="Bestuur", kind="list", prizes=0, most_improved=True
    )
    chosen.chosen.set([d, a])
    Season.objects.filter(pk=season.pk).update(
        period_ends=[1, 3],
        several_prizes=False,
        category_count=3,
        # a rapid series (version 6): evenings of two rounds, 12-9-7, the best evening counts
        rounds_per_evening=2,
        evening_points=[12, 9, 7],
        best_evenings=1,
    )
    standings_recompute(season=season)
    season.refresh_from_db()
    return season


def _rows(season: Season) -> dict[str, Any]:
    """Every concrete field of every row of the season, ids replaced by natural keys."""
    users = dict(User.objects.values_list("id", "username"))
    participants = {p.id: p.member.name for p in Participant.objects.select_related("member")}
    rounds = dict(Round.objects.filter(season=season).values_list("id", "number"))
    games = {
        g.id: ("live", rounds[g.round_id], g.board)
        for g in Game.objects.filter(round__season=season)
    }
    entries = {
        e.id: ("live", rounds[e.round_id], participants[e.participant_id])
        for e in RoundEntry.objects.filter(round__season=season)
    }
    evenings = dict(ClubEvening.objects.filter(season=season).values_list("id", "date"))
    reports = {
        r.id: ("live", evenings[r.evening_id], participants[r.participant_id])
        for r in AbsenceReport.objects.filter(evening__season=season)
    }
    targets = {
        "auth.user": users,
        "competition.participant": participants,
        "competition.round": rounds,
        "competition.clubevening": evenings,
        "competition.club": dict(Club.objects.values_list("id", "slug")),
        "competition.season": dict(Season.objects.values_list("id", "slug")),
        "competition.member": dict(Member.objects.values_list("id", "name")),
        "competition.groupcompetition": dict(GroupCompetition.objects.values_list("id", "slug")),
    }

    def row(obj: models.Model, skip: set[str], objects: dict[int, Any] | None = None) -> dict:
        values: dict[str, Any] = {}
        for field in obj._meta.concrete_fields:
            if field.name in skip:
                continue
            value = getattr(obj, field.attname)
            if field.is_relation and value is not None:
                value = targets[field.related_model._meta.label_lower].get(value, "dangling")
            elif field.name == "id" and objects is not None:
                # A deleted object: numbered in order of its first history record.
                value = objects.setdefault(value, ("deleted", len(objects)))
            values[field.name] = value
        return values

    def history(
        model: type[models.Model], objects: dict[int, Any], parent: str = "round"
    ) -> list[dict]:
        parents = list(evenings if parent == "evening" else rounds)
        records = model.history.filter(**{f"{parent}_id__in": parents})
        records = records.order_by("history_date", "history_id")
        return [row(h, {"history_id"}, objects) for h in records]

    def left_out(label: str) -> set[str]:
        return {"id", *NOT_CARRIED.get(label, {})}

    members = Member.objects.filter(participations__season=season).order_by("name")
    return {
        "season": row(Season.objects.get(pk=season.pk), left_out("competition.season")),
        "club": row(season.club, left_out("competition.club")),
        "club_rating": [row(r, {"id"}) for r in ClubRatingRules.objects.filter(club=season.club)],
        "group_competitions": [
            row(g, {"id"}) for g in GroupCompetition.objects.filter(group_seasons=season)
        ],
        "rules": [row(r, {"id"}) for r in season.rule_sets.order_by("version")],
        "members": [row(m, left_out("competition.member")) for m in members],
        "participants": sorted(
            (row(p, {"id"}) for p in season.participants.all()), key=lambda r: r["member"]
        ),
        "rounds": [row(r, {"id"}) for r in season.rounds.order_by("number")],
        "games": sorted(
            (row(g, {"id"}) for g in Game.objects.filter(round__season=season)),
            key=lambda r: (r["round"], r["board"]),
        ),
        "entries": sorted(
            (row(e, {"id"}) for e in RoundEntry.objects.filter(round__season=season)),
            key=lambda r: (r["round"], r["participant"]),
        ),
        "game_history": history(Game, dict(games)),
        "entry_history": history(RoundEntry, dict(entries)),
        "evenings": [
            row(e, {"id"}) for e in ClubEvening.objects.filter(season=season).order_by("date")
        ],
        "reports": sorted(
            (row(r, {"id"}) for r in AbsenceReport.objects.filter(evening__season=season)),
            key=lambda r: (r["evening"], r["participant"]),
        ),
        "report_history": history(AbsenceReport, dict(reports), parent="evening"),
        "forbidden_pairs": sorted(
            (row(f, {"id"}) for f in ForbiddenPair.objects.filter(season=season)),
            key=lambda r: (r["first"], r["second"]),
        ),
        "categories": [
            {**row(c, {"id"}), "chosen": sorted(participants[p.pk] for p in c.chosen.all())}
            for c in Category.objects.filter(season=season).order_by("order")
        ],
    }


def _standings(season: Season) -> list[dict]:
    completed = season.rounds.filter(status="completed").count()
    return [
        standings_document(season=season, after_round=n)["standings"] for n in range(completed + 1)
    ]


@pytest.mark.django_db(transaction=True)
def test_every_field_survives_export_flush_import_export() -> None:
    season = build_season()
    first = season_archive_text(season=season)
    rows_before = _rows(season)
    standings_before = _standings(season)

    document = json.loads(first)
    # Spot checks of what used to be lost, written out by hand.
    assert document["season"]["bye_points"] == "0.5"
    assert document["season"]["rematch_window"] == 5
    assert document["season"]["kind"] == "round_robin"
    assert document["season"]["group"] == {
        "competition": "zomergroepen-2026",
        "name": "Zomergroepen 2026",
        "letter": "C",
        "period": 2,
        "periods": 3,
        "rounds_per_period": 5,
        "promoted": 2,
        "relegated": 0,
        "champion_rule": "most_points",
    }
    assert (document["season"]["status"], document["season"]["rules_version"]) == ("finished", 2)
    assert document["members"][0]["knsb_relatienummer"] == "0123456"
    assert document["members"][0]["rating_date"] == "2026-08-01"
    assert [p["initial_value"] for p in document["participants"]] == ["12.5", None, "0.0625", "-3"]
    assert [(r["valid_from"], r["changed_by"]) for r in document["rule_sets"]] == [
        ("2026-09-01T19:30:00.123456+00:00", "wim"),
        ("2026-09-09T22:15:00.000007+00:00", "anna.td"),
    ]
    games = document["history"]["games"]
    # In recording order: board 2 created 19:45 and deleted 19:50, board 1 entered 20:00 and
    # corrected the next morning, round 2's board 1 on the 10th.
    assert [(h["game"], h["history_type"], h["history_user"]) for h in games] == [
        (3, "+", "wim"),
        (3, "-", "wim"),
        (1, "+", "wim"),
        (1, "~", "anna.td"),
        (2, "+", "anna.td"),
    ]
    assert games[1]["history_change_reason"] == "board removed"
    assert (games[3]["result"], games[3]["history_change_reason"]) == (
        "1-0",
        "Uitslag verkeerd ingevoerd",
    )
    entries = document["history"]["entries"]
    assert [(h["history_type"], h["kind"], h["points"]) for h in entries] == [
        ("+", "absent_notice", "0"),
        ("+", "not_paired", "0"),
        ("-", "not_paired", "0"),
        ("~", "club_duty", "0.5"),
        ("+", "bye", "0.5"),
        ("+", "absent_no_notice", "0"),
    ]
    assert entries[0]["note"] == "vakantie" and entries[0]["history_user"] is None
    assert [e["version"] for r in document["rounds"] for e in r["entries"]] == [2, 1, 1]
    # The calendar, the reports and the privacy settings.
    assert {k: document["season"][k] for k in ("absence_deadline", "name_display")} == {
        "absence_deadline": "18:30",
        "name_display": "short",
    }
    assert (document["season"]["requested_byes"], document["season"]["junior_birth_year"]) == (
        True,
        2010,
    )
    assert [(m["name_display"], m["anonymised_at"]) for m in document["members"]] == [
        ("full", None),
        ("short", None),
        ("", None),
        ("", "2026-09-20T12:00:00.000005+00:00"),
    ]
    assert [(e["date"], e["round_number"], e["note"]) for e in document["evenings"]] == [
        ("2026-09-03", 1, ""),
        ("2026-09-10", 2, ""),
        ("2026-09-17", 3, "bekeravond, interne ronde later"),
    ]
    assert document["evenings"][1]["reports"] == [
        {
            "id": 1,
            "participant": 3,
            "kind": "absent",
            "note": "op vakantie",
            "reported_by": "cees",
            "reported_at": "2026-09-08T10:00:00.000001+00:00",
        }
    ]
    assert [
        (r["participant"], r["kind"], r["reported_by"]) for r in document["evenings"][2]["reports"]
    ] == [(1, "absent", "anna.td"), (2, "bye", "bert")]
    reports = document["history"]["reports"]
    # Dirk's withdrawn report (participant 4) is report 4, after the three live ones.
    assert [
        (h["report"], h["history_type"], h["history_user"], h["evening"], h["kind"])
        for h in reports
    ] == [
        (1, "+", "cees", "2026-09-10", "absent"),
        (3, "+", "bert", "2026-09-17", "absent"),
        (3, "~", "bert", "2026-09-17", "bye"),
        (4, "+", None, "2026-09-17", "absent"),
        (4, "-", "wim", "2026-09-17", "absent"),
        (2, "+", "anna.td", "2026-09-17", "absent"),
    ]
    assert (reports[2]["history_change_reason"], reports[4]["history_change_reason"]) == (
        "bye gevraagd",
        "toch aanwezig",
    )
    # The pairing rules (version 5).
    assert [document["season"][k] for k in ("max_meetings", "rematch_colours_reversed")] == [
        2,
        True,
    ]
    assert document["season"]["one_pairing_bye"] is True
    assert document["forbidden_pairs"] == [{"first": 2, "second": 4, "note": "rijden samen"}]
    # Categories and periods (version 6).
    assert document["season"]["periods"] == [{"last_round": 1}, {"last_round": 3}]
    assert document["season"]["several_prizes"] is False
    # The rapid series (version 6).
    assert document["season"]["rounds_per_evening"] == 2
    assert document["season"]["evening_points"] == [
        {"place": 1, "points": 12},
        {"place": 2, "points": 9},
        {"place": 3, "points": 7},
    ]
    assert document["season"]["best_evenings"] == 1
    assert [(c["order"], c["name"], c["kind"]) for c in document["categories"]] == [
        (1, "Groep B", "rating"),
        (2, "Jeugd", "age"),
        (3, "Bestuur", "list"),
    ]
    assert document["categories"][0]["rating_below"] == 1700
    assert document["categories"][0]["unrated"] is True
    assert (document["categories"][1]["born_from"], document["categories"][1]["born_to"]) == (
        2008,
        2014,
    )
    assert document["categories"][2]["chosen"] == [{"participant": 1}, {"participant": 4}]
    # Account data stays home: no e-mail address, account, calendar token or invitation.
    for secret in ("example.org", "anna.speler", "f" * 43, "0" * 64, "notify", "feed_token"):
        assert secret not in first, secret

    call_command("flush", "--noinput", verbosity=0)
    assert not Season.objects.exists() and not User.objects.exists()
    report = archive_import(data=first)
    # Corrections: the game's correction, its deletion, the entry's change and deletion.
    assert report.corrections == 4
    again = Season.objects.get(slug=SLUG)

    assert season_archive_text(season=again).encode() == first.encode()
    rows_after = _rows(again)
    for key, value in rows_before.items():
        assert rows_after[key] == value, key
    assert _standings(again) == standings_before
    # The users named in the archive came back as inactive accounts without a password; the
    # members' own accounts did not travel (Aalders's "anna.speler" reported nothing).
    for user in User.objects.all():
        assert not user.is_active and not user.has_usable_password()
    assert sorted(User.objects.values_list("username", flat=True)) == [
        "anna.td",
        "bert",
        "cees",
        "wim",
    ]
    aalders = Member.objects.get(name="Aalders, Anna")
    assert (aalders.user, aalders.email, aalders.feed_token) == (None, "", None)
    assert not aalders.notify_pairing and not aalders.notify_correction
    assert Member.objects.get(name="Bos, Bert").user is None
    assert not Invitation.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_second_import_keeps_deleted_rows_apart() -> None:
    """Deleted games get ids no live or later row can have: importing the season twice (under
    another slug) keeps each copy's history its own."""
    season = build_season()
    text = season_archive_text(season=season)
    archive_import(data=text.replace(f'"slug": "{SLUG}"', '"slug": "kopie"'))
    copy = Season.objects.get(slug="kopie")
    expected = text.replace(f'"slug": "{SLUG}"', '"slug": "kopie"')
    assert season_archive_text(season=copy) == expected
    assert season_archive_text(season=season) == text
    # A game created after the import has a history of its own only.
    new = Game.objects.create(
        round=copy.rounds.get(number=2),
        board=2,
        white=copy.participants.get(member__name="Bos, Bert"),
        black=copy.participants.get(member__name="Claassen, Cees"),
    )
    assert list(new.history.values_list("history_type", flat=True)) == ["+"]


def _counts() -> tuple[int, ...]:
    models_counted = (
        Club,
        Member,
        Season,
        Participant,
        Round,
        Game,
        RoundEntry,
        User,
        ClubEvening,
        AbsenceReport,
    )
    rows = [model.objects.count() for model in models_counted]
    histories = (Game.history, RoundEntry.history, AbsenceReport.history)
    return (*rows, *(history.count() for history in histories))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        # bye_points is DecimalField(3, 1): one decimal, below 10^(3-1) = 100.
        (["season", "bye_points"], "0.25", "season.bye_points: bye_points must have at most 1"),
        # start_points is exact text of at most 40 characters (any number of decimals).
        (
            ["participants", 0, "start_points"],
            "1." + "3" * 40,
            "participants[0].start_points: longer than 40 characters",
        ),
        (
            ["rounds", 0, "entries", 0, "note"],
            "x" * 201,
            "rounds[0].entries[0].note: longer than 200 characters",
        ),
        (
            ["history", "games", 1, "history_change_reason"],
            "x" * 101,
            "history.games[1].history_change_reason: longer than 100 characters",
        ),
        (["season", "unplayed_policy"], "never", "season.unplayed_policy: unknown policy"),
        (["rule_sets", 0, "tiebreaks"], ["XX"], "rule_sets[0].tiebreaks:"),
        (["season", "end_date"], "2026-01-01", "season.end_date: the season cannot end before"),
        (
            ["evenings", 2, "note"],
            "x" * 201,
            "evenings[2].note: longer than 200 characters",
        ),
        (
            ["evenings", 1, "reports", 0, "note"],
            "x" * 201,
            "evenings[1].reports[0].note: longer than 200 characters",
        ),
        (
            ["evenings", 1, "reports", 0, "reported_by"],
            "x" * 151,
            "evenings[1].reports[0].reported_by: longer than 150 characters",
        ),
        (
            ["history", "reports", 4, "history_change_reason"],
            "x" * 101,
            "history.reports[4].history_change_reason: longer than 100 characters",
        ),
        (
            ["history", "reports", 0, "note"],
            "x" * 201,
            "history.reports[0].note: longer than 200 characters",
        ),
        # What the reader refuses: the import writes nothing either.
        (
            ["evenings", 1, "reports", 0, "participant"],
            17,
            "evenings[1].reports[0].participant: unknown participant 17",
        ),
        (
            ["evenings", 1, "date"],
            "2026-09-03",
            "evenings[1].date: evening 2026-09-03 appears twice (also evenings[0].date)",
        ),
        (
            ["evenings", 1, "reports", 0, "kind"],
            "absent_notice",
            "evenings[1].reports[0].kind: 'absent_notice' is not one of 'absent', 'bye'",
        ),
        (
            ["history", "reports", 1, "evening"],
            "2026-09-24",
            "history.reports[1].evening: unknown evening 2026-09-24",
        ),
    ],
)
def test_import_refuses_what_the_database_cannot_hold(
    path: list[object], value: object, message: str
) -> None:
    document = json.loads(season_archive_text(season=build_season()))
    document["season"]["slug"] = "kopie"
    target: Any = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    before = _counts()
    with pytest.raises((FormatError, ServiceError)) as caught:
        archive_import(data=json.dumps(document))
    assert str(caught.value).startswith(message)
    assert _counts() == before


def test_every_model_is_compared_or_left_out_with_a_reason() -> None:
    """A model added to the app later must be carried by the archive (and compared above) or
    listed in MODELS_NOT_CARRIED with the reason."""
    labels = {model._meta.label_lower for model in apps.get_app_config("competition").get_models()}
    assert labels == COMPARED | set(MODELS_NOT_CARRIED)
    assert not COMPARED & set(MODELS_NOT_CARRIED)


def test_the_fields_left_out_exist() -> None:
    """NOT_CARRIED names real fields (a renamed field must not leave a stale entry)."""
    for label, fields in NOT_CARRIED.items():
        model = apps.get_model(label)
        concrete = {field.name for field in model._meta.concrete_fields}
        assert set(fields) <= concrete, label
        assert all(reason for reason in fields.values()), label


@pytest.mark.django_db
def test_a_version_3_archive_imports_with_the_defaults() -> None:
    """An archive written before the calendar and the privacy settings existed imports with
    the models' defaults: no deadline, no requested byes, full names, no evenings."""
    from tests.formats.test_archive import as_version

    document = json.loads(season_archive_text(season=build_season()))
    document["season"]["slug"] = "oud"
    report = archive_import(data=json.dumps(as_version(document, 3)))
    assert (report.games, report.entries, report.corrections) == (2, 3, 4)
    old = Season.objects.get(slug="oud")
    assert (
        old.absence_deadline,
        old.requested_byes,
        old.name_display,
        old.junior_birth_year,
    ) == (None, False, NameDisplay.FULL, None)
    assert not ClubEvening.objects.filter(season=old).exists()
    assert not AbsenceReport.history.filter(evening__season=old).exists()
    # The members were matched in the club (the same names): new ones would have the defaults.
    assert report.members_matched == 4
    assert set(RoundEntry.objects.filter(round__season=old).values_list("version", flat=True)) == {
        1
    }
    # Written again it is a version 5 archive that says so.
    again = json.loads(season_archive_text(season=old))
    assert again["version"] == 8 and again["evenings"] == []
    assert again["season"]["absence_deadline"] is None


@pytest.mark.django_db
def test_a_version_3_archive_into_an_empty_club_gives_members_the_defaults() -> None:
    from tests.formats.test_archive import as_version

    document = json.loads(season_archive_text(season=build_season()))
    document["season"]["slug"] = "oud"
    document["club"] = {**document["club"], "name": "Andere club", "slug": "andere-club"}
    report = archive_import(data=json.dumps(as_version(document, 3)))
    assert report.members_created == 4
    members = Member.objects.filter(club__slug="andere-club")
    assert {(m.name_display, m.anonymised_at) for m in members} == {("", None)}


@pytest.mark.django_db
def test_an_anonymised_member_is_never_matched_by_name() -> None:
    """A neutral name identifies nobody: imported into the same club, the anonymised Dekker
    becomes a member of his own while the others are matched by relatienummer or name."""
    text = season_archive_text(season=build_season())
    report = archive_import(data=text.replace(f'"slug": "{SLUG}"', '"slug": "kopie"'))
    assert (report.members_matched, report.members_created) == (3, 1)
    dekkers = Member.objects.filter(name="Dekker, Dirk")
    assert [m.anonymised_at for m in dekkers] == [at(20, 12, 0, 5)] * 2
    copy = Season.objects.get(slug="kopie")
    assert copy.participants.get(member__name="Dekker, Dirk").member_id not in {
        p.member_id for p in Participant.objects.filter(season__slug=SLUG)
    }
    # The copy's calendar and reports are its own rows, with the archive's history.
    assert ClubEvening.objects.filter(season=copy).count() == 3
    assert AbsenceReport.objects.filter(evening__season=copy).count() == 3
    copied = AbsenceReport.history.filter(evening__season=copy)
    assert sorted(copied.values_list("history_type", flat=True)) == sorted("++~+-+")
    # The original's history is untouched by the copy.
    assert AbsenceReport.history.filter(evening__season__slug=SLUG).count() == 6


@pytest.mark.django_db
def test_a_version_4_archive_imports_with_the_pairing_rules_defaults() -> None:
    """An archive written before the pairing rules existed imports with the models' defaults:
    no most meetings, colours reversed at a rematch, no bye limit, no forbidden pairs."""
    from tests.formats.test_archive import as_version

    document = json.loads(season_archive_text(season=build_season()))
    assert document["forbidden_pairs"] and document["season"]["max_meetings"] == 2
    document["season"]["slug"] = "oud"
    archive_import(data=json.dumps(as_version(document, 4)))
    old = Season.objects.get(slug="oud")
    assert (old.max_meetings, old.rematch_colours_reversed, old.one_pairing_bye) == (
        None,
        False,
        False,
    )
    assert not ForbiddenPair.objects.filter(season=old).exists()
    again = json.loads(season_archive_text(season=old))
    assert again["version"] == 8 and again["forbidden_pairs"] == []
