"""The standings' legend: a line for every column the table shows, and why equal scores are
ordered as they are, in the reader's language.

Made from the columns actually shown (a season without tie-breaks has no tie-break lines, a
season without a prize minimum no prize line), so the legend never explains a column that is
not there nor leaves one out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.presentation.labels import figure_label
from competition.presentation.ties import EARLIER_STANDINGS
from competition.scoring.tiebreaks import TIEBREAK_LABELS

# What each figure of a system means (the column's name alone says too little).
FIGURE_EXPLANATIONS: dict[str, Promise] = {
    "SB": gettext_lazy(
        "the sum over your games of your score × the opponent's internal points now"
    ),
    "IP": gettext_lazy("game points plus the value of every round without a game over the board"),
    "VDB": gettext_lazy("start points plus the result part and compensation of every game"),
    "RV": gettext_lazy(
        "the rank value your next game's compensation is computed from; it becomes your "
        "points after a fixed number of games"
    ),
    "PTS": gettext_lazy("points for wins, draws and losses, plus byes and other entries"),
    "KEIZER": gettext_lazy(
        "your opponents' values for your results, plus your own value for rounds without a game"
    ),
    "VALUE": gettext_lazy("the value of your place now"),
}


def criterion_label(code: str) -> str:
    """The name of what orders equal scores: a tie-break's own name first (``SB`` as a
    tie-break is Sonneborn-Berger, not the internal competition's SB score), else the figure's.
    """
    name = TIEBREAK_LABELS.get(code)
    return _(name) if name else figure_label(code)


def separation_labels(codes: Iterable[str]) -> dict[str, tuple[str, str]]:
    """For each criterion that can separate equal scores: the short text on the row and its
    tooltip. Example (English): "SB" → ("SB", "Same score as the participant above;
    Sonneborn-Berger decided.")."""
    labels = {
        code: (
            code,
            _("Same score as the participant above; %(criterion)s decided.")
            % {"criterion": criterion_label(code)},
        )
        for code in codes
    }
    labels[EARLIER_STANDINGS] = (
        _("earlier"),
        _("Equal on every figure; the standings after the round before decided."),
    )
    return labels


def order_sentence(criteria: Sequence[str], *, strict: bool) -> str:
    """How equal scores are ordered, e.g. "Equal scores are ordered by Internal points (IP),
    then Buchholz Cut 1 (BH/C1); participants equal on all of them share their place."
    ``strict``: the system ranks everyone apart (Keizer), the standings after the round before
    deciding last."""
    if criteria:
        order = _(", then ").join(f"{criterion_label(code)} ({code})" for code in criteria)
        if strict:
            return _(
                "Equal scores are ordered by %(order)s, then by the standings after the round "
                "before."
            ) % {"order": order}
        return _(
            "Equal scores are ordered by %(order)s; participants equal on all of them share "
            "their place."
        ) % {"order": order}
    if strict:
        return _("Equal scores are ordered by the standings after the round before.")
    return _("Participants with equal scores share their place.")


def standings_legend(
    columns: Iterable[tuple[str, str]],
    *,
    primary: str,
    figure_codes: Sequence[str],
    tiebreak_codes: Sequence[str],
) -> list[tuple[str, str]]:
    """(heading, meaning) for every column shown, in the table's order (the name column is
    explained by the line above the legend).

    ``columns`` are the table's (column name, heading) as shown; ``figure_codes`` the codes
    behind ``figure_0``, ``figure_1``…, ``tiebreak_codes`` behind ``tiebreak_0``…
    """
    lines: list[tuple[str, str]] = []
    for name, heading in columns:
        if name == "rank":
            text = _("place in the standings")
        elif name == "score":
            text = str(FIGURE_EXPLANATIONS.get(primary, figure_label(primary)))
        elif name.startswith("figure_"):
            code = figure_codes[int(name.removeprefix("figure_"))]
            text = str(FIGURE_EXPLANATIONS.get(code, figure_label(code)))
        elif name == "game_points":
            text = _("game points: 1 for a win, ½ for a draw, plus byes and other entries")
        elif name.startswith("tiebreak_"):
            index = int(name.removeprefix("tiebreak_"))
            text = _("tie-break %(n)s: %(name)s") % {
                "n": index + 1,
                "name": criterion_label(tiebreak_codes[index]),
            }
        elif name == "separated_by":
            text = _(
                "on equal score, what placed the participant below the one ranked just above "
                "(point at the code for its name)"
            )
        elif name == "games":
            text = _("games played over the board (forfeits, byes and absences are not games)")
        elif name == "eligible":
            text = _("✓: eligible for prizes; –: not (yet)")
        elif name == "movement":
            text = _("▲/▼: places gained or lost since the previous round.")
        else:
            continue
        lines.append((heading, text))
    return lines
