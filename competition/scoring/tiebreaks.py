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

from competition.scoring.fide_tables import rating_difference
from competition.scoring.model import Contribution, SeasonInput
from competition.scoring.records import RoundRecord, ScoringInputError, records_by_participant
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
    members = set(group)
    records = records_by_participant(season, upto_round)
    unknown = members - records.keys()
    if unknown:
        raise ScoringInputError(f"unknown participants in tied group: {sorted(unknown)}")
    meetings: dict[tuple[int, int], list[int]] = {}
    for pid in members:
        categories = categorise(records[pid])
        for record, category in zip(records[pid], categories, strict=True):
            if record.opponent in members and is_regular_game(
                category, record, round_robin=season.round_robin
            ):
                meetings.setdefault((pid, record.opponent), []).append(halves(record))
    mini: dict[int, Fraction] = {pid: Fraction(0) for pid in members}
    for (pid, _), scores in meetings.items():
        mini[pid] += Fraction(sum(scores), 2 * len(scores))
    missing = {
        pid: sum(1 for other in members if other != pid and (pid, other) not in meetings)
        for pid in members
    }
    if not any(missing.values()):
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
