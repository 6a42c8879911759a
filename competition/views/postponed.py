"""The TD marks a board as played on another date (an "inhaalpartij") on the results page, or
takes the mark back; the service is competition.services.postponed."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competition.forms.evening import PlayLaterForm
from competition.models import Round
from competition.permissions import AuthenticatedRequest, present, td_round_view
from competition.selectors import rounds as rounds_selectors
from competition.services import postponed
from competition.services.errors import ServiceError
from competition.views.actions import form_errors


@require_POST
@td_round_view
def td_game_play_later(request: AuthenticatedRequest, rnd: Round, game_id: int) -> HttpResponse:
    game = present(
        rounds_selectors.round_game(rnd, game_id),
        _("This board no longer exists; reload the round."),
    )
    form = PlayLaterForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form_errors(form)))
    else:
        try:
            if form.cleaned_data["cancel"]:
                postponed.game_play_later_cancel(game_id=game.pk, user=request.user)
                messages.success(
                    request,
                    _("Board %(board)s is played on the round's evening.") % {"board": game.board},
                )
            else:
                played_on = form.cleaned_data["played_on"]
                postponed.game_play_later(game_id=game.pk, played_on=played_on, user=request.user)
                messages.success(
                    request,
                    _("Board %(board)s is played on %(date)s.")
                    % {"board": game.board, "date": date_format(played_on)},
                )
        except ServiceError as error:
            messages.error(request, str(error))
    url = reverse("competition:td_results", args=[rnd.season.slug, rnd.number])
    return redirect(f"{url}#board-{game.board}")
