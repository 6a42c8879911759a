"""``manage.py verify_standings SEASON``: the stored standings against a fresh computation,
with the season's fingerprint; a tampered snapshot is named by round, participant and field."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from competition.models import Game, StandingsSnapshot
from competition.scoring.fingerprint import season_fingerprint, short_fingerprint
from competition.selectors.common import season_input
from tests.factories import ClubFactory, SeasonFactory
from tests.views.public_data import small_season

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("verify_standings", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def _tamper(season, round_number: int, change) -> None:
    snapshot = StandingsSnapshot.objects.get(season=season, round_number=round_number)
    rows = snapshot.rows
    change(rows)
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(rows=rows)


def test_intact_standings_pass_and_print_the_fingerprint() -> None:
    season, _people = small_season()
    short = short_fingerprint(season_input(season=season))
    text = run(season.slug)
    assert text.startswith(f"Fingerprint {short} · rules version 1 (SHA-256 ")
    assert (
        "interne-test: the stored standings after rounds 1-2 equal a fresh computation "
        "(5 participants)." in text
    )
    assert f"Fingerprint {short}" in run(season.slug, "--expect", short)
    assert f"Fingerprint {short}" in run(season.slug, "--expect", short.replace("-", "").upper())


def test_a_tampered_figure_is_named_by_round_participant_and_field() -> None:
    season, people = small_season()
    c = people["C"].pk

    # C's SB after round 2 is 1.5 (tests/views/public_data.py); someone wrote 2.
    def raise_sb(rows: list) -> None:
        row = next(r for r in rows if r["participant_id"] == c)
        row["values"]["SB"] = "2"

    _tamper(season, 2, raise_sb)
    out = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("verify_standings", season.slug, stdout=out)
    assert str(caught.value) == (
        "interne-test: the stored standings differ from a fresh computation: round 2, "
        "participant Cor Cools (start number 3), field SB: stored 2, computed 1.5."
    )
    assert out.getvalue().startswith("Fingerprint ")  # printed before the difference


@pytest.mark.parametrize(
    ("round_number", "change", "message"),
    [
        (
            1,
            lambda rows: rows[0].__setitem__("rank", 9),
            "round 1, participant Cor Cools (start number 3), field rank: stored 9, computed 1",
        ),
        (
            2,
            lambda rows: rows.pop(),
            "round 2, participant Bart Bos (start number 2): missing from the stored standings",
        ),
        (
            2,
            lambda rows: rows.reverse(),
            "round 2, place 1: stored Bart Bos (start number 2), computed Cor Cools "
            "(start number 3) (same figures, another order)",
        ),
    ],
)
def test_other_differences(round_number: int, change, message: str) -> None:
    season, _people = small_season()
    _tamper(season, round_number, change)
    with pytest.raises(CommandError, match="differ from a fresh computation") as caught:
        run(season.slug)
    assert str(caught.value).endswith(f"{message}.")


def test_a_result_changed_behind_the_services_back_is_found() -> None:
    # The database changed without standings_recompute (a hand edit): the snapshots are stale.
    season, people = small_season()
    before = short_fingerprint(season_input(season=season))
    Game.objects.filter(round__season=season, round__number=2, white=people["A"]).update(
        result="1-0"
    )
    with pytest.raises(CommandError, match=r"round 2, participant .*, field ") as caught:
        run(season.slug, "--expect", before)
    assert "the stored standings differ" in str(caught.value)


def test_another_fingerprint_than_expected_fails() -> None:
    season, _people = small_season()
    with pytest.raises(CommandError) as caught:
        run(season.slug, "--expect", "0000-0000-0000")
    short = short_fingerprint(season_input(season=season))
    assert str(caught.value).startswith(
        f"interne-test: the fingerprint is {short}, not the expected 0000-0000-0000"
    )


def test_an_unknown_season() -> None:
    with pytest.raises(CommandError) as caught:
        run("nope")
    assert str(caught.value) == "No season 'nope'. Known seasons: none."
    small_season()
    with pytest.raises(CommandError) as caught:
        run("sc-elders/interne-test")  # the slug of a season, but of another club
    assert str(caught.value) == (
        "No season 'sc-elders/interne-test'. Known seasons: sc-test/interne-test."
    )


def test_a_slug_two_clubs_share_is_named_with_its_club() -> None:
    """Season slugs are unique per club only (issue 16): a slug two clubs use is refused,
    naming the CLUB/SLUG choices, and CLUB/SLUG picks the one meant."""
    season, _people = small_season()
    SeasonFactory(club=ClubFactory(slug="sc-elders", name="Schaakclub Elders"), slug=season.slug)
    with pytest.raises(CommandError) as caught:
        run("interne-test")
    assert str(caught.value) == (
        "Several clubs have a season 'interne-test'; name one of: sc-elders/interne-test, "
        "sc-test/interne-test."
    )
    assert (
        "interne-test: the stored standings after rounds 1-2 equal a fresh computation "
        "(5 participants)."
    ) in run("sc-test/interne-test")
    assert "after no completed rounds equal a fresh computation (0 participants)" in run(
        "sc-elders/interne-test"
    )


def test_a_stale_stored_fingerprint_is_found() -> None:
    """Same figures, but a member renamed behind the services' back: the fingerprint stored
    with the standings (and shown on the page) is no longer the data's."""
    from competition.models import Member

    season, people = small_season()
    Member.objects.filter(pk=people["A"].member_id).update(name="Anna Aalders-Bos")
    with pytest.raises(CommandError, match=r"round 1: stored under fingerprint [0-9a-f]{64}, "):
        run(season.slug)


def test_a_rename_through_the_services_keeps_the_stored_fingerprint_true() -> None:
    from competition.models import Member
    from competition.services.standings import seasons_touch

    season, people = small_season()
    Member.objects.filter(pk=people["A"].member_id).update(name="Anna Aalders-Bos")
    seasons_touch(seasons=[season])
    fresh = season_fingerprint(season_input(season=season))
    assert set(
        StandingsSnapshot.objects.filter(season=season).values_list("fingerprint", flat=True)
    ) == {fresh}
    run(season.slug)  # no difference
