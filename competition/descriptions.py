"""A season's ranking system in words, made from the season's own parameters.

The systems' fixed descriptions (``RankingSystem.description``) say how a system works; the
numbers a season chose (Keizer's top value, the fraction a bye earns) come from here, so that
the "how it works" page never states a default the season has changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from django.utils.translation import gettext, gettext_noop, ngettext, override

from competition.scoring.model import ParameterValue
from competition.scoring.parameters import EMPTY
from competition.scoring.systems import keizer
from competition.templatetags.clubcomp import fraction_text

_RECALCULATION = {
    keizer.FIXED_POINT: gettext_noop(
        "After every round all rounds are recomputed with the values of the new standings, "
        "again and again until the standings no longer change."
    ),
    keizer.PREVIOUS_VALUES: gettext_noop(
        "After every round all rounds are recomputed once, with the values of the standings "
        "after the round before."
    ),
    keizer.FROZEN: gettext_noop(
        "The values of the start list count all season; they do not follow the standings."
    ),
}

_OWN_VALUE_FRACTIONS = (
    "bye", "club_duty", "absent_with_notice", "absent_without_notice", "forfeit_win",
    "forfeit_loss",
)  # fmt: skip


def system_in_words(
    key: str, values: Mapping[str, ParameterValue], *, participants: int, language: str
) -> list[str]:
    """Sentences with the season's figures for system ``key``; empty for a system whose fixed
    description already says all (its parameters are listed beside it).

    Example (Keizer, defaults, 24 participants, English): "Place 1 is worth 36 (one and a half
    times the 24 participants, rounded). Every place below it is worth 1 less, never less than
    0.", then the fractions of the opponent's value and of one's own value, and how the values
    are recomputed.
    """
    if key != keizer.Keizer.key:
        return []
    with override(language):
        return _keizer(values, participants)


def _keizer(values: Mapping[str, ParameterValue], participants: int) -> list[str]:
    def number(name: str) -> str:
        return fraction_text(Fraction(values[name]))

    top = fraction_text(keizer.top_value_of(values, participants))
    if values["top_value"] == EMPTY:
        first = gettext(
            "Place 1 is worth %(top)s (one and a half times the %(n)s participants, rounded). "
            "Every place below it is worth %(step)s less, never less than 0."
        ) % {"top": top, "n": participants, "step": number("value_step")}
    else:
        first = gettext(
            "Place 1 is worth %(top)s. Every place below it is worth %(step)s less, never less "
            "than 0."
        ) % {"top": top, "step": number("value_step")}
    sentences = [
        first,
        gettext(
            "A game earns a fraction of your opponent's value: a win %(win)s, a draw %(draw)s, "
            "a loss %(loss)s."
        )
        % {name: number(name) for name in ("win", "draw", "loss")},
        gettext(
            "A round without a game earns a fraction of your own value: a bye %(bye)s, club "
            "duty %(club_duty)s, absent with notice %(absent_with_notice)s, absent without "
            "notice %(absent_without_notice)s, a forfeit win %(forfeit_win)s, a forfeit loss "
            "%(forfeit_loss)s."
        )
        % {name: number(name) for name in _OWN_VALUE_FRACTIONS},
    ]
    paid = values["max_paid_absences"]
    if paid != EMPTY:
        sentences.append(
            ngettext(
                "Only %(n)s absence with notice earns points; later ones earn nothing.",
                "Only %(n)s absences with notice earn points; later ones earn nothing.",
                int(paid),
            )
            % {"n": int(paid)}
        )
    if values["own_value_in_score"]:
        sentences.append(gettext("Your own value counts once in your score."))
    else:
        sentences.append(gettext("Your own value does not count in your score by itself."))
    sentences.append(gettext(_RECALCULATION[str(values["recalculation"])]))
    return sentences
