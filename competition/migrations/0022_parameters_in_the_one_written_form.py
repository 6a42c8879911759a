"""Rule parameters stored in the one written form of exact numbers: ``"0.07"``, not ``"7/100"``.

Fractions without a finite decimal (Keizer's ``"2/3"``) keep their form; words, integers and
booleans are untouched. Both forms read as the same fraction, so no figure and no standings
fingerprint changes. The functions are written out here: a migration must not change when the
app's code does.
"""

import re
from fractions import Fraction

from django.db import migrations

NUMBER = re.compile(r"[+-]?[0-9]+(/0*[1-9][0-9]*|\.[0-9]+)?$")


def _written(fraction: Fraction) -> str:
    """The exact decimal when the fraction has one (7/100 is "0.07", 3 is "3"), else "2/3"."""
    denominator = fraction.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{fraction.numerator}/{fraction.denominator}"
    places, scaled = 0, fraction
    while scaled.denominator != 1:
        scaled, places = scaled * 10, places + 1
    sign = "-" if fraction < 0 else ""
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else f"{sign}{digits}"


def _rewrite(parameters: dict, form) -> dict:
    return {
        name: form(Fraction(value)) if isinstance(value, str) and NUMBER.match(value) else value
        for name, value in parameters.items()
    }


def _each(apps, form) -> None:
    for model in ("Season", "SeasonRules"):
        rows = apps.get_model("competition", model).objects.all()
        for row in rows.only("pk", "parameters").iterator():
            rewritten = _rewrite(row.parameters, form)
            if rewritten != row.parameters:
                row.parameters = rewritten
                row.save(update_fields=["parameters"])


def forwards(apps, schema_editor) -> None:
    _each(apps, _written)


def backwards(apps, schema_editor) -> None:
    _each(apps, str)


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0021_participant_explanation"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
