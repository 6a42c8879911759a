"""Every system's description comes from the season's parameters, in Dutch and English: the fixed
descriptions hold no number, and the sentences of ``competition.presentation.descriptions`` show the
season's own figures, never the defaults it changed."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from competition.presentation.descriptions import system_in_words
from competition.scoring.registry import SYSTEMS


def _defaults(key: str) -> dict[str, object]:
    return {spec.name: spec.default for spec in SYSTEMS[key].parameters}


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_no_fixed_description_states_a_number(key: str) -> None:
    assert re.findall(r"\d", SYSTEMS[key].description) == []


@pytest.mark.parametrize("key", sorted(SYSTEMS))
@pytest.mark.parametrize("language", ["nl", "en"])
def test_every_system_is_described_in_words(key: str, language: str) -> None:
    sentences = system_in_words(key, _defaults(key), participants=24, language=language)
    assert sentences and all(s.strip() for s in sentences)


VDB_CHANGED = {
    **_defaults("van-den-brink"),
    "win_part": Fraction(4),
    "loss_part": Fraction(-4),
    "factor": Fraction(5, 100),
    "games_per_update": 10,
    "start_points_top": Fraction(150),
    "start_points_step": Fraction(2),
}


@pytest.mark.parametrize(
    ("language", "present", "absent"),
    [
        (
            "nl",
            [
                "Beginpuntental: 150 voor de nummer één van vorig seizoen, 2 minder voor elke "
                "plaats daaronder (150, 148, 146, ...)",
                "Resultaatdeel: +4 voor winst, 0 voor remise, −4 voor verlies.",
                "0,05 × 10 = 0,5.",  # against a rank value 10 higher
                "Na elke 10 partijen wordt je rangwaarde gelijk aan je puntental.",
            ],
            ["0,07", "200", "199", "14 partijen", "+3", "−3"],
        ),
        (
            "en",
            [
                "Start points: 150 for last season's number one, 2 less for every place below "
                "(150, 148, 146, ...)",
                "Result part: +4 for a win, 0 for a draw, −4 for a loss.",
                "0.05 × 10 = 0.5.",
                "After every 10 games your rank value becomes your points.",
            ],
            ["0.07", "200", "199", "14 games", "+3", "−3"],
        ),
    ],
)
def test_van_den_brink_shows_the_changed_parameters(language, present, absent) -> None:
    text = " ".join(
        system_in_words("van-den-brink", VDB_CHANGED, participants=20, language=language)
    )
    assert [p for p in present if p not in text] == []
    assert [a for a in absent if a in text] == []


def test_van_den_brink_defaults_are_the_seed_figures() -> None:
    """Seed 001: 200, 199, 198; +3 / 0 / −3; 0.07 × 10 = 0.7; every 14 games."""
    text = " ".join(
        system_in_words("van-den-brink", _defaults("van-den-brink"), participants=20, language="en")
    )
    assert "(200, 199, 198, ...)" in text
    assert "+3 for a win, 0 for a draw, −3 for a loss" in text
    assert "0.07 × 10 = 0.7." in text
    assert "After every 14 games" in text
    assert "A forfeit changes nothing" in text


def test_van_den_brink_once_and_forfeits() -> None:
    values = {**_defaults("van-den-brink"), "update_mode": "once", "forfeits_count": True}
    text = " ".join(system_in_words("van-den-brink", values, participants=20, language="nl"))
    assert "Na je eerste 14 partijen wordt je rangwaarde gelijk aan je puntental; één keer." in text
    assert "Een reglementaire uitslag telt als partij" in text


@pytest.mark.parametrize(
    ("language", "defaults", "changed"),
    [
        (
            "nl",
            "Winst is 1 waard, remise 0,5, verlies 0.",
            "Winst is 3 waard, remise 1, verlies 0.",
        ),
        ("en", "A win is worth 1, a draw 0.5, a loss 0.", "A win is worth 3, a draw 1, a loss 0."),
    ],
)
def test_points(language: str, defaults: str, changed: str) -> None:
    assert system_in_words("points", _defaults("points"), participants=8, language=language) == [
        defaults
    ]
    values = {"win": Fraction(3), "draw": Fraction(1), "loss": Fraction(0)}
    assert system_in_words("points", values, participants=8, language=language) == [changed]


@pytest.mark.parametrize(
    ("language", "first", "joining"),
    [
        (
            "nl",
            "Interne punten: je partijpunten plus 1/3 voor elke ronde zonder partij aan het bord.",
            "Ronden voordat je instroomde leveren geen interne punten op.",
        ),
        (
            "en",
            "Internal points: your game points plus 1/3 for every round without a game over the "
            "board.",
            "Rounds before you joined earn no internal points.",
        ),
    ],
)
def test_internal_sb(language: str, first: str, joining: str) -> None:
    values = {"unplayed_value": Fraction(1, 3), "count_rounds_before_joining": False}
    assert system_in_words("internal-sb", values, participants=8, language=language) == [
        first,
        joining,
    ]
    default = system_in_words(
        "internal-sb", _defaults("internal-sb"), participants=8, language=language
    )
    assert ("0,5" if language == "nl" else "0.5") in default[0]


def test_an_unknown_system_has_no_words() -> None:
    assert system_in_words("nonsense", {}, participants=3, language="en") == []


@pytest.mark.parametrize(
    ("system", "values", "sentence"),
    [
        (
            "internal-sb",
            {"external_game": "result"},
            "An external game (a team match on club night) earns its result in internal points "
            "instead: 1 for a win, ½ for a draw, 0 for a loss.",
        ),
        (
            "van-den-brink",
            {"external_game": "equal_opponent"},
            "An external game (a team match on club night) counts as a game against an opponent "
            "of your own rank value: only the result part.",
        ),
        (
            "keizer",
            {"external_game": Fraction(1, 2)},
            "An external game (a team match on club night) earns {half} of your own value, "
            "whatever its result.",
        ),
        (
            "keizer",
            {"before_joining": "absent_with_notice", "absent_with_notice": Fraction(1, 4)},
            "A round before you joined counts as absent with notice ({quarter}).",
        ),
    ],
)
def test_external_games_and_late_joiners_in_words(
    system: str, values: dict[str, object], sentence: str
) -> None:
    """Issue 14's settings, when a season chose other than the default, in its own words."""
    from django.utils.translation import override

    from competition.scoring.registry import get_system
    from competition.templatetags.clubcomp import fraction_text

    full = get_system(system).validate(values)
    with override("en"):  # the numbers as the English page writes them
        numbers = {"half": fraction_text(Fraction(1, 2)), "quarter": fraction_text(Fraction(1, 4))}
    expected = sentence.format(**numbers)
    assert expected in system_in_words(system, full, participants=8, language="en")
