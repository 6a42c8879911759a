"""The participant page's fast path gives what the old path gave, for every participant and every
round of every demo season.

The page no longer recomputes the standings to explain a row (it passes the stored snapshot's
values as the totals), reads only the participant's own records, builds the tie-break context
lazily (his opponents' figures, not everybody's) and writes the games table's figure cells in
Python. Each is compared here with the path it replaced.
"""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation

from competition.models import Season, StandingsSnapshot
from competition.scoring import engine
from competition.scoring.exact import fraction_from_text
from competition.scoring.records import participant_records, records_by_participant
from competition.scoring.tiebreaks.codes import figure_codes
from competition.scoring.tiebreaks.contributions import read_context
from competition.scoring.tiebreaks.explanations import EXPLAINERS
from competition.selectors.common import season_input
from competition.selectors.participants import participant_detail
from competition.views.participants import _contribution_cells

OLD_CELLS = Template(
    "{% load clubcomp %}{% for code in codes %}"
    '<td class="num">{{ contributions|get_item:code|exact_number }}</td>{% endfor %}'
)


def test_fast_path_equals_old_path(demo_club) -> None:
    seasons = list(Season.objects.order_by("pk"))
    assert seasons
    checked = 0
    for season in seasons:
        season_in = season_input(season=season)
        stored = {
            snapshot.round_number: {row["participant_id"]: row for row in snapshot.rows}
            for snapshot in StandingsSnapshot.objects.filter(season=season)
        }
        codes = figure_codes([c for c in season_in.tiebreaks if c != "DE"])
        for after_round in range(1, len(season_in.rounds) + 1):
            everybody = records_by_participant(season_in, after_round)
            eager = read_context(season_in, after_round)
            lazy = read_context(season_in, after_round, lazy=True)
            for participant in season_in.participants:
                pid = participant.id
                old = engine.explain(season_in, participant_id=pid, after_round=after_round)
                values = stored[after_round][pid]["values"]
                new = engine.explain(
                    season_in,
                    participant_id=pid,
                    after_round=after_round,
                    totals={code: fraction_from_text(text) for code, text in values.items()},
                )
                assert new == old, (season.slug, after_round, pid)
                assert participant_records(season_in, pid, after_round) == everybody[pid]
                for code in codes:
                    assert EXPLAINERS[code](lazy, pid, code) == EXPLAINERS[code](eager, pid, code)
                checked += 1
    assert checked > 100


def test_game_cells_equal_the_template_loop(demo_club) -> None:
    for season in Season.objects.order_by("pk"):
        for participant_id in season.participants.values_list("pk", flat=True):
            page = participant_detail(season=season, participant_id=participant_id)
            codes = [section.code for section in page.sections]
            for language in ("nl", "en"):
                with translation.override(language):
                    for game in page.games:
                        old = OLD_CELLS.render(
                            Context({"codes": codes, "contributions": game.contributions})
                        )
                        assert _contribution_cells(game.contributions, codes) == old
