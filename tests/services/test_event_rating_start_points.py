"""Issue 10: ARO and TPR use the event's ratings (FIDE C.07 10.1), and Van den Brink start
points are stored and imported exactly, also when they have many decimals or none at all."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from competition.models import Game, Member, Participant, Round, Season
from competition.scoring.engine import standings_after
from competition.selectors.common import season_input
from competition.services.standings import standings_recompute
from competition.services.transfer import (
    archive_import,
    season_archive_text,
    standings_document,
    trf_import,
)
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RoundFactory,
    SeasonFactory,
)
from tests.services.test_transfer import SMALL_TRF

pytestmark = pytest.mark.django_db


def _values(season: Season, name: str) -> dict[str, Fraction]:
    document = standings_document(season=season)
    row = next(r for r in document["standings"] if r["name"] == name)
    return {code: Fraction(str(value)) for code, value in row["values"].items()}


def _two_player_season(**season_fields: object) -> tuple[Season, Participant, Participant]:
    season = SeasonFactory(**season_fields)
    anna = ParticipantFactory(season=season, member__name="Anna", member__rating=2000)
    bert = ParticipantFactory(season=season, member__name="Bert", member__rating=1600)
    rnd = RoundFactory(season=season, number=1, status=Round.Status.COMPLETED)
    GameFactory(round=rnd, white=anna, black=bert, result=Game.Result.WHITE_WINS)
    standings_recompute(season=season)
    return season, anna, bert


def test_aro_uses_the_rating_frozen_at_enrolment() -> None:
    season, anna, _ = _two_player_season(system="points", tiebreaks=["ARO"])
    assert anna.rating == 2000  # enrolled with the member's rating
    assert _values(season, "Bert")["ARO"] == 2000
    # A new rating list raises Anna's rating; the season's figures keep the event rating.
    Member.objects.filter(pk=anna.member_id).update(rating=2300)
    standings_recompute(season=season)
    assert _values(season, "Bert")["ARO"] == 2000
    assert season_input(season=season).participants[0].rating == 2000


def test_trf_import_keeps_the_events_rating_and_the_members_own() -> None:
    club = ClubFactory()
    member = MemberFactory(club=club, name="Anna Aalders", rating=1500)
    trf_import(data=SMALL_TRF, season_slug="zomer", tiebreaks=["ARO"])
    anna = Participant.objects.get(season__slug="zomer", member=member)  # matched by name
    assert anna.rating == 1800  # the file's rating (columns 49-52)
    member.refresh_from_db()
    assert member.rating == 1500  # the member keeps his own rating
    # Bert met Anna over the board: his ARO is the event rating 1800, not 1500.
    assert _values(Season.objects.get(slug="zomer"), "Bert Bos")["ARO"] == 1800


# Van den Brink with factor 1/14; Anna (start 1356/7) beats Bert (start 199.831776) in round 1.
# Rank values are the start points. Anna: 1356/7 + 3 + 1/14 × (199.831776 − 1356/7);
# Bert: 199.831776 − 3 − 1/14 × (199.831776 − 1356/7), the exact negative of Anna's change.
ANNA_START = Fraction(1356, 7)
BERT_START = Fraction(199831776, 10**6)
DIFFERENCE = BERT_START - ANNA_START  # 42.822432 / 7
ANNA_AFTER = ANNA_START + 3 + DIFFERENCE / 14
BERT_AFTER = BERT_START - 3 - DIFFERENCE / 14


def test_exact_start_points_through_the_archive_and_the_engine() -> None:
    season, _, _ = _two_player_season(
        system="van-den-brink", unplayed_policy="fide-2024", parameters={"factor": "1/14"}
    )
    document = json.loads(season_archive_text(season=season))
    document["season"]["slug"] = "kopie"
    anna, bert = document["participants"]
    anna["start_points"], bert["start_points"] = "1356/7", "199.831776"
    anna["rating"] = 1950  # an event rating that is not the member's
    document["fingerprint"] = None  # edited on purpose: no longer the exported data
    archive_import(data=json.dumps(document))
    copy = Season.objects.get(slug="kopie")
    stored = dict(copy.participants.values_list("member__name", "start_points"))
    assert stored == {"Anna": "1356/7", "Bert": "199.831776"}
    assert copy.participants.get(member__name="Anna").rating == 1950
    engine_input = season_input(season=copy)
    names = {p.id: p.name for p in engine_input.participants}
    assert {p.name: p.start_points for p in engine_input.participants} == {
        "Anna": ANNA_START,
        "Bert": BERT_START,
    }
    rows = standings_after(engine_input, 1).rows
    assert {names[r.participant_id]: r.values["VDB"] for r in rows} == {
        "Anna": ANNA_AFTER,  # exact in the engine ...
        "Bert": BERT_AFTER,
    }
    assert ANNA_AFTER + BERT_AFTER == ANNA_START + BERT_START
    # ... and the archive gives the same text back.
    again = json.loads(season_archive_text(season=copy))
    assert [p["start_points"] for p in again["participants"]] == ["1356/7", "199.831776"]
    assert [p["rating"] for p in again["participants"]] == [1950, 1600]
