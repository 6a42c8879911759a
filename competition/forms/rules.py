"""The staff form for a season's rules: system, its parameters, tie-breaks in order, policies.

Every system's parameters are fields (named ``<system>__<parameter>``), grouped per system; only
the chosen system's are used, and only its fieldset shows: the others are behind a switch (a
``<details>``, which works without JavaScript). Fractions accept what people type: ``0,07``,
``0.07`` or ``7/100``.
The form only parses input; the rules are checked by ``services.rules.rules_validate``.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from crispy_forms.helper import FormHelper
from crispy_forms.layout import HTML, Fieldset, Layout, Submit
from django import forms
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from competition.forms.ranges import integer_range
from competition.models import RuleChanges, Season, UnplayedPolicy
from competition.presentation import labels
from competition.scoring.exact import fraction_from_typed
from competition.scoring.parameters import EMPTY, ParameterKind, ParameterSpec, parameters_from_json
from competition.scoring.registry import SYSTEMS
from competition.scoring.tiebreaks import TIEBREAK_CODES, validate_tiebreaks
from competition.services.rules import Rules, rules_validate


def _show(value: object) -> str:
    """A bound as people read it: "0,07" in Dutch when it has a finite decimal, else "1/3";
    "−10" with the minus sign of the pages (competition/presentation/numbers.py)."""
    if isinstance(value, Fraction | int) and not isinstance(value, bool):
        from competition.presentation.numbers import fraction_text

        return fraction_text(value)
    return labels.choice_label(value)  # a word ("result"), as the reader reads it


def unknown_tiebreaks(codes: list[str]) -> str:
    """The message for the codes that are no tie-break, in the reader's words ("" when all are
    known). The service refuses the first unknown code only; this names every one."""
    unknown = []
    for code in codes:
        try:
            validate_tiebreaks([code])
        except ValueError:
            unknown.append(code)
    if not unknown:
        return ""
    return ngettext(
        "Unknown tie-break: %(codes)s. Known codes: %(known)s.",
        "Unknown tie-breaks: %(codes)s. Known codes: %(known)s.",
        len(unknown),
    ) % {"codes": ", ".join(unknown), "known": ", ".join(TIEBREAK_CODES)}


def _word(typed: str, words: tuple[str, ...]) -> str:
    """The word typed, as its code or in the reader's words ("de uitslag" is ``result``)."""
    typed = typed.strip()
    for word in words:
        if typed == word or (word and typed.casefold() == labels.choice_label(word).casefold()):
            return word
    return ""


# The allowed values in words, whole numbers and exact ones: both bounds, the lower only, the
# upper only, none.
_ALLOWED_WORDS = {
    True: (
        gettext_noop("a whole number from %(low)s to %(high)s"),
        gettext_noop("a whole number of at least %(low)s"),
        gettext_noop("a whole number of at most %(high)s"),
        gettext_noop("a whole number"),
    ),
    False: (
        gettext_noop("an exact number from %(low)s to %(high)s"),
        gettext_noop("an exact number of at least %(low)s"),
        gettext_noop("an exact number of at most %(high)s"),
        gettext_noop("an exact number"),
    ),
}


def _allowed(spec: ParameterSpec) -> str:
    """The allowed values in the reader's words (``ParameterSpec.allowed`` says it in English)."""
    low = None if spec.minimum is None else _show(spec.minimum)
    high = None if spec.maximum is None else _show(spec.maximum)
    both, at_least, at_most, unbounded = _ALLOWED_WORDS[spec.kind is ParameterKind.INT]
    if low is not None and high is not None:
        return gettext(both) % {"low": low, "high": high}
    if low is not None:
        return gettext(at_least) % {"low": low}
    if high is not None:
        return gettext(at_most) % {"high": high}
    return gettext(unbounded)


def _whole_number(low: int | None, high: int | None, **kwargs: Any) -> forms.IntegerField:
    """A whole number from ``low`` to ``high``, refused outside with the range in words."""
    spec = ParameterSpec("", ParameterKind.INT, 0, "", minimum=low, maximum=high)
    message = _("Enter %(allowed)s.") % {"allowed": _allowed(spec)}
    return forms.IntegerField(
        min_value=low,
        max_value=high,
        error_messages={"min_value": message, "max_value": message},
        **kwargs,
    )


def _field_for(spec: ParameterSpec, language: str) -> forms.Field:
    label = labels.parameter_label(spec, language)
    help_text = _allowed(spec)
    if spec.kind is ParameterKind.BOOL:
        return forms.BooleanField(label=label, required=False)
    if spec.kind is ParameterKind.CHOICE:
        return forms.ChoiceField(
            label=label, choices=[(c, labels.choice_label(c, language)) for c in spec.choices]
        )
    # A parameter that may be left empty (Keizer's top_value) is not required; its other
    # words (Keizer's external_game "result") are typed into the text field.
    optional = EMPTY in spec.words
    if spec.kind is ParameterKind.INT:
        # An integer parameter's bounds are whole numbers (the registry's tests check it).
        return _whole_number(
            None if spec.minimum is None else int(spec.minimum),
            None if spec.maximum is None else int(spec.maximum),
            label=label,
            help_text=help_text,
            required=not optional,
        )
    return forms.CharField(label=label, help_text=help_text, max_length=40, required=not optional)


def _button(name: str, label: str | Promise, classes: str, **attributes: str) -> Submit:
    """A submit button with exactly ``classes``: crispy's ``Submit`` adds ``btn-primary`` to any
    ``css_class``, and ``btn-primary`` beside ``btn-outline-primary`` made the Preview button
    blue on blue. ``attributes`` become the button's (``formaction``)."""
    button = Submit(name, label, **attributes)
    button.field_classes = classes
    return button


class SeasonRulesForm(forms.Form):
    system = forms.ChoiceField(label=_("Ranking system"))
    tiebreaks = forms.CharField(
        label=_("Tie-breaks in order"),
        required=False,
        help_text=_("FIDE codes separated by commas, for example: BH/C1, BH, SB, DE"),
    )
    unplayed_policy = forms.ChoiceField(
        label=_("Unplayed rounds in tie-breaks"), choices=UnplayedPolicy.choices
    )
    min_games = forms.IntegerField(label=_("Minimum games for prizes"))  # bounded in __init__
    rule_changes = forms.ChoiceField(
        label=_("This change applies"),
        choices=RuleChanges.choices,
        widget=forms.RadioSelect,
        required=False,  # not sent: the season's setting
        help_text=_(
            "From the next round on: the standings published so far stay as they are; a change "
            "of ranking system always applies to the whole season."
        ),
    )

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        self.season = season
        language = get_language() or "nl"
        current = parameters_from_json(season.parameters)
        initial = {
            "system": season.system,
            "tiebreaks": ", ".join(season.tiebreaks),
            "unplayed_policy": season.unplayed_policy,
            "min_games": season.min_games,
            "rule_changes": season.rule_changes,
        }
        kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        # What the season's column stores on every database (the message in the reader's words).
        min_games = integer_range(Season._meta.get_field("min_games")) or (0, None)
        self.fields["min_games"] = _whole_number(*min_games, label=_("Minimum games for prizes"))
        system_field = self.fields["system"]
        assert isinstance(system_field, forms.ChoiceField)
        system_field.choices = [
            (key, labels.system_name(system, language)) for key, system in SYSTEMS.items()
        ]
        chosen = self._chosen_system()
        fieldsets: dict[str, Fieldset] = {}
        for key, system in SYSTEMS.items():
            names = []
            for spec in system.parameters:
                name = f"{key}__{spec.name}"
                self.fields[name] = _field_for(spec, language)
                value = (
                    current.get(spec.name, spec.default) if key == season.system else spec.default
                )
                self.initial[name] = (
                    value if spec.kind is not ParameterKind.FRACTION else _show(value)
                )
                names.append(name)
            fieldsets[key] = Fieldset(
                _("Parameters: %(system)s") % {"system": labels.system_name(system, language)},
                *names,
                css_class="system-parameters border rounded p-2 mb-3",
                data_system=key,
            )
        others = [fieldset for key, fieldset in fieldsets.items() if key != chosen]
        codes = ", ".join(TIEBREAK_CODES)
        known_codes = _("Known codes:")
        other_systems = _("Settings of the other systems")
        self.helper = FormHelper()
        self.helper.form_method = "post"
        self.helper.layout = Layout(
            "system",
            # static/js/rules.js moves the chosen system's fieldset here when the system changes
            HTML('<div id="chosen-system-parameters">'),
            fieldsets[chosen],
            HTML("</div>"),
            HTML(
                '<details class="other-systems mb-3" id="other-systems"'
                "{% if form.other_system_errors %} open{% endif %}>"
                f"<summary>{other_systems}</summary>"
            ),
            *others,
            HTML("</details>"),
            "tiebreaks",
            HTML(f'<p class="form-text small">{known_codes} {codes}</p>'),
            "unplayed_policy",
            "min_games",
            "rule_changes",
            # the preview opens at its own top (templates/competition/_rules_preview.html)
            _button("preview", _("Preview"), "btn btn-outline-primary me-2", formaction="#preview"),
            _button("save", _("Save new rules"), "btn btn-primary"),
        )

    @property
    def other_system_errors(self) -> bool:
        """Whether a field of another system than the chosen one has an error (a number out of
        range): its fieldset must then be open."""
        chosen = self._chosen_system()
        return any(name.split("__")[0] != chosen for name in self.errors if "__" in name)

    def _chosen_system(self) -> str:
        """The system whose parameters the form shows first: the one sent, else the season's."""
        sent = self.data.get("system") if self.is_bound else None
        if isinstance(sent, str) and sent in SYSTEMS:
            return sent
        return self.season.system if self.season.system in SYSTEMS else next(iter(SYSTEMS))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        key = data.get("system")
        if not key or key not in SYSTEMS or "min_games" not in data:
            return data
        parameters: dict[str, object] = {}
        for spec in SYSTEMS[key].parameters:
            name = f"{key}__{spec.name}"
            raw = data.get(name)
            if spec.kind is ParameterKind.INT and raw is None and EMPTY in spec.words:
                parameters[spec.name] = EMPTY  # left empty on purpose
            elif isinstance(raw, str) and _word(raw, spec.words):
                parameters[spec.name] = _word(raw, spec.words)
            elif spec.kind is ParameterKind.FRACTION:
                if raw in (None, ""):
                    self.add_error(name, _("Enter a number."))
                    continue
                try:
                    value = fraction_from_typed(str(raw))
                except ValueError:
                    self.add_error(name, _("Enter a number such as 0,07 or 7/100."))
                    continue
                # The service refuses it too; here the message stands beside its field.
                if (spec.minimum is not None and value < spec.minimum) or (
                    spec.maximum is not None and value > spec.maximum
                ):
                    self.add_error(name, _("Enter %(allowed)s.") % {"allowed": _allowed(spec)})
                    continue
                parameters[spec.name] = str(value)
            elif raw is not None:
                parameters[spec.name] = raw
        codes = [code for code in re.split(r"[,;\s]+", data.get("tiebreaks") or "") if code]
        unknown = unknown_tiebreaks(codes)
        if unknown:
            self.add_error("tiebreaks", unknown)
        if self.errors:
            return data
        from competition.services.errors import ServiceError

        try:
            data["rules"] = rules_validate(
                system=key,
                parameters=parameters,
                tiebreaks=codes,
                unplayed_policy=data["unplayed_policy"],
                min_games=data["min_games"],
            )
        except ServiceError as error:
            raise forms.ValidationError(str(error)) from None
        return data

    @property
    def rules(self) -> Rules:
        return self.cleaned_data["rules"]
