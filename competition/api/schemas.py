"""The API's documents as types: django-ninja writes the OpenAPI document from them and checks
every answer against them. The payloads are built in :mod:`competition.api.payloads`."""

from __future__ import annotations

import datetime

from ninja import Schema
from pydantic import Field


class Figure(Schema):
    """A figure: exact for programs, as the pages write it for people."""

    exact: str = Field(description='The exact value: "58.25", "1/3" or "1356/7".')
    display: str = Field(description='As the pages show it in the language asked: "58,25", "1½".')


class Coded(Schema):
    code: str
    label: str


class Player(Schema):
    id: int
    name: str = Field(description="The name as the public pages show it.")


class ClubItem(Schema):
    slug: str
    name: str
    page: str = Field(description="The club's public page.")
    api: str


class SeasonItem(Schema):
    slug: str
    name: str
    club: str
    status: str = Field(description='"running" or "finished".')
    kind: str = Field(description='"ladder" or "round_robin".')
    system: str = Field(description='The ranking system\'s code, e.g. "internal-sb".')
    system_name: str
    start_date: datetime.date | None
    end_date: datetime.date | None
    page: str = Field(description="The season's standings page.")
    api: str


class ClubDetail(ClubItem):
    seasons: list[SeasonItem]


class SeasonLinks(Schema):
    standings: str
    rounds: str
    participants: str
    calendar: str
    embed: str = Field(description="The compact page for a frame on the club's own site.")


class SeasonDetail(SeasonItem):
    tiebreaks: list[Coded]
    unplayed_policy: str
    min_games: int
    rules_version: int
    data_version: int = Field(description="Moves with every change of the season's figures.")
    rounds: int = Field(description="How many rounds the season has so far.")
    after_round: int | None = Field(description="The last completed round, if any.")
    links: SeasonLinks


class StandingRow(Schema):
    rank: int
    participant_id: int
    name: str
    score: Figure
    game_points: Figure
    values: dict[str, Figure] = Field(
        description="Every figure of the system and every tie-break by code."
    )
    games: int
    eligible: bool = Field(description="Played enough games for a prize.")
    withdrawn_from_round: int | None
    movement: int | None = Field(description="Places up (+) or down (−) since the round before.")
    separated_by: str | None = Field(
        description="What placed this row below the one above with the same score."
    )
    separation: str | None = Field(description="The same in words.")
    page: str
    api: str


class Standings(Schema):
    club: str
    season: str
    system: str
    after_round: int | None = Field(description="None before the first completed round.")
    rounds: list[int] = Field(description="The rounds after which standings exist.")
    primary: str
    figures: list[Coded]
    tiebreaks: list[str]
    order_criteria: list[str]
    fingerprint: str
    rules_version: int
    standings: list[StandingRow]


class RoundItem(Schema):
    number: int
    date: datetime.date
    status: str = Field(description='"planned", "paired" (published) or "completed".')
    page: str
    api: str


class Board(Schema):
    board: int
    white: Player
    black: Player
    result: str = Field(description='"1-0", "1/2", "0-1", "1-0F", "0-1F", "0-0F" or "" (open).')
    result_display: str


class RoundWithoutGame(Schema):
    participant: Player
    kind: str = Field(description='"absent_notice", "absent_no_notice", "club_duty", "bye", …')
    kind_display: str
    points: Figure


class CorrectionItem(Schema):
    corrected_at: datetime.datetime
    board: int | None
    players: str
    before: str
    after: str
    reason: str


class RoundDetail(RoundItem):
    published: bool
    games: list[Board]
    entries: list[RoundWithoutGame]
    corrections: list[CorrectionItem]


class ParticipantItem(Schema):
    id: int
    name: str
    start_number: int | None
    joined_round: int
    withdrawn_from_round: int | None
    page: str
    api: str


class Standing(Schema):
    rank: int
    score: Figure
    game_points: Figure
    values: dict[str, Figure]
    games: int
    eligible: bool


class GameLine(Schema):
    round: int
    opponent: Player | None
    colour: str = Field(description='"w", "b", or "" for a round without a game.')
    result: str
    entry: str
    entry_display: str
    points: Figure
    played: bool
    contributions: dict[str, Figure] = Field(description="What the round adds to each figure.")


class ExplanationLine(Schema):
    round: int
    opponent: Player | None
    amount: Figure
    counted: bool = Field(description="False when a cut dropped it.")
    note: str
    parts: dict[str, str] = Field(description="The named inputs of the line, exact.")


class Explanation(Schema):
    code: str
    label: str
    total: Figure | None
    lines: list[ExplanationLine]


class HistoryPoint(Schema):
    round: int
    rank: int
    score: Figure


class ParticipantDetail(Schema):
    id: int
    name: str
    club: str
    season: str
    after_round: int | None
    rounds: list[int]
    withdrawn_from_round: int | None
    standing: Standing | None
    games: list[GameLine]
    explanations: list[Explanation]
    history: list[HistoryPoint]
    error: str


class Evening(Schema):
    date: datetime.date
    round: int | None = Field(
        description=(
            "The evening's round, as the site's pages and the members' calendar feed give it: "
            "the round played on that date (the first, when a rapid evening plays several), "
            "else the round still to come, counted on from the last round played; null for a "
            "past evening on which no round was played."
        )
    )
    on_calendar: bool = Field(
        description="False for a round played on a date outside the club's calendar."
    )
    note: str
    start: datetime.datetime = Field(
        description='When it starts, in Dutch time with its offset: "2027-01-14T20:00:00+01:00".'
    )


class Problem(Schema):
    detail: str


class ParameterProblem(Schema):
    type: str = Field(description='What is wrong, as a code: "int_parsing".')
    loc: list[str | int] = Field(description='Where: ["query", "round"], ["path", "number"].')
    msg: str = Field(description="What is wrong, in words (English).")


class InvalidParameters(Schema):
    """A parameter that is not what the endpoint takes (a round number that is no number)."""

    detail: list[ParameterProblem]


class RatingRow(Schema):
    rank: int = Field(description="Equal ratings share the rank.")
    member_id: int
    name: str = Field(description="The name as the public pages show it.")
    rating: int = Field(description="The club rating after the club evenings so far.")
    games: int = Field(description="Rated games in the club rating.")
    last_evening: datetime.date = Field(description="The last club evening he played.")
    change_month: int | None = Field(
        description="Change since the end of the previous month; null: no rating then."
    )
    change_season: int | None = Field(
        description="Change since before the season's first evening; null: no rating then."
    )
    page: str = Field(description="His rating page: every evening explained game by game.")


class RatingList(Schema):
    club: str
    as_of: datetime.date
    method: str = Field(description='"fide": FIDE Rating Regulations 8.3, one evening a period.')
    season: str | None = Field(description="The season the season's change is counted for.")
    season_start: datetime.date | None
    ratings: list[RatingRow]
