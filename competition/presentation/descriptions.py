"""A season's ranking system in words, made from the season's own parameters.

The systems' fixed descriptions (``RankingSystem.description``) say how a system works and hold
no number (a test keeps it so); every number a season chose (the points for a win, Van den
Brink's factor and start points, Keizer's top value, the fraction a bye earns) comes from here,
so that the "how it works" page never states a default the season has changed.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext, gettext_noop, ngettext, override

from competition.presentation.numbers import fraction_text, signed_text
from competition.scoring.model import ParameterValues
from competition.scoring.parameters import EMPTY
from competition.scoring.systems import internal_sb, keizer, points, van_den_brink

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
    key: str, values: ParameterValues, *, participants: int, language: str
) -> list[str]:
    """Sentences with the season's figures for system ``key`` (empty for an unknown system).

    Example (Keizer, defaults, 24 participants, English): "Place 1 is worth 36 (one and a half
    times the 24 participants, rounded). Every place below it is worth 1 less, never less than
    0.", then the fractions of the opponent's value and of one's own value, and how the values
    are recomputed. Van den Brink with a win part of 4 and a factor of 0.05 (English): "... 4
    for a win ..." and "Against an opponent whose rank value is 10 higher: 0.05 × 10 = 0.5."
    """
    words = _SYSTEMS.get(key)
    if words is None:
        return []
    with override(language):
        return words(values, participants)


def _number(values: ParameterValues, name: str) -> str:
    return fraction_text(Fraction(values[name]))


def _points(values: ParameterValues, participants: int) -> list[str]:
    return [
        gettext("A win is worth %(win)s, a draw %(draw)s, a loss %(loss)s.")
        % {name: _number(values, name) for name in ("win", "draw", "loss")}
    ]


def _internal_sb(values: ParameterValues, participants: int) -> list[str]:
    sentences = [
        gettext(
            "Internal points: your game points plus %(value)s for every round without a game "
            "over the board."
        )
        % {"value": _number(values, "unplayed_value")}
    ]
    sentences.append(
        gettext("Rounds before you joined count as rounds without a game.")
        if values["count_rounds_before_joining"]
        else gettext("Rounds before you joined earn no internal points.")
    )
    if values.get("external_game") == internal_sb.EXTERNAL_AS_RESULT:
        sentences.append(
            gettext(
                "An external game (a team match on club night) earns its result in internal "
                "points instead: 1 for a win, ½ for a draw, 0 for a loss."
            )
        )
    return sentences


def _van_den_brink(values: ParameterValues, participants: int) -> list[str]:
    top = Fraction(values["start_points_top"])
    step = Fraction(values["start_points_step"])
    factor = Fraction(values["factor"])
    n = int(values["games_per_update"])
    sentences = [
        gettext(
            "Start points: %(top)s for last season's number one, %(step)s less for every place "
            "below (%(top)s, %(second)s, %(third)s, ...); the tournament director sets the start "
            "points of a new member."
        )
        % {
            "top": fraction_text(top),
            "step": fraction_text(step),
            "second": fraction_text(top - step),
            "third": fraction_text(top - 2 * step),
        },
        gettext("Result part: %(win)s for a win, %(draw)s for a draw, %(loss)s for a loss.")
        % {
            "win": signed_text(Fraction(values["win_part"])),
            "draw": signed_text(Fraction(values["draw_part"])),
            "loss": signed_text(Fraction(values["loss_part"])),
        },
        gettext(
            "Plus %(factor)s × (your opponent's rank value − your own); your opponent gets the "
            "opposite. Against an opponent whose rank value is 10 higher: %(factor)s × 10 = "
            "%(example)s."
        )
        % {"factor": fraction_text(factor), "example": fraction_text(factor * 10)},
    ]
    sentences.append(
        (
            ngettext(
                "After your first %(n)s game your rank value becomes your points; only once.",
                "After your first %(n)s games your rank value becomes your points; only once.",
                n,
            )
            if values["update_mode"] == van_den_brink.ONCE
            else ngettext(
                "After every %(n)s game your rank value becomes your points.",
                "After every %(n)s games your rank value becomes your points.",
                n,
            )
        )
        % {"n": n}
    )
    sentences.append(
        gettext("A forfeit counts as a game: a win or a loss with its compensation.")
        if values["forfeits_count"]
        else gettext("A forfeit changes nothing and does not count as a game.")
    )
    if values.get("external_game") == van_den_brink.EXTERNAL_EQUAL_OPPONENT:
        sentences.append(
            gettext(
                "An external game (a team match on club night) counts as a game against an "
                "opponent of your own rank value: only the result part."
            )
        )
    return sentences


def _keizer(values: ParameterValues, participants: int) -> list[str]:
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
    # the defaults (result × own value; nothing before joining) go without saying
    external = values.get("external_game", keizer.RESULT)
    if external != keizer.RESULT:
        sentences.append(
            gettext(
                "An external game (a team match on club night) earns %(fraction)s of your own "
                "value, whatever its result."
            )
            % {"fraction": fraction_text(Fraction(external))}
        )
    if values.get("before_joining") == keizer.ABSENT_WITH_NOTICE:
        sentences.append(
            gettext("A round before you joined counts as absent with notice (%(fraction)s).")
            % {"fraction": number("absent_with_notice")}
        )
    if values["own_value_in_score"]:
        sentences.append(gettext("Your own value counts once in your score."))
    else:
        sentences.append(gettext("Your own value does not count in your score by itself."))
    sentences.append(gettext(_RECALCULATION[str(values["recalculation"])]))
    return sentences


_SYSTEMS = {
    points.PointsSystem.key: _points,
    internal_sb.InternalSonnebornBerger.key: _internal_sb,
    van_den_brink.VanDenBrink.key: _van_den_brink,
    keizer.Keizer.key: _keizer,
}
