"""The games table, the chart's figures and the round choices of the participant page, written
in Python (``competition.views.participant_rows``), are what ``_participant.html``'s
loops wrote:
the loops as they were are rendered here beside them, for every demo participant, in both
languages. Numbers are compared apart: the chart's score column now shares one
style (``competition/presentation/numbers.py``), so the history rows are compared with every
number as ``#``
(tests/views/test_explanation_rows.py's ``without_numbers``).
"""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation

from competition.models import Season
from competition.selectors.participants import participant_detail
from competition.views.participant_rows import (
    CellTexts,
    game_rows_html,
    history_rows_html,
    round_options_html,
)
from competition.views.participants import _contribution_cells
from tests.views.test_explanation_rows import without_numbers

GAME_LOOP = Template(
    "{% load clubcomp %}{% for game, cells in game_rows %}\n"
    '      <tr{% if not game.played %} class="unplayed"{% endif %}>\n'
    '        <td class="num">{{ game.round_number }}</td>\n'
    '        <th scope="row" class="name-cell">{% if game.opponent_id %}<a href="{% url '
    "'competition:participant' season.slug game.opponent_id %}\">{{ game.opponent_name }}</a>"
    '{% else %}<span class="text-body-secondary">{{ game.entry|entry_name }}</span>{% endif %}'
    "</th>\n"
    "        <td>{{ game.colour|colour_name }}</td>\n"
    '        <td class="text-center">{% if game.result %}{{ game.result|result_text }}'
    "{% else %}–{% endif %}</td>\n"
    '        <td class="num">{{ game.points|half }}</td>\n'
    "        {{ cells }}\n"
    "      </tr>\n"
    "    {% endfor %}"
)
HISTORY_LOOP = Template(
    '{% load clubcomp %}{% for point in data.history %}<tr><th scope="row">'
    '{{ point.round_number }}</th><td class="num">{{ point.rank }}</td><td class="num">'
    "{{ point.score|exact_number }}</td></tr>{% endfor %}"
)
OPTIONS_LOOP = Template(
    '{% for number in data.rounds %}<option value="{{ number }}"'
    "{% if number == data.after_round %} selected{% endif %}>{{ number }}</option>{% endfor %}"
)


def test_rows_equal_the_template_loops(demo_club) -> None:
    checked = 0
    for season in Season.objects.order_by("pk"):
        last = season.snapshots.count()
        for participant_id in season.participants.values_list("pk", flat=True):
            for after_round in sorted({1, last}):
                data = participant_detail(
                    season=season, participant_id=participant_id, after_round=after_round
                )
                codes = [section.code for section in data.sections]
                for language in ("nl", "en"):
                    with translation.override(language):
                        cells = CellTexts(data.names)
                        rows = [
                            (game, _contribution_cells(game.contributions, codes, cells=cells))
                            for game in data.games
                        ]
                        context = Context({"season": season, "data": data, "game_rows": rows})
                        assert game_rows_html(
                            rows, season_slug=season.slug, cells=cells
                        ) == GAME_LOOP.render(context)
                        assert without_numbers(
                            history_rows_html(data.history, cells=cells)
                        ) == without_numbers(HISTORY_LOOP.render(context))
                        assert round_options_html(
                            data.rounds, after_round=data.after_round, cells=cells
                        ) == OPTIONS_LOOP.render(context)
                        checked += 1
    assert checked > 100
