"""Tie-breaks: FIDE C.07 (acronyms with TRF-26 modifiers) and the club ones from seed 002.

A participant's score is his game points up to the round. How unplayed rounds enter Buchholz
and Sonneborn-Berger is the season's ``unplayed_policy`` (see :mod:`.unplayed`). Inside, every
figure is an exact integer (quarters for Buchholz, eighths for SB, halves for points); values
become :class:`~fractions.Fraction` only on the way out. docs/tiebreaks.md explains each code
with a worked example.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from operator import mul

from competition.scoring.fide_tables import rating_difference
from competition.scoring.model import Contribution, EntryKind, Result, SeasonInput
from competition.scoring.records import (
    RoundRecord,
    Row,
    ScoringInputError,
    SeasonRows,
    read_rows,
    records_by_participant,
)
from competition.scoring.systems.units import FractionCache
from competition.scoring.unplayed import (
    CATEGORY_NOTES,
    FIDE_POLICIES,
    UNPLAYED_POLICIES,
    Category,
    categorise,
    dummy_score,
    halves,
    is_regular_game,
    score_for_opponents,
)

__all__ = [
    "TIEBREAK_CODES",
    "TIEBREAK_LABELS",
    "UNPLAYED_POLICIES",
    "compute_tiebreaks",
    "direct_encounter",
    "explain_tiebreaks",
    "validate_tiebreaks",
]

TIEBREAK_LABELS: dict[str, tuple[str, str]] = {
    "BH": ("Weerstandspunten (Buchholz)", "Buchholz"),
    "BH/C1": ("Buchholz min laagste", "Buchholz Cut 1"),
    "BH/C2": ("Buchholz min 2 laagste", "Buchholz Cut 2"),
    "BH/M1": ("Median-Buchholz", "Median Buchholz 1"),
    "BH/M2": ("Median-Buchholz 2", "Median Buchholz 2"),
    "BH/MED": ("Median-Buchholz (1 of 2 weg)", "Median Buchholz (club)"),
    "BH/KS": ("Koya (som scores)", "Koya (sum of scores)"),
    "SB": ("Sonneborn-Berger", "Sonneborn-Berger"),
    "SB/C1": ("Sonneborn-Berger min laagste", "Sonneborn-Berger Cut 1"),
    "PS": ("Progressieve score", "Progressive score"),
    "KS": ("Koya", "Koya system"),
    "DE": ("Onderling resultaat", "Direct encounter"),
    "WIN": ("Aantal winstpunten", "Number of wins"),
    "WON": ("Gewonnen partijen", "Games won"),
    "BPG": ("Partijen met zwart", "Games played with black"),
    "BWG": ("Winst met zwart", "Games won with black"),
    "ARO": ("Gemiddelde rating tegenstanders", "Average rating of opponents"),
    "TPR": ("Toernooiprestatie", "Tournament performance rating"),
    "AOB": ("Gemiddelde Buchholz tegenstanders", "Average of opponents' Buchholz"),
    "KASH": ("Kashdan", "Kashdan"),
}
TIEBREAK_CODES: tuple[str, ...] = tuple(TIEBREAK_LABELS)

# Buchholz variants: how many lowest and highest contributions each cuts (C.07 Art. 14).
_BUCHHOLZ_CUTS: dict[str, tuple[int, int]] = {
    "BH": (0, 0),
    "BH/C1": (1, 0),
    "BH/C2": (2, 0),
    "BH/M1": (1, 1),
    "BH/M2": (2, 2),
}
_MEDIAN_SWITCH = 8  # seed 002: 1 + 1 cut up to 8 games, 2 + 2 from 9 games


def validate_tiebreaks(codes: Sequence[str]) -> tuple[str, ...]:
    """Normalise codes ("bh / c1" -> "BH/C1", "SB-C1" -> "SB/C1"); unknown ones raise ValueError."""
    normalised: list[str] = []
    for code in codes:
        clean = "".join(str(code).split()).upper().replace("-", "/")
        if clean not in TIEBREAK_LABELS:
            raise ValueError(
                f"unknown tie-break {code!r}; known codes: {', '.join(TIEBREAK_CODES)}"
            )
        normalised.append(clean)
    return tuple(normalised)


@dataclass(frozen=True, slots=True)
class _Item:
    """One Buchholz/SB contribution: a regular game or (FIDE) a dummy for an unplayed round."""

    round_number: int
    opponent: int | None  # None for a dummy opponent
    basis: int  # the opponent's (or dummy's) score, quarters
    result: int  # own points in the round, halves
    voluntary: bool  # C.07 16.1.2: counts for the 16.5 cut exception
    note: str = ""

    @property
    def sonneborn_berger(self) -> int:  # eighths
        return self.basis * self.result


@dataclass(frozen=True, slots=True)
class _Context:
    season: SeasonInput
    rounds: int
    policy: str
    records: dict[int, tuple[RoundRecord, ...]]
    categories: dict[int, tuple[Category, ...]]
    points: dict[int, int]  # game points, halves
    opponent_scores: dict[int, int]  # score used by opponents' BH/SB, quarters
    items: dict[int, tuple[_Item, ...]]
    ratings: dict[int, int | None]


def _context(season: SeasonInput, upto_round: int) -> _Context:
    policy = season.unplayed_policy
    if policy not in UNPLAYED_POLICIES:
        raise ScoringInputError(f"unknown unplayed-round policy {policy!r}")
    records = records_by_participant(season, upto_round)
    rounds = max((len(rows) for rows in records.values()), default=0)
    round_robin = season.round_robin
    categories = {pid: categorise(rows) for pid, rows in records.items()}
    points = {pid: sum(halves(r) for r in rows) for pid, rows in records.items()}
    opponent_scores = {
        pid: score_for_opponents(rows, categories[pid], policy=policy, round_robin=round_robin)
        for pid, rows in records.items()
    }
    fide = policy in FIDE_POLICIES
    items: dict[int, tuple[_Item, ...]] = {}
    for pid, rows in records.items():
        own_score = 2 * points[pid]
        own: list[_Item] = []
        for record, category in zip(rows, categories[pid], strict=True):
            if is_regular_game(category, record, round_robin=round_robin):
                assert record.opponent is not None
                own.append(
                    _Item(
                        record.round_number,
                        record.opponent,
                        opponent_scores[record.opponent],
                        halves(record),
                        False,
                        "" if category is Category.PLAYED else "forfeit, counted as a game (15.2)",
                    )
                )
            elif fide:
                basis, note = dummy_score(
                    category,
                    record,
                    own_score=own_score,
                    policy=policy,
                    rounds=rounds,
                    scores_for_opponents=opponent_scores,
                )
                own.append(
                    _Item(
                        record.round_number,
                        None,
                        basis,
                        halves(record),
                        category.voluntary,
                        f"{CATEGORY_NOTES[category]}; {note}",
                    )
                )
        items[pid] = tuple(own)
    ratings = {p.id: p.rating for p in season.participants}
    return _Context(
        season, rounds, policy, records, categories, points, opponent_scores, items, ratings
    )


# --- cuts (C.07 Art. 14 with the Art. 16.5 exception) --------------------------------------


def _cut_lowest(items: Sequence[_Item], alive: list[bool], fide: bool) -> tuple[int, str]:
    """Index of the least significant Buchholz contribution still counted (Art. 14.1, 16.5.1).

    Under FIDE, a participant with voluntary unplayed rounds loses the lowest of those instead,
    as it is never lower than the least significant value. Ties go to the earliest round.
    """
    candidates = [i for i, on in enumerate(alive) if on]
    voluntary = [i for i in candidates if items[i].voluntary] if fide else []
    if voluntary:
        index = min(voluntary, key=lambda i: items[i].basis)
        return index, "cut: lowest voluntary unplayed round (C.07 16.5.1)"
    index = min(candidates, key=lambda i: items[i].basis)
    return index, "cut: lowest"


def _cut_highest(items: Sequence[_Item], alive: list[bool]) -> int:
    candidates = [i for i, on in enumerate(alive) if on]
    return max(candidates, key=lambda i: (items[i].basis, -i))


def _buchholz_cuts(items: Sequence[_Item], code: str, fide: bool) -> dict[int, str]:
    """The contributions a Buchholz variant drops, by index, with the reason."""
    if code == "BH/MED":
        lowest = highest = 1 if len(items) <= _MEDIAN_SWITCH else 2
    else:
        lowest, highest = _BUCHHOLZ_CUTS[code]
    alive = [True] * len(items)
    cuts: dict[int, str] = {}
    # Never drop the last contribution: a cut is meant to discount extremes, not everything.
    for _ in range(lowest):
        if sum(alive) <= 1:
            break
        index, reason = _cut_lowest(items, alive, fide)
        alive[index] = False
        cuts[index] = reason
    for _ in range(highest):
        if sum(alive) <= 1:
            break
        index = _cut_highest(items, alive)
        alive[index] = False
        cuts[index] = "cut: highest"
    return cuts


def _sonneborn_berger_cut(items: Sequence[_Item], fide: bool) -> tuple[int, str] | None:
    """SB/C1 (Art. 14.1.1.d with 16.5.1): drop the contribution of the lowest-scored opponent.

    Under FIDE, when the lowest contribution of a voluntary unplayed round is not lower than
    that, it is dropped instead. Example: dummy 5 × 0 = 0 against lowest opponent 4.5 × 1 = 4.5:
    0 < 4.5, so the 4.5 is dropped.
    """
    if len(items) < 2:
        return None
    lowest_basis = min(item.basis for item in items)
    least = min(
        (i for i, item in enumerate(items) if item.basis == lowest_basis),
        key=lambda i: items[i].sonneborn_berger,
    )
    if fide:
        voluntary = [i for i, item in enumerate(items) if item.voluntary]
        if voluntary:
            lowest_voluntary = min(voluntary, key=lambda i: items[i].sonneborn_berger)
            if items[lowest_voluntary].sonneborn_berger >= items[least].sonneborn_berger:
                return lowest_voluntary, "cut: lowest voluntary unplayed round (C.07 16.5.1)"
    return least, "cut: lowest-scored opponent"


# --- the figures ---------------------------------------------------------------------------


def _round_half_up(numerator: int, denominator: int) -> int:
    return (2 * numerator + denominator) // (2 * denominator)


def _rated_games(ctx: _Context, pid: int) -> list[tuple[int, int]]:
    """(own points in halves, opponent rating) for rated games over the board (Art. 10)."""
    games: list[tuple[int, int]] = []
    for record, category in zip(ctx.records[pid], ctx.categories[pid], strict=True):
        if category is Category.PLAYED and record.opponent is not None:
            rating = ctx.ratings.get(record.opponent)
            if rating:
                games.append((halves(record), rating))
    return games


def _aro(games: Sequence[tuple[int, int]]) -> int:
    """ARO (Art. 10.1): the mean rating, rounded to the nearest integer, 0.5 up."""
    if not games:
        return 0
    return _round_half_up(sum(rating for _, rating in games), len(games))


def _tpr(games: Sequence[tuple[int, int]]) -> int:
    """TPR (Art. 10.2): ARO + dp(p), p = points / games rounded to hundredths (0.005 up)."""
    if not games:
        return 0
    scored = sum(points for points, _ in games)  # halves
    hundredths = _round_half_up(50 * scored, len(games))
    return _aro(games) + rating_difference(hundredths)


def _type_b_games(ctx: _Context, pid: int) -> list[tuple[RoundRecord, Category]]:
    """Games for WON/BPG/BWG: over the board; in a round robin forfeits too (Art. 15.2),
    except forfeit losses under the March 2026 edition."""
    games = []
    for record, category in zip(ctx.records[pid], ctx.categories[pid], strict=True):
        if category is Category.PLAYED:
            games.append((record, category))
        elif is_regular_game(category, record, round_robin=ctx.season.round_robin):
            if category is Category.FORFEIT_LOSS and ctx.policy == "fide-2026":
                continue
            games.append((record, category))
    return games


def _koya_opponents(ctx: _Context, pid: int) -> list[tuple[RoundRecord, bool]]:
    """Regular-game opponents with whether they scored at least half the maximum (Art. 9.2)."""
    out = []
    for record, category in zip(ctx.records[pid], ctx.categories[pid], strict=True):
        if is_regular_game(category, record, round_robin=ctx.season.round_robin):
            assert record.opponent is not None
            # points in halves >= rounds / 2 points  <=>  halves >= rounds
            out.append((record, ctx.points[record.opponent] >= ctx.rounds))
    return out


def _buchholz_value(ctx: _Context, pid: int, code: str) -> int:
    items = ctx.items[pid]
    cuts = _buchholz_cuts(items, code, ctx.policy in FIDE_POLICIES) if code != "BH" else {}
    return sum(item.basis for i, item in enumerate(items) if i not in cuts)


def _figure(ctx: _Context, pid: int, code: str, buchholz: dict[int, int]) -> Fraction:
    fide = ctx.policy in FIDE_POLICIES
    records = ctx.records[pid]
    if code in _BUCHHOLZ_CUTS or code == "BH/MED":
        return Fraction(_buchholz_value(ctx, pid, code), 4)
    if code == "SB":
        return Fraction(sum(item.sonneborn_berger for item in ctx.items[pid]), 8)
    if code == "SB/C1":
        items = ctx.items[pid]
        cut = _sonneborn_berger_cut(items, fide)
        total = sum(item.sonneborn_berger for item in items)
        if cut is not None:
            total -= items[cut[0]].sonneborn_berger
        return Fraction(total, 8)
    if code == "PS":
        running = total = 0
        for record in records:
            running += halves(record)
            total += running
        return Fraction(total, 2)
    if code == "KS":
        return Fraction(sum(halves(r) for r, strong in _koya_opponents(ctx, pid) if strong), 2)
    if code == "BH/KS":
        return Fraction(
            sum(ctx.points[r.opponent] for r, strong in _koya_opponents(ctx, pid) if strong), 2
        )
    if code == "WIN":
        return Fraction(sum(1 for r in records if halves(r) == 2))
    if code == "WON":
        return Fraction(sum(1 for r, _ in _type_b_games(ctx, pid) if halves(r) == 2))
    if code == "BPG":
        return Fraction(sum(1 for r, _ in _type_b_games(ctx, pid) if r.colour == "b"))
    if code == "BWG":
        return Fraction(
            sum(1 for r, _ in _type_b_games(ctx, pid) if r.colour == "b" and halves(r) == 2)
        )
    if code == "ARO":
        return Fraction(_aro(_rated_games(ctx, pid)))
    if code == "TPR":
        return Fraction(_tpr(_rated_games(ctx, pid)))
    if code == "AOB":
        opponents = [
            r.opponent
            for r, c in zip(records, ctx.categories[pid], strict=True)
            if c is Category.PLAYED and r.opponent is not None
        ]
        if not opponents:
            return Fraction(0)
        return Fraction(sum(buchholz[o] for o in opponents), 4 * len(opponents))
    if code == "KASH":
        kashdan = {2: 4, 1: 2, 0: 1}
        return Fraction(
            sum(
                kashdan[halves(r)]
                for r, c in zip(records, ctx.categories[pid], strict=True)
                if c is Category.PLAYED
            )
        )
    raise ValueError(f"tie-break {code!r} is not a per-participant figure")


def compute_tiebreaks(
    season: SeasonInput, *, upto_round: int, codes: Sequence[str]
) -> dict[int, dict[str, Fraction]]:
    """Every requested tie-break for every participant after ``upto_round``.

    ``DE`` is skipped: it only exists within a tied group (see :func:`direct_encounter`).
    Example (seed 003's round robin): C drew A (5), B (4½), D (4), E (2½) and beat F (1) and
    G (0): SB = 2½ + 2¼ + 2 + 1¼ + 1 + 0 = 9.
    """
    wanted = [code for code in validate_tiebreaks(codes) if code != "DE"]
    if season.unplayed_policy not in UNPLAYED_POLICIES:
        raise ScoringInputError(f"unknown unplayed-round policy {season.unplayed_policy!r}")
    sheet = _prepare_sheet(season, read_rows(season, upto_round))
    return _sheet_tiebreaks(sheet, upto_round, wanted)


def _compute_tiebreaks_by_contribution(
    season: SeasonInput, *, upto_round: int, codes: Sequence[str]
) -> dict[int, dict[str, Fraction]]:
    """:func:`compute_tiebreaks` one contribution at a time, as the explanations see them.

    The plain reading of the rules, kept as the reference the fast path is tested against.
    """
    wanted = [code for code in validate_tiebreaks(codes) if code != "DE"]
    ctx = _context(season, upto_round)
    buchholz: dict[int, int] = {}
    if "AOB" in wanted:
        buchholz = {pid: _buchholz_value(ctx, pid, "BH") for pid in ctx.records}
    return {
        pid: {code: _figure(ctx, pid, code, buchholz) for code in wanted} for pid in ctx.records
    }


def direct_encounter(
    season: SeasonInput, *, upto_round: int, group: Collection[int]
) -> dict[int, Fraction]:
    """Direct encounter within one tied group (C.07 Art. 6).

    When every pair in the group has met over the board (in a round robin a forfeit counts as
    a meeting, Art. 15.2; in a Swiss it does not, Art. 6.1.1), the value is the points scored
    against the other members, a pair that met more than once counting the average (6.1.2).
    Otherwise (Art. 6.3) only participants whose place is certain are separated: one who
    cannot be caught even if every missing game went to the others gets a higher value, the
    rest stay equal at 0. Ties left inside the group are for the next tie-break; apply this
    again to a tied subgroup (Art. 6.2). Example: A beat B, B beat C, A drew C: A 1½, B 1, C ½.
    """
    sheet = _prepare_sheet(season, read_rows(season, upto_round))
    return _sheet_direct_encounter(sheet, upto_round, group)


def _sheet_direct_encounter(
    sheet: _Sheet, upto_round: int, group: Collection[int]
) -> dict[int, Fraction]:
    """:func:`direct_encounter` on a prepared sheet."""
    members = set(group)
    meetings = _sheet_meetings(sheet, upto_round, members)
    mini: dict[int, Fraction] = {pid: Fraction(0) for pid in members}
    for (pid, _), scores in meetings.items():
        mini[pid] += Fraction(sum(scores), 2 * len(scores))
    if _all_met(meetings, members):
        return mini
    # Art. 6.3: peel off leaders nobody can catch.
    values = {pid: Fraction(0) for pid in members}
    remaining = set(members)
    place = len(members)
    while len(remaining) > 1:
        leader = next(
            (
                pid
                for pid in sorted(remaining)
                if all(
                    _mini_within(meetings, pid, remaining)
                    > _mini_within(meetings, other, remaining)
                    + _missing_within(meetings, other, remaining)
                    for other in remaining
                    if other != pid
                )
            ),
            None,
        )
        if leader is None:
            break
        values[leader] = Fraction(place)
        place -= 1
        remaining.discard(leader)
    return values


def _sheet_all_met(sheet: _Sheet, upto_round: int, group: Collection[int]) -> bool:
    """Whether every pair of ``group`` met (Art. 6.1; then Art. 6.2 may re-apply DE)."""
    members = set(group)
    return _all_met(_sheet_meetings(sheet, upto_round, members), members)


def _sheet_meetings(
    sheet: _Sheet, upto_round: int, members: set[int]
) -> dict[tuple[int, int], list[int]]:
    """Own points (halves) of each member against each other member, per regular game.

    In a Swiss a forfeit is no meeting (Art. 6.1.1); in a round robin it is (Art. 15.2).
    """
    unknown = members - sheet.position.keys()
    if unknown:
        raise ScoringInputError(f"unknown participants in tied group: {sorted(unknown)}")
    rounds = min(upto_round, sheet.rounds)
    ids = sheet.ids
    meetings: dict[tuple[int, int], list[int]] = {}
    for pid in members:
        person = sheet.participants[sheet.position[pid]]
        count = _counter(person.counters_after[rounds], _GAMES)
        for o, h in zip(person.game_opponents[:count], person.game_halves[:count], strict=True):
            if ids[o] in members:
                meetings.setdefault((pid, ids[o]), []).append(h)
    return meetings


def _all_met(meetings: dict[tuple[int, int], list[int]], members: set[int]) -> bool:
    return all((pid, other) in meetings for pid in members for other in members if other != pid)


def _mini_within(meetings: dict[tuple[int, int], list[int]], pid: int, pool: set[int]) -> Fraction:
    return sum(
        (
            Fraction(sum(meetings[(pid, other)]), 2 * len(meetings[(pid, other)]))
            for other in pool
            if (pid, other) in meetings
        ),
        Fraction(0),
    )


def _missing_within(meetings: dict[tuple[int, int], list[int]], pid: int, pool: set[int]) -> int:
    return sum(1 for other in pool if other != pid and (pid, other) not in meetings)


# --- explanations --------------------------------------------------------------------------


def explain_tiebreaks(
    season: SeasonInput, *, participant_id: int, upto_round: int, codes: Sequence[str]
) -> tuple[Contribution, ...]:
    """One line per opponent (or dummy, or round) for each requested code.

    Lines dropped by a cut have ``counted=False`` and a note saying which cut and why; the
    counted amounts of a code add up to its value (averages: ARO, TPR and AOB list the
    inputs of the average).
    """
    wanted = [code for code in validate_tiebreaks(codes) if code != "DE"]
    ctx = _context(season, upto_round)
    if participant_id not in ctx.records:
        raise ScoringInputError(f"unknown participant {participant_id}")
    fide = ctx.policy in FIDE_POLICIES
    pid = participant_id
    items = ctx.items[pid]
    records = ctx.records[pid]
    categories = ctx.categories[pid]
    lines: list[Contribution] = []

    def item_parts(item: _Item) -> dict[str, Fraction | str]:
        parts: dict[str, Fraction | str] = {
            "opponent_score": Fraction(item.basis, 4),
            "result": Fraction(item.result, 2),
        }
        if item.opponent is not None:
            parts["opponent_points"] = Fraction(ctx.points[item.opponent], 2)
        return parts

    for code in wanted:
        if code in _BUCHHOLZ_CUTS or code == "BH/MED":
            cuts = _buchholz_cuts(items, code, fide) if code != "BH" else {}
            for i, item in enumerate(items):
                note = "; ".join(n for n in (item.note, cuts.get(i, "")) if n)
                lines.append(
                    Contribution(
                        code,
                        item.round_number,
                        Fraction(item.basis, 4),
                        item.opponent,
                        item_parts(item),
                        i not in cuts,
                        note,
                    )
                )
        elif code in ("SB", "SB/C1"):
            cut = _sonneborn_berger_cut(items, fide) if code == "SB/C1" else None
            for i, item in enumerate(items):
                dropped = cut is not None and cut[0] == i
                note = "; ".join(n for n in (item.note, cut[1] if dropped else "") if n)
                lines.append(
                    Contribution(
                        code,
                        item.round_number,
                        Fraction(item.sonneborn_berger, 8),
                        item.opponent,
                        item_parts(item),
                        not dropped,
                        note,
                    )
                )
        elif code in ("KS", "BH/KS"):
            for record, strong in _koya_opponents(ctx, pid):
                assert record.opponent is not None
                amount = (
                    Fraction(halves(record), 2)
                    if code == "KS"
                    else Fraction(ctx.points[record.opponent], 2)
                )
                lines.append(
                    Contribution(
                        code,
                        record.round_number,
                        amount,
                        record.opponent,
                        {"opponent_points": Fraction(ctx.points[record.opponent], 2)},
                        strong,
                        "" if strong else "opponent scored less than half the maximum",
                    )
                )
        elif code == "PS":
            running = 0
            for record in records:
                running += halves(record)
                lines.append(
                    Contribution(
                        code,
                        record.round_number,
                        Fraction(running, 2),
                        record.opponent,
                        {"round_points": record.points},
                        True,
                        "score after this round",
                    )
                )
        elif code in ("WIN", "WON", "BPG", "BWG", "KASH"):
            lines.extend(_count_lines(ctx, pid, code))
        elif code in ("ARO", "TPR"):
            for record, category in zip(records, categories, strict=True):
                if category is Category.PLAYED and record.opponent is not None:
                    rating = ctx.ratings.get(record.opponent)
                    lines.append(
                        Contribution(
                            code,
                            record.round_number,
                            Fraction(rating or 0),
                            record.opponent,
                            {"result": record.points},
                            bool(rating),
                            "rating, averaged" if rating else "unrated opponent, left out",
                        )
                    )
        elif code == "AOB":
            for record, category in zip(records, categories, strict=True):
                if category is Category.PLAYED and record.opponent is not None:
                    lines.append(
                        Contribution(
                            code,
                            record.round_number,
                            Fraction(_buchholz_value(ctx, record.opponent, "BH"), 4),
                            record.opponent,
                            {},
                            True,
                            "opponent's Buchholz, averaged",
                        )
                    )
    return tuple(lines)


def _count_lines(ctx: _Context, pid: int, code: str) -> list[Contribution]:
    lines: list[Contribution] = []
    if code == "WIN":
        rows = [(r, c) for r, c in zip(ctx.records[pid], ctx.categories[pid], strict=True)]
        counted = [(r, c) for r, c in rows if halves(r) == 2]
    elif code == "KASH":
        counted = [
            (r, c)
            for r, c in zip(ctx.records[pid], ctx.categories[pid], strict=True)
            if c is Category.PLAYED
        ]
    else:
        games = _type_b_games(ctx, pid)
        if code == "WON":
            counted = [(r, c) for r, c in games if halves(r) == 2]
        elif code == "BPG":
            counted = [(r, c) for r, c in games if r.colour == "b"]
        else:
            counted = [(r, c) for r, c in games if r.colour == "b" and halves(r) == 2]
    for record, category in counted:
        amount = Fraction({2: 4, 1: 2, 0: 1}[halves(record)]) if code == "KASH" else Fraction(1)
        lines.append(
            Contribution(
                code,
                record.round_number,
                amount,
                record.opponent,
                {"result": record.points},
                True,
                CATEGORY_NOTES[category],
            )
        )
    return lines


# --- the fast path: every code from flat integer lists --------------------------------------
#
# The functions above follow C.07 one contribution at a time and make the explanations. The
# standings need every code for every participant after every round, so compute_tiebreaks and
# the engine use this path: the season is read once into a _Sheet of per-participant integer
# lists (halves, quarters, opponent positions, running totals per round), and one round's
# figures are one pass over each participant's contributions. tests/scoring/
# test_engine_equivalence.py checks that both paths give the same figures on random seasons.

_KASHDAN = (1, 2, 4)  # seed 002: Kashdan points for a loss, a draw and a win (0, 1, 2 halves)
_ZERO = Fraction(0)
# Shared by every computation: a figure's value recurs across rounds and seasons.
_FRACTIONS = {denominator: FractionCache(denominator, limit=50_000) for denominator in (1, 2, 4, 8)}
_NEEDS_ITEMS = frozenset({*_BUCHHOLZ_CUTS, "BH/MED", "SB", "SB/C1", "AOB"})


@dataclass(slots=True)
class _Participant:
    """One participant's tie-break inputs; ``*_after[r]`` is a running total after round r."""

    points_after: list[int]  # game points, halves
    opponent_score_after: list[int]  # the score his opponents' BH/SB use (policy), quarters
    progressive_after: list[int]  # PS, halves
    counters_after: list[int]  # the _COUNTER fields, packed (see _counter)
    rating_sum_after: list[int]  # sum of the rated opponents' ratings over the board
    game_opponents: list[int]  # regular games (C.07 15.2 in a round robin): opponent position
    game_halves: list[int]  # ... and own points in that game
    played_opponents: list[int]  # opponents over the board (AOB)
    # FIDE policies: one dummy per unplayed round (Art. 16.4): (own halves, voluntary,
    # position of the scheduled opponent of a forfeit or -1)
    dummies: list[tuple[int, bool, int]]


# Counters that only grow (how many games, wins, ...) travel together in one integer, 32 bits
# each, so that a single running sum per participant gives all of them after every round. No
# counter can reach 2**32 (that would take millions of rounds).
_COUNTER_BITS = 32
_COUNTER_MASK = (1 << _COUNTER_BITS) - 1
(
    _GAMES,  # regular games
    _PLAYED,  # games over the board
    _DUMMIES,  # dummies (FIDE policies)
    _WIN,  # rounds with a win's points (Art. 7.1)
    _WON,  # wins in type-B games (Art. 7.2)
    _BPG,  # type-B games with black (Art. 7.3)
    _BWG,  # type-B wins with black (Art. 7.4)
    _KASH,  # Kashdan points (seed 002)
    _RATED,  # games over the board against rated opponents (Art. 10)
    _RATED_HALVES,  # own points in those games, halves
) = range(10)
_COUNTED = {"WIN": _WIN, "WON": _WON, "BPG": _BPG, "BWG": _BWG, "KASH": _KASH}


def _counter(packed: int, field: int) -> int:
    """One counter out of a packed running sum."""
    return (packed >> (field * _COUNTER_BITS)) & _COUNTER_MASK


def _count(field: int, amount: int = 1) -> int:
    """``amount`` added to one counter, as a packed increment."""
    return amount << (field * _COUNTER_BITS)


@dataclass(frozen=True, slots=True)
class _Kind:
    """What a round's record means for the tie-breaks; shared by every record of the same kind."""

    category: Category  # REQUESTED_BYE stands for 16.2.3 and 16.2.5 (decided per round)
    halves: int | None  # None: the points are not a multiple of ½
    regular: bool  # a regular game (over the board; in a round robin also a forfeit)
    played: bool  # over the board
    forfeit: bool  # a forfeit win or loss (also a double forfeit)
    voluntary: bool  # C.07 16.1.2
    increment: int  # packed counters, without the rated-opponent ones
    rated_increment: int  # added for a game over the board against a rated opponent


@dataclass(slots=True)
class _Sheet:
    """A season's tie-break inputs for rounds 1..rounds, by participant position."""

    ids: list[int]
    position: dict[int, int]
    rounds: int
    policy: str
    bad_points: list[tuple[int, str]]  # (round index, message): points not in half steps
    participants: list[_Participant]
    # Fraction caches by denominator (values repeat from round to round).
    fractions: dict[int, FractionCache]


def _prepare_sheet(season: SeasonInput, rows: SeasonRows) -> _Sheet:
    """Read ``rows`` (see :func:`read_rows`) into a :class:`_Sheet` under the season's policy."""
    ids = list(rows.rows)
    position = {pid: p for p, pid in enumerate(ids)}
    sheet = _Sheet(
        ids,
        position,
        len(rows.round_numbers),
        season.unplayed_policy,
        [],
        [],
        _FRACTIONS,
    )
    ratings = {p.id: p.rating for p in season.participants}
    rating_of = {pid: ratings.get(pid) or 0 for pid in ids}  # 0: unrated
    # A record's kind depends only on (result, entry, points, colour). Results and entry kinds
    # are singletons and the same Fraction objects recur, so their identities make a cheap key
    # (an Enum's own hash is computed in Python, a Fraction's too).
    kinds: dict[tuple[int, int, int, str], _Kind] = {}
    for pid in ids:
        own_rows = rows.rows[pid]
        own_kinds = [kinds.get((id(row[3]), id(row[4]), id(row[0]), row[2])) for row in own_rows]
        for index, kind in enumerate(own_kinds):
            if kind is None:
                row = own_rows[index]
                key = (id(row[3]), id(row[4]), id(row[0]), row[2])
                kind = own_kinds[index] = kinds[key] = _kind_of(
                    row[3], row[4], row[0], row[2], season.round_robin, sheet.policy
                )
            if kind.halves is None:
                points = own_rows[index][0]
                message = (
                    f"round {rows.round_numbers[index]}: {points} points is not a multiple of 1/2"
                )
                sheet.bad_points.append((index, message))
        sheet.participants.append(_participant(sheet, own_rows, own_kinds, rating_of))
    return sheet


@lru_cache(maxsize=1024)
def _kind_of(
    result: Result | None,
    entry: EntryKind | None,
    points: Fraction,
    colour: str,
    round_robin: bool,
    policy: str,
) -> _Kind:
    """The :class:`_Kind` of a record (cached: the same few kinds recur in every season)."""
    (category,) = categorise((RoundRecord(0, points, result=result, entry=entry),))
    if category is Category.LATE_REQUESTED_BYE:
        category = Category.REQUESTED_BYE  # as the last round; decided per round later
    halves = {1: 2 * points.numerator, 2: points.numerator}.get(points.denominator)
    forfeit = category in (Category.FORFEIT_WIN, Category.FORFEIT_LOSS)
    played = category is Category.PLAYED
    regular = played or (round_robin and result is not None and forfeit)  # a game has an opponent
    win = halves == 2
    increment = _count(_GAMES, regular) + _count(_PLAYED, played) + _count(_WIN, win)
    if not regular and policy in FIDE_POLICIES:
        increment += _count(_DUMMIES)
    # WON, BPG, BWG count type-B games: over the board and, in a round robin, forfeits;
    # since March 2026 not forfeit losses (Art. 15.2).
    if regular and not (policy == "fide-2026" and category is Category.FORFEIT_LOSS):
        black = colour == "b"
        increment += _count(_WON, win) + _count(_BPG, black) + _count(_BWG, black and win)
    rated_increment = 0
    if played:
        assert halves is not None  # a game's points are 0, ½ or 1
        increment += _count(_KASH, _KASHDAN[halves])
        rated_increment = _count(_RATED) + _count(_RATED_HALVES, halves)
    return _Kind(
        category, halves, regular, played, forfeit, category.voluntary, increment, rated_increment
    )


def _participant(
    sheet: _Sheet,
    own_rows: Sequence[Row],
    own_kinds: list[_Kind],
    rating_of: dict[int, int],
) -> _Participant:
    """One participant's running totals and contribution lists, built with C-level helpers
    (comprehensions, ``accumulate``) rather than one Python step per round and figure."""
    policy = sheet.policy
    fide = policy in FIDE_POLICIES
    position = sheet.position
    halves_list = [kind.halves or 0 for kind in own_kinds]
    points_after = list(accumulate(halves_list, initial=0))

    # Score for opponents (Art. 16.3 and the club policies), per round in quarters.
    if fide or policy == "plain":
        opponent_score_after = [2 * total for total in points_after]
        if fide and any(kind.category is Category.REQUESTED_BYE for kind in own_kinds):
            # A requested bye followed only by voluntary unplayed rounds up to round r is
            # 16.2.5 after round r and counts as a draw: add (½ - points) for each of them.
            late = 0
            for index, kind in enumerate(own_kinds):
                if not kind.voluntary:
                    late = 0
                elif kind.category is Category.REQUESTED_BYE:
                    late += 2 - 2 * halves_list[index]
                if late:
                    opponent_score_after[index + 1] += late
    else:
        # unplayed-as-draw: an unplayed round counts ½ (2 quarters); half-value: half its points
        as_draw = policy == "unplayed-as-draw"
        opponent_score_after = list(
            accumulate(
                [
                    2 * h if kind.regular else 2 if as_draw else h
                    for h, kind in zip(halves_list, own_kinds, strict=True)
                ],
                initial=0,
            )
        )

    # Rated games over the board add to RATED, RATED_HALVES and the rating sum (Art. 10).
    pairs = list(zip(own_rows, own_kinds, strict=True))
    ratings = [rating_of[row[1]] if kind.played else 0 for row, kind in pairs]  # type: ignore[index]
    counters_after = list(
        accumulate(
            [
                kind.increment + kind.rated_increment if rating else kind.increment
                for kind, rating in zip(own_kinds, ratings, strict=True)
            ],
            initial=0,
        )
    )
    rating_sum_after = list(accumulate(ratings, initial=0))
    dummies: list[tuple[int, bool, int]] = []
    if fide:
        dummies = [
            (
                kind.halves or 0,
                kind.voluntary,
                position[row[1]] if kind.forfeit and row[1] is not None else -1,
            )
            for row, kind in pairs
            if not kind.regular
        ]
    return _Participant(
        points_after,
        opponent_score_after,
        list(accumulate(points_after[1:], initial=0)),
        counters_after,
        rating_sum_after,
        [position[row[1]] for row, kind in pairs if kind.regular],  # type: ignore[index]
        [kind.halves or 0 for kind in own_kinds if kind.regular],
        [position[row[1]] for row, kind in pairs if kind.played],  # type: ignore[index]
        dummies,
    )


def _cut_total(regular: list[int], voluntary: list[int], lowest: int, highest: int) -> int:
    """What a Buchholz cut drops (C.07 Art. 14 with 16.5), from ascending contributions.

    ``lowest`` times the least significant contribution goes, a voluntary unplayed round's
    first (16.5.1; only FIDE policies pass any), then ``highest`` times the largest; the last
    contribution always stays. Example: regular [4, 6, 9], voluntary [7], lowest 1: drops 7.
    """
    alive = len(regular) + len(voluntary)
    if not voluntary:  # the usual case: the lowest and the highest of one sorted list
        low = min(lowest, alive - 1) if alive > 1 else 0
        high = min(highest, alive - low - 1) if alive - low > 1 else 0
        return sum(regular[:low]) + (sum(regular[alive - high :]) if high else 0)
    dropped = next_regular = next_voluntary = 0
    for _ in range(lowest):
        if alive <= 1:
            return dropped
        if next_voluntary < len(voluntary):
            dropped += voluntary[next_voluntary]
            next_voluntary += 1
        else:
            dropped += regular[next_regular]
            next_regular += 1
        alive -= 1
    if highest:
        rest = regular[next_regular:]
        if next_voluntary < len(voluntary):
            rest = sorted(rest + voluntary[next_voluntary:])
        for k in range(1, highest + 1):
            if alive <= 1:
                break
            dropped += rest[-k]
            alive -= 1
    return dropped


def _sheet_tiebreaks(
    sheet: _Sheet, upto_round: int, codes: Sequence[str]
) -> dict[int, dict[str, Fraction]]:
    """Every code in ``codes`` (validated, no ``DE``) for every participant after the round."""
    policy = sheet.policy
    if policy not in UNPLAYED_POLICIES:
        raise ScoringInputError(f"unknown unplayed-round policy {policy!r}")
    rounds = min(upto_round, sheet.rounds)  # the rounds read, as records_by_participant does
    for index, message in sheet.bad_points:
        if index < rounds:
            raise ScoringInputError(message)
    fide = policy in FIDE_POLICIES
    capped = policy == "fide-2026"
    people = sheet.participants
    points = [person.points_after[rounds] for person in people]  # halves
    opponent_scores = [person.opponent_score_after[rounds] for person in people]  # quarters
    by_quarter, by_eighth = sheet.fractions[4], sheet.fractions[8]
    by_half, by_one = sheet.fractions[2], sheet.fractions[1]
    # Which codes go where in a participant's row of figures (decided once, not per participant).
    slot = {code: index for index, code in enumerate(codes)}
    buchholz_slot, sonneborn_slot, cut1_slot = slot.get("BH"), slot.get("SB"), slot.get("SB/C1")
    cuts = [(slot[code], *_BUCHHOLZ_CUTS[code]) for code in codes if code in _BUCHHOLZ_CUTS]
    median_slot = slot.get("BH/MED")
    koya_slot, koya_sum_slot = slot.get("KS"), slot.get("BH/KS")
    counted = [(slot[code], _COUNTED[code]) for code in codes if code in _COUNTED]
    progressive_slot, aro_slot, tpr_slot = slot.get("PS"), slot.get("ARO"), slot.get("TPR")
    aob_slot = slot.get("AOB")
    needs_items = any(code in _NEEDS_ITEMS for code in codes)
    needs_koya = koya_slot is not None or koya_sum_slot is not None
    needs_rated = aro_slot is not None or tpr_slot is not None

    figures: list[list[Fraction]] = []
    buchholz = [0] * len(people)
    two_rounds = 2 * rounds  # a draw per round in quarters, the 16.4.2 cap
    for p, person in enumerate(people):
        row: list[Fraction] = [_ZERO] * len(codes)
        figures.append(row)
        counters = person.counters_after[rounds]
        opponents = person.game_opponents[: _counter(counters, _GAMES)]
        results = person.game_halves[: len(opponents)]
        if needs_items:
            # The Buchholz/SB contributions (Art. 8.1, 9.1): the opponents' scores, then under
            # FIDE one dummy per own unplayed round (Art. 16.4; capped by 16.4.1/16.4.2 in 2026).
            bases = [opponent_scores[o] for o in opponents]
            own_results = list(results)
            volunteered: list[int] = []  # dummies of voluntary unplayed rounds (16.1.2)
            volunteered_results: list[int] = []
            if fide:
                own_score = 2 * points[p]
                for h, voluntary, scheduled in person.dummies[: _counter(counters, _DUMMIES)]:
                    basis = own_score
                    if capped:
                        cap = opponent_scores[scheduled] if scheduled >= 0 else two_rounds
                        if cap < basis:
                            basis = cap
                    if voluntary:
                        volunteered.append(basis)
                        volunteered_results.append(h)
                    else:
                        bases.append(basis)
                        own_results.append(h)
            total = sum(bases) + sum(volunteered)
            buchholz[p] = total
            products = list(map(mul, bases, own_results))  # eighths
            volunteered_products = list(map(mul, volunteered, volunteered_results))
            sonneborn_berger = sum(products) + sum(volunteered_products)
            if buchholz_slot is not None:
                row[buchholz_slot] = by_quarter[total]
            if sonneborn_slot is not None:
                row[sonneborn_slot] = by_eighth[sonneborn_berger]
            if cut1_slot is not None:
                cut = 0
                if len(products) + len(volunteered_products) >= 2:
                    # Art. 14.1.1.d: the contribution of the lowest-scored opponent (the smaller
                    # product among equals); 16.5.1: a voluntary unplayed round's instead when
                    # its contribution is not lower than that.
                    _, cut = min(
                        zip(bases + volunteered, products + volunteered_products, strict=True)
                    )
                    if volunteered_products and min(volunteered_products) >= cut:
                        cut = min(volunteered_products)
                row[cut1_slot] = by_eighth[sonneborn_berger - cut]
            if cuts or median_slot is not None:
                bases.sort()
                volunteered.sort()
                for index, lowest, highest in cuts:
                    dropped = _cut_total(bases, volunteered, lowest, highest)
                    row[index] = by_quarter[total - dropped]
                if median_slot is not None:
                    lowest = 1 if len(bases) + len(volunteered) <= _MEDIAN_SWITCH else 2
                    dropped = _cut_total(bases, volunteered, lowest, lowest)
                    row[median_slot] = by_quarter[total - dropped]
        if needs_koya:
            # Art. 9.2: games against opponents with at least half the maximum (halves >= rounds).
            koya = koya_scores = 0
            for o, h in zip(opponents, results, strict=True):
                if points[o] >= rounds:
                    koya += h
                    koya_scores += points[o]
            if koya_slot is not None:
                row[koya_slot] = by_half[koya]
            if koya_sum_slot is not None:
                row[koya_sum_slot] = by_half[koya_scores]
        for index, field in counted:
            row[index] = by_one[_counter(counters, field)]
        if progressive_slot is not None:
            row[progressive_slot] = by_half[person.progressive_after[rounds]]
        if needs_rated:
            rated = _counter(counters, _RATED)
            rated_points = _counter(counters, _RATED_HALVES)
            rating_sum = person.rating_sum_after[rounds]
            aro = tpr = 0
            if rated:
                aro = _round_half_up(rating_sum, rated)  # Art. 10.1
                # Art. 10.2: p = points / games rounded to hundredths, 0.005 up
                tpr = aro + rating_difference(_round_half_up(50 * rated_points, rated))
            if aro_slot is not None:
                row[aro_slot] = by_one[aro]
            if tpr_slot is not None:
                row[tpr_slot] = by_one[tpr]
    if aob_slot is not None:
        # Art. 8.2: the mean Buchholz of the opponents met over the board.
        for row, person in zip(figures, people, strict=True):
            met = person.played_opponents[: _counter(person.counters_after[rounds], _PLAYED)]
            if met:
                row[aob_slot] = Fraction(sum(buchholz[o] for o in met), 4 * len(met))
    return {
        pid: dict(zip(codes, row, strict=True)) for pid, row in zip(sheet.ids, figures, strict=True)
    }
