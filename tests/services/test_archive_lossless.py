"""The season archive is lossless: a season with a non-default value in every field survives
export → empty database → import → export byte for byte, row for row and standing for standing.

Rows are compared field by field over every concrete field of the models (``_meta``), with
database ids replaced by what they stand for (a participant by his member's name, a round by
its number, a user by his username, a deleted game by the order in which it first appears in
the history), so a field added to a model later and forgotten by the archive fails this test.
"""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import models

from competition.formats.errors import FormatError
from competition.models import (
    Club,
    Game,
    Member,
    Participant,
    Round,
    RoundEntry,
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
    """A finished round-robin Van den Brink season with a non-default value in every field."""
    wim = User.objects.create_user("wim", password="x-pass-12345")
    anna = User.objects.create_user("anna.td", password="x-pass-12345")
    club = Club.objects.create(name="Schaakclub Het Paard", slug="het-paard")
    season = Season.objects.create(
        club=club,
        name="Interne competitie 2026-2027",
        slug=SLUG,
        start_date=datetime.date(2026, 9, 3),
        end_date=datetime.date(2027, 5, 27),
        kind=Season.Kind.ROUND_ROBIN,
        system="van-den-brink",
        # As the rules service stores them (parameters_to_json): fractions as "n/d".
        parameters={"factor": "1/20", "games_per_update": 7, "forfeits_count": True},
        tiebreaks=["SB", "BH"],
        unplayed_policy="half-value",
        min_games=2,
        bye_points=Decimal("0.5"),
        rematch_window=5,
        status=Season.Status.FINISHED,
        rules_version=2,
    )
    SeasonRules.objects.create(
        season=season,
        version=1,
        valid_from=at(1, 19, 30, 123456),
        system="van-den-brink",
        parameters={"factor": "7/100"},
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
        parameters={"factor": "1/20", "games_per_update": 7, "forfeits_count": True},
        tiebreaks=["SB", "BH"],
        unplayed_policy="half-value",
        min_games=2,
        changed_by=anna,
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
        ),
        Member.objects.create(club=club, name="Bos, Bert", knsb_id="8012345", rating=1875),
        Member.objects.create(club=club, name="Claassen, Cees", active=False, birth_year=1961),
        Member.objects.create(
            club=club, name="Dekker, Dirk", rating_date=datetime.date(2026, 7, 1)
        ),
    ]
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
    r1 = Round.objects.create(
        season=season, number=1, date=datetime.date(2026, 9, 3), status="completed"
    )
    r2 = Round.objects.create(
        season=season, number=2, date=datetime.date(2026, 9, 10), status="paired"
    )
    # Round 1: a game entered as 0-1 and corrected to 1-0 by Anna with a reason; a second
    # board paired and then removed ("board removed"); Dirk not yet taking part.
    game = Game(round=r1, board=1, white=a, black=b, result="0-1", updated_by=wim)
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
    entry.kind, entry.points, entry.updated_by = "club_duty", Decimal("0.5"), wim
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
    standings_recompute(season=season)
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
    targets = {
        "auth.user": users,
        "competition.participant": participants,
        "competition.round": rounds,
        "competition.club": dict(Club.objects.values_list("id", "slug")),
        "competition.season": dict(Season.objects.values_list("id", "slug")),
        "competition.member": dict(Member.objects.values_list("id", "name")),
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

    def history(model: type[models.Model], objects: dict[int, Any]) -> list[dict]:
        records = model.history.filter(round_id__in=list(rounds)).order_by(
            "history_date", "history_id"
        )
        return [row(h, {"history_id"}, objects) for h in records]

    members = Member.objects.filter(participations__season=season).order_by("name")
    return {
        "season": row(Season.objects.get(pk=season.pk), {"id", "data_version"}),
        "club": row(season.club, {"id", "td_group"}),
        "rules": [row(r, {"id"}) for r in season.rule_sets.order_by("version")],
        "members": [row(m, {"id"}) for m in members],
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
    # The users named in the archive came back as inactive accounts without a password.
    for user in User.objects.all():
        assert not user.is_active and not user.has_usable_password()
    assert sorted(User.objects.values_list("username", flat=True)) == ["anna.td", "wim"]


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
    models_counted = (Club, Member, Season, Participant, Round, Game, RoundEntry, User)
    rows = [model.objects.count() for model in models_counted]
    return (*rows, Game.history.count(), RoundEntry.history.count())


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
