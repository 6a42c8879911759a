"""A Keizer season in the season archive and in TRF (issue 12).

The archive carries every Keizer parameter, including the words a number parameter accepts
(``top_value`` left empty, ``external_game`` = ``result``), and survives export → empty
database → import → export byte for byte. TRF keeps every game; what it cannot say (club duty,
an absence without notice) reads back as an absence with notice, and the Keizer standings of
the imported season are exactly those of the original read that way.
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from competition.management.commands.seed_demo import DEMO_CLUB_SLUG
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
from competition.scoring import engine
from competition.scoring.exact import fraction_from_text
from competition.scoring.model import EntryKind, SeasonInput
from competition.selectors.common import season_input
from competition.services.standings import standings_recompute
from competition.services.transfer import archive_import, season_archive_text
from tests.services.test_archive_lossless import _rows, _standings

SLUG = "keizer-archief"
# Every Keizer parameter away from its default, as the rules service stores them.
PARAMETERS = {
    "top_value": 40,
    "value_step": "1.5",
    "own_value_in_score": False,
    "win": "1",
    "draw": "0.4",
    "loss": "0.1",
    "absent_with_notice": "0.25",
    "absent_without_notice": "-1/3",
    "club_duty": "0.75",
    "bye": "0.5",
    "forfeit_win": "5/6",
    "forfeit_loss": "-1/6",
    "external_game": "0.5",
    "max_paid_absences": 1,
    "recalculation": "previous_values",
}


def build_keizer_season() -> Season:
    """Six players, three completed rounds with every kind of round without a game."""
    wim = User.objects.create_user("wim", password="x-pass-12345")
    club = Club.objects.create(name="Schaakclub De Keizer", slug="de-keizer")
    season = Season.objects.create(
        club=club,
        name="Keizercompetitie",
        slug=SLUG,
        start_date=datetime.date(2026, 9, 1),
        system="keizer",
        parameters=PARAMETERS,
        tiebreaks=["BH"],
        min_games=1,
        bye_points=Decimal("0.5"),
        rematch_window=2,
        rules_version=2,
    )
    SeasonRules.objects.create(
        season=season,
        version=1,
        valid_from=datetime.datetime(2026, 8, 30, 12, tzinfo=datetime.UTC),
        system="keizer",
        # The words: top value worked out from the participants, the result for external games.
        parameters={"top_value": "", "external_game": "result", "recalculation": "frozen"},
        tiebreaks=[],
        unplayed_policy="fide-2024",
        min_games=0,
        changed_by=wim,
    )
    players = [
        Participant.objects.create(
            season=season,
            member=Member.objects.create(club=club, name=name, rating=2000 - 50 * rank),
            start_rank=rank,
        )
        for rank, name in enumerate(("Anna", "Bert", "Cees", "Dirk", "Els", "Fenna"), start=1)
    ]
    a, b, c, d, e, f = players
    r1, r2, r3 = (
        Round.objects.create(
            season=season, number=n, date=datetime.date(2026, 9, n * 7 - 6), status="completed"
        )
        for n in (1, 2, 3)
    )
    Game.objects.create(round=r1, board=1, white=a, black=b, result="0-1", updated_by=wim)
    Game.objects.create(round=r1, board=2, white=c, black=d, result="1/2")
    RoundEntry.objects.create(round=r1, participant=e, kind="bye", points=Decimal("0.5"))
    RoundEntry.objects.create(round=r1, participant=f, kind="club_duty")
    Game.objects.create(round=r2, board=1, white=b, black=c, result="+-")
    Game.objects.create(round=r2, board=2, white=f, black=e, result="1-0")
    RoundEntry.objects.create(round=r2, participant=a, kind="absent_notice")
    RoundEntry.objects.create(round=r2, participant=d, kind="absent_no_notice")
    Game.objects.create(round=r3, board=1, white=d, black=a, result="1-0")
    Game.objects.create(round=r3, board=2, white=e, black=b, result="--")
    RoundEntry.objects.create(round=r3, participant=c, kind="absent_notice")  # beyond the paid one
    RoundEntry.objects.create(round=r3, participant=f, kind="absent_notice")
    standings_recompute(season=season)
    return season


@pytest.mark.django_db(transaction=True)
def test_keizer_season_survives_export_flush_import_export() -> None:
    season = build_keizer_season()
    first = season_archive_text(season=season)
    rows_before = _rows(season)
    standings_before = _standings(season)
    document = json.loads(first)
    assert dict(document["season"]["parameters"]) == {
        "absent_with_notice": "0.25",
        "absent_without_notice": "-1/3",
        "bye": "0.5",
        "club_duty": "0.75",
        "draw": "0.4",
        "external_game": "0.5",
        "forfeit_loss": "-1/6",
        "forfeit_win": "5/6",
        "loss": "0.1",
        "max_paid_absences": "1",
        "own_value_in_score": "false",
        "recalculation": "previous_values",
        "top_value": "40",
        "value_step": "1.5",
        "win": "1",
    }
    assert document["rule_sets"][0]["parameters"] == {
        "external_game": "result",
        "recalculation": "frozen",
        "top_value": "",
    }
    # Keizer figures, and the engine's own explanation of them, in the archive's standings.
    assert {"KEIZER", "VALUE"} <= set(standings_before[-1][0]["values"])

    call_command("flush", "--noinput", verbosity=0)
    archive_import(data=first)
    again = Season.objects.get(slug=SLUG)
    assert season_archive_text(season=again).encode() == first.encode()
    assert again.parameters == PARAMETERS
    assert again.rule_sets.get(version=1).parameters == {
        "top_value": "",
        "external_game": "result",
        "recalculation": "frozen",
    }
    rows_after = _rows(again)
    for key, value in rows_before.items():
        assert rows_after[key] == value, key
    assert _standings(again) == standings_before


# --- TRF -----------------------------------------------------------------------------------------


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def _as_trf_reads_it(season_in: SeasonInput) -> SeasonInput:
    """The season as TRF carries it: club duty and an absence without notice (0 points, ``Z``
    and ``-``) read back as absences with notice (docs/formats.md)."""
    lossy = {EntryKind.CLUB_DUTY, EntryKind.ABSENT_NO_NOTICE}
    rounds = tuple(
        dataclasses.replace(
            rnd,
            entries=tuple(
                dataclasses.replace(entry, kind=EntryKind.ABSENT_NOTICE)
                if entry.kind in lossy
                else entry
                for entry in rnd.entries
            ),
        )
        for rnd in season_in.rounds
    )
    return dataclasses.replace(season_in, rounds=rounds)


@pytest.mark.django_db
def test_trf_export_and_import_of_a_keizer_season(tmp_path: Path, demo_club) -> None:
    original = Season.objects.get(slug="keizer-2026-2027")
    path = tmp_path / "keizer.trf"
    _run("export_trf", original.slug, "--out", str(path))
    assert path.read_text().startswith("012 Keizercompetitie 2026-2027")
    report = _run(
        "import_trf", str(path), "--season-slug", "keizer-kopie", "--system", "keizer",
        "--param", "recalculation=fixed_point", "--club", DEMO_CLUB_SLUG,
    )  # fmt: skip
    assert "24 participants (0 new members, 24 existing), 15 rounds, 151 games" in report
    copy = Season.objects.get(slug="keizer-kopie")
    assert copy.system == "keizer" and copy.parameters == {"recalculation": "fixed_point"}

    def games(season: Season) -> list[tuple]:
        return sorted(
            Game.objects.filter(round__season=season).values_list(
                "round__number", "white__member__name", "black__member__name", "result"
            )
        )

    assert games(copy) == games(original)
    # The copy's standings are the original's as TRF reads them, figure for figure.
    expected = engine.standings_after(_as_trf_reads_it(season_input(season=original)), 15)
    names = {p.id: p.member.name for p in Participant.objects.filter(season=original)}
    copied = json.loads(_run("standings", copy.slug, "--format", "json"), parse_float=Decimal)
    assert [row["name"] for row in copied["standings"]] == [
        names[row.participant_id] for row in expected.rows
    ]
    for row, want in zip(copied["standings"], expected.rows, strict=True):
        assert abs(fraction_from_text(str(row["score"])) - want.score) < Fraction(1, 10**10)
        assert fraction_from_text(str(row["values"]["VALUE"])) == want.values["VALUE"]
    # Without club duty or absences without notice the round trip would be exact: the copy
    # differs from the original only where the original has them.
    kinds = set(RoundEntry.objects.filter(round__season=original).values_list("kind", flat=True))
    assert {"club_duty", "absent_no_notice"} <= kinds


@pytest.mark.django_db
def test_season_commands_carry_a_keizer_season(tmp_path: Path, demo_club) -> None:
    text = _run("export_season", "keizer-2026-2027")
    path = tmp_path / "keizer.json"
    path.write_text(text.replace('"slug": "keizer-2026-2027"', '"slug": "keizer-kopie"'))
    assert "Imported season keizer-kopie" in _run("import_season", str(path))
    assert _run("standings", "keizer-kopie", "--format", "csv") == _run(
        "standings", "keizer-2026-2027", "--format", "csv"
    )
