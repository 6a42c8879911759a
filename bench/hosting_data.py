"""The clubs of ``bench/hosting.py``: each club's members, seasons, rounds, games, absences,
history and standings, made from the club's number alone (seeded), with fixed primary keys.

Club ``c`` has the same rows, with the same keys, whichever other clubs the database holds: the
measured club is identical in the database holding it alone and in the one holding 700 clubs.
Keys are laid out by position (club, season, round, board), so that no lookup is needed while
the rows are written; the gaps this leaves are harmless.

The standings snapshots come from the real engine (``competition.scoring``), run on the rows
made here, as ``standings_recompute`` would store them; the history rows are those the TD's
services would leave: one when the pairing made the board, one when its result was saved, and a
correction with its reason on two boards per season.
"""

from __future__ import annotations

import datetime
import json
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

ROUNDS_MAX_BOARDS = 64  # key room per round (up to 128 members)
SEASON_NAMES = (
    "Interne competitie 2023-2024",
    "Interne competitie 2024-2025",
    "Interne competitie 2025-2026",
)
SEASON_SLUGS = ("interne-2023", "interne-2024", "interne-2025")
FIRST_NAMES = (
    "Anna",
    "Bart",
    "Carla",
    "Daan",
    "Eva",
    "Frank",
    "Gerrit",
    "Hanna",
    "Ivo",
    "Joke",
    "Kees",
    "Lotte",
    "Maarten",
    "Nina",
    "Olaf",
    "Petra",
    "Ruud",
    "Sanne",
    "Tom",
    "Wim",
)
LAST_NAMES = (
    "de Vries",
    "Jansen",
    "Bakker",
    "Visser",
    "Smit",
    "Meijer",
    "de Boer",
    "Mulder",
    "de Groot",
    "Bos",
    "Vos",
    "Peters",
    "Hendriks",
    "van Leeuwen",
    "Dekker",
    "Brouwer",
)
RESULTS = ("1-0", "1/2", "0-1", "+-", "-+")
RESULT_WEIGHTS = (40, 20, 37, 2, 1)
ABSENCES = ("absent_notice", "absent_no_notice", "club_duty")
ABSENCE_WEIGHTS = (70, 15, 15)
USER_KEY_BASE = 1_000  # the clubs' TD accounts and groups start here (clear of any others)


@dataclass(frozen=True)
class Shape:
    members: int = 60
    seasons: int = 3
    rounds: int = 35
    attendance: float = 0.75


@dataclass
class ClubRows:
    """Plain rows of one club: dicts for the ORM tables, COPY text lines for the big ones."""

    club: dict[str, Any]
    td_user: dict[str, Any]
    groups: list[dict[str, Any]]
    members: list[dict[str, Any]]
    seasons: list[dict[str, Any]]
    rules: list[dict[str, Any]]
    participants: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    evenings: list[dict[str, Any]]
    copy: dict[str, list[str]] = field(default_factory=dict)


# The tables written with COPY and their columns, in the order of the lines made below.
COPY_COLUMNS = {
    "competition_game": (
        "id", "round_id", "board", "white_id", "black_id", "result", "version", "updated_at",
        "updated_by_id", "fixed_by_td",
    ),
    "competition_roundentry": (
        "id", "round_id", "participant_id", "kind", "points", "note", "external_result",
        "version", "updated_at", "updated_by_id", "fixed_by_td",
    ),
    "competition_historicalgame": (
        "history_id", "id", "round_id", "board", "white_id", "black_id", "result", "version",
        "updated_at", "updated_by_id", "fixed_by_td", "history_date", "history_type",
        "history_change_reason", "history_user_id",
    ),
    "competition_historicalroundentry": (
        "history_id", "id", "round_id", "participant_id", "kind", "points", "note",
        "external_result", "version", "updated_at", "updated_by_id", "fixed_by_td",
        "history_date", "history_type", "history_change_reason", "history_user_id",
    ),
    "competition_standingssnapshot": (
        "id", "season_id", "round_number", "data_version", "rules_version", "rows",
        "computed_at", "fingerprint",
    ),
}  # fmt: skip


def club_slug(index: int) -> str:
    return f"club-{index:04d}"


def season_key(shape: Shape, club: int, season: int) -> int:
    return club * shape.seasons + season + 1


def round_key(shape: Shape, season_id: int, number: int) -> int:
    return (season_id - 1) * shape.rounds + number


def _text(value: Any) -> str:
    """A value in PostgreSQL's COPY text format."""
    if value is None:
        return r"\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    text = str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _line(*values: Any) -> str:
    return "\t".join(_text(v) for v in values) + "\n"


def club_rows(index: int, shape: Shape) -> ClubRows:
    """Every row of club ``index`` (seeded by it: the same club gives the same rows)."""
    from competition.scoring import model as scoring
    from competition.scoring.engine import standings_history
    from competition.scoring.fingerprint import season_fingerprint
    from competition.services.standings import row_to_json

    rng = random.Random(index)
    club_id = index + 1
    user_id = USER_KEY_BASE + index
    td_group_id, admin_group_id = USER_KEY_BASE + 2 * index, USER_KEY_BASE + 2 * index + 1
    club = {
        "id": club_id,
        "name": f"Schaakclub {index:04d}",
        "slug": club_slug(index),
        "td_group_id": td_group_id,
        "admin_group_id": admin_group_id,
    }
    groups = [
        {"id": td_group_id, "name": f"Wedstrijdleiders {club['name']}"},
        {"id": admin_group_id, "name": f"Beheerders {club['name']}"},
    ]
    td_user = {"id": user_id, "username": f"wl-{club_slug(index)}", "group_id": td_group_id}
    member_base = index * shape.members
    members = [
        {
            "id": member_base + i + 1,
            "club_id": club_id,
            "name": f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)} {i + 1:02d}",
            "knsb_id": f"{8_000_000 + member_base + i}",
            "rating": rng.randint(1200, 2300),
            "birth_year": rng.randint(1945, 2012),
        }
        for i in range(shape.members)
    ]
    seasons, rules, participants, rounds, evenings = [], [], [], [], []
    copy: dict[str, list[str]] = {table: [] for table in COPY_COLUMNS}
    for s in range(shape.seasons):
        season_id = season_key(shape, index, s)
        last = s == shape.seasons - 1  # the running season: its last round is tonight's
        year = 2023 + s
        start = datetime.date(year, 9, 5)
        seasons.append(
            {
                "id": season_id,
                "club_id": club_id,
                "name": SEASON_NAMES[s % len(SEASON_NAMES)],
                "slug": SEASON_SLUGS[s % len(SEASON_SLUGS)] if s < len(SEASON_SLUGS) else f"s{s}",
                "start_date": start,
                "end_date": start + datetime.timedelta(weeks=shape.rounds),
                "status": "running" if last else "finished",
                "data_version": 1,
                "system": "internal-sb",
                "tiebreaks": ["BH", "WIN"],
                "unplayed_policy": "fide-2024",
                "min_games": 10,
            }
        )
        rules.append(
            {
                "id": season_id,
                "season_id": season_id,
                "version": 1,
                "valid_from": datetime.datetime(year, 9, 1, tzinfo=datetime.UTC),
                "system": "internal-sb",
                "tiebreaks": ["BH", "WIN"],
                "unplayed_policy": "fide-2024",
                "min_games": 10,
            }
        )
        base = (season_id - 1) * shape.members
        people = [
            {
                "id": base + i + 1,
                "season_id": season_id,
                "member_id": m["id"],
                "start_rank": i + 1,
                "rating": m["rating"],
            }
            for i, m in enumerate(sorted(members, key=lambda m: -m["rating"]))
        ]
        participants += people
        names = {p["id"]: next(m["name"] for m in members if m["id"] == p["member_id"])
                 for p in people}  # fmt: skip
        engine_rounds = []
        corrected = {5, 20}  # board 1 of these rounds was corrected after the round closed
        for number in range(1, shape.rounds + 1):
            rid = round_key(shape, season_id, number)
            date = start + datetime.timedelta(weeks=number - 1)
            is_open = last and number == shape.rounds
            rounds.append(
                {
                    "id": rid,
                    "season_id": season_id,
                    "number": number,
                    "date": date,
                    "status": "paired" if is_open else "completed",
                }
            )
            evenings.append(
                {"id": rid, "season_id": season_id, "date": date, "round_number": number}
            )
            evening = datetime.datetime(
                date.year, date.month, date.day, 19, 30, tzinfo=datetime.UTC
            )
            present = [p["id"] for p in people if rng.random() < shape.attendance]
            absent = [p["id"] for p in people if p["id"] not in set(present)]
            rng.shuffle(present)
            games, entries = [], []
            for board, i in enumerate(range(0, len(present) - 1, 2), start=1):
                result = rng.choices(RESULTS, RESULT_WEIGHTS)[0]
                saved = not is_open or board % 2 == 0  # tonight: half the boards are in
                games.append((board, present[i], present[i + 1], result if saved else ""))
            kinds = [(pid, rng.choices(ABSENCES, ABSENCE_WEIGHTS)[0], "0") for pid in absent]
            if len(present) % 2:
                kinds.append((present[-1], "bye", "1"))
            for j, (pid, kind, points) in enumerate(kinds):
                entries.append((pid, kind, points))
                eid = (rid - 1) * 2 * ROUNDS_MAX_BOARDS + j + 1
                at = evening + datetime.timedelta(minutes=j % 30)
                copy["competition_roundentry"].append(
                    _line(eid, rid, pid, kind, points, "", "", 1, at, user_id, False)
                )
                copy["competition_historicalroundentry"].append(
                    _line(
                        eid,
                        eid,
                        rid,
                        pid,
                        kind,
                        points,
                        "",
                        "",
                        1,
                        at,
                        user_id,
                        False,
                        at,
                        "+",
                        None,
                        user_id,
                    )
                )
            for board, white, black, result in games:
                gid = (rid - 1) * ROUNDS_MAX_BOARDS + board
                paired_at = evening + datetime.timedelta(minutes=1)
                saved_at = evening + datetime.timedelta(hours=2, minutes=board)
                history = [(paired_at, "+", None, "", 1)]
                final = result
                if result:
                    history.append((saved_at, "~", None, result, 2))
                    if board == 1 and number in corrected:
                        final = "0-1" if result == "1-0" else "1-0"
                        history.append(
                            (
                                saved_at + datetime.timedelta(days=2),
                                "~",
                                "Verkeerd ingevoerd",
                                final,
                                3,
                            )
                        )
                at, version = history[-1][0], history[-1][4]
                copy["competition_game"].append(
                    _line(gid, rid, board, white, black, final, version, at, user_id, False)
                )
                for h, (when, kind, reason, value, v) in enumerate(history):
                    copy["competition_historicalgame"].append(
                        _line(
                            3 * gid + h,
                            gid,
                            rid,
                            board,
                            white,
                            black,
                            value,
                            v,
                            when,
                            user_id,
                            False,
                            when,
                            kind,
                            reason,
                            user_id,
                        )
                    )
                games[games.index((board, white, black, result))] = (board, white, black, final)
            if not is_open:
                engine_rounds.append(
                    scoring.Round(
                        number=number,
                        games=tuple(
                            scoring.Game(white=w, black=b, result=scoring.Result(r), board=bd)
                            for bd, w, b, r in games
                        ),
                        entries=tuple(
                            scoring.Entry(
                                participant=pid, kind=scoring.EntryKind(k), points=Fraction(pts)
                            )
                            for pid, k, pts in entries
                        ),
                    )
                )
        season_in = scoring.SeasonInput(
            participants=tuple(
                scoring.Participant(
                    id=p["id"], name=names[p["id"]], start_rank=p["start_rank"], rating=p["rating"]
                )
                for p in people
            ),
            rounds=tuple(engine_rounds),
            system="internal-sb",
            tiebreaks=("BH", "WIN"),
            unplayed_policy="fide-2024",
            min_games=10,
        )
        fingerprint = season_fingerprint(season_in)
        computed = datetime.datetime(year + 1, 6, 1, tzinfo=datetime.UTC)
        for standings in standings_history(season_in).history:
            rows = json.dumps([row_to_json(row) for row in standings.rows], separators=(",", ":"))
            copy["competition_standingssnapshot"].append(
                _line(
                    round_key(shape, season_id, standings.round_number),
                    season_id,
                    standings.round_number,
                    1,
                    1,
                    rows,
                    computed,
                    fingerprint,
                )
            )
    return ClubRows(
        club, td_user, groups, members, seasons, rules, participants, rounds, evenings, copy
    )
