"""The pairing engine's reasons as sentences for the tournament director.

:mod:`competition.pairing` gives each decision as a :class:`~competition.pairing.Reason`: a
code and its values (player ids, rounds, counts). Here they become a sentence in the active
language with the players' names instead of their ids; a reason without a sentence of its own
keeps the engine's English (:meth:`~competition.pairing.Reason.describe`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.utils.translation import gettext as _

from competition.pairing import Reason, ReasonKind


def describe_reason(reason: Reason, names: Mapping[int, str]) -> str:
    """The engine's reason as a sentence for the TD, with names instead of ids."""
    p = reason.parameters

    def name(key: str) -> str:
        return names.get(p.get(key, 0), "?")

    for sentence in (_bye_sentence, _pair_sentence, _colour_sentence):
        text = sentence(reason.kind, p, name)
        if text is not None:
            return text
    return reason.describe()


def _bye_sentence(kind: ReasonKind, p: Mapping[str, int], name: Callable[[str], str]) -> str | None:
    """Who gets the bye, who does not, and why."""
    if kind == ReasonKind.BYE_FEWEST_BYES_LOWEST_RANKED:
        return _(
            "%(name)s gets the bye: lowest in the standings of those with the fewest byes "
            "(%(byes)s)."
        ) % {"name": name("player_id"), "byes": p.get("byes", 0)}
    if kind == ReasonKind.BYE_SKIPPED_HAD_BYE_LAST_ROUND:
        return _("%(name)s does not get the bye: he had it last round.") % {
            "name": name("player_id")
        }
    if kind == ReasonKind.BYE_SKIPPED_MORE_BYES:
        return _("%(name)s does not get the bye: he already had %(byes)s.") % {
            "name": name("player_id"),
            "byes": p.get("byes", 0),
        }
    if kind == ReasonKind.BYE_TWICE_IN_A_ROW_UNAVOIDABLE:
        return _("%(name)s gets the bye twice in a row: every candidate had it last round.") % {
            "name": name("player_id")
        }
    if kind == ReasonKind.BYE_FIXED_BY_TD:
        return _("%(name)s gets the bye: set by the TD.") % {"name": name("player_id")}
    if kind == ReasonKind.BYE_REQUESTED:
        return _("%(name)s gets the bye: he asked for it.") % {"name": name("player_id")}
    if kind == ReasonKind.BYE_REQUEST_EVEN:
        return _(
            "%(name)s asked for a bye, but an even number of players is paired: nobody gets a bye."
        ) % {"name": name("player_id")}
    if kind == ReasonKind.BYE_REQUEST_TAKEN:
        return _("%(name)s asked for a bye, but it went to %(bye)s.") % {
            "name": name("player_id"),
            "bye": name("bye_id"),
        }
    if kind == ReasonKind.BYE_SKIPPED_LIMIT:
        return _(
            "%(name)s does not get the bye: he already had his pairing-allocated bye this season."
        ) % {"name": name("player_id")}
    if kind == ReasonKind.BYE_LIMIT_UNAVOIDABLE:
        return _(
            "%(name)s gets another pairing-allocated bye: every candidate already had one."
        ) % {"name": name("player_id")}
    return None


def _pair_sentence(
    kind: ReasonKind, p: Mapping[str, int], name: Callable[[str], str]
) -> str | None:
    """Two players who meet despite a rule (a rematch, a forbidden pair, too many meetings), or who
    were kept apart by one."""
    if kind == ReasonKind.REMATCH_UNAVOIDABLE:
        return _(
            "%(white)s and %(black)s meet again (they played in round %(round)s): no pairing "
            "avoided it."
        ) % {"white": name("white_id"), "black": name("black_id"), "round": p["previous_round"]}
    if kind == ReasonKind.REMATCH_FIXED_BY_TD:
        return _(
            "%(white)s and %(black)s meet again (they played in round %(round)s): set by the TD."
        ) % {"white": name("white_id"), "black": name("black_id"), "round": p["previous_round"]}
    if kind == ReasonKind.REMATCH_AVOIDED:
        return _("%(a)s and %(b)s not paired: they played in round %(round)s (rematch window).") % {
            "a": name("a_id"),
            "b": name("b_id"),
            "round": p.get("previous_round", 0),
        }
    if kind == ReasonKind.FORBIDDEN_PAIR_AVOIDED:
        return _("%(a)s and %(b)s not paired: forbidden pair.") % {
            "a": name("a_id"),
            "b": name("b_id"),
        }
    if kind == ReasonKind.MAX_MEETINGS_AVOIDED:
        return _(
            "%(a)s and %(b)s not paired: they already played %(meetings)s times, the "
            "season's maximum."
        ) % {"a": name("a_id"), "b": name("b_id"), "meetings": p.get("meetings", 0)}
    if kind == ReasonKind.FORBIDDEN_PAIR_UNAVOIDABLE:
        return _("%(white)s and %(black)s are a forbidden pair: no pairing avoided it.") % {
            "white": name("white_id"),
            "black": name("black_id"),
        }
    if kind == ReasonKind.FORBIDDEN_PAIR_FIXED_BY_TD:
        return _("%(white)s and %(black)s are a forbidden pair: set by the TD.") % {
            "white": name("white_id"),
            "black": name("black_id"),
        }
    if kind == ReasonKind.MAX_MEETINGS_UNAVOIDABLE:
        return _(
            "%(white)s and %(black)s meet again after %(meetings)s games, more than the "
            "season allows: no pairing avoided it."
        ) % {"white": name("white_id"), "black": name("black_id"), "meetings": p["meetings"]}
    if kind == ReasonKind.MAX_MEETINGS_FIXED_BY_TD:
        return _(
            "%(white)s and %(black)s meet again after %(meetings)s games, more than the "
            "season allows: set by the TD."
        ) % {"white": name("white_id"), "black": name("black_id"), "meetings": p["meetings"]}
    return None


def _colour_sentence(
    kind: ReasonKind, p: Mapping[str, int], name: Callable[[str], str]
) -> str | None:
    """Why a board's colours are as they are."""
    if kind == ReasonKind.COLOUR_REVERSED_REMATCH:
        return _("A rematch: colours reversed from their game in round %(round)s.") % {
            "round": p.get("previous_round", 0)
        }
    if kind == ReasonKind.COLOUR_FIXED_BY_TD:
        return _("Colours set by the TD.")
    if kind == ReasonKind.COLOUR_DIFFERENCE_LIMIT:
        return _("Colours keep %(name)s within a colour difference of 2.") % {
            "name": name("player_id")
        }
    if kind == ReasonKind.COLOUR_FEWER_WHITES:
        return _("White has had fewer whites (%(white)s against %(black)s).") % {
            "white": p.get("white_whites", 0),
            "black": p.get("black_whites", 0),
        }
    if kind == ReasonKind.COLOUR_REVERSED_PREVIOUS_GAME:
        return _("Colours reversed from their game in round %(round)s.") % {
            "round": p.get("previous_round", 0)
        }
    if kind == ReasonKind.COLOUR_LOWER_RANKED_WHITE:
        return _("Equal whites and no earlier game: the lower-ranked player has white.")
    if kind == ReasonKind.COLOUR_DIFFERENCE_EXCEEDED:
        return _(
            "%(name)s reaches a colour difference of %(difference)s: no pairing avoided it."
        ) % {
            "name": name("player_id"),
            "difference": p.get("difference", 0),
        }
    return None
