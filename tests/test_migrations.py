"""Models and migrations agree: a model change without its migration fails here."""

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_pending_migrations() -> None:
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=StringIO())
    except SystemExit as exit_:  # makemigrations --check exits 1 when a migration is missing
        pytest.fail(f"models have changes without a migration:\n{out.getvalue()}")
        raise exit_


@pytest.mark.django_db
def test_the_private_data_migration_clears_what_no_longer_belongs() -> None:
    """0016: an earlier anonymisation left the notes of the entries his absences were copied
    into, his withdrawal's reason and a forbidden pair's note; linking by username left the
    account's address on the member after unlinking. Both go; everything else stays."""
    import datetime
    import importlib

    from django.apps import apps
    from django.contrib.auth.models import User
    from django.utils import timezone

    from competition.models import AbsenceReport, ClubEvening, ForbiddenPair, Member, RoundEntry
    from competition.services.rounds import entry_record
    from tests.factories import (
        ClubFactory,
        MemberFactory,
        ParticipantFactory,
        RoundFactory,
        SeasonFactory,
    )

    migration = importlib.import_module("competition.migrations.0016_private_data_cleared")
    club = ClubFactory()
    season = SeasonFactory(club=club)
    gone = ParticipantFactory(season=season, start_rank=1, withdrawal_note="ziek")
    staying = ParticipantFactory(season=season, start_rank=2)
    Member.objects.filter(pk=gone.member_id).update(name="Oud-lid 1", anonymised_at=timezone.now())
    round_ = RoundFactory(season=season, number=1)
    entry_record(round=round_, participant=gone, kind="absent_notice", note="ziekenhuis")
    entry_record(round=round_, participant=staying, kind="absent_notice", note="vakantie")
    evening = ClubEvening.objects.create(
        season=season, date=datetime.date(2026, 10, 1), round_number=2
    )
    AbsenceReport.objects.create(evening=evening, participant=gone, note="nog steeds ziek")
    ForbiddenPair.objects.create(season=season, first=gone, second=staying, note="broers")

    User.objects.create_user("prive", email="Prive@Example.org")
    linked_account = User.objects.create_user("gekoppeld", email="gekoppeld@example.org")
    copied = MemberFactory(
        club=club, email="prive@example.org", notify_pairing=True, notify_correction=True
    )
    own = MemberFactory(club=club, email="eigen@example.org", notify_pairing=True)
    linked = MemberFactory(club=club, email="gekoppeld@example.org", user=linked_account)

    migration.clear(apps, None)

    assert RoundEntry.objects.get(participant=gone).note == ""
    assert {h.note for h in RoundEntry.history.filter(participant_id=gone.pk)} == {""}
    assert RoundEntry.objects.get(participant=staying).note == "vakantie"
    assert AbsenceReport.objects.get(participant=gone).note == ""
    gone.refresh_from_db()
    assert gone.withdrawal_note == ""
    assert ForbiddenPair.objects.get().note == ""
    copied.refresh_from_db()
    assert (copied.email, copied.notify_pairing, copied.notify_correction) == ("", False, False)
    own.refresh_from_db()
    assert (own.email, own.notify_pairing) == ("eigen@example.org", True)
    linked.refresh_from_db()
    assert linked.email == "gekoppeld@example.org"


@pytest.mark.django_db
def test_the_fide_2025_migration_remembers_who_reached_2300() -> None:
    """0020: a row is marked once its member's rating was 2300 or more, before or after an
    evening of it or of an earlier row; another member's rows and earlier rows stay unmarked."""
    import datetime
    import importlib

    from django.apps import apps

    from competition.models import ClubRatingChange
    from tests.factories import ClubFactory, MemberFactory

    migration = importlib.import_module("competition.migrations.0020_club_rating_fide_2025")
    club = ClubFactory()
    climber, starter, other = (MemberFactory(club=club) for _ in range(3))

    def row(member: object, day: int, before: int, after: int) -> None:
        ClubRatingChange.objects.create(
            club=club, member=member, date=datetime.date(2026, 9, day), rating_before=before,
            rating_after=after, change="0", k=20, games_before=40, game_count=1,
        )  # fmt: skip

    row(climber, 3, 2280, 2296)
    row(climber, 10, 2296, 2304)
    row(climber, 17, 2304, 2290)
    row(starter, 3, 2310, 2299)
    row(other, 3, 2200, 2299)
    migration.fill_junior_limit(apps, None)

    marked = {
        (r.member_id, r.date.day): r.reached_junior_limit for r in ClubRatingChange.objects.all()
    }
    assert marked == {
        (climber.pk, 3): False, (climber.pk, 10): True, (climber.pk, 17): True,
        (starter.pk, 3): True, (other.pk, 3): False,
    }  # fmt: skip


@pytest.mark.django_db
def test_the_parameters_migration_writes_the_one_form_and_changes_no_fingerprint() -> None:
    """0022: parameters stored as ``str(Fraction)`` ("7/100") are rewritten in the written form
    of competition.scoring.exact ("0.07"); "2/3", words, integers and booleans stay; the
    standings and their fingerprint are the same before and after, and back again."""
    import importlib

    from django.apps import apps

    from competition.models import Season, SeasonRules
    from competition.services.standings import standings_recompute, standings_verify
    from tests.views.public_data import small_season

    migration = importlib.import_module(
        "competition.migrations.0022_parameters_in_the_one_written_form"
    )
    old_form = {
        "factor": "7/100",
        "win_part": "3",
        "loss_part": "-3",
        "games_per_update": 14,
        "update_mode": "every_n",
        "forfeits_count": False,
    }
    season, _people = small_season()
    Season.objects.filter(pk=season.pk).update(system="van-den-brink", parameters=old_form)
    season.refresh_from_db()
    standings_recompute(season=season)
    keizer = Season.objects.create(
        club=season.club,
        name="K",
        slug="k",
        start_date=season.start_date,
        system="keizer",
        parameters={"bye": "2/3", "draw": "1/2", "top_value": ""},
    )
    SeasonRules.objects.create(
        season=season, version=1, system="van-den-brink", parameters={"factor": "1/20"}
    )
    before = standings_verify(season=season)
    assert before.difference is None

    migration.forwards(apps, None)

    season.refresh_from_db()
    assert season.parameters == {**old_form, "factor": "0.07"}
    assert Season.objects.get(pk=keizer.pk).parameters == {
        "bye": "2/3",
        "draw": "0.5",
        "top_value": "",
    }
    assert SeasonRules.objects.get(season=season).parameters == {"factor": "0.05"}
    after = standings_verify(season=season)
    assert after.difference is None and after.fingerprint == before.fingerprint
    standings_recompute(season=season)  # scoring the rewritten rules gives the same rows
    assert standings_verify(season=season).fingerprint == before.fingerprint

    migration.backwards(apps, None)
    season.refresh_from_db()
    assert season.parameters == old_form
    assert SeasonRules.objects.get(season=season).parameters == {"factor": "1/20"}
