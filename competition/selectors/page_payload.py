"""A participant page's data as JSON text and back, exactly: what the worker stores beside the
standings snapshot (``ParticipantExplanation``) so that his page reads it instead of running the
engine over the whole season.

JSON holds no fractions, tuples, dictionaries with whole-number keys or dataclasses, so each is
written as a one-key object naming what it is:

- a ``Fraction`` as ``{"q": [numerator, denominator]}``;
- a tuple as ``{"t": [...]}``, a dictionary as ``{"d": [[key, value], ...]}`` (keys keep their
  type);
- a dataclass of :data:`CLASSES` as ``{"c": name, "f": [its fields in order]}``.

Lists, text, whole numbers, booleans and ``None`` are written as themselves. Any other value
(a float, a model instance) is refused when written: the text holds nothing else, and reading it
builds only these types (no code named by the text is run).

:data:`LAYOUT` names the classes and their fields: a stored text written under another layout
(by an older version of the code) is not read back.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from fractions import Fraction
from typing import Any

from competition.scoring import model as scoring
from competition.scoring import movement
from competition.selectors.participants import (
    ChartRow,
    CorrectedRow,
    ExplanationSection,
    GameLine,
    ParticipantPage,
    RoundCorrections,
)

CLASSES: tuple[type, ...] = (
    ParticipantPage,
    GameLine,
    ExplanationSection,
    ChartRow,
    CorrectedRow,
    RoundCorrections,
    scoring.Contribution,
    movement.Movement,
    movement.ScoreChange,
    movement.PlaceChange,
    movement.CorrectionEffect,
)
_BY_NAME = {cls.__name__: cls for cls in CLASSES}
_FIELDS = {cls: tuple(field.name for field in dataclasses.fields(cls)) for cls in CLASSES}

LAYOUT = hashlib.sha256(
    repr([(cls.__module__, cls.__name__, _FIELDS[cls]) for cls in CLASSES]).encode()
).hexdigest()[:16]


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, Fraction):
        return {"q": [value.numerator, value.denominator]}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, tuple):
        return {"t": [_plain(item) for item in value]}
    if isinstance(value, dict):
        return {"d": [[_plain(key), _plain(item)] for key, item in value.items()]}
    if type(value) in _FIELDS:
        fields = _FIELDS[type(value)]
        return {"c": type(value).__name__, "f": [_plain(getattr(value, f)) for f in fields]}
    raise TypeError(f"a page payload holds no {type(value).__name__}: {value!r}")


def _built(tagged: dict[str, Any], fractions: dict[tuple[int, int], Fraction]) -> Any:
    if "q" in tagged:
        # a page repeats few numbers: each built once (a Fraction is immutable)
        key = (numerator, denominator) = tuple(tagged["q"])
        number = fractions.get(key)
        if number is None:
            number = fractions[key] = Fraction(numerator, denominator)
        return number
    if "t" in tagged:
        return tuple(tagged["t"])
    if "d" in tagged:
        return {key: value for key, value in tagged["d"]}
    # a dictionary key or a tuple inside a key would arrive as a list: pages have neither
    return _BY_NAME[tagged["c"]](*tagged["f"])


def page_to_text(*, page: ParticipantPage) -> str:
    """``page`` as JSON text, without its season and without any name: the reader has the
    season and reads the names as the public sees them now (a member who hides his name, or
    is anonymised, is hidden at once, and no stored text keeps his name).

    >>> text = page_to_text(page=ParticipantPage(None, 7, "Anna", 2, [1, 2], None, 2, "IP", (),
    ...     (), [], [], {7: "Anna"}, [ChartRow(2, 1, Fraction(3, 2))]))
    >>> "Anna" in text
    False
    >>> page = page_from_text(text=text, season=None, names={7: "A. de Vries"})
    >>> page.name, page.history
    ('A. de Vries', [ChartRow(round_number=2, rank=1, score=Fraction(3, 2))])
    """
    nameless = dataclasses.replace(
        page,
        name="",
        names={},
        games=[dataclasses.replace(game, opponent_name="") for game in page.games],
    )
    fields = [
        None if field == "season" else _plain(getattr(nameless, field))
        for field in _FIELDS[ParticipantPage]
    ]
    return json.dumps({"c": ParticipantPage.__name__, "f": fields}, separators=(",", ":"))


def page_from_text(*, text: str, season: Any, names: dict[int, str]) -> ParticipantPage:
    """The page :func:`page_to_text` wrote, for ``season``, with ``names`` (every participant's
    name as the public sees it)."""
    fractions: dict[tuple[int, int], Fraction] = {}
    page = json.loads(text, object_hook=lambda tagged: _built(tagged, fractions))
    if not isinstance(page, ParticipantPage):
        raise ValueError("not a participant page")
    return dataclasses.replace(
        page,
        season=season,
        name=names[page.participant_id],
        names=names,
        games=[
            dataclasses.replace(game, opponent_name=names.get(game.opponent_id, ""))
            if game.opponent_id
            else game
            for game in page.games
        ],
    )
