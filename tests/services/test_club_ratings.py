"""The club rating's ledger in the database: a season worked out by hand (tests/rating/
test_ledger.py has the arithmetic), which games count, the ledger kept by closing and
correcting rounds, and the property that a replay after a correction equals a recompute."""

from __future__ import annotations

import datetime
import itertools
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition.models import (
    Club,
    ClubRatingChange,
    ClubRatingRules,
    Game,
    Round,
    RoundEntry,
    Season,
)
from competition.scoring.exact import fraction_to_text
from competition.services.errors import ServiceError
from competition.services.evening import entry_correct
from competition.services.ratings import (
    club_rating_rules_set,
    club_ratings_replay,
    hundredths_text,
    start_list_by_club_rating,
)
from competition.services.rounds import result_record, round_complete
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RoundEntryFactory,
    RoundFactory,
    SeasonFactory,
)
from tests.profiles import examples
from tests.rating_data import HAND_WORKED, SEP10, SEP17, four_player_club

pytestmark = pytest.mark.django_db


def ledger(club: Club) -> list[tuple[str, str, int, str, int]]:
    return [
        (row.date.isoformat(), row.member.name, row.rating_before, row.change, row.rating_after)
        for row in ClubRatingChange.objects.filter(club=club)
        .select_related("member")
        .order_by("date", "member__name")
    ]


def rows(club: Club) -> list[dict[str, Any]]:
    return list(
        ClubRatingChange.objects.filter(club=club)
        .order_by("date", "member_id")
        .values(
            "member_id", "date", "rating_before", "rating_after", "change", "k",
            "games_before", "game_count", "reached_top", "games",
        )
    )  # fmt: skip


@pytest.fixture
def season_of_four() -> dict[str, Any]:
    return four_player_club()


def test_the_change_is_written_as_the_exact_text_of_competition_exact() -> None:
    for hundredths in range(-2000, 2001):
        assert hundredths_text(hundredths) == fraction_to_text(Fraction(hundredths, 100))


def test_the_hand_worked_season(season_of_four) -> None:
    club = season_of_four["club"]
    assert club_ratings_replay(club=club) == 8
    assert ledger(club) == HAND_WORKED
    p1 = ClubRatingChange.objects.get(member__name="P1 Eerste", date=SEP10)
    game = Game.objects.get(round__date=SEP10, board=1)
    assert p1.games == [
        {
            "game": game.pk,
            "season": season_of_four["season"].pk,
            "round": 2,
            "opponent": season_of_four["people"]["P3"].member_id,
            "opponent_rating": 1500,
            "difference": 312,
            "expected": "0.86",
            "score": "0.5",
        }
    ]
    assert (p1.k, p1.games_before, p1.game_count) == (40, 1, 1)


def test_a_fixed_start_rating_for_everyone(season_of_four) -> None:
    """All four start at 1600: 3 September P1 beats P2 (D 0, .50): ±.5 × 40 = ±20."""
    club = season_of_four["club"]
    club_rating_rules_set(
        club=club, k_new_player=40, k_standard=20, k_top=10, k_junior=40,
        start_rule="fixed", start_rating=1600, rapid_counts=False, external_counts=False,
    )  # fmt: skip
    assert ledger(club)[:2] == [
        ("2026-09-03", "P1 Eerste", 1600, "20", 1620),
        ("2026-09-03", "P2 Tweede", 1600, "-20", 1580),
    ]


def test_forfeits_drafts_and_rapid_nights_do_not_count_unless_chosen(season_of_four) -> None:
    club, people = season_of_four["club"], season_of_four["people"]
    r3 = RoundFactory(
        season=season_of_four["season"], number=3, date=SEP17, status=Round.Status.COMPLETED
    )
    GameFactory(round=r3, board=1, white=people["P1"], black=people["P2"], result="+-")
    rapid = SeasonFactory(club=club, slug="rapid", rounds_per_evening=3)
    draft = SeasonFactory(club=club, slug="concept", status=Season.Status.DRAFT)
    for other in (rapid, draft):
        a = ParticipantFactory(season=other, member=people["P1"].member, rating=1800)
        b = ParticipantFactory(season=other, member=people["P2"].member, rating=1650)
        rnd = RoundFactory(season=other, number=1, date=SEP17, status=Round.Status.COMPLETED)
        GameFactory(round=rnd, board=1, white=a, black=b, result="0-1")
    club_ratings_replay(club=club)
    assert ledger(club) == HAND_WORKED  # neither the forfeit nor the two other seasons
    club_rating_rules_set(
        club=club, k_new_player=40, k_standard=20, k_top=10, k_junior=40,
        start_rule="imported", start_rating=1500, rapid_counts=True, external_counts=False,
    )  # fmt: skip
    # The rapid game: P1 (1798) loses to P2 (1610): D = ±188, PD .74/.26; P1 −.74 × 40 =
    # −29.6 → −30 → 1768; P2 +.74 × 40 = 29.6 → 30 → 1640. The draft season still not.
    assert ledger(club)[8:] == [
        ("2026-09-17", "P1 Eerste", 1798, "-29.6", 1768),
        ("2026-09-17", "P2 Tweede", 1610, "29.6", 1640),
    ]


def test_an_external_game_counts_when_the_club_says_so(season_of_four) -> None:
    club, people = season_of_four["club"], season_of_four["people"]
    r3 = RoundFactory(
        season=season_of_four["season"], number=3, date=SEP17, status=Round.Status.COMPLETED
    )
    RoundEntryFactory(
        round=r3, participant=people["P3"], kind=RoundEntry.Kind.CLUB_DUTY, external_result="1"
    )
    club_ratings_replay(club=club)
    assert len(ledger(club)) == 8
    club_rating_rules_set(
        club=club, k_new_player=40, k_standard=20, k_top=10, k_junior=40,
        start_rule="imported", start_rating=1500, rapid_counts=False, external_counts=True,
    )  # fmt: skip
    # P3 (1514, 2 games, K 40) wins against "his own rating": +.5 × 40 = +20.
    assert ledger(club)[8:] == [("2026-09-17", "P3 Derde", 1514, "20", 1534)]
    entry = RoundEntry.objects.get(round=r3)
    (explained,) = ClubRatingChange.objects.get(date=SEP17).games
    assert explained == {
        "entry": entry.pk, "season": season_of_four["season"].pk, "round": 3, "opponent": None,
        "opponent_rating": 1514, "difference": 0, "expected": "0.5", "score": "1",
    }  # fmt: skip
    # The TD corrects it to a loss (a closed round): the ledger follows at once.
    entry_correct(
        entry_id=entry.pk, kind=RoundEntry.Kind.CLUB_DUTY, points=None, external_result="0",
        expected_version=entry.version, reason="verkeerd doorgegeven", user=None,
    )  # fmt: skip
    assert ledger(club)[8:] == [("2026-09-17", "P3 Derde", 1514, "-20", 1494)]


def test_the_rules_refuse_nonsense(season_of_four) -> None:
    club = season_of_four["club"]
    with translation.override("en"), pytest.raises(ServiceError, match="1 to 700"):
        club_rating_rules_set(
            club=club, k_new_player=0, k_standard=20, k_top=10, k_junior=40,
            start_rule="imported", start_rating=1500, rapid_counts=False, external_counts=False,
        )  # fmt: skip
    with pytest.raises(ServiceError):
        club_rating_rules_set(
            club=club, k_new_player=40, k_standard=20, k_top=10, k_junior=40,
            start_rule="guess", start_rating=1500, rapid_counts=False, external_counts=False,
        )  # fmt: skip
    assert not ClubRatingRules.objects.filter(club=club).exists()


def test_closing_and_correcting_a_round_keep_the_ledger(season_of_four) -> None:
    club, people = season_of_four["club"], season_of_four["people"]
    td = User.objects.create_user("td-rating")
    r1, r2 = season_of_four["rounds"]
    Round.objects.filter(pk=r2.pk).update(status=Round.Status.PAIRED)
    club_ratings_replay(club=club)
    assert len(ledger(club)) == 4  # only the completed first round
    round_complete(round=r2, user=td)
    assert ledger(club) == HAND_WORKED
    # A correction of the first evening: P3–P4 was 1-0, not a draw. 3 September: P3 (1500)
    # beats P4 (1500): ±.5 × 40 = ±20 → P3 1520, P4 1480. 10 September: P1 (1812) draws P3
    # (1520): D = ±292, PD .85/.15; P1 −.35 × 40 = −14 → 1798; P3 +.35 × 40 = 14 → 1534.
    # P4 (1480) beats P2 (1638): D = ±158, PD .71/.29; P4 +.71 × 40 = 28.4 → 28 → 1508;
    # P2 −28.4 → −28 → 1610.
    game = Game.objects.get(round=r1, board=2)
    result_record(
        game_id=game.pk, result="1-0", expected_version=game.version, user=td, reason="verkeerd"
    )
    assert ledger(club) == [
        ("2026-09-03", "P1 Eerste", 1800, "12", 1812),
        ("2026-09-03", "P2 Tweede", 1650, "-12", 1638),
        ("2026-09-03", "P3 Derde", 1500, "20", 1520),
        ("2026-09-03", "P4 Vierde", 1500, "-20", 1480),
        ("2026-09-10", "P1 Eerste", 1812, "-14", 1798),
        ("2026-09-10", "P2 Tweede", 1638, "-28.4", 1610),
        ("2026-09-10", "P3 Derde", 1520, "14", 1534),
        ("2026-09-10", "P4 Vierde", 1480, "28.4", 1508),
    ]
    assert people  # the fixture's participants played every game above


# --- replay after a correction equals a recompute -----------------------------------------------

_clubs = itertools.count()
results = st.sampled_from(["1-0", "1/2", "0-1", "+-"])
season_results = st.lists(
    st.lists(results, min_size=3, max_size=3), min_size=2, max_size=6
)  # rounds of three boards


def _club_with_seasons(first: list[list[str]], second: list[list[str]]) -> Club:
    """Two seasons of six members, one round a week, the second season's evenings between
    the first's (so corrections in either move later evenings of the other)."""
    club = ClubFactory(slug=f"replay-{next(_clubs)}", name="Replay")
    members = [
        MemberFactory(club=club, rating=1400 + 90 * i if i % 3 else None, birth_year=2000 + i)
        for i in range(6)
    ]
    for offset, (slug, season_rounds) in enumerate((("a", first), ("b", second))):
        season = SeasonFactory(club=club, slug=slug)
        people = [
            ParticipantFactory(season=season, member=m, start_rank=i + 1)
            for i, m in enumerate(members)
        ]
        for number, boards in enumerate(season_rounds, start=1):
            day = datetime.date(2026, 1, 5) + datetime.timedelta(days=7 * number + 3 * offset)
            rnd = RoundFactory(
                season=season, number=number, date=day, status=Round.Status.COMPLETED
            )
            for board, result in enumerate(boards, start=1):
                shift = (number + offset) % 6
                white, black = (
                    people[(2 * board - 2 + shift) % 6],
                    people[(2 * board - 1 + shift) % 6],
                )
                GameFactory(round=rnd, board=board, white=white, black=black, result=result)
    return club


@settings(
    max_examples=examples(100),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    first=season_results,
    second=season_results,
    corrections=st.lists(
        st.tuples(st.integers(min_value=0, max_value=100), results), min_size=1, max_size=3
    ),
)
def test_a_replay_after_corrections_equals_a_recompute(
    first: list[list[str]], second: list[list[str]], corrections: list[tuple[int, str]]
) -> None:
    club = _club_with_seasons(first, second)
    club_ratings_replay(club=club)
    games = list(
        Game.objects.filter(round__season__club=club).select_related("round").order_by("pk")
    )
    for pick, result in corrections:
        game = games[pick % len(games)]
        Game.objects.filter(pk=game.pk).update(result=result)
        club_ratings_replay(club=club, from_date=game.round.date)
    replayed = rows(club)
    club_ratings_replay(club=club)
    assert rows(club) == replayed


def test_the_club_rating_as_the_pairing_seed(season_of_four) -> None:
    """A new season's first round: everyone has the same standing, so the order is the start
    order, or with the season's setting the club ratings before the evening: P1 1798, P2 1610,
    P4 1528, P3 1514 (the hand-worked ledger)."""
    from competition.selectors.evening import pairing_request

    club, people = season_of_four["club"], season_of_four["people"]
    club_ratings_replay(club=club)
    new = SeasonFactory(club=club, slug="nieuw")
    order = ["P3", "P4", "P2", "P1"]  # start numbers the other way round
    for number, key in enumerate(order, start=1):
        ParticipantFactory(season=new, member=people[key].member, start_rank=number)
    rnd = RoundFactory(season=new, number=1, date=SEP17, status=Round.Status.PLANNED)
    by_start = [p.player_id for p in pairing_request(round=rnd).players]
    names = dict(new.participants.values_list("pk", "member__name"))
    assert [names[pid][:2] for pid in by_start] == order
    Season.objects.filter(pk=new.pk).update(seed_by_club_rating=True)
    rnd.refresh_from_db()
    seeded = [names[p.player_id][:2] for p in pairing_request(round=rnd).players]
    assert seeded == ["P1", "P2", "P4", "P3"]


# --- the start list by club rating -------------------------------------------------------------


def _next_season() -> tuple[Season, dict[str, Any]]:
    """The hand-worked club's next season, before its first round (17 September): P1–P4 from
    the first season, P5 new with an event rating of 1900, P6 new without any rating. Club
    ratings before the 17th: P1 1798, P2 1610, P4 1528, P3 1514."""
    data = four_player_club()
    club = data["club"]
    club_ratings_replay(club=club)
    season = SeasonFactory(club=club, slug="najaar", status=Season.Status.RUNNING)
    people = {
        key: ParticipantFactory(season=season, member=p.member, start_rank=number, rating=None)
        for number, (key, p) in enumerate(sorted(data["people"].items()), start=1)
    }
    people["P5"] = ParticipantFactory(
        season=season, member=MemberFactory(club=club, name="P5 Vijfde"), start_rank=5, rating=1900
    )
    people["P6"] = ParticipantFactory(
        season=season, member=MemberFactory(club=club, name="Aa Zesde"), start_rank=6, rating=None
    )
    RoundFactory(season=season, number=1, date=SEP17, status=Round.Status.PLANNED)
    return season, people


def test_the_start_list_is_numbered_by_club_rating() -> None:
    season, people = _next_season()
    assert start_list_by_club_rating(season=season) == 6
    numbers = {key: p.__class__.objects.get(pk=p.pk).start_rank for key, p in people.items()}
    # Club ratings first (1798, 1610, 1528, 1514), then the event rating, then the name.
    assert numbers == {"P1": 1, "P2": 2, "P4": 3, "P3": 4, "P5": 5, "P6": 6}


def test_the_start_list_stays_once_a_round_is_completed() -> None:
    data = four_player_club()
    club_ratings_replay(club=data["club"])
    before = {p.pk: p.start_rank for p in data["season"].participants.all()}
    with translation.override("en"), pytest.raises(ServiceError, match="completed rounds"):
        start_list_by_club_rating(season=data["season"])
    assert {p.pk: p.start_rank for p in data["season"].participants.all()} == before
