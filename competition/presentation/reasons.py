"""The pairing engine's reasons as sentences for the tournament director.

:mod:`competition.pairing` gives each decision as a :class:`~competition.pairing.Reason`: a
code and its values (player ids, rounds, counts). Here they become a sentence in the active
language with the players' names instead of their ids; a reason without a sentence of its own
keeps the engine's English (:meth:`~competition.pairing.Reason.describe`).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from competition.pairing import Reason, ReasonKind

# Each reason's sentence; its placeholders name the reason's values as in ``_values``.
_SENTENCES: dict[ReasonKind, str] = {
    # Who gets the bye, who does not, and why.
    ReasonKind.BYE_FEWEST_BYES_LOWEST_RANKED: gettext_noop(
        "%(name)s gets the bye: lowest in the standings of those with the fewest byes (%(byes)s)."
    ),
    ReasonKind.BYE_SKIPPED_HAD_BYE_LAST_ROUND: gettext_noop(
        "%(name)s does not get the bye: he had it last round."
    ),
    ReasonKind.BYE_SKIPPED_MORE_BYES: gettext_noop(
        "%(name)s does not get the bye: he already had %(byes)s."
    ),
    ReasonKind.BYE_TWICE_IN_A_ROW_UNAVOIDABLE: gettext_noop(
        "%(name)s gets the bye twice in a row: every candidate had it last round."
    ),
    ReasonKind.BYE_FIXED_BY_TD: gettext_noop("%(name)s gets the bye: set by the TD."),
    ReasonKind.BYE_REQUESTED: gettext_noop("%(name)s gets the bye: he asked for it."),
    ReasonKind.BYE_REQUEST_EVEN: gettext_noop(
        "%(name)s asked for a bye, but an even number of players is paired: nobody gets a bye."
    ),
    ReasonKind.BYE_REQUEST_TAKEN: gettext_noop("%(name)s asked for a bye, but it went to %(bye)s."),
    ReasonKind.BYE_SKIPPED_LIMIT: gettext_noop(
        "%(name)s does not get the bye: he already had his pairing-allocated bye this season."
    ),
    ReasonKind.BYE_LIMIT_UNAVOIDABLE: gettext_noop(
        "%(name)s gets another pairing-allocated bye: every candidate already had one."
    ),
    # Two players who meet despite a rule (a rematch, a forbidden pair, too many meetings), or
    # who were kept apart by one.
    ReasonKind.REMATCH_UNAVOIDABLE: gettext_noop(
        "%(white)s and %(black)s meet again (they played in round %(round)s): no pairing "
        "avoided it."
    ),
    ReasonKind.REMATCH_FIXED_BY_TD: gettext_noop(
        "%(white)s and %(black)s meet again (they played in round %(round)s): set by the TD."
    ),
    ReasonKind.REMATCH_AVOIDED: gettext_noop(
        "%(a)s and %(b)s not paired: they played in round %(round)s (rematch window)."
    ),
    ReasonKind.FORBIDDEN_PAIR_AVOIDED: gettext_noop("%(a)s and %(b)s not paired: forbidden pair."),
    ReasonKind.MAX_MEETINGS_AVOIDED: gettext_noop(
        "%(a)s and %(b)s not paired: they already played %(meetings)s times, the season's maximum."
    ),
    ReasonKind.FORBIDDEN_PAIR_UNAVOIDABLE: gettext_noop(
        "%(white)s and %(black)s are a forbidden pair: no pairing avoided it."
    ),
    ReasonKind.FORBIDDEN_PAIR_FIXED_BY_TD: gettext_noop(
        "%(white)s and %(black)s are a forbidden pair: set by the TD."
    ),
    ReasonKind.MAX_MEETINGS_UNAVOIDABLE: gettext_noop(
        "%(white)s and %(black)s meet again after %(meetings)s games, more than the "
        "season allows: no pairing avoided it."
    ),
    ReasonKind.MAX_MEETINGS_FIXED_BY_TD: gettext_noop(
        "%(white)s and %(black)s meet again after %(meetings)s games, more than the "
        "season allows: set by the TD."
    ),
    # Why a board's colours are as they are.
    ReasonKind.COLOUR_REVERSED_REMATCH: gettext_noop(
        "A rematch: colours reversed from their game in round %(round)s."
    ),
    ReasonKind.COLOUR_FIXED_BY_TD: gettext_noop("Colours set by the TD."),
    ReasonKind.COLOUR_DIFFERENCE_LIMIT: gettext_noop(
        "Colours keep %(name)s within a colour difference of 2."
    ),
    ReasonKind.COLOUR_REVERSED_PREVIOUS_GAME: gettext_noop(
        "Colours reversed from their game in round %(round)s."
    ),
    ReasonKind.COLOUR_LOWER_RANKED_WHITE: gettext_noop(
        "Equal whites and no earlier game: the lower-ranked player has white."
    ),
    ReasonKind.COLOUR_DIFFERENCE_EXCEEDED: gettext_noop(
        "%(name)s reaches a colour difference of %(difference)s: no pairing avoided it."
    ),
}


def describe_reason(reason: Reason, names: Mapping[int, str]) -> str:
    """The engine's reason as a sentence for the TD, with names instead of ids."""
    p = reason.parameters
    if reason.kind == ReasonKind.COLOUR_FEWER_WHITES:  # its "white" and "black" are counts
        return _("White has had fewer whites (%(white)s against %(black)s).") % {
            "white": p.get("white_whites", 0),
            "black": p.get("black_whites", 0),
        }
    sentence = _SENTENCES.get(reason.kind)
    if sentence is None:
        return reason.describe()
    return _(sentence) % _values(p, names)


def _values(p: Mapping[str, int], names: Mapping[int, str]) -> dict[str, object]:
    """What the sentences' placeholders stand for: players by name, counts and rounds as given."""

    def name(key: str) -> str:
        return names.get(p.get(key, 0), "?")

    return {
        "name": name("player_id"),
        "white": name("white_id"),
        "black": name("black_id"),
        "a": name("a_id"),
        "b": name("b_id"),
        "bye": name("bye_id"),
        "byes": p.get("byes", 0),
        "round": p.get("previous_round", 0),
        "meetings": p.get("meetings", 0),
        "difference": p.get("difference", 0),
    }
