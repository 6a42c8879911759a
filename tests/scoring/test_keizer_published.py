"""Published Keizer tables reproduced from their own start lists (issue 12).

The tables asserted here are printed in the sources named beside them; nothing is worked by hand
except where a comment says a figure is implied (a ranking that follows from distinct scores, a
start list that follows from the printed pairing). The other assertions show that the table
needs the parameters chosen: another recalculation mode or start list misses it.

1. Schaakclub Haren, internal competition 2016/2017, the standings after round 1 ("Stand per
   16-9-2016"): https://schaakclubharen.nl/volwassenen/interne-competitie/nieuws/1693-eerste-ronde-interne-competitie
   16 players, top value 80, step 1, own value counted. Reproduced exactly with
   ``recalculation="fixed_point"`` (and only with it).
2. Keizer's own two-round example, ten players, top value 50, step 1, own value counted. The
   start list, round 1 and its scores are on Caissa Amsterdam's page
   http://www.caissa-amsterdam.nl/het-keizer-systeem/ ("Ranglijst 0", "Indeling/Uitslagen ronde
   1", "Waardering"). Round 2 (pairings and scores) is quoted from the repository
   gnutterts/chesspairing, scoring/keizer/keizer1956_test.go at commit
   82e472f39a1999acdff0bda70aa0279b947cc329, which cites "KBSB-vademecum (2018), pp. 129-130";
   we have not seen the vademecum itself. Reproduced exactly with
   ``recalculation="previous_values"`` (and only with it).
3. ESG (esgemmen.nl) 2026-27, an anonymised Sevilla export, gnutterts/chesspairing,
   scoring/keizer/testdata/esg_r2_anoniem.json at commit
   bfce762fd72f7511f2114ffced1fcbb00c55dac0. Only the round-1 figures of the players who played
   are reproduced: that club's program keeps every game at the value the opponent had when it
   was played (no recalculation) and gives absences fixed points, neither of which the engine
   offers (see ``test_esg_round_1_games``).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from competition.scoring.engine import standings_after, system_context
from competition.scoring.model import SeasonInput
from competition.scoring.systems.keizer import SETTLED_FIXED, Keizer
from tests.scoring.seasons import season_from_rounds

F = Fraction


def published_season(
    start_list: list[str],
    rounds: list[list[tuple]],
    *,
    joined: dict[str, int] | None = None,
    **parameters: object,
) -> SeasonInput:
    """The Keizer system with the start list in the order given; rounds name the players.

    A round item is ``(white, black, "1-0")`` or ``(player, entry kind)``.
    """
    ids = {name: number for number, name in enumerate(start_list, start=1)}
    numbered = [
        [
            (ids[item[0]], ids[item[1]], item[2]) if len(item) == 3 else (ids[item[0]], item[1], 0)
            for item in items
        ]
        for items in rounds
    ]
    joined_ids = {ids[name]: round_number for name, round_number in (joined or {}).items()}
    season = season_from_rounds(list(ids.values()), numbered, joined=joined_ids)
    participants = tuple(
        dataclasses.replace(participant, start_rank=number, name=start_list[number - 1])
        for number, participant in enumerate(season.participants, start=1)
    )
    return dataclasses.replace(
        season, participants=participants, system="keizer", parameters=parameters
    )


def table(season: SeasonInput, after_round: int) -> list[tuple[int, str, Fraction, Fraction]]:
    """(rank, name, KEIZER, VALUE) in rank order."""
    names = {participant.id: participant.name for participant in season.participants}
    return [
        (row.rank, names[row.participant_id], row.values["KEIZER"], row.values["VALUE"])
        for row in standings_after(season, after_round).rows
    ]


def scores(season: SeasonInput, after_round: int) -> dict[str, Fraction]:
    return {name: score for _, name, score, _ in table(season, after_round)}


# --- 1. Schaakclub Haren 2016/2017, after round 1 ------------------------------------------

# The page prints no start list; it is implied by the round-1 pairing. The eight boards pair
# start place k with place k + 8 ("top half against bottom half"), the top-half player having
# White on odd boards and Black on even boards: board 4, "Remco Kieft  Harry Gielen ½-½", thus
# puts Harry Gielen at place 4 and Remco Kieft at place 12. The rating column is not the start
# order (test_haren_start_list_is_not_the_rating_order).
HAREN_START = [
    "Raoul Suurmeijer", "Maarten Roorda", "Andreas Tasma", "Harry Gielen",
    "Carla Graafland", "Ton Bontsema", "Amjad Alshorman", "Petra Raaijen",
    "Harm van der Mossel", "Bart Romijn", "Frans Hindriks", "Remco Kieft",
    "Jaap Tuinman", "Anton Guinée", "Jibbe Blanksma", "Emile Bouwman",
]  # fmt: skip
# "Partijen in Ronde 1 - 16-9-2016" (white first), board by board.
HAREN_ROUND_1 = [
    ("Raoul Suurmeijer", "Harm van der Mossel", "1-0"),
    ("Bart Romijn", "Maarten Roorda", "0-1"),
    ("Andreas Tasma", "Frans Hindriks", "1-0"),
    ("Remco Kieft", "Harry Gielen", "1/2"),
    ("Jaap Tuinman", "Carla Graafland", "0-1"),
    ("Ton Bontsema", "Anton Guinée", "1-0"),
    ("Amjad Alshorman", "Jibbe Blanksma", "1-0"),
    ("Emile Bouwman", "Petra Raaijen", "0-1"),
]
# "Stand per 16-9-2016": Pos, Naam, Score, Wrde (the value of the place). The standings spell
# two names differently ("Harm van de Mossel", "Anton Guinee"); the pairing's spelling is used.
HAREN_STAND_1 = [
    (1, "Raoul Suurmeijer", F(151), F(80)),
    (2, "Maarten Roorda", F(149), F(79)),
    (3, "Andreas Tasma", F(147), F(78)),
    (4, "Carla Graafland", F(145), F(77)),
    (5, "Ton Bontsema", F(143), F(76)),
    (6, "Amjad Alshorman", F(141), F(75)),
    (7, "Petra Raaijen", F(139), F(74)),
    (8, "Harry Gielen", F(109), F(73)),
    (9, "Remco Kieft", F(217, 2), F(72)),  # "108,5"
    (10, "Harm van der Mossel", F(71), F(71)),
    (11, "Bart Romijn", F(70), F(70)),
    (12, "Frans Hindriks", F(69), F(69)),
    (13, "Jaap Tuinman", F(68), F(68)),
    (14, "Anton Guinée", F(67), F(67)),
    (15, "Jibbe Blanksma", F(66), F(66)),
    (16, "Emile Bouwman", F(65), F(65)),
]


def haren(**parameters: object) -> SeasonInput:
    return published_season(HAREN_START, [HAREN_ROUND_1], top_value=80, **parameters)


def test_haren_2016_round_1() -> None:
    """The whole published table: place, score and value of all sixteen.

    Every game is worth the opponent's value in the table it produces (a fixed point): Raoul
    Suurmeijer 80 + 71 (Harm van der Mossel, 10th) = 151; Harry Gielen 73 + ½ × 72 = 109, Remco
    Kieft 72 + ½ × 73 = 108½; a loser keeps his own value. The first pass, with the start
    values, gives 80 + 72 = 152 and the order above; the second pass reproduces it.
    """
    season = haren()
    assert table(season, 1) == HAREN_STAND_1
    context = system_context(season, 1)
    keizer = Keizer()
    last = keizer.run(context, keizer.validate(season.parameters))[-1]
    assert (last.passes, last.settled) == (2, SETTLED_FIXED)


@pytest.mark.parametrize("mode", ["previous_values", "frozen"])
def test_haren_table_is_not_one_pass(mode: str) -> None:
    """One pass with the start values gives Raoul Suurmeijer 80 + 72 = 152, not the published
    151: the club's program recalculates until the table reproduces itself."""
    assert scores(haren(recalculation=mode), 1)["Raoul Suurmeijer"] == 152


def test_haren_start_list_is_not_the_rating_order() -> None:
    """With the start list in the order of the printed ratings (Maarten Roorda 2123 first), the
    fixed point puts Maarten Roorda first with 80 + 71 = 151: not the published table."""
    by_rating = [
        "Maarten Roorda", "Andreas Tasma", "Raoul Suurmeijer", "Remco Kieft",
        "Carla Graafland", "Ton Bontsema", "Bart Romijn", "Frans Hindriks",
        "Harm van der Mossel", "Harry Gielen", "Amjad Alshorman", "Jaap Tuinman",
        "Petra Raaijen", "Anton Guinée", "Jibbe Blanksma", "Emile Bouwman",
    ]  # fmt: skip
    season = published_season(by_rating, [HAREN_ROUND_1], top_value=80)
    assert table(season, 1)[0] == (1, "Maarten Roorda", F(151), F(80))


# --- 2. Keizer's two-round example (Caissa Amsterdam; KBSB vademecum) ----------------------

# "Ranglijst 0": Jansen 50, Pietersen 49, ..., de Bruin 41 (chesspairing calls them A ... J).
EXAMPLE_START = [
    "Jansen", "Pietersen", "Bakker", "Slager", "de Vries",
    "de Zeeuw", "de Jonge", "de Oude", "de Wit", "de Bruin",
]  # fmt: skip
EXAMPLE_ROUNDS = [
    # "Indeling/Uitslagen ronde 1": 1 against 2, 3 against 4, ...
    [
        ("Jansen", "Pietersen", "1-0"),
        ("Bakker", "Slager", "1/2"),
        ("de Vries", "de Zeeuw", "0-1"),
        ("de Jonge", "de Oude", "1/2"),
        ("de Wit", "de Bruin", "0-1"),
    ],
    # chesspairing's round 2: A–F 0-1, J–C 1-0, D–G draw, H–B 0-1, E–I draw (the 1–2, 3–4, ...
    # pairing of the table after round 1).
    [
        ("Jansen", "de Zeeuw", "0-1"),
        ("de Bruin", "Bakker", "1-0"),
        ("Slager", "de Jonge", "1/2"),
        ("de Oude", "Pietersen", "0-1"),
        ("de Vries", "de Wit", "1/2"),
    ],
]
# Caissa's "Waardering ... Totaal" after round 1 (chesspairing: "A=99, B=49, C=71.5, ...").
EXAMPLE_ROUND_1 = {
    "Jansen": F(99), "Pietersen": F(49), "Bakker": F(143, 2), "Slager": F(71),
    "de Vries": F(46), "de Zeeuw": F(91), "de Jonge": F(131, 2), "de Oude": F(65),
    "de Wit": F(42), "de Bruin": F(83),
}  # fmt: skip
# chesspairing after round 2: "A=93, B=87, C=70, D=92, E=62.5, F=141, G=90, H=66.5, I=62, J=136".
EXAMPLE_ROUND_2 = {
    "Jansen": F(93), "Pietersen": F(87), "Bakker": F(70), "Slager": F(92),
    "de Vries": F(125, 2), "de Zeeuw": F(141), "de Jonge": F(90), "de Oude": F(133, 2),
    "de Wit": F(62), "de Bruin": F(136),
}  # fmt: skip


def example(mode: str) -> SeasonInput:
    return published_season(EXAMPLE_START, EXAMPLE_ROUNDS, top_value=50, recalculation=mode)


def test_keizer_example_round_1() -> None:
    """One pass with the start values: Jansen 50 + 49 (Pietersen) = 99, Bakker 48 + ½ × 47 =
    71½, de Bruin 41 + 42 = 83. The ranking follows from the (distinct) scores."""
    season = example("previous_values")
    assert scores(season, 1) == EXAMPLE_ROUND_1
    assert [name for _, name, _, _ in table(season, 1)] == [
        "Jansen", "de Zeeuw", "de Bruin", "Bakker", "Slager",
        "de Jonge", "de Oude", "Pietersen", "de Vries", "de Wit",
    ]  # fmt: skip


def test_keizer_example_round_2() -> None:
    """Both rounds with the values of the table after round 1 (Jansen 50, de Zeeuw 49, de Bruin
    48, Bakker 47, Slager 46, de Jonge 45, de Oude 44, Pietersen 43, de Vries 42, de Wit 41):
    de Zeeuw 49 + 42 + 50 = 141, Slager 46 + ½ × 47 + ½ × 45 = 92, de Vries 42 + 0 + ½ × 41 =
    62½."""
    season = example("previous_values")
    assert [value for *_, value in table(season, 1)] == list(range(50, 40, -1))
    assert scores(season, 2) == EXAMPLE_ROUND_2
    assert [name for _, name, _, _ in table(season, 2)] == [
        "de Zeeuw", "de Bruin", "Jansen", "Slager", "de Jonge",
        "Pietersen", "Bakker", "de Oude", "de Vries", "de Wit",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("mode", "after_round", "jansen"),
    [
        ("fixed_point", 1, F(93)),  # iterated: Pietersen drops to 8th, worth 43
        ("frozen", 2, F(99)),  # round 1 stays at the start values
    ],
)
def test_keizer_example_is_one_pass_per_round(
    mode: str, after_round: int, jansen: Fraction
) -> None:
    """The other modes miss the published figures (Jansen 99 after round 1, 93 after round 2)."""
    published = {1: F(99), 2: F(93)}[after_round]
    assert jansen != published
    assert scores(example(mode), after_round)["Jansen"] == jansen


# --- 3. ESG 2026-27, round 1 (Sevilla export) ----------------------------------------------

# The start order is the round-1 "vorigeWaarde" (60 for P01 down to 35): P01 ... P21, then the
# five players rated 1300 as P23 39, P24 38, P22 37, P25 36, P26 35.
ESG_START = [f"P{number:02d}" for number in range(1, 22)] + ["P23", "P24", "P22", "P25", "P26"]
ESG_ROUND_1 = [
    ("P16", "P03", "0-1"),
    ("P05", "P17", "1-0"),
    ("P18", "P06", "0-1"),
    ("P07", "P19", "1-0"),
    ("P21", "P10", "1-0"),
    ("P12", "P24", "0-1"),
    ("P22", "P14", "0-1"),
    ("P15", "P25", "1-0"),
    # "afwezig": reden "Extern" via splExtern (club duty) or splAfwezig (absent with notice);
    # P26 "Geen lid" (not yet a member) joins in round 2.
    *(("P01", "club_duty"), ("P04", "club_duty"), ("P09", "club_duty"), ("P11", "club_duty")),
    *(("P02", "absent_notice"), ("P08", "absent_notice"), ("P13", "absent_notice")),
    *(("P20", "absent_notice"), ("P23", "absent_notice")),
]
# "ranglijst" ronde 1, the sixteen who played: a win is worth the loser's start value.
ESG_GAMES_1 = {
    "P21": F(51), "P24": F(49), "P03": F(45), "P05": F(44), "P06": F(43), "P07": F(42),
    "P14": F(37), "P15": F(36),
    "P10": F(0), "P12": F(0), "P16": F(0), "P17": F(0), "P18": F(0), "P19": F(0),
    "P22": F(0), "P25": F(0),
}  # fmt: skip


def test_esg_round_1_games() -> None:
    """Top value 60, own value not counted: the sixteen round-1 game figures.

    Not reproducible with the engine, and so not asserted (the discrepancy, for the issue):

    - absences score fixed amounts: every splExtern 40 and every splAfwezig 20 (⅔ and ⅓ of the
      top value 60, whatever the player's own value), where the engine takes a fraction of the
      player's own value (P04, value 57, would get 38 for club duty);
    - no recalculation: round 2 keeps round 1's games at their old values (P03 "score": 100 =
      45 for beating P16, start value 45, + 55 for beating P07, P07's value after round 1),
      while every engine mode revalues round 1 (``previous_values`` gives P03 40 + 55 = 95);
    - the fixture's own notes call two figures Sevilla input errors ("Geen lid" 11.6655, the
      round-2 bye 24).
    """
    season = published_season(
        ESG_START,
        [ESG_ROUND_1],
        joined={"P26": 2},
        top_value=60,
        own_value_in_score=False,
        recalculation="previous_values",
    )
    round_1 = scores(season, 1)
    assert {name: round_1[name] for name in ESG_GAMES_1} == ESG_GAMES_1
